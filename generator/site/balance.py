"""The Balance page: the last ``deckwright simulate`` of a game, as tables and charts.

``deckwright simulate`` keeps its figures in ``<out>/simulate/<game>/balance.json``; ``deckwright build`` reads
that file, when there is one, and the game's site gets a Balance page (``<game>/balance.html``) linked from its
navigation. Every number on the page is the JSON's, formatted; the charts are drawn from the same numbers.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from deckwright.rules.sim.report import number, shown

from . import charts

BALANCE_FILE = "balance.json"


def balance_file(out: Path, slug: str) -> Path:
    """Where ``deckwright simulate`` keeps a game's last figures, under the output folder ``out``."""
    return out / "simulate" / slug / BALANCE_FILE


def read_balance(path: Path, slug: str) -> dict | None:
    """The figures of ``path`` when it holds a simulation of this game; None when there is none (or it is not
    one: a file of another game, or one a person edited out of shape, is left off the site)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("game") != slug or not isinstance(data.get("cells"), list):
        return None
    return data


def percent(x) -> str:
    return "\u2013" if x is None else f"{x:.1%}"


@dataclass(frozen=True)
class CellRow:
    values: tuple[str, ...]  # the sweep's values
    label: str
    games: str
    win: str
    interval: str
    length: tuple[str, ...]  # mean, q1, median, q3, shortest, longest
    outcomes: tuple[str, ...]


@dataclass(frozen=True)
class CardRow:
    name: str
    cells: tuple[tuple[str, str, str, str], ...]  # per cell: drawn/game, played/game, win rate when played, interval


@dataclass(frozen=True)
class BalanceView:
    data: dict
    keys: tuple[str, ...]
    outcomes: tuple[str, ...]
    rows: tuple[CellRow, ...]
    cards: tuple[CardRow, ...]
    scored: bool  # the game reports wins
    options: str
    fixture: str | None  # the fixture folder whose made-up content was laid over the game's
    stale: bool  # the cards have changed since (generator.build marks it)
    win_chart: Markup | None
    length_chart: Markup | None


def _label(sweep: dict) -> str:
    return ", ".join(f"{k} {shown(v)}" for k, v in sweep.items()) or "all games"


def balance_view(data: dict) -> BalanceView:
    keys = tuple(s["key"] for s in data["sweeps"])
    cells = data["cells"]
    outcomes = tuple(sorted({name for cell in cells for name in cell["outcomes"]}))
    scored = any(cell["win"] is not None for cell in cells)
    rows = []
    for cell in cells:
        win, length = cell["win"], cell["length"]
        rows.append(CellRow(tuple(shown(cell["sweep"][k]) for k in keys), _label(cell["sweep"]), f"{cell['games']:,}",
                            percent(win["rate"]) if win else "\u2013",
                            f"{percent(win['low'])} \u2013 {percent(win['high'])}" if win else "\u2013",
                            (f"{length['mean']:.1f}", *(number(length[k]) for k in ("q1", "median", "q3")),
                             f"{length['min']:,}", f"{length['max']:,}"),  # whole games: no decimal
                            tuple(f"{cell['outcomes'].get(name, 0):,}" for name in outcomes)))
    cards = []
    for card, name in data["card_names"].items():
        per_cell = []
        for cell in cells:
            games = max(cell["games"], 1)
            f = cell["cards"].get(card)
            if f is None:
                per_cell.append(("0", "0", "\u2013", ""))
                continue
            when = f["win_when_played"]
            drawn = f"{f['drawn'] / games:.2f}" if f["drawn"] else "\u2013"  # an action always at hand is never drawn
            per_cell.append((drawn, f"{f['played'] / games:.2f}",
                             percent(when["rate"]) if when else "\u2013",
                             f"{percent(when['low'])} \u2013 {percent(when['high'])}" if when and f["games_played"] else ""))
        cards.append(CardRow(name, tuple(per_cell)))
    win_chart = length_chart = None
    if charts.available() and cells:
        labels = [row.label for row in rows]
        if scored:
            wins = [cell["win"] for cell in cells]
            win_chart = Markup(charts.win_rates(labels, [w["rate"] or 0.0 for w in wins], [w["low"] for w in wins],
                                                [w["high"] for w in wins], "chart-win"))
        length_chart = Markup(charts.lengths(labels, [cell["length"] for cell in cells], "chart-length"))
    options = ", ".join(f"{k}={shown(v)}" for k, v in data["options"].items())
    names = tuple(s.get("name", s["key"]) for s in data["sweeps"])  # as the game names them (Armour)
    return BalanceView(data, names, outcomes, tuple(rows), tuple(cards), scored, options, data.get("fixture"),
                       bool(data.get("stale")), win_chart, length_chart)
