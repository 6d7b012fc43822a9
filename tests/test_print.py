"""Print outputs, checked in the files themselves: pages, text on pages, boxes, fonts, marks, bytes."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from conftest import output_contents
from pypdf import PdfReader

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.impose import MARK_GAP, PRINTER_EDGE, plan_grid
from deckwright.generator.layout.paper import PAPER_SIZES
from deckwright.generator.outputs.print_pdfs import HomePrint, PrintJob
from deckwright.generator.render.svg import render
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "print" / "sample"
GOLDEN = Path(__file__).parent / "golden" / "print"
ROOT = Path(__file__).resolve().parent.parent
PT = 72 / 25.4
UNITS_FRONT_1 = ["Archer", "Knight", "Knight", "Knight", "Scout", "Scout", "Healer", "Giant", "Giant"]

needs_poppler = pytest.mark.usefixtures("poppler")  # skipped without poppler-utils, failing when CI is set


def deckwright(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "deckwright.generator.cli", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    result = deckwright("build", str(FIXTURE), "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out / "print-sample" / "print"


def page_words(pdf: Path, page: int) -> list[tuple[str, float, float, float]]:
    """Words on a page (1-based): (word, left, right, vertical centre), in mm from the top-left corner (pdftotext)."""
    html = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    words = []
    for match in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html):
        x0, y0, x1, y1 = (float(match.group(i)) / PT for i in range(1, 5))
        words.append((match.group(5), x0, x1, (y0 + y1) / 2))
    return words


def page_texts(pdf: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(pdf).pages]


# -- home print ---------------------------------------------------------------

def test_outputs(built):
    assert sorted(p.name for p in built.iterdir()) == ["deck-tokens.pdf", "deck-units.pdf", "everything.pdf",
                                                        "printshop", "proof.pdf", "sheets.pdf"]


def test_page_count_with_and_without_backs(built, tmp_path):
    # 11 units (copies counted) at 9 a page: 2 front pages, each followed by its back page
    assert len(PdfReader(built / "deck-units.pdf").pages) == 4
    assert len(PdfReader(built / "deck-tokens.pdf").pages) == 2
    result = deckwright("build", str(FIXTURE), "--out", str(tmp_path), "--no-backs", "--target", "home")
    assert result.returncode == 0, result.stderr
    print_dir = tmp_path / "print-sample" / "print"
    assert len(PdfReader(print_dir / "deck-units.pdf").pages) == 2
    assert len(PdfReader(print_dir / "deck-tokens.pdf").pages) == 1
    assert not (print_dir / "printshop").exists()


def test_card_names_on_each_front_page(built):
    texts = page_texts(built / "deck-units.pdf")
    names = re.compile(r"^(Archer|Knight|Scout|Healer|Giant)$", re.M)  # titles stand on their own line
    assert sorted(names.findall(texts[0])) == sorted(UNITS_FRONT_1)  # copies print as many times as they count
    assert names.findall(texts[2]) == ["Giant", "Giant"]
    assert names.findall(texts[1]) == [] and texts[1].count("Sample Units") == 9
    assert texts[3].count("Sample Units") == 2


@needs_poppler
def test_backs_land_behind_their_fronts(built):
    pdf = built / "deck-units.pdf"
    paper_w = PAPER_SIZES["a4"][0]
    for front_page, back_page in ((1, 2), (3, 4)):
        words = page_words(pdf, front_page)
        fronts = [((x0 + x1) / 2, y) for i, (word, x0, x1, y) in enumerate(words)
                  if word in ("Archer", "Knight", "Scout", "Healer", "Giant") and words[i - 1][0] != "Ally:"]
        words = page_words(pdf, back_page)
        backs = [((x0 + next(w[2] for w in words if w[0] == "Units" and abs(w[3] - y) < 0.5 and w[1] > x0)) / 2, y)
                 for word, x0, x1, y in words if word == "Sample"]  # the centre of each back's "Sample Units"
        # each back's title sits on its card's vertical centre line, the columns mirrored
        mirrored = sorted(paper_w - x for x, _ in backs)
        assert mirrored == pytest.approx(sorted(x for x, _ in fronts), abs=0.3), (fronts, backs)
        assert len(backs) == len(fronts)


def test_the_pdf_asks_for_long_edge_duplex(built):
    reader = PdfReader(built / "deck-units.pdf")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    for name in ("deck-units.pdf", "sheets.pdf", "everything.pdf"):  # and at actual size, not fit to page
        assert PdfReader(built / name).trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


@needs_poppler
def test_crop_marks_and_ruler_are_in_the_margin(built):
    words = page_words(built / "deck-units.pdf", 1)
    ruler = [(x0, y) for word, x0, x1, y in words if word == "50"]
    assert ruler and all(y > 290 for _, y in ruler)  # below the cards on A4 (cards end at 291.7 mm with bleed)


def test_letter_fits_three_rows_of_poker_cards(tmp_path):
    game = load_game(FIXTURE)
    pdf = tmp_path / "letter.pdf"
    HomePrint(game, Faces(game), PrintJob("t", (game.decks["units"],), (), "letter", True)).write(str(pdf))
    reader = PdfReader(pdf)
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / PT, 1), round(float(box.height) / PT, 1)) == (215.9, 279.4)
    assert len(reader.pages) == 4
    titles = re.findall(r"^(Archer|Knight|Scout|Healer|Giant)$", reader.pages[0].extract_text(), re.M)
    assert sorted(titles) == sorted(UNITS_FRONT_1)


def test_sheets(built):
    texts = page_texts(built / "sheets.pdf")
    assert len(texts) == 2  # the A4 board fills a page; the reference card is imposed like a card
    assert "Print Sample board" in texts[0] and "Giant: Cannot be blocked" in texts[0]
    assert "Reference card" in texts[1]
    assert len(PdfReader(built / "everything.pdf").pages) == 4 + 2 + 2


# -- print shop -----------------------------------------------------------------

def test_printshop_pages_have_trim_and_bleed_boxes(built):
    reader = PdfReader(built / "printshop" / "deck-units.pdf")
    assert len(reader.pages) == 22  # every card (copies too) followed by its back
    bleed = 25.4 / 8
    for page in reader.pages:
        media, trim, bleed_box = page.mediabox, page.trimbox, page.bleedbox
        assert float(media.width) / PT == pytest.approx(63.5 + 2 * bleed, abs=0.01)
        assert float(media.height) / PT == pytest.approx(88.9 + 2 * bleed, abs=0.01)
        assert [float(v) / PT for v in trim] == pytest.approx([bleed, bleed, 63.5 + bleed, 88.9 + bleed], abs=0.01)
        assert [float(v) for v in bleed_box] == pytest.approx([float(v) for v in media], abs=0.01)
    assert "Archer" in reader.pages[0].extract_text() and "Sample Units" in reader.pages[1].extract_text()


def test_printshop_pngs_are_300_dpi_with_bleed(built):
    from PIL import Image

    with Image.open(built / "printshop" / "units" / "01-archer.png") as image:
        assert image.size == (825, 1125)
        assert round(image.info["dpi"][0]) == 300
        # the bleed is the card's background colour, right to the edge
        assert image.getpixel((2, 500)) == pytest.approx((0x33, 0x55, 0x77), abs=2)
    with Image.open(built / "printshop" / "tokens" / "01-coin-one.png") as image:
        assert image.size == (round((41 + 6.35) / 25.4 * 300), round((63 + 6.35) / 25.4 * 300))
    rows = (built / "printshop" / "cards.csv").read_text().splitlines()
    assert "units,units/02-knight.png,3,Knight" in rows and "units,units/back.png,11,back" in rows


# -- the PDF files themselves ----------------------------------------------------------

def _fonts(resources, seen: set) -> list:
    found = []
    if resources is None:
        return found
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        found.append(font.get_object())
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if id(xobject) not in seen and xobject.get("/Subtype") == "/Form":
            seen.add(id(xobject))
            found.extend(_fonts(xobject.get("/Resources"), seen))
    return found


def test_every_font_is_embedded_as_a_subset(built):
    for pdf in sorted(built.rglob("*.pdf")):
        fonts = []
        for page in PdfReader(pdf).pages:
            fonts.extend(_fonts(page.get("/Resources"), set()))
        assert fonts, pdf
        for font in fonts:
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, (pdf.name, font["/BaseFont"])
            assert re.match(r"^/[A-Z]{6}\+", font["/BaseFont"]), font["/BaseFont"]


@pytest.mark.usefixtures("qpdf")
def test_qpdf_finds_no_problem(built):
    for pdf in sorted(built.rglob("*.pdf")):
        result = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert result.returncode == 0, (pdf.name, result.stdout, result.stderr)
        assert "No syntax or stream encoding errors found" in result.stdout


def test_two_builds_write_the_same_files(built, tmp_path):
    result = deckwright("build", str(FIXTURE), "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    first, again = output_contents(built), output_contents(tmp_path / "print-sample" / "print")
    assert sorted(first) == sorted(again)
    assert [name for name in first if first[name] != again[name]] == []


# -- golden image ---------------------------------------------------------------

GOLDEN_DPI = 75
TILE = 24  # pixels: about 8 mm at 75 dpi, a ninth of a poker card's width
TILE_LIMIT = 6.0  # the most a tile's mean difference per channel (0-255) may be


def tile_differences(rendered, expected) -> list[tuple[tuple[int, int], float]]:
    """Every tile whose mean difference per channel passes the limit, with its top-left pixel and the difference."""
    from PIL import ImageChops, ImageStat

    difference = ImageChops.difference(rendered, expected)
    out = []
    for top in range(0, difference.height, TILE):
        for left in range(0, difference.width, TILE):
            tile = difference.crop((left, top, min(left + TILE, difference.width), min(top + TILE, difference.height)))
            worst = max(ImageStat.Stat(tile).mean)
            if worst > TILE_LIMIT:
                out.append(((left, top), round(worst, 1)))
    return out


def rendered_golden_page(tmp_path):
    """Page 1 of Nightmare Hunt's level 1 deck at 75 dpi, and its golden image (DECKWRIGHT_UPDATE_GOLDEN=1 rewrites it)."""
    import os

    from PIL import Image

    game = load_game(BUNDLED_GAMES / "nightmare-hunt")
    pdf = tmp_path / "level-1.pdf"
    HomePrint(game, Faces(game), PrintJob("t", (game.decks["level-1"],), (), "a4", True)).write(str(pdf))
    subprocess.run(["pdftoppm", "-r", str(GOLDEN_DPI), "-png", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                    str(tmp_path / "page")], check=True)
    rendered = Image.open(tmp_path / "page.png").convert("RGB")
    golden = GOLDEN / f"nightmare-hunt-level-1-page-1-{GOLDEN_DPI}dpi.png"
    if os.environ.get("DECKWRIGHT_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        rendered.save(golden, optimize=True)
    assert golden.exists(), f"no golden image {golden}: run with DECKWRIGHT_UPDATE_GOLDEN=1 and look at it"
    return rendered, Image.open(golden).convert("RGB")


@needs_poppler
def test_a_page_matches_its_golden_image_tile_by_tile(tmp_path):
    rendered, expected = rendered_golden_page(tmp_path)
    assert rendered.size == expected.size
    assert tile_differences(rendered, expected) == [], f"rendered: {tmp_path / 'page.png'}"


@needs_poppler
def test_a_blanked_part_of_a_card_fails_the_golden_comparison(tmp_path):
    from PIL import ImageDraw

    rendered, expected = rendered_golden_page(tmp_path)
    # a third of the middle card's height painted over, the way a box that stopped drawing would leave it
    width, height = rendered.size
    card_w, card_h = 63.5 / 25.4 * GOLDEN_DPI, 88.9 / 25.4 * GOLDEN_DPI
    left, top = (width - card_w) / 2, (height - card_h) / 2
    ImageDraw.Draw(rendered).rectangle((left, top + card_h / 3, left + card_w, top + 2 * card_h / 3), fill="white")
    failing = tile_differences(rendered, expected)
    assert len(failing) >= 10
    assert all(left - TILE <= x <= left + card_w and top - TILE <= y <= top + card_h for (x, y), _ in failing)


# -- imposition and other outputs ---------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", [(63.5, 88.9), (57.15, 88.9), (70, 120), (41, 63), (44, 67), (70, 70), (50, 50)])
def test_crop_marks_never_cross_a_card(paper, card):
    """A mark stays MARK_GAP outside every card's trim; it enters a card's art (the outer bleed, cut away) only
    in a margin narrower than PRINTER_EDGE, where outside the art it would print little or nothing."""
    grid = plan_grid(PAPER_SIZES[paper], card, 3.0)
    ruler = grid.ruler()
    assert ruler is not None
    trims = [(*grid.trim_origin(col, row), *card) for col in range(grid.cols.count) for row in range(grid.rows.count)]
    art_x, art_y, art_w, art_h = grid.art
    pw, ph = PAPER_SIZES[paper]
    for mark in grid.marks(ruler):
        low_x, high_x = min(mark.x1, mark.x2), max(mark.x1, mark.x2)
        low_y, high_y = min(mark.y1, mark.y2), max(mark.y1, mark.y2)
        for x, y, w, h in trims:
            inside_x = x - MARK_GAP < high_x - 1e-9 and low_x + 1e-9 < x + w + MARK_GAP
            inside_y = y - MARK_GAP < high_y - 1e-9 and low_y + 1e-9 < y + h + MARK_GAP
            assert not (inside_x and inside_y), (mark, (x, y, w, h))
        if art_x < high_x and low_x < art_x + art_w and art_y < high_y and low_y < art_y + art_h:  # over the art
            if mark.x1 == mark.x2:  # a column's mark, above or below the rows
                margin = art_y if high_y < ph / 2 else ph - (art_y + art_h)
            else:
                margin = art_x if high_x < pw / 2 else pw - (art_x + art_w)
            assert margin < PRINTER_EDGE, mark
        assert 0 <= low_x and high_x <= pw and 0 <= low_y and high_y <= ph


@pytest.mark.parametrize("paper, cut, reach", [
    ("letter", "columns", 5.55),  # 6.35 mm to the trim above and below the rows: marks ran 0 to 3.2 mm
    ("letter", "rows", 8.9),
    ("a4", "columns", 8.35),  # 6.15 mm of margin outside the art: they ran 0.35 to 5.35 mm
    ("a4", "rows", 5.95),  # 6.75 mm of margin: outside the art, as before
])
def test_crop_marks_of_poker_cards_reach_past_what_home_printers_leave_blank(paper, cut, reach):
    grid = plan_grid(PAPER_SIZES[paper], (63.5, 88.9), 3.0)
    vertical = cut == "columns"
    marks = [mark for mark in grid.marks(grid.ruler()) if (mark.x1 == mark.x2) == vertical]
    side = PAPER_SIZES[paper][1 if vertical else 0]
    inner_ends = {round(min(max(m.y1, m.y2) if vertical else max(m.x1, m.x2),
                            side - (min(m.y1, m.y2) if vertical else min(m.x1, m.x2))), 2) for m in marks}
    assert inner_ends == {reach}  # from the nearer paper edge to the mark's end nearer the cards


@needs_poppler
def test_the_column_marks_on_letter_print_over_the_bleed_black_on_white(tmp_path):
    from PIL import Image

    game = load_game(FIXTURE)
    pdf = tmp_path / "letter.pdf"
    HomePrint(game, Faces(game), PrintJob("t", (game.decks["units"],), (), "letter", False)).write(str(pdf))
    subprocess.run(["pdftoppm", "-png", "-r", "300", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                    str(tmp_path / "page")], check=True)
    image = Image.open(tmp_path / "page.png").convert("RGB")
    px = 300 / 25.4
    grid = plan_grid(PAPER_SIZES["letter"], (63.5, 88.9), 3.0)
    for cut in grid.cols.cuts():
        for depth in (4.5, 5.0):  # beyond a laser printer's 4.2 mm, inside the top bleed (4.0 to 6.35 mm)
            dark = min(sum(image.getpixel((round(cut * px) + dx, round(depth * px)))) for dx in (-1, 0, 1))
            assert dark < 200, (cut, depth)
        halo = image.getpixel((round((cut + 0.25) * px), round(5.0 * px)))  # white beside it, on any art
        assert sum(halo) > 700, (cut, halo)


def test_home_print_pdfs_ask_to_print_at_actual_size(tmp_path):
    game = load_game(FIXTURE)
    pdf = tmp_path / "a4.pdf"
    HomePrint(game, Faces(game), PrintJob("t", (game.decks["units"],), (), "a4", False)).write(str(pdf))
    assert PdfReader(pdf).trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_poker_cards_fit_three_by_three_on_a4_and_letter():
    a4 = plan_grid(PAPER_SIZES["a4"], (63.5, 88.9), 3.0)
    assert (a4.cols.count, a4.rows.count) == (3, 3)
    assert a4.rows.gutter == 6.0 and a4.rows.outer_bleed == 3.0  # full bleed between rows
    letter = plan_grid(PAPER_SIZES["letter"], (63.5, 88.9), 3.0)
    assert (letter.cols.count, letter.rows.count) == (3, 3)
    assert letter.rows.gutter == 0.0  # the rows share their cut lines
    assert letter.rows.outer_bleed == pytest.approx(2.35)


def test_svg_of_a_face():
    game = load_game(BUNDLED_GAMES / "nightmare-hunt")
    svg = render(Faces(game).front(game.card("dire-rat"), bleed=3.0))
    root = ElementTree.fromstring(svg)
    assert root.get("width") == "69.5mm" and root.get("viewBox") == "-3 -3 69.5 94.9"
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Dire Rat" in texts and "4" in texts
    families = {t.get("font-family") for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert families == {"Vollkorn", "Open Sans", "Open Sans Condensed"}


def test_a_broken_layout_stops_the_build_and_keeps_the_old_output(tmp_path):
    game = tmp_path / "sample"
    shutil.copytree(FIXTURE, game)
    out = tmp_path / "out"
    assert deckwright("build", str(game), "--out", str(out), "--target", "home").returncode == 0
    before = (out / "print-sample" / "print" / "deck-units.pdf").read_bytes()
    frame = game / "layouts" / "frame.yaml"
    frame.write_text(frame.read_text().replace("{{ card.name }}", "{{ card.nmae }}"), encoding="utf-8")
    result = deckwright("build", str(game), "--out", str(out), "--target", "home")
    assert result.returncode == 1
    # one line for the typo, however many cards it fails on, naming the first and counting the others
    typo = [line for line in result.stderr.splitlines() if "nmae" in line]
    assert len(typo) == 1, result.stderr
    assert re.search(r"frame\.yaml:11:29: boxes\.title\.text: no field 'nmae' in this card's type; did you mean "
                     r"'name'\? \(filling unit for unit '\w+', and for \d+ more: unit '\w+'", typo[0]), typo[0]
    assert "Traceback" not in result.stderr
    assert (out / "print-sample" / "print" / "deck-units.pdf").read_bytes() == before
