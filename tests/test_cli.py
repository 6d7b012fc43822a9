"""The ``deckwright`` command as a user runs it: list, check, build, schema, --help and usage errors."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from deckwright.generator import BUNDLED_GAMES, build, cli
from deckwright.generator.output import MARKER, OutputError, staged_folder
from deckwright.rules.load import bundled_games, load_game

FIXTURE_GAME = Path(__file__).parent / "bad_inputs" / "base"  # a small valid made-up game
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def deckwright(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", *args], cwd=cwd, capture_output=True,
                            text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def tree(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (None if p.is_dir() else p.read_bytes()) for p in sorted(folder.rglob("*"))}


@pytest.fixture
def my_game(tmp_path) -> Path:
    """A game folder outside the repository, as a user keeps one."""
    game = tmp_path / "games" / "my-game"
    shutil.copytree(FIXTURE_GAME, game)
    return game


# -- list and check ------------------------------------------------------------


def test_list_shows_every_bundled_game_with_its_decks_sheets_and_open_questions():
    result = deckwright("list")
    assert result.returncode == 0
    blocks = {}
    for line in result.stdout.splitlines():
        if not line.startswith(" "):
            blocks[line] = []
        else:
            blocks[list(blocks)[-1]].append(line)
    for folder in bundled_games(BUNDLED_GAMES):
        game = load_game(folder)
        lines = blocks[f"{game.slug}: {game.title}, players {game.players}, {len(game.open_questions)} open questions, "
                       f"{len(game.readings)} readings"]
        for deck in game.decks.values():
            [line] = [line for line in lines if line.split()[:2] == ["deck", deck.id]]
            assert f"{len(game.cards_in(deck.id))} different" in line
        for sheet in game.sheets.values():
            assert any(line.split()[:2] == ["sheet", sheet.id] for line in lines)


def test_list_counts_copies_and_says_when_they_are_open(my_game):
    result = deckwright("list", str(my_game))
    assert result.returncode == 0, result.stderr
    game = load_game(my_game)
    for deck in game.decks.values():
        cards = game.cards_in(deck.id)
        count = sum(card.count for card in cards)
        open_copies = any(not isinstance(card.copies, int) for card in cards)
        word = f"{count} card{'s' if count != 1 else ''}"
        expected = f"at least {word} (copies open)" if open_copies else word
        assert f"{expected}, {len(cards)} different" in result.stdout


def test_list_nightmare_hunt_counts_every_copy():
    result = deckwright("list", "nightmare-hunt")
    assert "  deck  actions                15 cards, 5 different" in result.stdout.splitlines()


def test_check_passes_on_every_bundled_game_and_lists_open_questions():
    result = deckwright("check")
    assert result.returncode == 0, result.stderr
    for folder in bundled_games(BUNDLED_GAMES):
        game = load_game(folder)
        assert f"{game.slug}: " in result.stdout and "valid" in result.stdout
        if game.open_questions:
            assert f"open questions ({len(game.open_questions)}):" in result.stdout
        for question in game.open_questions:
            assert f"    {question}" in result.stdout  # file:line:col: subject: note
        assert f"  readings ({len(game.readings)}: " in result.stdout


def test_check_open_question_points_at_its_source():
    result = deckwright("check", "nightmare-hunt")
    assert result.returncode == 0
    line = next(line.strip() for line in result.stdout.splitlines() if "wound.wound.copies" in line)
    where = line.split(": ")[0]
    file, number, column = where.rsplit(":", 2)
    source = Path(file).read_text().splitlines()[int(number) - 1]
    assert source[int(column) - 1:].startswith("{open:")


def staging_left(out: Path) -> list[str]:
    """Staging (.NAME.*.tmp) and replaced (.NAME.*.old) folders a build should never leave behind."""
    return sorted(p.name for p in out.iterdir() if p.name.startswith("."))


def test_check_a_game_given_by_relative_path(my_game, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    result = deckwright("check", "../games/my-game", cwd=work)
    assert (result.returncode, result.stderr) == (0, "")
    assert "tiny: 4 cards in 2 decks: valid" in result.stdout


def test_build_a_game_given_by_path(my_game, tmp_path):
    """A made-up game kept outside the repository, with its own layouts, built by its path."""
    work = tmp_path / "work"
    work.mkdir()
    result = deckwright("build", str(my_game), "--out", "dist", cwd=work)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "tiny: built into dist/tiny/" in result.stdout
    out = work / "dist" / "tiny"
    data = json.loads((out / "game.json").read_text())
    assert data["slug"] == "tiny"
    assert [card["id"] for card in data["cards"]] == ["knight", "archer", "goblin"]
    assert data["decks"]["heroes"]["cards"] == 3
    assert (out / "schema" / "hero.json").is_file()
    assert staging_left(work / "dist") == []


# -- --help and usage errors ---------------------------------------------------


@pytest.mark.parametrize("command", ["list", "check", "build", "schema"])
def test_every_command_has_help(command):
    result = deckwright(command, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith(f"usage: deckwright {command}")
    if command != "list":
        assert "GAME" in result.stdout and "a path to a game folder" in result.stdout
    if command in ("build", "schema"):
        assert "--out DIR" in result.stdout


def test_top_level_help_lists_the_commands():
    result = deckwright("--help")
    assert result.returncode == 0
    for command in ("list", "check", "build", "schema"):
        assert re.search(rf"^\s+{command}\s+\w", result.stdout, re.M), command


def test_version_is_the_installed_distributions():
    from importlib.metadata import version

    result = deckwright("--version")
    assert (result.returncode, result.stdout, result.stderr) == (0, f"deckwright {version('deckwright')}\n", "")


@pytest.mark.parametrize("args, message", [
    (["check", "no-such-game"], "deckwright: 'no-such-game' is neither a bundled game ("),
    (["build", "--paper", "a5"], "deckwright build: argument --paper: invalid choice: 'a5' (choose from 'a4', 'letter') "
                                 "(see deckwright build --help)"),
    (["frobnicate"], "deckwright: argument COMMAND: invalid choice: 'frobnicate'"),
    (["check", "--no-such-option"], "deckwright: unrecognized arguments: --no-such-option"),
    ([], "usage: deckwright"),
])
def test_usage_errors_exit_2_with_one_line(args, message):
    result = deckwright(*args)
    assert result.returncode == 2
    if args:
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stderr.startswith(message)
    else:
        assert result.stdout.startswith(message)  # no command: the help


def test_a_folder_without_game_yaml_is_a_usage_error(tmp_path):
    result = deckwright("check", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr == f"deckwright: '{tmp_path}' is a folder without a game.yaml\n"


def test_out_holding_the_game_folder_is_refused(my_game, tmp_path):
    """Building games/my-game (slug tiny) into games/ must not be able to replace a game folder."""
    before = tree(my_game)
    result = deckwright("build", "my-game", "--out", ".", cwd=my_game.parent)
    assert result.returncode == 2
    assert result.stderr == (f"deckwright: the output folder {my_game.parent} holds the game folder {my_game}, "
                             "which a build could replace; choose an output folder outside it\n")
    assert tree(my_game) == before and sorted(p.name for p in my_game.parent.iterdir()) == ["my-game"]


@pytest.mark.parametrize("command, target", [("build", "dist/sub"), ("schema", "dist/sub")])
def test_out_that_is_a_file_is_a_usage_error(my_game, tmp_path, command, target):
    (tmp_path / "dist").write_text("a file, not a folder\n")
    result = deckwright(command, str(my_game), "--out", "dist/sub", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"deckwright: cannot write into {target}: a file is in the way where a folder should be\n"
    assert (tmp_path / "dist").read_text() == "a file, not a folder\n"


# -- atomic output -------------------------------------------------------------


def test_build_replaces_earlier_output_whole(my_game, tmp_path, monkeypatch):
    """Files an earlier build wrote and this one does not are gone: the folder is replaced, not merged."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "dist"
    assert cli.main(["build", str(my_game), "--out", str(out)]) == 0
    (out / "tiny" / "left-over.txt").write_text("from an older build\n")
    with open(out / "tiny" / MARKER, "a") as manifest:  # as if that build had written it
        manifest.write("left-over.txt\n")
    assert cli.main(["build", str(my_game), "--out", str(out)]) == 0
    assert not (out / "tiny" / "left-over.txt").exists()
    assert json.loads((out / "tiny" / "game.json").read_text())["slug"] == "tiny"
    assert staging_left(out) == []


def test_a_build_failing_midway_leaves_earlier_output(my_game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "dist"
    assert cli.main(["build", str(my_game), "--out", str(out)]) == 0
    before = tree(out)

    def half_written(game, folder, options, faces, report):
        (folder / "game.json").write_text("half written\n")
        (folder / "partial.pdf").write_bytes(b"%PDF-1.4 half")
        raise RuntimeError("a build step failed")

    steps = build.build_steps()
    monkeypatch.setattr(build, "build_steps", lambda: [steps[0], half_written])
    with pytest.raises(RuntimeError, match="a build step failed"):
        cli.main(["build", str(my_game), "--out", str(out)])
    assert tree(out) == before  # same files, same bytes, and no staging folder beside them


def test_staged_folder_swaps_only_on_success(tmp_path):
    target = tmp_path / "out" / "game"
    with staged_folder(target) as folder:
        (folder / "a.txt").write_text("first\n")
    assert (target / "a.txt").read_text() == "first\n"

    with pytest.raises(KeyboardInterrupt):
        with staged_folder(target) as folder:
            (folder / "a.txt").write_text("second\n")
            raise KeyboardInterrupt  # even an interrupt leaves the old output
    assert (target / "a.txt").read_text() == "first\n"

    with staged_folder(target) as folder:
        (folder / "b.txt").write_text("third\n")
    assert sorted(p.name for p in target.iterdir()) == [MARKER, "b.txt"]
    assert (target / MARKER).read_text().splitlines()[1:] == ["b.txt"]  # the manifest: what deckwright wrote
    assert sorted(p.name for p in target.parent.iterdir()) == ["game"]


def test_staged_folder_reports_an_unusable_parent(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="a file is in the way"):
        with staged_folder(tmp_path / "file" / "game"):
            pass


# -- JSON Schema for editors ---------------------------------------------------


def schema_for(card_file: Path, schema_root: Path) -> Path:
    """The schema a card file's first line names, found in the folder ``deckwright schema`` wrote."""
    match = SCHEMA_LINE.match(card_file.read_text(encoding="utf-8").splitlines()[0])
    assert match, f"{card_file} has no '# yaml-language-server: $schema=...' first line"
    named = (card_file.parent / match.group(1)).resolve()
    output = (BUNDLED_GAMES.parent / "output").resolve()
    assert named.is_relative_to(output), f"{card_file}: the schema should live under output/"
    return schema_root / named.relative_to(output)


@pytest.mark.parametrize("game", [p.name for p in bundled_games(BUNDLED_GAMES)])
def test_schema_accepts_the_bundled_files(game, tmp_path):
    result = deckwright("schema", game, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    files = sorted((BUNDLED_GAMES / game).glob("*.yaml"))
    schemas = {f: schema_for(f, tmp_path) for f in files}
    for path in schemas.values():
        assert path.is_file(), f"deckwright schema did not write {path}"
    for file, path in schemas.items():
        schema = json.loads(path.read_text())
        jsonschema.Draft7Validator.check_schema(schema)
        errors = list(jsonschema.Draft7Validator(schema).iter_errors(yaml.safe_load(file.read_text())))
        assert not errors, f"{file}: {errors[0].message} at {list(errors[0].absolute_path)}"


@pytest.mark.parametrize("change, complaint", [
    ({"helth": 4}, "Additional properties are not allowed ('helth' was unexpected)"),
    ({"health": "four"}, "'four'"),
    ({"health": -1}, "-1"),
    ({"attack": "lots"}, "'lots'"),
    ({"id": "Not An Id"}, "'Not An Id'"),
])
def test_schema_rejects_a_bad_card(my_game, tmp_path, change, complaint):
    assert deckwright("schema", str(my_game), "--out", str(tmp_path / "out")).returncode == 0
    schema = json.loads((tmp_path / "out" / "tiny" / "schema" / "hero.json").read_text())
    data = yaml.safe_load((my_game / "heroes.yaml").read_text())
    assert not list(jsonschema.Draft7Validator(schema).iter_errors(data))
    data["cards"][1].update(change)
    messages = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(data)]
    assert messages and any(complaint in m for m in messages), messages


def test_schema_writes_what_a_build_writes(my_game, tmp_path):
    assert deckwright("schema", str(my_game), "--out", "a", cwd=tmp_path).returncode == 0
    assert deckwright("build", str(my_game), "--out", "b", cwd=tmp_path).returncode == 0
    written = tree(tmp_path / "a" / "tiny" / "schema")
    del written[MARKER]  # the schema command's own manifest; a build's is one folder up
    assert written == tree(tmp_path / "b" / "tiny" / "schema")
    assert sorted(written) == [
        "cards.json", "fonts.json", "game.json", "hero.csv", "hero.json", "monster.csv", "monster.json", "readings.json"]


def test_a_build_replaces_the_output_a_schema_run_began(my_game, tmp_path):
    """``schema`` first (what a new card file's first line asks for), then the game's first build, into the same
    output folder: the build replaces the game's folder that ``schema`` made, schema included."""
    assert deckwright("schema", str(my_game), "--out", "out", cwd=tmp_path).returncode == 0
    result = deckwright("build", str(my_game), "--out", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "tiny" / "schema" / "hero.json").is_file()
    assert (tmp_path / "out" / "tiny" / "print" / "deck-heroes.pdf").is_file()
    assert deckwright("schema", str(my_game), "--out", "out", cwd=tmp_path).returncode == 0  # and again after it


def test_a_schema_run_leaves_a_game_folder_it_did_not_make(my_game, tmp_path):
    (tmp_path / "out" / "tiny").mkdir(parents=True)
    (tmp_path / "out" / "tiny" / "notes.txt").write_text("mine")
    assert deckwright("schema", str(my_game), "--out", "out", cwd=tmp_path).returncode == 0
    result = deckwright("build", str(my_game), "--out", "out", cwd=tmp_path)
    assert result.returncode == 2 and "not made by deckwright" in result.stderr
    assert (tmp_path / "out" / "tiny" / "notes.txt").read_text() == "mine"


def test_game_schema_rejects_an_unknown_setting(my_game, tmp_path):
    assert deckwright("schema", str(my_game), "--out", str(tmp_path / "out")).returncode == 0
    schema = json.loads((tmp_path / "out" / "tiny" / "schema" / "game.json").read_text())
    data = yaml.safe_load((my_game / "game.yaml").read_text())
    assert not list(jsonschema.Draft7Validator(schema).iter_errors(data))
    data["sumary"] = data.pop("summary")
    messages = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(data)]
    assert "'summary' is a required property" in messages
