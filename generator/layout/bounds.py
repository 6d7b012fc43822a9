"""Boxes drawn past the edge of their face, where what they draw is cut off.

A face prints its trim and, around it, its bleed (a page-sized sheet: no bleed). Whatever a box draws beyond
the bleed is cut off in every output (the PDFs, the print-shop PNGs, the web gallery), and a box wholly beyond
the trim is cut away with the bleed. The measurer notes each drawn box that does either (a ``Spill``);
``told`` makes one problem per layout line out of one face's notes: an error when the box never prints at
all (as for text that does not fit its box: something the layout draws is lost), a warning when it is only
cut (a big shape running off the card may be meant so). What legitimately pokes out is not counted: a box
measures without its stroke (half of it lies outside the box however it is placed), a ``bleed: true`` box
reaches the bleed's edge exactly, and rounding (``33.333%`` three times) is far below ``SLACK``.

Text is held to the trim, not the bleed: a background may run over the bleed to be cut there, but words set
across the trim line lose their ends when the cards are cut. A text box's own rectangle may pass the trim (a
centred title in a full-width box); the set text itself passing it is a warning (``ink_spill``).
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
    text: bool = False  # set text passing the trim (the box itself may not pass the bleed)


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


def ink_spill(loc: Loc, where: str, copy: bool, ink: tuple[float, float, float, float],
              size: tuple[float, float, float]) -> Spill | None:
    """Text whose ink (left, top, right, bottom in mm from the trim's top-left corner) passes the trim of a face
    of ``size`` (width, height, bleed) as a Spill, or None when it lies inside."""
    left, top, right, bottom = ink
    width, height, _ = size
    past = (left < -SLACK, top < -SLACK, right > width + SLACK, bottom > height + SLACK)
    edges = tuple(edge for edge, passes in zip(EDGES, past) if passes)
    return Spill(loc, where, edges, False, copy, text=True) if edges else None


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
        boxes = [one for one in found if not one.text]
        told_of = [one for one in found if one.unseen == unseen and (not one.text or not boxes)]  # the worst kind
        edges = _edges({edge for one in told_of for edge in one.edges})
        box = f"{where}{' (some copies)' if any(one.copy for one in found) else ''}"
        if unseen:
            out.append((loc, f"{box}: drawn wholly outside the face, past its {edges}, where nothing prints; "
                             f"move it onto the face, make room for it, or hide it with show", "error"))
        elif not boxes:
            out.append((loc, f"{box}: its text runs past the face's {edges}, the trim, where the card is cut; "
                             f"keep text inside the trim (narrow the box, or set it smaller)", "warning"))
        else:
            out.append((loc, f"{box}: drawn past the face's {edges}{' and its bleed' if bleed else ''}, where it is "
                             f"cut off; move it inside or make it smaller", "warning"))
    return out


def _edges(edges: set[str]) -> str:
    """``right edge``, ``right and bottom edges``, ``left, right and bottom edges``."""
    names = [edge for edge in EDGES if edge in edges]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed} edge{'s' if len(names) > 1 else ''}"
