"""Pictures in rulebook pages (``rules.book.pictures``): found as Python-Markdown reads them; each one ``check``
refuses is an error at its ``!``; each good one is copied once into the site's ``images/`` and shown from there,
and drawn in the printed rulebook where the text has it, at no more than its size at 300 dpi.

The bad-input corpus (``tests/bad_inputs/rulebook_picture_*`` and the generated picture cases of
``test_bad_inputs.py``) prints the exact line of each bad case through a real process, and checks that a failed
build leaves the earlier output as it was.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import need_tools
from pypdf import PdfReader

from deckwright.generator.book.markdown import EXTENSIONS, page_tree
from deckwright.generator.layout.faces import Faces
from deckwright.generator.outputs.rulebook import FULL, write_rulebooks
from deckwright.generator.site import build_site
from deckwright.rules.book.pictures import page_images
from deckwright.rules.load import load_game, load_game_with_warnings

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"

SCANNED_PAGE = r"""# Pictures

![plain](a.png) and ![titled](b.png "The B") and ![single](c.png 'C')
![angled](<my map.png> "Map") ![parens](d_(1).png) ![spaced](my%20map.png)
![escaped \] bracket](e\_f.png)
`![in code](no.png)` and ``![in ` code](no.png)`` and \![escaped bang](no.png)

```
![fenced](no.png)
```

- ![in a list](g.png)

> ![in a quote](h.png)

[![linked](i.png)](https://example.com) ![two
lines](k.png)

![by reference][ref] ![ref] ![Ref][] ![undefined][nothing] ![nothing]

[ref]: j.png "J"
"""


def markdown_pictures(text: str) -> list[tuple[str, str, str | None]]:
    """(src, alt, title) of every picture Python-Markdown makes of ``text``, configured as for rulebook pages."""
    import markdown

    md = markdown.Markdown(extensions=list(EXTENSIONS))
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return [(image.get("src"), image.get("alt"), image.get("title")) for image in page_tree(md, text).iter("img")]


def test_the_pictures_found_are_those_markdown_makes():
    found = page_images(SCANNED_PAGE, "pictures.md")
    assert [(image.src, image.alt, image.title) for image in found] == markdown_pictures(SCANNED_PAGE)
    assert [image.src for image in found] == ["a.png", "b.png", "c.png", "my map.png", "d_(1).png", "my%20map.png",
                                              "e_f.png", "g.png", "h.png", "i.png", "k.png", "j.png", "j.png", "j.png"]
    assert [(image.loc.line, image.loc.col) for image in found] == [
        (3, 1), (3, 21), (3, 50), (4, 1), (4, 31), (4, 52), (5, 1), (12, 3), (14, 3), (16, 2), (16, 41), (19, 1),
        (19, 22), (19, 29)]


def picture(path: Path, size: tuple[int, int], fmt: str = "PNG") -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, (238, 226, 200))
    ImageDraw.Draw(image).rectangle([size[0] // 10, size[1] // 10, size[0] * 9 // 10, size[1] * 9 // 10],
                                    outline=(128, 80, 32), width=max(2, size[0] // 100))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, fmt)


def add_to_page(game: Path, page: str, text: str) -> None:
    path = game / "rulebook" / page
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def test_every_bad_use_is_located_and_a_picture_in_code_is_not_read(tmp_path):
    game = tmp_path / "site-demo"
    shutil.copytree(FIXTURE, game)
    picture(game / "art" / "board.png", (40, 20))
    (game / "art" / "notes.png").write_text("not a picture\n")
    add_to_page(game, "intro.md", "![a](../art/board.png) ![b](../art/notes.png)\n\n"
                                  "`![c](../art/none.png)`\n\n- ![d](../art/notes.png) ![e](../art/none.png)")
    add_to_page(game, "play.md", "![f](../art/notes.png)")
    intro = (game / "rulebook" / "intro.md").read_text().count("\n")
    play = (game / "rulebook" / "play.md").read_text().count("\n")
    game_loaded, problems = load_game_with_warnings(game)
    assert game_loaded is None
    assert [(p.loc.file, p.loc.line, p.loc.col, p.message) for p in problems.errors] == [
        (str(game / "rulebook" / "intro.md"), intro - 4, 24,
         "picture: '../art/notes.png' is not a PNG or JPEG image deckwright can read (not a picture file)"),
        (str(game / "rulebook" / "intro.md"), intro, 3,
         "picture: '../art/notes.png' is not a PNG or JPEG image deckwright can read (not a picture file)"),
        (str(game / "rulebook" / "intro.md"), intro, 26,
         "picture: no image '../art/none.png' in the game folder; did you mean '../art/notes.png'? (looked for "
         "art/none.png)"),
        (str(game / "rulebook" / "play.md"), play, 1,
         "picture: '../art/notes.png' is not a PNG or JPEG image deckwright can read (not a picture file)"),
    ]


BEFORE = "Before the board picture: lay the lanes out side by side."
AFTER = "After the board picture: the scout moves first."
PICTURES = f"""{BEFORE}

![The board at the start](../art/board.png "Setup")

{AFTER}

![a photograph of a game in play](../art/photo.jpg)

After the photograph."""


@pytest.fixture(scope="module")
def game_with_pictures(tmp_path_factory) -> Path:
    game = tmp_path_factory.mktemp("pictures") / "site-demo"
    shutil.copytree(FIXTURE, game)
    picture(game / "art" / "board.png", (1200, 600))  # 4 x 2 inches at 300 dpi
    picture(game / "art" / "photo.jpg", (4000, 2000), "JPEG")  # wider than the column at 300 dpi
    add_to_page(game, "intro.md", PICTURES)
    add_to_page(game, "play.md", "The board again: ![the board](../art/board.png)")
    return game


class Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[dict] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.found.append(dict(attrs))


@pytest.fixture(scope="module")
def site(game_with_pictures, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("out") / "site"
    build_site([load_game(game_with_pictures)], target, reports={})
    return target


def test_the_site_shows_each_picture_from_its_one_copy(site, game_with_pictures):
    shown = {}
    for page in ("intro", "play"):
        html_file = site / "site-demo" / "rules" / f"{page}.html"
        parser = Images()
        parser.feed(html_file.read_text(encoding="utf-8"))
        for image in parser.found:
            assert re.fullmatch(r"\.\./images/[a-z0-9-]+\.(png|jpg)", image["src"])
            shown[image["alt"]] = image, (html_file.parent / image["src"]).resolve()
    board, board_file = shown["The board at the start"]
    assert (board["width"], board["height"], board["title"]) == ("1200", "600", "Setup")
    assert board_file.read_bytes() == (game_with_pictures / "art" / "board.png").read_bytes()
    assert shown["the board"][1] == board_file  # the same picture on another page: the same copy
    photo, photo_file = shown["a photograph of a game in play"]
    assert (photo["width"], photo["height"]) == ("4000", "2000")
    assert photo_file.read_bytes() == (game_with_pictures / "art" / "photo.jpg").read_bytes()
    copies = [path.name for path in (site / "site-demo" / "images").iterdir()]
    assert board_file.name in copies and photo_file.name in copies
    assert [name for name in copies if name.startswith("board-")] == [board_file.name]


def test_no_page_of_the_site_names_a_path_of_the_machine(site, game_with_pictures):
    root = str(game_with_pictures.parent)
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert root not in text and "file:" not in text, page


def test_a_picture_never_overflows_the_text_column(site, browser):
    page = browser.new_page(viewport={"width": 520, "height": 900})
    page.goto((site / "site-demo" / "rules" / "intro.html").as_uri())
    page.wait_for_load_state("load")
    sizes = page.evaluate("""() => [...document.querySelectorAll('article.prose img')].map(img => ({
        right: img.getBoundingClientRect().right, width: img.getBoundingClientRect().width,
        height: img.getBoundingClientRect().height, loaded: img.complete && img.naturalWidth > 0,
        column: img.closest('article').getBoundingClientRect().right}))""")
    page.close()
    assert len(sizes) == 2
    for size in sizes:
        assert size["loaded"]
        assert 0 < size["right"] <= size["column"] + 0.5
        assert size["width"] == pytest.approx(size["height"] * 2, abs=1)  # its shape kept


@pytest.fixture(scope="module")
def rulebook(game_with_pictures, tmp_path_factory) -> Path:
    game = load_game(game_with_pictures)
    out = tmp_path_factory.mktemp("rulebook")
    write_rulebooks(game, Faces(game), [], out, "a4")
    return out / FULL


def page_texts(pdf: Path) -> list[str]:
    need_tools("pdftotext", package="poppler-utils")
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [" ".join(page.split()) for page in out.split("\f")[:-1]]


def placed_images(pdf: Path) -> list[tuple[int, int, int, float]]:
    """(page, width, height in pixels, pixels per inch across) of every image drawn, from ``pdfimages -list``."""
    need_tools("pdfimages", package="poppler-utils")
    out = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()[2:]]
    return [(int(row[0]), int(row[3]), int(row[4]), float(row[12])) for row in rows if row[2] == "image"]


def first_page(texts: list[str], words: str) -> int:
    return next(number for number, text in enumerate(texts, start=1) if words in text)


def test_the_rulebook_draws_each_picture_where_the_text_has_it(rulebook):
    texts = page_texts(rulebook)
    placed = placed_images(rulebook)
    board = [image for image in placed if image[1:3] == (1200, 600)]
    assert len(board) == 2  # on two pages of the book; one image in the file (pdfimages lists it on each)
    on = board[0][0]
    assert first_page(texts, BEFORE) <= on == first_page(texts, "The board at the start") <= first_page(texts, AFTER)
    assert board[0][3] == 300.0  # its size at 300 dpi: 4 inches, narrower than the column
    photo = next(image for image in placed if image[1:3] == (4000, 2000))
    column_inches = 150 / 25.4  # full_page: a 150 mm column on A4
    assert photo[3] == pytest.approx(4000 / column_inches, rel=0.01)  # shrunk to the column's width
    assert first_page(texts, AFTER) <= photo[0] <= first_page(texts, "After the photograph.")
    assert "The board again:" in texts[board[1][0] - 1]


def test_a_titled_picture_has_its_alt_text_as_caption(rulebook):
    text = " ".join(page_texts(rulebook))
    assert text.index(BEFORE) < text.index("The board at the start") < text.index(AFTER)
    assert "a photograph of a game in play" not in text  # no title: no caption
    reader = PdfReader(rulebook)
    assert sum(len(page.images) for page in reader.pages) >= 3


def test_serve_copies_a_picture_before_its_page_is_written_and_a_changed_one_anew(game_with_pictures, tmp_path):
    from deckwright.generator.serve.live import LiveSite

    game = tmp_path / "site-demo"
    shutil.copytree(game_with_pictures, game)
    live = LiveSite(game, tmp_path / "site")
    live.rebuild(urgent={"site-demo/cards.html"})  # the rule pages are left for later ...
    images = tmp_path / "site" / "site-demo" / "images"
    assert [path.name for path in images.glob("board-*.png")]  # ... their pictures are there already
    live.finish()
    intro = tmp_path / "site" / "site-demo" / "rules" / "intro.html"

    def board_src() -> str:
        return re.search(r'<img alt="The board at the start"[^>]* src="([^"]+)"', intro.read_text()).group(1)

    before = board_src()
    picture(game / "art" / "board.png", (1200, 601))
    live.rebuild(layouts_changed=False)
    live.finish()
    assert board_src() != before and (intro.parent / board_src()).is_file()
    assert 'height="601"' in intro.read_text()


def test_serve_reads_again_only_the_pictures_changed_since_its_last_reading(game_with_pictures, tmp_path,
                                                                           monkeypatch):
    import deckwright.rules.book.pictures as pictures
    from deckwright.generator.serve.live import LiveSite

    read, real_read = [], pictures.read_image
    monkeypatch.setattr(pictures, "read_image", lambda root, path, src: read.append(src) or real_read(root, path, src))
    game = tmp_path / "site-demo"
    shutil.copytree(game_with_pictures, game)
    live = LiveSite(game, tmp_path / "site")
    assert not live.rebuild().errors
    assert sorted(read) == ["../art/board.png", "../art/photo.jpg"]  # once each, though two pages show the board
    read.clear()
    edit = game / "rulebook" / "play.md"
    edit.write_text(edit.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert not live.rebuild(layouts_changed=False).errors
    assert read == []  # a text edit: no picture decoded again
    picture(game / "art" / "board.png", (1200, 601))
    assert not live.rebuild(layouts_changed=False).errors
    assert read == ["../art/board.png"]  # the changed picture, and it alone
    read.clear()
    (game / "art" / "photo.jpg").chmod(0o600)  # its mode alone (as when an unreadable picture is made readable)
    assert not live.rebuild(layouts_changed=False).errors
    assert read == ["../art/photo.jpg"]
    (game / "art" / "photo.jpg").write_bytes(b"GIF89a not a picture any more")
    update = live.rebuild(layouts_changed=False)
    assert any("photo.jpg" in error and "not a PNG or JPEG" in error for error in update.errors), update.errors


def test_a_figure_is_its_size_at_300_dpi_at_most_the_column_wide_and_the_page_high(tmp_path):
    from deckwright.generator.outputs.rulebook.figures import Figure

    def size(pixels, column=400.0):
        return Figure(tmp_path, tmp_path / "x.png", pixels, tallest=500.0).wrap(column, 100.0)

    assert size((300, 150)) == pytest.approx((72.0, 36.0))  # one inch: never enlarged
    assert size((3000, 1500)) == pytest.approx((400.0, 200.0))  # ten inches: the column's width
    assert size((600, 6000)) == pytest.approx((50.0, 500.0))  # twenty inches high: the most a page holds
