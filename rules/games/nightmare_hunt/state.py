"""The state of a hunt: the piles, the enemies in the current encounter, and what happens next."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from deckwright.rules.engine.zones import Zones

from .data import EnemyDef, Rules

DECK, HAND, DISCARD = "deck", "hand", "discard"
CONDITIONS = "conditions"
ENCOUNTERS, ENCOUNTER, ENCOUNTER_DISCARD = "encounters", "encounter", "encounter-discard"
PILES = (DECK, HAND, DISCARD, CONDITIONS, ENCOUNTERS, ENCOUNTER, ENCOUNTER_DISCARD)

@dataclass(eq=False)
class Enemy:
    """A prey or boss in the current encounter; ``id`` is its card's id, ``label`` names it uniquely."""

    id: str
    label: str
    card: EnemyDef
    energy: int = 0
    wounds: int = 0
    summoned: bool = False


@dataclass
class State:
    rules: Rules
    zones: Zones
    armor: str
    level: int
    phase: str = "town"  # town, between, turn, reaction, won
    queue: list = field(default_factory=list)  # enemies still to act in this prey turn
    pending: tuple | None = None  # (enemy, ability) waiting for the player's reaction
    skip_turn: bool = False
    next_fast: int = 0
    deaths: int = 0
    encounters: int = 0  # encounters started
    labels: Counter = field(default_factory=Counter)
    defeated: list = field(default_factory=list)
    last_attack: dict | None = None
    stop_at_death: bool = False

    def enemies(self) -> list[Enemy]:
        return [item for item in self.zones[ENCOUNTER] if isinstance(item, Enemy)]

    def track(self) -> list[int]:
        bonus = [self.rules.conditions[c].track_bonus for c in self.zones[CONDITIONS]
                 if self.rules.conditions[c].track_bonus]
        return sorted(self.rules.armors[self.armor].track + tuple(bonus))


