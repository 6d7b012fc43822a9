"""The HTML rulebook site: Markdown pages, card gallery and printable cards for every game built.

``build_site``, ``site_step`` and ``write_site`` (``site.build``) are imported when first asked for: a build
imports this package for the Balance page's file and the site worker long before it writes the site, and
``site.build``'s Jinja2 and Markdown are then imported by the worker, not on the build's own path."""
from __future__ import annotations

from typing import Any

__all__ = ["build_site", "site_step", "write_site"]



def game_pages(game) -> tuple[str, ...]:
    """The pages the site writes for ``game`` whatever its rulebook, in its folder (site.build): a rulebook page,
    on the site in <game>/rules/, may link to them (``../readings.html``); the check of links
    (generator.book.links) knows them. The readings register only for a game that keeps one."""
    return ("index.html", "cards.html", *(("readings.html",) if game.readings else ()))


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
