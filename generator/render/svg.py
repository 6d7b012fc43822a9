"""Display lists as standalone SVG documents (for the web gallery and exports).

Units are millimetres (the viewBox), text sizes converted from points.
Fonts are referenced by family, weight and style; the page that shows the
SVG provides them (the site ships the TrueType files with @font-face).
Images are embedded as data URIs unless ``image_href`` says otherwise.
"""
from __future__ import annotations

import base64
import functools
import re
from pathlib import Path
from typing import Callable

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.fonts import STYLES

MM_PER_PT = 25.4 / 72
_PLAIN_FAMILY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*( [A-Za-z_][A-Za-z0-9_-]*)*")


def escape(text: str) -> str:
    """``xml.sax.saxutils.escape``, without its module, which imports urllib.request, http.client and email: 20 ms
    of the start of a site worker, which has a thousand cards to draw in about a second."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``xml.sax.saxutils.quoteattr``: the text escaped and quoted as an attribute's value."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    return f"'{text}'" if "'" not in text else '"' + text.replace('"', "&quot;") + '"'


@functools.lru_cache(maxsize=1 << 14)  # a layout puts its boxes at the same places on every card: most are repeats
def _n(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _paint(fill: str | None, stroke: str | None, stroke_width: float, opacity: float) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke:
        out += f' stroke="{stroke}" stroke-width="{_n(stroke_width)}"'
    if opacity < 1:
        out += f' opacity="{_n(opacity)}"'
    return out


@functools.lru_cache(maxsize=256)  # a game has a few faces, its cards thousands of texts: half the rendering time
def font_attributes(face_name: str) -> str:
    family, _, style = face_name.partition(":")
    weight, italic = STYLES.get(style or "regular", (400, False))
    if not _PLAIN_FAMILY.fullmatch(family):  # CSS reads an unquoted name as identifiers: "Pirata One~3f2a" must be quoted
        family = f"'{family}'"
    out = f" font-family={quoteattr(family)}"
    if weight != 400:
        out += f' font-weight="{weight}"'
    if italic:
        out += ' font-style="italic"'
    return out


def _data_uri(path: str) -> str:
    data = Path(path).read_bytes()
    kind = "image/png" if data[:8] == b"\x89PNG\r\n\x1a\n" else "image/jpeg"
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def render(display: dl.DisplayList, bleed: bool = True, image_href: Callable[[str], str] | None = None) -> str:
    """The face as an SVG document string, with its bleed or cut at the trim."""
    margin = display.bleed if bleed else 0.0
    width, height = display.width + 2 * margin, display.height + 2 * margin
    writer = _Writer(image_href or _data_uri)
    body = writer.items(display.items)
    defs = f"<defs>{''.join(writer.defs)}</defs>" if writer.defs else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}mm" height="{_n(height)}mm" '
            f'viewBox="{_n(-margin)} {_n(-margin)} {_n(width)} {_n(height)}">'
            f"<title>{escape(display.name)}</title>{defs}{body}</svg>")


class _Writer:
    def __init__(self, image_href: Callable[[str], str]):
        self.image_href = image_href
        self.defs: list[str] = []

    def items(self, items) -> str:
        return "".join(self.item(item) for item in items)

    def item(self, item) -> str:
        kind = type(item)
        if kind in dl.BOXED_KINDS and dl.inverted(item):
            return ""
        if kind is dl.Rect:
            radius = f' rx="{_n(item.radius)}"' if item.radius else ""
            return (f'<rect x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.w)}" height="{_n(item.h)}"{radius}'
                    f"{_paint(item.fill, item.stroke, item.stroke_width, item.opacity)}/>")
        if kind is dl.Ellipse:
            return (f'<ellipse cx="{_n(item.x + item.w / 2)}" cy="{_n(item.y + item.h / 2)}" rx="{_n(item.w / 2)}" '
                    f'ry="{_n(item.h / 2)}"{_paint(item.fill, item.stroke, item.stroke_width, item.opacity)}/>')
        if kind is dl.Path:
            d = " ".join(command[0] + " ".join(_n(v) for v in command[1:]) for command in item.commands)
            return f'<path d="{d}" fill-rule="evenodd"{_paint(item.fill, item.stroke, item.stroke_width, item.opacity)}/>'
        if kind is dl.Text:
            return (f'<text x="{_n(item.x)}" y="{_n(item.y)}"{font_attributes(item.font)} '
                    f'font-size="{_n(item.size * MM_PER_PT)}" fill="{item.color}" xml:space="preserve">'
                    f"{escape(item.text)}</text>")
        if kind is dl.Image:
            opacity = f' opacity="{_n(item.opacity)}"' if item.opacity < 1 else ""
            return (f'<image x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.w)}" height="{_n(item.h)}" '
                    f'preserveAspectRatio="none" href={quoteattr(self.image_href(item.path))}{opacity}/>')
        if kind is dl.Group:
            return f"<g>{self.items(item.items)}</g>"
        if kind is dl.Clip:
            ident = f"clip{len(self.defs)}"
            self.defs.append(f'<clipPath id="{ident}"><rect x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.w)}" '
                             f'height="{_n(item.h)}"/></clipPath>')
            return f'<g clip-path="url(#{ident})">{self.items(item.items)}</g>'
        return ""
