"""The rulebook's document: page templates, running headers and page numbers, and what one pass of layout
learns as it draws.

The whole book is laid out in a single pass. What the front of the book needs from later pages (the page
numbers in the contents) is drawn as a form XObject named for the entry and defined once the pass is over;
what the back needs (the index of cards, the page of each erratum) is made when the layout reaches it, by
then every earlier page is drawn.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Spacer
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.flowables import NullDraw

from deckwright.generator.render.pdf import PT_PER_MM

from .theme import SANS, Theme


def page_destination(number: int) -> str:
    return f"page-{number}"


MENTION = "mention"  # the paragraph callback (<onDraw name="mention" label="card-id"/>) that records a card's page


@dataclass
class Ledger:
    """What the pass has drawn so far, and where."""

    pages: dict[str, int] = field(default_factory=dict)  # destination key -> page number
    mentions: dict[str, list[int]] = field(default_factory=dict)  # card id -> pages, in order, once each
    chapter: str = ""  # the chapter being drawn
    page_chapter: str | None = None  # the chapter at the top of the current page

    def mention(self, card_id: str, page: int) -> None:
        pages = self.mentions.setdefault(card_id, [])
        if not pages or pages[-1] != page:
            pages.append(page)


class Para(Paragraph):
    """A paragraph that breaks its lines once for each width: platypus asks for the same wrap again and
    again (to keep things together, to float them beside pictures, to split them)."""

    def wrap(self, available_width, available_height):
        if getattr(self, "_wrapped_at", None) == available_width and hasattr(self, "blPara"):
            return self.width, self.height
        size = super().wrap(available_width, available_height)
        self._wrapped_at = available_width if hasattr(self, "blPara") else None
        return size


class Heading(Para):
    """A heading that marks where it lands: a destination for links, an outline entry and the page the
    contents show for it."""

    def __init__(self, text, style, key: str = "", title: str = "", outline_level: int | None = None,
                 chapter: bool = False, **kwargs):
        super().__init__(text, style, **kwargs)
        self.key = key
        self.title = title
        self.outline_level = outline_level
        self.chapter = chapter

    def split(self, available_width, available_height):
        """A heading too long for the room: its first part marks the place."""
        parts = super().split(available_width, available_height)
        if parts:
            first = parts[0]
            first.key, first.title, first.outline_level, first.chapter = (self.key, self.title, self.outline_level,
                                                                          self.chapter)
        return parts

    def draw(self):
        canv = self.canv
        doc = canv._doctemplate
        if not self.key:
            super().draw()
            return
        if self.chapter:
            doc.ledger.chapter = self.title
        doc.ledger.pages[self.key] = canv.getPageNumber()
        canv.bookmarkHorizontal(self.key, 0, self.height + self.style.fontSize * 0.5)
        if self.outline_level is not None:
            canv.addOutlineEntry(self.title, self.key, level=self.outline_level, closed=self.outline_level > 0)
        super().draw()


class Mark(NullDraw):
    """An invisible destination (a worked example, an index entry): records its page and bookmarks it."""

    _ZEROSIZE = 1

    def __init__(self, key: str):
        super().__init__()
        self.key = key

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        self.canv._doctemplate.ledger.pages[self.key] = self.canv.getPageNumber()
        self.canv.bookmarkHorizontal(self.key, 0, 0)


class Later(NullDraw):
    """Flowables made when the layout gets here, from what has been drawn by then."""

    _ZEROSIZE = 1

    def __init__(self, make):
        super().__init__()
        self.make = make
        self.made = False

    def wrap(self, available_width, available_height):
        if not self.made:
            self.made = True
            doc = self.canv._doctemplate
            doc.frame.add_generated_content(*self.make(doc.ledger))
        return 0, 0


class RulebookDoc(BaseDocTemplate):
    """One pass of a rulebook onto one canvas: a cover page, body pages, and two-column index pages."""

    def __init__(self, target, theme: Theme, title: str, subject: str, running_title: str):
        g = theme.geometry
        super().__init__(str(target) if hasattr(target, "__fspath__") else target, pagesize=g.page_pt, title=title,
                         subject=subject, author="", creator="deckwright", producer="deckwright (ReportLab)",
                         initialFontName=theme.face(SANS), invariant=1, pageCompression=1)
        self.theme = theme
        self.running_title = running_title
        self.ledger = Ledger()
        self.page_refs: dict[str, str] = {}  # destination key -> the form that shows its page number
        width, height = g.page_pt
        k = PT_PER_MM
        body = Frame(g.inner * k, g.bottom * k, g.text_width * k, g.text_height * k, 0, 0, 0, 0, id="body")
        gutter = 6 * k
        half = (g.text_width * k - gutter) / 2
        columns = [Frame(g.inner * k + i * (half + gutter), g.bottom * k, half, g.text_height * k,
                         0, 0, 0, 0, id=f"column{i}") for i in (0, 1)]
        self.addPageTemplates([
            PageTemplate("cover", [Frame(0, 0, width, height, 0, 0, 0, 0, id="cover")]),
            PageTemplate("body", [body], onPageEnd=self._furniture),
            PageTemplate("index", columns, onPageEnd=self._furniture),
        ])

    # -- the pass ------------------------------------------------------------

    def beforeDocument(self):  # noqa: N802 (platypus's name)
        self.canv.setNamedCB(MENTION, self._mention)
        self.canv.before_save.append(self._define_page_refs)

    def beforePage(self):  # noqa: N802
        self.ledger.page_chapter = None
        self.canv.bookmarkPage(page_destination(self.canv.getPageNumber()))

    def afterFlowable(self, flowable):  # noqa: N802
        """The first thing drawn on a page says whose chapter the page is (page breaks, marks and spacing
        are not things drawn: platypus reports a page break on the page it starts)."""
        if self.ledger.page_chapter is None and not isinstance(flowable, (NullDraw, ActionFlowable, Spacer)):
            self.ledger.page_chapter = self.ledger.chapter

    def _mention(self, canv, kind, label):
        self.ledger.mention(label, canv.getPageNumber())

    # -- page numbers known only at the end ------------------------------------

    def page_ref(self, key: str) -> str:
        """The name of the form that shows the page ``key`` lands on, right-aligned at its origin."""
        return self.page_refs.setdefault(key, f"pageref{len(self.page_refs) + 1}")

    def _define_page_refs(self, canv) -> None:
        style = self.theme.styles["toc2"]
        size = style.fontSize
        for key, name in self.page_refs.items():
            text = str(self.ledger.pages.get(key, "?"))
            width = canv.stringWidth(text, style.fontName, size)
            canv.beginForm(name, -width - 1, -size * 0.3, 1, size)
            canv.setFont(style.fontName, size)
            canv.setFillColor(style.textColor)
            canv.drawRightString(0, 0, text)
            canv.endForm()

    # -- running header and page number ----------------------------------------

    def _furniture(self, canv, doc) -> None:
        chapter = self.ledger.page_chapter if self.ledger.page_chapter is not None else self.ledger.chapter
        theme = self.theme
        g = theme.geometry
        k = PT_PER_MM
        width, _ = g.page_pt
        size = theme.size * 0.72
        left, right = g.inner * k, (g.page[0] - g.outer) * k
        top = (g.page[1] - g.top + 7.5) * k
        canv.saveState()
        canv.setFillColor(theme.color(theme.palette.muted))
        canv.setFont(theme.face(SANS, "bold"), size)
        canv.drawString(left, top, self.running_title.upper())
        if chapter:
            canv.setFont(theme.face(SANS), size)
            canv.drawRightString(right, top, chapter)
        canv.setStrokeColor(theme.color(theme.palette.rule))
        canv.setLineWidth(0.5)
        canv.line(left, top - size * 0.7, right, top - size * 0.7)
        canv.setFont(theme.face(SANS, "bold"), theme.size * 0.8)
        canv.setFillColor(theme.color(theme.palette.ink))
        canv.drawCentredString(width / 2, (g.bottom - 10) * k, str(canv.getPageNumber()))
        canv.restoreState()
