"""What a layout's Jinja2 can reach (issue 13, D1) and what it may spend (D5, D6).

A layout comes with a game folder, so it is untrusted code. The walking test
starts from every template context deckwright builds (each card face, back
and sheet of the bundled games and the test fixtures), plus the environment's
globals, filters and tests, and follows every name, attribute, mapping value
and list item the sandbox lets a template reach. Everything it meets must be
plain data (strings, numbers, lists, mappings, frozen records of data) or a
callable known to have no side effect.
"""
from __future__ import annotations

import io
import types
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path, PurePath

import jinja2.filters
import jinja2.tests
import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.faces import Faces
from deckwright.rules.data.model import Back, CardType, Deck, OpenQuestion, Sheet, Size
from deckwright.rules.data.schema import FieldDef, Ref
from deckwright.rules.data.values import Open, Range
from deckwright.rules.engine.dice import DiceGroup
from deckwright.rules.load import bundled_games, load_game
from deckwright.rules.problems import Loc

FIXTURES = Path(__file__).parent / "fixtures"
GAMES = [*bundled_games(BUNDLED_GAMES), FIXTURES / "print" / "sample", FIXTURES / "site-demo"]

SCALARS = (str, int, float, bool, type(None), Fraction)
# Frozen records of the model whose attributes are all data.
RECORDS = (Back, CardType, Deck, DiceGroup, FieldDef, Loc, Open, OpenQuestion, Range, Ref, Sheet, Size)
# Methods of records and views that only look values up.
PURE_METHODS = {"CardView.get", "GameView.card", "GameView.cards_in", "GameView.cards_of", "GameView.deck_total",
                "CardType.field", "FieldDef.field"}
# Functions a context offers: each computes text or a list from the game and changes nothing.
PURE_CONTEXT_FUNCTIONS = {"fmt", "referring", "field_text", "labelled_fields"}
PURE_GLOBALS = {"range", "namespace"}
OWN_FILTERS = {"card_name", "card_of", "mix", "plus"}
OWN_TESTS = {"open"}
IMPURE_FILTERS = {"random"}  # global random state: a side effect, and builds would differ from run to run


def _view_class(obj) -> str:
    return type(obj).__name__


def is_pure_callable(obj, name: str) -> bool:
    """Whether a callable met at ``name`` is known to have no side effect."""
    if isinstance(obj, (types.BuiltinMethodType, types.MethodType)):
        owner = obj.__self__
        if isinstance(owner, (*SCALARS, tuple, frozenset)):  # methods of immutable values
            return True
        if isinstance(owner, (dict, list)):  # the immutable sandbox hides the mutating ones
            return True
        if owner in (dict, str, bytes, int, float):  # dict.fromkeys, int.from_bytes: new values from old
            return True
        return f"{_view_class(owner)}.{obj.__name__}" in PURE_METHODS
    return False


def reachable(env, roots: dict[str, object]):
    """(path, object) for everything a template can reach from ``roots``, each object once."""
    seen: set[int] = set()
    keep = []  # so that ids stay unique while walking
    stack = list(roots.items())
    while stack:
        path, obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        keep.append(obj)
        yield path, obj
        if isinstance(obj, (*SCALARS, bytes)) or callable(obj):
            continue  # immutable values; callables are judged as they are, not walked into
        if isinstance(obj, Mapping):
            children = [(f"{path}[{key!r}]", value) for key, value in obj.items()]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            children = [(f"{path}[{i}]", value) for i, value in enumerate(obj)]
        else:
            children = []
        for attr in dir(obj):
            try:
                value = getattr(obj, attr)
            except Exception:
                continue
            if env.is_safe_attribute(obj, attr, value):
                children.append((f"{path}.{attr}", value))
        stack.extend(children)


def offences(env, roots: dict[str, object]) -> list[str]:
    found = []
    for path, obj in reachable(env, roots):
        if isinstance(obj, PurePath):
            found.append(f"{path} is a path ({obj})")
        elif isinstance(obj, types.ModuleType):
            found.append(f"{path} is a module")
        elif isinstance(obj, type):
            found.append(f"{path} is a class")
        elif isinstance(obj, io.IOBase):
            found.append(f"{path} is a file")
        elif callable(obj):
            if path.count(".") == 0 and path in PURE_CONTEXT_FUNCTIONS | PURE_GLOBALS:
                continue
            if not is_pure_callable(obj, path):
                found.append(f"{path} is callable and not known to be free of side effects ({obj!r})")
        elif not isinstance(obj, (*SCALARS, Mapping, list, tuple, frozenset, set, *RECORDS)) \
                and _view_class(obj) not in ("CardView", "GameView", "PageView", "DiceView"):
            found.append(f"{path} is a {type(obj).__name__}, not plain data")
    return found


def contexts(faces: Faces):
    """Every context a layout of this game is filled with."""
    game = faces.game
    for card in game.cards:
        yield f"card {card.id}", faces.card_context(card)
    for deck in game.decks.values():
        yield f"back of {deck.id}", faces.back_context(deck)
    for sheet in game.sheets.values():
        yield f"sheet {sheet.id}", faces.sheet_context(sheet)


@pytest.fixture(scope="module", params=GAMES, ids=lambda folder: folder.name)
def faces(request) -> Faces:
    return Faces(load_game(request.param))


def test_templates_reach_only_plain_data_and_pure_functions(faces):
    env = faces.env
    problems = []
    for name, ctx in contexts(faces):
        problems += [f"{name}: {found}" for found in offences(env, ctx)]
    problems += offences(env, {name: value for name, value in env.globals.items()})
    assert not problems, "\n".join(problems[:20])


def test_filters_globals_and_tests_are_the_known_pure_ones(faces):
    env = faces.env
    assert set(env.filters) <= (set(jinja2.filters.FILTERS) - IMPURE_FILTERS) | OWN_FILTERS
    assert not IMPURE_FILTERS & set(env.filters)
    assert set(env.tests) <= set(jinja2.tests.TESTS) | OWN_TESTS
    assert set(env.globals) == PURE_GLOBALS  # no dict, cycler, joiner, lipsum (classes or unbounded text)


def test_the_walk_finds_a_path_when_there_is_one(faces):
    """The walker itself: a context holding the game's real folder is caught."""
    ctx = dict(faces.card_context(faces.game.cards[0]), leaked=faces.game)
    assert any("is a path" in found for found in offences(faces.env, ctx))
