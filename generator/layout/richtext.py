"""The small text markup of card text: ``**bold**``, ``*italic*``, ``:icon:`` and line breaks.

``:name:`` becomes an inline icon only when ``name`` is a known icon, so a
colon in ordinary text stays a colon, and a ``*`` that opens or closes nothing
(``Deal 3* damage``) stays an asterisk. A backslash keeps the next character
literal (``\\*``). A tilde ``~`` (or U+00A0) is a space that never breaks: it glues
its neighbours into one cluster, e.g. an icon and its number (``:energy:~3``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

ICON = re.compile(r":([a-z0-9][a-z0-9-]*):")  # an inline icon, when its name is a known icon
NBSP = "\u00a0"


@dataclass(frozen=True)
class Piece:
    """A stretch of text in one style, or an inline icon (``icon`` set, ``text`` empty)."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str = ""


Cluster = tuple[Piece, ...]  # pieces with no breakable space between them
Paragraph = tuple[Cluster, ...]


def parse(text: str, icons: Iterable[str] | Callable[[str], bool] = ()) -> tuple[Paragraph, ...]:
    """Paragraphs (split at line breaks) of clusters (split at spaces) of styled pieces."""
    known = icons if callable(icons) else set(icons).__contains__
    paragraphs = []
    for line in text.split("\n"):
        paragraphs.append(_paragraph(line, known))
    return tuple(paragraphs)


_MARKUP = "*:\\~\t"  # the characters markup begins with: a line without them is plain words


def is_plain(text: str) -> bool:
    """No markup in ``text``: parsed, each line is its words split at spaces, each a cluster of one plain piece."""
    return not any(c in text for c in _MARKUP)


_TOKENS = re.compile(r"(\\.)|(\*\*)|(\*)|:([a-z0-9][a-z0-9-]*):|([ \t]+)|([^\\*: \t~]+|[:~\\])")


def _paragraph(line: str, known: Callable[[str], bool]) -> Paragraph:
    if is_plain(line):  # plain words, the common case
        return tuple((Piece(word),) for word in line.split(" ") if word)
    clusters: list[Cluster] = []
    current: list[Piece] = []
    buf: list[str] = []
    bold = italic = False

    def flush_text() -> None:
        if buf:
            current.append(Piece("".join(buf), bold, italic))
            buf.clear()

    matched = _matched_markers(line) if "*" in line else set()
    for match in _TOKENS.finditer(line):
        escaped, double, single, icon, space, text = match.groups()
        if (double or single) and match.start() not in matched:
            text, double, single = match.group(0), None, None  # an unmatched marker is a literal asterisk
        if text is not None:
            buf.append(" " if text == "~" else text)
        elif space is not None:
            flush_text()
            if current:
                clusters.append(tuple(current))
                current.clear()
        elif icon is not None:
            if known(icon):
                flush_text()
                current.append(Piece("", bold, italic, icon=icon))
            else:
                buf.append(match.group(0))
        elif double is not None:
            flush_text()
            bold = not bold
        elif single is not None:
            flush_text()
            italic = not italic
        else:
            buf.append(escaped[1])
    flush_text()
    if current:
        clusters.append(tuple(current))
    return tuple(clusters)


def _matched_markers(line: str) -> set[int]:
    """Where the ``*`` and ``**`` markers that open or close a stretch of style start, as in Markdown: one opens
    before a non-space and closes after one (``Deal 3* damage`` has none: its ``*`` is a literal)."""
    matched: set[int] = set()
    opened: dict[str, int] = {}
    for match in _TOKENS.finditer(line):
        marker = match.group(2) or match.group(3)
        if not marker:
            continue
        start, end = match.start(), match.end()
        before = line[start - 1] if start > 0 else " "
        after = line[end] if end < len(line) else " "
        if marker in opened and not before.isspace():
            matched.update((opened.pop(marker), start))
        elif not after.isspace():
            opened[marker] = start
    return matched


def _plain_line(line: str) -> str:
    """A line without markup as parsing gives it: its words (split at spaces, stripped) joined by one space."""
    if line.isprintable() and "  " not in line and line[:1] != " " and line[-1:] != " ":
        return line  # already so (most are): the only whitespace in a printable line is the space
    return " ".join(w for w in (word.strip() for word in line.split(" ")) if w)


def plain(text: str, icons: Iterable[str] | Callable[[str], bool] = (), icon_text: Callable[[str], str] = lambda n: "") -> str:
    """The text without markup; each icon becomes ``icon_text(name)`` (nothing by default)."""
    if is_plain(text):  # plain words (most fields): what parsing them would give, at once
        return "\n".join(map(_plain_line, text.split("\n")))
    lines = []
    for paragraph in parse(text, icons):
        words = ["".join(p.text or icon_text(p.icon) for p in cluster).strip() for cluster in paragraph]
        lines.append(" ".join(w for w in words if w))
    return "\n".join(lines)


def render(text: str, icons: Iterable[str] | Callable[[str], bool], piece: Callable[[Piece], str],
           space: str = " ", line_break: str = "\n") -> str:
    """The text rewritten for another format (HTML, ReportLab's paragraph markup): each piece as
    ``piece(piece)`` (which escapes its text), a cluster's pieces run together, clusters joined by ``space``
    and lines by ``line_break``."""
    return line_break.join(space.join("".join(piece(p) for p in cluster) for cluster in paragraph)
                           for paragraph in parse(text, icons))
