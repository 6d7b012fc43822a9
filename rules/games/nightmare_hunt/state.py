"""The state of a hunt: the piles, the enemies in the current encounter, and what happens next.

The rule functions change a ``State`` in place; ``apply`` gives them a fresh
``copy()`` first, so the state a caller holds never changes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from deckwright.rules.engine.zones import Zones

from .numbers import EnemyDef, Rules

DECK, HAND, DISCARD = "deck", "hand", "discard"
CONDITIONS = "conditions"
ENCOUNTERS, ENCOUNTER_DISCARD = "encounters", "encounter-discard"
EVENT, ENCOUNTER = "event", "encounter"  # the event card being resolved; the enemies in the encounter
PILES = (DECK, HAND, DISCARD, CONDITIONS, ENCOUNTERS, EVENT, ENCOUNTER, ENCOUNTER_DISCARD)
PHASES = ("town", "between", "turn", "reaction", "prey", "won")


@dataclass(eq=False, slots=True)
class Enemy:
    """A prey or boss in the current encounter; ``id`` is its card's id, ``label`` names it uniquely."""

    id: str
    label: str
    card: EnemyDef
    energy: int = 0
    wounds: int = 0
    summoned: bool = False


@dataclass(slots=True)
class State:
    rules: Rules
    zones: Zones
    armor: str
    level: int
    phase: str = "town"  # town, between, turn, reaction, prey (resolving), won
    queue: list = field(default_factory=list)  # enemies still to act in this prey turn
    pending: tuple | None = None  # (enemy, ability) waiting for the player's reaction
    skip_turn: bool = False
    next_fast: int = 0
    deaths: int = 0
    encounters: int = 0  # encounters started
    labels: dict = field(default_factory=dict)  # card id -> how many of it the encounter has met; replaced, never changed in place
    defeated: tuple = ()
    last_attack: dict | None = None  # replaced, never changed in place
    stop_at_death: bool = False

    def enemies(self) -> list[Enemy]:
        """The enemies in the encounter, in order: the pile itself, to read (random play asks often)."""
        return self.zones.piles[ENCOUNTER]

    def track(self) -> list[int]:
        conditions, track = self.zones.piles[CONDITIONS], self.rules.armors[self.armor].track
        if not conditions:  # the common case, without the list below
            return sorted(track)
        bonus = [self.rules.conditions[c].track_bonus for c in conditions if self.rules.conditions[c].track_bonus]
        return sorted(track + tuple(bonus))

    def copy(self) -> "State":
        """A state that shares nothing the rules change with this one (the enemies are copied too).

        Spelt out field by field, past ``__init__``: random play copies a state at every action.
        ``labels`` and ``defeated`` are replaced, never changed in place, so they are shared.
        """
        twin = object.__new__(State)
        twin.rules, twin.armor, twin.level, twin.phase = self.rules, self.armor, self.level, self.phase
        twin.skip_turn, twin.next_fast, twin.deaths, twin.encounters = (self.skip_turn, self.next_fast, self.deaths,
                                                                         self.encounters)
        twin.labels, twin.defeated, twin.last_attack, twin.stop_at_death = (self.labels, self.defeated,
                                                                             self.last_attack, self.stop_at_death)
        twin.zones = zones = self.zones.copy()
        queue, pending = self.queue, self.pending
        if zones.piles[ENCOUNTER]:
            encounter = zones.own(ENCOUNTER)
            twins = {}
            for i, enemy in enumerate(encounter):
                copied = object.__new__(Enemy)
                copied.id, copied.label, copied.card, copied.energy, copied.wounds, copied.summoned = (
                    enemy.id, enemy.label, enemy.card, enemy.energy, enemy.wounds, enemy.summoned)
                twins[id(enemy)] = encounter[i] = copied
            if pending is not None:
                pending = (twins.get(id(pending[0]), pending[0]), pending[1])
            queue = [twins.get(id(e), e) for e in queue]
        else:
            queue = queue[:]
        twin.queue, twin.pending = queue, pending
        return twin
