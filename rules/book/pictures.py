"""Pictures in a rulebook page, found and checked once for ``check``, the site and the printed rulebook.

A picture is written ``![alt](src)``, ``![alt](src "title")``, ``![alt](<src with spaces>)`` or by reference
(``![alt][map]``, ``![map]``, with ``[map]: src`` elsewhere on the page), as Python-Markdown reads them: not
inside a fenced block or a code span, not after a backslash. Its ``src`` names a file relative to the page's own
file (as a browser and every Markdown editor read it); it must be a PNG or JPEG inside the game folder that
passes the same check as card art (``rules.data.pictures``). A picture on the web (``https://...``) is refused
too: deckwright builds offline, the printed rulebook could not hold it, and the site's pages load pictures only
from the site itself.

The loader keeps each good picture on its ``Page`` (``Page.pictures``); the outputs show those and no other.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from deckwright.rules.data.confine import is_confined
from deckwright.rules.data.pictures import ImageFile, missing, pictures_beside, read_image
from deckwright.rules.problems import Loc, Problems, did_you_mean

from .pages import fenced_blocks

# The characters a backslash escapes in a page (Python-Markdown's, with the extensions rulebook pages use).
ESCAPABLE = frozenset("\\`*_{}[]()>#+-.!|\"'")
_CODE_SPAN = re.compile(r"(?<!\\)(`+)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.S)
# Python-Markdown's reference definition (markdown.blockprocessors.ReferenceProcessor.RE)
_DEFINITION = re.compile(r"^[ ]{0,3}\[([^\[\]]*)\]:[ ]*(?:\n[ ]*)?([^\s]+)[ ]*(?:\n[ ]*)?"
                         r"(?:([\"'])(.*)\3[ ]*|\((.*)\)[ ]*)?$", re.M)
_ANGLE_LINK = re.compile(r"\(\s*<([^<>]*)>\s*(?:('[^']*'|\"[^\"]*\")\s*)?\)", re.S)
_TITLE = re.compile(r"^(.*?)\s+(\"[^\"]*\"|'[^']*')\s*$", re.S)
_REFERENCE_ID = re.compile(r"\s?\[([^\]]*)\]", re.S)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
_BRACKET_OR_BREAK = re.compile(r"[\[\]()]|\n[ \t]*(?=\n)")  # a bracket, or where a blank line begins
_OPENING = {"]": "[", ")": "("}
HIDDEN = "\x01"  # stands in the scanned text for what Markdown does not read as syntax


@dataclass(frozen=True)
class PageImage:
    loc: Loc  # the ``!`` (a link's ``[``) that opens it
    src: str  # as Markdown reads it: escapes undone, <angle brackets> taken off
    alt: str
    title: str | None
    picture: bool = True  # False: a link (``page_links``)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: m.group(1) if m.group(1) in ESCAPABLE else m.group(0), text)


def _scanned(text: str, shown: str) -> str:
    """``text`` of the same length with fenced blocks, code spans and backslash escapes hidden."""
    lines = text.split("\n")
    for block in fenced_blocks(text, shown):
        for index in range(block.loc.line - 1, min(block.end_line, len(lines))):
            lines[index] = HIDDEN * len(lines[index])
    scanned = "\n".join(lines)
    scanned = re.sub(r"\\(.)", lambda m: HIDDEN * 2 if m.group(1) in ESCAPABLE else m.group(0), scanned)
    return _CODE_SPAN.sub(lambda m: HIDDEN * len(m.group(0)), scanned)


def _closings(scanned: str) -> dict[int, int]:
    """Each ``[`` and ``(`` of ``scanned`` that is closed in its paragraph -> the index just past the bracket of
    its kind that closes it (brackets of a kind nest). One pass, so that a page of a thousand unclosed brackets
    is read in linear time, not each bracket to the end of its paragraph."""
    closings: dict[int, int] = {}
    open_at: dict[str, list[int]] = {"[": [], "(": []}
    for match in _BRACKET_OR_BREAK.finditer(scanned):
        char = match.group()
        if char in open_at:
            open_at[char].append(match.start())
        elif char in _OPENING:
            waiting = open_at[_OPENING[char]]
            if waiting:
                closings[waiting.pop()] = match.end()
        else:  # a blank line ends the paragraph: what is still open stays unclosed
            open_at = {"[": [], "(": []}
    return closings


def _inline_link(text: str, scanned: str, start: int,
                 closings: dict[int, int]) -> tuple[str, str | None, int] | None:
    """``(src "title")`` from ``start`` (its ``(``): the source, the title and the index past it."""
    angled = _ANGLE_LINK.match(scanned, start)
    if angled:
        title = text[angled.start(2) + 1:angled.end(2) - 1] if angled.group(2) else None
        return _unescape(text[angled.start(1):angled.end(1)]).strip(), title, angled.end()
    end = closings.get(start)
    if end is None:
        return None
    inside = text[start + 1:end - 1]
    titled = _TITLE.match(inside)
    if titled:
        return _unescape(titled.group(1)).strip(), titled.group(2)[1:-1], end
    return _unescape(inside).strip(), None, end


def page_images(text: str, shown: str) -> list[PageImage]:
    """Every picture of a page, in order."""
    return [target for target in _targets(text, shown) if target.picture]


def page_links(text: str, shown: str) -> list[PageImage]:
    """Every link of a page written ``[words](href)`` or by reference, in order (``src`` is its href, ``alt`` its
    words); a link around a picture is one too."""
    return [target for target in _targets(text, shown) if not target.picture]


def _targets(text: str, shown: str) -> list[PageImage]:
    """Every picture and link of a page, in order of their opening bracket."""
    scanned = _scanned(text, shown)
    references = {}
    definitions = set()  # where a definition's own [name] opens: not a link
    for match in _DEFINITION.finditer(scanned):
        title = match.group(4) if match.group(3) else match.group(5)
        references[" ".join(match.group(1).lower().split())] = (  # the last definition of a name counts
            _unescape(text[match.start(2):match.end(2)]).lstrip("<").rstrip(">"), title)
        definitions.add(match.start(1) - 1)
    targets = []
    position = 0
    link_target = range(0)  # where the last link's ``(href)`` or ``[reference]`` is written
    closings = _closings(scanned)
    while (opening := scanned.find("[", position)) >= 0:
        picture = opening > 0 and scanned[opening - 1] == "!"
        start = opening - 1 if picture else opening
        position = opening + 1
        end = closings.get(opening)
        if end is None or opening in definitions or opening in link_target:
            continue
        alt = _unescape(text[opening + 1:end - 1])
        found = _inline_link(text, scanned, end, closings) if scanned.startswith("(", end) else None
        if found is None:
            reference = _REFERENCE_ID.match(scanned, end)
            key = " ".join((reference.group(1) if reference and reference.group(1) else alt).lower().split())
            if key not in references:
                continue
            src, title = references[key]
            found = src, title, reference.end() if reference else end
        src, title, past = found
        if picture:  # a picture's alt text holds no picture or link; a link's words may
            position = past
        else:
            link_target = range(end, past)
        line = text.count("\n", 0, start) + 1
        column = start - (text.rfind("\n", 0, start) + 1) + 1
        targets.append(PageImage(Loc(shown, line, column), src, alt, title, picture))
    return targets


def picture_path(root: Path, page_path: Path, src: str) -> Path | str:
    """The file a picture's ``src`` names, relative to the page; or why it names no file of the game folder."""
    if not src:
        return "a picture needs a file: ![what it shows](../art/picture.png), relative to the page"
    if src.startswith("//") or re.match(r"^https?:", src, re.I):
        return (f"'{src}' is on the web; a rulebook picture must be a file in the game folder (deckwright builds "
                "offline, and the site loads pictures only from itself): download it and name it relative to the page")
    if _SCHEME.match(src):
        return f"'{src}' is not a file; a rulebook picture names a PNG or JPEG file relative to the page"
    name = unquote(src)  # as a browser reads it: my%20map.png is "my map.png"
    if "\x00" in name:
        return f"'{src}' is not a file name (it holds a NUL byte)"
    if name.startswith(("/", "\\")) or Path(name).is_absolute():
        return (f"'{src}' is an absolute path; name a picture relative to the page (../art/map.png), inside the "
                "game folder")
    path = page_path.parent / name
    if not is_confined(root, path):
        return f"'{src}' is outside the game folder"
    if missing(path):
        near = did_you_mean(src, pictures_beside(root, path, src))
        return f"no image '{src}' in the game folder{near} (looked for {path.resolve().relative_to(root).as_posix()})"
    return path


def check_page_pictures(root: Path, page_path: Path, text: str, shown: str, problems: Problems,
                        checked: dict[tuple, ImageFile | str]) -> tuple[tuple[str, ImageFile], ...]:
    """Each picture of the page that passes the check, by its source; each that does not is an error at its
    ``!``. ``checked`` holds the files read so far, by file, source and ``_stamp``: a picture
    used again is read once, and a memo kept from one reading of the game to the next (``deckwright serve``
    keeps one) reads only the pictures changed since (decoding a 12-megapixel picture takes 0.2-0.5 s)."""
    good: dict[str, ImageFile] = {}
    for image in page_images(text, shown):
        found = picture_path(root, page_path, image.src)
        if isinstance(found, Path):
            key = (found.resolve(), image.src, _stamp(found))
            if key not in checked:
                checked[key] = read_image(root, found, image.src)
            found = checked[key]
        if isinstance(found, str):
            problems.error(image.loc, f"picture: {found}")
        else:
            good.setdefault(image.src, found)
    return tuple(good.items())


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    """What changes when the file does (as git tells a changed file): its size, inode, and the times its content
    and its status last changed (the second moves on a chmod that makes an unreadable picture readable, and on any
    write, whatever time the writer gives the first)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns
