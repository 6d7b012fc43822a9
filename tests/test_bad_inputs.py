"""The bad-input corpus: every broken game gets exact file:line:col lines, exit 1 and no traceback,
and a failed build leaves the earlier output folder byte for byte as it was.

Each case in ``tests/bad_inputs/<case>/`` holds the files that differ from the
valid game in ``tests/bad_inputs/base/`` and ``expected.txt``: exactly what
``deckwright check`` prints on stderr, run from the folder holding the game
folder ``tiny``. Cases that need binary bytes, 65 MB or a symbolic link are
made here instead (GENERATED), as are rulebook pictures that are binary files or links.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckwright.generator import cli

CORPUS = Path(__file__).parent / "bad_inputs"
BASE = CORPUS / "base"
EXPECTED = "expected.txt"
GAME = "tiny"  # the game folder's name in every run, so messages read tiny/heroes.yaml:...

FILE_CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and p != BASE)


def _huge(game: Path) -> None:
    """A card file just over the 64 MB limit, made sparse (its size is refused before any of it is read)."""
    with open(game / "monsters.yaml", "wb") as handle:
        handle.write(b"type: monster\ndeck: monsters\ncards:\n")
        handle.truncate(65 * 2**20)


def _binary(game: Path) -> None:
    (game / "monsters.yaml").write_bytes(b"cards:\n  - id: gob" + bytes(range(256)) * 8)


def _garbage_no_nul(game: Path) -> None:
    (game / "monsters.yaml").write_bytes(b"type: monster\n\x89PNG\r\n\x1a\n" + bytes(range(1, 256)))


def _latin1(game: Path) -> None:
    text = (BASE / "monsters.yaml").read_text().replace("name: Goblin", "name: Gobelin \xe9claireur")
    (game / "monsters.yaml").write_bytes(text.encode("latin-1"))


def _utf16(game: Path) -> None:
    (game / "heroes.yaml").write_bytes((BASE / "heroes.yaml").read_text().encode("utf-16"))


def _latin1_page(game: Path) -> None:
    (game / "rulebook" / "intro.md").write_bytes("# Intro\n\nLe [[knight]] \xe0 cheval.\n".encode("latin-1"))


def _control_char(game: Path) -> None:
    text = (BASE / "monsters.yaml").read_text().replace("name: Goblin", "name: Gob\x07lin")
    (game / "monsters.yaml").write_text(text)


def _link_outside(game: Path) -> None:
    outside = game.parent / "elsewhere.yaml"
    shutil.copy(game / "monsters.yaml", outside)
    (game / "monsters.yaml").unlink()
    (game / "monsters.yaml").symlink_to(outside)


def _page_link_outside(game: Path) -> None:
    outside = game.parent / "elsewhere.md"
    shutil.copy(game / "rulebook" / "intro.md", outside)
    (game / "rulebook" / "intro.md").unlink()
    (game / "rulebook" / "intro.md").symlink_to(outside)


def _page_named(name: str):
    def rename(game: Path) -> None:
        text = (game / "game.yaml").read_text()
        (game / "game.yaml").write_text(text.replace("  - rulebook/intro.md", f"  - {name}"))
    return rename


def _page_picture(game: Path, image) -> None:
    """``image`` (a Pillow image, or a file path to link to) as art/board.png, shown by the page's last line."""
    (game / "art").mkdir()
    if isinstance(image, Path):
        (game / "art" / "board.png").symlink_to(image)
    else:
        image.save(game / "art" / "board.png", format=image.format or "PNG")
    page = game / "rulebook" / "intro.md"
    page.write_text(page.read_text() + "\nThe board: ![the board](../art/board.png)\n")


def _picture_links_outside(game: Path) -> None:
    from PIL import Image

    Image.new("RGB", (8, 8)).save(game.parent / "elsewhere.png")
    _page_picture(game, game.parent / "elsewhere.png")


def _picture_gif(game: Path) -> None:
    from PIL import Image

    image = Image.new("RGB", (8, 8))
    image.format = "GIF"
    _page_picture(game, image)


def _picture_too_many_pixels(game: Path) -> None:
    from PIL import Image

    _page_picture(game, Image.new("1", (8000, 6000)))  # 48 megapixels in a few kB


def _alias_long_text(game: Path) -> None:
    """A text of a million characters used 200 times through an alias: 1 MB of file, 200 MB once expanded."""
    text = (BASE / "monsters.yaml").read_text()
    uses = ", ".join(["*motto"] * 200)
    (game / "monsters.yaml").write_text(text + f'    motto: &motto "{"x" * 1_000_000}"\n    tags: [{uses}]\n')


# case -> (how to break the base game, the lines a user sees)
GENERATED = {
    "huge_file": (_huge, ["tiny/monsters.yaml:1:1: file is 65 MB; deckwright reads files of at most 64 MB"]),
    "binary_garbage": (_binary, ["tiny/monsters.yaml:2:12: file is binary (contains a NUL byte), not text"]),
    "garbage_without_nul": (_garbage_no_nul, ["tiny/monsters.yaml:2:1: file is not UTF-8 text (byte 0x89); save it as UTF-8"]),
    "non_utf8": (_latin1, ["tiny/monsters.yaml:5:19: file is not UTF-8 text (byte 0xe9); save it as UTF-8"]),
    "utf16": (_utf16, ["tiny/heroes.yaml:1:1: file is UTF-16 text; save it as UTF-8"]),
    "non_utf8_page": (_latin1_page, ["tiny/rulebook/intro.md:3:15: file is not UTF-8 text (byte 0xe0); save it as UTF-8"]),
    "control_character": (_control_char, ["tiny/monsters.yaml:5:14: character U+0007 is not allowed in a YAML file; remove it"]),
    "card_file_links_outside": (_link_outside,
                                ["tiny/monsters.yaml:1:1: file links outside the game folder; deckwright reads only files inside it"]),
    "alias_to_a_long_text": (_alias_long_text,  # the 65th *motto passes 64 million characters
                             [f"tiny/monsters.yaml:9:{12 + 8 * 64}: with this alias, the file's YAML aliases expand to "
                              "more than 64,000,000 characters (an alias bomb?); write the values out"]),
    "rulebook_page_links_outside": (_page_link_outside, ["tiny/game.yaml:28:5: rulebook: 'rulebook/intro.md' is outside the game folder"]),
    # found by tests/fuzz: pathlib's is_file() raises for a name longer than a file name can be
    "rulebook_page_name_too_long": (_page_named("rulebook/intro." + "9" * 300 + ".md"), [
        "tiny/game.yaml:28:5: rulebook: 'rulebook/intro." + "9" * 45 + "... (258 more characters)': a page's file "
        "name has at most 64 characters, this one 306"]),
    "rulebook_folder_name_too_long": (_page_named("rulebook" + "9" * 300 + "/intro.md"), [
        "tiny/game.yaml:28:5: rulebook: the file name 'rulebook" + "9" * 32 + "...' is 308 bytes long; a file name "
        "has at most 255"]),
    "rulebook_picture_links_outside": (_picture_links_outside, [
        "tiny/rulebook/intro.md:5:12: picture: '../art/board.png' is outside the game folder"]),
    "rulebook_picture_gif": (_picture_gif, ["tiny/rulebook/intro.md:5:12: picture: '../art/board.png' is a GIF image; "
                                            "deckwright reads PNG and JPEG"]),
    "rulebook_picture_too_many_pixels": (_picture_too_many_pixels, [
        "tiny/rulebook/intro.md:5:12: picture: '../art/board.png' is 8000 x 6000 pixels (48 megapixels); "
        "a picture may have at most 40 megapixels"]),
}
CASES = FILE_CASES + sorted(GENERATED)


def make_game(case: str, where: Path) -> Path:
    """The base game with one case's changes, as ``where/tiny``."""
    game = where / GAME
    shutil.copytree(BASE, game)
    if case in GENERATED:
        GENERATED[case][0](game)
    else:
        shutil.copytree(CORPUS / case, game, dirs_exist_ok=True, ignore=shutil.ignore_patterns(EXPECTED))
    return game


def expected_lines(case: str) -> list[str]:
    if case in GENERATED:
        return GENERATED[case][1]
    return (CORPUS / case / EXPECTED).read_text(encoding="utf-8").splitlines()


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every file's bytes and every folder and link under ``folder``, hidden ones included."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            found[rel] = f"link to {os.readlink(path)}"
        elif path.is_dir():
            found[rel] = "folder"
        else:
            found[rel] = path.read_bytes()
    return found


def earlier_output(where: Path) -> Path:
    out = where / "out"
    (out / GAME / "schema").mkdir(parents=True)
    (out / GAME / "game.json").write_text('{"from": "the earlier build"}\n')
    (out / GAME / "schema" / "cards.json").write_text("{}\n")
    (out / "unrelated.txt").write_text("not deckwright's\n")
    return out


def test_the_corpus_is_complete():
    """The issue's list of broken inputs, each present as a case."""
    wanted = {"yaml_syntax_error", "tab_indentation", "duplicate_key", "unknown_field", "wrong_type", "negative_count",
              "bad_dice", "dangling_reference", "duplicate_id", "empty_file", "list_for_mapping", "binary_garbage",
              "non_utf8", "alias_bomb", "huge_file", "rulebook_outside", "card_file_links_outside", "dangling_page_ref",
              "missing_field", "unknown_card_type", "deck_count_mismatch", "unknown_deck", "ref_wrong_type",
              "open_empty_note"}
    assert wanted <= set(CASES)
    for case in FILE_CASES:
        assert (CORPUS / case / EXPECTED).is_file(), f"{case} has no {EXPECTED}"


def test_the_base_game_is_valid(tmp_path):
    shutil.copytree(BASE, tmp_path / GAME)
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", "check", GAME], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (0, "")
    assert "tiny: 4 cards in 2 decks: valid" in result.stdout


@pytest.mark.parametrize("case", CASES)
def test_check_prints_exact_lines(case, tmp_path):
    """Through a real process, so a traceback cannot hide; check writes nothing but its cache, and prints the same
    from its cache."""
    make_game(case, tmp_path)
    before = snapshot(tmp_path)
    for _ in ("checked", "from the cache"):
        result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", "check", GAME], cwd=tmp_path,
                                capture_output=True, text=True, timeout=60, env={**os.environ, "CI": ""})
        assert "Traceback" not in result.stderr
        assert result.stderr.splitlines() == expected_lines(case)
        assert result.returncode == 1
        cached = {name for name in snapshot(tmp_path) if name.startswith(".deckwright-cache")}
        assert {name: found for name, found in snapshot(tmp_path).items() if name not in cached} == before
        assert len(cached) == 5  # the folder, its tag, its .gitignore, the folder of entries and the game's entry


@pytest.mark.parametrize("case", CASES)
def test_failed_build_leaves_earlier_output(case, tmp_path, monkeypatch, capfd):
    make_game(case, tmp_path)
    out = earlier_output(tmp_path)
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    status = cli.main(["build", GAME, "--out", str(out.relative_to(tmp_path))])
    stderr = capfd.readouterr().err
    assert stderr.splitlines() == expected_lines(case)
    assert status == 1
    assert snapshot(tmp_path) == before  # nothing changed, nothing new (no staging folder either)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_card_file(tmp_path):
    game = make_game("yaml_syntax_error", tmp_path)
    (game / "heroes.yaml").chmod(0)
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", "check", GAME], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.stderr.splitlines() == ["tiny/heroes.yaml:1:1: cannot read file: Permission denied"]
    assert result.returncode == 1
