"""Each Gloombah! event's sentence, made from its data (``rules.engine.narration``)."""
from __future__ import annotations

from fractions import Fraction

from .formula import formula_text, number_text
from .numbers import Rules


def _gear_text(d) -> str:
    if d["gear"] is None:
        return "no gear absorbs it"
    name = d["gear"] + (f" (durability open, at least {d['at_least']})" if d["at_least"] is not None else "")
    if d["outcome"] == "none":
        return f"it passes {name} by"
    outcome = {"broken": "breaks", "damaged": "is damaged", "held": "holds"}[d["outcome"]]
    return f"{name} absorbs {d['absorbed']} and {outcome}"


def _damage(d, rules: Rules) -> str:
    piercing = " armour-piercing" if d["armour_piercing"] else ""
    return (f"{d['player']} takes {d['damage']}{piercing} damage: {_gear_text(d)}, {d['to_player']} to "
            f"{d['player']}: level {d['before']} -> {d['level']}")


def _attack(d, rules: Rules) -> str:
    multipliers = [Fraction(*m) for m in d["multipliers"]]
    return f"{d['player']}: {formula_text(d['level'], d['weapon'], multipliers, d['bonus'])} AP"


def _reward(d, rules: Rules) -> str:
    capped = f" (level {rules.win_level} only on one's own turn)" if d["capped"] else ""
    return f"{d['player']}: {d['xp']} XP, level {d['before']} -> {d['level']}{capped}; draws {d['items']} item(s)"


def _death(d, rules: Rules) -> str:
    klass = f" as a {rules.name(d['klass'])}" if d["klass"] else ""
    return (f"{d['player']} dies (below {rules.min_attack_points} AP): keeps {', '.join(d['kept']) or 'nothing'}, "
            f"discards {', '.join(d['discarded']) or 'nothing'}, starts again at level {rules.start_level}{klass}")


NARRATION = {
    "setup": lambda d, r: f"{d['player']} draws the {r.name(d['klass'])} class and {d['items']} items",
    "equip": lambda d, r: f"{d['player']} equips {r.name(d['card'])}",
    "repair": lambda d, r: f"{d['player']} repairs {d['gear']}",
    "level": lambda d, r: f"{d['player']} plays {r.name(d['card'])}: level {d['before']} -> {d['level']}",
    "monster": lambda d, r: f"{d['player']} draws {d['name']}",
    "fights": lambda d, r: f"{d['player']} fights",
    "flee": lambda d, r: f"{d['player']} discards {d['cards']} card(s) and flees",
    "runs-free": lambda d, r: (f"{d['player']} (level {d['level']}, under {r.auto_run_below_level}) "
                               f"runs away freely"),
    "run": lambda d, r: (f"{d['player']} rolls {d['roll']} on {r.run_roll} against level {d['level']}: "
                         + ("gets away" if d["escaped"] else "caught, must fight")),
    "help": lambda d, r: f"{d['player']} helps {d['helps']}",
    "play": lambda d, r: f"{d['by']} plays {r.name(d['card'])} on {'the monster' if d['on'] == 'monster' else d['on']}",
    "attack": _attack,
    "monster-attack": lambda d, r: f"{d['name']}: {d['points']} AP",
    "fight": lambda d, r: (f"{' and '.join(d['fighters'])} {d['outcome']} against {d['name']}, "
                           f"{d['side']} to {d['monster_side']}"),
    "reward": _reward,
    "victory": lambda d, r: f"{d['player']} reaches level {d['level']} on their own turn and wins",
    "damage": _damage,
    "effect": lambda d, r: (f"{d['player']} suffers {d['effect']} (attack x {number_text(Fraction(*d['multiplier']))}) "
                            f"until the end of round {d['until_round']}"),
    "death": _death,
    "round": lambda d, r: f"round {d['round']} ends",
}
