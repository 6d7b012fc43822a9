"""deckwright as users install it: a built wheel in a fresh virtual environment, far from this checkout
(the session fixture ``installed``, in conftest.py)."""
from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {f"deckwright.{p.parent.relative_to(ROOT).as_posix().replace('/', '.')}"
               for top in ("rules", "generator") for p in (ROOT / top).rglob("__init__.py")}
    assert folders <= set(config["packages"])
    assert config["package-dir"]["deckwright.rules"] == "rules"


def run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(venv / "bin" / args[0]), *args[1:]], cwd=cwd, env=env, capture_output=True, text=True)


def test_installed_wheel_lists_checks_and_builds_a_bundled_game(installed, tmp_path):
    listed = run(installed, "deckwright", "list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "nightmare-hunt" in listed.stdout and "Traceback" not in listed.stderr
    checked = run(installed, "deckwright", "check", "nightmare-hunt", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = run(installed, "deckwright", "build", "nightmare-hunt", "--out", "out", "--target", "home", cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "out" / "nightmare-hunt" / "print" / "everything.pdf").is_file()
    assert (tmp_path / "out" / "site" / "index.html").is_file()


def test_installed_wheel_builds_a_game_folder_elsewhere(installed, tmp_path):
    game = tmp_path / "my-games" / "gloombah"
    shutil.copytree(ROOT / "cards" / "gloombah", game)
    checked = run(installed, "deckwright", "check", str(game), cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = run(installed, "deckwright", "build", str(game), "--out", "o", cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert sorted(p.name for p in (tmp_path / "o" / "gloombah" / "print").glob("deck-*.pdf"))


def test_installed_wheel_adds_only_the_deckwright_namespace(installed, tmp_path):
    probe = "import importlib.util as u; print([n for n in ('rules', 'generator', 'templates', 'cards') if u.find_spec(n)])"
    found = run(installed, "python", "-c", probe, cwd=tmp_path)
    assert found.stdout.strip() == "[]", found.stdout + found.stderr


def test_pytest_in_an_unrelated_folder_collects_nothing_of_deckwrights(installed, tmp_path):
    shutil.copytree(ROOT / "cards" / "gloombah", tmp_path / "cards" / "gloombah")
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n")
    result = run(installed, "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "1 passed" in result.stdout and "xfail" not in result.stdout
    asked = run(installed, "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--deckwright-game",
                "cards/gloombah", cwd=tmp_path)
    assert "xfailed" in asked.stdout and "passed" in asked.stdout, asked.stdout


def test_the_wheel_ships_the_bundled_games_as_committed(installed):
    """Only the tracked files of cards/: setuptools reuses a stale build/ folder, and a wheel built over one shipped
    78 golden logs git had deleted (every installed check then warned about them)."""
    listed = subprocess.run(["git", "ls-files", "cards"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    tracked = set(listed.stdout.splitlines())
    (site,) = (installed / "lib").glob("python3*/site-packages")
    cards = site / "deckwright" / "cards"
    shipped = {f"cards/{path.relative_to(cards).as_posix()}" for path in cards.rglob("*")
               if path.is_file() and "__pycache__" not in path.parts}
    assert sorted(shipped - tracked) == [], "files git does not track went into the wheel: remove build/ and rebuild"


def test_check_inside_a_game_folder_checks_that_game(installed, tmp_path):
    game = tmp_path / "mine"
    subprocess.run([str(installed / "bin" / "deckwright"), "new", str(game)], check=True, capture_output=True)
    result = subprocess.run([str(installed / "bin" / "deckwright"), "check"], cwd=game, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("mine: ") and "gloombah" not in result.stdout
