"""Reading a piece of an example (its setup, an action) through the same validator as card data.

``read_plain`` checks a YAML node against a field definition, checks every card
id it names against the game's cards, and returns plain values for the rules
module: card ids as strings, lists as lists. Each problem keeps its own
``file:line:col``.
"""
from __future__ import annotations

from typing import Any

from deckwright.rules.problems import Problem, Problems

from .schema import FieldDef, Ref, Validator, check_refs
from .yamlsrc import YNode


def plain(value: Any) -> Any:
    """Refs as their card ids, tuples as lists, mappings and lists walked."""
    if isinstance(value, Ref):
        return value.id
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def read_plain(node: YNode, fdef: FieldDef, path: str, game) -> tuple[Any, list[Problem]]:
    """The value of ``node`` read as ``fdef`` (``path`` names it in messages), and the problems found."""
    problems = Problems()
    validator = Validator(problems)
    value = validator.value(node, fdef, path)
    check_refs(validator.refs, {card.id: card for card in game.cards}, problems, game.card_types)
    return plain(value), problems.errors
