"""Drawing display lists on a ReportLab canvas.

The painter works in page millimetres from the top-left corner (as the
display lists and the imposition do) and converts to PDF points with y up.
Groups (parts of a face that are the same on every card) and whole faces
drawn more than once become Form XObjects: stored once, placed many times.
"""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.fonts import FontBook
from deckwright.generator.layout.memo import Memo

PT_PER_MM = 72 / 25.4
INITIAL_FONT = "Open Sans:regular"
ELLIPSES_KEPT = 512  # ellipses' paths remembered by place and size on the face (a card's stat circles)


def new_canvas(target, page_size_mm: tuple[float, float], fonts: FontBook, title: str, subject: str = "",
               every_font: bool = True):
    """A canvas that writes byte-identical files for identical input (invariant mode, no timestamps).

    ``every_font``: every face of ``fonts`` can be named in ``setFont``; without it, only the faces a PdfPainter
    draws with are registered (and parsed), as it first draws with each."""
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    rl_config.useA85 = 0  # plain binary streams: smaller and faster to write (a process-wide ReportLab setting)
    fonts.register_reportlab(None if every_font else (INITIAL_FONT,))
    canvas = Canvas(target, pagesize=(page_size_mm[0] * PT_PER_MM, page_size_mm[1] * PT_PER_MM),
                    invariant=1, pageCompression=1, initialFontName=INITIAL_FONT)  # not Helvetica: every font embedded
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setCreator("deckwright")
    canvas.setProducer("deckwright (ReportLab)")
    return canvas


def finish_page(canvas) -> None:
    """End the page, and compress its content now rather than when the file is saved: ReportLab keeps
    every page until then, so holding them compressed keeps memory nearly flat however long the deck."""
    import zlib

    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream

    canvas.showPage()
    page = canvas._doc.Pages.pages[-1]
    if isinstance(page.stream, str) and not page.Contents:
        compressed = zlib.compress(page.stream.encode("utf8"))
        page.Contents = PDFStream(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}), compressed)
        page.stream = None


class PdfPainter:
    def __init__(self, canvas, fonts: FontBook):
        from reportlab.lib.rl_accel import escapePDF, fp_str
        from reportlab.pdfgen.canvas import FILL_EVEN_ODD

        self.c = canvas
        self.fonts = fonts
        self.page_height = canvas._pagesize[1] / PT_PER_MM
        self._rgb: dict[str, tuple[float, float, float]] = {}
        self._forms: dict[object, str] = {}
        self._can_form: dict[object, bool] = {}
        self._even_odd = FILL_EVEN_ODD
        self._fill: str | None = None
        self._stroke: str | None = None
        self._handlers = dl.handlers(self)
        self._fonts: dict[str, object] = {}  # ReportLab's font objects by name
        self._fp = fp_str
        self._escape = escapePDF
        self._first_subsets: dict[str, FirstSubset] = {}  # by font name: for this canvas's document
        self._heads: dict[tuple[str, int, float], str] = {}  # (font, subset, size) -> the operands selecting them
        self._fill_ops: dict[str, tuple[str, tuple]] = {}  # colour -> its fill operator, and ReportLab's fill state
        self._ellipses = Memo(ELLIPSES_KEPT)  # (x, y, w, h) -> the path ReportLab writes for it

    def set_page_size(self, width_mm: float, height_mm: float) -> None:
        self.c.setPageSize((width_mm * PT_PER_MM, height_mm * PT_PER_MM))
        self.page_height = height_mm

    # -- placing ---------------------------------------------------------

    def place(self, display: dl.DisplayList, x: float, y: float, clip: tuple | None = None,
              form_key: object = None) -> None:
        """Draw a display list with its trim's top-left corner at page (x, y) mm, optionally clipped to a
        page rectangle; with ``form_key`` it is stored once as a Form XObject and reused."""
        c = self.c
        c.saveState()
        self._reset_paint()
        if clip is not None:
            cx, cy, cw, ch = clip
            path = c.beginPath()
            path.rect(cx * PT_PER_MM, (self.page_height - cy - ch) * PT_PER_MM, cw * PT_PER_MM, ch * PT_PER_MM)
            c.clipPath(path, stroke=0, fill=0)
        c.translate(x * PT_PER_MM, (self.page_height - y) * PT_PER_MM)
        if form_key is None or not self._formable(form_key, display.items):
            self.items(display.items)
        else:
            b = display.bleed
            c.doForm(self._form(form_key, display.items, lambda: (-b, -b, display.width + 2 * b, display.height + 2 * b)))
        c.restoreState()
        self._reset_paint()

    def _form(self, key: object, items: tuple, box) -> str:
        """The name of the form holding ``items``, drawing it the first time; ``box()`` gives its bounds in mm."""
        name = self._forms.get(key)
        if name is None:
            name = self._forms[key] = f"dw{len(self._forms)}"
            bx, by, bw, bh = box()
            c = self.c
            c.beginForm(name, bx * PT_PER_MM, -(by + bh) * PT_PER_MM, (bx + bw) * PT_PER_MM, -by * PT_PER_MM)
            saved = self._fill, self._stroke
            self._reset_paint()
            self.items(items)
            c.endForm()
            self._fill, self._stroke = saved
        return name

    # -- items -----------------------------------------------------------

    def items(self, items) -> None:
        draw = self._handlers
        for item in items:
            draw[type(item)](item)

    def _group(self, group: dl.Group) -> None:
        if not self._formable(group, group.items):
            self.items(group.items)
        elif group.items:
            self.c.doForm(self._form(group, group.items, lambda: _bounds(group.items)))

    def _formable(self, key: object, items) -> bool:
        """ReportLab leaves transparency settings out of a form's resources, so see-through items stay inline."""
        verdict = self._can_form.get(key)
        if verdict is None:
            verdict = self._can_form[key] = all(getattr(item, "opacity", 1.0) >= 1.0 for item in dl.walk(items))
        return verdict

    def _rgb_of(self, color: str) -> tuple[float, float, float]:
        rgb = self._rgb.get(color)
        if rgb is None:
            rgb = self._rgb[color] = tuple(int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return rgb

    def _reset_paint(self) -> None:
        self._fill = self._stroke = None

    def _set_fill(self, color: str) -> None:
        """``setFillColorRGB`` (the same operator, the same fill state), each colour's operator formatted once."""
        c = self.c
        found = self._fill_ops.get(color)
        if found is None or c._enforceColorSpace is not None:
            c.setFillColorRGB(*self._rgb_of(color))
            self._fill_ops[color] = (c._code[-1], c._fillColorObj)
        else:
            c._code.append(found[0])
            c._fillColorObj = found[1]
        self._fill = color

    def _paint(self, fill: str | None, stroke: str | None, stroke_width: float) -> tuple[int, int]:
        c = self.c
        if fill and fill != self._fill:
            self._set_fill(fill)
        if stroke:
            if stroke != self._stroke:
                c.setStrokeColorRGB(*self._rgb_of(stroke))
                self._stroke = stroke
            c.setLineWidth(stroke_width * PT_PER_MM)
        return (1 if stroke else 0), (1 if fill else 0)

    def _alpha(self, opacity: float):
        if opacity < 1.0:
            self.c.saveState()
            self.c.setFillAlpha(opacity)
            self.c.setStrokeAlpha(opacity)
            return True
        return False

    def _end_alpha(self, used: bool) -> None:
        if used:
            self.c.restoreState()
            self._reset_paint()

    def _rect(self, r: dl.Rect) -> None:
        alpha = self._alpha(r.opacity)
        stroke, fill = self._paint(r.fill, r.stroke, r.stroke_width)
        x, y, w, h = r.x * PT_PER_MM, -(r.y + r.h) * PT_PER_MM, r.w * PT_PER_MM, r.h * PT_PER_MM
        if r.radius > 0:
            self.c.roundRect(x, y, w, h, r.radius * PT_PER_MM, stroke=stroke, fill=fill)
        else:
            self.c.rect(x, y, w, h, stroke=stroke, fill=fill)
        self._end_alpha(alpha)

    def _ellipse(self, e: dl.Ellipse) -> None:
        alpha = self._alpha(e.opacity)
        stroke, fill = self._paint(e.fill, e.stroke, e.stroke_width)
        key = (e.x, e.y, e.w, e.h)
        path = self._ellipses.get(key)
        if path is None:  # what canvas.ellipse writes before its painting operator, kept: its curves take a while
            from reportlab.pdfgen.pathobject import PDFPathObject

            x1, y1, x2, y2 = e.x * PT_PER_MM, -(e.y + e.h) * PT_PER_MM, (e.x + e.w) * PT_PER_MM, -e.y * PT_PER_MM
            code: list[str] = []
            PDFPathObject(code=code).ellipse(x1, y1, x2 - x1, y2 - y1)
            path = tuple(code)
            self._ellipses.put(key, path)
        self.c._code.extend(path)
        self.c._strokeAndFill(stroke, fill)
        self._end_alpha(alpha)

    def _path(self, p: dl.Path) -> None:
        alpha = self._alpha(p.opacity)
        stroke, fill = self._paint(p.fill, p.stroke, p.stroke_width)
        path = self.c.beginPath()
        k = PT_PER_MM
        for command in p.commands:
            op = command[0]
            if op == "L":
                path.lineTo(command[1] * k, -command[2] * k)
            elif op == "C":
                path.curveTo(command[1] * k, -command[2] * k, command[3] * k, -command[4] * k,
                             command[5] * k, -command[6] * k)
            elif op == "M":
                path.moveTo(command[1] * k, -command[2] * k)
            else:
                path.close()
        self.c.drawPath(path, stroke=stroke, fill=fill, fillMode=self._even_odd)
        self._end_alpha(alpha)

    def _text(self, t: dl.Text) -> None:
        """The operators ReportLab's ``drawString`` writes for a TrueType font (the same bytes), written here
        without its text object, font state and bidi pass: most of a card's drawing time is its text."""
        c = self.c
        if t.color != self._fill:
            self._set_fill(t.color)
        font = self._fonts.get(t.font) or self._font(t.font)
        if not font._dynamicFont:  # not a TrueType font: ReportLab's own way
            c.setFont(t.font, t.size)
            c.drawString(t.x * PT_PER_MM, -t.y * PT_PER_MM, t.text)
            return
        doc = c._doc
        code = [f"BT 1 0 0 1 {self._fp(t.x * PT_PER_MM, -t.y * PT_PER_MM)} Tm"]
        current = -1
        for subset, chunk in self._chunks(t.font, font, t.text, doc):
            if subset != current:
                code.append(self._head(t.font, font, subset, t.size, doc))
                current = subset
            code.append(f"({self._escape(chunk)}) Tj")
        code.append("T* ET")
        c._code.append(" ".join(code))

    def _head(self, name: str, font, subset: int, size: float, doc) -> str:
        """The operators selecting a subset of a font at a size (and its leading), formatted once."""
        head = self._heads.get((name, subset, size))
        if head is None:
            head = self._heads[name, subset, size] = (f"{font.getSubsetInternalName(subset, doc)} {self._fp(size)} "
                                                      f"Tf {self._fp(size * 1.2)} TL")
        return head

    def _chunks(self, name: str, font, text: str, doc) -> list[tuple[int, bytes]]:
        """``font.splitString(text, doc)``: a run made only of characters already coded in the font's first
        subset is translated in one call, without ReportLab's loop over its characters (which gives new
        characters their codes, so it still sees every run holding one)."""
        known = self._first_subsets.get(name)
        if text and known is not None and known.chars.issuperset(text):
            return [(0, text.translate(known.table).encode("latin-1"))]
        chunks = font.splitString(text, doc)
        self._first_subsets[name] = first_subset(font, doc)
        return chunks

    def _font(self, name: str):
        font = self._fonts.get(name)
        if font is None:
            from reportlab.pdfbase.pdfmetrics import getFont

            self.fonts.register_reportlab((name,))
            font = self._fonts[name] = getFont(name)
        return font

    def _image(self, im: dl.Image) -> None:
        alpha = self._alpha(im.opacity)  # (a picture is painted with the fill's alpha)
        self.c.drawImage(im.path, im.x * PT_PER_MM, -(im.y + im.h) * PT_PER_MM, im.w * PT_PER_MM, im.h * PT_PER_MM,
                         mask="auto")
        self._end_alpha(alpha)

    def _clip(self, clip: dl.Clip) -> None:
        c = self.c
        c.saveState()
        path = c.beginPath()
        path.rect(clip.x * PT_PER_MM, -(clip.y + clip.h) * PT_PER_MM, clip.w * PT_PER_MM, clip.h * PT_PER_MM)
        c.clipPath(path, stroke=0, fill=0)
        self._reset_paint()
        self.items(clip.items)
        c.restoreState()
        self._reset_paint()


@dataclass(frozen=True)
class FirstSubset:
    """The characters ReportLab has coded in the first subset of a TrueType font for one document, and their
    codes as a ``str.translate`` table."""

    chars: frozenset[str]
    table: dict[int, int]


def first_subset(font, doc) -> FirstSubset:
    table = {char: code for char, code in font.state[doc].assignments.items() if code < 256}
    if 32 in table:  # splitString prints a no-break space as a space
        table[0xA0] = table[32]
    return FirstSubset(frozenset(map(chr, table)), table)


def _bounds(items) -> tuple[float, float, float, float] | None:
    """The box (x, y, w, h in mm) around drawable items, with a little room for strokes and glyph overhang."""
    xs: list[float] = []
    ys: list[float] = []
    for item in dl.walk(items):
        if isinstance(item, dl.Path):
            for command in item.commands:
                xs.extend(command[1::2])
                ys.extend(command[2::2])
        elif isinstance(item, dl.Text):
            em = item.size * 25.4 / 72
            xs.extend((item.x - em, item.x + item.width + em))
            ys.extend((item.y - 1.2 * em, item.y + 0.5 * em))
        else:
            xs.extend((item.x, item.x + item.w))
            ys.extend((item.y, item.y + item.h))
    if not xs:
        return None
    pad = 2.0
    return min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
