"""The example runner, its verdicts and failure paths, golden logs, JUnit XML, the CLI and the pytest plugin."""
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from deckwright.rules.book.examples import find_examples, replay_example, replay_game_examples
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.load import load_game

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "engine"
DECKWRIGHT = [sys.executable, "-m", "deckwright.generator.cli"]


# -- a tiny mechanics module for the dice-duel fixture ----------------------------------------------


def _duel_setup(game, spec, chance, log):
    return {"game": game, "hits": 0, "last": None}


def _duel_apply(state, action, chance, log):
    game = state["game"]
    try:
        attacker, target = game.card(action["attack"]), game.card(action["target"])
    except KeyError as exc:
        raise RuleError(f"no fighter {exc.args[0]}") from None
    total, faces = attacker["attack"].roll(chance, f"{attacker.name} attacks")
    hit = total >= target["defense"]
    state["hits"] += hit
    state["last"] = {"total": total, "hit": hit}
    log.add("attack", f"{attacker.name} rolls {total} against {target.name}'s defense {target['defense']}: "
                      f"{'hit' if hit else 'miss'}")
    return state


DUEL = SimpleNamespace(setup=_duel_setup, apply=_duel_apply, observe=lambda s: {"hits": s["hits"], "last": s["last"]})


@pytest.fixture(scope="module")
def duel():
    game = load_game(FIXTURES / "dice-duel")
    return game, {e.name: e for e in find_examples(game)}


def replay(duel, name):
    game, examples = duel
    return replay_example(game, examples[name], DUEL)


def test_a_correct_example_is_verified_with_its_log(duel):
    result = replay(duel, "The brute hits the fencer")
    assert result.verdict == "verified", result.message
    assert result.log == ("roll: Brute attacks: D8 shows 7", "attack: Brute rolls 7 against Fencer's defense 6: hit")
    assert str(result.loc) == "tests/fixtures/engine/dice-duel/rulebook/duel.md:6:7"


def test_a_wrong_expected_value_fails_at_its_rulebook_line(duel):
    result = replay(duel, "A claim with the wrong total")
    assert result.verdict == "failing"
    assert (result.loc.file, result.loc.line) == ("tests/fixtures/engine/dice-duel/rulebook/duel.md", 22)
    assert result.message == "last.total: expected 6, got 7"
    assert "attack: Brute rolls 7 against Fencer's defense 6: hit" in result.log


def test_an_impossible_roll_fails_naming_the_action(duel):
    result = replay(duel, "A nine on a D8")
    assert result.verdict == "failing"
    assert result.message == ("action 1 (attack: brute, target: fencer, line 29): scripted roll 1 is 9, "
                              "impossible on a D8 for Brute attacks (faces 1 to 8)")
    assert result.loc.line == 29


def test_a_missing_roll_fails(duel):
    result = replay(duel, "The fencer needs two dice")
    assert result.verdict == "failing"
    assert "action 1 (attack: fencer, target: brute, line 38): the rules roll a D4 for Fencer attacks, " \
           "but all 1 scripted roll(s) are used up" in result.message


def test_a_leftover_roll_fails(duel):
    result = replay(duel, "A roll too many")
    assert result.verdict == "failing"
    assert result.message == ("at the end of the example: 1 scripted roll(s) left over: 2 "
                              "(the rules never used them)")


def test_an_erratum_that_still_disagrees_is_reported_apart(duel):
    result = replay(duel, "The old printing added the defense")
    assert result.verdict == "erratum"
    assert result.message == ("the first printing added the target's defense to the roll "
                              "(last.total: expected 13, got 7)")


def test_an_erratum_that_starts_to_agree_fails(duel):
    result = replay(duel, "A fixed erratum")
    assert result.verdict == "failing"
    assert "now agrees with the rules; remove its 'erratum:' line" in result.message


def test_an_unknown_key_is_pointed_at(duel):
    result = replay(duel, "A misspelt key")
    assert result.verdict == "failing"
    assert result.loc.line == 77
    assert "unknown key 'expcet'; did you mean 'expect'?" in result.message


def test_an_illegal_action_fails_at_its_line(duel):
    result = replay(duel, "Nobody attacks")
    assert result.verdict == "failing"
    assert result.message == "no fighter ghost" and result.loc.line == 84


def test_a_game_without_mechanics_cannot_replay(duel):
    game, _ = duel
    results = replay_game_examples(game)
    assert {r.verdict for r in results} == {"failing"}
    assert "no mechanics module" in results[0].message


def test_a_broken_mechanics_module_is_a_failing_example_not_a_crash(duel):
    game, examples = duel
    broken = SimpleNamespace(setup=_duel_setup, apply=lambda *a: 1 / 0, observe=DUEL.observe)
    result = replay_example(game, examples["The brute hits the fencer"], broken)
    assert result.verdict == "failing"
    assert "the rules raised ZeroDivisionError: division by zero" in result.message


# -- golden logs -------------------------------------------------------------------------------------


def copy_game(tmp_path, name="mini-hunt") -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def test_golden_logs_are_written_then_compared(tmp_path):
    folder = copy_game(tmp_path)
    game = load_game(folder)
    assert [r.verdict for r in replay_game_examples(game, update_golden=True)] == ["verified", "erratum"]
    golden = folder / "rulebook" / "hunt.golden" / "the-rat-bites-through-the-vest.log"
    assert golden.read_text().splitlines()[-2:] == [
        "prey: Straw Rat spends 2 energy (0 left): Power 2",
        "attack: Straw Rat: Power 2 against Vest (2+ 4+, critical 6+) -> 1 wound to the discard",
    ]
    assert [r.verdict for r in replay_game_examples(game)] == ["verified", "erratum"]
    golden.write_text(golden.read_text().replace("1 wound", "3 wounds"))
    result = replay_game_examples(game)[0]
    assert result.verdict == "failing"
    assert "the event log differs from its golden file" in result.message
    assert "expected 'attack: Straw Rat: Power 2 against Vest (2+ 4+, critical 6+) -> 3 wounds to the discard'" in result.message


# -- the command line and JUnit ----------------------------------------------------------------------


def run_cli(*args, cwd=ROOT):
    return subprocess.run([*DECKWRIGHT, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def break_examples(folder: Path) -> None:
    page = folder / "rulebook" / "hunt.md"
    page.write_text(page.read_text() + """
```example
name: A claim of three wounds
setup:
  armor: vest
  enemies: [{card: straw-rat, energy: 2}]
  hand: [poke, poke]
expect:
  wounds.discard: 3
```
""")


def test_check_passes_with_an_erratum_and_writes_junit(tmp_path):
    folder = copy_game(tmp_path)
    report = tmp_path / "reports" / "check.xml"
    done = run_cli("check", folder, "--junit", report)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "examples: 1 verified, 1 known errata, 0 failing" in done.stdout
    assert "hunt.md:6:7: The rat bites through the vest: verified" in done.stdout
    errata = done.stdout.split("  known errata (1;")[1]
    assert "The first printing counted two wounds: erratum: the first printing counted the 4" in errata
    cases = ET.parse(report).getroot().findall(".//testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        ("mini-hunt", "The rat bites through the vest"), ("mini-hunt", "The first printing counted two wounds")]
    assert cases[0].find("failure") is None and cases[0].find("skipped") is None
    assert cases[1].find("skipped").get("message").startswith("erratum: the first printing counted the 4")


def test_check_fails_on_a_wrong_example_with_its_line_and_log(tmp_path):
    folder = copy_game(tmp_path)
    break_examples(folder)
    report = tmp_path / "check.xml"
    done = run_cli("check", folder, "--junit", report)
    assert done.returncode == 1
    assert "examples: 1 verified, 1 known errata, 1 failing" in done.stdout
    assert "hunt.md:36:19: A claim of three wounds: failing: wounds.discard: expected 3, got 1" in done.stdout
    assert "| attack: Straw Rat: Power 2 against Vest (2+ 4+, critical 6+) -> 1 wound to the discard" in done.stdout
    root = ET.parse(report).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("3", "1", "1")
    failure = root.find(".//testcase[@name='A claim of three wounds']/failure")
    assert "wounds.discard: expected 3, got 1" in failure.get("message")
    assert "event log:" in failure.text


def test_update_golden_writes_logs_beside_the_page(tmp_path):
    folder = copy_game(tmp_path)
    done = run_cli("check", folder, "--update-golden")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (folder / "rulebook" / "hunt.golden").iterdir()) == [
        "the-first-printing-counted-two-wounds.log", "the-rat-bites-through-the-vest.log"]


# -- the pytest plugin -------------------------------------------------------------------------------


def test_pytest_collects_each_example_as_an_item_and_nothing_else(tmp_path):
    project = tmp_path / "project"
    (project / "cards").mkdir(parents=True)
    folder = copy_game(project / "cards")
    break_examples(folder)
    (project / "pytest.ini").write_text("[pytest]\ntestpaths = cards\ndeckwright_games = cards\n")
    (project / "README.md").write_text("```example\nname: stray\nexpect: {x: 1}\n```\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider"], cwd=project,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    out = done.stdout
    assert done.returncode == 1, out
    assert "PASSED cards/mini-hunt/rulebook/hunt.md::The rat bites through the vest" in out
    assert "XFAIL cards/mini-hunt/rulebook/hunt.md::The first printing counted two wounds - erratum: " in out
    assert "FAILED cards/mini-hunt/rulebook/hunt.md::A claim of three wounds" in out
    assert "hunt.md:36:19: A claim of three wounds: wounds.discard: expected 3, got 1" in out
    assert "1 failed, 1 passed, 1 xfailed" in out
    assert "notes.md" not in out and "stray" not in out


def test_plain_pytest_sees_the_bundled_examples():
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider",
                           "cards/nightmare-hunt"], cwd=ROOT, capture_output=True, text=True)
    items = [line for line in done.stdout.splitlines() if line.startswith("cards/nightmare-hunt/rulebook/")]
    assert len(items) >= 9
    assert "cards/nightmare-hunt/rulebook/armour.md::Robes against the Rabid Dog's Power 4 bite" in items
