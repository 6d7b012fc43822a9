"""The print-shop rulebook made from the booklet's file: the same pages, one to a sheet with bleed, TrimBox
and BleedBox, without drawing them again.

The booklet's canvas (``canvases.booklet_canvas``) draws each page once, as a form XObject reaching into
the bleed, and places the forms two-up. Here every object of that file but its sheets is copied byte for
byte (the page forms, the card faces, the fonts subset once, the document information), and a page is
written for each form. Drawing the pages a second time cost as much as drawing them the first.

This reads only files ReportLab wrote for the booklet: objects in number order with a classic
cross-reference table, a catalog, one page tree, and sheets whose dictionaries hold references and
names, no strings.
"""
from __future__ import annotations

import re
import zlib

from reportlab.lib.rl_accel import fp_str

from deckwright.generator.render.pdfjoin import split_objects

from .canvases import bound_pages

_FORM = re.compile(rb"/(FormXob\.page(\d+)) (\d+) 0 R")
_TITLE = re.compile(rb"/Title (\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)")


def _ref(name: bytes, body: bytes) -> int:
    return int(re.search(rb"/" + name + rb" (\d+) 0 R", body).group(1))


def _objects(pdf: bytes) -> tuple[bytes, dict[int, bytes], bytes]:
    """The header, each object's bytes (``N 0 obj`` to ``endobj``) by number, and the trailer dictionary."""
    first, objects, xref = split_objects(pdf)
    return pdf[:first], objects, pdf[xref:].split(b"trailer", 1)[1]


def _body(obj: bytes) -> bytes:
    """An object's bytes without its ``N 0 obj`` line and ``endobj``."""
    return obj[obj.index(b"obj") + 3:obj.rindex(b"endobj")].strip()


def _retitled(info: bytes, title: str) -> bytes:
    """The document information object with its title replaced (written as a UTF-16 text string, which
    holds any title without escaping)."""
    text = b"<FEFF" + title.encode("utf-16-be").hex().upper().encode() + b">"
    return _TITLE.sub(lambda _: b"/Title " + text, info, count=1)


def printshop_pages(booklet: bytes, page: tuple[float, float], bleed: float, title: str | None = None) -> bytes:
    """A PDF of the booklet's pages in reading order, each ``page`` (width, height) points plus ``bleed``
    points all round, its form placed at the bleed's offset, with TrimBox and BleedBox, then the booklet's blank
    pages (to a multiple of four, for saddle-stitch binding); titled ``title`` when given (else the booklet's
    title is kept)."""
    header, objects, trailer = _objects(booklet)
    root, info = _ref(b"Root", trailer), _ref(b"Info", trailer)
    if title is not None:
        objects[info] = _retitled(objects[info], title)
    catalog = _body(objects[root])
    tree = _ref(b"Pages", catalog)
    sheets = [int(n) for n in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[([^\]]*)\]", objects[tree]).group(1))]
    forms: dict[int, tuple[bytes, int]] = {}  # page number -> (form name, object number)
    fonts = b""  # the document's one font dictionary, as every page names it
    for sheet in sheets:
        body = _body(objects[sheet])
        named = re.search(rb"/Font \d+ 0 R", body)
        fonts = fonts or (named.group(0) if named else b"")
        for name, number, obj in _FORM.findall(body):
            forms[int(number)] = (name, int(obj))
    dropped = {tree, root, *sheets, *(_ref(b"Contents", _body(objects[s])) for s in sheets)}
    preferences = re.search(rb"/ViewerPreferences (\d+) 0 R", catalog)
    if preferences:
        dropped.add(int(preferences.group(1)))
    kept = {number: obj for number, obj in objects.items() if number not in dropped}
    pages = bound_pages(len(forms))
    free = iter(sorted(dropped - {tree, root}) + list(range(max(objects) + 1, max(objects) + 2 * pages + 1)))

    width, height = page
    outer = (fp_str(0), fp_str(0), fp_str(width + 2 * bleed), fp_str(height + 2 * bleed))
    trim = (fp_str(bleed), fp_str(bleed), fp_str(width + bleed), fp_str(height + bleed))
    written: dict[int, bytes] = {}
    kids = []
    for number in sorted(forms):
        name, form = forms[number]
        page_number, contents = next(free), next(free)
        stream = zlib.compress(b"q\n1 0 0 1 %s %s cm\n/%s Do\nQ\n" % (trim[0].encode(), trim[1].encode(), name))
        written[contents] = (b"<<\n/Filter [ /FlateDecode ] /Length %d\n>>\nstream\n" % len(stream)
                             + stream + b"\nendstream")
        written[page_number] = (
            b"<<\n/BleedBox [ %s ] /Contents %d 0 R /MediaBox [ %s ] /Parent %d 0 R /Resources <<\n%s "
            b"/ProcSet [ /PDF /Text /ImageB /ImageC /ImageI ] /XObject <<\n/%s %d 0 R\n>>\n>> /Rotate 0 "
            b"/TrimBox [ %s ] /Type /Page\n>>"
            % (" ".join(outer).encode(), contents, " ".join(outer).encode(), tree, fonts, name, form,
               " ".join(trim).encode()))
        kids.append(page_number)
    for _ in range(pages - len(forms)):  # blank pages after the last, as the booklet has them
        page_number = next(free)
        written[page_number] = (b"<<\n/BleedBox [ %s ] /MediaBox [ %s ] /Parent %d 0 R /Resources <<\n>> /Rotate 0 "
                                b"/TrimBox [ %s ] /Type /Page\n>>"
                                % (" ".join(outer).encode(), " ".join(outer).encode(), tree, " ".join(trim).encode()))
        kids.append(page_number)
    written[tree] = b"<<\n/Count %d /Kids [ %s ] /Type /Pages\n>>" % (
        len(kids), b" ".join(b"%d 0 R" % kid for kid in kids))
    written[root] = re.sub(rb" ?/ViewerPreferences \d+ 0 R", b"", catalog)

    out = [header]
    size = len(header)
    offsets = []
    for number in range(1, max(max(kept), max(written)) + 1):  # a number of a sheet no page took: null
        obj = kept.get(number) or b"%d 0 obj\n%s\nendobj\n" % (number, written.get(number, b"null"))
        offsets.append(size)
        out.append(obj)
        size += len(obj)
    count = len(offsets) + 1
    xref = [b"xref\n0 %d\n0000000000 65535 f \n" % count] + [b"%010d 00000 n \n" % offset for offset in offsets]
    identity = re.search(rb"/ID\s*\n?\[[^\]]*\]", trailer)
    out += xref
    out.append(b"trailer\n<<\n%s\n/Info %d 0 R\n/Root %d 0 R\n/Size %d\n>>\nstartxref\n%d\n%%%%EOF\n"
               % (identity.group(0) if identity else b"", info, root, count, size))
    return b"".join(out)
