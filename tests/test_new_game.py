"""``deckwright new PATH``: a small working game that checks and builds as written."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from deckwright.generator.cli import main
from deckwright.generator.new import slug_for
from deckwright.rules.load import load_game

EXAMPLE_CLAIM = "  last: {total: 5, hit: true}"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def new_game(tmp_path, capsys) -> Path:
    game = tmp_path / "lantern-duel"
    code, out, err = run(capsys, "new", str(game), "--title", "Lantern Duel")
    assert code == 0, err
    assert "written into" in out and "deckwright check" in out
    return game


def test_the_new_game_checks_with_a_verified_example(new_game, capsys):
    code, out, err = run(capsys, "check", str(new_game))
    assert code == 0, out + err
    assert "lantern-duel: 8 cards in 2 decks: valid" in out
    assert "examples: 1 verified, 0 known errata, 0 failing" in out
    assert "rules protocol: conforms" in out
    assert err == ""  # not even a warning: the template is clean


def test_the_new_game_holds_what_the_issue_lists(new_game):
    game = load_game(new_game)
    assert game.title == "Lantern Duel" and game.slug == "lantern-duel"
    assert set(game.card_types) == {"hero", "potion"} and set(game.decks) == {"heroes", "potions"}
    assert any(card.copies > 1 for card in game.cards_in("potions"))  # a deck with copies
    assert any(card.loc.file.endswith("potions.csv") for card in game.cards)  # a deck kept in a CSV file
    assert list(game.sheets) == ["score-track"] and game.mechanics == "rules.py"
    layouts = new_game / "layouts"
    assert (layouts / "hero.yaml").read_text().count("\nextends: card") == 1
    assert "extends: back" in (layouts / "back.yaml").read_text()
    assert ":heart:" in (new_game / "potions.csv").read_text()  # an icon in text
    page = (new_game / "rulebook" / "rules.md").read_text()
    assert "```cards" in page and "```example" in page
    code_lines = [line for line in (new_game / "rules.py").read_text().splitlines() if line.strip()]
    assert len(code_lines) <= 75


def test_every_file_explains_itself(new_game):
    for path in new_game.rglob("*"):
        if path.suffix == ".yaml":
            assert path.read_text().startswith("#"), f"{path.name} opens without a comment"
        elif path.suffix == ".py":
            assert path.read_text().startswith('"""'), f"{path.name} opens without a docstring"
    assert "made up" in (new_game / "game.yaml").read_text().lower()
    assert "made up" in (new_game / "README.md").read_text().lower()


def test_a_wrong_claim_in_the_example_fails_the_check(new_game, capsys):
    page = new_game / "rulebook" / "rules.md"
    text = page.read_text()
    assert EXAMPLE_CLAIM in text
    page.write_text(text.replace(EXAMPLE_CLAIM, "  last: {total: 4, hit: true}"))
    line = next(n for n, row in enumerate(page.read_text().splitlines(), 1) if row.startswith("  last: {total: 4"))
    code, out, err = run(capsys, "check", str(new_game))
    assert code == 1
    assert "examples: 0 verified, 0 known errata, 1 failing" in out
    assert f"rules.md:{line}:" in out and "expected 4, got 5" in out


def test_new_refuses_a_folder_that_is_not_empty(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("my notes")
    code, out, err = run(capsys, "new", str(folder))
    assert code == 2  # the command used wrongly, as an --out deckwright may not write into
    assert err.count("\n") == 1 and "is not empty" in err and "Traceback" not in err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"] and (folder / "notes.txt").read_text() == "my notes"
    (tmp_path / "a-file").write_text("x")
    code, out, err = run(capsys, "new", str(tmp_path / "a-file"))
    assert code == 2 and "is not a folder" in err
    code, out, err = run(capsys, "new", f"{tmp_path / 'empty'}/")
    assert code == 0 and f"written into {tmp_path / 'empty'}/ (" in out and "//" not in out


def test_new_writes_into_an_empty_folder_and_quotes_any_title(tmp_path, capsys):
    folder = tmp_path / "Dragons & Ice"
    folder.mkdir()
    title = 'Dragons: "Fire" & Ice # 2'
    code, out, err = run(capsys, "new", str(folder), "--title", title)
    assert code == 0, err
    game = load_game(folder)
    assert game.title == title and game.slug == "dragons-ice"
    assert game.decks["heroes"].back.title == title


def test_slugs_come_from_the_folder_name():
    assert slug_for("My Game!") == "my-game"
    assert slug_for("___") == "my-game" and slug_for("con") == "my-game"


def test_the_new_game_builds_its_pdfs_and_site(new_game, tmp_path, capsys, poppler):
    out = tmp_path / "out"
    code, printed, err = run(capsys, "build", str(new_game), "--out", str(out), "--target", "home")
    assert code == 0, printed + err
    heroes = out / "lantern-duel" / "print" / "deck-heroes.pdf"
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(heroes), "-"], capture_output=True, text=True).stdout
    assert "Knight" in text and "Rogue" in text and "Steel first, questions after." in text
    sheets = subprocess.run(["pdftotext", str(out / "lantern-duel" / "print" / "sheets.pdf"), "-"],
                            capture_output=True, text=True).stdout
    assert sheets.count("Lantern Duel: Score track") == 2  # copies: 2
    rulebook = (out / "site" / "lantern-duel" / "rules" / "rules.html").read_text()
    assert "The Knight hits the Rogue" in rulebook and "Verified" in rulebook


def test_the_commands_it_suggests_work_where_they_are_to_be_run(tmp_path, capsys, monkeypatch):
    """`new .` (inside the folder) suggests an output folder beside the game, not inside it, where a build refuses
    to write; the README's and game.yaml's commands, run "from the folder above this one", name the folder."""
    game = tmp_path / "dot-game"
    game.mkdir()
    monkeypatch.chdir(game)
    code, out, err = run(capsys, "new", ".")
    assert code == 0, err
    [suggested] = [line for line in out.splitlines() if "next:" in line]
    assert suggested.strip() == "next: deckwright check .   then: deckwright build . --out ../output"
    code, out, err = run(capsys, "build", ".", "--out", "../output", "--target", "home")
    assert code == 0, err
    for name in ("README.md", "game.yaml"):
        text = (game / name).read_text()
        assert "deckwright check dot-game " in text and "deckwright build dot-game --out output" in text, name
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check", "dot-game")
    assert code == 0, out + err
