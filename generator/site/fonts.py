"""A game's own fonts on its site: the font files and their licences copied into ``<game>/fonts/``, and
``<game>/fonts/fonts.css`` declaring each face under its family id (the name the card SVGs use).

The shipped fonts are the site's (``assets/fonts.css``, see ``build.copy_assets``); a game's own live in
its folder, so a site that keeps other games' folders from an earlier build keeps their fonts too, and two
games with a family of the same name never share a declaration. A game's family that replaces a shipped one
is declared under the shipped name too: the game's pages are linked to this stylesheet after the site's, so
their text is set in the game's family, as its printed rulebook is.
"""
from __future__ import annotations

import re
from pathlib import Path

from deckwright.generator.layout.fonts import STYLES, FontBook, shipped_fonts

FOLDER = "fonts"  # <game>/fonts/ in the site
STYLESHEET = f"{FOLDER}/fonts.css"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def site_name(name: str, digest: str = "") -> str:
    """A file name safe in a URL and on every file system: what is left of ``name``, with a digest if given."""
    stem, dot, suffix = name.rpartition(".")
    stem, suffix = (stem, suffix) if dot else (name, "")
    safe = _UNSAFE.sub("-", stem).strip("-.")[:48] or "font"
    tail = f"-{digest[:12]}" if digest else ""
    return f"{safe}{tail}.{_UNSAFE.sub('', suffix)[:8] or 'txt'}" if dot else f"{safe}{tail}.txt"


def write_game_fonts(fonts: FontBook, folder: Path) -> list[str]:
    """The game's own fonts into ``folder`` (the game's folder in the site); the files written, relative to it.
    Writes nothing for a game without fonts of its own."""
    if not fonts.game_files:
        return []
    target = folder / FOLDER
    target.mkdir(parents=True, exist_ok=True)
    written: dict[str, bytes] = {}
    files: dict[str, str] = {}  # face name -> its file in the site
    rules = []
    for name in sorted(fonts.game_files):
        font, face = fonts.game_files[name], fonts.by_name(name)
        file = files[name] = site_name(font.path.name, font.digest)
        written[file] = font.data
        if font.licence is not None:
            written[site_name(f"{font.path.stem}-{font.licence.name}")] = font.licence.data  # beside its font
        rules.append(_font_face(face.family_key, face.weight, face.italic, file))
    replaced = [family for family, faces in fonts.families.items()
                if family in shipped_fonts().families and next(iter(faces.values())).family_id]
    for family in sorted(replaced):
        # a family replacing a shipped one: the site's own text in it (the rulebook pages) follows, every style
        # taken from the game's family as the PDFs take it, so no shipped style of it mixes in
        for style, (weight, italic) in STYLES.items():
            rules.append(_font_face(family, weight, italic, files[fonts.face(family, style).name]))
    for file, data in sorted(written.items()):
        (target / file).write_bytes(data)
    (target / "fonts.css").write_text("/* This game's own fonts (fonts/fonts.yaml in its folder), with their licences "
                                      "beside them. */\n" + "".join(rules), encoding="utf-8")
    return [f"{FOLDER}/{file}" for file in sorted(written)] + [STYLESHEET]


def _font_face(family: str, weight: int, italic: bool, file: str) -> str:
    style = "italic" if italic else "normal"
    return (f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
            f'src: url("{file}") format("truetype"); font-display: block; }}\n')
