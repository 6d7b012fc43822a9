"""A game folder's own rules module: ``mechanics: rules.py`` (or a package folder) in game.yaml.

Built on the Dice Duel fixture (tests/fixtures/engine/dice-duel, the minimal example of rules/README.md),
copied out and given ``mechanics: rules.py`` and one good worked example.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from deckwright.generator.cli import main
from deckwright.rules.games import rules_module
from deckwright.rules.games.gamecode import load_own_module
from deckwright.rules.load import load_game, load_game_with_warnings

DUEL = Path(__file__).parent / "fixtures" / "engine" / "dice-duel"
GOOD_EXAMPLE = """# Duel

The attacker rolls its attack; a total at least the target's defense hits.

```example
name: The brute hits the fencer
rolls: [D8=7]
actions:
  - {attack: brute, target: fencer}
expect:
  hits: 1
  last: {total: 7, hit: true}
```
"""
FACE = """boxes:
  paper: {kind: rect, fill: "#fdfaf3", bleed: true}
  name: {kind: text, left: 5, top: 5, right: 5, height: 10, text: "{{ card.name }}", size: 11}
"""


def duel(tmp_path: Path, mechanics: str = "rules.py", name: str = "duel") -> Path:
    """The Dice Duel fixture as a game folder of its own, far from the repository's games."""
    game = tmp_path / name
    shutil.copytree(DUEL, game, ignore=shutil.ignore_patterns("the-old-*"))
    text = (game / "game.yaml").read_text().replace("constants:", f"mechanics: {mechanics}\nconstants:", 1)
    (game / "game.yaml").write_text(text)
    (game / "rulebook" / "duel.md").write_text(GOOD_EXAMPLE)
    (game / "layouts").mkdir()
    (game / "layouts" / "fighter.yaml").write_text(FACE)
    return game


def insert_after(path: Path, anchor: str, line: str) -> int:
    """Put ``line`` after the line holding ``anchor``, indented like it; its line number."""
    lines = path.read_text().splitlines()
    at = next(i for i, text in enumerate(lines) if anchor in text)
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    lines.insert(at + 1, indent + line)
    path.write_text("\n".join(lines) + "\n")
    return at + 2


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_game_folders_own_module_checks_its_examples(tmp_path, capsys):
    code, out, err = run(capsys, "check", str(duel(tmp_path)))
    assert code == 0, out + err
    assert "examples: 1 verified, 0 known errata, 0 failing" in out
    assert "rules protocol: conforms" in out


def test_constants_are_typed_by_the_modules_definitions(tmp_path):
    game = duel(tmp_path)
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("hits_to_win: 3", "hits_to_win: 0"))
    _, problems = load_game_with_warnings(game)
    (problem,) = problems.errors
    assert problem.loc.file.endswith("game.yaml") and problem.loc.line == 6
    assert "hits_to_win" in problem.message


def test_an_exception_in_the_module_is_reported_at_its_own_line(tmp_path, capsys):
    game = duel(tmp_path)
    line = insert_after(game / "rules.py", 'hit = total >= target["defense"]',
                        'if total == 7: raise ValueError("seven is unlucky")')
    code, out, err = run(capsys, "check", str(game))
    assert code == 1
    assert f"rules.py:{line}:1: random play raised ValueError: seven is unlucky" in out  # the protocol's line
    assert "Traceback" not in out + err


def test_traceback_prints_the_whole_trace(tmp_path, capsys):
    game = duel(tmp_path)
    insert_after(game / "rules.py", 'hit = total >= target["defense"]', 'raise ValueError("always")')
    code, out, err = run(capsys, "check", str(game), "--traceback")
    assert code == 1
    assert "Traceback (most recent call last)" in out and 'raise ValueError("always")' in out
    code, out, _ = run(capsys, "--traceback", "check", str(game))  # a global option, before the command too
    assert code == 1 and "Traceback (most recent call last)" in out


@pytest.mark.parametrize("anchor, line, expected", [
    ("from dataclasses import", "import no_such_module_anywhere", "ModuleNotFoundError: No module named 'no_such_module_anywhere'"),
    ("from dataclasses import", "def broken(:", "SyntaxError: invalid syntax"),
    ("from dataclasses import", "1 / 0", "ZeroDivisionError: division by zero"),
])
def test_a_module_that_cannot_load_is_one_located_error(tmp_path, capsys, anchor, line, expected):
    game = duel(tmp_path)
    number = insert_after(game / "rules.py", anchor, line)
    code, out, err = run(capsys, "check", str(game))
    assert code == 1
    (first,) = [text for text in err.splitlines() if "rules.py" in text]
    assert f"rules.py:{number}:" in first and expected in first
    assert "Traceback" not in err
    code, out, err = run(capsys, "check", str(game), "--traceback")
    assert "Traceback (most recent call last)" in err


def test_a_consistency_check_that_raises_is_located(tmp_path, capsys):
    game = duel(tmp_path)
    rules = game / "rules.py"
    rules.write_text(rules.read_text() + "\n\ndef consistency(game: Game, problems: object) -> None:\n"
                                         "    raise KeyError('defence')\n")
    line = len(rules.read_text().splitlines())
    code, out, err = run(capsys, "check", str(game))
    assert code == 1
    assert f"rules.py:{line}:1: the rules module's consistency(game) raised KeyError" in err


def test_no_code_runs_nothing_of_the_module(tmp_path, capsys):
    game = duel(tmp_path)
    ran = tmp_path / "ran.txt"
    rules = game / "rules.py"
    insert_after(rules, "from dataclasses import", f"open({str(ran)!r}, 'a').write('imported\\n')")
    code, out, err = run(capsys, "check", "--no-code", str(game))
    assert code == 0, out + err
    assert "1 not run (--no-code)" in out and "not run: --no-code skips" in out
    assert "rules protocol" not in out
    code, out, err = run(capsys, "build", "--no-code", str(game), "--out", str(tmp_path / "out"), "--target", "home")
    assert code == 0, out + err
    assert (tmp_path / "out" / "dice-duel" / "print" / "deck-fighters.pdf").is_file()
    assert not ran.exists()
    game_data = load_game(game, run_code=False)
    assert game_data.constants == {"hits_to_win": 3} and rules_module(game_data) is None
    assert not ran.exists()
    code, out, err = run(capsys, "check", str(game))  # the module is run when allowed: the probe works
    assert code == 0 and ran.read_text() == "imported\n"


def test_no_code_still_checks_the_data(tmp_path, capsys):
    game = duel(tmp_path)
    (game / "fighters.yaml").write_text((game / "fighters.yaml").read_text().replace("defense: 5", "defense: five"))
    code, out, err = run(capsys, "check", "--no-code", str(game))
    assert code == 1 and "fighters.yaml:4:" in err


def test_the_module_runs_once_per_process_until_it_changes(tmp_path):
    game = duel(tmp_path)
    ran = tmp_path / "ran.txt"
    rules = game / "rules.py"
    insert_after(rules, "from dataclasses import", f"open({str(ran)!r}, 'a').write('imported\\n')")
    loaded = load_game(game)
    first = rules_module(loaded)
    assert all(rules_module(load_game(game)) is first for _ in range(3))
    assert load_own_module(game, "rules.py") is first
    assert ran.read_text() == "imported\n"
    rules.write_text(rules.read_text() + "\n# edited\n")
    os.utime(rules, ns=(rules.stat().st_mtime_ns + 10**9,) * 2)
    assert rules_module(load_game(game)) is not first
    assert ran.read_text() == "imported\n" * 2


def test_two_games_with_a_rules_py_each_keep_their_own(tmp_path):
    one, other = duel(tmp_path, name="one"), duel(tmp_path, name="other")
    (other / "rules.py").write_text((other / "rules.py").read_text() + "\nWHICH = 'other'\n")
    assert not hasattr(rules_module(load_game(one)), "WHICH")
    assert rules_module(load_game(other)).WHICH == "other"


def test_a_rules_package_with_relative_imports(tmp_path, capsys):
    game = duel(tmp_path, mechanics="rules/")
    package = game / "rules"
    package.mkdir()
    (game / "rules.py").rename(package / "duel.py")
    (package / "__init__.py").write_text("from .duel import *  # noqa: F403\nfrom .duel import _attack  # noqa: F401\n")
    code, out, err = run(capsys, "check", str(game))
    assert code == 0, out + err
    assert "1 verified" in out


@pytest.mark.parametrize("mechanics, message", [
    ("../rules.py", "must be a path inside the game folder"),
    ("/etc/rules.py", "must be a path inside the game folder"),
    ("missing.py", "no file 'missing.py' in the game folder"),
    ("fighters.yaml/", "is not a Python file"),
    ("rulebook/", "a folder without __init__.py"),
])
def test_mechanics_paths_stay_inside_the_game_folder(tmp_path, mechanics, message):
    game = duel(tmp_path, mechanics=mechanics)
    (tmp_path / "rules.py").write_text("raise SystemExit('must never run')\n")
    _, problems = load_game_with_warnings(game)
    (problem,) = problems.errors
    assert problem.loc.file.endswith("game.yaml") and problem.loc.line == 5
    assert message in problem.message


def test_a_link_out_of_the_game_folder_is_refused(tmp_path):
    game = duel(tmp_path)
    outside = tmp_path / "elsewhere.py"
    outside.write_text("raise SystemExit('must never run')\n")
    (game / "rules.py").unlink()
    (game / "rules.py").symlink_to(outside)
    _, problems = load_game_with_warnings(game)
    (problem,) = problems.errors
    assert "links outside the game folder" in problem.message


def test_an_unknown_bundled_id_suggests_a_file(tmp_path):
    game = duel(tmp_path, mechanics="dice-duel")
    _, problems = load_game_with_warnings(game)
    (problem,) = problems.errors
    assert "no rules module 'dice-duel'" in problem.message and "rules.py" in problem.message


def test_loading_the_module_writes_nothing_into_the_game_folder(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    game = duel(tmp_path, mechanics="rules/")
    package = game / "rules"
    package.mkdir()
    (game / "rules.py").rename(package / "duel.py")
    (package / "__init__.py").write_text("from .duel import *  # noqa: F403\n")
    before = sorted(p.relative_to(game) for p in game.rglob("*"))
    assert rules_module(load_game(game)).CONSTANTS is not None
    assert sorted(p.relative_to(game) for p in game.rglob("*")) == before  # no __pycache__


def test_layout_data_that_raises_is_a_located_layout_error(tmp_path, capsys):
    game = duel(tmp_path)
    rules = game / "rules.py"
    rules.write_text(rules.read_text() + "\n\ndef layout_data(game: Game) -> dict:\n    return {'odds': 1 / 0}\n")
    line = len(rules.read_text().splitlines())
    code, out, err = run(capsys, "check", str(game))
    assert code == 1
    assert f"rules.py:{line}:1: the rules module's layout_data(game) raised ZeroDivisionError: division by zero" in err


def junit_cases(report: Path) -> tuple[dict, str]:
    """The report's test cases by name, and its count of failures."""
    import xml.etree.ElementTree as ET

    root = ET.parse(report).getroot()
    return {case.get("name"): case for case in root.iter("testcase")}, root.get("failures")


def test_a_rules_protocol_failure_is_a_failing_test_case_in_the_junit_report(tmp_path, capsys):
    game = duel(tmp_path)
    insert_after(game / "rules.py", "def apply(state: State", '    object.__setattr__(state, "last", (("x", 1),))')
    code, out, _ = run(capsys, "check", str(game), "--no-cache", "--junit", str(tmp_path / "r.xml"))
    assert code == 1
    problem = out.split("rules protocol: 1 problem(s):\n    ")[1].splitlines()[0]
    assert problem.startswith(f"{game / 'rules.py'}:") and ": random play: apply(state, {'attack': " in problem \
        and problem.endswith("changed the state it was given"), out  # at the rules module's line
    cases, failures = junit_cases(tmp_path / "r.xml")
    assert failures == "1" and list(cases) == ["The brute hits the fencer", "rules protocol"]
    failure = cases["rules protocol"].find("failure")
    assert failure.text == problem and "1 problem(s)" in failure.get("message")
    file, line = problem.split(":")[:2]  # placed at its first line, where CI annotates it
    assert (cases["rules protocol"].get("file"), cases["rules protocol"].get("line")) == (file, line)


def test_a_worked_example_named_like_one_of_checks_own_cases_keeps_a_case_of_its_own(tmp_path, capsys):
    game = duel(tmp_path)
    page = game / "rulebook" / "duel.md"
    page.write_text(page.read_text().replace("name: The brute hits the fencer", "name: layout"))
    (game / "layouts" / "fighter.yaml").write_text(FACE.replace("size: 11", "size: 60, min_size: 60"))  # a layout error
    code, _, _ = run(capsys, "check", str(game), "--no-cache", "--update-golden", "--junit", str(tmp_path / "r.xml"))
    assert code == 1
    cases, failures = junit_cases(tmp_path / "r.xml")
    assert list(cases) == ["layout (worked example)", "layout"] and failures == "1"
    assert cases["layout (worked example)"].find("failure") is None


def test_a_layout_error_is_a_failing_test_case_in_the_junit_report_and_a_warning_is_not(tmp_path, capsys):
    game = duel(tmp_path)
    face = game / "layouts" / "fighter.yaml"
    face.write_text(FACE.replace("size: 11", "size: 5"))  # too small to read: a warning
    code, _, err = run(capsys, "check", str(game), "--no-cache", "--junit", str(tmp_path / "r.xml"))
    assert code == 0 and "warning:" in err
    cases, failures = junit_cases(tmp_path / "r.xml")
    assert failures == "0" and list(cases) == ["The brute hits the fencer"]
    face.write_text(FACE.replace("size: 11", "size: 60, min_size: 60"))  # fits on no card: an error a card
    code, _, err = run(capsys, "check", str(game), "--no-cache", "--junit", str(tmp_path / "r.xml"))
    errors = [line for line in err.splitlines() if "does not fit" in line]
    assert code == 1 and len(errors) == 2, err
    cases, failures = junit_cases(tmp_path / "r.xml")
    assert failures == "1" and list(cases) == ["The brute hits the fencer", "layout"]
    failure = cases["layout"].find("failure")
    assert failure.get("message") == "2 layout error(s)" and failure.text.splitlines() == errors
    assert (cases["layout"].get("file"), cases["layout"].get("line")) == tuple(errors[0].split(":")[:2])
