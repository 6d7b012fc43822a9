"""Setting text in a box: wrap at spaces, then shrink until it fits both the width and the height (a word
too wide for the box breaks inside only where the caller asks: ``break_words``).

Sizes are points, boxes millimetres. The result is measured runs (one per
line and face) plus inline icons, ready for a display list.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .displaylist import Text
from .fonts import Face, FontBook
from .richtext import Paragraph
from .wordbreak import word_pieces

MM_PER_PT = 25.4 / 72
SIZE_STEP = 0.25  # points; shrinking searches sizes in these steps
ICON_EM = 1.05  # advance of an inline icon, in ems
_EPS = 1e-6


@dataclass(frozen=True)
class TextSpec:
    face: Face
    size: float  # the size wanted, points
    min_size: float  # the smallest size shrinking may reach
    leading: float  # line distance as a multiple of the size
    align: str  # left, center, right
    valign: str  # top, middle, bottom
    color: str
    shrink: bool = True
    overflow_ok: bool = False  # text that does not fit even at min_size is drawn past the box, and is no error


@dataclass(frozen=True)
class Fitted:
    items: tuple  # Text runs and icon paths
    size: float
    fits: bool
    lines: int


# A measured cluster: widths at 1 pt for each piece, and the pieces' faces.
_Cluster = tuple[tuple[tuple[str, str, float], ...], float]  # ((text or "", face name or icon name, width), ...), total


def _joined(units: list[tuple[str, str, float]]) -> _Cluster:
    """A cluster of characters (and icons), neighbouring characters in one face joined into one piece."""
    pieces: list[tuple[str, str, float]] = []
    for text, key, width in units:
        if text and pieces and pieces[-1][0] and pieces[-1][1] == key:
            pieces[-1] = (pieces[-1][0] + text, key, pieces[-1][2] + width)
        else:
            pieces.append((text, key, width))
    return tuple(pieces), sum(width for _, _, width in pieces)


class TextSetter:
    def __init__(self, fonts: FontBook, place_icon: Callable[[str, float, float, float, str], list]):
        self.fonts = fonts
        self.place_icon = place_icon  # (name, x, y_top, size_mm, color) -> display-list items

    def measure(self, paragraphs: tuple[Paragraph, ...], face: Face) -> list[list[_Cluster]]:
        fonts = self.fonts
        out = []
        for paragraph in paragraphs:
            clusters = []
            for cluster in paragraph:
                pieces = []
                total = 0.0
                for piece in cluster:
                    if piece.icon:
                        pieces.append(("", piece.icon, ICON_EM))
                        total += ICON_EM
                        continue
                    name = fonts.styled(face, piece.bold, piece.italic).name if (piece.bold or piece.italic) else face.name
                    width = fonts.width(name, piece.text)
                    pieces.append((piece.text, name, width))
                    total += width
                clusters.append((tuple(pieces), total))
            out.append(clusters)
        return out

    def measure_plain(self, text: str, face: Face) -> list[list[_Cluster]]:
        """What ``measure(parse(text), face)`` gives for text without markup (``richtext.is_plain``), without
        making its pieces."""
        name = face.name
        width_of = self.fonts.width
        out = []
        for line in text.split("\n"):
            clusters = []
            for word in line.split(" "):
                if word:
                    width = width_of(name, word)
                    clusters.append((((word, name, width),), width))
            out.append(clusters)
        return out

    def break_words(self, measured: list[list[_Cluster]], size: float, w: float) -> list[list[_Cluster]]:
        """``measured`` with each word too wide for a box ``w`` mm wide at ``size`` points in pieces that fit
        (``word_pieces``), for a box whose text must not run past its edge (a table cell). A piece after the
        first starts a paragraph of its own: a line break without a space, wherever the line would end."""
        limit = w / (size * MM_PER_PT) + _EPS
        if all(cluster[1] <= limit for clusters in measured for cluster in clusters):
            return measured
        width_of = self.fonts.width
        out = []
        for clusters in measured:
            line: list[_Cluster] = []
            for cluster in clusters:
                if cluster[1] <= limit:
                    line.append(cluster)
                    continue
                units = []  # the word's characters (an icon is one), each with its face and width
                for text, key, width in cluster[0]:
                    units += [(ch, key, width_of(key, ch)) for ch in text] if text else [("", key, width)]
                start = 0
                for piece in word_pieces("".join(ch or "\ufffc" for ch, _, _ in units), [u[2] for u in units], limit):
                    if start:
                        out.append(line)
                        line = []
                    line.append(_joined(units[start:start + len(piece)]))
                    start += len(piece)
            out.append(line)
        return out

    def fit(self, paragraphs: tuple[Paragraph, ...], spec: TextSpec, x: float, y: float, w: float, h: float,
            measured: list[list[_Cluster]] | None = None) -> Fitted:
        """``measured``: what ``measure(paragraphs, spec.face)`` gives, when the caller already has it."""
        measured = measured if measured is not None else self.measure(paragraphs, spec.face)
        space = self.fonts.width(spec.face.name, " ")
        size = spec.size
        lines = self._wrap(measured, space, size, w)
        fits = self._fits(lines, spec, size, w, h)
        if spec.shrink and not fits:
            low = 0
            high = max(0, int(round((spec.size - spec.min_size) / SIZE_STEP)))  # steps down from the wanted size
            best = None
            while low <= high:  # the smallest number of steps down that fits
                mid = (low + high) // 2
                candidate = spec.size - mid * SIZE_STEP
                wrapped = self._wrap(measured, space, candidate, w)
                if self._fits(wrapped, spec, candidate, w, h):
                    best = (candidate, wrapped)
                    high = mid - 1
                else:
                    low = mid + 1
            if best is None:  # too long even at the smallest size: set it there, and say so
                size = spec.size - max(0, int(round((spec.size - spec.min_size) / SIZE_STEP))) * SIZE_STEP
                lines = self._wrap(measured, space, size, w)
            else:
                (size, lines), fits = best, True
        return Fitted(tuple(self._place(lines, spec, size, space, x, y, w, h)), size, fits, len(lines))

    @staticmethod
    def _wrap(measured: list[list[_Cluster]], space: float, size: float, w: float) -> list[tuple[list[_Cluster], float]]:
        """Lines of clusters, each with its width in ems; a cluster wider than the box gets a line of its own."""
        limit = w / (size * MM_PER_PT) + _EPS  # the box width in ems at this size
        lines: list[tuple[list[_Cluster], float]] = []
        for clusters in measured:
            line: list[_Cluster] = []
            width = 0.0
            for cluster in clusters:
                extra = cluster[1] + (space if line else 0.0)
                if line and width + extra > limit:
                    lines.append((line, width))
                    line, width = [cluster], cluster[1]
                else:
                    line.append(cluster)
                    width += extra
            lines.append((line, width))
        return lines

    def _fits(self, lines, spec: TextSpec, size: float, w: float, h: float) -> bool:
        limit = w / (size * MM_PER_PT) + _EPS
        return (max(width for _, width in lines) <= limit
                and self._block_height(len(lines), spec, size) <= h + _EPS)

    @staticmethod
    def _block_height(count: int, spec: TextSpec, size: float) -> float:
        return ((count - 1) * spec.leading * size + (spec.face.ascent + spec.face.descent) * size) * MM_PER_PT

    def _place(self, lines, spec: TextSpec, size: float, space: float, x: float, y: float, w: float, h: float) -> list:
        em = size * MM_PER_PT
        block = self._block_height(len(lines), spec, size)
        top = y if spec.valign == "top" else (y + h - block if spec.valign == "bottom" else y + (h - block) / 2)
        baseline = top + spec.face.ascent * em
        color, align = spec.color, spec.align
        items: list = []
        for line, line_width in lines:
            width = line_width * em
            cx = x if align == "left" else (x + w - width if align == "right" else x + (w - width) / 2)
            # the run being collected: its x, its words and the spaces between them, its face and width
            run_x, run_words, run_key, run_w = 0.0, [], None, 0.0
            gap = False
            for pieces, _ in line:
                for text, key, piece_w in pieces:
                    gap_w = space * em if gap else 0.0
                    if text and key == run_key:  # text in the run's face: the run grows (run_key is None between runs)
                        if gap:
                            run_words.append(" ")
                        run_words.append(text)
                        run_w += gap_w + piece_w * em
                        cx += gap_w + piece_w * em
                    else:
                        if run_key is not None:
                            items.append(Text(run_x, baseline, "".join(run_words), run_key, size, color, run_w))
                            run_key = None
                        cx += gap_w
                        if text:
                            run_x, run_words, run_key, run_w = cx, [text], key, piece_w * em
                        else:  # an inline icon, in the text's colour
                            icon_size = em * 0.92
                            items.extend(self.place_icon(key, cx + (ICON_EM * em - icon_size) / 2,
                                                         baseline - 0.78 * em, icon_size, color))
                        cx += piece_w * em
                    gap = False
                gap = True
            if run_key is not None:
                items.append(Text(run_x, baseline, "".join(run_words), run_key, size, color, run_w))
            baseline += spec.leading * em
        return items
