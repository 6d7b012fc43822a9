"""The numbers Gloombah!'s rules use (read from game.yaml) and rulings for the rules the source leaves open."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from deckwright.rules.engine.dice import Dice, DiceError, parse_dice
from deckwright.rules.engine.errors import RuleError

CONSTANTS = ("class_cards_at_setup", "items_at_setup", "gear_slots", "weapon_slots", "start_level",
             "min_attack_points", "win_level", "auto_run_below_level", "cards_kept_on_death", "monsters_per_turn")
ONE_ONLY = ("gear_slots", "weapon_slots", "monsters_per_turn", "class_cards_at_setup")


class OpenRuleError(RuleError):
    """Play reached a rule or value the source leaves open, and nothing settles it."""


@dataclass(frozen=True)
class Numbers:
    class_cards_at_setup: int
    items_at_setup: int
    gear_slots: int
    weapon_slots: int
    start_level: int
    min_attack_points: int
    win_level: int
    auto_run_below_level: int
    cards_kept_on_death: int
    monsters_per_turn: int
    run_roll: Dice


def numbers(game) -> Numbers:
    c = game.constants
    return Numbers(**{name: c[name] for name in CONSTANTS}, run_roll=parse_dice(c["run_roll"]))


def consistency(game, problems) -> None:
    """The constants the rules read exist and hold what the rules can play with."""
    c = game.constants
    for name in CONSTANTS:
        value = c.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            problems.error(game.loc, f"constants.{name}: the Gloombah! rules need it as a whole number")
        elif name in ONE_ONLY and value != 1:
            problems.error(game.loc, f"constants.{name}: the Gloombah! rules play with exactly 1")
    try:
        parse_dice(c.get("run_roll", ""))
    except DiceError as exc:
        problems.error(game.loc, f"constants.run_roll: {exc}")


@dataclass(frozen=True)
class Rulings:
    """House rulings for rules the source leaves open; None means "not ruled".

    Play that needs an unruled rule stops with an OpenRuleError naming the
    game's open question (each field's ``about``), so nothing is guessed.
    """

    tie: str | None = field(default=None, metadata={"about": "tied fight", "values": ("player", "monster")})
    damaged_gear_absorbs: bool | None = field(default=None, metadata={"about": "damaged gear hit again"})
    effects_end_on_death: bool | None = field(default=None, metadata={"about": "death"})
    flee_with_empty_hand: bool | None = field(default=None, metadata={"about": "fleeing with an empty hand"})
    reshuffle_empty_decks: bool | None = field(default=None, metadata={"about": "empty decks"})
    equip_after_setup: bool | None = field(default=None, metadata={"about": "equipping after setup"})

    def need(self, name: str):
        value = getattr(self, name)
        if value is None:
            about = next(f.metadata["about"] for f in fields(self) if f.name == name)
            raise OpenRuleError(f"the source leaves this open (open question '{about}'); play needs the ruling '{name}'")
        return value


def rulings_from(spec: dict) -> Rulings:
    """Rulings from plain values (``{tie: monster, ...}``); raises ValueError naming a bad one."""
    known = {f.name: f for f in fields(Rulings)}
    out = {}
    for name, value in spec.items():
        if name not in known:
            raise ValueError(f"no ruling '{name}' (rulings: {', '.join(known)})")
        allowed = known[name].metadata.get("values", (True, False))
        if value not in allowed or (isinstance(value, bool) and not isinstance(allowed[0], bool)):
            raise ValueError(f"ruling {name}: expected one of {', '.join(map(str, allowed))}, got {value!r}")
        out[name] = value
    return Rulings(**out)
