"""The readings registers of the bundled games: what they point at exists, and check shows them."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES, PROJECT_ROOT, cli
from deckwright.rules.data.export import game_data
from deckwright.rules.data.model import readings_summary
from deckwright.rules.load import bundled_games, load_game

GAMES = {folder.name: load_game(folder) for folder in bundled_games(BUNDLED_GAMES)}
PENDING_TESTS = Path(__file__).parent / "test_readings_pending.py"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_bundled_game_has_a_register_naming_its_source_in_words(slug):
    game = GAMES[slug]
    assert game.readings, f"{slug} has no readings.yaml"
    assert any(r.kind == "contradiction" for r in game.readings)
    assert "/" not in game.source and "(" in game.source  # a title, then who and which version, in words
    for reading in game.readings:
        assert reading.chosen in dict(reading.options)
        assert all(place.lines.low >= 1 and place.says for place in reading.places)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_test_a_reading_names_exists(slug):
    for reading in GAMES[slug].readings:
        for test in reading.depends.tests:
            file, _, name = test.partition("::")
            path = PROJECT_ROOT / file
            assert path.is_file(), f"{slug}: {reading.id} names {file}, which does not exist"
            assert re.search(rf"^def {re.escape(name)}\(", path.read_text(), re.M), \
                f"{slug}: {reading.id} names {test}, which does not exist"


def test_every_pending_engine_change_has_a_pending_test_and_back():
    source = PENDING_TESTS.read_text()
    marked = set(re.findall(r'^@pending\("([a-z0-9-]+)"', source, re.M))
    pending = {r.id for game in GAMES.values() for r in game.readings if r.pending}
    assert marked == pending
    for game in GAMES.values():
        for reading in game.readings:
            if reading.pending:
                assert any(t.startswith("tests/test_readings_pending.py::") for t in reading.depends.tests), reading.id


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_open_questions_say_what_is_missing_not_what_was_chosen(slug):
    """A chosen meaning belongs in the register, with the source's words and the alternatives."""
    for question in GAMES[slug].open_questions:
        assert not re.match(r"(Read as|Default|The engine|deckwright)\b", question.note), str(question)


PENDING = """    pending:
      plays: stop-at-11
      change: >-
        rules/games/gloombah/turn.py, win(): refuse a share that takes a helper to level 12 (a test's copy:
        the bundled engine plays this reading).
"""


@pytest.fixture
def pending_gloombah(tmp_path) -> Path:
    """Gloombah! with its level-12 entry marked pending again, as it was before the engine played it."""
    folder = tmp_path / "gloombah"
    shutil.copytree(BUNDLED_GAMES / "gloombah", folder)
    register = folder / "readings.yaml"
    text = register.read_text(encoding="utf-8")
    start = text.index("  - id: level-12-by-helping")
    at = text.index("    depends:", start)
    register.write_text(text[:at] + PENDING + text[at:], encoding="utf-8")
    return folder


def test_check_counts_and_lists_the_readings(capsys):
    assert cli.main(["check", "gloombah"]) == 0
    out = capsys.readouterr().out
    game = GAMES["gloombah"]
    assert f"  readings ({len(game.readings)}: {readings_summary(game.readings)}):" in out
    for reading in game.readings:
        assert f"    {reading}: '{reading.chosen}'" in out
    assert "engine change" not in out


def test_check_names_a_pending_engine_change(capsys, pending_gloombah):
    assert cli.main(["check", str(pending_gloombah)]) == 0
    out = capsys.readouterr().out
    assert "; 1 engine change pending):" in out
    assert "level-12-by-helping (reading): A level 10 who helps for two levels: 'refused' " \
           "[engine change pending, plays 'stop-at-11' today]" in out


def test_a_game_without_a_register_says_so(capsys, tmp_path):
    folder = PROJECT_ROOT / "tests" / "bad_inputs" / "base"
    assert cli.main(["check", str(folder)]) == 0
    assert "  readings (0): no readings register (readings.yaml)" in capsys.readouterr().out


def test_the_build_exports_the_register(pending_gloombah):
    data = game_data(GAMES["parousia"])
    entry = next(r for r in data["readings"] if r["id"] == "partial-pickup")
    assert entry["chosen"] == "rest-stays" and entry["pending"] is None
    assert entry["source"][0] == {"section": "Decks: Pickup deck", "line": "47", "says": entry["source"][0]["says"]}
    assert data["source"] == GAMES["parousia"].source
    data = game_data(load_game(pending_gloombah))
    entry = next(r for r in data["readings"] if r["id"] == "level-12-by-helping")
    assert entry["chosen"] == "refused" and entry["pending"]["plays"] == "stop-at-11"


def test_the_site_shows_a_pending_engine_change(pending_gloombah, tmp_path):
    from deckwright.generator.site import build_site
    from deckwright.rules.ci.check import check_game

    game = load_game(pending_gloombah)
    build_site([game], tmp_path / "site", {game.slug: check_game(pending_gloombah)})
    html = (tmp_path / "site" / "gloombah" / "readings.html").read_text(encoding="utf-8")
    entry = html[html.index('id="reading-level-12-by-helping"'):html.index('id="reading-exploding-vial-bonus"')]
    assert '<li class="option option-today"><code>stop-at-11</code>' in entry
    assert "<strong>Engine change pending:</strong> rules/games/gloombah/turn.py, win()" in entry
