"""Gloombah!'s exact odds: running away at each level, and fights by level and weapon against a monster's
attack points (a fight itself has no dice: the higher side wins; a tie is the source's open question)."""
from __future__ import annotations

from dataclasses import fields
from fractions import Fraction

from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.odds import OddsTable, Row
from deckwright.rules.engine.openvalues import Open, OpenRuleError

from .formula import attack_points, run_chance, run_table
from .numbers import Rules
from .rulings import Rulings
from .turn import fight_outcome

TIE = next(f.metadata["about"] for f in fields(Rulings) if f.name == "tie")


def _tie(rules: Rules) -> Open:
    note = next((q.note for q in rules.game.open_questions if q.subject == TIE), "the source does not say")
    return Open(f"a tied fight: {note}")


def weapons(rules: Rules) -> list[tuple[str, object]]:
    """(name, bonus) of fighting bare-handed and with every weapon card; a bonus may be open."""
    return [("no weapon", 0)] + [(card.name, card.get("bonus")) for card in rules.game.cards_of("weapon")]


def chance_to_win(points: int, monster: int, tie: Open):
    """1 (the player wins) or 0 (the monster does), as play decides a fight; ``tie`` where that needs the
    ruling the source leaves open."""
    try:
        return Fraction(int(fight_outcome(points, monster) == "won"))
    except OpenRuleError:
        return tie


def monster_points(rules: Rules) -> range:
    """Monster attack points worth a column: from the least a side can have to one past the most a player reaches."""
    known_bonuses = [b for _, b in weapons(rules) if isinstance(b, int)]
    return range(rules.min_attack_points, attack_points(rules.win_level - 1, max(known_bonuses)) + 2)


def _fight_table(rules: Rules, name: str, bonus, then_run: bool) -> OddsTable:
    levels = range(rules.start_level, rules.win_level)
    columns = monster_points(rules)
    tie = _tie(rules)
    rows = []
    for level in levels:
        if isinstance(bonus, Open):
            cells = tuple(bonus for _ in columns)
        else:
            points = attack_points(level, bonus)
            cells = tuple(chance_to_win(points, monster, tie) for monster in columns)
            if then_run:
                away = run_chance(level, rules)
                cells = tuple(away if away == 1 else (c if isinstance(c, Open) else away + (1 - away) * c)
                              for c in cells)
        rows.append(Row(str(level), cells))
    what = "the chance to get away or win" if then_run else "the chance to win"
    return OddsTable(
        caption=(f"{name.capitalize()}: {what} against a monster of each attack point total, by level "
                 f"(attack points are level + weapon bonus, before any status effect or consumable)."
                 + (" Running away is tried first; a failed run means a fight." if then_run else "")),
        corner="Level \u2193 monster's points \u2192", columns=tuple(str(m) for m in columns), rows=tuple(rows))


def odds(rules: Rules) -> dict[str, OddsTable]:
    roll = str(rules.run_roll)
    tables = {"Running away": OddsTable(
        caption=(f"Below level {rules.auto_run_below_level} running away always works; from there the player "
                 f"rolls {roll} and needs their level or more."),
        corner="Level", columns=("roll needed", "gets away"),
        rows=tuple(Row(str(level), ("none" if level < rules.auto_run_below_level else f"{level}+ on {roll}",
                                          chance)) for level, chance in run_table(rules)))}
    armed = weapons(rules)
    unarmed_only = "" if len(armed) > 1 else (" The game lists no weapon cards yet (the source leaves them open): a "
                                              "table for each weapon appears here once its card is added.")
    for name, bonus in armed:
        label = name if name == "no weapon" else f"{name} (+{bonus})"
        for then_run, title in ((False, "Fights"), (True, "Run, then fight")):
            table = _fight_table(rules, label, bonus, then_run=then_run)
            tables[f"{title}, {label}"] = replace(table, caption=table.caption + unarmed_only)
    return tables
