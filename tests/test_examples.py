"""The example runner, its verdicts and failure paths, golden logs, JUnit XML, the CLI and the pytest plugin."""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from deckwright.rules.book.examples import find_examples, replay_example, replay_game_examples
from deckwright.rules.ci.check import check_game
from deckwright.rules.games import load_rules_file
from deckwright.rules.load import load_game
from deckwright.rules.problems import display_path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "engine"
DECKWRIGHT = [sys.executable, "-m", "deckwright.generator.cli"]


# -- the dice-duel fixture: its rules are rules.py in its folder, the minimal example of rules/README.md ----


DUEL = load_rules_file(FIXTURES / "dice-duel" / "rules.py", "dice-duel")


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
    assert (result.loc.line, result.loc.col) == (27, 9)  # at the roll: `rolls: [9]`


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
    assert (result.loc.line, result.loc.col) == (45, 12)  # at the first roll left over: `rolls: [7, 2]`


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


def test_an_action_naming_no_card_fails_at_its_line(duel):
    result = replay(duel, "Nobody attacks")
    assert result.verdict == "failing"
    assert result.message == "action 1.attack: no card with id 'ghost'" and (result.loc.line, result.loc.col) == (84, 14)


def test_a_game_without_mechanics_cannot_replay(duel):
    game, _ = duel
    results = replay_game_examples(game)
    assert {r.verdict for r in results} == {"failing"}
    assert "no rules module" in results[0].message


def test_a_broken_mechanics_module_is_a_failing_example_not_a_crash(duel):
    game, examples = duel
    broken = SimpleNamespace(**{**vars(DUEL), "apply": lambda *a: 1 / 0})
    result = replay_example(game, examples["The brute hits the fencer"], broken)
    assert result.verdict == "failing"
    assert "the rules raised ZeroDivisionError: division by zero" in result.message


# -- golden logs -------------------------------------------------------------------------------------


def copy_game(tmp_path, name="mini-hunt") -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def golden_dir(folder: Path) -> Path:
    return folder / "rulebook" / "hunt.golden"


def test_golden_logs_are_json_lines_of_facts_with_the_narration_beside(tmp_path):
    folder = copy_game(tmp_path)
    golden = golden_dir(folder) / "the-rat-bites-through-the-vest.jsonl"
    assert [json.loads(line) for line in golden.read_text().splitlines()][-1] == [
        "attack", {"armor": "vest", "enemy": "straw-rat", "power": 2, "to": "discard", "track": [2, 4], "wounds": 1},
        "Straw Rat: Power 2 against Vest (2+ 4+, critical 6+) -> 1 wound to the discard"]
    game = load_game(folder)
    assert [r.verdict for r in replay_game_examples(game)] == ["verified", "erratum"]
    # the narration is for the reader: rewording it changes nothing; a fact that differs fails
    golden.write_text(golden.read_text().replace("1 wound to the discard", "one wound to the discard pile"))
    assert [r.verdict for r in replay_game_examples(game)] == ["verified", "erratum"]
    golden.write_text(golden.read_text().replace('"wounds": 1', '"wounds": 3'))
    result = replay_game_examples(game)[0]
    assert result.verdict == "failing"
    assert result.message == (f"the event log differs from its golden file {display_path(golden)} at event 3 "
                              f"(attack): wounds: expected 3, got 1 (if the change is right, run deckwright check "
                              f"--update-golden)")


@pytest.mark.parametrize("edit, difference", [
    (lambda events: events[0][1]["order"].reverse(), "at event 1 (shuffle): order.1: expected 'c', got 'a'"),
    (lambda events: events[1][1].pop("left"), "at event 2 (draw): key 'left' added: 3"),
    (lambda events: events[1][1].update(extra={"a": [1]}),
     "at event 2 (draw): key 'extra' missing (expected {\"a\": [1]})"),
    (lambda events: events[0][1]["order"].append("d"), "at event 1 (shuffle): order: expected 4 item(s), got 3 "
                                                       "(missing: 'd')"),
    (lambda events: events[1][1]["cards"][0].update(id="b"), "at event 2 (draw): cards.1.id: expected 'b', got 'a'"),
    (lambda events: events.__setitem__(1, ["play", {}]), "at event 2 (play): expected event 'play', got 'draw' "
                                                          "({\"cards\": [{\"id\": \"a\"}], \"left\": 3})"),
    (lambda events: events.pop(), "at event 2: event 'draw' ({\"cards\": [{\"id\": \"a\"}], \"left\": 3}), after "
                                  "the golden file's last"),
    (lambda events: events.append(["end", {"won": True}]), "at event 3: the log ends, where the golden file has "
                                                           "event 'end' ({\"won\": true})"),
])
def test_a_golden_mismatch_names_the_first_place_the_events_differ(tmp_path, edit, difference):
    from deckwright.rules.book.examples import _golden_difference
    from deckwright.rules.engine.log import EventLog

    log = EventLog()
    log.add("shuffle", pile="deck", order=["a", "b", "c"])
    log.add("draw", cards=[{"id": "a"}], left=3)
    events = [list(event.fact) for event in log.events]
    events = json.loads(json.dumps(events))
    assert _golden_difference(tmp_path / "g.jsonl", [json.dumps(event) for event in events], log) == ""
    edit(events)
    message = _golden_difference(tmp_path / "g.jsonl", [json.dumps(event) for event in events], log)
    assert message == (f"the event log differs from its golden file {display_path(tmp_path / 'g.jsonl')} "
                       f"{difference} (if the change is right, run deckwright check --update-golden)")


@pytest.mark.parametrize("logged, golden, difference", [
    ({"hit": 1}, {"hit": True}, "hit: expected true, got 1"),
    ({"hit": False}, {"hit": 0}, "hit: expected 0, got false"),
    ({"rolls": [1, True]}, {"rolls": [1, 1]}, "rolls.2: expected 1, got true"),
])
def test_a_golden_true_is_not_a_logged_1(tmp_path, logged, golden, difference):
    """Python's ``True == 1`` would let a rule that logs 1 pass a golden log that says true."""
    from deckwright.rules.book.examples import _golden_difference
    from deckwright.rules.engine.log import EventLog

    log = EventLog()
    log.add("tally", **logged)
    message = _golden_difference(tmp_path / "g.jsonl", [json.dumps(["tally", golden])], log)
    assert f"at event 1 (tally): {difference} (if the change" in message


@pytest.mark.parametrize("depth", [101, 5000])
def test_a_golden_line_nested_too_deep_is_not_a_golden_line(tmp_path, depth):
    """5,000 brackets deep, reading the line raised RecursionError; 101, comparing it could."""
    from deckwright.rules.book.examples import _golden_difference
    from deckwright.rules.engine.log import EventLog

    log = EventLog()
    log.add("tally", hits=1)
    line = '["tally", {"hits": ' + "[" * depth + "]" * depth + "}]"
    assert _golden_difference(tmp_path / "g.jsonl", [line], log) == (
        f"line 1 of the golden file {display_path(tmp_path / 'g.jsonl')} is not a [kind, data, narration] line")


def test_an_event_nested_too_deep_is_not_plain_json():
    """A rules module logging data 5,000 deep crashed writing the golden line (RecursionError)."""
    from deckwright.rules.engine.log import Event, EventLog

    deep = []
    for _ in range(5000):
        deep = [deep]
    log = EventLog()
    log.events.append(Event("tally", {"hits": deep}, "a tally narrated by the game"))
    with pytest.raises(ValueError, match="event 'tally': its data nest more than 100 deep"):
        log.golden()


def test_a_missing_golden_fails_and_update_golden_writes_it(tmp_path):
    folder = copy_game(tmp_path)
    golden = golden_dir(folder) / "the-rat-bites-through-the-vest.jsonl"
    kept = golden.read_text()
    golden.unlink()
    report = check_game(folder)
    result = report.examples[0]
    assert report.failed and result.verdict == "failing"
    assert result.message.startswith(f"no golden log {display_path(golden)}: ")
    assert "run deckwright check --update-golden to write it" in result.message
    check_game(folder, update_golden=True)
    assert golden.read_text() == kept
    assert not check_game(folder).failed


def test_an_erratum_is_compared_with_its_golden_too(tmp_path):
    folder = copy_game(tmp_path)
    golden = golden_dir(folder) / "the-first-printing-counted-two-wounds.jsonl"
    golden.write_text(golden.read_text().replace('"wounds": 1', '"wounds": 2'))
    result = check_game(folder).examples[1]
    assert result.verdict == "failing" and "differs from its golden file" in result.message


def test_a_golden_log_with_no_example_is_reported(tmp_path):
    folder = copy_game(tmp_path)
    stray = golden_dir(folder) / "an-example-since-renamed.jsonl"
    stray.write_text("")
    warnings = [str(w) for w in check_game(folder).problems.warnings]
    assert warnings == [f"{display_path(stray)}:1:1: warning: a golden log with no example on "
                        f"{display_path(folder / 'rulebook' / 'hunt.md')} (renamed or removed?); delete it"]


ORDER_EXAMPLE = """
The deck runs out: Recovery shuffles the discard and a wound into a new deck, and one card is drawn.

```example
name: Recovery draws a card
setup:
  armor: vest
  enemies: [{{card: straw-rat, energy: 0}}]
  turn: player
  hand: [poke, poke]
  deck: []
shuffles:
  deck: [{order}]
actions:
  - {{play: poke, target: straw-rat}}
expect:
  hand: [poke, {drawn}]
```
"""


def test_an_unnamed_shuffle_order_that_decides_the_claim_fails_naming_it(tmp_path):
    folder = copy_game(tmp_path)
    page = folder / "rulebook" / "hunt.md"
    page.write_text(page.read_text() + ORDER_EXAMPLE.format(order="[]", drawn="scratch"))  # true in file order only
    check_game(folder, update_golden=True)
    result = next(e for e in check_game(folder).examples if e.name == "Recovery draws a card")
    assert result.verdict == "failing"
    assert result.message.startswith("the verdict depends on an order the example leaves open: name it under "
                                     "'shuffles:' (top card first) as the source gives it, or as the example's own "
                                     "choice, such as the one in which its claims hold: shuffles: {deck: [scratch, "
                                     "poke, block, block]}; with the cards its shuffles do not name in file order it "
                                     "is verified, in another order (permutation 1) failing (hand: expected [poke, "
                                     "scratch], got [")
    assert result.order == "shuffles: {deck: [scratch, poke, block, block]}"
    # the order it names, written as it is, settles the example
    named = page.read_text().replace("shuffles:\n  deck: [[]]", result.order)
    folder_named = tmp_path / "named"
    shutil.copytree(folder, folder_named)
    (folder_named / "rulebook" / "hunt.md").write_text(named)
    check_game(folder_named, update_golden=True)
    assert next(e for e in check_game(folder_named).examples if e.name == "Recovery draws a card").verdict == "verified"
    # the example names the card its claim needs on top: the rest may come in any order
    page.write_text(page.read_text().replace("deck: [[]]", "deck: [[scratch]]"))
    check_game(folder, update_golden=True)
    assert next(e for e in check_game(folder).examples if e.name == "Recovery draws a card").verdict == "verified"


def test_an_order_that_does_not_matter_may_stay_unnamed(tmp_path):
    folder = copy_game(tmp_path)
    page = folder / "rulebook" / "hunt.md"
    page.write_text(page.read_text() + ORDER_EXAMPLE.format(order="[]", drawn="scratch").replace(
        "hand: [poke, scratch]", "count: {hand: 2}"))
    check_game(folder, update_golden=True)
    assert next(e for e in check_game(folder).examples if e.name == "Recovery draws a card").verdict == "verified"


@pytest.mark.parametrize("order, bad, message", [
    ("[scrach]", "scrach", "no card 'scrach' in 'deck'; did you mean 'scratch'? (it holds: "),
    ("[scratch, scratch]", "scratch]", "scripted order 1 for 'deck' names 'scratch' at position 2, one more than "
                                       "the pile holds (it holds 1)"),
])
def test_a_shuffle_naming_a_card_the_pile_lacks_fails_at_that_card(tmp_path, order, bad, message):
    folder = copy_game(tmp_path)
    page = folder / "rulebook" / "hunt.md"
    page.write_text(page.read_text() + ORDER_EXAMPLE.format(order=order, drawn="scratch"))
    result = next(e for e in check_game(folder).examples if e.name == "Recovery draws a card")
    lines = page.read_text().splitlines()
    line = next(number for number, text in enumerate(lines, start=1) if text.startswith("  deck: [["))
    assert result.verdict == "failing" and message in result.message, result.message
    assert result.message.startswith("action 1 (play: poke, target: straw-rat, line ")
    assert (result.loc.line, result.loc.col) == (line, lines[line - 1].rindex(bad) + 1)


def test_a_shuffle_order_left_over_fails_at_that_order(tmp_path):
    folder = copy_game(tmp_path)
    page = folder / "rulebook" / "hunt.md"
    page.write_text(page.read_text() + ORDER_EXAMPLE.format(order="[scratch], [poke]", drawn="scratch"))
    result = next(e for e in check_game(folder).examples if e.name == "Recovery draws a card")
    assert result.verdict == "failing"
    assert result.message == ("at the end of the example: 1 scripted order(s) for 'deck' left over (the rules never "
                              "used them)")
    lines = page.read_text().splitlines()
    line = next(number for number, text in enumerate(lines, start=1) if text.startswith("  deck: [["))
    assert (result.loc.line, result.loc.col) == (line, lines[line - 1].index("[poke]") + 1)


INDENTED = """
Two things to remember:

1. A Straw Rat bites with 2 energy:

    ```example
    name: Indented in a list item
    setup:
      armor: vest
      enemies: [{card: straw-rat, energy: 2}]
      hand: [poke, poke]
    expect:
      wounds.discard: 7
    ```

> ```example
> name: Quoted, so not an example block
> ```
"""


def test_an_indented_fence_is_replayed_and_a_skipped_one_is_a_warning(tmp_path):
    folder = copy_game(tmp_path)
    page = folder / "rulebook" / "hunt.md"
    text = page.read_text()
    page.write_text(text + INDENTED)
    report = check_game(folder)
    result = next(e for e in report.examples if e.name == "Indented in a list item")
    line = text.count("\n") + INDENTED.splitlines().index("      wounds.discard: 7") + 1
    assert result.verdict == "failing" and result.message == "wounds.discard: expected 7, got 1"
    assert (result.loc.line, result.loc.col) == (line, 23)  # the claimed 7, in the page's own columns
    quoted = text.count("\n") + INDENTED.splitlines().index("> ```example") + 1
    assert [str(w) for w in report.problems.warnings] == [
        f"{display_path(page)}:{quoted}:3: warning: this looks like an example fence but opens no example block "
        "(write ```example at the start of a line, or indented in a list item)"]


BARE_VERBS = """
```example
name: A verb given a value it does not take
setup:
  armor: vest
  enemies: [{card: straw-rat, energy: 2}]
  hand: [poke, poke]
actions:
  - ACTION
```
"""


@pytest.mark.parametrize("action, column, message", [
    ("venture: out please", 14, "'venture' takes no value; write '- venture'"),
    ("{town: all of it}", 12, "'town' takes no value; write '- town'"),
    ("{play: poke, target: straw-rat, discard: }", 5, None),  # an optional option left empty: read as none
    ("equip", 5, "'equip' needs a value: {equip: ...}"),  # the reverse mistake
])
def test_an_action_given_a_value_its_verb_does_not_take_fails_at_the_value(tmp_path, action, column, message):
    folder = copy_game(tmp_path)
    page = folder / "rulebook" / "hunt.md"
    text = page.read_text()
    page.write_text(text + BARE_VERBS.replace("ACTION", action))
    [result] = [e for e in check_game(folder).examples if e.name == "A verb given a value it does not take"]
    line = text.count("\n") + BARE_VERBS.splitlines().index("  - ACTION") + 1
    if message is None:
        assert "takes no value" not in result.message and "needs a value" not in result.message, result.message
        return
    assert result.verdict == "failing" and result.message == message
    assert (result.loc.line, result.loc.col) == (line, column)


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



def test_junit_replaces_its_own_report_but_never_a_file_or_link_it_did_not_write(tmp_path):
    folder = copy_game(tmp_path)
    report = tmp_path / "check.xml"
    assert run_cli("check", folder, "--junit", report).returncode == 0
    assert run_cli("check", folder, "--junit", report).returncode == 0  # its own report, replaced
    (tmp_path / "link.xml").symlink_to(report)
    for named in (folder / "game.yaml", tmp_path / "link.xml"):  # the game's file, named by a slip
        before = named.read_bytes()
        done = run_cli("check", folder, "--junit", named)
        assert done.returncode == 2 and done.stdout == ""
        kind = "a link" if named.is_symlink() else "a file deckwright did not write, left as it is"
        assert done.stderr == f"deckwright: cannot write the JUnit report {named} ({kind})\n"
        assert named.read_bytes() == before
    assert (tmp_path / "link.xml").is_symlink()


def test_update_golden_writes_logs_beside_the_page(tmp_path):
    folder = copy_game(tmp_path)
    done = run_cli("check", folder, "--update-golden")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (folder / "rulebook" / "hunt.golden").iterdir()) == [
        "the-first-printing-counted-two-wounds.jsonl", "the-rat-bites-through-the-vest.jsonl"]


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


def test_the_example_blocks_of_a_page_share_one_alias_limit(tmp_path):
    """Each block aliases a 100,000-character text 250 times (25 million characters): under the limit alone, over
    it as the page's third. The page's blocks are one file's YAML, as a spreadsheet's cells are."""
    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "bad_inputs" / "base", game)
    block = "```example\nname: Long {n}\nsetup: {{a: &t \"" + "x" * 100_000 + "\", b: [" + ", ".join(["*t"] * 250) \
        + "]}}\nexpect: {{a: x}}\n```\n"
    page = game / "rulebook" / "intro.md"
    page.write_text(page.read_text() + "".join("\n" + block.format(n=n) for n in range(3)))
    problems = [example.problem for example in find_examples(load_game(game))]
    assert problems[:2] == ["", ""]
    assert "YAML aliases expand to more than 64,000,000 characters" in problems[2]
