"""A simulation's figures as the text tables ``deckwright simulate`` prints."""
from __future__ import annotations

import json


def shown(value) -> str:
    """An option's value as typed on the command line: text bare, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def percent(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def number(x: float) -> str:
    """A game length: one decimal, so that a column of quartiles reads alike (an interpolated one is 28.8)."""
    return f"{x:.1f}"


def table(rows: list[list[str]], right: set[int] = frozenset()) -> list[str]:
    """Columns padded to their widest cell; the columns in ``right`` aligned right; a rule under the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(row):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip()

    return [line(rows[0]), line(["-" * w for w in widths]), *(line(row) for row in rows[1:])]


def win_text(win: dict | None) -> tuple[str, str]:
    if win is None or win["rate"] is None:  # no game reports wins, or none to count (a card never played)
        return "-", "-"
    return percent(win["rate"]), f"{percent(win['low'])} - {percent(win['high'])}"


def cell_name(sweep: dict) -> str:
    return " ".join(f"{k}={shown(v)}" for k, v in sweep.items()) or "all games"


def lines(data: dict) -> list[str]:
    keys = [s["key"] for s in data["sweeps"]]
    outcomes = sorted({name for cell in data["cells"] for name in cell["outcomes"]})
    header = [*(s.get("name", s["key"]) for s in data["sweeps"]), "games", "win rate", "95% interval", "length mean", "q1", "median", "q3", *outcomes]
    rows = [header]
    for cell in data["cells"]:
        length = cell["length"]
        rows.append([*(shown(cell["sweep"][k]) for k in keys), f"{cell['games']:,}", *win_text(cell["win"]),
                     f"{length['mean']:.1f}", number(length["q1"]), number(length["median"]), number(length["q3"]),
                     *(f"{cell['outcomes'].get(name, 0):,}" for name in outcomes)])
    options = ", ".join(f"{k}={shown(v)}" for k, v in data["options"].items())
    played = data["games_played"]
    out = [f"{data['game']}: {played:,} game{'s' * (played != 1)}, strategy {data['strategy']}, seed {data['seed']}"
           + (f", options {options}" if options else "")
           + (f", with the made-up content of fixture {data['fixture']}" if data.get("fixture") else "")
           + (" (INTERRUPTED: the games finished so far)" if data["interrupted"] else ""),
           "game length in actions (decisions taken)", ""]
    out += table(rows, right=set(range(len(keys), len(header))))
    if data["card_names"]:
        out += ["", *card_lines(data)]
    return out


def card_lines(data: dict) -> list[str]:
    """Per card, cell by cell: drawn and played per game (a card never drawn, an action always at hand: -), the
    games it was played in, and the win rate of those games with its interval."""
    out = []
    for cell in data["cells"]:
        games = max(cell["games"], 1)
        rows = [["card", "drawn/game", "played/game", "games played in", "win rate when played", "95% interval"]]
        for card, name in data["card_names"].items():
            figures = cell["cards"].get(card)
            if figures:
                drawn = f"{figures['drawn'] / games:.2f}" if figures["drawn"] else "-"
                rows.append([name, drawn, f"{figures['played'] / games:.2f}", f"{figures['games_played']:,}",
                             *win_text(figures["win_when_played"])])
        title = "per card:" if len(data["cells"]) == 1 else f"per card, {cell_name(cell['sweep'])}:"
        out += ["" if out else None, title, *table(rows, right={1, 2, 3, 4})]
    return [line for line in out if line is not None]
