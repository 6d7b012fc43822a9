"""RT:0 combat: the mechanics protocol of ``rules/README.md``.

``core`` holds the rules as pure functions, ``fight`` the round's phases,
``spec`` reads worked examples, ``data`` reads and checks the game data,
``seeded`` starts whole fights for seeded random play.
"""
from __future__ import annotations

from deckwright.rules.engine.log import NULL_LOG

from .data import consistency, rules_from
from .fight import Fight
from .fight import observe as _observe
from .seeded import is_over, legal_actions, new_game, zones
from .spec import Reader

__all__ = ["setup", "apply", "observe", "consistency", "new_game", "legal_actions", "is_over", "zones"]


def setup(game, spec: dict, chance, log=NULL_LOG) -> Fight:
    rules = rules_from(game)
    reader = Reader(game, rules)
    combat = reader.setup(spec, chance)
    return Fight(rules=rules, combat=combat)


def apply(state: Fight, action, chance, log=NULL_LOG) -> Fight:
    reader = Reader(None, state.rules)
    reader.side = state.combat.side
    return reader.action(state, action, chance, log)


def observe(state: Fight) -> dict:
    return _observe(state)
