"""A worked example as a boxed panel: its title and verdict badge, the setup, dice, deck orders, actions
and claims of its script, what the rules engine says, and the verdict.

The panel sets its own lines (a table of one paragraph per log line would be parsed and wrapped again and
again); it breaks between rows, never leaving fewer than two on either side, and the part on the next page
repeats the title, marked as continued.
"""
from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from deckwright.generator.book.examples import ExampleView
from deckwright.generator.layout.wordbreak import word_pieces

from .document import Mark, Para
from .parsed import destination
from .theme import SANS, VERDICT_COLORS, Theme

PAD = 1.4 * mm
VERDICT_NOTES = {
    "verified": "Every claim above is what the rules engine finds.",
    "erratum": "Kept as the source gives it.",
    "failing": "The rules engine disagrees with this example.",
    "unchecked": "Not replayed: the game has no rules module yet.",
}


def sentence(text: str) -> str:
    """``text`` ending as a sentence does, so that the next one does not run on from it."""
    text = text.strip()
    return text if not text or text[-1] in ".!?:;)" else f"{text}."


def capital(text: str) -> str:
    """``text`` starting a sentence: its first letter a capital."""
    return text[:1].upper() + text[1:]


def example_key(page_id: str, view: ExampleView) -> str:
    """The PDF destination of an example's panel: where a link to its anchor on its page goes."""
    return destination(page_id, view.anchor)


def wrap_words(text: str, width: float, measure) -> list[str]:
    """``text`` broken into lines no wider than ``width`` points (``measure(text)`` gives a width): at spaces,
    and inside a word too long for a line where ``word_pieces`` breaks it."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if measure(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            *full, line = word_pieces(word, [measure(ch) for ch in word], width)
            lines += full
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Row:
    head: bool  # a section's name across the panel, or a key and its value
    key: tuple[str, ...]  # lines
    value: tuple[str, ...]


@dataclass(frozen=True)
class Look:
    """The panel's type and colours, in points and ReportLab colours."""

    sans: str
    bold: str
    size: float
    leading: float
    key_width: float
    ink: object
    accent: object
    muted: object
    tint: object
    rule: object
    verdict: object
    title: object  # ParagraphStyle of the title
    kicker: object  # ParagraphStyle of the "WORKED EXAMPLE n" line


KEPT_SHARE = 1 / 3  # of a panel that fits on a page, the least that may stay at the foot of the page before


def _entries(rows: list[Row]) -> int:
    """The script's rows among ``rows``: sections' names left out."""
    return sum(not row.head for row in rows)


class ExamplePanel(Flowable):
    """One example, or the part of it on one page."""

    def __init__(self, number: int, name: str, badge: str, rows: list[Row], verdict: str, look: Look,
                 continued: bool = False, last: bool = True, paragraphs: dict | None = None, key: str = ""):
        super().__init__()
        self.number, self.name, self.badge = number, name, badge
        # the destination its first part marks where it is drawn (a Mark before it would stay on the page
        # before, when the whole panel moves on to the next)
        self.key = key
        self.rows, self.verdict, self.look = rows, verdict, look
        self.continued, self.last = continued, last
        # The title and verdict paragraphs, parsed once and shared with the parts a split makes (platypus
        # measures a panel again and again while it looks for room); each breaks its lines once a width.
        self._paragraphs = paragraphs if paragraphs is not None else {}
        self._measured_at: float | None = None

    def _paragraph(self, name: str, make) -> Para:
        if name not in self._paragraphs:
            self._paragraphs[name] = make()
        return self._paragraphs[name]

    # -- measuring -----------------------------------------------------------------

    def _badge_width(self) -> float:
        return stringWidth(self.badge, self.look.bold, self.look.size * 0.8) + self.look.size * 1.4

    def _parts(self, width: float) -> None:
        if self._measured_at == width:
            return
        self._measured_at = width
        look = self.look
        inner = width - 2.6 * PAD
        self._title = self._paragraph("title", lambda: Para(escape(self.name), look.title))
        self._title_h = self._title.wrap(inner - self._badge_width() - PAD, 1e6)[1]
        self._head_h = 1.4 * PAD + look.kicker.leading + self._title_h + PAD
        self._footer = self._paragraph("footer", lambda: Para(self.verdict, _panel_style(look))) if self.last else None
        self._footer_h = (self._footer.wrap(inner, 1e6)[1] + 2.4 * PAD) if self._footer else PAD
        self._heights = [self._row_height(row) for row in self.rows]

    def _row_height(self, row: Row) -> float:
        lines = 1 if row.head else max(len(row.key), len(row.value), 1)
        return lines * self.look.leading + (1.3 * PAD if row.head else 0.5 * PAD)

    def wrap(self, available_width, available_height):
        self._parts(available_width)
        self.width = available_width
        self.height = self._head_h + sum(self._heights) + self._footer_h
        return self.width, self.height

    def split(self, available_width, available_height):
        """The rows that fit here, and the rest under the title again on the next page. Two of the script's rows
        at least on each side (a section's name is not one: it stays with its first row), and a panel that fits
        on a page moves to the next whole when less than ``KEPT_SHARE`` of it would stay here (a sliver of a
        panel at a page's foot reads as a stray line). A panel longer than a whole page may leave one row, and a
        row longer than a page breaks between its lines."""
        self._parts(available_width)
        room = available_height - self._head_h - PAD
        frame = getattr(self, "_frame", None)
        whole_page = getattr(frame, "_height", available_height)
        least = 1 if self.height > whole_page else 2
        count, used = 0, 0.0
        for height in self._heights:
            if used + height > room:
                break
            used += height
            count += 1
        if count == len(self.rows):  # every row fits, but not the verdict under them: the last row goes on with it
            count -= 1
        while count > 0 and self.rows[count - 1].head:  # a section's name stays with its first line
            count -= 1
        if least == 2 and sum(self._heights[:count]) < KEPT_SHARE * sum(self._heights):
            return []
        if _entries(self.rows[:count]) >= least and _entries(self.rows[count:]) >= least:
            return self._parts_at(self.rows[:count], self.rows[count:])
        if least == 1 and count < len(self.rows) and not self.rows[count].head:
            lines = int((room - sum(self._heights[:count]) - 0.5 * PAD) // self.look.leading)
            row = self.rows[count]
            if 0 < lines < max(len(row.key), len(row.value)):
                top = Row(False, row.key[:lines], row.value[:lines])
                rest = Row(False, row.key[lines:], row.value[lines:])
                return self._parts_at([*self.rows[:count], top], [rest, *self.rows[count + 1:]])
        return []

    def _parts_at(self, first: list[Row], rest: list[Row]) -> list[ExamplePanel]:
        return [ExamplePanel(self.number, self.name, self.badge, first, self.verdict, self.look, self.continued,
                             last=False, paragraphs=self._paragraphs, key=self.key),
                ExamplePanel(self.number, self.name, self.badge, rest, self.verdict, self.look, continued=True,
                             last=self.last, paragraphs=self._paragraphs)]

    # -- drawing ---------------------------------------------------------------------

    def draw(self):
        c, look = self.canv, self.look
        left = 1.6 * PAD
        if self.key and not self.continued:
            Mark(self.key).drawOn(c, 0, self.height)
        c.saveState()
        c.setFillColor(look.tint)
        c.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        c.setFillColor(look.verdict)
        c.rect(0, 0, 2.2, self.height, stroke=0, fill=1)
        top = self.height - 1.4 * PAD
        kicker = f"WORKED EXAMPLE {self.number}" + (" (CONTINUED)" if self.continued else "")
        c.setFont(look.kicker.fontName, look.kicker.fontSize)
        c.setFillColor(look.kicker.textColor)
        c.drawString(left, top - look.kicker.fontSize, kicker)
        self._draw_badge(top)
        self._title.drawOn(c, left, top - look.kicker.leading - self._title_h)
        y = self.height - self._head_h
        c.setStrokeColor(look.rule)
        c.setLineWidth(0.4)
        c.line(0, y, self.width, y)
        for row, height in zip(self.rows, self._heights):
            self._draw_row(row, y, left)
            y -= height
        if self._footer is not None:
            c.line(0, self._footer_h, self.width, self._footer_h)
            self._footer.drawOn(c, left, 1.4 * PAD)
        c.restoreState()

    def _draw_badge(self, top: float) -> None:
        c, look = self.canv, self.look
        size = look.size * 0.8
        width, height = self._badge_width(), size * 1.75
        x = self.width - PAD - width
        c.setFillColor(look.verdict)
        c.roundRect(x, top - height, width, height, height / 2, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.setFont(look.bold, size)
        c.drawCentredString(x + width / 2, top - height + height * 0.3, self.badge)

    def _draw_row(self, row: Row, top: float, left: float) -> None:
        c, look = self.canv, self.look
        if row.head:
            c.setFont(look.bold, look.size * 0.9)
            c.setFillColor(look.accent)
            c.drawString(left, top - 1.3 * PAD - look.size, row.key[0])
            return
        baseline = top - look.size * 1.05
        c.setFillColor(look.ink)
        for font, x, lines in ((look.bold, left, row.key), (look.sans, left + look.key_width, row.value)):
            c.setFont(font, look.size)
            for number, line in enumerate(lines):
                c.drawString(x, baseline - number * look.leading, line)


def _panel_style(look: Look):
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle("panel-verdict", fontName=look.sans, fontSize=look.size, leading=look.leading,
                          textColor=look.ink)


def example_panel(view: ExampleView, page_id: str, theme: Theme, width: float) -> list[Flowable]:
    """The panel for one example, marking where it is drawn (the appendix names the page it is on)."""
    styles, p = theme.styles, theme.palette
    size = theme.size * 0.78
    sans, bold = theme.face(SANS), theme.face(SANS, "bold")
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("Setup", list(view.setup)),
        ("Dice, in order", [("", ", ".join(r.face + (f" ({r.die})" if r.die else "") for r in view.rolls))]
         if view.rolls else []),
        ("Deck order, top first", [(pile, "; ".join(orders)) for pile, orders in view.shuffles]),
        ("Actions", [(f"{n}.", action) for n, action in enumerate(view.actions, start=1)]),
        ("Claims checked", [(key, value) for key, value in view.claims]),
        ("What the engine says", [(line.kind, line.text) for line in view.log] or
         [("", "No events." if view.verdict != "unchecked" else "Not replayed: the game has no rules module yet.")]),
    ]
    fonts = theme.fonts
    keys = [key for _, lines in sections for key, _ in lines if key]
    key_width = min(max((fonts.width(bold, k) * size for k in keys), default=0) + 2 * PAD, width * 0.32)
    value_width = width - 2.6 * PAD - key_width

    def lines(text: str, face: str, room: float) -> tuple[str, ...]:
        return tuple(wrap_words(text, room, lambda t: fonts.width(face, t) * size)) if text else ()

    rows = []
    for name, entries in sections:
        if entries:
            rows.append(Row(True, (name.upper(),), ()))
            rows += [Row(False, lines(key, bold, key_width - PAD), lines(value, sans, value_width))
                     for key, value in entries]
    color = VERDICT_COLORS.get(view.verdict, VERDICT_COLORS["unchecked"])
    verdict = f'<font color="{color}"><b>{escape(view.verdict_label)}.</b></font> '
    verdict += escape(VERDICT_NOTES.get(view.verdict, ""))
    if view.erratum:
        verdict += f" <b>Why:</b> {escape(sentence(view.erratum))}"
    if view.message and view.verdict != "verified":
        verdict += f" <b>The engine finds:</b> {escape(sentence(view.message))}"
    look = Look(sans, bold, size, size * 1.3, key_width, theme.color(p.ink), theme.color(p.accent),
                theme.color(p.muted), theme.color(p.tint), theme.color(p.rule), theme.color(color),
                styles["panel-title"], styles["kicker"])
    return [ExamplePanel(view.number, view.name, view.verdict_label.upper(), rows, verdict, look,
                         key=example_key(page_id, view))]
