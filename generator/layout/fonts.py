"""The TrueType fonts a game can use: which file holds each family and style, and how wide text set in them is.

``templates/fonts/fonts.yaml`` lists the shipped families; a game folder may add its own in
``fonts/fonts.yaml`` (generator.layout.gamefonts), which win over shipped ones of the same name.
A face is named ``Family:style`` (``Vollkorn:bold``) in display lists; a game's own face carries its
family id instead (``Pirata One~3f2a...:regular``, unique to the game's files), because ReportLab's
font registry and a site's CSS are shared by every game of a build. Every renderer maps that name back
to the family, weight and file through the game's ``FontBook`` (``game_fonts``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from deckwright.generator import TEMPLATES
from deckwright.rules.problems import Problem

from .gamefonts import LICENCE_KEYS, FontFile, read_game_fonts
from .sfnt import vertical_metrics

FONT_DIR = TEMPLATES / "fonts"
WIDTHS_KEPT = 10_000  # measured words remembered (about 1.5 MB); the cache starts again when full
STYLES: dict[str, tuple[int, bool]] = {  # style -> (CSS weight, italic)
    "regular": (400, False),
    "italic": (400, True),
    "bold": (700, False),
    "bold-italic": (700, True),
    "extrabold": (800, False),
    "black": (900, False),
}
# Where markup asks for bold or italic of a style the family lacks, the nearest one it has.
_FALLBACK = {
    "bold-italic": ("bold-italic", "bold", "italic", "regular"),
    "bold": ("bold", "extrabold", "black", "regular"),
    "italic": ("italic", "regular"),
    "extrabold": ("extrabold", "black", "bold", "regular"),
    "black": ("black", "extrabold", "bold", "regular"),
    "regular": ("regular", "bold", "italic"),
}


@dataclass(frozen=True)
class Face:
    family: str
    style: str
    path: Path
    ascent: float  # above the baseline, per point of size
    descent: float  # below the baseline (positive), per point of size
    family_id: str = ""  # a game's own family: its name in display lists, PDFs and CSS (see GameFonts.family_id)

    @property
    def name(self) -> str:
        return f"{self.family_id or self.family}:{self.style}"

    @property
    def family_key(self) -> str:
        """The family as display lists, ReportLab's registry and the site's CSS know it."""
        return self.family_id or self.family

    @property
    def weight(self) -> int:
        return STYLES[self.style][0]

    @property
    def italic(self) -> bool:
        return STYLES[self.style][1]


class FontError(ValueError):
    """An unknown family or style; the message lists what exists."""


class FontBook:
    """The families in a fonts folder (and a game's own), with text measurement (through ReportLab's TrueType
    reader)."""

    def __init__(self, folder: Path = FONT_DIR):
        import yaml

        self.folder = folder
        manifest = yaml.safe_load((folder / "fonts.yaml").read_text(encoding="utf-8"))
        self.families: dict[str, dict[str, Face]] = {}
        self._ttf: dict = {}  # face name -> ReportLab's TTFont, parsed when a face is first measured or drawn
        self._files: dict[str, Path] = {}  # a shipped face's name -> its file
        for family, styles in sorted(manifest.items()):
            faces = {}
            for style, file in styles.items():
                if style in LICENCE_KEYS:
                    continue
                if style not in STYLES:
                    raise FontError(f"fonts.yaml: {family}: unknown style '{style}' (styles: {', '.join(STYLES)})")
                path = folder / file
                ascent, descent = vertical_metrics(path.read_bytes())
                face = Face(family, style, path, ascent, descent)
                faces[style] = face
                self._files[face.name] = path
            self.families[family] = faces
        self._by_name = {face.name: face for faces in self.families.values() for face in faces.values()}
        self.game_files: dict[str, FontFile] = {}  # a game's own faces by name: their bytes and licences
        self.problems: list[Problem] = []  # what reading a game's fonts found
        self._registered: set[str] = set()  # the faces registered with ReportLab by this book
        self._widths: dict[tuple[str, str], float] = {}

    def with_game(self, root: Path) -> "FontBook":
        """These fonts and the game folder's own (``fonts/fonts.yaml``); the problems found are in ``problems``
        (a face with an error is left out)."""
        import copy

        found = read_game_fonts(root, self.families, tuple(STYLES))
        if not found.files and not found.problems:
            return self  # a game without fonts of its own shares these, and the widths measured in them
        book = copy.copy(self)
        book.families = dict(self.families)
        book._ttf = dict(self._ttf)
        book._by_name = dict(self._by_name)
        book.game_files = {}
        book.problems = list(found.problems)
        book._registered = set()
        book._widths = {}
        ids = {font.family: found.family_id(font.family) for font in found.files}
        added: dict[str, dict[str, Face]] = {}
        for font in found.files:
            name = f"{ids[font.family]}:{font.style}"
            try:
                ttf = _game_ttfont(name, font.data)
                _freetype_reads(font.data)
            except Exception as exc:  # noqa: BLE001 (ReportLab parsing a damaged file can fail in any way: a located line)
                book.problems.append(Problem(font.loc, f"font '{font.family}' {font.style}: font file "
                                                       f"'{font.path.name}' cannot be read: {unreadable_because(exc)}"))
                continue
            face = Face(font.family, font.style, font.path, ttf.face.ascent / 1000, -ttf.face.descent / 1000,
                        ids[font.family])
            added.setdefault(font.family, {})[font.style] = face
            book._ttf[name] = ttf
            book._by_name[name] = face
            book.game_files[name] = font
        book.families.update(added)  # a game's family replaces a shipped one of its name whole
        return book

    def face(self, family: str, style: str = "regular") -> Face:
        faces = self.families.get(family)
        if faces is None:
            raise FontError(f"no font family '{family}' (known: {', '.join(self.families)}; a game's own go in "
                            f"fonts/fonts.yaml)")
        if style not in STYLES:
            raise FontError(f"no font style '{style}' (styles: {', '.join(STYLES)})")
        for candidate in _FALLBACK[style]:
            if candidate in faces:
                return faces[candidate]
        return next(iter(faces.values()))

    def by_name(self, name: str) -> Face:
        face = self._by_name.get(name)
        if face is not None:
            return face
        family, _, style = name.partition(":")
        return self.face(family, style or "regular")

    def files(self) -> dict[str, Path | bytes]:
        """Each face's font file by face name: the shipped ones' paths, a game's own faces' bytes as read
        (picklable, for painters in worker processes)."""
        out: dict[str, Path | bytes] = {name: face.path for name, face in self._by_name.items()}
        out.update({name: font.data for name, font in self.game_files.items()})
        return out

    def styled(self, face: Face, bold: bool, italic: bool) -> Face:
        """The face for text marked bold and/or italic inside text set in ``face``."""
        if not bold and not italic:
            return face
        heavy = face.style in ("bold", "bold-italic", "extrabold", "black")
        if bold and not heavy:
            style = "bold-italic" if (italic or face.italic) else "bold"
        elif heavy:
            style = "bold-italic" if italic else face.style
        else:
            style = "italic" if not face.italic else "regular"
        return self.face(face.family, style)

    def width(self, face_name: str, text: str) -> float:
        """Advance width of ``text`` at 1 pt, in points."""
        key = (face_name, text)
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) >= WIDTHS_KEPT:  # a word of every card (a name, a number) would pile up
                self._widths.clear()
            width = self._widths[key] = self._ttfont(face_name).stringWidth(text, 1.0)
        return width

    def faces(self) -> list[Face]:
        return [face for faces in self.families.values() for face in faces.values()]

    def _ttfont(self, name: str):
        """ReportLab's font for a face, a shipped one parsed the first time it is needed (only the faces a game
        draws with are: parsing one takes a few milliseconds)."""
        ttf = self._ttf.get(name)
        if ttf is None:
            ttf = self._ttf[name] = _shipped_ttfont(name, self._files[name])
        return ttf

    def register_reportlab(self, names=None) -> None:
        """Make the faces ``names`` (every face, by default; a name the book does not have is left to ReportLab)
        usable by name on a ReportLab canvas (embedded as a subset when drawn)."""
        from reportlab.pdfbase import pdfmetrics

        for name in self._by_name if names is None else names:
            if name not in self._registered and name in self._by_name:
                pdfmetrics.registerFont(self._ttfont(name))
                self._registered.add(name)


@cache
def shipped_fonts() -> FontBook:
    """The fonts under ``templates/fonts``, parsed once per process: they are files of the install, not of a game."""
    return FontBook()


def game_fonts(root: Path) -> FontBook:
    """The shipped fonts and the ones in the game folder ``root``; see ``FontBook.problems``."""
    return shipped_fonts().with_game(root)


def unreadable_because(exc: BaseException) -> str:
    """What ReportLab's failure to read a font says, never empty (a MemoryError or a bare KeyError says nothing)."""
    if isinstance(exc, MemoryError):
        return "reading it takes more memory than there is (is the file damaged?)"
    return str(exc).strip() or f"ReportLab's reader failed ({type(exc).__name__}); is the file damaged?"


def _freetype_reads(data: bytes) -> None:
    """Opens the font and paints a word as the PNG painter does (Pillow's FreeType, ``raster.Rasterizer._font``),
    which refuses some files ReportLab reads (a cut-short head table, 65,535 units per em, no glyphs at all);
    ValueError if it cannot."""
    import io

    from PIL import ImageFont

    try:
        ImageFont.truetype(io.BytesIO(data), size=12, layout_engine=ImageFont.Layout.BASIC).getmask("Hg")
    except OSError as exc:
        raise ValueError(f"FreeType, which paints the PNGs, says: {exc}") from None


_SHIPPED_TTFONTS: dict = {}  # (face name, file) -> TTFont: one object per shipped face, however many books share it
_GAME_TTFONTS: dict = {}  # face name (unique to the file's bytes) -> TTFont: one object per name, ever


def _shipped_ttfont(name: str, path: Path):
    """The ReportLab font for a shipped face, parsed once per process: a canvas holds on to the object it first
    got under a name, so a game's copy of the book (``with_game``) must get the same object."""
    from reportlab.pdfbase.ttfonts import TTFont

    ttf = _SHIPPED_TTFONTS.get((name, path))
    if ttf is None:
        ttf = _SHIPPED_TTFONTS.setdefault((name, path), TTFont(name, str(path)))  # one object, even from two threads
    return ttf


def _game_ttfont(name: str, data: bytes):
    """The ReportLab font for a game's face, parsed once per process. A name always means the same object:
    a canvas holds on to the object it first got, so a second one under that name would split its subsets."""
    import io

    from reportlab.pdfbase.ttfonts import TTFont

    ttf = _GAME_TTFONTS.get(name)
    if ttf is None:
        ttf = _GAME_TTFONTS[name] = TTFont(name, io.BytesIO(data))
    return ttf
