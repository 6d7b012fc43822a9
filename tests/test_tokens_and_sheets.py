"""Tokens, tiles and sheets in print: shaped sizes, packed pages with cut lines, die-cut PDFs, sheet copies,
crop marks only where cards are, proof sheets, and targets that keep each other's files.

The made-up game ``tests/fixtures/shapes`` has round tokens, flat- and pointy-top hex tiles, cards with
rounded corners and two sheets printed more than once. Checks read the files themselves: words on PDF pages
(pdftotext), pixels of rendered pages (pdftoppm), page boxes and colour spaces (pypdf).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import need_tools, output_contents
from pypdf import PdfReader

from deckwright.generator import cli
from deckwright.generator.layout.homefit import EDGE, FOOT
from deckwright.generator.layout.impose import plan_grid, rounded_grid
from deckwright.generator.layout.paper import HOME_BLEED, paper_size
from deckwright.generator.layout.shapes import outline, pack, shape_of
from deckwright.generator.outputs.print_shapes import CUT_OFFSET
from deckwright.rules.data.units import CARD_SIZES
from deckwright.rules.load import load_game, parse_size

FIXTURE = Path(__file__).parent / "fixtures" / "shapes"
SHEETS_FIXTURE = Path(__file__).parent / "fixtures" / "spreadsheets"
PX_PER_MM = 150 / 25.4


def needs_poppler() -> None:
    need_tools("pdftotext", "pdftoppm", package="poppler-utils")


def words(pdf: Path, page: int) -> list[str]:
    text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    return text.split()


def render(pdf: Path, page: int, tmp_path: Path):
    from PIL import Image

    stem = tmp_path / f"{pdf.stem}-{page}"
    subprocess.run(["pdftoppm", "-png", "-r", "150", "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(stem)], check=True)
    return Image.open(f"{stem}.png").convert("RGB")


def pixel(image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return image.getpixel((round(x_mm * PX_PER_MM), round(y_mm * PX_PER_MM)))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    assert cli.main(["build", str(FIXTURE), "--out", str(out)]) == 0
    return out / "shape-sample" / "print"


@pytest.fixture(scope="module")
def game():
    return load_game(FIXTURE)


# -- sizes with a shape -------------------------------------------------------------------------


@pytest.mark.parametrize("text, shape, width, height, radius", [
    ("round 25mm", "round", 25, 25, 0),
    ("circle 1in", "round", 25.4, 25.4, 0),
    ("hex 40mm", "hex-flat", 46.188, 40, 0),
    ("hex 30mm pointy", "hex-pointy", 30, 34.641, 0),
    ("poker rounded 3.5mm", "rect", 63.5, 88.9, 3.5),
    ("70x70mm rounded 35mm", "rect", 70, 70, 35),
])
def test_sizes_with_a_shape(text, shape, width, height, radius):
    size = parse_size(text, CARD_SIZES)
    assert (size.shape, round(size.width, 3), round(size.height, 3), size.radius) == (shape, width, height, radius)


@pytest.mark.parametrize("text, message", [
    ("round 0mm", "a diameter is more than 0"),
    ("hex -4mm", "across the flats is more than 0"),
    ("poker rounded 50mm", "more than half the card's side"),
    ("round 25mm rounded 2mm", "only a rectangle has rounded corners"),
    # a piece a few hundred pixels across in every picture of it: this one made each box millions of pixels wide
    ("0.001x0.001mm", '"0.001x0.001mm" is 0.001 x 0.001 mm; a piece is at least 5 mm a side'),
    ("round 2mm", '"round 2mm" is 2 x 2 mm; a piece is at least 5 mm a side'),
    ("round 3000mm", '"round 3000mm" is larger than any printed piece; a piece is at most 2000 mm a side'),
    ("9" * 400 + "mmx105mm", "larger than any printed piece; a piece is at most 2000 mm a side"),  # read as inf
])
def test_impossible_shapes_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        parse_size(text, CARD_SIZES)


def shapes_with(tmp_path: Path, monkeypatch, old: str, new: str) -> Path:
    """The shapes fixture as tmp_path/shapes with one text of its game.yaml replaced, checked from tmp_path."""
    game = tmp_path / "shapes"
    shutil.copytree(FIXTURE, game)
    text = (game / "game.yaml").read_text()
    assert old in text, old
    (game / "game.yaml").write_text(text.replace(old, new))
    monkeypatch.chdir(tmp_path)
    return game


def test_a_bad_shape_is_a_located_error(tmp_path, monkeypatch, capfd):
    shapes_with(tmp_path, monkeypatch, "size: round 25mm", "size: round 0mm")
    assert cli.main(["check", "shapes"]) == 1
    assert capfd.readouterr().err.splitlines() == [
        'shapes/game.yaml:26:11: decks.coins.size: "0mm": a diameter is more than 0']


@pytest.mark.parametrize("size, line", [
    ("2.5x3.5in", None),  # a unit written once is both sides': a poker card
    ("2.5x3.5", 'decks.orders.size: "2.5x3.5" without a unit is millimetres, 2.5 x 3.5 mm; write the unit: '
                '2.5x3.5in, 2.5x3.5cm or 2.5x3.5mm'),
    ("300x400mm", "decks.orders.size: custom 300 x 400 mm does not fit on A4 or Letter paper with bleed and crop "
                  "marks"),  # check said nothing, and the build refused it
    ("round 240mm", "decks.orders.size: round 240 mm does not fit on A4 or Letter paper with bleed"),
])
def test_a_deck_the_papers_cannot_hold_is_a_located_error_of_check(tmp_path, monkeypatch, capfd, size, line):
    shapes_with(tmp_path, monkeypatch, "poker rounded 3.5mm", size)
    assert cli.main(["check", "shapes"]) == (0 if line is None else 1)
    errors = [text for text in capfd.readouterr().err.splitlines() if "warning" not in text]
    assert errors == ([] if line is None else [f"shapes/game.yaml:38:11: {line}"])


def test_sheet_copies_have_the_cards_limit(tmp_path, monkeypatch, capfd):
    """A sheet of 100,000,000 copies passed check and then filled the memory of build."""
    shapes_with(tmp_path, monkeypatch, "    copies: 3", "    copies: 100000000")
    assert cli.main(["check", "shapes"]) == 1
    assert capfd.readouterr().err.splitlines()[0] == (
        "shapes/game.yaml:45:13: game.sheets.aid.copies: expected a whole number from 1 to 999, got 100000000")


def test_a_deck_that_fits_on_one_paper_only_is_a_warning_naming_it(tmp_path, monkeypatch, capfd):
    shapes_with(tmp_path, monkeypatch, "poker rounded 3.5mm", "190x270mm")
    assert cli.main(["check", "shapes"]) == 0
    assert "shapes/game.yaml:38:11: warning: decks.orders.size: custom 190 x 270 mm fits on A4 paper only, not on " \
           "Letter, with bleed and crop marks: build with --paper a4" in capfd.readouterr().err.splitlines()
    assert cli.main(["build", "shapes", "--target", "home", "--out", str(tmp_path / "out")]) == 0
    assert cli.main(["build", "shapes", "--target", "home", "--paper", "letter", "--out", str(tmp_path / "out")]) == 1


# -- packing and cut lines on home sheets ---------------------------------------------------------


def test_circles_and_hexes_pack_densely_and_never_overlap(game):
    paper = paper_size("a4")
    area = (EDGE, EDGE, paper[0] - 2 * EDGE, paper[1] - EDGE - FOOT)
    coins = pack(paper, shape_of(game.decks["coins"].size), HOME_BLEED, area)
    square = int(area[2] // 31) * int(area[3] // 31)  # 25 mm coins with 3 mm bleed on a square grid
    assert coins.per_page > square  # staggered rows hold more
    land = pack(paper, shape_of(game.decks["land"].size), HOME_BLEED, area)
    assert land.per_page >= 15
    for packing in (coins, land):
        shape = packing.shape
        centres = [(x + shape.width / 2, y + shape.height / 2) for x, y in packing.places]
        across = min(shape.width, shape.height) + 2 * HOME_BLEED  # circle diameter, hex flat to flat
        for i, (ax, ay) in enumerate(centres):
            for bx, by in centres[i + 1:]:
                assert ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 >= across - 1e-3  # bleed bands touch at most
        for x, y in packing.places:  # every piece, bleed band included, inside the printable area
            assert x - HOME_BLEED >= area[0] - 1e-6 and x + shape.width + HOME_BLEED <= area[0] + area[2] + 1e-6
            assert y - HOME_BLEED >= area[1] - 1e-6 and y + shape.height + HOME_BLEED <= area[1] + area[3] + 1e-6


def test_tokens_print_with_their_outline_as_cut_line(built, game, tmp_path):
    needs_poppler()
    pdf = built / "deck-coins.pdf"
    paper = paper_size("a4")
    packing = pack(paper, shape_of(game.decks["coins"].size), HOME_BLEED,
                   (EDGE, EDGE, paper[0] - 2 * EDGE, paper[1] - EDGE - FOOT))
    on_page = words(pdf, 1)
    assert on_page.count("Copper") + on_page.count("Silver") == min(32, packing.per_page)
    assert "Coin" in words(pdf, 2)  # the backs follow
    image = render(pdf, 1, tmp_path)
    x, y = packing.places[0]  # the first token, in the top row: above it, the margin
    cx = x + 12.5
    art = (201, 154, 59)  # the token's colour, #c99a3b
    assert pixel(image, cx, y + 1.0) == pytest.approx(art, abs=12)  # inside the trim
    assert pixel(image, cx, y - 2.0) == pytest.approx(art, abs=12)  # the bleed band, beyond the cut line
    assert pixel(image, cx, y - HOME_BLEED - 1.0) == (255, 255, 255)  # nothing past the bleed
    line = min((pixel(image, cx, y - CUT_OFFSET + d / PX_PER_MM) for d in (-1, 0, 1)), key=sum)
    assert sum(line) < sum(art) - 100  # the cut line, black on white, just outside the trim


def test_rounded_cards_keep_the_grid_with_bleed_between_and_their_outline(built, game, tmp_path):
    needs_poppler()
    grid = rounded_grid(paper_size("a4"), (63.5, 88.9))
    assert grid.per_page == 9 and grid.cols.gutter > 0 and grid.rows.gutter > 0  # 3 x 3, none shares a cut
    assert grid.per_page == plan_grid(paper_size("a4"), (63.5, 88.9), HOME_BLEED).per_page
    image = render(built / "deck-orders.pdf", 1, tmp_path)
    x, y = grid.trim_origin(0, 0)
    band = (90, 45, 90)  # the title band, #5a2d5a, printed into the bleed
    assert pixel(image, x + 20, y + 1.0) == pytest.approx(band, abs=12)
    assert pixel(image, x + 20, y - 1.2) == pytest.approx(band, abs=12)  # bleed beyond the cut line
    line = [pixel(image, x + 20, y - CUT_OFFSET + step / 10) for step in range(-3, 4)]
    # the cut line along the top edge: black on white, 0.2 and 0.5 mm, a few pixels at 150 dpi, some of them grey
    assert max(sum(abs(a - b) for a, b in zip(colour, band)) for colour in line) > 100
    assert pixel(image, x + 0.3, y + 0.3) == pytest.approx(band, abs=12)  # the rounded corner leaves the trim's
    # corner outside the cut line: there the art runs on as bleed
    corner = outline(shape_of(game.decks["orders"].size), CUT_OFFSET, x, y)
    assert corner[0] == ("M", pytest.approx(x + 3.5), pytest.approx(y - CUT_OFFSET))  # the arc starts 3.5 mm in


@pytest.mark.parametrize("paper, cols, col_bleed, rows, row_bleed", [
    ("a4", 3, 1.5, 3, 3.0),  # 3 mm between columns would cost one; rows keep it (it gave 1.5 mm everywhere)
    ("letter", 3, 1.5, 2, 3.0),  # a third row would not fit even at 1.5 mm
])
def test_rounded_cards_narrow_the_bleed_only_on_the_side_where_it_costs_a_card(paper, cols, col_bleed, rows, row_bleed):
    grid = rounded_grid(paper_size(paper), CARD_SIZES["poker"])
    assert (grid.cols.count, grid.cols.gutter / 2, grid.cols.outer_bleed) == (cols, col_bleed, col_bleed)
    assert (grid.rows.count, grid.rows.gutter / 2, grid.rows.outer_bleed) == (rows, row_bleed, row_bleed)


def test_the_print_shop_gets_a_die_cut_pdf_page_for_page(built):
    art = PdfReader(built / "printshop" / "deck-land.pdf")
    cut = PdfReader(built / "printshop" / "deck-land-cut.pdf")
    assert len(art.pages) == len(cut.pages) == 2 * 15
    for a, c in zip(art.pages[:2], cut.pages[:2]):
        assert [float(v) for v in a.trimbox] == pytest.approx([float(v) for v in c.trimbox])
        assert [float(v) for v in a.mediabox] == pytest.approx([float(v) for v in c.mediabox])
    spaces = cut.pages[0]["/Resources"]["/ColorSpace"]
    separation = next(space.get_object() for space in spaces.values())
    assert separation[0] == "/Separation" and separation[1] == "/CutContour"
    assert not (built / "printshop" / "deck-nothing-cut.pdf").exists()
    assert sorted(p.name for p in (built / "printshop").glob("*-cut.pdf")) == [
        "deck-coins-cut.pdf", "deck-land-cut.pdf", "deck-orders-cut.pdf", "deck-rivers-cut.pdf"]


# -- sheets ---------------------------------------------------------------------------------------------


def test_sheet_copies_print_that_many_times(built):
    needs_poppler()
    reader = PdfReader(built / "sheets.pdf")
    texts = [page.extract_text() for page in reader.pages]
    assert sum(1 for text in texts if "Score board" in text) == 2  # two A4 pages
    aids = [text for text in texts if "Player aid" in text]
    assert len(aids) == 1 and aids[0].count("Copper is worth 1") == 3  # three on one page, packed like cards


def test_crop_marks_only_around_slots_that_hold_a_card():
    grid = plan_grid(paper_size("a4"), CARD_SIZES["mini"], HOME_BLEED)
    assert grid.cols.count == 4 and grid.rows.count == 4
    full = grid.marks()
    four = grid.marks(filled=4)  # one row of mini cards
    horizontal = [m for m in four if m.y1 == m.y2]
    row_cuts = {round(grid.rows.trim(0), 3), round(grid.rows.trim(0) + grid.rows.card, 3)}
    assert {round(m.y1, 3) for m in horizontal} == row_cuts  # no marks for the empty rows
    vertical = [m for m in four if m.x1 == m.x2]
    assert {round(m.x1, 3) for m in vertical} == {round(c, 3) for c in grid.cols.cuts()}
    assert max(m.y2 for m in vertical) < grid.rows.trim(1) + 6  # the lower marks sit under the row, not the page
    assert len(four) < len(full)


def test_the_printable_pages_include_sheets_and_shapes(tmp_path):
    from deckwright.generator.site import build_site

    game = load_game(FIXTURE)
    build_site([game], tmp_path / "site", {})
    page = (tmp_path / "site" / "shape-sample" / "print-a4.html").read_text()
    labels = re.findall(r'<h2 class="sheet-label"[^>]*>(.*?)</h2>', page)
    assert labels[-3:] == ["Game sheets, page 1 <span>Score board</span>", "Game sheets, page 2 <span>Score board</span>",
                           "Game sheets, page 3 <span>Player aid</span>"]
    assert page.count('href="#sheet_aid"') == 3 and page.count('href="#sheet_board"') == 2
    assert page.count('<svg class="cut-lines"') == 4  # one per page of fronts: coins, land, rivers, orders
    assert "clip-path: circle(50%)" in page
    gallery = (tmp_path / "site" / "shape-sample" / "cards.html").read_text()
    assert re.search(r'<figure class="card" id="card-copper"[^>]*>\n  <a class="card-link" href="#card-copper"><svg '
                     r'class="card-img shaped" role="img" aria-label="Copper \(Token\)\. Value: 1" viewBox="0 0 25\.0 '
                     r'25\.0" style="--card-w: 25\.0; --card-h: 25\.0; clip-path: circle\(50%\)"><use '
                     r'href="#face-copper" width="25\.0" height="25\.0"/></svg></a>', gallery)


# -- proof sheets ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_deck(tmp_path_factory) -> Path:
    """The spreadsheet game with 40 monsters, so a page fills."""
    game = tmp_path_factory.mktemp("proof") / "proofs"
    shutil.copytree(SHEETS_FIXTURE, game)
    rows = "".join(f"Rat {n},1,2,1,,,,\n" for n in range(1, 41))
    (game / "monsters.csv").write_text("name,copies,health,power,speed,traits,fast,text\n" + rows +
                                       "Mire Hag,1,5,3,,,,\nBog Rat,1,2,1,,,,\n")
    text = (game / "game.yaml").read_text().replace("    count: 7\n", "")
    (game / "game.yaml").write_text(text)
    return game


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_proof_sheets_show_every_card_small_and_labelled(big_deck, tmp_path, paper):
    needs_poppler()
    out = tmp_path / "out"
    assert cli.main(["build", str(big_deck), "--out", str(out), "--target", "proof", "--paper", paper]) == 0
    pdf = out / "spreadsheet-sample" / "print" / "proof.pdf"
    assert sorted(p.name for p in pdf.parent.iterdir()) == ["proof.pdf"]
    first = words(pdf, 1)
    ids = [w for w in first if re.fullmatch(r"rat-\d+", w)]
    assert len(ids) + 1 >= 16  # at least four by four poker cards (the first place is the deck's back)
    assert ids == [f"rat-{n}" for n in range(1, len(ids) + 1)]  # the game's order
    game = load_game(big_deck)
    in_game = [card.id for card in game.cards_in("monsters")]
    assert ids == in_game[:len(ids)]  # as the deck PDF and the print-shop files number them
    assert "back" in first and "monsters.csv:2" in first and "×1" in " ".join(first)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert text.count("back") == 2  # each deck's back once
    assert text.index("Monsters") < text.index("Heroes")  # game.yaml's deck order
    assert "cards.xlsx:Heroes!2:2" in text and "×2 · Hero" in text


def test_one_target_keeps_the_other_targets_files(tmp_path):
    out = tmp_path / "out"
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "printshop"]) == 0
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "proof"]) == 0
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "home"]) == 0
    names = sorted(p.name for p in (out / "shape-sample" / "print").iterdir())
    assert names == ["deck-coins.pdf", "deck-land.pdf", "deck-orders.pdf", "deck-rivers.pdf", "everything.pdf",
                     "printshop", "proof.pdf", "sheets.pdf"]
    assert (out / "shape-sample" / "print" / "printshop" / "deck-land-cut.pdf").is_file()


def test_the_same_game_builds_the_same_files(built, tmp_path):
    out = tmp_path / "again"
    assert cli.main(["build", str(FIXTURE), "--out", str(out)]) == 0
    first, again = output_contents(built), output_contents(out / "shape-sample" / "print")
    assert sorted(first) == sorted(again)
    assert [name for name in first if first[name] != again[name]] == []


def test_the_default_face_on_a_round_token_keeps_its_frame_and_words_inside_the_circle(tmp_path, monkeypatch):
    """A round token's type without a layout of its own: the default face's frame is a circle, not a rectangle
    whose corners the cut goes through, and every line of its words starts and ends inside the circle."""
    import math

    from deckwright.generator.layout import displaylist as dl
    from deckwright.generator.layout.faces import Faces

    folder = shapes_with(tmp_path, monkeypatch, "    layout: token\n", "")
    (folder / "layouts" / "token.yaml").unlink()
    game = load_game(folder)
    faces = Faces(game)
    for coin in (card for card in game.cards if card.deck == "coins"):
        items = dl.walk(faces.front(coin).items)  # the items inside groups and clips too
        radius = game.decks["coins"].size.width / 2
        assert not [item for item in items if isinstance(item, dl.Rect) and item.stroke]
        assert [item for item in items if isinstance(item, dl.Ellipse) and item.stroke]
        texts = [item for item in items if isinstance(item, dl.Text)]
        assert texts
        for text in texts:
            for x in (text.x, text.x + text.width):
                assert math.hypot(x - radius, text.y - radius) <= radius, (coin.id, text.text)
