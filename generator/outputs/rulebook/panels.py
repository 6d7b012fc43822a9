"""Tables and boxes: card tables from the data, the page's own Markdown tables, quotes and code.

Every table repeats its head when it breaks across pages and never leaves fewer than two rows on either
side of the break.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Table, TableStyle

from deckwright.generator.book.tables import TableView

from .document import Para
from .parsed import card_destination
from .settext import SetText, literal
from .theme import SANS, Theme

PAD = 1.4 * mm  # inside table cells


def column_widths(rows: list[list[tuple[tuple[float, ...], float]]], total: float) -> list[float]:
    """Column widths filling ``total`` points, from each cell's (width of each of its lines unbroken, widest
    word): the widths that make the table shortest, found by moving width from column to column while that
    saves lines, none narrower than its widest word (``_narrowest``). A table whose rows fit on one line is
    spread in proportion."""
    pad = 2 * PAD + 1
    columns = list(zip(*rows))
    natural = [max(max(lines) for lines, _ in column) + pad for column in columns]
    minimum = _narrowest(columns, total)
    if sum(natural) <= total:
        return [n + (total - sum(natural)) * n / sum(natural) for n in natural]
    if sum(minimum) >= total:  # past the page only if the cells' padding alone is (some 50 columns)
        return minimum
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


def _narrowest(columns: list[tuple[tuple[tuple[float, ...], float], ...]], total: float) -> list[float]:
    """Each column's narrowest width, its widest word and the cell's padding; when the widest words leave
    the table wider than ``total``, none wider than an equal share of it (a word wider than its column breaks
    inside: ``SetText``, ``Para``), and none narrower than the padding and a point."""
    pad = 2 * PAD + 1
    minimum = [max(m for _, m in column) + pad for column in columns]
    if sum(minimum) > total:
        share = max(total / len(minimum), pad)
        minimum = [min(m, share) for m in minimum]
    return minimum


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


def rulebook_table(rows, widths, head_rows: int, theme: Theme, commands: list, split_in_row: bool = False) -> Table:
    """A table whose head repeats on each page it runs onto, with at least two rows before a break and two
    after it (a table too short for that moves as a whole); with ``split_in_row`` (a row taller than a page),
    breaking wherever the page ends, inside a row if it must."""
    if split_in_row:
        return Table(rows, colWidths=widths, repeatRows=head_rows, splitByRow=0, splitInRow=1,
                     style=table_style(theme, commands), hAlign="LEFT")
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
    minimum = _narrowest(columns, total)
    natural = [max(max(lines) for lines, _ in column) + pad for column in columns]
    amount = [sum(sum(lines) for lines, _ in column) for column in columns]
    widest = max(range(len(columns)), key=lambda i: amount[i])
    room = total - (sum(natural) - natural[widest])
    if len(columns) < 3 or natural[widest] <= room or room >= 0.4 * total:
        return None
    return widest if sum(minimum) - minimum[widest] <= total else None


def cards_table(view: TableView, theme: Theme, writer, width: float) -> Flowable:
    """A ```cards table: a caption row, the column heads (both repeated after a break), a row per card.
    Cells are set like card text (``SetText``); a card's name links to its entry in the index of cards.
    A table too wide for the page prints its wordiest column as a line of its own under each row."""
    styles = theme.styles
    faces = writer.book.faces
    fonts, p = theme.fonts, theme.palette
    size = styles["cell"].fontSize
    regular, bold = fonts.face(SANS), fonts.face(SANS, "bold")
    caption = Para(f"<b>{escape(view.caption)}</b> \u00b7 {view.counted}, from the card data", styles["caption"])

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
            cells.pop(spilled)
            rows.append(cells)
            cell = row[spilled]
            text = cell.text if cell.markup else literal(cell.text)
            rows.append([set_text(f"**{literal(label)}:** {text}", regular, p.ink, False), *[""] * (len(cells) - 1)])
        body, group = rows, 2
    widths = column_widths([[cell.widths() for cell in row if cell != ""] for row in (heads, *body)
                            if all(cell != "" for cell in row)], width)
    tall = _taller_than_a_page(body, widths, theme)

    def table_of(rows: list[list]) -> Table:
        """The table with these of its body rows (all of them, or a part: ``PartedTable``)."""
        commands = _grid(theme, 2, len(rows) + 2, group) + [
            ("SPAN", (0, 0), (-1, 0)), ("LEFTPADDING", (0, 0), (-1, 0), 0),
            ("BOTTOMPADDING", (0, 0), (-1, 0), PAD * 0.6),
        ]
        if spilled is not None:
            commands += [("SPAN", (0, r), (-1, r)) for r in range(3, len(rows) + 2, 2)]
            commands += [("LEFTPADDING", (0, r), (-1, r), PAD * 4) for r in range(3, len(rows) + 2, 2)]
        if tall:  # a card's row and its spilled line may part, the only way such a row can
            commands = [command for command in commands if command[0] != "NOSPLIT"]
        return rulebook_table([[caption] + [""] * (len(heads) - 1), heads, *rows], widths, 2, theme, commands,
                              split_in_row=tall)

    if tall or len(body) <= 2 * PART_ROWS:
        return table_of(body)
    return PartedTable(table_of, body, group)


# Body rows made into one ReportLab Table at a time, at first. At each page a table breaks onto, ReportLab makes a
# new Table of all the rows left and measures every one of them again (without row spans its long-table
# shortcut never stops early): a table of 4,000 cards took 20 s, quadratic in its rows.
PART_ROWS = 48
TALLER_THAN_A_PAGE = 1200.0  # points: more than an A3 page's height


class PartedTable(Flowable):
    """A long table laid out a part at a time (``make``: the Table of some body rows, with the caption and the
    heads): each page gets what it holds of a part more than a page long (``PART_ROWS`` rows, or twice that
    while it is not), and the rows after those start the next. ``group``: rows that stay together (a card's row
    and its spilled line), so parts hold whole groups. Drawn as the whole table broken by ReportLab is, apart
    from the rows' stripes, which start again on each page."""

    def __init__(self, make, rows: list[list], group: int = 1):
        super().__init__()
        self.make, self.rows, self.group = make, rows, group
        self._made: tuple | None = None  # (width, height, the part made for that room, its width and height)

    def _part(self, width: float, height: float) -> tuple[Table, float, float]:
        """A part taller than ``height`` (or than any page, or all the rows), wrapped: the table, its width and
        height."""
        if self._made is None or self._made[:2] != (width, height):
            size = PART_ROWS - PART_ROWS % self.group
            while True:
                table = self.make(self.rows[:size])
                made_width, made_height = table.wrap(width, height)
                # (a room taller than any page, as a wrap that only asks how tall the table is gives: a part taller
                # than a page is what it is told, as the whole table would tell it that)
                if made_height > min(height, TALLER_THAN_A_PAGE) or size >= len(self.rows):
                    break
                size *= 2
            self._made = (width, height, table, made_width, made_height)
        return self._made[2:]

    def wrap(self, width: float, height: float) -> tuple[float, float]:
        _, self.width, self.height = self._part(width, height)
        return self.width, self.height

    def split(self, width: float, height: float) -> list[Flowable]:
        table, _, made_height = self._part(width, height)
        parts = table.split(width, height) if made_height > height else [table]
        if not parts:
            return []
        placed = parts[0]._nrows - 2  # body rows on this page, after the caption and heads (ReportLab's count)
        rest = self.rows[placed:]
        return [parts[0], PartedTable(self.make, rest, self.group)] if rest else [parts[0]]

    def draw(self) -> None:  # (all its rows in one part that fits the room: drawn as that table)
        self._made[2].drawOn(self.canv, 0, 0)


def _taller_than_a_page(body: list[list], widths: list[float], theme: Theme) -> bool:
    """Whether a row of cells (``SetText``; a lone first cell spans the row) is too tall for a page with the
    table's caption and heads: such a row must break inside, or the table could not be laid out."""
    room = theme.geometry.text_height * mm * 0.8
    for row in body:
        cells = [cell for cell in row if cell != ""]
        spans = [sum(widths) - 5 * PAD] if len(cells) == 1 < len(row) else [w - PAD - PAD for w in widths]
        if any(cell.at_most(width) > room and cell.wrap(width, room)[1] > room for cell, width in zip(cells, spans)):
            return True
    return False


def markdown_table(heads: list[str], rows: list[list[str]], plain_texts: list[list[str]], numeric: list[bool],
                   theme: Theme, width: float) -> Table:
    """A table written in the page's Markdown (cells already paragraph markup; ``plain_texts`` their text, the
    head's row first)."""
    styles = theme.styles
    head_row = [Para(h, styles["head-num" if n else "head"]) for h, n in zip(heads, numeric)]
    body = [[Para(c, styles["cell-num" if n else "cell"]) for c, n in zip(row, numeric)] for row in rows]
    faces = [styles["head"].fontName] + [styles["cell"].fontName] * (len(plain_texts) - 1)  # the head in bold
    size = styles["cell"].fontSize
    widths = column_widths([[_text_widths(text, face, theme.fonts, size) for text in row]
                            for row, face in zip(plain_texts, faces) if len(row) == len(heads)], width)
    return rulebook_table([head_row, *body], widths, 1, theme, _grid(theme, 1, len(body) + 1))


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
