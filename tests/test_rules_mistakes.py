"""Mistakes a designer makes in a game's own rules module, each reported at its place: an endless loop (a time
limit, rules.engine.timelimit), Ctrl-C while the rules run, an ``apply`` that returns nothing, an ``observe`` that
returns a list, a protocol problem (at the module's line), and rules that are not deterministic.

Built on the Dice Duel fixture as a game folder of its own (test_own_rules.duel)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import default_sigint
from test_examples import FIXTURES, ORDER_EXAMPLE
from test_own_rules import GOOD_EXAMPLE, duel, insert_after, run

from deckwright.rules.book.examples import find_examples, replay_example
from deckwright.rules.ci.check import check_game
from deckwright.rules.ci.conformance import check_module
from deckwright.rules.engine import timelimit
from deckwright.rules.games import rules_module
from deckwright.rules.load import load_game
from deckwright.rules.sim.plan import Chunk, GameSource
from deckwright.rules.sim.worker import PlayStopped, run_chunk


def line_of(text: str, words: str) -> int:
    """The number (from 1) of the first line of ``text`` holding ``words``."""
    return next(number for number, line in enumerate(text.splitlines(), start=1) if words in line)


LOOPING = """def _bank(fighter: str) -> None:
    {before}while fighter == "fencer":
        pass


"""
FENCER_FIRST = """
```example
name: The fencer strikes first
rolls: [5]
actions:
  - {attack: fencer, target: brute}
expect:
  hits: 1
```
"""


def looping_duel(tmp_path: Path, name: str = "duel", before: str = "") -> tuple[Path, int]:
    """The duel whose rules loop for ever when the fencer attacks (in ``_bank``, after running ``before``), with an
    example before the good one in which it does; the loop's line."""
    game = duel(tmp_path, name=name)
    rules = game / "rules.py"
    text = rules.read_text().replace("def _attack(", LOOPING.format(before=before) + "def _attack(", 1)
    text = text.replace('    if is_over(state):\n        raise RuleError("the duel is over")',
                        '    _bank(attacker_id)\n    if is_over(state):\n'
                        '        raise RuleError("the duel is over")', 1)
    rules.write_text(text)
    (game / "rulebook" / "duel.md").write_text(GOOD_EXAMPLE.replace("# Duel\n", "# Duel\n" + FENCER_FIRST))
    check_game(game, update_golden=True)  # the good example's golden log (the looping one stops before it has one)
    line = line_of(text, "while fighter")
    return game, line


@pytest.fixture
def short_limit(monkeypatch):
    """A half-second limit, so that a loop is reported quickly (forked workers inherit it)."""
    monkeypatch.setattr(timelimit, "RULES_SECONDS", 0.5)


def test_an_endless_loop_fails_its_example_at_the_rules_line_and_the_next_example_is_replayed(tmp_path, short_limit):
    game, line = looping_duel(tmp_path)
    report = check_game(game)
    looping, good = report.examples
    assert looping.verdict == "failing" and good.verdict == "verified"
    assert looping.loc.line == 7  # the action's line in the page
    assert looping.message == (f"action 1 (attack: fencer, target: brute, line 7): the rules did not finish within "
                               f"0.5 s ({game / 'rules.py'}:{line}, in _bank)")
    (problem,) = report.conformance.problems
    assert str(problem) == f"{game / 'rules.py'}:{line}:1: random play did not finish within 0.5 s (in _bank)"


def test_check_of_games_in_worker_processes_reports_the_loop_and_exits_1(tmp_path, capsys, short_limit):
    """Two games: checked side by side in forked workers, whose main thread runs the rules (and the timer)."""
    game, line = looping_duel(tmp_path)
    other = duel(tmp_path, name="other")
    code, out, err = run(capsys, "check", "--no-cache", str(game), str(other))
    assert code == 1
    assert "The fencer strikes first: failing: action 1 (attack: fencer, target: brute, line 7): the rules did not " \
           "finish within 0.5 s (" in out  # the long temporary path cuts the line here
    assert f"{game / 'rules.py'}:{line}:1: random play did not finish within 0.5 s (in _bank)" in out
    assert "The brute hits the fencer: verified" in out
    assert out.count("rules protocol: conforms") == 1  # the other game's


@pytest.mark.parametrize("games", [1, 2])  # checked in this process, and in forked workers
def test_rules_that_call_exit_fail_at_their_line_and_check_exits_1(tmp_path, capsys, games):
    """``sys.exit(0)`` in ``prepare`` ended ``deckwright check`` at once, printing nothing, with exit status 0."""
    game = duel(tmp_path)
    rules = game / "rules.py"
    text = rules.read_text()
    text = text.replace("def prepare(game", "import sys\n\n\ndef prepare(game", 1)
    body = text.index("\n", text.index("def prepare(game")) + 1
    rules.write_text(text[:body] + "    sys.exit(0)\n" + text[body:])
    line = line_of(rules.read_text(), "sys.exit(0)")
    folders = [str(game)] + ([str(duel(tmp_path, name="other"))] if games == 2 else [])
    code, out, err = run(capsys, "check", "--no-cache", *folders)
    assert code == 1
    assert (f"{rules}:{line}:1: prepare(game) raised RulesExited: exit(0) called; rules code raises an exception to "
            "fail, it cannot end deckwright") in out


def test_an_endless_loop_at_the_modules_top_level_is_a_located_load_error(tmp_path, short_limit):
    game = duel(tmp_path)
    line = insert_after(game / "rules.py", "from dataclasses import", "while True: pass")
    report = check_game(game)
    (problem,) = report.problems.errors
    assert str(problem) == (f"{game / 'rules.py'}:{line}:1: the rules module (rules.py) cannot be loaded: did not "
                            f"finish within 0.5 s")


def stopped_simulation(game: Path) -> str:
    """Why simulating two random games of ``game`` (one chunk of ``deckwright simulate``) stopped."""
    chunk = Chunk(cell=0, number=0, source=GameSource(str(game)), games=2, seed=0, strategy="random", options={},
                  max_actions=5_000)
    with pytest.raises(PlayStopped) as stopped:
        run_chunk(chunk)
    return str(stopped.value)


def test_a_simulated_game_that_loops_stops_the_run_naming_the_line(tmp_path, short_limit):
    game, line = looping_duel(tmp_path)
    assert stopped_simulation(game) == (f"game seed 0: the rules did not finish within 0.5 s ({game / 'rules.py'}:"
                                        f"{line}, in _bank)")


def test_simulate_names_the_loop_of_its_trial_game(tmp_path, capsys, short_limit):
    game, line = looping_duel(tmp_path)
    code, out, err = run(capsys, "simulate", str(game), "--games", "4", "--out", str(tmp_path / "out"))
    assert code == 1
    assert err.strip() == (f"deckwright: the trial game (seed 0) failed: the rules code did not finish within 0.5 s "
                           f"({game / 'rules.py'}:{line}, in _bank)")


def test_no_limit_outside_the_main_thread():
    import threading

    seen = []
    worker = threading.Thread(target=lambda: seen.append(timelimit.can_time()))
    worker.start()
    worker.join()
    assert seen == [False] and timelimit.can_time()


def burn(seconds: float) -> None:
    """Processor time spent, not waited."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_processor_time_limit_does_not_count_waiting_and_outside_limit_counts_nothing():
    with timelimit.time_limit(0.2, cpu=True):
        time.sleep(0.4)  # waiting (or a machine busy with other work) spends none of it
        with timelimit.outside_limit():
            burn(0.4)  # deckwright's own work inside the limit
        burn(0.05)
    with pytest.raises(timelimit.RulesTimedOut):
        with timelimit.time_limit(0.2, cpu=True):
            burn(1.0)
    with pytest.raises(timelimit.RulesTimedOut):
        with timelimit.time_limit(0.2):  # wall-clock time: waiting counts
            time.sleep(1.0)
    assert timelimit.can_time() and timelimit.can_time(cpu=True)  # every timer stopped


def test_ctrl_c_names_the_example_and_the_rules_line(tmp_path, short_limit):
    marker = tmp_path / "looping"
    game, line = looping_duel(tmp_path, before=f"open({str(marker)!r}, 'w').close()\n    ")
    marker.unlink()  # written while the golden logs were
    env = {**os.environ, "PYTHONPATH": ""}
    process = subprocess.Popen([sys.executable, "-m", "deckwright.generator.cli", "check", "--no-cache", str(game)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               preexec_fn=default_sigint)
    deadline = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip() == (f"deckwright: interrupted while replaying the example 'The fencer strikes first' of "
                           f"dice-duel, action 1 (attack: fencer, target: brute, line 7), at {game / 'rules.py'}:"
                           f"{line} in _bank")


def with_looping_hook(game: Path, signature: str) -> int:
    """The game's rules module given a hook (``def outcome(state: State) -> tuple:``) that loops for ever; the loop's
    line."""
    rules = game / "rules.py"
    rules.write_text(rules.read_text() + f"\n\n{signature}\n    while True:\n        pass\n")
    return line_of(rules.read_text(), "while True")


def test_an_outcome_that_loops_is_told_once_at_its_line_and_check_goes_on(tmp_path, capsys, short_limit):
    game = duel(tmp_path)
    line = with_looping_hook(game, "def outcome(state: State) -> tuple:")
    started = time.monotonic()
    report = check_game(game)
    assert time.monotonic() - started < 5  # one limit waited out, not one for every random game
    (problem,) = report.conformance.problems
    assert str(problem) == f"{game / 'rules.py'}:{line}:1: seed 0: outcome() did not finish within 0.5 s (in outcome)"
    assert [example.verdict for example in report.examples] == ["verified"]


def test_a_simulated_game_whose_outcome_loops_stops_the_run_naming_the_line(tmp_path, short_limit):
    game = duel(tmp_path)
    line = with_looping_hook(game, "def outcome(state: State) -> tuple:")
    assert stopped_simulation(game) == (f"game seed 0: the rules did not finish within 0.5 s ({game / 'rules.py'}:"
                                        f"{line}, in outcome)")


def test_a_layout_data_that_loops_is_a_located_layout_error(tmp_path, capsys, short_limit):
    game = duel(tmp_path)
    line = with_looping_hook(game, "def layout_data(game: Game) -> dict:")
    code, out, err = run(capsys, "check", "--no-cache", str(game))
    assert code == 1
    assert (f"{game / 'rules.py'}:{line}:1: the rules module's layout_data(game) did not finish within 0.5 s "
            f"(in layout_data)") in out + err


def test_odds_that_loop_are_told_by_the_check_and_on_the_odds_page(tmp_path, capsys, short_limit):
    from deckwright.generator.site.odds import odds_page

    game = duel(tmp_path)
    line = with_looping_hook(game, "def odds(rules: Rules) -> dict:")
    code, out, err = run(capsys, "check", "--no-cache", str(game))
    assert code == 1
    assert f"{game / 'rules.py'}:{line}:1: the rules module's odds(rules) did not finish within 0.5 s (in odds)" \
        in out + err
    page = odds_page(load_game(game))
    assert page.tables == () and page.problem == "RulesTimedOut: did not finish within 0.5 s"


@pytest.mark.parametrize("returned, said", [("{'hits': 5}", "odds(rules)['hits'] is a int, not an OddsTable"),
                                            ("['hits']", "odds(rules) returned a list, not a mapping of names to "
                                                         "OddsTables")])
def test_odds_that_are_no_tables_are_a_located_layout_error(tmp_path, capsys, returned, said):
    """``odds(rules)`` giving something other than OddsTables crashed check, build and serve with a traceback, where
    the layouts' ``data.odds`` read the tables."""
    game = duel(tmp_path)
    rules = game / "rules.py"
    rules.write_text(rules.read_text() + f"\n\ndef odds(rules: Rules) -> dict:\n    return {returned}\n")
    line = line_of(rules.read_text(), "def odds")
    code, out, err = run(capsys, "check", "--no-cache", str(game))
    assert code == 1
    assert f"{rules}:{line}:1: the rules module's {said}" in out + err


# -- protocol mistakes, at the place that made them ---------------------------------------------------------------


def test_an_apply_that_returns_nothing_is_said_at_the_action_that_did_it(tmp_path):
    game = duel(tmp_path)
    rules = game / "rules.py"
    rules.write_text(rules.read_text().replace("    return dispatch(ACTIONS,", "    dispatch(ACTIONS,"))
    apply_line = line_of(rules.read_text(), "def apply")
    report = check_game(game)
    (example,) = report.examples
    assert example.message == (f"action 1 (attack: brute, target: fencer, line 9): apply(state, {{'attack': 'brute', "
                               f"'target': 'fencer'}}) returned None, not a state ({rules}:{apply_line})")
    assert example.loc.line == 9
    (problem,) = report.conformance.problems
    assert str(problem).startswith(f"{rules}:{apply_line}:1: random play: apply(state, {{'attack': ")
    assert str(problem).endswith("}) returned None, not a state")


def test_an_observe_that_returns_a_list_fails_the_protocol_and_says_so_in_examples(tmp_path):
    game = duel(tmp_path)
    rules = game / "rules.py"
    rules.write_text(rules.read_text().replace('    return {"hits": sum(n for _, n in state.score),',
                                               '    return [{"hits": sum(n for _, n in state.score),')
                     .replace('"last": dict(state.last) or None}', '"last": dict(state.last) or None}]'))
    observe_line = line_of(rules.read_text(), "def observe")
    report = check_game(game)
    (example,) = report.examples
    assert example.message == (f"at the end of the example: observe(state) returned a list, not a mapping of "
                               f"outcome names to values ({rules}:{observe_line})")
    assert example.loc.line == 11  # expect:
    (problem,) = report.conformance.problems
    assert str(problem) == (f"{rules}:{observe_line}:1: random play: observe(state) returned a list, not a mapping "
                            f"of outcome names to values (an example's expect: claims them by name)")


def test_a_protocol_problem_is_at_the_modules_line(tmp_path):
    game = duel(tmp_path)
    rules = game / "rules.py"
    insert_after(rules, "    return dispatch(ACTIONS,", "")  # keeps apply where it is
    text = rules.read_text().replace("    return dispatch(ACTIONS, state, action, chance, log)",
                                     "    new = dispatch(ACTIONS, state, action, chance, log)\n"
                                     "    object.__setattr__(state, 'score', new.score)\n    return new")
    rules.write_text(text)
    apply_line = line_of(text, "def apply")
    game_module = rules_module(load_game(game))
    problems = check_module(game_module, load_game(game), games=2).problems
    (problem,) = problems
    assert str(problem).startswith(f"{rules}:{apply_line}:1: random play: apply(state, {{'attack': ")
    assert str(problem).endswith("}) changed the state it was given")


def test_rules_that_are_not_deterministic_are_told_apart_from_an_order_left_open(tmp_path):
    """The hunt's example leaves the deck's order open, and its claim holds in file order only: that fails naming
    an order to write. Rules that give another result for the same script (here: a count of calls, as Python's
    random would) fail saying so instead, since no order written down would settle it."""
    folder = tmp_path / "mini-hunt"
    shutil.copytree(FIXTURES / "mini-hunt", folder)
    page = folder / "rulebook" / "hunt.md"
    page.write_text(page.read_text() + ORDER_EXAMPLE.format(order="[]", drawn="scratch"))
    game = load_game(folder)
    hunt = rules_module(game)
    calls = {"apply": 0}

    def apply(state, action, chance, log):
        calls["apply"] += 1
        log.add("noise", calls=calls["apply"])  # another event log at every replay
        return hunt.apply(state, action, chance, log)

    unsteady = SimpleNamespace(**{**vars(hunt), "apply": apply})
    unsteady.NARRATION = {**hunt.NARRATION, "noise": lambda data, rules: "noise"}
    example = next(e for e in find_examples(game) if e.name == "Recovery draws a card")
    steady = replay_example(game, example, hunt)
    assert steady.message.startswith("the verdict depends on an order the example leaves open: name it under")
    result = replay_example(game, example, unsteady)
    assert result.verdict == "failing" and not result.order
    assert result.message.startswith("the rules are not deterministic: replayed the same way, the example gives "
                                     "another result (rules code asks the chance object it is given for every "
                                     "random outcome, never Python's random, the clock or a set's order); once it is ")


def test_a_problem_with_a_value_is_at_its_assignment(tmp_path):
    game = duel(tmp_path)
    rules = game / "rules.py"
    rules.write_text(rules.read_text().replace("NARRATION = {", 'NARRATION = {"attack": "a blow"} or {', 1))
    line = line_of(rules.read_text(), "NARRATION")
    loaded = load_game(game)
    (problem,) = check_module(rules_module(loaded), loaded, games=2).problems
    assert str(problem) == f"{rules}:{line}:1: NARRATION: 'attack' is not callable"
