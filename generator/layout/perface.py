"""Problems found filling a layout for one face (a card's front, a back, a sheet), and the same problem found on
many faces told once.

A layout is written once and filled for every card, so one mistake in it (a misspelt field, an icon that is not
there) fails on every card that reaches that line. The measurer words such a problem the same way on each face
and names the face at its end (``FILLING``); ``merged`` then makes one line of those that differ only in that
name, so that a typo in a 3,000-card game is one line, not 3,000.
"""
from __future__ import annotations

import re
from dataclasses import replace

from deckwright.rules.problems import Problem, reading_order

# how a problem found filling a layout names its face (``merged`` reads it back)
FILLING = "{text} (filling {layout} for {who})"
_FILLED = re.compile(r"(?P<text>.*) \(filling (?P<layout>[^ ]+) for (?P<who>.+)\)", re.DOTALL)
SHOWN_FACES = 3  # the other faces a merged problem names, at most
SHOWN_CHARACTERS = 80  # and at most this much of their names (one at least): the line stays under clip's limit


def merged(problems) -> list[Problem]:
    """``problems``, sorted, with those that differ only in the face they were found on made one: a layout line
    that fails the same way on 3,000 cards is one line, naming the first face, how many more and a few of them
    (``... (filling hero for hero 'knight', and for 2 more: hero 'rogue', hero 'sage')``). The layouts filled may
    differ (a line of a shared layout that others extend): the line is the same mistake."""
    groups: dict[object, list[tuple[Problem, re.Match | None]]] = {}
    for problem in sorted(set(problems)):
        filled = _FILLED.fullmatch(problem.message)
        key = (problem.loc, problem.severity, filled["text"]) if filled else problem
        groups.setdefault(key, []).append((problem, filled))
    out = []
    for members in groups.values():
        if len(members) > 1:  # the faces in reading order: hero 'h2' before hero 'h10'
            members.sort(key=lambda member: reading_order(member[1]["who"]))
        (first, filled), *others = members
        if not others:
            out.append(first)
            continue
        names = [match["who"] for _, match in others]
        layouts = list(dict.fromkeys(match["layout"] for _, match in others))
        kept = names[:1]
        for name in names[1:SHOWN_FACES]:
            if len(", ".join([*kept, name])) > SHOWN_CHARACTERS:
                break
            kept.append(name)
        shown = ", ".join(kept) + (", ..." if len(names) > len(kept) else "")
        also = f"for {len(names):,} more" if layouts == [filled["layout"]] else \
            f"{len(names):,} more filling {' and '.join(layouts)}"  # a line of a layout others extend
        out.append(replace(first, message=f"{filled['text']} (filling {filled['layout']} for {filled['who']}, "
                                          f"and {also}: {shown})"))
    return out
