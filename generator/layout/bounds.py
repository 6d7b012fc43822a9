"""Boxes drawn past the edge of their face, where what they draw is cut off.

A face prints its trim and, around it, its bleed (a page-sized sheet: no bleed). Whatever a box draws beyond
the bleed is cut off in every output (the PDFs, the print-shop PNGs, the web gallery), and a box wholly beyond
the trim is cut away with the bleed. The measurer notes each drawn box that does either (a ``Spill``);
``told`` makes one problem per layout line out of one face's notes: an error when the box never prints at
all (as for text that does not fit its box: something the layout draws is lost), a warning when it is only
cut (a big shape running off the card may be meant so). What legitimately pokes out is not counted: a box
measures without its stroke (half of it lies outside the box however it is placed), a ``bleed: true`` box
reaches the bleed's edge exactly, and rounding (``33.333%`` three times) is far below ``SLACK``.
"""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.rules.problems import Loc

SLACK = 0.1  # mm a box may pass an edge by unnoticed: rounding, and finer than any cut is true to
EDGES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Spill:
    """A drawn box that passes the face's edge."""

    loc: Loc  # the box's line in the layout
    where: str  # the box as the layout names it: boxes.rows.boxes.hits
    edges: tuple[str, ...]  # the face's edges it passes, in EDGES order
    unseen: bool  # wholly outside the trim: nothing of it prints
    copy: bool  # a copy of a repeated box (or a box inside one)


def spill(loc: Loc, where: str, copy: bool, rect: tuple[float, float, float, float],
          size: tuple[float, float, float]) -> Spill | None:
    """The box ``rect`` (x, y, w, h in mm from the trim's top-left corner) on a face of ``size`` (width, height,
    bleed) as a Spill, or None when it prints whole."""
    x, y, w, h = rect
    width, height, bleed = size
    beyond_trim = (x + w < -SLACK, y + h < -SLACK, x > width + SLACK, y > height + SLACK)
    reach = bleed + SLACK
    beyond_bleed = (x < -reach, y < -reach, x + w > width + reach, y + h > height + reach)
    unseen = any(beyond_trim)
    edges = tuple(edge for edge, past in zip(EDGES, beyond_trim if unseen else beyond_bleed) if past)
    return Spill(loc, where, edges, unseen, copy) if edges else None


def told(spills: list[Spill], bleed: bool) -> list[tuple[Loc, str, str]]:
    """(loc, message, severity) for each layout line among one face's ``spills``, in the order first found;
    ``bleed``: whether the face has one. The message names the box and the edges, not the face or how far
    (which may differ from card to card), so that the same line on many faces reads the same."""
    lines: dict[tuple[Loc, str], list[Spill]] = {}
    for found in spills:
        lines.setdefault((found.loc, found.where), []).append(found)
    out = []
    for (loc, where), found in lines.items():
        unseen = any(one.unseen for one in found)
        edges = _edges({edge for one in found if one.unseen == unseen for edge in one.edges})
        box = f"{where}{' (some copies)' if any(one.copy for one in found) else ''}"
        if unseen:
            out.append((loc, f"{box}: drawn wholly outside the face, past its {edges}, where nothing prints; "
                             f"move it onto the face, make room for it, or hide it with show", "error"))
        else:
            out.append((loc, f"{box}: drawn past the face's {edges}{' and its bleed' if bleed else ''}, where it is "
                             f"cut off; move it inside or make it smaller", "warning"))
    return out


def _edges(edges: set[str]) -> str:
    """``right edge``, ``right and bottom edges``, ``left, right and bottom edges``."""
    names = [edge for edge in EDGES if edge in edges]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed} edge{'s' if len(names) > 1 else ''}"
