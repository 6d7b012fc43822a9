"""The front and back of the book: the cover, the contents, the appendices and the index of cards.

Appendices are listed in ``APPENDICES``: each has a title (the contents list it before the layout starts),
whether a game has it, and a function of the book, the theme and what the pass has drawn, returning its
flowables: errata and open questions, then the game's readings register (readings.yaml), if it has one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable
from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, NextPageTemplate, PageBreak, Paragraph

from deckwright.generator.book.locations import in_game
from deckwright.generator.layout.faces import mix
from deckwright.rules.data.values import Open
from deckwright.rules.problems import reading_order

from .document import Heading, Later, Ledger, Mark, Para, page_destination
from .examples import capital, example_key, sentence
from .flow import KeepWithNext
from .parsed import ParsedBook, card_destination
from .pictures import CardPicture
from .theme import Theme

CONTENTS_KEY = "contents"
INDEX_KEY = "index-of-cards"


@dataclass(frozen=True)
class Entry:
    """A line of the contents."""

    level: int  # 0: a chapter (a rulebook page, an appendix, the index), 1: a section
    title: str
    key: str


def players_line(game) -> str:
    players = game.players
    if isinstance(players, Open):
        return "Player count not yet given by the source"
    return f"{players} player{'s' if str(players) != '1' else ''}"


def cover_cards(book: ParsedBook, most: int = 3):
    """The first card of each of the first decks that print any: the cover's picture."""
    game = book.game
    cards = []
    for deck in game.decks.values():
        deck_cards = game.cards_in(deck.id)
        if deck_cards and game.deck_total(deck.id) > 0:
            cards.append(deck_cards[0])
        if len(cards) == most:
            break
    return cards or list(game.cards[:1])


class Cover(Flowable):
    """The first page: the game's paper colour to the edge (and into the bleed), its title, players, a fan
    of its cards, the summary, and what the rules engine says of the book's examples."""

    def __init__(self, book: ParsedBook, theme: Theme, verdicts: str):
        super().__init__()
        self.book, self.theme, self.verdicts = book, theme, verdicts
        self.width, self.height = theme.geometry.page_pt

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        from .theme import BLEED

        c, theme, game = self.canv, self.theme, self.book.game
        styles, g, k = theme.styles, theme.geometry, mm
        p = theme.palette
        b = BLEED * k
        c.saveState()
        c.setFillColor(theme.color(p.paper))
        c.rect(-b, -b, self.width + 2 * b, self.height + 2 * b, stroke=0, fill=1)
        c.setFillColor(theme.color(p.accent))
        band = g.page[1] * 0.018 * k
        c.rect(-b, self.height - band, self.width + 2 * b, band + b, stroke=0, fill=1)
        c.rect(-b, -b, self.width + 2 * b, band + b, stroke=0, fill=1)
        c.restoreState()
        text_width = self.width - 2 * g.outer * k
        y = self.height - g.top * k * 1.6
        kicker = Para("RULEBOOK", styles["kicker"].clone("cover-kicker", alignment=1, fontSize=theme.size * 0.8,
                                                              textColor=theme.color(p.accent)))
        y = self._place(kicker, text_width, y) - theme.size * 0.6
        y = self._place(Para(escape(game.title), styles["cover-title"]), text_width, y) - theme.size * 0.4
        y = self._place(Para(escape(players_line(game)), styles["cover-meta"]), text_width, y)
        summary = Para(escape(game.summary), styles["cover-summary"])
        summary_width = min(text_width, 120 * k)
        summary_height = summary.wrap(summary_width, self.height)[1]
        foot = Para(self.verdicts, styles["cover-foot"])
        foot_height = foot.wrap(text_width, self.height)[1]
        foot_y = g.bottom * k + band
        summary_top = foot_y + foot_height + theme.size * 2.2 + summary_height
        self._fan(y - theme.size * 1.5, summary_top + theme.size * 1.8)
        summary.drawOn(c, (self.width - summary_width) / 2, summary_top - summary_height)
        foot.drawOn(c, g.outer * k, foot_y)

    def _place(self, paragraph: Paragraph, width: float, top: float) -> float:
        height = paragraph.wrap(width, self.height)[1]
        paragraph.drawOn(self.canv, (self.width - width) / 2, top - height)
        return top - height

    def _fan(self, top: float, bottom: float) -> None:
        """Up to three cards between ``top`` and ``bottom``: the middle one upright in front, the others
        turned out behind it, all of it inside the room however the cards are turned."""
        cards = cover_cards(self.book)
        faces = [self.book.face(card) for card in cards]
        if not faces:
            return
        count = len(faces)
        angle = math.radians({3: 11, 2: 7, 1: 0}[count])
        shift = {3: 0.6, 2: 0.34, 1: 0.0}[count]  # of a card's width, sideways from the middle
        w = max(f.width for f in faces) * mm
        h = max(f.height for f in faces) * mm
        turned_w, turned_h = w * math.cos(angle) + h * math.sin(angle), w * math.sin(angle) + h * math.cos(angle)
        fan_w = 2 * shift * w + (turned_w if count > 1 else w)
        fan_h = (turned_h if count > 1 else h) + shift * 0.1 * h
        scale = min((top - bottom) / fan_h, self.width * 0.78 / fan_w, 1.25)
        if scale * h < 25 * mm:
            return
        edge = self.theme.color(self.theme.palette.rule)
        shadow = self.theme.color(mix(self.theme.palette.paper, self.theme.palette.ink, 0.22))
        pictures = [CardPicture(face, ("face", card.id), scale, self.book.faces.fonts, edge)
                    for face, card in zip(faces, cards)]
        center_x, center_y = self.width / 2, (top + bottom) / 2
        sides = {3: (-1, 0, 1), 2: (-1, 1), 1: (0,)}[count]
        c = self.canv
        for index in sorted(range(count), key=lambda i: -abs(sides[i])):  # the middle card last, in front
            picture, side = pictures[index], sides[index]
            c.saveState()
            c.translate(center_x + side * shift * w * scale, center_y - abs(side) * shift * 0.1 * h * scale)
            c.rotate(-side * math.degrees(angle))
            c.setFillColor(shadow)  # opaque: transparency would be lost in the booklet's page forms
            c.roundRect(-picture.width / 2 + 1.2, -picture.height / 2 - 1.8, picture.width, picture.height,
                        3 * scale * mm, stroke=0, fill=1)
            picture.drawOn(c, -picture.width / 2, -picture.height / 2)
            c.restoreState()


class ContentsLine(Flowable):
    """A line of the contents: the title, dot leaders, and the page number (a form filled in at the end)."""

    def __init__(self, entry: Entry, theme: Theme):
        super().__init__()
        self.entry = entry
        self.style = theme.styles["toc1" if entry.level == 0 else "toc2"]
        self.theme = theme
        self.number_width = stringWidth("000", self.style.fontName, self.style.fontSize)
        self.paragraph = Para(escape(entry.title), self.style)

    def wrap(self, available_width, available_height):
        self.width = available_width
        self._text_width = available_width - self.number_width - self.style.fontSize * 2
        self.height = self.paragraph.wrap(self._text_width, available_height)[1]
        return self.width, self.height

    def getSpaceBefore(self):  # noqa: N802 (platypus's name)
        return self.style.spaceBefore

    def draw(self):
        c, style = self.canv, self.style
        doc = c._doctemplate
        self.paragraph.drawOn(c, 0, 0)
        lines = getattr(self.paragraph.blPara, "lines", [])
        last = lines[-1] if lines else (0, [])
        used = self._text_width - (last[0] if isinstance(last, tuple) else getattr(last, "extraSpace", 0))
        baseline = style.fontSize * 0.22 + (style.leading - style.fontSize) * 0.5
        start, end = used + style.fontSize * 0.6, self.width - self.number_width - style.fontSize * 0.5
        if end > start:  # dot leaders: a dotted line (round dots from zero-length dashes)
            c.saveState()
            c.setStrokeColor(self.theme.color(self.theme.palette.muted))
            c.setLineWidth(style.fontSize * 0.09)
            c.setLineCap(1)
            c.setDash([0, style.fontSize * 0.36])
            c.line(start, baseline + style.fontSize * 0.05, end, baseline + style.fontSize * 0.05)
            c.restoreState()
        c.saveState()
        c.translate(self.width, baseline)
        c.doForm(doc.page_ref(self.entry.key))
        c.restoreState()
        c.linkRect("", self.entry.key, (0, 0, self.width, self.height), relative=1, thickness=0)


def contents(entries: list[Entry], theme: Theme) -> list[Flowable]:
    heading = Heading("Contents", theme.styles["h1"], CONTENTS_KEY, "Contents", 0)
    return [heading, *[ContentsLine(entry, theme) for entry in entries]]


# -- appendices ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Appendix:
    title: str
    make: Callable[[ParsedBook, Theme, Ledger], list[Flowable]]
    present: Callable[[ParsedBook], bool] = lambda book: True


def errata_and_questions(book: ParsedBook, theme: Theme, ledger: Ledger) -> list[Flowable]:
    """The examples the source gets wrong (and any the engine rejects), and the questions the source leaves open."""
    styles = theme.styles
    game = book.game
    out: list[Flowable] = []
    groups = (("erratum", "Known errata",
               "Worked examples kept as the source gives them, although they disagree with its rules."),
              ("failing", "Examples the rules engine rejects", "These fail the check; fix the example or the rules."))
    for verdict, title, blurb in groups:
        views = [(page, view) for page, view in book.examples if view.verdict == verdict]
        if not views:
            continue
        out += [Para(title, styles["h2"]), Para(blurb, styles["note"])]
        for page, view in views:
            key = example_key(page.page.id, view)
            where = ledger.pages.get(key)
            link = f', <a href="#{key}" color="{theme.palette.accent}">page {where}</a>' if where else ""
            text = f"<b>{escape(view.name)}</b> ({escape(page.page.title)}{link})."
            if view.erratum:
                text += f" {escape(capital(sentence(view.erratum)))}"
            if view.message and view.verdict != "erratum":
                text += f" <i>{escape(capital(sentence(view.message)))}</i>"
            out.append(Para(text, styles["note"]))
    questions = game.open_questions
    count = f"{len(questions)} question{'s' if len(questions) != 1 else ''}"
    out += [Para("Open questions", styles["h2"]),
            Para(f"What the source leaves open, {count}; each prints as <b>?</b> where it is used."
                      if questions else "The source leaves nothing open.", styles["note"])]
    for question in questions:
        out.append(Para(f"<b>{escape(question.subject)}</b>: {escape(question.note)}", styles["note"]))
        out.append(Para(escape(in_game(question.loc, game)), styles["where"]))
    return out


def readings(book: ParsedBook, theme: Theme, ledger: Ledger) -> list[Flowable]:
    """The readings register: where the source is unclear or says two things, the readings possible, the
    one this game follows and why, and the worked examples that rely on it."""
    styles, game, accent = theme.styles, book.game, theme.palette.accent
    examples = {view.name: (page, view) for page, view in book.examples}
    kinds = {"reading": "Reading", "contradiction": "Contradiction"}
    out: list[Flowable] = [Para("Where the source is unclear or says two things, the reading this game follows "
                                "and why. The rules engine plays the chosen one unless the entry says otherwise.",
                                styles["note"])]
    for reading in game.readings:
        title = Para(f'<font color="{accent}">{kinds.get(reading.kind, reading.kind)}:</font> '
                     f"{escape(reading.title)}", styles["h3"])
        places = [Para(f"<i>{escape(str(place))}:</i> \u201c{escape(place.says)}\u201d", styles["note"])
                  for place in reading.places]
        out += [KeepWithNext([title], places[0]), *places[1:]] if places else [title]
        for key, text in reading.options:
            mark = "<b>Chosen:</b> " if key == reading.chosen else ""
            if reading.pending is not None and key == reading.pending.plays:
                mark += "<b>Played by the engine today:</b> "
            out.append(Para(f"\u2022 {mark}{escape(text)}", styles["note"]))
        out.append(Para(f"<b>Why:</b> {escape(reading.why)}", styles["note"]))
        if reading.pending is not None:
            out.append(Para(f"<b>Not played yet:</b> {escape(reading.pending.change)}", styles["note"]))
        relied = []
        for name in reading.depends.examples:
            if name in examples:
                page, view = examples[name]
                key = example_key(page.page.id, view)
                where = ledger.pages.get(key)
                relied.append(escape(name) + (f', <a href="#{key}" color="{accent}">page {where}</a>' if where else ""))
        if relied:
            out.append(Para("<b>Worked examples that rely on it:</b> " + "; ".join(relied) + ".", styles["note"]))
        out.append(Para(escape(in_game(reading.loc, game)), styles["where"]))
    return out


APPENDICES: tuple[Appendix, ...] = (
    Appendix("Errata and open questions", errata_and_questions),
    Appendix("Readings", readings, lambda book: bool(book.game.readings)),
)


def appendix_title(number: int, appendix: Appendix) -> str:
    return f"Appendix {chr(ord('A') + number - 1)}: {appendix.title}"


def appendix_key(number: int) -> str:
    return f"appendix-{number}"


def present_appendices(book: ParsedBook) -> list[tuple[int, Appendix]]:
    """The appendices this game has, numbered (lettered) in order."""
    return list(enumerate((a for a in APPENDICES if a.present(book)), start=1))


def appendices(book: ParsedBook, theme: Theme) -> list[Flowable]:
    """Each appendix on a new page, made when the layout reaches it (it names pages drawn before)."""
    out: list[Flowable] = []
    for number, appendix in present_appendices(book):
        title = appendix_title(number, appendix)

        def later(ledger: Ledger, appendix=appendix, number=number, title=title) -> list[Flowable]:
            return [Heading(escape(title), theme.styles["h1"], appendix_key(number), title, 0, chapter=True),
                    *appendix.make(book, theme, ledger)]

        out += [PageBreak(), Later(later)]
    return out


# -- the index of cards ------------------------------------------------------------------------


def index_of_cards(book: ParsedBook, theme: Theme) -> list[Flowable]:
    """Every card the book names, A to Z, with the pages it is named on (links in the full-page PDF)."""
    styles = theme.styles
    game = book.game

    def later(ledger: Ledger) -> list[Flowable]:
        out: list[Flowable] = [Heading("Index of cards", styles["h1"], INDEX_KEY, "Index of cards", 0, chapter=True)]
        named = sorted((game.card(card_id) for card_id in ledger.mentions), key=lambda c: (reading_order(c.name), c.id))
        if not named:
            out.append(Para("The rulebook names no card.", styles["note"]))
        letter = ""
        for card in named:
            initial = card.name[:1].upper()
            if initial != letter:
                letter = initial
                out.append(Para(escape(letter), styles["index-letter"]))
            pages = ", ".join(f'<a href="#{page_destination(n)}" color="{theme.palette.ink}">{n}</a>'
                              for n in ledger.mentions[card.id])
            kind = escape(game.card_types[card.type].name)
            out.append(Mark(card_destination(card.id)))
            out.append(Para(f"{escape(card.name)} <font size=\"{theme.size * 0.7:.1f}\" "
                                 f"color=\"{theme.palette.muted}\">{kind}</font>\u2002{pages}", styles["index"]))
        return out

    return [NextPageTemplate("index"), PageBreak(), Later(later)]


def chapter_entries(book: ParsedBook) -> list[Entry]:
    entries = []
    for page in book.pages:
        for section in page.sections:
            if section.level <= 2:
                entries.append(Entry(section.level - 1, section.title, section.key))
    return entries


def back_entries(book: ParsedBook) -> list[Entry]:
    entries = [Entry(0, appendix_title(n, appendix), appendix_key(n)) for n, appendix in present_appendices(book)]
    return entries + [Entry(0, "Index of cards", INDEX_KEY)]
