"""How a rulebook looks: the page geometry of each format, the game's palette, and the paragraph styles.

Two formats share one design: ``full`` (A4 or US Letter, for download and home printing) and ``book``
(A5, or half-letter with Letter paper: the pages of the saddle-stitched booklet and of the print-shop
file). Sizes are millimetres, type sizes points. The fonts are the shipped families (Vollkorn for
reading, Open Sans for tables, panels and page furniture), embedded as every PDF of deckwright embeds them.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from deckwright.generator.layout.faces import mix
from deckwright.generator.layout.fonts import FontBook
from deckwright.generator.layout.paper import SHOP_BLEED, paper_size
from deckwright.generator.render.pdf import PT_PER_MM
from deckwright.rules.data.model import Game

SERIF = "Vollkorn"
SANS = "Open Sans"
# The site's own colours (templates/html/assets/style.css), for a game that names none of its own.
DEFAULT_COLORS = {"ink": "#25211b", "paper": "#f8f4ec", "accent": "#8c1c13"}
VERDICT_COLORS = {"verified": "#2f6b3a", "erratum": "#8a5a00", "failing": "#a1261b", "unchecked": "#7a7063"}
BLEED = SHOP_BLEED


@dataclass(frozen=True)
class Geometry:
    """A page format: the page and its text area, in millimetres."""

    name: str  # "full" or "book"
    page: tuple[float, float]
    top: float  # margins
    bottom: float
    inner: float
    outer: float
    body_size: float  # points
    thumb_scale: float  # a card picture beside the text, as a fraction of the card's size

    @property
    def text_width(self) -> float:
        return self.page[0] - self.inner - self.outer

    @property
    def text_height(self) -> float:
        return self.page[1] - self.top - self.bottom

    @property
    def page_pt(self) -> tuple[float, float]:
        return self.page[0] * PT_PER_MM, self.page[1] * PT_PER_MM


def full_page(paper: str) -> Geometry:
    """A4 or Letter: one column about 150 mm wide, set at 10.5 pt."""
    page = paper_size(paper)
    side = max(25.0, (page[0] - 150.0) / 2)
    return Geometry("full", page, 24.0, 24.0, side, side, 10.5, 0.30)


# The booklet page on each paper: ISO A5 on A4 (148 mm, as ISO rounds each halving down to the millimetre,
# not 148.5: a print shop trims to A5), half-letter (5.5 x 8.5 in) on Letter.
BOOK_PAGES = {"a4": (148.0, 210.0), "letter": (139.7, 215.9)}


def book_page(paper: str) -> Geometry:
    """The booklet page, about half the sheet (A5 on A4, half-letter on Letter), set at 9.2 pt."""
    sheet = paper_size(paper)
    page = BOOK_PAGES.get(paper, (sheet[1] / 2, sheet[0]))
    return Geometry("book", page, 17.0, 18.0, 15.0, 13.0, 9.2, 0.26)


@dataclass(frozen=True)
class Palette:
    ink: str
    paper: str
    accent: str

    @staticmethod
    def of(game: Game) -> "Palette":
        colors = {**DEFAULT_COLORS, **{k: v for k, v in game.colors.items() if k in DEFAULT_COLORS}}
        return Palette(colors["ink"], colors["paper"], colors["accent"])

    @property
    def tint(self) -> str:
        """Panels and table stripes: the game's paper colour, lightened so a home printer spends little ink."""
        return mix(self.paper, "#ffffff", 0.35)

    @property
    def deep(self) -> str:
        """Table heads and code: the paper colour itself."""
        return self.paper

    @property
    def rule(self) -> str:
        return mix(self.ink, "#ffffff", 0.78)

    @property
    def muted(self) -> str:
        return mix(self.ink, "#ffffff", 0.42)


_PLAIN = {(0, 0): "regular", (1, 0): "bold", (0, 1): "italic", (1, 1): "bold-italic"}


def register_families(fonts: FontBook) -> None:
    """Register the game's fonts, and their families so that ``<b>`` and ``<i>`` in a paragraph find the
    family's bold and italic (or the nearest face it has), from any face of it."""
    from reportlab.lib.fonts import addMapping

    fonts.register_reportlab()
    for family, faces in fonts.families.items():
        # ReportLab's family mapping is global: a game's own family goes by its family id, unique to its files
        mapped = next(iter(faces.values())).family_key
        for face in faces.values():  # every face, heavy ones too, knows its family (a <i> inside black)
            addMapping(mapped, int(face.weight >= 700), int(face.italic), face.name)
        for (bold, italic), style in _PLAIN.items():  # ... but <b> means bold, not black
            addMapping(mapped, bold, italic, fonts.face(family, style).name)


class Theme:
    """The paragraph styles and colours of one game's rulebook in one format."""

    def __init__(self, game: Game, geometry: Geometry, fonts: FontBook):
        self.game = game
        self.geometry = geometry
        self.fonts = fonts
        self.palette = Palette.of(game)
        register_families(fonts)

    def face(self, family: str, style: str = "regular") -> str:
        return self.fonts.face(family, style).name

    def color(self, hex_color: str):
        from reportlab.lib.colors import HexColor

        return HexColor(hex_color)

    @property
    def size(self) -> float:
        return self.geometry.body_size

    @cached_property
    def styles(self) -> dict:
        from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
        from reportlab.lib.styles import ParagraphStyle

        p, s = self.palette, self.size
        ink, accent, muted = self.color(p.ink), self.color(p.accent), self.color(p.muted)
        body = ParagraphStyle("body", fontName=self.face(SERIF), fontSize=s, leading=s * 1.38, textColor=ink,
                              spaceAfter=s * 0.55, alignment=TA_LEFT, allowWidows=0, allowOrphans=0)
        sans = ParagraphStyle("sans", body, fontName=self.face(SANS), fontSize=s * 0.8, leading=s * 1.08,
                              spaceAfter=0)
        styles = {
            "body": body,
            "item": ParagraphStyle("item", body, spaceAfter=s * 0.2),
            "quote": ParagraphStyle("quote", body, fontName=self.face(SERIF, "italic"), textColor=ink),
            "h1": ParagraphStyle("h1", body, fontName=self.face(SERIF, "black"), fontSize=s * 2.3, leading=s * 2.6,
                                 textColor=accent, spaceBefore=0, spaceAfter=s * 0.9),
            "h2": ParagraphStyle("h2", body, fontName=self.face(SERIF, "bold"), fontSize=s * 1.45, leading=s * 1.75,
                                 spaceBefore=s * 1.2, spaceAfter=s * 0.45),
            "h3": ParagraphStyle("h3", body, fontName=self.face(SANS, "bold"), fontSize=s * 0.95, leading=s * 1.3,
                                 textColor=accent, spaceBefore=s * 0.8, spaceAfter=s * 0.3),
            "cell": sans,
            "cell-num": ParagraphStyle("cell-num", sans, alignment=TA_RIGHT),
            "head": ParagraphStyle("head", sans, fontName=self.face(SANS, "bold")),
            "head-num": ParagraphStyle("head-num", sans, fontName=self.face(SANS, "bold"), alignment=TA_RIGHT),
            "caption": ParagraphStyle("caption", sans, fontSize=s * 0.72, leading=s * 0.95, textColor=muted),
            "figure-caption": ParagraphStyle("figure-caption", sans, fontSize=s * 0.78, leading=s * 1.05,
                                             textColor=muted, alignment=TA_CENTER, spaceAfter=s * 0.9),
            "thumb": ParagraphStyle("thumb", sans, fontSize=s * 0.62, leading=s * 0.75, textColor=muted,
                                    alignment=TA_CENTER),
            "kicker": ParagraphStyle("kicker", sans, fontName=self.face(SANS, "bold"), fontSize=s * 0.68,
                                     leading=s * 0.9, textColor=muted),
            "panel-title": ParagraphStyle("panel-title", body, fontName=self.face(SERIF, "bold"), fontSize=s * 1.1,
                                          leading=s * 1.3, spaceAfter=0),
            "panel": ParagraphStyle("panel", sans, fontSize=s * 0.78, leading=s * 1.04),
            "toc1": ParagraphStyle("toc1", body, fontName=self.face(SERIF, "bold"), fontSize=s * 1.05,
                                   leading=s * 1.25, spaceBefore=s * 0.35, spaceAfter=0),
            "toc2": ParagraphStyle("toc2", body, fontSize=s * 0.95, leading=s * 1.13, leftIndent=s * 1.2, spaceAfter=0),
            "index": ParagraphStyle("index", body, fontSize=s * 0.9, leading=s * 1.15, leftIndent=s, firstLineIndent=-s,
                                    spaceAfter=s * 0.1),
            "index-letter": ParagraphStyle("index-letter", body, fontName=self.face(SERIF, "bold"), fontSize=s * 1.1,
                                           leading=s * 1.5, textColor=accent, spaceBefore=s * 0.4, spaceAfter=0),
            "note": ParagraphStyle("note", body, fontSize=s * 0.92, leading=s * 1.25, spaceAfter=s * 0.35),
            "where": ParagraphStyle("where", sans, fontSize=s * 0.66, leading=s * 0.9, textColor=muted,
                                    spaceAfter=s * 0.5),
            "cover-title": ParagraphStyle("cover-title", body, fontName=self.face(SERIF, "black"), fontSize=s * 4.2,
                                          leading=s * 4.4, textColor=accent, alignment=TA_CENTER),
            "cover-meta": ParagraphStyle("cover-meta", sans, fontName=self.face(SANS, "bold"), fontSize=s * 0.95,
                                         leading=s * 1.3, textColor=ink, alignment=TA_CENTER),
            "cover-summary": ParagraphStyle("cover-summary", body, fontName=self.face(SERIF, "italic"),
                                            fontSize=s * 1.1, leading=s * 1.5, alignment=TA_CENTER),
            "cover-foot": ParagraphStyle("cover-foot", sans, fontSize=s * 0.72, leading=s, textColor=muted,
                                         alignment=TA_CENTER),
        }
        return styles
