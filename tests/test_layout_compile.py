"""Layout values that need no compiling (a dotted name, a literal) read exactly as Jinja2 reads them, and a source
written many times is compiled once per environment."""
from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import UndefinedError

from deckwright.generator.layout import files
from deckwright.generator.layout.faces import make_environment
from deckwright.generator.layout.files import compile_value
from deckwright.generator.layout.measure import ValueFailure, resolve
from deckwright.rules.data.yamlsrc import parse_yaml
from deckwright.rules.load import load_game

BASE = Path(__file__).parent / "bad_inputs" / "base"

CONTEXT_SOURCES = ["blank", "card.name", "card.nosuch", "nosuch", "card.nosuch.deeper", "range", "'paw'", "38.5",
                   "-3", "false", "true", "none", "None", "''", "12345678901234567890", "card.name ~ '!'"]


@pytest.fixture(scope="module")
def env_and_context():
    game = load_game(BASE)
    env = make_environment(game)
    from deckwright.generator.layout.viewmodel import card_view

    return env, {"card": card_view(game.cards[0]), "blank": False}


def value_of(env, source: str, whole: bool):
    text = f"{{{{ {source} }}}}" if whole else source
    node, problems = parse_yaml(f'v: "{text}"\n', "t.yaml")
    assert not problems
    return compile_value(env, node.get("v"), expression=not whole)


# ({{ range }} was always looked up in the card's values only, unlike Jinja2: not compared)
@pytest.mark.parametrize("source, whole", [(source, whole) for source in CONTEXT_SOURCES for whole in (False, True)
                                           if not (whole and source == "range")])
def test_an_uncompiled_value_reads_as_jinja2_reads_it(env_and_context, source, whole):
    env, ctx = env_and_context
    value = value_of(env, source, whole)
    try:
        ours = ("value", resolve(value, ctx))
    except ValueFailure as exc:
        ours = ("failure", exc.message)
    theirs = jinja_reads(env, source, ctx)
    assert ours == theirs
    assert type(ours[1]) is type(theirs[1])


def jinja_reads(env, source: str, ctx: dict):
    """What Jinja2's own compiled expression gives, read as resolve() reads it: an undefined value, or one
    looked up on an undefined one, fails with the error that names it."""
    try:
        raw = env.compile_expression(source, undefined_to_none=False)(**ctx)
        if hasattr(raw, "_undefined_name"):
            str(raw)
    except UndefinedError as exc:
        return ("failure", exc.message)  # resolve() words it as LayoutUndefined does, without the class name
    return ("value", raw)


def test_each_source_is_compiled_once_per_environment(monkeypatch):
    env = make_environment(load_game(BASE))
    compiled = []
    compile_ = env.compile
    monkeypatch.setattr(env, "compile", lambda tree, *args, **kwargs: compiled.append(tree) or compile_(tree))
    closure = files.closure  # the common expressions are built as closures (generator.layout.expressions)
    monkeypatch.setattr(files, "closure", lambda env, expr: compiled.append(expr) or closure(env, expr))
    first = value_of(env, "card.name|upper ~ ' of ' ~ card.id", whole=True)
    second = value_of(env, "card.name|upper ~ ' of ' ~ card.id", whole=False)
    assert len(compiled) == 1 and first.code is second.code
    for source in ("'paw'", "38.5", "false", "card.name", "blank"):
        value_of(env, source, whole=False)
        value_of(env, source, whole=True)
    assert len(compiled) == 1  # literals are kept as they are; names are looked up
