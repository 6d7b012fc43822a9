"""The rules protocol: what every game's rules module provides, bundled or a designer's own.

A rules module is a Python module or package with the names below (the
``RulesModule`` protocol documents their types; ``rules/README.md`` explains
them with a complete minimal example). The example runner, random play, the
conformance suite and ``deckwright check`` use a game only through these.

Three kinds of value travel through them, each the module's own type:

- ``rules``: everything play needs from the game data, read once by
  ``prepare(game)`` (constants, card tables);
- ``state``: one moment of a game; ``apply`` returns a new one and never
  changes the one it is given;
- an action: a plain value, a word or a mapping (``rules.engine.verbs``).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol, runtime_checkable

from .verbs import Verb
from .zones import Zones


class Chance(Protocol):
    """The only source of dice and deck orders (``rules.engine.chance``)."""

    step: str

    def roll(self, sides: int, what: str = "") -> int: ...

    def shuffle(self, items: list, what: str = "") -> list: ...


class Log(Protocol):
    """Where events go (``rules.engine.log``): ``add(kind, **data)``; falsy when nothing is recorded, and
    ``kind in log`` when events of that kind are (rules code may ask either before building an event).
    ``card_facts``: the log counts cards only and also takes them without an event, ``drew(cards)`` and
    ``played(card)`` (the simulator's; a hot path may call them instead of adding a ``CARD_FACTS`` event)."""

    card_facts: bool

    def add(self, kind: str, **data: Any) -> None: ...

    def __contains__(self, kind: object) -> bool: ...

    def __bool__(self) -> bool: ...

REQUIRED_DATA = ("CONSTANTS", "SETUP", "ACTIONS", "NARRATION")
REQUIRED_FUNCTIONS = ("prepare", "setup", "new_game", "apply", "legal_actions", "is_over", "zones", "observe")
OPTIONAL_FUNCTIONS = ("invariants", "consistency", "odds", "layout_data", "outcome", "apply_in_place")


def outcome_problem(value: Any) -> str | None:
    """What is wrong with a value ``outcome(state)`` gave, if anything: it must be (name, True/False/None)."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) and value[0] \
            and value[1] in (True, False, None):
        return None
    return f"outcome() gave {value!r}, not (name, True/False/None)"


@runtime_checkable
class RulesModule(Protocol):
    CONSTANTS: Any
    """A record field definition (``rules.data.schema.FieldDef``) of game.yaml's ``constants:``: the loader
    validates each constant at its own line and ``game.constants`` holds the typed values."""

    SETUP: Any
    """A record field definition of an example's ``setup:``, read through the same validator as card data."""

    ACTIONS: Mapping[str, Verb]
    """The verb table: every action, what it takes, and the function that runs it."""

    NARRATION: Mapping[str, Callable[[Mapping[str, Any], Any], str]]
    """Each event kind's sentence, made from the event's data and the prepared rules."""

    def prepare(self, game: Any) -> Any:
        """Everything play needs from the Game, read once (numbers from ``game.constants``, card tables,
        decks from ``game.deck_cards``)."""

    def setup(self, rules: Any, spec: dict, chance: Any, log: Any) -> Any:
        """The state an example starts from; ``spec`` is its ``setup:``, already validated against SETUP."""

    def new_game(self, rules: Any, options: dict, chance: Any, log: Any) -> Any:
        """A whole game from the start, for random play."""

    def apply(self, state: Any, action: Any, chance: Any, log: Any) -> Any:
        """One action, dispatched through ACTIONS; the game runs forward to the next decision.
        Returns the new state; the given state is never changed."""

    def legal_actions(self, state: Any) -> list:
        """The actions allowed now, in the form ``apply`` takes."""

    def is_over(self, state: Any) -> bool:
        """The game has ended."""

    def zones(self, state: Any) -> Zones:
        """Every counted card, for the conservation check."""

    def observe(self, state: Any) -> dict:
        """What an example may claim, as JSON-plain values named the way the rulebook speaks."""


class OptionalHooks(Protocol):
    """Functions a rules module may add."""

    def invariants(self, state: Any) -> list[str]:
        """What must hold after every action (energy never negative, hand within its limit, ...): one message a
        broken rule, checked by random play after each action."""

    def consistency(self, game: Any, problems: Any) -> None:
        """Data checks the schema cannot make, reported by ``deckwright check``."""

    def odds(self, rules: Any) -> dict:
        """Named tables of exact chances, ``{name: rules.engine.odds.OddsTable}``, worked out by enumeration
        (``rules.engine.odds.Distribution``, ``hands``) from the prepared rules, never sampled; a value the
        source leaves open is an ``Open`` cell, not a guess. Shown on the game's site (an Odds page) and
        given to layouts as ``data.odds``."""

    def layout_data(self, game: Any) -> dict:
        """Numbers printed sheets show that the rules compute; templates format them."""

    def apply_in_place(self, state: Any, action: Any, chance: Any, log: Any) -> Any:
        """``apply`` for a caller that gives the state up (random play with ``in_place``, as the simulator plays):
        it may change the state it is given and return it. The events and the new state must be those ``apply``
        gives; the speed-up is the copy saved at every step."""

    def outcome(self, state: Any) -> tuple[str, bool | None]:
        """How a game that is over ended, for ``deckwright simulate``: a short name the game reports (``won``,
        ``died``) and whether it is a win (None when the game has no single winner)."""
