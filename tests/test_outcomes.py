"""The outcome each game reports to ``deckwright simulate``, checked against the event log of the same game.

Micah's Game, RT:0 combat and Parousia are played at random with the made-up cards of tests/fixtures (their
sources leave decks open), as ``tests/fixtures/randomplay.yaml`` says; each finished game's ``outcome(state)`` must
name the way the log says the game ended.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.fixtures import overlaid, random_play_setups
from deckwright.rules.engine.log import EventLog
from deckwright.rules.engine.narration import Narrator
from deckwright.rules.engine.randomplay import play
from deckwright.rules.games import rules_module
from deckwright.rules.load import load_game

SETUPS = {s.game: s for s in random_play_setups(Path(__file__).parent / "fixtures" / "randomplay.yaml")}
SEEDS = 40


def played(game_name: str, tmp_path: Path, seeds: int = SEEDS, **options):
    """(outcome, event log, final state, module) of seeded random games of a bundled game with its fixture laid over
    it, with the fixture table's options (and ``options`` over them)."""
    setup = SETUPS[game_name]
    options = {**setup.options, **options}
    game = load_game(overlaid(BUNDLED_GAMES / game_name, setup.overlay, tmp_path / game_name))
    module = rules_module(game)
    rules = module.prepare(game)
    for seed in range(seeds):
        log = EventLog(Narrator(module.NARRATION, rules))
        result = play(module, rules, seed, setup.max_actions, options, log=log)
        assert result.over and not result.problems, (seed, result.problems)
        yield module.outcome(result.state), log, result.state, module


def test_micahs_game_reports_which_win_condition_ended_it(tmp_path):
    ending = {"exhausted": "encounters exhausted", "last-alive": "last player standing", "nobody-left": "everyone out"}
    seen = Counter()
    three = played("micahs-game", tmp_path / "three")
    alone = played("micahs-game", tmp_path / "alone", players=[["t", "test-hero"]])  # no last player standing
    for (name, won), log, state, _ in [*three, *alone]:
        last = [e for e in log.events if e.kind in ending][-1]
        assert name == ending[last.kind] and won is None
        assert len(state.winners) == {"encounters exhausted": len(last.data.get("winners", ())),
                                      "last player standing": 1, "everyone out": 0}[name]
        seen[name] += 1
    assert seen["last player standing"] and seen["encounters exhausted"] + seen["everyone out"], seen


def test_rt0_combat_reports_the_supremacy_worksheet(tmp_path):
    seen = Counter()
    for (name, won), log, _, _ in played("rt0-combat", tmp_path):
        worksheet = [e for e in log.events if e.kind == "supremacy"]
        assert len(worksheet) == 1 and won is None
        assert name == worksheet[0].data["reason"]
        assert worksheet[0].data["tallies"] == {"injury": 0, "corruption": 0, "clean": 1, "full-hp": 2}[name]
        seen[name] += 1
    assert seen["injury"] > 0, seen


def test_parousia_reports_whether_a_player_ran_out_of_hearts(tmp_path):
    seen = Counter()
    for (name, won), _, state, module in played("parousia", tmp_path):
        hearts = [sum(p[k] for k in ("hearts", "soul-hearts", "black-hearts"))
                  for p in module.observe(state)["players"].values()]
        assert won is None
        assert name == ("a player out of hearts" if 0 in hearts else "every player with hearts"), hearts
        seen[name] += 1
    assert seen["every player with hearts"] == SEEDS  # the fixture's floors are kind: nobody runs out
    player = state.players[-1]
    player.counters["hearts"] = player.soul_hearts = player.black_hearts = 0  # as a last blow would leave them
    assert module.outcome(state) == ("a player out of hearts", None)
    player.black_hearts = 1
    assert module.outcome(state) == ("every player with hearts", None)


@pytest.mark.parametrize("game_name", ["micahs-game", "rt0-combat", "parousia"])
def test_simulate_counts_the_outcomes(game_name, tmp_path):
    from deckwright.rules.sim.plan import Chunk, GameSource
    from deckwright.rules.sim.worker import run_chunk

    setup = SETUPS[game_name]
    chunk = Chunk(GameSource(str(BUNDLED_GAMES / game_name), str(setup.overlay)), "random", setup.options, 0, 0, 0,
                  12, setup.max_actions)
    result = run_chunk(chunk)
    expected = Counter(name for (name, _), *_ in played(game_name, tmp_path, 12))
    assert result["outcomes"] == dict(expected) and sum(expected.values()) == 12
    assert "ended" not in result["outcomes"] and result["wins"] == 0 and not result["scored"]
