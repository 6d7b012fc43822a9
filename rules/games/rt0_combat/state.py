"""The state of an RT:0 combat as frozen values: players, adversaries, the GM's deck, and where the
round is (``Fight``)."""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace

from .numbers import Rules

SPEEDS = ("fast", "normal", "slow")  # turn order: Fast players, then neither, then Slow
PHASES = ("intents", "players", "adversaries", "over")
GM_DECK = "GM deck"
Zone = tuple[int, int]  # (column, row), from 0
Events = list[tuple[str, dict]]  # (kind, data), in order


def deck_pile(name: str) -> str:
    """The name a player's deck is shuffled under (scripts order it by this name)."""
    return f"{name} deck"


@dataclass(frozen=True)
class Player:
    name: str
    hp: int
    shield: int = 0
    speed: str = "normal"
    zone: Zone = (0, 0)
    deck: tuple[str, ...] = ()  # top card first
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    injuries: int = 0  # major injuries taken this combat
    corruption: int = 0  # corruption points taken this combat
    fully_upgraded: int = 0  # arcana abilities upgraded as far as they go


@dataclass(frozen=True)
class Adversary:
    name: str
    hp: int
    targeting: str = "default"  # default, strategic, dimwitted
    reach: str = "melee"  # melee or ranged
    intents: str = "face-up"  # face-up or face-down
    zone: Zone = (0, 0)
    shield: int = 0
    intent: str | None = None  # the intent card drawn this round
    out: bool = False  # at 0 HP or fled: no longer in the combat


@dataclass(frozen=True)
class Combat:
    players: tuple[Player, ...]
    adversaries: tuple[Adversary, ...]
    side: int = 3  # the room's grid: side x side zones
    round: int = 0
    gm_deck: tuple[str, ...] = ()  # top card first
    gm_discard: tuple[str, ...] = ()

    def player(self, name: str) -> Player:
        return _named(self.players, name, "player")

    def adversary(self, name: str) -> Adversary:
        return _named(self.adversaries, name, "adversary")

    def with_player(self, new: Player) -> "Combat":
        return replace(self, players=_replaced(self.players, new))

    def with_adversary(self, new: Adversary) -> "Combat":
        return replace(self, adversaries=_replaced(self.adversaries, new))

    def fighting(self) -> list[Adversary]:
        return [a for a in self.adversaries if not a.out]


def _named(fighters, name: str, what: str):
    for fighter in fighters:
        if fighter.name == name:
            return fighter
    raise RuleError(f"no {what} named '{name}' (here: {', '.join(f.name for f in fighters) or 'none'})")


def _replaced(fighters: tuple, new) -> tuple:
    return tuple(new if f.name == new.name else f for f in fighters)


@dataclass(frozen=True)
class Fight:
    rules: Rules
    combat: Combat
    phase: str = "intents"
    order: tuple[str, ...] = ()  # this round's turn order
    waiting: tuple[str, ...] = ()  # players who have not had their turn this round
    current: str | None = None  # the player taking a turn
    acted: tuple[str, ...] = ()  # adversaries that have acted this round
    catastrophes: int = 0
    last_attack: tuple[tuple[str, object], ...] = ()
    supremacy: tuple[int, str, tuple[str, ...]] | None = None  # tallies, why (a reason word), the players it names
    stand_ins: tuple[int, int] | None = None  # random play only: what a played card and an intent do (the source
    #                                           gives no abilities and no intent effects)
