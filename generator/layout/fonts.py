"""The shipped TrueType fonts: which file holds each family and style, and how wide text set in them is.

``templates/fonts/fonts.yaml`` lists the families. A face is named ``Family:style``
(``Vollkorn:bold``) in display lists; every renderer maps that name back to
the family, weight and file through a ``FontBook``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from deckwright.generator import TEMPLATES

FONT_DIR = TEMPLATES / "fonts"
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

    @property
    def name(self) -> str:
        return f"{self.family}:{self.style}"

    @property
    def weight(self) -> int:
        return STYLES[self.style][0]

    @property
    def italic(self) -> bool:
        return STYLES[self.style][1]


class FontError(ValueError):
    """An unknown family or style; the message lists what exists."""


class FontBook:
    """The families in a fonts folder, with text measurement (through ReportLab's TrueType reader)."""

    def __init__(self, folder: Path = FONT_DIR):
        import yaml
        from reportlab.pdfbase.ttfonts import TTFont

        self.folder = folder
        manifest = yaml.safe_load((folder / "fonts.yaml").read_text(encoding="utf-8"))
        self.families: dict[str, dict[str, Face]] = {}
        self._ttf: dict[str, TTFont] = {}
        for family, styles in sorted(manifest.items()):
            faces = {}
            for style, file in styles.items():
                if style not in STYLES:
                    raise FontError(f"fonts.yaml: {family}: unknown style '{style}' (styles: {', '.join(STYLES)})")
                path = folder / file
                ttf = TTFont(f"{family}:{style}", str(path))
                face = Face(family, style, path, ttf.face.ascent / 1000, -ttf.face.descent / 1000)
                faces[style] = face
                self._ttf[face.name] = ttf
            self.families[family] = faces
        self._registered = False
        self._widths: dict[tuple[str, str], float] = {}

    def face(self, family: str, style: str = "regular") -> Face:
        faces = self.families.get(family)
        if faces is None:
            raise FontError(f"no font family '{family}' (shipped: {', '.join(self.families)})")
        if style not in STYLES:
            raise FontError(f"no font style '{style}' (styles: {', '.join(STYLES)})")
        for candidate in _FALLBACK[style]:
            if candidate in faces:
                return faces[candidate]
        return next(iter(faces.values()))

    def by_name(self, name: str) -> Face:
        family, _, style = name.partition(":")
        return self.face(family, style or "regular")

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
            width = self._widths[key] = self._ttf[face_name].stringWidth(text, 1.0)
        return width

    def faces(self) -> list[Face]:
        return [face for faces in self.families.values() for face in faces.values()]

    def register_reportlab(self) -> None:
        """Make every face usable by name on a ReportLab canvas (embedded as a subset when drawn)."""
        if self._registered:
            return
        from reportlab.pdfbase import pdfmetrics

        for ttf in self._ttf.values():
            pdfmetrics.registerFont(ttf)
        self._registered = True


@cache
def shipped_fonts() -> FontBook:
    """The fonts under ``templates/fonts``, parsed once per process: they are files of the install, not of a game."""
    return FontBook()
