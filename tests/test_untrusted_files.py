"""Every kind of file a game folder supplies is read through one gate (issue 13: D6, D7, D8, D10, D12).

Links that leave the game folder, folders and pipes where a file belongs, files
larger than a card file may be, names that make files some systems cannot hold:
each is a located problem, nothing outside the game folder is read or written,
and nothing blocks.
"""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from deckwright.generator.layout.fitcheck import layout_warnings
from deckwright.rules.book.examples import replay_game_examples
from deckwright.rules.data.confine import FileRefused, read_confined, write_confined
from deckwright.rules.load import load_game, load_game_with_warnings

FIXTURES = Path(__file__).parent / "fixtures" / "engine"
GOLDEN = Path("rulebook") / "hunt.golden" / "the-rat-bites-through-the-vest.jsonl"
LINKED = "file links outside the game folder; deckwright reads only files inside it"
SECRET = "the first line of someone else's file\n"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # messages name tiny/...


def problems(game: Path) -> list[str]:
    _, found = load_game_with_warnings(game)
    return [str(p) for p in found.sorted()]


def layout_problems(game: Path) -> list[str]:
    return [str(p) for p in layout_warnings(load_game(game)) if p.severity == "error"]


def outside(tmp_path: Path, name: str, text: str = SECRET) -> Path:
    target = tmp_path / "elsewhere" / name
    target.parent.mkdir(exist_ok=True)
    target.write_text(text)
    return target


def link(path: Path, target: Path) -> None:
    if path.exists() or path.is_symlink():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    path.symlink_to(target)


def mini_hunt(tmp_path: Path) -> Path:
    game = tmp_path / "mini-hunt"
    shutil.copytree(FIXTURES / "mini-hunt", game)
    return game


# -- D7: one gate, a test per kind of file -------------------------------------------------------------


def test_game_yaml_that_links_outside(tiny, tmp_path):
    game = tiny()
    link(game / "game.yaml", outside(tmp_path, "game.yaml", (game / "game.yaml").read_text()))
    assert problems(game) == [f"tiny/game.yaml:1:1: {LINKED}"]


def test_card_file_that_links_outside(tiny, tmp_path):
    game = tiny()
    link(game / "monsters.yaml", outside(tmp_path, "monsters.yaml", (game / "monsters.yaml").read_text()))
    assert problems(game) == [f"tiny/monsters.yaml:1:1: {LINKED}"]


def test_rulebook_page_that_links_outside(tiny, tmp_path):
    game = tiny()
    link(game / "rulebook" / "intro.md", outside(tmp_path, "intro.md"))
    assert problems(game) == ["tiny/game.yaml:28:5: rulebook: 'rulebook/intro.md' is outside the game folder"]


def test_layout_file_that_links_outside(tiny, tmp_path):
    game = tiny()
    link(game / "layouts" / "hero.yaml", outside(tmp_path, "hero.yaml", (game / "layouts" / "hero.yaml").read_text()))
    assert layout_problems(game) == [f"tiny/layouts/hero.yaml:1:1: {LINKED}"]


def test_layouts_folder_that_links_outside(tiny, tmp_path):
    game = tiny()
    elsewhere = tmp_path / "elsewhere-layouts"
    shutil.copytree(game / "layouts", elsewhere)
    link(game / "layouts", elsewhere)
    lines = layout_problems(game)
    assert lines and all(line.endswith(LINKED) for line in lines), lines


def test_icons_file_that_links_outside(tiny, tmp_path):
    game = tiny()
    link(game / "layouts" / "icons.yaml", outside(tmp_path, "icons.yaml", "dot: M 0 0 L 1 1 Z\n"))
    assert layout_problems(game) == [f"tiny/layouts/icons.yaml:1:1: {LINKED}"]


def test_picture_that_links_outside(tiny, tmp_path):
    game = tiny({"layouts/hero.yaml": "boxes:\n  art: {kind: image, src: art.png, left: 0, top: 0, width: 5, height: 5}\n"})
    link(game / "art.png", outside(tmp_path, "art.png"))
    lines = layout_problems(game)
    assert lines and all("boxes.art.src: 'art.png' is outside the game folder" in line for line in lines), lines


def test_golden_log_that_links_outside_is_refused_and_not_quoted(tmp_path):
    game = mini_hunt(tmp_path)
    replay_game_examples(load_game(game), update_golden=True)
    link(game / GOLDEN, outside(tmp_path, "stolen.log"))
    result = replay_game_examples(load_game(game))[0]
    assert result.verdict == "failing"
    assert result.message == f"its golden file mini-hunt/{GOLDEN}: {LINKED}"
    assert "someone else" not in result.message


def test_update_golden_does_not_write_through_a_linked_golden_folder(tmp_path):
    game = mini_hunt(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(game / "rulebook" / "hunt.golden")  # the fixture's own golden logs
    (game / "rulebook" / "hunt.golden").symlink_to(elsewhere)
    result = replay_game_examples(load_game(game), update_golden=True)[0]
    assert list(elsewhere.iterdir()) == []
    assert result.verdict == "failing" and LINKED in result.message
    result = replay_game_examples(load_game(game))[0]  # and a check says why, not that the log is missing
    assert result.verdict == "failing" and LINKED in result.message and "--update-golden" not in result.message


# -- D8: pipes and sizes ----------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_golden_log_that_is_a_pipe_does_not_block(tmp_path):
    game = mini_hunt(tmp_path)
    replay_game_examples(load_game(game), update_golden=True)
    (game / GOLDEN).unlink()
    os.mkfifo(game / GOLDEN)
    results = []
    worker = threading.Thread(target=lambda: results.extend(replay_game_examples(load_game(game))), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "reading a pipe blocked"
    assert results[0].message.endswith("not a regular file (a folder, device or pipe); deckwright reads plain files")


def test_a_golden_log_larger_than_a_card_file_is_refused(tmp_path):
    game = mini_hunt(tmp_path)
    replay_game_examples(load_game(game), update_golden=True)
    (game / GOLDEN).write_text("x" * (2 * 2**20) + "\n")
    result = replay_game_examples(load_game(game))[0]
    assert result.message == f"its golden file mini-hunt/{GOLDEN}: file is 2.0 MB; deckwright reads files of at most 1 MB"


# -- D6: golden logs that are not text -----------------------------------------------------------------------


def test_a_golden_log_that_is_not_utf8(tmp_path):
    game = mini_hunt(tmp_path)
    replay_game_examples(load_game(game), update_golden=True)
    (game / GOLDEN).write_bytes(b"caf\xe9\n")
    result = replay_game_examples(load_game(game))[0]
    assert result.message == f"its golden file mini-hunt/{GOLDEN}: not UTF-8 text (byte 0xe9 at offset 3)"


def test_a_golden_log_that_is_a_folder(tmp_path):
    game = mini_hunt(tmp_path)
    (game / GOLDEN).unlink()  # the fixture's own golden log
    (game / GOLDEN).mkdir()
    for update in (False, True):
        result = replay_game_examples(load_game(game), update_golden=update)[0]
        assert result.verdict == "failing"
        assert result.message.endswith("not a regular file (a folder, device or pipe); deckwright reads plain files")


def test_an_id_too_long_for_a_file_name(tiny):
    long_id = "a" + "-b" * 150
    game = tiny({"monsters.yaml": f"type: monster\ndeck: monsters\ncards:\n  - id: {long_id}\n    name: G\n"
                                  "    health: 3\n    die: D8\n"})
    assert problems(game) == ["tiny/monsters.yaml:4:9: monster.a-b-b-b-b-b-b-b-b-b-b-b-b-b-b-....id: an id has at most "
                              "64 characters, this one 301"]


# -- D10: names that make files some systems cannot hold --------------------------------------------------------


@pytest.mark.parametrize("name", ["con", "aux", "com1", "nul"])
def test_reserved_device_names_as_ids(tiny, name):
    game = tiny({"monsters.yaml": f"type: monster\ndeck: monsters\ncards:\n  - id: {name}\n    name: G\n"
                                  "    health: 3\n    die: D8\n"})
    assert problems(game) == [f"tiny/monsters.yaml:4:9: monster.{name}.id: '{name}' is a name Windows reserves for a device "
                              "(CON, PRN, AUX, NUL, COM1-9, LPT1-9); choose another"]


def test_a_reserved_name_as_slug_or_deck(tiny):
    text = (Path(tiny()) / "game.yaml").read_text()
    game = tiny({"game.yaml": text.replace("slug: tiny", "slug: prn").replace("  monsters:\n    name: Monsters",
                                                                               "  aux:\n    name: Monsters")},
                name="other")
    lines = problems(game)
    assert "other/game.yaml:2:7: game.slug: 'prn' is a name Windows reserves for a device (CON, PRN, AUX, NUL, " \
           "COM1-9, LPT1-9); choose another" in lines
    assert any(line.startswith("other/game.yaml:23:3: game.decks.aux: 'aux' is a name Windows reserves") for line in lines)


def test_two_pages_with_the_same_name(tiny):
    text = (Path(tiny()) / "game.yaml").read_text()
    game = tiny({"game.yaml": text + "  - rulebook/sub/intro.md\n", "rulebook/sub/intro.md": "# Again\n"}, name="two")
    assert problems(game) == ["two/game.yaml:29:5: rulebook: 'rulebook/sub/intro.md' has the same name as the page at "
                              "two/game.yaml:28:5, so both would be rules/intro.html; rename one"]


@pytest.mark.parametrize("stem", ['say-"hi"', "a<b>", "con"])
def test_page_names_that_are_not_portable(tiny, stem):
    text = (Path(tiny()) / "game.yaml").read_text()
    game = tiny({"game.yaml": text.replace("rulebook/intro.md", f"rulebook/{stem}.md"),
                 f"rulebook/{stem}.md": "# Page\n"}, name="pages")
    [line] = problems(game)
    assert line.startswith(f"pages/game.yaml:28:5: rulebook: 'rulebook/{stem}.md': ")
    assert "page's file name" in line or "Windows reserves" in line


# -- D12: copies -----------------------------------------------------------------------------------------------


def test_copies_are_bounded(tiny):
    game = tiny({"monsters.yaml": "type: monster\ndeck: monsters\ncards:\n  - id: goblin\n    name: G\n"
                                  "    health: 3\n    die: D8\n    copies: 100000000\n"})
    assert problems(game) == ["tiny/monsters.yaml:8:13: monster.goblin.copies: expected a whole number from 1 to 999, "
                              "got 100000000"]


@pytest.mark.parametrize("dice, message", [
    ("60d6+60d6", "at most 100 dice in one expression, this one rolls 120"),
    ("D1000000000", "a die has 1 to 1000 sides"),
])
def test_dice_are_bounded(tiny, dice, message):
    game = tiny({"heroes.yaml": (Path(tiny(name="x")) / "heroes.yaml").read_text().replace("D6+1", dice)})
    assert problems(game) == [f"tiny/heroes.yaml:7:13: hero.knight.attack: {message}"]


# -- the gate itself --------------------------------------------------------------------------------------------


def test_write_confined_refuses_a_link_at_the_target(tmp_path):
    root = tmp_path / "game"
    root.mkdir()
    victim = outside(tmp_path, "victim.txt")
    (root / "log.txt").symlink_to(victim)
    with pytest.raises(FileRefused, match="a link, folder or device is in the way"):
        write_confined(root, root / "log.txt", b"overwritten")
    assert victim.read_text() == SECRET


def test_read_confined_refuses_a_path_outside(tmp_path):
    with pytest.raises(FileRefused, match="links outside"):
        read_confined(tmp_path / "game", outside(tmp_path, "x.txt"))


def test_a_picture_whose_name_windows_refuses_is_copied_under_a_portable_name(tiny, tmp_path):
    """Card art is copied into the site; a name with quotes or <> is made portable there (D10)."""
    from test_layout_limits import png

    from deckwright.generator.site import build_site

    name = 'say "hi" <now>.png'
    game = tiny({"layouts/hero.yaml": f"boxes:\n  art: {{kind: image, src: '{name}', left: 0, top: 0, width: 5, "
                                      "height: 5}\n", name: png(8, 8)})
    build_site([load_game(game)], tmp_path / "site", reports={})
    [copied] = [p.name for p in (tmp_path / "site" / "tiny" / "images").iterdir()]
    assert copied.startswith("say -hi- -now--") and copied.endswith(".png")
    assert not set('"<>:|?*') & set(copied)


# -- an output folder from a repository, and what a build writes for others to open ------------------------


def run_cli(capsys, *args: str) -> tuple[int, str]:
    from deckwright.generator.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


def test_a_link_named_like_the_lock_file_is_refused_and_nothing_is_created_where_it_points(tiny, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / ".deckwright.lock").symlink_to(tmp_path / "elsewhere" / "created-by-deckwright")
    (tmp_path / "elsewhere").mkdir()
    code, said = run_cli(capsys, "build", str(tiny()), "--no-code", "--target", "proof", "--out", str(out))
    assert code == 2 and "Traceback" not in said
    assert f"{out / '.deckwright.lock'} is a link, not deckwright's lock file; remove it" in said
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_schema_does_not_write_through_a_link_where_the_games_output_folder_goes(tiny, tmp_path, capsys):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "tiny").symlink_to(elsewhere)
    code, said = run_cli(capsys, "schema", str(tiny()), "--out", str(out))
    assert code == 2 and f"{out / 'tiny'} is a link, not a folder deckwright made" in said
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("slug", ["site", "simulate", "assets"])
def test_a_slug_naming_a_folder_the_build_writes_beside_the_games_is_refused(tiny, slug):
    text = (Path(tiny()) / "game.yaml").read_text()
    game = tiny({"game.yaml": text.replace("slug: tiny", f"slug: {slug}")}, name="other")
    assert f"other/game.yaml:2:7: game.slug: '{slug}' names a folder deckwright writes beside every game's (site, " \
           f"simulate, assets); choose another slug" in problems(game)


@pytest.mark.parametrize("type_id", ["game", "cards", "readings", "fonts"])
def test_a_card_type_id_naming_one_of_deckwrights_schema_files_is_refused_at_the_id(tiny, type_id):
    text = (Path(tiny()) / "game.yaml").read_text()
    game = tiny({"game.yaml": text.replace("  hero:\n", f"  {type_id}:\n", 1)}, name="other")
    assert f"other/game.yaml:6:3: card_types.{type_id}: '{type_id}' names deckwright's own schema/{type_id}.json " \
           f"(for " in "\n".join(problems(game))


def test_every_schema_file_deckwright_writes_is_one_no_card_type_may_be_named_after(tiny, tmp_path):
    from deckwright.generator.build import write_schema
    from deckwright.rules.data.names import SCHEMA_FILES

    game = load_game(tiny())
    write_schema(tmp_path, game)
    written = {path.stem for path in tmp_path.glob("*.json")}
    assert written == set(SCHEMA_FILES) | set(game.card_types)


@pytest.mark.parametrize("name, written", [("=2+5+cmd|' /C calc'!A0", "'=2+5+cmd|' /C calc'!A0"),
                                           ("@SUM(A1)", "'@SUM(A1)"), ("+1", "'+1"), ("-1 Health", "'-1 Health"),
                                           ("Healing Draught", "Healing Draught")])
def test_a_card_name_in_the_print_shops_csv_never_reads_as_a_formula(name, written):
    from deckwright.generator.outputs.print_step import spreadsheet_text

    assert spreadsheet_text(name) == written


def test_a_value_longer_than_any_card_shows_is_refused_at_its_place(tiny):
    """One workbook cell of 40 million characters passed check and made the rulebook's table run out of memory."""
    from deckwright.rules.data.schema import MAX_VALUE_CHARS

    long = "x" * (MAX_VALUE_CHARS + 1)
    game = tiny({"monsters.yaml": f"type: monster\ndeck: monsters\ncards:\n  - id: goblin\n    name: {long}\n"
                                  "    health: 3\n    die: D8\n"})
    assert problems(game) == [f"tiny/monsters.yaml:5:11: monster.goblin.name: {MAX_VALUE_CHARS + 1:,} characters; "
                              f"a value has at most {MAX_VALUE_CHARS:,}"]
    game = tiny({"monsters.yaml": f"type: monster\ndeck: monsters\ncards:\n  - id: goblin\n    name: {long[1:]}\n"
                                  "    health: 3\n    die: D8\n"}, name="fits")
    assert problems(game) == []


def test_check_says_when_it_runs_the_game_folders_own_code_and_serve_can_leave_it_alone(tmp_path, capsys):
    """The game folder's own rules module is Python that runs unless --no-code: check says so when it ran it,
    and serve (which runs it as check does) takes --no-code too."""
    from deckwright.generator.new import write_new_game
    from deckwright.generator.serve.live import LiveSite

    game = write_new_game(tmp_path / "codey").folder
    marker = tmp_path / "RULES-PY-RAN"
    with open(game / "rules.py", "a", encoding="utf-8") as rules:
        rules.write(f"\nimport pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n")
    code, said = run_cli(capsys, "check", "--no-cache", "--no-code", str(game))
    assert code == 0 and not marker.exists() and "own Python code" not in said
    site = LiveSite(game, tmp_path / "site", run_code=False)
    assert site.rebuild(examples=True).errors == () and not marker.exists()
    code, said = run_cli(capsys, "check", "--no-cache", str(game))
    assert code == 0 and marker.exists()
    assert "  rules module: rules.py, the game folder's own Python code, ran (--no-code checks without running it)" \
        in said.splitlines()
    code, said = run_cli(capsys, "check", "--no-cache", str(mini_hunt(tmp_path)))  # a module shipped with deckwright
    assert "own Python code" not in said


def test_folders_nested_past_pythons_recursion_limit_are_walked_without_a_traceback(tiny, capsys):
    """Python 3.11's own walks recurse once a level: a game folder nested 1,100 deep raised RecursionError in
    check's cache key, its planning and the loader's search for card files."""
    import sys

    game = tiny()
    deep = game / "notes"
    deep.mkdir()
    for _ in range(sys.getrecursionlimit() + 100):  # one at a time: mkdir(parents=True) recurses too
        deep = deep / "a"
        deep.mkdir()
    (deep / "stray.txt").write_text("not a card file")
    try:
        code, said = run_cli(capsys, "check", str(game))
        assert code == 0 and "Traceback" not in said and "tiny: 4 cards in 2 decks: valid" in said
    finally:  # taken down a level at a time: shutil.rmtree, which pytest cleans up with, recurses too
        (deep / "stray.txt").unlink()
        while deep != game:
            deep.rmdir()
            deep = deep.parent


def test_the_print_shops_csv_writes_a_formula_like_card_name_as_text(tiny, tmp_path, capsys):
    heroes = (Path(tiny()) / "heroes.yaml").read_text()
    game = tiny({"heroes.yaml": heroes.replace("name: Knight", "name: '=1+1'")}, name="csv")
    code, said = run_cli(capsys, "build", str(game), "--no-code", "--target", "printshop", "--out", str(tmp_path / "o"))
    assert code == 0, said
    rows = (tmp_path / "o" / "tiny" / "print" / "printshop" / "cards.csv").read_text(encoding="utf-8").splitlines()
    assert "heroes,heroes/01-knight.png,2,'=1+1" in rows, rows
