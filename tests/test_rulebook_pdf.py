"""The printable rulebook, read back from the PDFs: contents against where sections land, booklet imposition,
card tables, worked-example verdicts, bookmarks, embedded fonts, structure (qpdf) and repeatable bytes.

Every bundled game's rulebooks are written once (in process) for the module; the made-up ``site-demo``
fixture covers what the bundled pages do not use (admonitions, a Markdown table, raw HTML, links).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TINY, need_tools
from pypdf import PdfReader

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.paper import SHOP_BLEED
from deckwright.generator.outputs.rulebook import BOOKLET, FULL, PRINTSHOP, ParsedBook, document, write_rulebooks
from deckwright.generator.outputs.rulebook.canvases import saddle_stitch
from deckwright.generator.outputs.rulebook.flow import KeepWithNext
from deckwright.generator.outputs.rulebook.matter import back_entries, chapter_entries
from deckwright.generator.outputs.rulebook.prose import PageFlow
from deckwright.generator.outputs.rulebook.theme import Theme, full_page
from deckwright.generator.render.pdf import PT_PER_MM
from deckwright.rules.book.examples import ExampleResult, replay_game_examples
from deckwright.rules.book.pages import page_title
from deckwright.rules.load import bundled_games, load_game
from deckwright.rules.problems import Loc

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"
GAMES = [folder.name for folder in bundled_games(BUNDLED_GAMES)]


def need(tool: str) -> None:
    """Skip without a system tool, except in CI, where its absence is a failure (conftest.need_tools)."""
    need_tools(tool, package="qpdf" if tool == "qpdf" else "poppler-utils")


def pages_text(pdf: Path, *crop: float) -> list[str]:
    """The text of every page (pdftotext -layout), optionally only inside a box (x, y, w, h in points)."""
    need("pdftotext")
    args = ["pdftotext", "-layout"]
    if crop:
        args += ["-x", str(int(crop[0])), "-y", str(int(crop[1])), "-W", str(int(crop[2])), "-H", str(int(crop[3]))]
    out = subprocess.run([*args, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1]


def words(text: str) -> str:
    return " ".join(text.split())


class Built:
    def __init__(self, folder: Path, out: Path, paper: str = "a4", results=None):
        self.game = load_game(folder)
        self.results = replay_game_examples(self.game) if results is None else results(self.game)
        self.faces = Faces(self.game)
        self.book = ParsedBook(self.game, self.faces, self.results)
        self.out = out
        write_rulebooks(self.game, self.faces, self.results, out, paper)
        self.full, self.booklet, self.shop = out / FULL, out / BOOKLET, out / "printshop" / PRINTSHOP

    def text(self, which: str = "full") -> list[str]:
        cache = self.__dict__.setdefault("_text", {})
        if which not in cache:
            cache[which] = pages_text(getattr(self, which))
        return cache[which]


def demo_results(game) -> list[ExampleResult]:
    """site-demo has no rules module: one example verified, one a known erratum, as a replay would say."""
    page = next(p for p in game.pages if p.id == "play")
    lines = [n for n, line in enumerate(page.text.splitlines(), start=1) if line.startswith("name: ")]
    return [ExampleResult(game.slug, "A moth bites the scout", Loc(page.shown, lines[0], 7), "verified", "",
                          ("roll: D4 rolls 3", "attack: Giant Moth bites the Scout for 3")),
            ExampleResult(game.slug, "The warden shrugs it off", Loc(page.shown, lines[1], 7), "erratum",
                          "the made-up source forgets to subtract the bite (hero.health: expected 12, got 8)",
                          ("attack: Giant Moth bites the Warden for 4",))]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Built]:
    root = tmp_path_factory.mktemp("rulebooks")
    books = {slug: Built(BUNDLED_GAMES / slug, root / slug) for slug in GAMES}
    books["site-demo"] = Built(FIXTURE, root / "site-demo", results=demo_results)
    return books


ALL = [*GAMES, "site-demo"]


def contents(book: Built, which: str) -> list[tuple[str, int]]:
    """The contents' entries as printed, (title, page number), from the page titled Contents on; as many as
    the book has sections."""
    wanted = len(chapter_entries(book.book) + back_entries(book.book))
    entries: list[tuple[str, int]] = []
    for page in book.text(which)[1:]:
        lines = page.splitlines()
        if not entries and not any(line.strip() == "Contents" for line in lines):
            continue
        for line in lines:
            match = re.match(r"^\s*(\S.*?\S)\s{2,}(\d+)\s*$", line)
            if match and len(entries) < wanted:
                entries.append((match.group(1), int(match.group(2))))
        if len(entries) == wanted:
            break
    return entries


@pytest.mark.parametrize("slug", ALL)
@pytest.mark.parametrize("which", ["full", "shop"])
def test_contents_list_every_section_in_order_with_the_page_it_is_on(built, slug, which):
    book = built[slug]
    expected = [entry.title for entry in chapter_entries(book.book) + back_entries(book.book)]
    listed = contents(book, which)
    assert [title for title, _ in listed] == expected
    text = book.text(which)
    numbers = [number for _, number in listed]
    assert numbers == sorted(numbers)
    for title, number in listed:
        assert words(title) in words(text[number - 1]), f"'{title}' is not on page {number}"


def outline_of(pdf: Path) -> list[tuple[int, str, int]]:
    """The PDF's bookmarks as (level, title, page number)."""
    reader = PdfReader(pdf)

    def flat(outline, level=0):
        for item in outline:
            if isinstance(item, list):
                yield from flat(item, level + 1)
            else:
                yield level, item.title, reader.get_destination_page_number(item) + 1

    return list(flat(reader.outline))


@pytest.mark.parametrize("slug", ALL)
def test_bookmarks_are_the_headings_and_go_to_their_pages(built, slug):
    book = built[slug]
    marks = outline_of(book.full)
    expected = [(0, "Contents")] + [(e.level, e.title) for e in chapter_entries(book.book) + back_entries(book.book)]
    assert [(level, title) for level, title, _ in marks] == expected
    claimed = contents(book, "full")
    assert [(title, page) for _, title, page in marks[1:]] == claimed


@pytest.mark.parametrize("slug", ALL)
def test_contents_and_index_entries_link_inside_the_book(built, slug):
    reader = PdfReader(built[slug].full)
    pages = {page.indirect_reference.idnum for page in reader.pages}
    targets = []
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") == "/Link" and "/Dest" in annotation:
                targets.append(annotation["/Dest"][0].idnum)
    assert len(targets) > 10
    assert set(targets) <= pages


def test_saddle_stitch_order():
    assert saddle_stitch(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert saddle_stitch(6) == [(None, 1), (2, None), (6, 3), (4, 5)]  # padded with blank pages at the end
    assert saddle_stitch(4) == [(4, 1), (2, 3)]


@pytest.mark.parametrize("slug", ALL)
def test_booklet_puts_each_page_where_folding_needs_it(built, slug):
    book = built[slug]
    pages = sum(1 for page in PdfReader(book.shop).pages if "/Contents" in page)  # not the blank ones padding it
    reader = PdfReader(book.booklet)
    sheet_w, sheet_h = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (round(sheet_w / PT_PER_MM), round(sheet_h / PT_PER_MM)) == (297, 210)  # A4 landscape
    assert len(reader.pages) == 2 * -(-pages // 4)  # two sides per sheet, sheets = pages / 4 rounded up
    assert str(reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"]) == "/DuplexFlipShortEdge"
    half = sheet_w / 2
    left = pages_text(book.booklet, 0, sheet_h - 40, half, 40)
    right = pages_text(book.booklet, half, sheet_h - 40, half, 40)
    title = book.game.title
    for side, (expected_left, expected_right) in enumerate(saddle_stitch(pages)):
        for footer, expected in ((left[side], expected_left), (right[side], expected_right)):
            if expected is None or expected == 1:
                assert footer.split() == [], f"side {side + 1}: page {expected} has a page number"
            else:
                assert footer.split() == [str(expected)], f"side {side + 1}"
    front = pages_text(book.booklet)[0]
    assert words(title) in words(front)  # sheet 1 front: the last page (here blank or the index) and the cover


@pytest.mark.parametrize("slug", ALL)
def test_every_card_table_row_is_printed_under_its_caption(built, slug):
    """Each table's caption with its card count, then every row: the words of each card's name (a name may
    wrap inside its cell, and the next column's words come between), the rows in order."""
    book = built[slug]
    text = words(" ".join(book.text("full")))
    views = [view for page in book.book.pages for view in page.tables.values()]
    position = 0
    for view in views:
        caption = f"{view.caption} \u00b7 {view.counted}, from the card data"  # (test_tables: what it counts)
        position = text.find(caption, position)
        assert position >= 0, caption
        for row in view.rows:
            name = next((cell.text for cell in row if cell.card is not None), row[0].text)
            for word in name.split():
                found = text.find(word, position)
                assert found >= 0, f"{caption}: {name} missing or out of order"
            position = text.find(name.split()[0], position)


def page_words(pdf: Path) -> list[tuple[float, list[tuple[str, float, float]]]]:
    """Each page's width and its words with where they start and end across the page (pdftotext -bbox), in
    points."""
    need("pdftotext")
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in re.split(r"<page ", out)[1:]:
        width = float(re.match(r'width="([\d.]+)"', page).group(1))
        found = re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', page)
        pages.append((width, [(text, float(x0), float(x1)) for x0, x1, text in found]))
    return pages


LONG_TEXTS = {
    "a 250-letter word": "w" * 250,
    "a 120-letter word": "w" * 120,  # narrower than the page, wider than what the other columns leave
    "a long address": "Rules at https://example.com/print-and-play/lantern_lane-rulebook.v2/" + "w" * 150 + ".pdf",
}


@pytest.mark.parametrize("text", LONG_TEXTS.values(), ids=LONG_TEXTS)
def test_a_word_too_long_for_its_table_column_breaks_inside_the_page(tmp_path, text):
    """A card's text with a word wider than its column (or the page) breaks inside the word, after a dot,
    slash, hyphen or underscore where it can: every character printed, in order, the table inside the text
    block (and the booklet's narrower page), its heads apart."""
    folder = tmp_path / "game"
    shutil.copytree(FIXTURE, folder)
    items = folder / "items.yaml"
    old = "Place in your space. Monsters there lose their next attack."
    items.write_text(items.read_text(encoding="utf-8").replace(old, text), encoding="utf-8")
    book = Built(folder, tmp_path / "out", results=demo_results)
    heads = {"Name", "Cost", "Effect"}

    def table_page(pdf: Path) -> tuple[float, list[tuple[str, float, float]]]:
        """The width and words of the items table's page (the cover's fan of cards shows the card too, its
        text running off it), having checked that the page holds the text's pieces one after another."""
        number, page = next((n, page) for n, page in enumerate(page_words(pdf), start=1)
                            if heads <= {w for w, _, _ in page[1]})
        raw = subprocess.run(["pdftotext", "-raw", "-f", str(number), "-l", str(number), str(pdf), "-"],
                             capture_output=True, text=True, check=True).stdout
        assert "".join(text.split()) in "".join(raw.split()), pdf.name  # in content order: none lost
        return page

    geometry = full_page("a4")
    left, right = geometry.inner * PT_PER_MM, (geometry.page[0] - geometry.outer) * PT_PER_MM
    width, words = table_page(book.full)
    outside = [(w[:12], round(x0), round(x1)) for w, x0, x1 in words if x0 < left - 0.5 or x1 > right + 0.5]
    assert not outside, f"text block {left:.0f}-{right:.0f} pt of a page {width:.0f} pt wide"
    head_spans = sorted((x0, x1) for w, x0, x1 in words if w in heads)
    assert len(head_spans) == 3 and all(a[1] < b[0] for a, b in zip(head_spans, head_spans[1:])), head_spans
    if "https://" in text:  # the address breaks after a slash, dot, hyphen or underscore
        first = next(w for w, _, _ in words if w.startswith("https://"))
        assert first != text.split()[-1] and first[-1] in "./-_", first
    shop_width, shop_words = table_page(book.shop)  # a booklet page, with its bleed
    assert all(0 <= x0 and x1 <= shop_width for _, x0, x1 in shop_words)


def test_a_card_text_longer_than_a_page_runs_on_over_the_page_breaks(tmp_path):
    """A row taller than a page breaks inside, between lines: every sentence printed once, in order, each page
    of the table inside the text block with the table's heads repeated."""
    folder = tmp_path / "game"
    shutil.copytree(FIXTURE, folder)
    items = folder / "items.yaml"
    sentences = [f"Sentence-{n} of a card text longer than a page." for n in range(1, 301)]
    old = "Place in your space. Monsters there lose their next attack."
    items.write_text(items.read_text(encoding="utf-8").replace(old, " ".join(sentences)), encoding="utf-8")
    book = Built(folder, tmp_path / "out", results=demo_results)
    pages = [number for number, (_, words) in enumerate(page_words(book.full), start=1)
             if {"Name", "Cost", "Effect"} <= {w for w, _, _ in words}]
    assert len(pages) >= 3, pages  # the row runs over two page breaks, the heads on every page
    raw = subprocess.run(["pdftotext", "-raw", "-f", str(pages[0]), "-l", str(pages[-1]), str(book.full), "-"],
                         capture_output=True, text=True, check=True).stdout
    found = [int(n) for n in re.findall(r"Sentence-(\d+)", raw)]
    assert found == list(range(1, 301))  # each once: a page's part draws only its own lines
    geometry = full_page("a4")
    left, right = geometry.inner * PT_PER_MM, (geometry.page[0] - geometry.outer) * PT_PER_MM
    for width, words in (page_words(book.full)[n - 1] for n in pages):
        outside = [(w[:12], round(x0), round(x1)) for w, x0, x1 in words if x0 < left - 0.5 or x1 > right + 0.5]
        assert not outside, f"text block {left:.0f}-{right:.0f} pt of a page {width:.0f} pt wide"


def test_a_long_card_table_is_laid_out_a_part_at_a_time_with_every_row_once(tmp_path, monkeypatch):
    """A table of hundreds of cards is made into ReportLab tables a part at a time (ReportLab measures all the
    rows left at every page break: quadratic in the rows); each page has the heads and its rows, every card
    once, in order, as the whole table broken by ReportLab printed them."""
    from deckwright.generator.outputs.rulebook import panels

    folder = tmp_path / "game"
    shutil.copytree(FIXTURE, folder)
    items = folder / "items.yaml"
    made_up = "".join(f"  - id: item-{n}\n    name: Item {n}\n    cost: {n % 7}\n    text: Made-up item number {n}.\n"
                      for n in range(1, 301))
    items.write_text(items.read_text(encoding="utf-8").rstrip("\n") + "\n" + made_up, encoding="utf-8")
    parts = []
    made = panels.PartedTable._part
    monkeypatch.setattr(panels.PartedTable, "_part", lambda self, *room: parts.append(len(self.rows)) or made(self, *room))
    book = Built(folder, tmp_path / "out", results=demo_results)
    assert parts and max(parts) > 300 > min(parts)  # the rows left, fewer at each page
    pages = [number for number, (_, words) in enumerate(page_words(book.full), start=1)
             if {"Name", "Cost", "Effect"} <= {w for w, _, _ in words}]
    assert len(pages) >= 4, pages
    raw = subprocess.run(["pdftotext", "-raw", "-f", str(pages[0]), "-l", str(pages[-1]), str(book.full), "-"],
                         capture_output=True, text=True, check=True).stdout
    assert [int(n) for n in re.findall(r"Made-up item number (\d+)\.", raw)] == list(range(1, 301))
    monkeypatch.setattr(panels, "PART_ROWS", 10_000)  # one ReportLab table, broken by ReportLab: the same text
    whole = Built(folder, tmp_path / "whole", results=demo_results)
    assert whole.text("full") == book.text("full")


def test_a_word_too_long_for_a_markdown_table_breaks_and_leaves_the_heads_whole(tmp_path):
    """The page's own Markdown table: a long address breaks inside the text block; the heads, set in bold, are
    measured in bold, so none breaks inside a word."""
    folder = tmp_path / "game"
    shutil.copytree(FIXTURE, folder)
    play = folder / "rulebook" / "play.md"
    address = "https://example.com/" + "w" * 200
    play.write_text(play.read_text(encoding="utf-8").replace("| 2    | lose health  |", f"| 2 | {address} |"),
                    encoding="utf-8")
    book = Built(folder, tmp_path / "out", results=demo_results)
    geometry = full_page("a4")
    left, right = geometry.inner * PT_PER_MM, (geometry.page[0] - geometry.outer) * PT_PER_MM
    _, words = next(page for page in page_words(book.full) if any(w.startswith("https://") for w, _, _ in page[1]))
    assert all(left - 0.5 <= x0 and x1 <= right + 0.5 for _, x0, x1 in words)
    assert {"step", "what", "happens"} <= {w for w, _, _ in words}
    assert "".join(w for w, _, _ in words if set(w) <= set(address)).find(address) >= 0


@pytest.mark.parametrize("slug", ALL)
def test_every_worked_example_shows_its_verdict(built, slug):
    book = built[slug]
    text = words(" ".join(book.text("full")))
    views = [view for _, view in book.book.examples]
    assert len(views) == len(book.results) or slug == "site-demo"
    labels = {"verified": "Verified.", "erratum": "Known erratum.", "failing": "Failing.", "unchecked": "Not checked."}
    starts = [text.find(words(view.name)) for view in views]
    for view, start, end in zip(views, starts, starts[1:] + [len(text)]):
        assert 0 <= start < end, view.name
        assert labels[view.verdict] in text[start:end], f"{view.name}: no verdict '{labels[view.verdict]}'"
    if slug != "site-demo":
        assert [v.verdict for v in views] == [r.verdict for r in book.results]


def test_errata_and_open_questions_have_their_appendix(built):
    book = built["site-demo"]
    text = book.text("full")
    appendix = next(i for i, page in enumerate(text) if "Appendix A: Errata and open questions" in page
                    and "Contents" not in page)
    body = words(" ".join(text[appendix:]))
    assert "The warden shrugs it off" in body and "The made-up source forgets to subtract the bite." in body
    for question in book.game.open_questions:
        assert words(question.note) in body


def test_markdown_reads_as_on_the_site(built):
    """Admonitions, a Markdown table, card fields and constants, and raw HTML shown as text."""
    book = built["site-demo"]
    text = words(" ".join(book.text("full")))
    assert "Setting up Every hero starts with the health printed on their card" in text
    assert "step what happens 1 roll attack 2 lose health" in text
    assert "<script>window.__pwned = 3</script>" in text
    game = book.game
    assert f"draws {game.constants['hand_size']} cards" in text


@pytest.mark.parametrize("slug", ["nightmare-hunt", "site-demo"])
def test_the_index_lists_the_pages_that_name_each_card(built, slug):
    book = built[slug]
    text = book.text("full")
    index_start = max(i for i, page in enumerate(text) if "Index of cards" in page)
    index = " ".join(text[index_start:])
    checked = 0
    for card in book.game.cards:
        match = re.search(re.escape(card.name) + r"\s+\S+(?: \S+)?\s+((?:\d+, )*\d+)", index)
        if not match:
            continue
        for number in (int(n) for n in match.group(1).split(", ")):
            page = words(text[number - 1])  # a name may wrap inside a table cell: each of its words
            assert all(word in page for word in card.name.split()), f"{card.name} is not on page {number}"
            checked += 1
    assert checked >= 5


def test_the_index_orders_names_as_a_reader_looks_them_up():
    from deckwright.rules.problems import reading_order

    assert sorted(["x²", "x10", "x2", "²"], key=reading_order) == ["x2", "x10", "x²", "²"]  # ² is no digit to int()
    names = ["Relic number 10", "relic number 2", "Relic number 1", "Relic number 19", "Alder", "relic number 2b"]
    assert sorted(names, key=reading_order) == ["Alder", "Relic number 1", "relic number 2", "relic number 2b",
                                                "Relic number 10", "Relic number 19"]


@pytest.mark.parametrize("slug", ALL)
def test_fonts_are_embedded(built, slug):
    for pdf in (built[slug].full, built[slug].booklet, built[slug].shop):
        reader = PdfReader(pdf)
        fonts = {}

        def collect(resources):
            resources = resources.get_object() if resources is not None else {}
            for font in (resources.get("/Font") or {}).values():
                font = font.get_object()
                fonts[str(font["/BaseFont"])] = font
            for xobject in (resources.get("/XObject") or {}).values():
                xobject = xobject.get_object()
                if xobject.get("/Subtype") == "/Form":
                    collect(xobject.get("/Resources"))

        for page in reader.pages:
            collect(page.get("/Resources"))
        assert fonts
        for name, font in fonts.items():
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in descendant["/FontDescriptor"], f"{pdf.name}: {name} is not embedded"


@pytest.mark.parametrize("slug", ALL)
def test_qpdf_finds_no_problem(built, slug):
    need("qpdf")
    for pdf in (built[slug].full, built[slug].booklet, built[slug].shop):
        result = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_print_shop_pages_have_bleed_trim_and_bleed_boxes(built):
    reader = PdfReader(built["nightmare-hunt"].shop)
    a5_w, a5_h = 148.0, 210.0  # ISO A5 (half of A4 is 148.5 mm wide)
    b = SHOP_BLEED
    sheets = PdfReader(built["nightmare-hunt"].booklet).pages
    assert len(reader.pages) == 2 * len(sheets) and len(reader.pages) % 4 == 0  # padded as the booklet is
    for page in reader.pages:
        media = [float(v) / PT_PER_MM for v in page.mediabox]
        trim = [float(v) / PT_PER_MM for v in page.trimbox]
        bleed = [float(v) / PT_PER_MM for v in page.bleedbox]
        assert media == pytest.approx([0, 0, a5_w + 2 * b, a5_h + 2 * b], abs=0.01)
        assert trim == pytest.approx([b, b, b + a5_w, b + a5_h], abs=0.01)
        assert bleed == pytest.approx(media, abs=0.01)


def test_the_cover_names_the_game_its_players_and_summary(built):
    book = built["nightmare-hunt"]
    cover = words(book.text("full")[0])
    assert "Nightmare Hunt" in cover and "1 player" in cover
    assert words(book.game.summary)[:60] in cover
    verified = sum(1 for result in book.results if result.verdict == "verified")
    assert verified == len(book.results) > 10
    assert f"{verified} worked examples, each replayed by the rules engine: {verified} verified" in cover


def test_running_headers_name_the_game_and_the_chapter(built):
    book = built["nightmare-hunt"]
    listed = dict(contents(book, "full"))  # the last "Armour" is the chapter (the first a section of Setting up)
    page = book.text("full")[listed["Armour"]]  # the page after the one the chapter starts on
    header = page.splitlines()[0]
    assert "NIGHTMARE HUNT" in header and "Armour" in header


def test_letter_paper_makes_letter_pages_and_a_half_letter_booklet(tmp_path):
    built = Built(FIXTURE, tmp_path, "letter", results=demo_results)
    full = PdfReader(built.full).pages[0].mediabox
    assert (round(float(full[2]) / 72, 2), round(float(full[3]) / 72, 2)) == (8.5, 11.0)
    sheet = PdfReader(built.booklet).pages[0].mediabox
    assert (round(float(sheet[2]) / 72, 2), round(float(sheet[3]) / 72, 2)) == (11.0, 8.5)
    shop = PdfReader(built.shop).pages
    page = shop[0].trimbox
    assert (round((float(page[2]) - float(page[0])) / 72, 2), round((float(page[3]) - float(page[1])) / 72, 2)) \
        == (5.5, 8.5)
    assert len(shop) == 2 * len(PdfReader(built.booklet).pages) and len(shop) % 4 == 0


def test_print_shop_pages_made_from_the_booklet_look_like_pages_drawn_for_the_print_shop(tmp_path):
    """With the booklet, the print-shop file places the booklet's page forms (outputs.rulebook.printshop);
    without it, it draws its pages itself. Both render to the same pixels."""
    need("pdftoppm")
    game = load_game(FIXTURE)
    faces, results = Faces(game), demo_results(game)
    write_rulebooks(game, faces, results, tmp_path / "both", "a4")
    write_rulebooks(game, faces, results, tmp_path / "shop", "a4", home=False)
    renders = []
    for folder in ("both", "shop"):
        pdf = tmp_path / folder / "printshop" / PRINTSHOP
        subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(tmp_path / folder / "page")], check=True)
        renders.append(sorted((tmp_path / folder).glob("page-*.png")))
    derived, drawn = renders
    assert len(derived) == len(drawn) == len(PdfReader(tmp_path / "shop" / "printshop" / PRINTSHOP).pages) > 4
    for a, b in zip(derived, drawn):
        assert a.read_bytes() == b.read_bytes(), a.name
    titles = {PdfReader(tmp_path / folder / "printshop" / PRINTSHOP).metadata.title for folder in ("both", "shop")}
    assert titles == {f"{game.title}: rulebook, print-shop pages"}


def test_a_rebuild_writes_the_same_bytes(tmp_path):
    first = Built(FIXTURE, tmp_path / "one", results=demo_results)
    second = Built(FIXTURE, tmp_path / "two", results=demo_results)
    for a, b in ((first.full, second.full), (first.booklet, second.booklet), (first.shop, second.shop)):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_the_site_offers_both_pdfs_on_every_rulebook_page(built, tmp_path):
    from deckwright.generator.site import build_site

    book = built["site-demo"]
    site = tmp_path / "site"
    build_site([book.game], site, downloads={book.game.slug: [book.full, book.booklet]})
    folder = site / book.game.slug
    assert (folder / FULL).read_bytes() == book.full.read_bytes()
    assert (folder / BOOKLET).read_bytes() == book.booklet.read_bytes()
    for page in book.game.pages:
        html = (folder / "rules" / f"{page.id}.html").read_text()
        assert f'href="../{FULL}"' in html and f'href="../{BOOKLET}"' in html
    assert f'href="{FULL}"' in (folder / "index.html").read_text()


def test_links_leave_the_book_only_for_web_and_mail_addresses(tmp_path):
    """A page's link to a missing heading or with any other scheme keeps its words and loses the link."""
    folder = tmp_path / "game"
    shutil.copytree(FIXTURE, folder)
    intro = folder / "rulebook" / "intro.md"
    intro.write_text(intro.read_text() + "\n\nSee [the source](https://example.org/lantern), [mail](mailto:a@b.c), "
                     "[a trap](javascript:alert(1)), [nothing](play.md#no-such-heading) and "
                     "[data](data:text/html,x).\n")
    built = Built(folder, tmp_path / "out", results=demo_results)
    uris = []
    for page in PdfReader(built.full).pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action is not None and "/URI" in action:
                uris.append(str(action["/URI"]))
    assert sorted(uris) == ["https://example.org/lantern", "mailto:a@b.c"]
    text = words(" ".join(built.text("full")))
    assert "See the source, mail, a trap, nothing and data." in text


def test_a_game_without_rulebook_pages_gets_no_rulebook(tmp_path):
    import dataclasses

    game = dataclasses.replace(load_game(FIXTURE), pages=())
    assert write_rulebooks(game, Faces(game), [], tmp_path, "a4") == []
    assert list(tmp_path.iterdir()) == []


def tiny_with_page(tmp_path: Path, text: str) -> Built:
    """The tiny test game with ``text`` as its one rulebook page, its rulebooks written."""
    folder = tmp_path / "game"
    shutil.copytree(TINY, folder)
    (folder / "rulebook" / "intro.md").write_text(text, encoding="utf-8")
    return Built(folder, tmp_path / "out", results=lambda game: [])


SECOND_TITLES = {"atx": ("# Second part\n", "Second part"), "setext": ("Second part\n===========\n", "Second part"),
                 "bare": ("#\n", "")}


@pytest.mark.parametrize("second", SECOND_TITLES.values(), ids=SECOND_TITLES)
def test_a_second_level_one_heading_is_a_section_with_its_bookmark_and_link(tmp_path, second):
    """The page's first level-1 heading is its title; another is a section of the chapter, as the contents list
    it: printed, bookmarked, and a link to it goes to its page (its destination was never defined)."""
    markdown, title = second
    book = tiny_with_page(tmp_path, f"# Introduction\n\nSee [below](#{'second-part' if title else '_1'}).\n\n"
                                    f"{markdown}\nMore text.\n")
    marks = outline_of(book.full)
    assert [(level, name) for level, name, _ in marks[:3]] == [(0, "Contents"), (0, "Introduction"), (1, title)]
    page = marks[2][2]
    assert words(f"{title} More text.") in words(book.text("full")[page - 1])
    assert [(level, name) for level, name, _ in marks[1:]] == [(e.level, e.title) for e in
                                                               chapter_entries(book.book) + back_entries(book.book)]
    reader = PdfReader(book.full)
    targets = [annotation.get_object()["/Dest"][0].idnum for annotation in reader.pages[page - 1].get("/Annots") or []
               if "/Dest" in annotation.get_object()]
    assert reader.pages[page - 1].indirect_reference.idnum in targets  # "below" goes to this page


def test_words_before_the_title_follow_it_and_the_title_is_bookmarked_once(tmp_path):
    """The chapter opened with a title made from the page and printed the real one below the words, both
    bookmarked under one destination."""
    book = tiny_with_page(tmp_path, "Opening words.\n\n# Introduction\n\nMore text.\n")
    marks = outline_of(book.full)
    assert [name for level, name, _ in marks if level == 0].count("Introduction") == 1
    page = next(page for level, name, page in marks if name == "Introduction")
    text = words(book.text("full")[page - 1])
    assert text.count("Introduction") == 2 and "Introduction Opening words. More text." in text  # (and the running head)


def test_a_comment_in_a_code_sample_is_not_the_pages_title():
    assert page_title("```python\n# not a title\n```\n\n# Setup\n", "setup-page") == "Setup"
    assert page_title("```\n# code\n```\n", "setup-page") == "Setup Page"


def test_a_run_of_headings_is_kept_with_what_follows_without_nesting(tmp_path):
    """Headings in a row are one keep-with-next, not one inside another (2,000 of them exhausted Python's
    recursion as the layout measured each inside the next, and 150 took most of a minute)."""
    folder = tmp_path / "game"
    shutil.copytree(TINY, folder)
    text = "# Rules\n\n" + "".join(f"## H{n}\n" for n in range(2000)) + "\nThe end.\n"
    (folder / "rulebook" / "intro.md").write_text(text, encoding="utf-8")
    game = load_game(folder)
    book = ParsedBook(game, Faces(game), [])
    flowables = PageFlow(book, Theme(game, full_page("a4"), book.faces.fonts), book.pages[0], 400).flowables()
    kept = [f for f in flowables if isinstance(f, KeepWithNext)]
    assert len(kept) == 1 and len(kept[0]._content) == 2002  # the title, 2,000 headings, the paragraph
    assert not any(isinstance(f, KeepWithNext) for f in kept[0]._content)


def test_a_page_of_headings_taller_than_a_page_is_laid_out_in_linear_time(tmp_path, monkeypatch):
    """A run of headings taller than a page breaks where each page ends, every heading printed once in order; the
    layout measures each heading a few times, not once per heading before it (it took 51 s for 150 headings)."""
    wraps = []
    measured = document.Para.wrap
    monkeypatch.setattr(document.Heading, "wrap", lambda self, *size: wraps.append(1) or measured(self, *size))
    count = 60
    book = tiny_with_page(tmp_path, "# Rules\n\nOpening.\n\n" + "".join(f"## H{n}\n" for n in range(count))
                          + "\nThe end.\n")
    body = "\n".join(book.text("full"))
    printed = [int(n) for n in re.findall(r"^\s*H(\d+)\s*$", body, re.MULTILINE)]
    assert printed == list(range(count))
    assert len(wraps) < 10 * count  # two layouts (full page, booklet), a few measurements each: 253 (was 51,914)
    pages = [number for number, text in enumerate(book.text("full"), start=1) if re.search(r"^\s*H\d+\s*$", text, re.M)]
    assert len(pages) >= 2 and "The end." in book.text("full")[pages[-1] - 1]
    assert words("Opening. H0 H1") in words(body)
