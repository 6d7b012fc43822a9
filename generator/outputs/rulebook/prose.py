"""One rulebook page's element tree as flowables: headings, paragraphs, lists, quotes, tables, code, pictures
(``figures``), and deckwright's card tables and worked examples.

The first time a section names a card, a small picture of it stands beside the text (two cards at most;
more are shown in a row under the text that names them). A heading stays with the start of what follows.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, ListFlowable, ListItem, Spacer, XPreformatted
from reportlab.platypus.flowables import HRFlowable

from .document import Heading, Para
from .examples import example_panel
from .figures import figure
from .flow import Float, KeepWithNext
from .inline import InlineWriter
from .panels import boxed, cards_table, markdown_table
from .parsed import CARDS_TABLE, CODE, EXAMPLE, ParsedBook, ParsedPage, destination, plain_text
from .pictures import GAP, CardPicture, Thumbnails
from .theme import SANS, SERIF, Theme

BLOCK_TAGS = frozenset({"p", "ul", "ol", "blockquote", "pre", "table", "div", "hr",
                        "h1", "h2", "h3", "h4", "h5", "h6", "img"})  # a picture stands between the lines around it
PICTURE = frozenset({"img"})
FLOAT_MOST = 2  # cards pictured beside the text; more go in a row under it
FLOAT_REACH = 3  # blocks of text that may run beside one float


@dataclass
class Item:
    """A block of the page as flowables, with the cards it names (for their pictures)."""

    flowables: list[Flowable]
    kind: str  # "heading", "text" (may run beside pictures) or "other"
    cards: list[str] = field(default_factory=list)
    level: int = 0  # of a heading


class PageFlow:
    """Flowables for one page in one format."""

    def __init__(self, book: ParsedBook, theme: Theme, parsed: ParsedPage, width: float):
        self.book = book
        self.theme = theme
        self.parsed = parsed
        self.width = width  # points
        self.writer = InlineWriter(book, theme, parsed)
        self.styles = theme.styles

    def flowables(self) -> list[Flowable]:
        items = [item for element in self.parsed.tree for item in self._items(element)]
        titles = [number for number, item in enumerate(items) if item.kind == "heading" and item.level == 1]
        if not titles:  # a page without a level-1 heading: its chapter opens with the title its file name gives
            items.insert(0, self._title(escape(self.parsed.page.title), self.parsed.page.title))
        elif titles[0]:  # words before the title: the chapter still opens with the title (once: one bookmark)
            items.insert(0, items.pop(titles[0]))
        return self._assemble(items)

    # -- blocks ------------------------------------------------------------------

    def _items(self, element: Element) -> list[Item]:
        tag = element.tag
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            text, title = self.writer.markup(element), self._plain(element)
            if element is self.parsed.title:
                return [self._title(text, title)]
            return [self._heading(int(tag[1]), text, title, element.get("id", ""))]
        if tag == "p":
            made = self.writer.block_of(element)
            if made is not None:
                return [self._made(made)]
            cards: list[str] = []
            items = [Item([flowable], "text" if isinstance(flowable, Para) else "other")
                     for flowable in self._paragraph(element, self.styles["body"], cards)]
            for item in items[:1]:
                item.cards = cards
            return items
        if tag == "img":
            return [Item([figure(element, self.book.game.root, self.theme)], "other")]
        if tag in ("ul", "ol"):
            cards = []
            return [Item([self._list(element, cards, 0)], "text", cards)]
        if tag == "blockquote":
            cards = []
            inner = self._inner(element, cards, quote=True)
            return [Item([boxed(inner, self.theme, self.width, rule_color=self.theme.palette.accent)], "text", cards)]
        if tag == "table":
            return [Item([self._table(element)], "other")]
        if tag == "pre":
            return [Item([self._code("".join(element.itertext()))], "other")]
        if tag == "hr":
            return [Item([HRFlowable(width="40%", thickness=0.6, color=self.theme.color(self.theme.palette.rule),
                                     spaceBefore=6, spaceAfter=10)], "other")]
        if tag == "div" and "admonition" in element.get("class", ""):
            cards = []
            inner = self._inner(element, cards)
            return [Item([boxed(inner, self.theme, self.width, background=self.theme.palette.tint)], "text", cards)]
        cards = []
        text = self.writer.markup(element, cards)
        return [Item([Para(text, self.styles["body"])], "text", cards)] if text else []

    def _title(self, text: str, title: str) -> Item:
        """The page's title, which opens its chapter."""
        flowables: list[Flowable] = [CondPageBreak(self.theme.geometry.text_height * mm * 0.3),
                                     Heading(text, self.styles["h1"], destination(self.parsed.page.id), title, 0,
                                             chapter=True)]
        return Item(flowables, "heading", level=1)

    def _heading(self, level: int, text: str, title: str, anchor: str) -> Item:
        """A heading inside the chapter. A level-1 heading other than the title is a section, as the contents
        list it (``ParsedBook``)."""
        level = max(level, 2)
        key = destination(self.parsed.page.id, anchor)
        style = self.styles["h2" if level == 2 else "h3"]
        return Item([Heading(text, style, key, title, 1 if level == 2 else None)], "heading", level=level)

    def _made(self, made: Element) -> Item:
        """A fenced block's stand-in: a card table, a worked example or code."""
        line = int(made.get("line", "0"))
        if made.tag == CARDS_TABLE:
            return Item([cards_table(self.parsed.tables[line], self.theme, self.writer, self.width)], "other")
        if made.tag == EXAMPLE:
            view = self.parsed.examples[line]
            return Item(example_panel(view, self.parsed.page.id, self.theme, self.width), "other")
        if made.tag == CODE:
            return Item([self._code(made.text or "")], "other")
        return Item([], "other")

    def _inner(self, element: Element, cards: list[str], quote: bool = False) -> list[Flowable]:
        """The blocks inside a quote or an admonition."""
        style = self.styles["quote" if quote else "body"]
        out: list[Flowable] = []
        for run in self.writer.runs(element, BLOCK_TAGS, cards):
            if isinstance(run, str):
                out.append(Para(run, style))
            elif run.tag == "p" and "admonition-title" in run.get("class", ""):
                out.append(Para(f"<b>{self.writer.markup(run, cards)}</b>", self.styles["h3"]))
            elif run.tag == "p":
                out.extend(self._paragraph(run, style, cards))
            elif run.tag in ("ul", "ol"):
                out.append(self._list(run, cards, 0))
            else:
                out.extend(f for item in self._items(run) for f in item.flowables)
        return out

    def _paragraph(self, element: Element, style, cards: list[str]) -> list[Flowable]:
        """A paragraph's text, broken where a picture stands in it: the text before, the figure, the text after."""
        if element.find("img") is None:
            text = self.writer.markup(element, cards)
            return [Para(text, style)] if text else []
        return [Para(run, style) if isinstance(run, str) else figure(run, self.book.game.root, self.theme)
                for run in self.writer.runs(element, PICTURE, cards)]

    def _list(self, element: Element, cards: list[str], depth: int) -> ListFlowable:
        theme = self.theme
        ordered = element.tag == "ol"
        items = []
        for li in element.findall("li"):
            content: list[Flowable] = []
            for run in self.writer.runs(li, BLOCK_TAGS, cards):
                if isinstance(run, str):
                    content.append(Para(run, self.styles["item"]))
                elif run.tag == "p":
                    content.extend(self._paragraph(run, self.styles["item"], cards))
                elif run.tag in ("ul", "ol"):
                    content.append(self._list(run, cards, depth + 1))
                else:
                    content.extend(f for item in self._items(run) for f in item.flowables)
            items.append(ListItem(content or [Para("", self.styles["item"])]))
        size = theme.size
        options = dict(leftIndent=size * 1.5, bulletColor=theme.color(theme.palette.accent),
                       spaceAfter=size * 0.45 if depth == 0 else 0)
        if ordered:
            return ListFlowable(items, bulletType="1", start=element.get("start", "1"), bulletFormat="%s.",
                                bulletFontName=theme.face(SANS, "bold"), bulletFontSize=size * 0.82,
                                bulletOffsetY=-size * 0.05, **options)
        return ListFlowable(items, bulletType="bullet", start="\u2022" if depth == 0 else "\u2013",
                            bulletFontName=theme.face(SERIF, "bold"), bulletFontSize=size, **options)

    def _table(self, element: Element) -> Flowable:
        """A table written in Markdown: the head row and the body rows as they stand."""
        heads, rows, plains, numeric = [], [], [], []
        head = element.find("thead/tr")
        for cell in (head if head is not None else []):
            heads.append(self.writer.markup(cell))
            numeric.append(cell.get("align") == "right")
        for tr in element.findall("tbody/tr"):
            rows.append([self.writer.markup(cell) for cell in tr])
            plains.append([self._plain(cell) for cell in tr])
        plains.insert(0, [self._plain(cell) for cell in (head if head is not None else [])])
        width = len(heads) or max((len(r) for r in rows), default=1)
        numeric = numeric or [False] * width
        return markdown_table(heads or [""] * width, rows, plains, numeric, self.theme, self.width)

    def _plain(self, element: Element) -> str:
        return plain_text(self.parsed.markdown, element, self.book.game)

    def _code(self, text: str) -> Flowable:
        style = self.styles["panel"]
        block = XPreformatted(escape(text.rstrip("\n")), style)
        return boxed([block], self.theme, self.width, background=self.theme.palette.tint)

    # -- pictures and keeping together -------------------------------------------

    def _pictures(self, card_ids: list[str], columns: int | None = None) -> Thumbnails:
        """The cards' pictures side by side, ``columns`` to a row (by default as many as the text width holds)."""
        game = self.book.game
        scale = self.theme.geometry.thumb_scale
        edge = self.theme.color(self.theme.palette.rule)
        pictures = [CardPicture(self.book.face(game.card(c)), ("face", c), scale, self.book.faces.fonts, edge)
                    for c in card_ids]
        if columns is None:
            widest, gap = max(picture.width for picture in pictures), GAP * mm
            columns = max(1, int((self.width + gap) // (widest + gap)))
        names = [escape(game.card(c).name) for c in card_ids]
        return Thumbnails(pictures, names, self.styles["thumb"], columns)

    def _assemble(self, items: list[Item]) -> list[Flowable]:
        """Pictures for each section's first mentions, then each heading kept with what follows it."""
        pieces: list[tuple[str, Flowable]] = []  # ("heading" or "", flowable)
        seen: set[str] = set()
        index = 0
        while index < len(items):
            item = items[index]
            index += 1
            if item.kind == "heading":
                if item.level <= 2:
                    seen = set()
                pieces.extend(("heading" if isinstance(f, Heading) else "", f) for f in item.flowables)
                continue
            new = [c for c in dict.fromkeys(item.cards) if c not in seen]
            seen.update(new)
            if not new or item.kind != "text":
                pieces.extend(("", f) for f in item.flowables)
            elif len(new) <= FLOAT_MOST:
                beside = list(item.flowables)
                while index < len(items) and len(beside) < FLOAT_REACH and items[index].kind == "text" \
                        and not [c for c in items[index].cards if c not in seen]:
                    beside.extend(items[index].flowables)
                    index += 1
                pieces.append(("", Float(self._pictures(new, len(new)), beside, GAP * mm)))
            else:
                pieces.extend(("", f) for f in item.flowables)
                pieces.extend([("", self._pictures(new)), ("", Spacer(1, self.theme.size * 0.8))])
        return kept_with_next(pieces)


def kept_with_next(pieces: list[tuple[str, Flowable]]) -> list[Flowable]:
    """The flowables, each run of headings kept with what follows it: the next flowable, or the run's last
    heading when a chapter's page break or nothing follows."""
    out: list[Flowable] = []
    run: list[Flowable] = []
    for kind, flowable in pieces:
        if kind == "heading":
            run.append(flowable)
            continue
        if run and not isinstance(flowable, CondPageBreak):
            out.append(KeepWithNext(run, flowable))
        else:
            out += kept_together(run)
            out.append(flowable)
        run = []
    return out + kept_together(run)


def kept_together(headings: list[Flowable]) -> list[Flowable]:
    return [KeepWithNext(headings[:-1], headings[-1])] if len(headings) > 1 else headings
