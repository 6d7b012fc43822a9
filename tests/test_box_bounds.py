"""Boxes that cannot be drawn as laid out: a negative width or height is a located layout error (never a
traceback in a painter), and a box drawn past the face's edge is told, once per layout line, rather than
silently cut off."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from deckwright.generator.cli import main
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fitcheck import layout_warnings
from deckwright.generator.layout.fonts import game_fonts
from deckwright.generator.layout.perface import merged
from deckwright.generator.render import svg
from deckwright.generator.render.pdf import PdfPainter, new_canvas
from deckwright.generator.render.raster import Rasterizer
from deckwright.rules.load import load_game

MAGE = "  - {id: mage, name: Mage, attack: D8, defense: 3}\n"
BARD = "  - {id: bard, name: Bard, attack: D4, defense: 2}\n"


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def game(tmp_path, capsys) -> Path:
    folder = tmp_path / "g10"
    assert run(capsys, "new", str(folder))[0] == 0
    return folder


def layout_problems(folder: Path) -> list[str]:
    return [str(problem) for problem in merged(layout_warnings(load_game(folder)))]


# -- a box of negative size ---------------------------------------------------

NEGATIVE = ('boxes:\n  bg: {kind: rect, fill: "#ff0000", bleed: true}\n'
            '  blob: {kind: rect, left: 40, right: 40, top: 5, height: 10, fill: "#00ff00"}\n')


def test_a_box_of_negative_width_is_a_located_error_in_check_and_build_naming_its_left_and_right(game, capsys,
                                                                                                  tmp_path):
    (game / "layouts" / "hero.yaml").write_text(NEGATIVE, encoding="utf-8")
    code, said = run(capsys, "check", str(game))
    assert code == 1 and "Traceback" not in said
    (line,) = [line for line in said.splitlines() if "boxes.blob" in line]  # one line for both heroes
    assert re.match(r".*layouts/hero\.yaml:3:9: boxes\.blob: left 40 mm and right 40 mm leave it -16\.5 mm wide", line)
    assert "(filling hero for hero 'knight', and for 1 more: hero 'rogue')" in line
    code, said = run(capsys, "build", str(game), "--out", str(tmp_path / "o10"))
    assert code == 1 and "Traceback" not in said and "WorkerTraceback" not in said
    assert "boxes.blob: left 40 mm and right 40 mm" in said


def test_build_force_draws_a_card_too_small_for_its_layout_as_the_crossed_out_face(game, capsys, tmp_path):
    path = game / "game.yaml"
    path.write_text(path.read_text().replace("size: poker", "size: 20x30mm", 1), encoding="utf-8")
    code, said = run(capsys, "build", str(game), "--out", str(tmp_path / "out"), "--force")
    assert code == 1 and "Traceback" not in said
    assert "boxes.title: left 16.5 mm and right 16.5 mm leave it -13 mm wide" in said
    png = tmp_path / "out" / "g10" / "print" / "printshop" / "heroes" / "01-knight.png"
    with Image.open(png) as picture:
        assert picture.convert("RGB").getpixel((2, 2)) == (0xfb, 0xec, 0xeb)  # the pale red of a face not drawn


def test_every_painter_draws_nothing_for_a_box_of_negative_size_and_survives_hairlines(tmp_path):
    fonts = game_fonts(tmp_path)
    plain = (dl.Rect(-1, -1, 12, 12, "#ffffff"), dl.Rect(2, 2, 0.02, 6, "#000000"),
             dl.Rect(3, 2, 0, 6, None, "#000000", 0.1), dl.Ellipse(5, 5, 0.01, 0.01, "#00ff00"))
    inverted = (dl.Rect(8, 1, -5, 4, "#ff0000", "#0000ff", 0.3, 1.0), dl.Ellipse(8, 1, 2, -3, "#ff0000"),
                dl.Clip(9, 1, -4, 4, (dl.Rect(0, 0, 10, 10, "#ff0000"),)),
                dl.Group((dl.Rect(0.5, 8, 4, 1.5, "#0000ff"), dl.Rect(1, 9, 3, -0.5, "#ff0000"))))
    clean = dl.DisplayList("clean", 10, 10, 1, plain + (dl.Group((dl.Rect(0.5, 8, 4, 1.5, "#0000ff"),)),))
    broken = dl.DisplayList("broken", 10, 10, 1, plain + inverted)
    rasterizer = Rasterizer(fonts, reuse=False)
    assert rasterizer.image(broken, dpi=300).tobytes() == rasterizer.image(clean, dpi=300).tobytes()
    assert svg.render(broken).replace("broken", "clean") == svg.render(clean)
    pdfs = []
    for display in (clean, broken):
        target = tmp_path / f"{display.name}.pdf"
        canvas = new_canvas(str(target), (20, 20), fonts, "t")
        PdfPainter(canvas, fonts).place(display, 5, 5)
        canvas.save()
        pdfs.append(target.read_bytes().replace(b"broken", b"clean"))
    assert pdfs[0] == pdfs[1]


# -- a box drawn past the face's edge -----------------------------------------

def add_hero_box(folder: Path, line: str) -> int:
    """``line`` added to the hero layout's boxes; the line number it is on."""
    path = folder / "layouts" / "hero.yaml"
    text = path.read_text()
    path.write_text(text + line + "\n", encoding="utf-8")
    return text.count("\n") + 1


def test_a_text_box_laid_out_wholly_off_the_card_is_an_error_at_its_line_once_for_every_card(game, capsys):
    line = add_hero_box(game, '  lost: {kind: text, text: "{{ card.name }}", left: 70, top: 95, width: 20, height: 10}')
    code, said = run(capsys, "check", str(game))
    assert code == 1
    (problem,) = [text for text in said.splitlines() if "boxes.lost" in text]
    assert f"layouts/hero.yaml:{line}:9: boxes.lost: drawn wholly outside the face, past its right and bottom edges, " \
           f"where nothing prints" in problem
    assert problem.endswith("(filling hero for hero 'knight', and for 1 more: hero 'rogue')")


def test_a_box_running_past_the_bleed_is_a_warning_and_bleed_boxes_strokes_and_rounding_are_not(game, capsys):
    line = add_hero_box(game, "  peek: {kind: icon, icon: heart, right: -6, top: 5, width: 10, height: 10}")
    add_hero_box(game, "  edge-line: {kind: rect, left: 0, right: 0, top: 0, height: 0.4, fill: ink, stroke: ink, "
                       "stroke_width: 1}")  # on the trim, its stroke in the bleed: as drawn
    add_hero_box(game, '  third: {kind: rect, left: "33.3333333%", width: "66.6666667%", top: 80, height: 5, '
                       'fill: ink}')  # ends at the trim, give or take rounding
    add_hero_box(game, "  band: {kind: rect, left: 0, width: 10, top: 0, bottom: 0, fill: ink, bleed: true}")
    problems = [problem for problem in layout_problems(game) if "hero.yaml" in problem]
    assert problems == [f"{game / 'layouts' / 'hero.yaml'}:{line}:9: warning: boxes.peek: drawn past the face's "
                        f"right edge and its bleed, where it is cut off; move it inside or make it smaller (filling "
                        f"hero for hero 'knight', and for 1 more: hero 'rogue')"]


def test_text_set_across_the_trim_is_a_warning_and_text_kept_inside_a_box_over_the_bleed_is_not(game, capsys):
    """Words over the trim line lose their ends when the cards are cut, though the bleed still prints them."""
    across = add_hero_box(game, '  across: {kind: text, text: "{{ card.name }} strikes", left: -2, top: 30, '
                                'width: 30, height: 8, size: 9}')
    spilling = add_hero_box(game, '  spill: {kind: text, text: "one two three four five six seven eight nine ten", '
                                  'left: 10, bottom: 1, width: 10, height: 3, size: 8, fit: overflow-ok}')
    add_hero_box(game, '  banner: {kind: text, text: "{{ card.name }}", left: 0, right: 0, top: 40, height: 8, '
                       'align: center, bleed: true}')  # its box runs over the bleed, its text stays well inside
    problems = [problem for problem in layout_problems(game) if "hero.yaml" in problem]
    hero = game / "layouts" / "hero.yaml"
    assert problems == [
        f"{hero}:{across}:11: warning: boxes.across: its text runs past the face's left edge, the trim, where the card "
        f"is cut; keep text inside the trim (narrow the box, or set it smaller) (filling hero for hero 'knight', and "
        f"for 1 more: hero 'rogue')",
        f"{hero}:{spilling}:10: warning: boxes.spill: its text runs past the face's bottom edge, the trim, where the "
        f"card is cut; keep text inside the trim (narrow the box, or set it smaller) (filling hero for hero "
        f"'knight', and for 1 more: hero 'rogue')"]


def _potions_as(game: Path, size: str) -> None:
    """The new game's potions as pieces of ``size``, with a front that fits them."""
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("    size: poker\n    count: 6", f"    size: {size}\n    count: 6"),
                                    encoding="utf-8")
    (game / "layouts" / "potion.yaml").write_text("boxes:\n  name: {kind: text, text: \"{{ card.name }}\", "
                                                  "left: 5%, right: 5%, top: 10%, height: 20%}\n", encoding="utf-8")


def back_problems(game: Path) -> list[str]:
    return [problem for problem in layout_problems(game) if "back.yaml" in problem or "back of deck" in problem]


@pytest.mark.parametrize("size, badge", [("round 30mm", True), ("hex 25mm", True), ("mini", False),
                                         ("30mmx45mm", True), ("8mmx40mm", True), ("tarot", False)])
def test_the_shared_back_fits_any_piece(game, size, badge):
    """Made for a poker card, the shared back shrinks with a smaller piece; a round or hex one, or one too small
    for its title, gets rings around the emblem: no problem on any of them, with the game's back or without."""
    _potions_as(game, size)
    assert back_problems(game) == []
    (game / "layouts" / "back.yaml").unlink()
    assert back_problems(game) == []
    loaded = load_game(game)
    items = dl.walk(Faces(loaded).back(loaded.decks["potions"]).items)
    assert any(isinstance(item, dl.Ellipse) for item in items) == badge
    assert any(isinstance(item, dl.Text) for item in items) == (not badge)  # the title and subtitle


def test_errors_in_deckwrights_shared_back_say_how_to_replace_it(game):
    """A game whose back pins the shared back's poker measures (``s``) and its layout (``badge``) on a 30 mm
    piece: the shared back's boxes do not fit, and the designer is told to change them in the game's own back."""
    _potions_as(game, "30mmx30mm")
    back = game / "layouts" / "back.yaml"
    back.write_text(back.read_text(encoding="utf-8") + 'vars: {s: "1", badge: "false"}\n', encoding="utf-8")
    shared = [problem for problem in layout_problems(game) if "templates" in problem]
    assert shared[0].endswith("back.yaml:1:1: warning: the errors in this file are in deckwright's shared back.yaml, "
                              "made for cards about the size of a poker card; the game's layouts/back.yaml extends "
                              "it, so give the boxes named below again there with what fits (only the keys given "
                              "change), or hide them with show: \"false\""), shared
    assert any("boxes.subtitle" in problem for problem in shared[1:])


def test_rings_repeated_past_a_sheets_edge_are_told_at_their_line(game):
    (game / "layouts" / "score-track.yaml").write_text(
        "# 10 rings 24 mm apart in a 124 mm row of a 148 mm sheet: 4.5 of them print\n"
        "boxes:\n"
        "  row:\n"
        "    {left: 12, right: 12, top: 26, height: 26,\n"
        "     boxes: {hits: {kind: icon, icon: ring, repeat: 10, left: 34, width: 20, height: 20, step: [24, 0]}}}\n",
        encoding="utf-8")
    (problem,) = [p for p in layout_problems(game) if "score-track.yaml" in p]
    assert re.search(r"score-track\.yaml:5:20: boxes\.row\.boxes\.hits \(some copies\): drawn wholly outside the face, "
                     r"past its right edge, where nothing prints", problem), problem


def rings(folder: Path) -> list[dl.Path]:
    game = load_game(folder)
    display = Faces(game).sheet(game.sheets["score-track"])
    hero = game.colors["hero"]
    return [item for item in dl.walk(display.items) if isinstance(item, dl.Path) and item.fill == hero]


# 24 heroes: the most whose names still print at 6 pt or more on the starter's A6 sheet (rows 2.67 mm apart; with
# more, a warning, and from 37 on an error: the names no longer fit at 4 pt)
@pytest.mark.parametrize("heroes, hits", [(2, 3), (3, 3), (4, 3), (8, 3), (3, 10), (16, 3), (24, 3), (24, 10)])
def test_the_new_games_score_track_fits_every_hero_and_every_hit_on_the_sheet(game, capsys, heroes, hits):
    path = game / "heroes.yaml"
    path.write_text(path.read_text() + "".join(f"  - {{id: hero-{n}, name: Hero {n}, attack: D4, defense: 2}}\n"
                                               for n in range(heroes - 2)), encoding="utf-8")
    path = game / "game.yaml"
    path.write_text(path.read_text().replace("hits_to_win: 3", f"hits_to_win: {hits}"), encoding="utf-8")
    code, said = run(capsys, "check", str(game))
    assert code == 0 and "warning" not in said, said
    drawn = rings(game)
    assert len(drawn) == heroes * hits
    xs = [command[1] for ring in drawn for command in ring.commands if len(command) > 1]
    ys = [command[2] for ring in drawn for command in ring.commands if len(command) > 1]
    assert 4 < min(xs) and max(xs) <= 148 - 12 and 20 < min(ys) and max(ys) < 105 - 14  # inside the rows, above the note
