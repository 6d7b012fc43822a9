"""A game folder carries its own fonts (issue 14): ``fonts/fonts.yaml`` in the shipped format.

The test font is a shipped TrueType file (Open Sans Condensed Bold) copied into the tiny game under a new
family name, so what it draws can be compared, pixel for pixel, with the shipped family drawn from the
same file, and told apart from another family.
"""
from __future__ import annotations

import io
import json
import re
import struct
from contextlib import contextmanager
from pathlib import Path

import pytest

from deckwright.generator import cli
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.layout.fitcheck import layout_warnings
from deckwright.generator.layout.fonts import FONT_DIR, game_fonts
from deckwright.generator.layout.sfnt import embedding_problem, tables
from deckwright.generator.outputs.print_pdfs import write_printshop_pdf
from deckwright.generator.render.raster import Rasterizer
from deckwright.generator.serve.watch import LAYOUTS, kind_of_change
from deckwright.rules.load import load_game

ROOT = Path(__file__).resolve().parent.parent

CONDENSED = FONT_DIR / "open-sans" / "OpenSans-CondBold.ttf"  # PostScript name OpenSans-CondensedBold
BLACK = FONT_DIR / "vollkorn" / "Vollkorn-Black.ttf"
MANIFEST = "fonts/fonts.yaml"


def hero_in(family: str, style: str = "bold") -> str:
    return ("boxes:\n"
            '  paper: {kind: rect, left: 0, top: 0, right: 0, bottom: 0, fill: "#fdfaf3", bleed: true}\n'
            f'  name: {{kind: text, left: 5, top: 5, right: 5, height: 14, text: "{{{{ card.name }}}}", '
            f'font: {family}, font_style: {style}, size: 20, color: "#222222"}}\n')


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # messages name tiny/fonts/fonts.yaml


@pytest.fixture
def font_game(tiny):
    """The tiny game with its own family, 'Test Display' (bold: a copy of Open Sans Condensed Bold), and its licence."""
    def make(manifest: str = "Test Display:\n  bold: Display.ttf\n", font: bytes | None = None,
             licence: bool = True, family: str = "Test Display", name: str = "tiny", **files) -> Path:
        content = {MANIFEST: manifest, "fonts/Display.ttf": CONDENSED.read_bytes() if font is None else font,
                   "layouts/hero.yaml": hero_in(family), **files}
        if licence:
            content["fonts/OFL.txt"] = "SIL Open Font License 1.1 (test copy)\n"
        return tiny(content, name=name)
    return make


def problems_of(game: Path, severity: str = "error") -> list[str]:
    return [str(p) for p in layout_warnings(load_game(game)) if p.severity == severity]


# -- every output uses the game's family ------------------------------------------------------------


def test_the_built_pngs_print_shop_and_tabletop_draw_the_games_font(font_game, tmp_path):
    """Drawn in worker processes, which get the font's bytes: the same pixels as the shipped family of that file."""
    from PIL import Image, ImageChops

    for folder in (font_game(), font_game(family="Open Sans Condensed", name="shipped")):
        assert cli.main(["build", str(folder), "--out", str(tmp_path / "out" / folder.name)]) == 0
    for image in ("print/printshop/heroes/01-knight.png", "tts/images/deck-heroes-1.png"):
        own, shipped = (Image.open(tmp_path / "out" / name / "tiny" / image).convert("RGB") for name in ("tiny", "shipped"))
        assert ImageChops.difference(own, shipped).getbbox() is None, image


def test_a_pdf_embeds_a_subset_of_the_games_font(font_game, tmp_path):
    from pypdf import PdfReader

    game = load_game(font_game())
    faces = Faces(game)
    target = tmp_path / "heroes.pdf"
    write_printshop_pdf(str(target), game, faces, game.decks["heroes"], backs=False)
    reader = PdfReader(target)
    assert "Knight" in reader.pages[0].extract_text()
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts[str(font["/BaseFont"])] = font
    condensed = [name for name in fonts if re.fullmatch(r"/[A-Z]{6}\+OpenSans-CondensedBold", name)]
    assert condensed, sorted(fonts)
    descriptor = fonts[condensed[0]]["/FontDescriptor"].get_object()
    embedded = descriptor["/FontFile2"].get_object().get_data()
    assert embedded[:4] == b"\x00\x01\x00\x00"  # TrueType (glyf) outlines ...
    assert len(embedded) < CONDENSED.stat().st_size / 4  # ... a subset: the letters of four card names, not the font


def test_layouts_see_the_family_by_its_name_and_text_is_measured_in_it(font_game):
    game = load_game(font_game())
    faces = Faces(game)
    face = faces.fonts.face("Test Display", "bold")
    assert face.family == "Test Display" and face.family_id.startswith("Test Display~")
    texts = [item for item in faces.front(game.card("knight")).items if type(item).__name__ == "Text"]
    assert [t.font for t in texts] == [face.name]
    assert texts[0].width == pytest.approx(faces.fonts.width(face.name, "Knight") * 20 * 25.4 / 72, rel=1e-3)  # mm


def picture(game_folder: Path):
    game = load_game(game_folder)
    faces = Faces(game)
    return Rasterizer(faces.fonts).image(faces.front(game.card("knight")), dpi=150, bleed=False)


def test_the_raster_draws_the_games_font(font_game, tmp_path):
    """Drawn in the game's family, the name is pixel for pixel the shipped family of the same file, and not
    what another family draws."""
    from PIL import ImageChops

    own = picture(font_game())
    same_file = picture(font_game(family="Open Sans Condensed", name="shipped"))
    other = picture(font_game(family="Vollkorn", name="other"))
    assert ImageChops.difference(own.convert("RGB"), same_file.convert("RGB")).getbbox() is None
    difference = ImageChops.difference(own.convert("RGB"), other.convert("RGB")).getbbox()
    assert difference is not None and difference[1] < own.height * 0.25  # they differ in the name box, at the top


def test_the_site_serves_the_font_with_its_licence(font_game, tmp_path):
    from deckwright.generator.site.build import write_site

    game = load_game(font_game())
    site = tmp_path / "site"
    site.mkdir()
    write_site([game], site)
    family_id = game_fonts(game.root).face("Test Display", "bold").family_id
    css = (site / "tiny" / "fonts" / "fonts.css").read_text()
    served = re.search(rf'font-family: "{re.escape(family_id)}"; font-weight: 700; font-style: normal; '
                       r'src: url\("([^"]+)"\)', css)
    assert served, css
    assert (site / "tiny" / "fonts" / served.group(1)).read_bytes() == CONDENSED.read_bytes()
    assert (site / "tiny" / "fonts" / "Display-OFL.txt").read_text().startswith("SIL Open Font License")
    gallery = (site / "tiny" / "cards.html").read_text()
    assert '<link rel="stylesheet" href="fonts/fonts.css">' in gallery
    assert f'font-family="\'{family_id}\'" font-weight="700"' in gallery  # quoted: "~" is no CSS identifier
    rules = next((site / "tiny" / "rules").glob("*.html")).read_text()
    assert '<link rel="stylesheet" href="../fonts/fonts.css">' in rules
    assert "fonts/fonts.css" not in (site / "index.html").read_text()


def test_a_browser_draws_the_cards_in_the_games_font(font_game, tmp_path, browser):
    """A browser loads a font face only when text on the page is set in it: the card pictures are."""
    from deckwright.generator.site.build import write_site

    game = load_game(font_game())
    site = tmp_path / "site"
    site.mkdir()
    write_site([game], site)
    family_id = game_fonts(game.root).face("Test Display", "bold").family_id
    page = browser.new_page()
    faces = "Array.from(document.fonts).filter(f => f.family.replace(/[\"']/g, '') == family).map(f => f.status)"
    try:
        page.goto((site / "tiny" / "cards.html").as_uri())
        page.wait_for_function(f"(family) => {faces}.join() == 'loaded'", arg=family_id, timeout=10_000)
        status = page.evaluate(f"(family) => {faces}", family_id)
    finally:
        page.close()
    assert status == ["loaded"]


@contextmanager
def http_server(folder: Path):
    """``folder`` served on a free port of this computer, for the length of the block (a browser reports the
    requests of a page served over HTTP, not of one opened from disk)."""
    import threading
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_the_site_sets_a_replaced_family_in_the_games_font(font_game, tmp_path, browser):
    """A game replacing Vollkorn: its rulebook pages (Vollkorn is the site's serif) load the game's file, in every
    style the page asks for, and never the shipped Vollkorn."""
    from deckwright.generator.site.build import write_site

    game = load_game(font_game("Vollkorn:\n  regular: Display.ttf\n", family="Vollkorn", name="shadow"))
    site = tmp_path / "site"
    site.mkdir()
    write_site([game], site)
    css = (site / "tiny" / "fonts" / "fonts.css").read_text()
    file = re.search(r'src: url\("(Display-[0-9a-f]{12}\.ttf)"\)', css).group(1)
    for weight, style in ((400, "normal"), (700, "normal"), (900, "normal"), (400, "italic")):
        assert (f'font-family: "Vollkorn"; font-weight: {weight}; font-style: {style}; src: url("{file}")') in css
    loaded = []
    page = browser.new_page()
    page.on("request", lambda request: loaded.append(request.url.split("/")[-1]))
    try:
        with http_server(site) as url:
            page.goto(f"{url}/tiny/rules/intro.html")
            page.evaluate("document.fonts.ready")
    finally:
        page.close()
    assert file in loaded
    assert not [name for name in loaded if name.startswith("Vollkorn")], loaded
    assert "OpenSans-Regular.ttf" in loaded  # the family it does not replace: the site's


# -- games do not see each other's fonts --------------------------------------------------------------


def test_two_games_with_a_family_of_the_same_name_keep_their_own(font_game, tmp_path):
    from pypdf import PdfReader

    first = load_game(font_game(name="first"))
    second = load_game(font_game(name="second", font=BLACK.read_bytes()))
    names = []
    for game in (first, second, first):  # one process, one ReportLab registry, in turn
        faces = Faces(game)
        target = tmp_path / f"{game.root.name}.pdf"
        write_printshop_pdf(str(target), game, faces, game.decks["heroes"], backs=False)
        page = PdfReader(target).pages[0]
        names.append({str(f.get_object()["/BaseFont"]).split("+")[1] for f in page["/Resources"]["/Font"].values()})
    assert "OpenSans-CondensedBold" in names[0] and "Vollkorn-Black" not in names[0]
    assert "Vollkorn-Black" in names[1] and "OpenSans-CondensedBold" not in names[1]
    assert names[2] == names[0]
    assert game_fonts(first.root).face("Test Display").name != game_fonts(second.root).face("Test Display").name


def test_a_game_family_replaces_a_shipped_one_of_its_name_with_a_note(font_game):
    folder = font_game("Vollkorn:\n  bold: Display.ttf\n", family="Vollkorn")
    notes = problems_of(folder, "note")
    assert notes == ["tiny/fonts/fonts.yaml:1:1: note: font family 'Vollkorn' is the game's own: it replaces the "
                     "shipped family of that name in this game's cards, sheets, rulebook and site"]
    assert problems_of(folder) == []
    fonts = game_fonts(folder)
    assert fonts.face("Vollkorn", "bold").path.name == "Display.ttf"
    assert fonts.face("Vollkorn", "regular").path.name == "Display.ttf"  # the game's family whole, its one style
    assert picture(folder).tobytes() == picture(font_game(family="Open Sans Condensed", name="shipped")).tobytes()


# -- fonts deckwright cannot embed ----------------------------------------------------------------------


def with_fs_type(data: bytes, bits: int) -> bytes:
    """The font with its OS/2 fsType set to ``bits``, and the OS/2 table's checksum in the directory fixed."""
    out = bytearray(data)
    offset, length = tables(data)[b"OS/2"]
    struct.pack_into(">H", out, offset + 8, bits)
    table = bytes(out[offset:offset + length]) + b"\0" * (-length % 4)
    checksum = sum(struct.unpack(f">{len(table) // 4}L", table)) & 0xFFFFFFFF
    count = struct.unpack_from(">H", data, 4)[0]
    for index in range(count):
        entry = 12 + 16 * index
        if out[entry:entry + 4] == b"OS/2":
            struct.pack_into(">L", out, entry + 4, checksum)
    return bytes(out)


def otto() -> bytes:
    """An OpenType font with CFF outlines, as far as its header goes: the tag, one table, its directory entry."""
    table = b"\x01\x00\x04\x02" + b"\0" * 12
    return b"OTTO" + struct.pack(">HHHH", 1, 16, 0, 0) + struct.pack(">4sLLL", b"CFF ", 0, 28, len(table)) + table


def damaged_maxp() -> bytes:
    """A TrueType file whose maximum-profile table has a version no reader knows: it passes deckwright's look at
    the table directory, and ReportLab's reading of it fails."""
    data = bytearray(CONDENSED.read_bytes())
    struct.pack_into(">H", data, tables(bytes(data))[b"maxp"][0], 7)
    return bytes(data)


def with_field(tag: bytes, at: int, value: int) -> bytes:
    """Open Sans Condensed Bold with the 16-bit field ``at`` bytes into its ``tag`` table set to ``value``."""
    data = bytearray(CONDENSED.read_bytes())
    struct.pack_into(">H", data, tables(bytes(data))[tag][0] + at, value)
    return bytes(data)


def with_table_length(tag: bytes, length: int) -> bytes:
    """Open Sans Condensed Bold with its table directory saying the ``tag`` table is ``length`` bytes long."""
    data = bytearray(CONDENSED.read_bytes())
    entry = next(12 + 16 * index for index in range(struct.unpack_from(">H", data, 4)[0])
                 if data[12 + 16 * index:16 + 16 * index] == tag)
    struct.pack_into(">L", data, entry + 12, length)
    return bytes(data)


def cmap_subtables(data: bytes) -> dict[int, int]:
    """Where each character-map subtable starts in the file, by format."""
    cmap = tables(data)[b"cmap"][0]
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    offsets = (cmap + struct.unpack_from(">L", data, cmap + 8 + 8 * index)[0] for index in range(count))
    return {struct.unpack_from(">H", data, offset)[0]: offset for offset in offsets}


def with_wide_group(first: int, last: int, groups: int = 1) -> bytes:
    """Vollkorn with its first ``groups`` format-12 groups widened to ``first .. last``: the reviewer's crafted
    font, made small enough (a few million code points) that ReportLab reading it would not exhaust memory."""
    data = bytearray(BLACK.read_bytes())
    offset = cmap_subtables(bytes(data))[12]
    for index in range(groups):
        struct.pack_into(">LLL", data, offset + 16 + 12 * index, first, last, 1)
    return bytes(data)


def with_overlapping_segments(segments: int) -> bytes:
    """Open Sans with its first ``segments`` format-4 segments each covering U+0000 .. U+FFFF: 65,536 code points
    apiece, which ReportLab loops over one by one."""
    data = bytearray(CONDENSED.read_bytes())
    offset = cmap_subtables(bytes(data))[4]
    count = struct.unpack_from(">H", data, offset + 6)[0] // 2
    for index in range(segments):
        struct.pack_into(">H", data, offset + 14 + 2 * index, 0xFFFF)  # its end
        struct.pack_into(">H", data, offset + 16 + 2 * count + 2 * index, 0)  # its start
    return bytes(data)


def test_the_checksum_helper_matches_the_original():
    from reportlab.pdfbase.ttfonts import TTFontFile

    data = CONDENSED.read_bytes()
    bits = struct.unpack_from(">H", data, tables(data)[b"OS/2"][0] + 8)[0]
    assert with_fs_type(data, bits) == data
    TTFontFile(io.BytesIO(with_fs_type(data, 0x0008)), validate=1)  # ReportLab checks the table checksums


@pytest.mark.parametrize("font, why", [
    (otto(), "is OpenType with PostScript (CFF) outlines, which deckwright cannot embed; use the TrueType (.ttf) "
             "version of the font, with glyf outlines"),
    (with_fs_type(CONDENSED.read_bytes(), 0x0002), "forbids embedding (OS/2 fsType 0x0002: restricted licence); a PDF "
             "must carry its fonts, so use a font whose licence allows embedding (any SIL Open Font License font does)"),
    (with_fs_type(CONDENSED.read_bytes(), 0x0200), "allows only its bitmaps to be embedded (OS/2 fsType 0x0200), not "
             "its outlines; use a font whose licence allows embedding"),
    (with_fs_type(CONDENSED.read_bytes(), 0x0100), "forbids subsetting (OS/2 fsType 0x0100)"),
    (b"wOFF" + CONDENSED.read_bytes()[4:], "is a WOFF web font"),
    (b"ttcf" + CONDENSED.read_bytes()[4:], "is a TrueType collection (.ttc)"),
    (b"%PDF-1.4 not a font at all", "is not a TrueType font file"),
    (CONDENSED.read_bytes()[:40], "is not a readable TrueType font: its table directory is cut short"),
    (damaged_maxp(), "cannot be read: Unknown maxp table version"),
    (with_wide_group(0, 0x10FFFF, groups=2), "is not a readable TrueType font: its character map claims 2,228,224 "
                                       "characters; a font maps at most 1,114,112"),
    (with_wide_group(0x20, 0x110000), "is not a readable TrueType font: its character map (format 12) has a range "
                                      "U+0020 .. U+110000, past the last code point, U+10FFFF"),
    (with_wide_group(0x100, 0x20), "is not a readable TrueType font: its character map (format 12) has a range "
                                   "U+0100 .. U+0020, ending before it starts"),
    (with_overlapping_segments(20), "is not a readable TrueType font: its character map claims 1,311,"),
    # ReportLab reads these, FreeType (Pillow, painting the PNGs) does not: the build died in its PNG step
    (with_table_length(b"head", 10), "cannot be read: FreeType, which paints the PNGs, says: unknown file format"),
    (with_field(b"head", 18, 65535), "cannot be read: FreeType, which paints the PNGs, says: broken table"),
    (with_field(b"maxp", 4, 0), "cannot be read: FreeType, which paints the PNGs, says: invalid argument"),
])
def test_a_font_deckwright_cannot_embed_is_one_located_error(font_game, font, why):
    folder = font_game(font=font)
    errors = problems_of(folder)
    assert len(errors) == 1
    assert errors[0].startswith(f"tiny/fonts/fonts.yaml:2:9: font 'Test Display' bold: font file 'Display.ttf' {why}")


def test_every_shipped_fonts_character_map_is_sane():
    for font in sorted(FONT_DIR.glob("*/*.ttf")):
        assert embedding_problem(font.read_bytes()) is None, font


def test_a_font_reportlab_fails_on_without_a_message_still_gets_a_reason(font_game, monkeypatch):
    """A MemoryError (or a bare KeyError) says nothing: the line says what happened all the same."""
    from deckwright.generator.layout import fonts

    def fails(name, data):
        raise MemoryError()
    monkeypatch.setattr(fonts, "_game_ttfont", fails)
    assert problems_of(font_game()) == ["tiny/fonts/fonts.yaml:2:9: font 'Test Display' bold: font file 'Display.ttf' "
                                        "cannot be read: reading it takes more memory than there is (is the file "
                                        "damaged?)"]
    assert fonts.unreadable_because(KeyError()) == "ReportLab's reader failed (KeyError); is the file damaged?"


def test_a_font_with_restricted_and_print_bits_may_be_embedded():
    """Before OS/2 version 3 several usage bits could be set; the least strict applies (preview & print)."""
    assert embedding_problem(with_fs_type(CONDENSED.read_bytes(), 0x0006)) is None
    assert embedding_problem(with_fs_type(CONDENSED.read_bytes(), 0x0008)) is None


def test_check_and_build_fail_on_a_font_error_and_keep_the_old_output(font_game, tmp_path, capsys):
    folder = font_game()
    out = tmp_path / "out"
    assert cli.main(["build", str(folder), "--out", str(out)]) == 0
    before = (out / "tiny" / "print" / "deck-heroes.pdf").read_bytes()
    (folder / "fonts" / "Display.ttf").write_bytes(otto())
    capsys.readouterr()
    assert cli.main(["check", str(folder)]) == 1
    checked = capsys.readouterr()
    assert "tiny/fonts/fonts.yaml:2:9: font 'Test Display' bold: font file 'Display.ttf' is OpenType" in checked.err
    assert "Traceback" not in checked.out + checked.err
    assert cli.main(["build", str(folder), "--out", str(out)]) == 1
    built = capsys.readouterr()
    assert "tiny/fonts/fonts.yaml:2:9:" in built.err and "Traceback" not in built.out + built.err
    assert (out / "tiny" / "print" / "deck-heroes.pdf").read_bytes() == before


# -- licences ----------------------------------------------------------------------------------------------


def test_a_font_without_a_licence_is_a_warning(font_game):
    folder = font_game(licence=False)
    assert problems_of(folder, "warning") == [
        "tiny/fonts/fonts.yaml:2:9: warning: font 'Test Display' bold: no licence file beside 'Display.ttf' (OFL.txt, "
        "LICENSE.txt, or Display.txt) and none named in fonts.yaml (licence: OFL.txt): the site publishes the font, "
        "so ship its licence with it"]
    assert problems_of(folder) == []
    assert game_fonts(folder).face("Test Display", "bold").family_id  # still used


@pytest.mark.parametrize("files", [
    {"fonts/LICENSE": "Apache License 2.0\n"},
    {"fonts/Display.txt": "Copyright and licence of Display\n"},
    {"fonts/TestDisplay-licence.txt": "the family's licence\n"},
    {MANIFEST: "Test Display:\n  bold: Display.ttf\n  licence: legal/terms.md\n", "fonts/legal/terms.md": "terms\n"},
])
def test_a_licence_beside_the_font_or_named_in_fonts_yaml_is_enough(font_game, files):
    assert problems_of(font_game(licence=False, **files), "warning") == []


def test_a_licence_file_linking_outside_the_game_folder_is_said_to_be_unreadable(font_game, tmp_path):
    folder = font_game(licence=False)
    (tmp_path / "elsewhere.txt").write_text("someone else's file\n")
    (folder / "fonts" / "OFL.txt").symlink_to(tmp_path / "elsewhere.txt")
    [warning] = problems_of(folder, "warning")
    assert warning.startswith("tiny/fonts/fonts.yaml:2:9: warning: font 'Test Display' bold: the licence file beside "
                              "'Display.ttf', OFL.txt, cannot be read: ") and "ship its licence" in warning, warning


def test_a_licence_fonts_yaml_names_must_exist(font_game):
    folder = font_game("Test Display:\n  bold: Display.ttf\n  licence: GONE.txt\n")
    assert problems_of(folder) == ["tiny/fonts/fonts.yaml:3:12: font family 'Test Display': licence file 'GONE.txt': "
                                   "cannot read file: No such file or directory"]


# -- the game folder is untrusted ---------------------------------------------------------------------------


def test_a_font_path_out_of_the_game_folder_is_refused(font_game, tmp_path):
    (tmp_path / "outside.ttf").write_bytes(CONDENSED.read_bytes())
    folder = font_game("Test Display:\n  bold: ../../outside.ttf\n  regular: /etc/passwd\n")
    assert problems_of(folder) == [
        "tiny/fonts/fonts.yaml:2:9: font 'Test Display' bold: '../../outside.ttf' is outside the game folder; "
        "deckwright reads only files inside it (put the file in fonts/)",
        "tiny/fonts/fonts.yaml:3:12: font 'Test Display' regular: '/etc/passwd' is outside the game folder; "
        "deckwright reads only files inside it (put the file in fonts/)"]


def test_a_font_linking_out_of_the_game_folder_is_refused(font_game, tmp_path):
    (tmp_path / "outside.ttf").write_bytes(CONDENSED.read_bytes())
    folder = font_game()
    (folder / "fonts" / "Display.ttf").unlink()
    (folder / "fonts" / "Display.ttf").symlink_to(tmp_path / "outside.ttf")
    assert problems_of(folder) == [
        "tiny/fonts/fonts.yaml:2:9: font 'Test Display' bold: font file 'Display.ttf': file links outside the game "
        "folder; deckwright reads only files inside it"]


@pytest.mark.parametrize("manifest, message", [
    ("- Display.ttf\n", "tiny/fonts/fonts.yaml:1:1: fonts.yaml: expected a mapping of family names"),
    ("Test Display: Display.ttf\n", "tiny/fonts/fonts.yaml:1:15: font family 'Test Display': expected its styles"),
    ("Test Display:\n  heavy: Display.ttf\n", "tiny/fonts/fonts.yaml:2:3: font family 'Test Display': unknown style "
                                              "'heavy'"),
    ('"Evil\\"; } body { x: url(y)":\n  bold: Display.ttf\n', "tiny/fonts/fonts.yaml:1:1: font family name "),
    ("Test Display:\n  bold: [Display.ttf]\n", "tiny/fonts/fonts.yaml:2:9: font 'Test Display' bold: expected a file "
                                               "name in fonts/, not a list"),
    ("Test Display:\n  bold: Missing.ttf\n", "tiny/fonts/fonts.yaml:2:9: font 'Test Display' bold: font file "
                                             "'Missing.ttf': cannot read file: No such file or directory"),
])
def test_a_mistake_in_fonts_yaml_is_located(font_game, manifest, message):
    errors = problems_of(font_game(manifest))
    assert errors and errors[0].startswith(message), errors


def test_the_schema_of_fonts_yaml_takes_the_shipped_manifest_and_refuses_a_mistake(tmp_path):
    import jsonschema
    import yaml

    from deckwright.generator.build import write_schema

    write_schema(tmp_path, load_game(ROOT / "tests" / "bad_inputs" / "base"))
    schema = json.loads((tmp_path / "fonts.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(yaml.safe_load((FONT_DIR / "fonts.yaml").read_text()), schema)
    jsonschema.validate({"Pirata One": {"regular": "PirataOne-Regular.ttf", "licence": "OFL.txt"}}, schema)
    for wrong in ({"Pirata One": {"heavy": "x.ttf"}}, {"Pirata One": {"licence": "OFL.txt"}}, {"Bad:Name": {}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(wrong, schema)


def test_a_layout_naming_an_unknown_family_says_where_a_games_own_go(tiny):
    game = load_game(tiny({"layouts/hero.yaml": hero_in("Pirata One", "regular")}))
    with pytest.raises(LayoutError) as caught:
        Faces(game).front(game.card("knight"))
    assert "no font family 'Pirata One' (known: Open Sans, Open Sans Condensed, Vollkorn; a game's own go in " \
           "fonts/fonts.yaml)" in str(caught.value)


def test_font_files_without_fonts_yaml_are_a_warning(tiny):
    folder = tiny({"fonts/Display.ttf": CONDENSED.read_bytes()})
    assert [str(p) for p in layout_warnings(load_game(folder))] == [
        "tiny/fonts/Display.ttf:1:1: warning: a font file in fonts/, but no fonts.yaml naming its family "
        "(Family: {regular: File.ttf}); it is not used"]


def test_fonts_yaml_is_not_a_card_file_and_serve_recompiles_on_a_font_edit(font_game):
    folder = font_game()
    assert [str(p) for p in layout_warnings(load_game(folder))] == []
    assert kind_of_change(folder / "fonts" / "Display.ttf", folder, "tiny") == LAYOUTS
    assert kind_of_change(folder / "fonts" / "fonts.yaml", folder, "tiny") == LAYOUTS


def test_serve_publishes_the_games_fonts_and_shows_a_font_error_over_the_last_build(font_game, tmp_path):
    from deckwright.generator.serve.live import LiveSite

    folder = font_game()
    site = LiveSite(folder, tmp_path / "site")
    assert site.rebuild().errors == ()
    css = (tmp_path / "site" / "tiny" / "fonts" / "fonts.css").read_text()
    family_id = game_fonts(folder).face("Test Display", "bold").family_id
    assert f'font-family: "{family_id}"' in css
    assert 'href="fonts/fonts.css"' in (tmp_path / "site" / "tiny" / "cards.html").read_text()
    (folder / "fonts" / "Display.ttf").write_bytes(otto())
    broken = site.rebuild(layouts_changed=True)
    assert broken.shown_errors[0].startswith("fonts/fonts.yaml:2:9: font 'Test Display' bold: font file 'Display.ttf' "
                                             "is OpenType with PostScript (CFF) outlines")
    assert (tmp_path / "site" / "tiny" / "fonts" / "fonts.css").read_text() == css
    (folder / "fonts" / "Display.ttf").write_bytes(BLACK.read_bytes())  # another font: another family id
    assert site.rebuild(layouts_changed=True).errors == ()
    new_id = game_fonts(folder).face("Test Display", "bold").family_id
    assert new_id != family_id and f'font-family: "{new_id}"' in (tmp_path / "site/tiny/fonts/fonts.css").read_text()
    assert f'font-family="\'{new_id}\'"' in (tmp_path / "site" / "tiny" / "cards.html").read_text()


def pdf_font_names(path: Path) -> set[str]:
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(path).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def test_the_rulebook_pdf_sets_a_replaced_family_in_the_games_font(font_game, tmp_path):
    from deckwright.generator.outputs.rulebook import FULL, write_rulebooks

    folder = font_game("Vollkorn:\n  regular: Display.ttf\n", family="Vollkorn", name="shadow")
    game = load_game(folder)
    write_rulebooks(game, Faces(game), [], tmp_path / "print", "a4", printshop=False)
    names = pdf_font_names(tmp_path / "print" / FULL)
    assert "OpenSans-CondensedBold" in names  # the body, headings and the card pictures: the game's "Vollkorn"
    assert not [name for name in names if name.startswith("Vollkorn")], names
    assert "OpenSans" in names  # the shipped families it does not replace stay
