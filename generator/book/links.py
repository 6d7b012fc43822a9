"""Where each link of a rulebook page points, checked for ``check`` and ``build``: a link that would be dead on the
site, or dropped from the printed rulebook, is an error at its ``[`` in the page.

A link may name a web address (``https:``, ``http:``, ``mailto:``: not fetched), another page by its Markdown file
(``turn.md``), a heading or an example of that page or of its own (``turn.md#setup``, ``#setup``), and a page the
site writes for every game, as the rule pages on the site see it (``../readings.html``; the printed rulebook,
which has no such page, keeps the link's words). A card is linked with ``[[card-id]]``, not by the gallery's
``#card-...`` anchor: a big game's gallery spans several pages. The ids a
page has are those its outputs give it: the page is read by the one Markdown configuration
(``generator.book.markdown``), so a heading's id is Python-Markdown's, suffixed past the page's example boxes.

Each is an error, as a ``[[card]]`` naming no card is: the site would publish a dead link (a file of the game
folder is not published: only pictures are, and a card is linked with ``[[card]]``), the printed rulebook keeps
the words without the link, and a link whose scheme the outputs remove (``javascript:``, ``data:``) is text in
both. ``build --force`` still builds, with the same outputs as before.
"""
from __future__ import annotations

import html
import os
import re
from collections.abc import Collection
from pathlib import Path
from urllib.parse import unquote

from deckwright.rules.book.pages import resolve_field
from deckwright.rules.book.pictures import page_links
from deckwright.rules.data.confine import is_confined
from deckwright.rules.data.model import Game, Page
from deckwright.rules.problems import Loc, Problem, did_you_mean

from .examples import ExampleView, example_view
from .markdown import URL_ATTRIBUTES, Hooks, PageUnreadable, linked_page, page_tree, reading, rulebook_markdown
from .sanitize import safe_url

GALLERY = "cards.html"  # the site's gallery, or its first page
# site pages a game has only when it keeps what they show, and why one does not
SOMETIMES = {"readings.html": "the game keeps no readings register (a readings.yaml beside its game.yaml), so its "
                              "site has no readings page"}
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")
_BRACES = re.compile(r"\{[^{}\n]*\}")  # where a page may set attributes: {: #id .class name=value }
ALLOWED = ("a rulebook link may be a web address (https://..., mailto:...), another page (turn.md), a heading or "
           "example of it (turn.md#setup) or of this page (#setup)")


def page_ids(game: Game, page: Page) -> tuple[set[str], list[tuple[str, str]]]:
    """Every id a link can reach on the page (its headings' and its example boxes'), and what its ``{: ...}``
    set that the outputs leave out (``generator.book.markdown``: ``md.dropped``). Raises ``PageUnreadable``."""
    from deckwright.rules.data.yamlsrc import AliasBudget

    boxes: list[ExampleView] = []
    aliases = AliasBudget()

    def block(kind: str, line: int, body: str) -> str | None:
        if kind != "example":
            return None
        boxes.append(example_view(body, None, len(boxes) + 1, aliases))
        return ""

    def reference(kind: str | None, ident: str, path: str | None) -> str:
        """What a heading's id is made from (a card by its name, as the outputs show it)."""
        if kind == "constant":
            return html.escape(str(game.constants.get(ident, "")))
        card = game.card(ident)
        return html.escape(card.name if not path else str(resolve_field(card, path)))

    hooks = Hooks(block=block, reference=reference, page_link=lambda target, fragment: "", picture=lambda found: "",
                  taken_ids=lambda: [box_id for view in boxes for box_id in view.ids])
    md = rulebook_markdown(game, page, hooks)
    with reading(page):
        tree = page_tree(md, page.text)
    return ({element.get("id") for element in tree.iter() if element.get("id")} | {view.anchor for view in boxes},
            md.dropped)


def dropped_problems(page: Page, dropped: list[tuple[str, str]]) -> list[Problem]:
    """One problem for each attribute a page's ``{: ...}`` set that the outputs leave out (or, an address, that
    the check did not read), at the place the page names it: the n-th of a name at its n-th ``name=``."""
    seen: dict[str, int] = {}
    problems = []
    braces = list(_BRACES.finditer(page.text)) if dropped else []
    for name, _value in dropped:
        named = re.compile(r"(?<![\w-])" + re.escape(name) + r"\s*=")
        found = [found for brace in braces if (found := named.search(page.text, brace.start(), brace.end()))]
        index = seen.get(name, 0)
        seen[name] = index + 1
        loc = Loc(page.shown)
        if found:
            start = found[min(index, len(found) - 1)].start()
            line_start = page.text.rfind("\n", 0, start) + 1
            loc = Loc(page.shown, page.text.count("\n", 0, start) + 1, start - line_start + 1)
        if name.lower() in URL_ATTRIBUTES:
            what = "a picture's file" if name.lower() == "src" else "a link's address"
            why = (f"{{: {name}=... }} sets {what} where deckwright check does not read it: write it in the "
                   "parentheses, ![what it shows](../art/map.png) or [words](turn.md)")
        else:
            why = (f"{{: {name}=... }}: the site and the printed rulebook leave this attribute out; a page's "
                   "{: ...} may set only id, class and title")
        problems.append(Problem(loc, why))
    return problems


def link_problems(game: Game, site_pages: Collection[str]) -> list[Problem]:
    """Every link of the game's rulebook pages that points nowhere, one problem each, at the link.
    ``site_pages``: the pages the site writes for the game whatever its rulebook (``generator.site.game_pages``).

    First each page is read as the outputs read it: a page Markdown cannot read (``PageUnreadable``), and each
    attribute a page's ``{: ...}`` sets that the outputs leave out, is a problem too."""
    pages_by_path = {page.path.resolve(): page for page in game.pages}
    ids: dict[str, set[str]] = {}
    problems = []
    for page in game.pages:
        try:
            ids[page.id], dropped = page_ids(game, page)
        except PageUnreadable as exc:
            problems.append(exc.problem)
            continue
        problems += dropped_problems(page, dropped)
    for page in game.pages:
        for link in page_links(page.text, page.shown):
            problem = _problem(game, pages_by_path, ids, page, link.src, site_pages)
            if problem:
                problems.append(Problem(link.loc, f"link: {problem}"))
    return problems


def _problem(game: Game, pages_by_path: dict, ids: dict[str, set[str]], page: Page, href: str,
             site_pages: Collection[str]) -> str:
    """Why ``href`` of ``page`` points nowhere; "" when it points somewhere."""
    if not href:
        return f"a link needs an address: [words](turn.md); {ALLOWED}"
    if not safe_url(href):
        return f"'{href}' is removed from the site and the printed rulebook: {ALLOWED}"
    if href.startswith("//"):  # no scheme: a site opened from disk would look for a file
        return f"'{href}' names no scheme, so on pages opened from disk it points at a file: write 'https:{href}'"
    if not safe_url(href, allow_network=False):
        return ""  # on the web: not fetched
    path, _, fragment = href.partition("#")
    if path in {f"../{name}" for name in site_pages}:
        if fragment and path == f"../{GALLERY}":
            return (f"'{href}': link a card with [[card-id]] (a big game's gallery spans several pages, and the "
                    "printed rulebook has none)")
        return ""
    if path.startswith("../") and path[3:] in SOMETIMES:
        return f"'{href}': {SOMETIMES[path[3:]]}"
    target = linked_page(pages_by_path, page, path) if path else page
    if target is None:
        return _not_a_page(game, page, path)
    if not fragment:
        return ""
    if target.id not in ids:
        return ""  # a page Markdown could not read: reported as such
    if fragment in ids[target.id]:
        return ""
    where = "this page" if target is page else f"page {path}"
    return (f"'{href}': {where} has no heading or example with the id '{fragment}'"
            f"{did_you_mean(fragment, ids[target.id])}")


def _not_a_page(game: Game, page: Page, path: str) -> str:
    names = [Path(os.path.relpath(other.path, page.path.parent)).as_posix() for other in game.pages]
    if path.lower().endswith(".md"):
        return f"no page '{path}' in the rulebook{did_you_mean(path, names)}; the pages are game.yaml's rulebook list"
    file = page.path.parent / unquote(path)
    found = ("is a file of the game folder, which the site and the printed rulebook do not publish"
             if is_confined(game.root, file) and file.is_file() else "names no page and no file of the game folder")
    picture = f", or show it as a picture: ![what it shows]({path})" if path.lower().endswith(PICTURE_SUFFIXES) else ""
    return f"'{path}' {found}: link a page (turn.md), a card with [[card-id]] or a web address (https://...){picture}"
