"""Inline icons misspelt in card data.

``:name:`` in card text is an icon only when the game has an icon of that name; any other stays text, so that a
colon in ordinary text stays a colon (``generator.layout.richtext``). A misspelt icon therefore prints as its
own text, ``:hart:``, where ``:heart:`` was meant. ``check`` warns where the name is close to one the game has,
at the card's value; a name close to none is taken to be meant as text.
"""
from __future__ import annotations

from collections.abc import Iterator
from difflib import get_close_matches
from typing import Any

from deckwright.rules.data.model import Game
from deckwright.rules.problems import Problem

from .richtext import ICON

CLOSE = 0.75  # difflib's ratio: 'hart' and 'heart' are 0.89, 'cards' and 'card' 0.89, 'eye' and 'dye' 0.67


def icon_typos(game: Game, icon_names: frozenset[str]) -> list[Problem]:
    """A warning for each ``:name:`` in a card's values that is no icon of the game but close to one."""
    problems = []
    names = sorted(icon_names)
    for card in game.cards:
        for field, value in card.fields.items():
            for text in _texts(value):
                for match in ICON.finditer(text) if ":" in text else ():
                    name = match.group(1)
                    close = get_close_matches(name, names, n=1, cutoff=CLOSE) if name not in icon_names else ()
                    if close:
                        problems.append(Problem(card.field_locs.get(field, card.loc),
                                                f"{card.type} '{card.id}' {field}: ':{name}:' is no icon of this "
                                                f"game, so it prints as text; did you mean ':{close[0]}:'?",
                                                severity="warning"))
    return problems


def _texts(value: Any) -> Iterator[str]:
    """The strings in a card's value, however nested in lists and mappings."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
