"""What changed between two versions of a page, as a list of elements to swap, when that is all that changed.

The pages' large repeated parts are elements with an id: a card's picture (``<symbol id="face-...">``) and its
figure in the gallery (``<figure id="card-...">``). If two versions of a page differ only inside such
elements, the browser swaps those few instead of loading megabytes again; otherwise there is no patch and
it fetches the page.
"""
from __future__ import annotations

import re

_UNIT = re.compile(r'<(symbol|figure)\b[^>]*?\sid="([^"]+)"')
MAX_PATCH = 512 * 1024  # characters; a bigger change (a layout edit redraws every card) fetches the page


def units(html: str) -> tuple[str, dict[str, str]] | None:
    """The page with each unit replaced by a placeholder, and each unit's HTML by its id."""
    skeleton: list[str] = []
    found: dict[str, str] = {}
    position = 0
    for match in _UNIT.finditer(html):
        if match.start() < position:
            continue
        closing = f"</{match.group(1)}>"
        end = html.find(closing, match.end())
        if end < 0 or match.group(2) in found:
            return None
        end += len(closing)
        skeleton += [html[position:match.start()], f"\0{match.group(2)}\0"]
        found[match.group(2)] = html[match.start():end]
        position = end
    skeleton.append(html[position:])
    return "".join(skeleton), found


def patch(old: str, new: str) -> dict[str, str] | None:
    """The units to swap to turn ``old`` into ``new`` (id -> new HTML); None when anything else changed too."""
    before, after = units(old), units(new)
    if before is None or after is None or before[0] != after[0]:
        return None
    changed = {ident: html for ident, html in after[1].items() if before[1].get(ident) != html}
    return changed if sum(map(len, changed.values())) <= MAX_PATCH else None
