"""What deckwright prints about a game folder (issue 13: D11, D14): escaped, one line each, cut at a readable
length, honest about layout errors, with the same fit warnings from build as from check; and card text
where a lone ``*`` is an asterisk."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckwright.generator import cli
from deckwright.generator.layout.richtext import parse, plain
from deckwright.rules.problems import READABLE, Loc, Problem, clip, printable

FIXTURES = Path(__file__).parent / "fixtures" / "engine"
ESCAPES = "\\e[2J\\e]0;owned\\a"  # as written in a double-quoted YAML value: clear the screen, retitle the terminal


def deckwright(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", *args], cwd=cwd, capture_output=True,
                            text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result


# -- D11: control characters ---------------------------------------------------------------------------


def test_yaml_escapes_in_an_error_are_printed_escaped(tiny, tmp_path):
    game = tiny({"monsters.yaml": f'type: monster\ndeck: monsters\ncards:\n  - id: goblin\n    name: Goblin\n'
                                  f'    health: "{ESCAPES}four"\n    die: D8\n'})
    result = deckwright("check", "tiny", cwd=tmp_path)
    assert result.returncode == 1
    assert "\x1b" not in result.stderr + result.stdout and "\x07" not in result.stderr
    assert result.stderr.splitlines() == ['tiny/monsters.yaml:6:13: monster.goblin.health: expected a whole number '
                                          '>= 0, got "\\x1b[2J\\x1b]0;owned\\x07four"']


def test_yaml_escapes_in_an_open_question_are_printed_escaped(tiny, tmp_path):
    game = tiny({"monsters.yaml": f'type: monster\ndeck: monsters\ncards:\n  - id: goblin\n    name: Goblin\n'
                                  f'    health: {{open: "{ESCAPES}\\nsecond line"}}\n    die: D8\n'})
    result = deckwright("check", str(game), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    [line] = [line for line in result.stdout.splitlines() if "monster.goblin.health" in line]
    assert line.endswith("monster.goblin.health: \\x1b[2J\\x1b]0;owned\\x07\\nsecond line")
    assert "\x1b" not in result.stdout


def test_printable_keeps_text_and_escapes_controls():
    assert printable("Gob\u00e9lin \u2014 \U0001f409") == "Gob\u00e9lin \u2014 \U0001f409"
    assert printable("a\x1b[2Jb\x07\x9b\u202e") == "a\\x1b[2Jb\\x07\\x9b\\u202e"
    assert printable("one\ntwo") == "one\\ntwo" and printable("one\ntwo", keep_newlines=True) == "one\ntwo"


def test_a_problem_is_always_one_line():
    assert str(Problem(Loc("f.yaml", 2, 3), "bad\nvalue\x1b")) == "f.yaml:2:3: bad\\nvalue\\x1b"


# -- D14: long messages are cut ------------------------------------------------------------------------------


def test_a_long_message_is_cut_with_how_much_more():
    items = [f"line {n}: expected 3, got 4" for n in range(50)]
    cut = clip("; ".join(items))
    kept = cut.split("; (")[0].split("; ")
    assert len(cut) <= READABLE + 20 and cut.endswith(f"; ({50 - len(kept)} more)") and kept[:2] == items[:2]
    word = clip("word " * 500)
    assert word.endswith(f"... ({len('word ' * 500) - len(word.split('...')[0])} more characters)")


def test_a_failing_example_with_many_wrong_claims_prints_one_readable_line(tmp_path):
    game = tmp_path / "mini-hunt"
    shutil.copytree(FIXTURES / "mini-hunt", game)
    claims = "\n".join(f"  claim_{n:02d}: {n}" for n in range(60))
    page = game / "rulebook" / "hunt.md"
    page.write_text(page.read_text() + "\n```example\nname: Sixty claims\nsetup:\n  armor: vest\n"
                    f"  enemies: [{{card: straw-rat, energy: 2}}]\n  hand: [poke, poke]\nexpect:\n{claims}\n```\n")
    result = deckwright("check", str(game), cwd=tmp_path)
    assert result.returncode == 1
    [line] = [line for line in result.stdout.splitlines() if "Sixty claims" in line]
    assert len(line) < 500 and line.endswith("...; (59 more)"), line


# -- D14: check says invalid ---------------------------------------------------------------------------------


def test_check_says_invalid_with_the_count_of_layout_errors(tiny, tmp_path, monkeypatch, capsys):
    game = tiny({"layouts/hero.yaml": "boxes:\n  name: {kind: text, left: 5, top: 5, right: 5, height: 10, "
                                      "text: '{{ card.nonsense }}'}\n"})
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", str(game)]) == 1
    out, err = capsys.readouterr()
    errors = err.splitlines()
    # the misspelt field: a line for each card type it fails on (their fields differ), the heroes' one for the
    # two of them; the count is of the lines printed
    nonsense = [line for line in errors if "'nonsense'" in line]
    assert len(nonsense) == 2 and len(errors) == 2, errors
    assert any("(filling hero for hero '" in line and ", and for 1 more: hero '" in line for line in nonsense), errors
    assert f"tiny: 4 cards in 2 decks: invalid: {len(errors)} layout errors" in out.splitlines(), (out, errors)
    assert ": valid" not in out


# -- D14: a lone asterisk ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, italic", [
    ("Deal 3* damage to every foe", []),
    ("a * b", []),
    ("*Quick*: deal 3* damage", ["Quick"]),
    ("**unclosed bold", []),
])
def test_an_unmatched_asterisk_is_a_literal(text, italic):
    pieces = [piece for paragraph in parse(text) for cluster in paragraph for piece in cluster]
    assert [piece.text for piece in pieces if piece.italic] == italic
    assert not any(piece.bold for piece in pieces)
    assert plain(text).count("*") == text.count("*") - 2 * len(italic)


# -- D14: build prints the fit warnings check prints ------------------------------------------------------------


def test_build_prints_the_fit_warnings_that_check_prints(tiny, tmp_path):
    text = "a long rule " * 2  # fits, below 6 pt (text that does not fit at all is an error: test_build_fails)
    game = tiny({"layouts/hero.yaml": "boxes:\n  rules: {kind: text, left: 5, top: 5, width: 20, height: 6, size: 5.5, "
                                      f"min_size: 5, text: '{text}', field: rules}}\n"})
    checked = deckwright("check", "tiny", cwd=tmp_path)
    built = deckwright("build", "tiny", "--out", "out", cwd=tmp_path)
    warnings = [line for line in checked.stderr.splitlines() if line.startswith("tiny/") and "warning:" in line]
    assert warnings and all("field 'rules' (box 'rules')" in line for line in warnings)
    assert built.returncode == 0
    assert [line for line in built.stderr.splitlines() if "warning:" in line] == warnings


def test_junit_xml_stays_valid_with_control_characters(tmp_path):
    import xml.etree.ElementTree as ET

    from deckwright.rules.book.examples import ExampleResult
    from deckwright.rules.ci.check import GameReport
    from deckwright.rules.ci.junit import OPENING, junit_bytes, suite_of
    from deckwright.rules.problems import Problems

    result = ExampleResult("g", "bad\x1bname", Loc("p.md", 3, 1), "failing", "expected \x07, got \x1b[2J", ("log\x00",))
    report = junit_bytes([suite_of(GameReport(tmp_path, None, Problems(), [result]))])
    assert report.startswith(OPENING)
    (tmp_path / "report.xml").write_bytes(report)
    [case] = [c for c in ET.parse(tmp_path / "report.xml").getroot().iter("testcase") if c.get("name") != "data"]
    assert case.get("name") == "bad\\x1bname" and "expected \\x07, got \\x1b[2J" in case.find("failure").text
