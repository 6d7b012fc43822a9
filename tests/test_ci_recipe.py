"""docs/ci.md, "Check your game in CI": its plain-shell steps, taken from the page itself, run with the installed
wheel (the session fixture ``installed``) against a game made by ``deckwright new`` in a temporary folder."""
from __future__ import annotations

import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "ci.md"
INSTALL = re.compile(r"^\s*python3? -m pip install ")  # the one step the installed wheel stands in for


def fenced(text: str, info: str) -> list[str]:
    return re.findall(rf"^```{info}\n(.*?)^```$", text, re.S | re.M)


def shell_steps() -> str:
    """The page's plain-shell block, without its install line (the fixture installed the wheel instead)."""
    section = PAGE.read_text().split("## The same as plain shell", 1)[1]
    (block, *_) = fenced(section, "sh")
    assert any(INSTALL.match(line) for line in block.splitlines()), "the recipe no longer installs deckwright"
    return "\n".join(line for line in block.splitlines() if not INSTALL.match(line)) + "\n"


def environment(venv: Path, game: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", "GAME": game}


def run_steps(venv: Path, cwd: Path, game: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", shell_steps()], cwd=cwd, env=environment(venv, game),
                          capture_output=True, text=True)


def test_the_workflow_runs_the_same_commands_as_the_shell_steps():
    (workflow,) = fenced(PAGE.read_text(), "yaml")
    job = yaml.safe_load(workflow)["jobs"]["game"]
    runs = [step["run"] for step in job["steps"] if "run" in step]
    commands = [line for line in shell_steps().splitlines() if line.startswith("deckwright ")]
    assert commands == [run for run in runs if run.startswith("deckwright ")]
    assert any(INSTALL.match(run) for run in runs)
    uploads = [step["with"]["path"] for step in job["steps"] if step.get("uses", "").startswith("actions/upload-artifact")]
    assert uploads == ["report.xml", "out/*/print/", "out/site/"]


@pytest.fixture(scope="module")
def recipe_game(installed, tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("ci-recipe")
    made = subprocess.run(["deckwright", "new", "my-game", "--title", "CI Duel"], cwd=work,
                          env=environment(installed, "my-game"), capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    return work


def test_the_shell_steps_check_and_build_a_new_game(installed, recipe_game):
    done = run_steps(installed, recipe_game, "my-game")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "examples: 1 verified, 0 known errata, 0 failing" in done.stdout
    suite = ET.parse(recipe_game / "report.xml").getroot()
    assert suite.get("tests") == "1" and suite.get("failures") == "0"
    assert [case.get("name") for case in suite.iter("testcase")] == ["The Knight hits the Rogue"]
    printed = recipe_game / "out" / "my-game" / "print"
    for deck in ("heroes", "potions"):
        assert len(PdfReader(printed / f"deck-{deck}.pdf").pages) == 2  # a page of fronts, a page of backs
    assert len(PdfReader(printed / "sheets.pdf").pages) == 1
    assert len(PdfReader(printed / "rulebook.pdf").pages) >= 2
    site = recipe_game / "out" / "site"
    assert "CI Duel" in (site / "index.html").read_text()
    assert "The Knight hits the Rogue" in (site / "my-game" / "rules" / "rules.html").read_text()


def test_the_shell_steps_stop_at_a_broken_example(installed, recipe_game, tmp_path):
    import shutil

    shutil.copytree(recipe_game / "my-game", tmp_path / "broken")
    page = tmp_path / "broken" / "rulebook" / "rules.md"
    page.write_text(page.read_text().replace("  last: {total: 5, hit: true}", "  last: {total: 6, hit: true}"))
    done = run_steps(installed, tmp_path, "broken")
    assert done.returncode == 1
    assert "expected 6, got 5" in done.stdout and "Traceback" not in done.stderr
    suite = ET.parse(tmp_path / "report.xml").getroot()
    assert suite.get("tests") == "1" and suite.get("failures") == "1"
    assert not (tmp_path / "out").exists()  # set -e: nothing is built from a game that fails its check


def test_pytest_collects_the_new_games_example(installed, recipe_game):
    done = subprocess.run(["python", "-m", "pytest", "-v", "-p", "no:cacheprovider", "--deckwright-game", "my-game"],
                          cwd=recipe_game, env=environment(installed, "my-game"), capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    assert "my-game/rulebook/rules.md::The Knight hits the Rogue PASSED" in done.stdout


def test_the_installed_tool_reports_the_games_own_code_at_its_line(installed, recipe_game, tmp_path):
    import shutil

    game = tmp_path / "raising"
    shutil.copytree(recipe_game / "my-game", game)
    rules = game / "rules.py"
    lines = rules.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if 'hit = total >= target["defense"]' in line)
    lines.insert(at + 1, '    raise LookupError("no such move")')
    rules.write_text("\n".join(lines) + "\n")
    done = subprocess.run(["deckwright", "check", "raising"], cwd=tmp_path, env=environment(installed, "raising"),
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert f"the rules raised LookupError: no such move (raising/rules.py:{at + 2})" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
