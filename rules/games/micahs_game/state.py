"""The state of a game of Micah's Game: players, the encounter being settled, the piles, as frozen values.

Every rule function returns a new ``State``; the ``Zones`` inside is copied before any change (a copy
shares each pile until one side changes it), so a state is never changed once made.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.openvalues import Open
from deckwright.rules.engine.zones import Zones

# Shared piles; each player also has "<name>:items", ":upgrades", ":dock" and ":companions".
ENCOUNTERS, REVEALED, GRAVEYARD = "encounters", "revealed", "graveyard"
TREASURE, USED_TREASURE, MERCHANT = "treasure", "used-treasure", "merchant"
CHARMED_FORMS = "charmed-forms"
SHARED_PILES = (ENCOUNTERS, REVEALED, GRAVEYARD, TREASURE, USED_TREASURE, MERCHANT, CHARMED_FORMS)
PLAYER_PILES = ("items", "upgrades", "dock", "companions")

PREPARATION, ENCOUNTER, OVER = "preparation", "encounter", "over"
PLAYING, OUT, LEFT = "playing", "out", "left"

Event = tuple[str, dict]  # (kind, data), logged by the action that caused it


@dataclass(frozen=True)
class Player:
    name: str
    hero: str  # class card id
    hp: int | None  # None while the class's starting health is open
    coins: int
    dice: Mapping[str, tuple[int, ...] | Open]  # stat -> die pool (sides), or the class's open die
    status: str = PLAYING
    health_change: int = 0  # net health gained or lost so far, known even when hp is not


@dataclass(frozen=True)
class Roll:
    intention: str
    faces: tuple[int, ...]  # the player's dice
    companion_faces: tuple[int, ...]
    total: int
    target: int | None  # None for a doubles check
    success: bool


@dataclass(frozen=True)
class Outcome:
    """How the last encounter ended, for the examples to claim."""

    card: str
    intention: str
    total: int
    target: int | None
    success: bool
    damage: int | None = None  # the encounter's attack on a failure (None when it did not attack)
    bounty: int | None = None
    companions_lost: tuple[str, ...] = ()
    items_lost: tuple[str, ...] = ()


@dataclass(frozen=True)
class Encounter:
    card: str
    intention: str | None = None
    roll: Roll | None = None
    settled: bool = False  # its outcome is applied; only the wrap-up is left


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    zones: Zones  # never changed in place: functions work on a copy
    active: int = 0
    turn: int = 1
    phase: str = PREPARATION
    weather: str | None = None
    weather_since: int = 0  # the turn during which the weather began
    encounter: Encounter | None = None
    winners: tuple[str, ...] = ()
    last: Outcome | None = None
    rules: Any = None  # the game's prepared Rules, shared by every state of a game

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        raise RuleError(f"no player '{name}' (players: {', '.join(p.name for p in self.players)})")

    @property
    def current(self) -> Player:
        return self.players[self.active]

    def with_player(self, new: Player) -> "State":
        return replace(self, players=tuple(new if p.name == new.name else p for p in self.players))

    def pile(self, player: str, kind: str) -> list[str]:
        """A player's pile (items, upgrades, dock, companions), top first."""
        return self.zones.ids(f"{player}:{kind}")

    def changing(self) -> tuple["State", Zones]:
        """A new state with zones of its own to change, and those zones."""
        zones = self.zones.copy()
        return replace(self, zones=zones), zones


Step = tuple[State, list[Event]]


def pile_names(players: Iterable[str]) -> list[str]:
    return list(SHARED_PILES) + [f"{name}:{kind}" for name in players for kind in PLAYER_PILES]
