"""```cards table specs: parsed, checked at file:line:col, and turned into rows from the data."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckwright.rules.book.pages import fenced_blocks
from deckwright.rules.book.tables import MISSING, page_tables, parse_table_spec
from deckwright.rules.data.schema import Ref
from deckwright.rules.data.values import Open
from deckwright.rules.load import load_game, load_game_with_warnings
from deckwright.rules.problems import Problems

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"


@pytest.fixture
def game():
    return load_game(FIXTURE)


def spec_problems(game, body: str, before: str = "# Page\n\n") -> tuple[object, Problems]:
    text = f"{before}```cards\n{body}```\n"
    block = [b for b in fenced_blocks(text, "page.md") if b.kind == "cards"][0]
    problems = Problems()
    spec = parse_table_spec(block, game.card_types, game.decks, list(game.cards), problems)
    return spec, problems


def messages(problems: Problems) -> list[str]:
    return [str(p) for p in problems.sorted()]


def test_type_table_rows_come_from_the_data(game):
    tables = page_tables(game.pages[0], game)
    heroes = tables[min(tables)]
    assert [c.label for c in heroes.spec.columns] == ["Name", "Role", "Health", "Speed"]
    assert [row[0] for row in heroes.rows] == ["Warden", "Scout", "Lamplighter"]
    assert heroes.rows[0][2] == 12
    assert str(heroes.rows[1][3]) == "D10"
    assert isinstance(heroes.rows[2][2], Open)


def test_where_compares_refs_by_id(game):
    spec, problems = spec_problems(game, "deck: monsters\nwhere: {hunts: warden}\ncolumns: [name, copies, hunts]\n")
    assert not problems.items
    from deckwright.rules.book.tables import build_table
    table = build_table(game.cards, spec)
    assert [c.id for c in table.cards] == ["shade"]
    assert table.rows[0][1] == 2
    assert isinstance(table.rows[0][2], Ref) and table.rows[0][2].id == "warden"


def test_deck_table_over_mixed_types_leaves_missing_fields_blank(tmp_path, game):
    spec, problems = spec_problems(game, "type: monster\nwhere: {attack: D4}\ncolumns: [id, name, text]\n")
    assert not problems.items
    from deckwright.rules.book.tables import build_table
    assert [row[0] for row in build_table(game.cards, spec).rows] == ["moth"]
    spec, problems = spec_problems(game, "deck: heroes\ncolumns: [name, cost]\n")
    assert "unknown column \"cost\" for deck 'heroes'" in messages(problems)[0]
    assert MISSING.__str__() == ""


@pytest.mark.parametrize("body, expected", [
    ("type: heroe\ncolumns: [name]\n", "page.md:4:7: cards table: unknown card type \"heroe\"; did you mean 'hero'?"),
    ("deck: hero\ncolumns: [name]\n", "page.md:4:7: cards table: unknown deck \"hero\"; did you mean 'heroes'?"),
    ("type: hero\ncolumns: [name, helth]\n", "page.md:5:17: cards table: unknown column \"helth\" for type 'hero'; did you mean 'health'?"),
    ("type: hero\ncolumns: [name]\nwhere: {rol: guard}\n", "page.md:6:9: cards table: where: unknown field 'rol' for type 'hero'; did you mean 'role'?"),
    ("type: hero\ncolumns: [name]\nwhere: {role: guardian}\n", "page.md:6:15: cards table: where.role: 'guardian' is not one of guard, scout; did you mean 'guard'?"),
    ("type: monster\ncolumns: [name]\nwhere: {hunts: wardn}\n", "page.md:6:16: cards table: where.hunts: no card with id 'wardn'; did you mean 'warden'?"),
    ("type: hero\ndeck: heroes\ncolumns: [name]\n", "page.md:4:1: cards table: give exactly one of 'type:' (a card type) or 'deck:' (a deck id)"),
    ("type: hero\n", "page.md:4:1: cards table: missing 'columns:'"),
    ("type: hero\ncolumns: name\n", "page.md:5:10: cards table: columns: expected a list of field names"),
    ("type: hero\ncolumn: [name]\n", "page.md:5:1: cards table: unknown key 'column'; did you mean 'columns'?"),
    ("type: hero\ncolumns: [name\n", "page.md:"),
    ("- type: hero\n", "page.md:4:1: cards table: expected a mapping"),
    ("type: hero\ncolumns: [" + ", ".join(["name"] * 17) + "]\n",
     "page.md:5:10: cards table: 17 columns; a printed page holds at most 16: split it into two tables"),
])
def test_bad_specs_are_located(game, body, expected):
    spec, problems = spec_problems(game, body)
    assert spec is None
    assert any(m.startswith(expected) for m in messages(problems)), messages(problems)


def copy_game_with_page(tmp_path: Path, page_text: str) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(FIXTURE, folder)
    (folder / "rulebook" / "play.md").write_text(page_text, encoding="utf-8")
    return folder


def test_loader_reports_bad_tables_and_warns_about_empty_ones(tmp_path):
    folder = copy_game_with_page(tmp_path, "# Play\n\n```cards\ntype: hero\ncolumns: [name, cost]\n```\n\n"
                                           "```cards\ntype: hero\nwhere: {role: guard, health: 99}\ncolumns: [name]\n```\n")
    game, problems = load_game_with_warnings(folder)
    assert game is None
    errors = [str(p) for p in problems.errors]
    assert len(errors) == 1 and errors[0].endswith("rulebook/play.md:5:17: cards table: unknown column \"cost\" for type 'hero'; "
                                                   "did you mean 'copies'? (columns: role, health, speed, text, name, copies, id, type, deck)")
    warnings = [str(p) for p in problems.warnings]
    assert any("play.md:8:1: warning: cards table: no card of type 'hero' matches" in w for w in warnings)


def test_check_command_reports_a_bad_table_with_its_location(tmp_path):
    folder = copy_game_with_page(tmp_path, "# Play\n\nSome prose.\n\n```cards\ndeck: monster\ncolumns: [name]\n```\n")
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", "check", str(folder)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "rulebook/play.md:6:7: cards table: unknown deck \"monster\"; did you mean 'monsters'?" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_tables_caption_counts_its_cards_and_the_copies_printed(game):
    """A table of a deck whose cards are printed more than once says both: a row a card, the copies to print."""
    from deckwright.generator.book.tables import table_view
    from deckwright.generator.layout.faces import Faces
    from deckwright.rules.book.tables import build_table

    faces = Faces(game)
    spec, problems = spec_problems(game, "deck: monsters\ncolumns: [name, copies]\n")
    assert not problems.items
    table = build_table(game.cards, spec)
    view = table_view(game, faces, table)
    copies = sum(card.count for card in game.cards if card.deck == "monsters")
    assert copies > len(view.rows) > 1  # the fixture prints some monsters more than once
    assert view.counted == f"{len(view.rows)} different, {copies} to print"
    spec, _ = spec_problems(game, "type: hero\ncolumns: [name]\n")
    heroes = table_view(game, faces, build_table(game.cards, spec))
    assert heroes.counted == f"{len(heroes.rows)} cards"  # one copy each
