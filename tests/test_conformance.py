"""The conformance suite: every bundled game, the fixture games and a game folder's own module keep the rules
protocol (rules.ci.conformance), and the suite notices each promise a module breaks."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.check import check_game
from deckwright.rules.ci.conformance import check_module, protocol_problems
from deckwright.rules.ci.fixtures import overlaid, random_play_setups
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.games import load_rules_file, rules_module
from deckwright.rules.load import load_game

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SETUPS = {setup.game: setup for setup in random_play_setups(FIXTURES / "randomplay.yaml")}
DUEL_FOLDER = FIXTURES / "engine" / "dice-duel"
DUEL = load_rules_file(DUEL_FOLDER / "rules.py", "dice-duel")


def test_every_bundled_game_has_a_random_play_setup():
    assert sorted(SETUPS) == sorted(p.name for p in BUNDLED_GAMES.iterdir() if (p / "game.yaml").is_file())


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_bundled_game_conforms(name, tmp_path):
    setup = SETUPS[name]
    game = load_game(overlaid(BUNDLED_GAMES / name, setup.overlay, tmp_path / name))
    report = check_module(rules_module(game), game, games=setup.games, options=setup.options,
                          max_actions=setup.max_actions)
    assert report.problems == [] and report.notes == []
    assert report.games == setup.games


def test_the_fixture_hunt_conforms_with_the_nightmare_hunt_rules():
    game = load_game(FIXTURES / "engine" / "mini-hunt")
    report = check_module(rules_module(game), game)
    assert report.ok and report.notes == [] and report.games == 20


def test_a_game_folders_own_module_conforms_through_check():
    """The minimal example of rules/README.md, loaded by path from its game folder, checked like any game."""
    report = check_game(DUEL_FOLDER, module=DUEL)
    assert report.conformance.ok and report.conformance.notes == [] and report.conformance.games == 10


def test_the_readme_example_is_the_fixture():
    readme = (ROOT / "rules" / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert (DUEL_FOLDER / "rules.py").read_text() in blocks


# -- the suite notices a broken promise ------------------------------------------------------------------


def duel_game():
    return load_game(DUEL_FOLDER)


def broken(**changes):
    return SimpleNamespace(**{**{k: v for k, v in vars(DUEL).items() if not k.startswith("__")}, **changes})


def problems_of(module) -> list[str]:
    return [problem.message for problem in check_module(module, duel_game(), games=3).problems]


def protocol_messages(module) -> list[str]:
    return [message for _, message in protocol_problems(module)]


def test_missing_and_untyped_functions_are_named():
    module = broken()
    del module.zones
    assert "zones() is missing" in protocol_messages(module)
    assert protocol_messages(broken(observe=lambda state: {})) == [
        "observe(): parameter(s) state not annotated", "observe(): no return annotation"]
    assert protocol_messages(broken(SETUP={"score": "int"})) == ["SETUP: expected a record field definition"]


def test_the_simulators_optional_names_must_have_their_shape():
    def outcome(state: object) -> tuple[str, bool | None]:
        return "won"  # not a (name, win) pair
    assert protocol_messages(broken(CARD_FACTS={"draw": "cards"}, OPTIONS={"level": "int"})) == [
        "OPTIONS: expected a record field definition",
        "CARD_FACTS['draw']: expected ('drawn' or 'played', a data key), got 'cards'"]
    assert any("outcome() gave 'won', not (name, True/False/None)" in p for p in problems_of(broken(outcome=outcome)))


def test_an_apply_that_changes_its_input_is_caught():
    def apply(state, action, chance, log) -> object:
        new = DUEL.apply(state, action, chance, log)
        object.__setattr__(state, "score", new.score)  # the input changed behind the caller's back
        return new
    apply.__annotations__ = DUEL.apply.__annotations__
    assert any("changed the state it was given" in p for p in problems_of(broken(apply=apply)))


def test_apply_in_place_must_give_the_state_and_events_of_apply():
    def same(state, action, chance, log) -> object:
        return DUEL.apply(state, action, chance, log)
    same.__annotations__ = DUEL.apply.__annotations__
    assert problems_of(broken(apply_in_place=same)) == []

    def one_hit_more(state, action, chance, log) -> object:
        new = DUEL.apply(state, action, chance, log)
        return replace(new, score=tuple((f, n + 1) for f, n in new.score)) if new.score[0][1] == 1 else new
    one_hit_more.__annotations__ = DUEL.apply.__annotations__
    assert "seed 0: apply_in_place gives another state than apply after action 3 ({'attack': 'brute', " \
           "'target': 'fencer'})" in problems_of(broken(apply_in_place=one_hit_more))[0]

    def quiet(state, action, chance, log) -> object:
        return DUEL.apply(state, action, chance, NULL_LOG)
    quiet.__annotations__ = DUEL.apply.__annotations__
    assert problems_of(broken(apply_in_place=quiet))[0].startswith(
        "seed 0: apply_in_place logs other events than apply: event ")

    assert protocol_messages(broken(apply_in_place=lambda state, action, chance: state)) == [
        "apply_in_place() takes 3 parameter(s) without a default; the protocol passes 4",
        "apply_in_place(): parameter(s) state, action, chance not annotated", "apply_in_place(): no return annotation"]


def test_observations_and_event_data_must_be_json_plain():
    def observe(state) -> dict:
        return {**DUEL.observe(state), "score": tuple(DUEL.observe(state)["score"].items())}
    observe.__annotations__ = DUEL.observe.__annotations__
    assert any("observe().score: tuple" in p for p in problems_of(broken(observe=observe)))


def test_a_broken_invariant_and_a_game_that_never_ends_are_reported():
    def invariants(state) -> list[str]:
        return ["no fighter may land a hit"] if DUEL.observe(state)["hits"] else []
    invariants.__annotations__ = DUEL.invariants.__annotations__
    assert any("no fighter may land a hit" in p for p in problems_of(broken(invariants=invariants)))

    def is_over(state) -> bool:
        return False
    is_over.__annotations__ = DUEL.is_over.__annotations__
    endless = broken(is_over=is_over, legal_actions=lambda state: [{"attack": "brute", "target": "fencer"}]
                     if not DUEL.is_over(state) else [])
    endless.legal_actions.__annotations__ = DUEL.legal_actions.__annotations__
    assert any("no legal action but the game is not over" in p for p in problems_of(endless))


def test_the_same_seed_must_give_the_same_log():
    calls = {"n": 0}

    def new_game(rules, options, chance, log) -> object:
        calls["n"] += 1
        state = DUEL.new_game(rules, options, chance, log)
        return replace(state, score=tuple((f, calls["n"] % 2) for f, _ in state.score))
    new_game.__annotations__ = DUEL.new_game.__annotations__
    assert any("seed 0 played twice gives two different event logs" in p
               for p in problems_of(broken(new_game=new_game)))


def test_content_the_source_leaves_open_is_a_note_not_a_failure():
    game = load_game(BUNDLED_GAMES / "rt0-combat")
    report = check_module(rules_module(game), game, games=3)
    assert report.ok and report.games == 0
    assert report.notes == ["random play stops at a value the source leaves open: random play needs adversaries, "
                            "and the source gives no adversary stat blocks (lay cards of type adversary over "
                            "the game: --fixture FOLDER)"]
