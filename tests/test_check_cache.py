"""``deckwright check --cache``: a game's layout problems are reused while nothing they depend on changes, and
the cache never changes what check reports, never goes inside a game folder and never trusts a damaged entry."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deckwright.generator import cli
from deckwright.generator.layout import fitcache, fitcheck

BASE = Path(__file__).parent / "bad_inputs" / "base"
OVERFLOW = """
  blurb: {kind: text, left: 5, top: 20, width: 10, height: 3, size: 9, min_size: 5,
          text: "{{ card.name }} a long text that cannot fit in this tiny box at all"}
"""
OVERFLOWS = "hero 'knight': field 'name' (box 'blurb') does not fit even at 5 pt"


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """The bad-input corpus's base game with one box too small for its text, as ``tmp_path/tiny``, run from
    ``tmp_path``."""
    folder = tmp_path / "tiny"
    shutil.copytree(BASE, folder)
    with open(folder / "layouts" / "hero.yaml", "a", encoding="utf-8") as handle:
        handle.write(OVERFLOW)
    monkeypatch.chdir(tmp_path)
    return folder


def check(capfd, *args: str) -> tuple[int, str, str]:
    status = cli.main(["check", "tiny", *args])
    out, err = capfd.readouterr()
    return status, out, err


def no_layout(monkeypatch) -> None:
    """Laying out a face fails the test from here on: what check reports must come from the cache."""
    def refuse(*args, **kwargs):
        raise AssertionError("the layouts were laid out again")

    monkeypatch.setattr(fitcheck, "layout_warnings", refuse)


def entries(where: Path) -> list[Path]:
    return sorted((where / fitcache.CACHE_FOLDER / fitcache.ENTRIES).glob("*.json"))


def test_a_warm_check_reports_the_same_without_laying_out(game, capfd, monkeypatch):
    cold = check(capfd, "--cache")
    assert cold[0] == 1 and OVERFLOWS in cold[2]
    assert (game.parent / fitcache.CACHE_FOLDER / fitcache.TAG).read_text().startswith("Signature: 8a477f59")
    [entry] = entries(game.parent)
    assert json.loads(entry.read_text())["problems"][0][4].startswith(OVERFLOWS)
    no_layout(monkeypatch)
    assert check(capfd) == cold  # made once with --cache, then used by every check run here


def test_an_edit_in_the_game_folder_is_laid_out_again(game, capfd):
    check(capfd, "--cache")
    heroes = game / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("name: Knight", "name: " + "Knight " * 60))
    status, _, err = check(capfd)
    assert status == 1 and "hero 'knight': field 'name' (box 'name')" in err  # nor its title box now


def test_check_writes_nothing_without_cache(game, capfd):
    before = sorted(p.name for p in game.parent.iterdir())
    check(capfd)
    assert sorted(p.name for p in game.parent.iterdir()) == before


@pytest.mark.parametrize("damage", ["not json", '{"format": "other"}', "[]",
                                    "same key, a problem that is not one"])
def test_a_damaged_or_foreign_entry_is_ignored(game, capfd, damage):
    cold = check(capfd, "--cache")
    [entry] = entries(game.parent)
    if damage.startswith("same key"):
        data = json.loads(entry.read_text())
        data["problems"] = [["tiny/heroes.yaml", "4", 5, "", "made up", "error", ""]]
        damage = json.dumps(data)
    entry.write_text(damage)
    assert check(capfd) == cold
    assert json.loads(entry.read_text())["problems"] != []  # written anew


def test_a_cache_folder_deckwright_did_not_make_is_left_alone(game, capfd):
    foreign = game.parent / fitcache.CACHE_FOLDER
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    cold = check(capfd, "--cache")
    assert OVERFLOWS in cold[2]
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]


def test_no_cache_inside_a_game_folder(game, capfd, monkeypatch):
    monkeypatch.chdir(game)
    status = cli.main(["check", "--cache"])  # the game in the working folder
    assert status == 1 and OVERFLOWS in capfd.readouterr().err
    assert not list(game.parent.rglob(fitcache.CACHE_FOLDER))
