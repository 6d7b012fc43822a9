"""A few thousand fuzzed inputs in every test run (issue 13); ``tests/fuzz/run.py`` runs 100,000 and more.

The inputs here are the same in every run (``derandomize``), so a test run passes or fails for the code it
tests, and a failure in CI can be repeated. Finding new inputs is the job of ``tests/fuzz/run.py`` with a new
``--seed``; a failure it finds becomes a test of its own (see ``test_load.py``'s 5001-digit range).

The targets and properties are in ``tests/fuzz/properties.py``: no input to the YAML loader, the card-type
validator, the layout evaluator or the example-block parser ends in anything but located problems, writes
outside its scratch folder or takes unbounded time.
"""
from __future__ import annotations

import pytest
from fuzz.properties import (
    CARD_FILES,
    GAME_FILES,
    LAYOUT_FILES,
    ExampleTarget,
    LayoutTarget,
    Scratch,
    card_files,
    card_validator,
    layout_sources,
    mutated,
    pages,
    yaml_loader,
    yaml_texts,
)
from hypothesis import HealthCheck, given, settings

FUZZ = settings(database=None, deadline=None, derandomize=True, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])


@pytest.fixture(scope="module")
def scratch():
    made = Scratch()
    yield made
    made.close()


@pytest.fixture(scope="module")
def layout():
    return LayoutTarget()


@pytest.fixture(scope="module")
def examples(scratch):
    return ExampleTarget(scratch)


@settings(FUZZ, max_examples=1200)
@given(text=yaml_texts)
def test_yaml_loader(scratch, text):
    scratch.run(yaml_loader, text)


@settings(FUZZ, max_examples=250)
@given(game_text=mutated(GAME_FILES), card_text=mutated(CARD_FILES))
def test_card_type_validator(scratch, game_text, card_text):
    scratch.run(card_validator, scratch.game(card_files(game_text, card_text)))


@settings(FUZZ, max_examples=900)
@given(source=layout_sources)
def test_layout_evaluator(scratch, layout, source):
    scratch.run(layout.value, source)


@settings(FUZZ, max_examples=40)
@given(text=mutated(LAYOUT_FILES, 4))
def test_layout_files(scratch, layout, text):
    scratch.run(layout.layout_file, scratch.game({"layouts/hero.yaml": text}))


@settings(FUZZ, max_examples=300)
@given(text=pages)
def test_example_block_parser(scratch, examples, text):
    scratch.run(examples.page, text)
