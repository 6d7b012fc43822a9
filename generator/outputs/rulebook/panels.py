"""Tables and boxed panels: card tables from the data, the page's own Markdown tables, worked examples
with the engine's verdict, quotes and code.

Every table repeats its head when it breaks across pages and never leaves fewer than two rows on either
side of the break.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Table, TableStyle

from deckwright.generator.book.examples import ExampleView
from deckwright.generator.book.tables import TableView

from .document import Mark, Para
from .parsed import card_destination
from .settext import SetText, literal
from .theme import SANS, VERDICT_COLORS, Theme

PAD = 1.4 * mm  # inside table cells
VERDICT_NOTES = {
    "verified": "Every claim above is what the rules engine finds.",
    "erratum": "Known erratum: kept as the source gives it.",
    "failing": "The rules engine disagrees with this example.",
    "unchecked": "Not replayed: the game has no rules module yet.",
}


def column_widths(rows: list[list[tuple[tuple[float, ...], float]]], total: float) -> list[float]:
    """Column widths filling ``total`` points, from each cell's (width of each of its lines unbroken, widest
    word): the widths that make the table shortest, found by moving width from column to column while that
    saves lines, none narrower than its widest word. A table whose rows fit on one line is spread in
    proportion."""
    pad = 2 * PAD + 1
    columns = list(zip(*rows))
    natural = [max(max(lines) for lines, _ in column) + pad for column in columns]
    minimum = [max(m for _, m in column) + pad for column in columns]
    if sum(natural) <= total:
        return [n + (total - sum(natural)) * n / sum(natural) for n in natural]
    if sum(minimum) >= total:
        return [total * m / sum(minimum) for m in minimum]
    counts: dict[tuple[int, int], list[float]] = {}  # (column, width) -> each row's lines in that column

    def column_lines(column: int, width: float) -> list[float]:
        """A cell's lines counted as its text's width over the column's; a fraction added so that a move
        towards fewer lines counts before it saves a whole one."""
        key = (column, int(width))
        if key not in counts:
            room = max(1.0, int(width) - pad)
            counts[key] = [sum(-(-n // room) + n / room / 1000 for n in cell) for cell, _ in columns[column]]
        return counts[key]

    def lines(widths: list[float]) -> float:
        return sum(map(max, *(column_lines(c, w) for c, w in enumerate(widths)))) if len(widths) > 1 \
            else sum(column_lines(0, widths[0]))

    widths = [m + (total - sum(minimum)) * (n - m) / (sum(natural) - sum(minimum))
              for n, m in zip(natural, minimum)]
    best = lines(widths)
    for _ in range(200):  # moves; a table settles in far fewer
        move = next(((give, take, step) for step in (12.0, 4.0) for give in range(len(widths))
                     for take in range(len(widths))
                     if give != take and widths[give] - step >= minimum[give] and widths[take] < natural[take]
                     and lines(_moved(widths, give, take, step)) < best), None)
        if move is None:
            break
        widths = _moved(widths, *move)
        best = lines(widths)
    return widths


def _moved(widths: list[float], give: int, take: int, step: float) -> list[float]:
    moved = list(widths)
    moved[give] -= step
    moved[take] += step
    return moved


def _text_widths(text: str, face: str, fonts, size: float) -> tuple[tuple[float, ...], float]:
    """Plain text's lines' widths unbroken, and its widest word, in points."""
    return (tuple(fonts.width(face, line) * size for line in text.split("\n")),
            max((fonts.width(face, w) for w in text.split()), default=0.0) * size)


def table_style(theme: Theme, commands: list) -> TableStyle:
    """A table's style, its plain-text cells in the game's sans (ReportLab's default is Helvetica, a font
    not embedded: even an empty cell would name it in the file)."""
    return TableStyle([("FONT", (0, 0), (-1, -1), theme.face(SANS), theme.size * 0.8), *commands])


def rulebook_table(rows, widths, head_rows: int, theme: Theme, commands: list) -> Table:
    """A table whose head repeats on each page it runs onto, with at least two rows before a break and two
    after it (a table too short for that moves as a whole)."""
    split_range = (head_rows + 2, -2) if len(rows) >= head_rows + 4 else (len(rows), len(rows))
    return Table(rows, colWidths=widths, repeatRows=head_rows, splitByRow=1, rowSplitRange=split_range,
                 style=table_style(theme, commands), hAlign="LEFT")


def _grid(theme: Theme, head_rows: int, rows: int, group: int = 1) -> list:
    """Heads on the paper colour over an accent rule; the body's rows (or groups of ``group`` rows that
    belong together) striped, a hairline under each."""
    p = theme.palette
    tint, deep, rule = theme.color(p.tint), theme.color(p.deep), theme.color(p.rule)
    commands = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD), ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        ("TOPPADDING", (0, 0), (-1, -1), PAD * 0.8), ("BOTTOMPADDING", (0, 0), (-1, -1), PAD),
        ("BACKGROUND", (0, head_rows - 1), (-1, head_rows - 1), deep),
        ("LINEBELOW", (0, head_rows - 1), (-1, head_rows - 1), 0.9, theme.color(p.accent)),
    ]
    if group == 1:
        return commands + [("LINEBELOW", (0, head_rows), (-1, -1), 0.3, rule),
                           ("ROWBACKGROUNDS", (0, head_rows), (-1, -1), [None, tint])]
    for number, first in enumerate(range(head_rows, rows, group)):
        last = min(first + group, rows) - 1
        commands += [("LINEBELOW", (0, last), (-1, last), 0.3, rule), ("NOSPLIT", (0, first), (-1, last)),
                     ("BOTTOMPADDING", (0, first), (-1, last - 1), 0)]
        if number % 2:
            commands.append(("BACKGROUND", (0, first), (-1, last), tint))
    return commands


def _spilled_column(cells: list[list[tuple[tuple[float, ...], float]]], total: float) -> int | None:
    """The column that would leave a table too cramped (its text squeezed into a narrow column, or no room
    at all): it goes on a line of its own under each row."""
    pad = 2 * PAD + 1
    columns = list(zip(*cells))
    minimum = [max(m for _, m in column) + pad for column in columns]
    natural = [max(max(lines) for lines, _ in column) + pad for column in columns]
    amount = [sum(sum(lines) for lines, _ in column) for column in columns]
    widest = max(range(len(columns)), key=lambda i: amount[i])
    room = total - (sum(natural) - natural[widest])
    if len(columns) < 3 or natural[widest] <= room or room >= 0.4 * total:
        return None
    return widest if sum(minimum) - minimum[widest] <= total else None


def cards_table(view: TableView, theme: Theme, writer, width: float) -> Table:
    """A ```cards table: a caption row, the column heads (both repeated after a break), a row per card.
    Cells are set like card text (``SetText``); a card's name links to its entry in the index of cards.
    A table too wide for the page prints its wordiest column as a line of its own under each row."""
    styles = theme.styles
    faces = writer.book.faces
    fonts, p = theme.fonts, theme.palette
    size = styles["cell"].fontSize
    regular, bold = fonts.face(SANS), fonts.face(SANS, "bold")
    count = len(view.rows)
    caption = Para(f"<b>{escape(view.caption)}</b> \u00b7 {count} card{'s' if count != 1 else ''}, "
                   f"from the card data", styles["caption"])

    def set_text(markup: str, face, color: str, numeric: bool, **kwargs) -> SetText:
        return SetText(markup, face, size, color, faces, "right" if numeric else "left", **kwargs)

    def cell_text(cell) -> SetText:
        if cell.card is not None:
            return set_text(literal(cell.text), regular, p.accent, cell.numeric,
                            link=card_destination(cell.card.id), mention=cell.card.id)
        if cell.open_note:
            return set_text("**?**", regular, p.accent, cell.numeric)
        return set_text(cell.text if cell.markup else literal(cell.text), regular, p.ink, cell.numeric)

    heads = [set_text(literal(h), bold, p.ink, num) for h, num in zip(view.headers, view.numeric)]
    body = [[cell_text(cell) for cell in row] for row in view.rows]
    spilled = _spilled_column([[cell.widths() for cell in row] for row in (heads, *body)], width)
    group = 1
    if spilled is not None:
        label = view.headers[spilled]
        heads.pop(spilled)
        rows = []
        for row, cells in zip(view.rows, body):
            note = cells.pop(spilled)
            rows.append(cells)
            cell = row[spilled]
            text = cell.text if cell.markup else literal(cell.text)
            rows.append([set_text(f"**{literal(label)}:** {text}", regular, p.ink, False), *[""] * (len(cells) - 1)])
        body, group = rows, 2
    widths = column_widths([[cell.widths() for cell in row if cell != ""] for row in (heads, *body)
                            if all(cell != "" for cell in row)], width)
    commands = _grid(theme, 2, len(body) + 2, group) + [
        ("SPAN", (0, 0), (-1, 0)), ("LEFTPADDING", (0, 0), (-1, 0), 0), ("BOTTOMPADDING", (0, 0), (-1, 0), PAD * 0.6),
    ]
    if spilled is not None:
        commands += [("SPAN", (0, r), (-1, r)) for r in range(3, len(body) + 2, 2)]
        commands += [("LEFTPADDING", (0, r), (-1, r), PAD * 4) for r in range(3, len(body) + 2, 2)]
    return rulebook_table([[caption] + [""] * (len(heads) - 1), heads, *body], widths, 2, theme, commands)


def markdown_table(heads: list[str], rows: list[list[str]], plain_texts: list[list[str]], numeric: list[bool],
                   theme: Theme, width: float) -> Table:
    """A table written in the page's Markdown (cells already paragraph markup)."""
    styles = theme.styles
    head_row = [Para(h, styles["head-num" if n else "head"]) for h, n in zip(heads, numeric)]
    body = [[Para(c, styles["cell-num" if n else "cell"]) for c, n in zip(row, numeric)] for row in rows]
    face, size = styles["cell"].fontName, styles["cell"].fontSize
    widths = column_widths([[_text_widths(text, face, theme.fonts, size) for text in row] for row in plain_texts
                            if len(row) == len(heads)], width)
    return rulebook_table([head_row, *body], widths, 1, theme, _grid(theme, 1, len(body) + 1))


class Kicker(Flowable):
    """A panel's small title line; drawn again at the top of a page the panel runs onto (a table's repeated
    head), it says so."""

    def __init__(self, text: str, style):
        super().__init__()
        self.text, self.style = text, style
        self._drawn_on: set[int] = set()  # canvases it has been drawn on (the booklet's pages are drawn twice)

    def wrap(self, available_width, available_height):
        self.width = available_width
        self.height = self.style.leading
        return self.width, self.height

    def draw(self):
        c = self.canv
        continued = id(c) in self._drawn_on
        self._drawn_on.add(id(c))
        c.setFont(self.style.fontName, self.style.fontSize)
        c.setFillColor(self.style.textColor)
        c.drawString(0, self.height - self.style.fontSize, self.text + (" (CONTINUED)" if continued else ""))


class Badge(Flowable):
    """A verdict, white on its colour in a rounded box."""

    def __init__(self, text: str, color, font: str, size: float):
        super().__init__()
        self.text, self.color, self.font, self.size = text, color, font, size
        self.width = stringWidth(text, font, size) + size * 1.4
        self.height = size * 1.75

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        c = self.canv
        c.saveState()
        c.setFillColor(self.color)
        c.roundRect(0, 0, self.width, self.height, self.height / 2, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.setFont(self.font, self.size)
        c.drawCentredString(self.width / 2, self.height * 0.3, self.text)
        c.restoreState()


def example_key(page_id: str, view: ExampleView) -> str:
    return f"{page_id}--{view.anchor}"


def wrap_words(text: str, width: float, measure) -> list[str]:
    """``text`` broken into lines no wider than ``width`` points (``measure(text)`` gives a width): at spaces,
    and inside a word too long for a line after a dot, hyphen or underscore, or anywhere if it must."""
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
            line = word
            while measure(line) > width and len(line) > 1:
                cut = len(line) - 1
                while cut > 1 and measure(line[:cut]) > width:
                    cut -= 1
                soft = max(line.rfind(mark, 0, cut) for mark in "._-")
                cut = soft + 1 if soft > 0 else cut
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
    return lines


class PanelText:
    """Plain text set in a panel's cells: wrapped once here, drawn by the table as lines (a Paragraph per
    cell would be parsed, and wrapped twice, for every line of an engine log)."""

    def __init__(self, theme: Theme, size: float):
        self.fonts = theme.fonts
        self.size = size

    def lines(self, text: str, face: str, width: float) -> str:
        measure = lambda t: self.fonts.width(face, t) * self.size  # noqa: E731
        return "\n".join(wrap_words(text, width - 2 * PAD, measure))


def example_key(page_id: str, view: ExampleView) -> str:
    return f"{page_id}--{view.anchor}"


def example_panel(view: ExampleView, page_id: str, theme: Theme, width: float) -> list[Flowable]:
    """A worked example as a boxed panel: setup, dice, deck orders, actions, the claims checked, what the
    engine says, and the verdict. It breaks between rows, its title row repeated."""
    styles = theme.styles
    p = theme.palette
    size = theme.size * 0.78
    sans, bold = theme.face(SANS), theme.face(SANS, "bold")
    text = PanelText(theme, size)
    verdict_color = theme.color(VERDICT_COLORS.get(view.verdict, VERDICT_COLORS["unchecked"]))
    badge = Badge(view.verdict_label.upper(), verdict_color, bold, theme.size * 0.62)
    title = Table([[[Kicker(f"WORKED EXAMPLE {view.number}", styles["kicker"]),
                     Para(escape(view.name), styles["panel-title"])], badge]],
                  colWidths=[width - badge.width - 4 * PAD, badge.width + 2 * PAD],
                  style=table_style(theme, [("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                                    ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                    ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))

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
    keys = [key for _, lines in sections for key, _ in lines if key]
    key_width = min(max((theme.fonts.width(bold, k) * size for k in keys), default=0) + 2 * PAD + 2, width * 0.34)
    value_width = width - key_width
    rows: list[list] = [[title, ""]]
    heads = []  # styled after the cells' common style, which would otherwise override them
    for name, lines in sections:
        if not lines:
            continue
        rows.append([name.upper(), ""])
        heads += [("SPAN", (0, len(rows) - 1), (-1, len(rows) - 1)),
                     ("FONT", (0, len(rows) - 1), (0, len(rows) - 1), bold, size * 0.9),
                     ("TEXTCOLOR", (0, len(rows) - 1), (0, len(rows) - 1), theme.color(p.accent)),
                     ("TOPPADDING", (0, len(rows) - 1), (-1, len(rows) - 1), PAD * 1.3)]
        for key, value in lines:
            rows.append([text.lines(key, bold, key_width), text.lines(value, sans, value_width)])
    verdict = f'<font color="{VERDICT_COLORS.get(view.verdict, p.muted)}"><b>{escape(view.verdict_label)}.</b></font> '
    verdict += escape(VERDICT_NOTES.get(view.verdict, ""))
    if view.erratum:
        verdict += f" <b>Why:</b> {escape(view.erratum)}"
    if view.message and view.verdict != "verified":
        verdict += f" <b>The engine finds:</b> {escape(view.message)}"
    rows.append([Para(verdict, styles["panel"]), ""])
    last = len(rows) - 1
    commands = [
        ("SPAN", (0, 0), (-1, 0)), ("SPAN", (0, last), (-1, last)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONT", (0, 1), (0, last - 1), bold, size, size * 1.3),
        ("FONT", (1, 1), (1, last - 1), sans, size, size * 1.3),
        ("TEXTCOLOR", (0, 1), (-1, last - 1), theme.color(p.ink)),
        ("BACKGROUND", (0, 0), (-1, -1), theme.color(p.tint)),
        ("LINEBEFORE", (0, 0), (0, -1), 2.2, verdict_color),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD * 1.6), ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        ("TOPPADDING", (0, 1), (-1, -1), PAD * 0.15), ("BOTTOMPADDING", (0, 1), (-1, -1), PAD * 0.35),
        ("TOPPADDING", (0, 0), (-1, 0), PAD * 1.4), ("BOTTOMPADDING", (0, 0), (-1, 0), PAD * 1.0),
        ("LINEBELOW", (0, 0), (-1, 0), 0.4, theme.color(p.rule)),
        ("TOPPADDING", (0, last), (-1, last), PAD * 1.0), ("BOTTOMPADDING", (0, last), (-1, last), PAD * 1.4),
        ("LINEABOVE", (0, last), (-1, last), 0.4, theme.color(p.rule)),
    ] + heads
    return [Mark(example_key(page_id, view)), rulebook_table(rows, [key_width, value_width], 1, theme, commands)]


def boxed(flowables: list[Flowable], theme: Theme, width: float, rule_color: str | None = None,
          background: str | None = None) -> Table:
    """Flowables in a box: a quote (a rule on its left) or code and notes (a tinted ground)."""
    commands = [("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), PAD * 2.2), ("RIGHTPADDING", (0, 0), (-1, -1), PAD * 1.5),
                ("TOPPADDING", (0, 0), (-1, -1), PAD), ("BOTTOMPADDING", (0, 0), (-1, -1), PAD * 0.4)]
    if rule_color:
        commands.append(("LINEBEFORE", (0, 0), (0, -1), 1.6, theme.color(rule_color)))
    if background:
        commands.append(("BACKGROUND", (0, 0), (-1, -1), theme.color(background)))
    return Table([[flowables]], colWidths=[width], style=table_style(theme, commands), hAlign="LEFT", splitInRow=1)
