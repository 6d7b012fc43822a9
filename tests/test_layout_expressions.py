"""Layout expressions evaluated as closures (generator.layout.expressions) give what Jinja2's compiled code gives:
the same value of the same type, or the same error with the same message, and the same budget spent."""
from __future__ import annotations

import pytest
from jinja2 import Undefined

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.expressions import ClosureExpression, closure
from deckwright.generator.layout.faces import Faces, make_environment
from deckwright.generator.layout.files import LayoutError, _parse_expression, compile_value
from deckwright.rules.data.yamlsrc import YNode
from deckwright.rules.load import load_game
from deckwright.rules.problems import Loc

EXPRESSIONS = [
    "height * 0.22 + 5", "(dice_w - 36) / 6 - 1.5", "n // 3", "n % 4", "2 ** n", "-n", "+n", "not n", "-word",
    "word ~ ' · ' ~ n", "'a' ~ 'b'", "('a' ~ 'b')|upper", "word|upper", "colors.band|mix(colors.paper, 0.55)",
    "'' if blank else card.name", "'yes' if n else 'no'", "x if blank", "blank or n is odd or word",
    "n > 1 and word", "n < 5 < 10", "1 < n < 3", "n < 3 > 2", "5 in items", "word not in items", "word == 'paw'",
    "n != 2", "n >= 2", "n <= 2", "card.get('fast')", "card.get('missing', [])", "card.name|length",
    "items|min", "[8.6, (height - 31) / (items|length + 1) - 0.6]|min", "{'a': 1, 'b': 2}[word]",
    "{'a': 1}.get(word, 'none')", "[('Effect', 'effect')]", "[]", "(1, 2)", "(n,)", "{}", "{word: n}",
    "items[0]", "items[n]", "items[10]", "card['name']", "card.nothing", "card.nothing.deeper", "missing_name",
    "missing_name + 1", "word + 1", "word * 3", "'%.0f%%'|format(n * 100)", "range(1, n)", "range(n)|list",
    "x is defined", "card is not defined", "n is number", "n is divisibleby 2", "word is string",
    "fmt('effect')", "fmt(word, upper=true)", "items|join(', ')", "items|map('string')|join('-')",
    "word.upper()", "word.center(10)", "word.replace('a', 'b')", "'x' * 200000", "n|default(4)",
    "nope|default('d')", "card.name|card_name", "1 / 0", "n / 0", "[1, 2] + items", "items + [n]",
    "word[1]", "1e400", "1e400 * n", "(1, 1e400)[0]", "[1e400][0] if n else 2", "card.__class__",
    "word.__len__()", "10.id or 'x'", "x|nosuch", "'x' if n else y|nosuch", "n is nosuch", "f(a=1, a=2)",
    "f(*items)", "word[1:2]", "self", "true and n", "none", "[1, 2]|first", "(n|string) ~ 'x'",
    "'%s' % word", "'{}'.format(word)", "'{:>999999}'.format(word)", "items|sum", "n in [1, 2, 3]",
    "word in ('a', 'b')", "card", "fmt", "range", "namespace(a=1).a",
]


def _fmt(name, upper=False):
    return name.upper() if upper else name


CONTEXTS = [
    {"height": 88.9, "dice_w": 60, "n": 2, "word": "a", "blank": False, "items": [1, 5, 2],
     "card": {"name": "Paw", "fast": True}, "colors": {"band": "#102030", "paper": "#ffffff"}, "fmt": _fmt},
    {"height": 10, "dice_w": 0, "n": 0, "word": "paw", "blank": True, "items": [],
     "card": {"name": ""}, "colors": {}, "fmt": _fmt},
    {"n": 7, "word": 3, "items": "abc", "card": None, "blank": None},
]


@pytest.fixture(scope="module")
def env():
    game = load_game(BUNDLED_GAMES / "gloombah")
    return make_environment(game)


def _outcome(function, values: dict, env) -> tuple:
    with env.evaluating() as budget:
        try:
            value = function(**values)
        except Exception as exc:  # every error is compared, type and message
            return ("raised", type(exc).__name__, str(exc), budget.steps)
        if isinstance(value, Undefined):
            try:
                shown = str(value)
            except Exception as exc:
                shown = f"{type(exc).__name__}: {exc}"
            return ("undefined", type(value).__name__, shown, budget.steps)
        return ("value", type(value).__name__, repr(value), budget.steps)


def _compiled(env, source: str):
    """The Jinja2 way, or the error compiling it raises."""
    try:
        return env.compile_expression(source, undefined_to_none=False)
    except Exception as exc:
        return exc


def _closure(env, source: str):
    try:
        return closure(env, _parse_expression(env, source))
    except Exception as exc:
        return exc


@pytest.mark.parametrize("source", EXPRESSIONS)
def test_a_closure_gives_what_jinja2s_compiled_code_gives(env, source):
    built, compiled = _closure(env, source), _compiled(env, source)
    if built is None:  # left to Jinja2: nothing to compare
        return
    if isinstance(compiled, Exception) or isinstance(built, Exception):
        assert (type(built).__name__, str(built)) == (type(compiled).__name__, str(compiled))
        return
    for values in CONTEXTS:
        assert _outcome(built, values, env) == _outcome(compiled, values, env), values


def test_the_common_expressions_are_closures_and_the_rest_are_left_to_jinja2(env):
    left = [source for source in EXPRESSIONS if _closure(env, source) is None]
    assert left == ["1e400", "1e400 * n", "[1e400][0] if n else 2", "x|nosuch",
                    "'x' if n else y|nosuch", "n is nosuch", "f(a=1, a=2)", "f(*items)", "word[1:2]", "self"]


def test_a_constant_list_is_made_afresh_at_each_evaluation(env):
    built = closure(env, _parse_expression(env, "[1, 2]|list"))
    first = built()
    first.append(3)
    assert built() == [1, 2]


def test_an_expression_jinja2_cannot_compile_is_still_an_error_at_its_line(env):
    node = YNode("scalar", Loc("layouts/x.yaml", 4, 9), "{{ 10.id or 'x' }}", "str")
    with pytest.raises(LayoutError) as caught:
        compile_value(env, node)
    assert [str(p) for p in caught.value.problems] == [
        "layouts/x.yaml:4:9: Jinja2 cannot compile this: UndefinedError: 'int object' has no attribute 'id'"]


@pytest.mark.parametrize("name", sorted(p.name for p in BUNDLED_GAMES.iterdir() if (p / "game.yaml").is_file()))
def test_the_bundled_layouts_expressions_are_closures(name):
    faces = Faces(load_game(BUNDLED_GAMES / name))
    kinds = [type(found[0]).__name__ for key, found in faces.env.compiled.items() if key[0] == "expr"]
    assert kinds.count(ClosureExpression.__name__) > 50
    assert kinds.count("TemplateExpression") <= 1, kinds  # parousia's game.card(sheet.id[4:]) takes a slice
