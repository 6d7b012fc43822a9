"""The one Markdown configuration of rulebook pages, shared by every output that shows them.

Python-Markdown reads the prose (tables, heading ids, admonitions, smart quotes). deckwright's own
syntax (``rules.book.pages``) is handed to the output through ``Hooks``: a ```` ```cards ```` or
```` ```example ```` block and a ``[[reference]]`` become whatever the output makes of them (HTML for
the site, an element the PDF turns into flowables), and a link to another page's ``.md`` file points
where the output keeps that page, and a picture (``![alt](../art/map.png)``) points where the output keeps the
file the check passed (``rules.book.pictures``; any other shows its alt text). Raw HTML in a page is shown as
text, so a game folder from elsewhere cannot put markup of its own into any output.

Anything that restricts what a page may contain (link schemes, attributes) belongs here, so it holds
for the site and the PDF alike.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator
from xml.etree.ElementTree import Element, SubElement

from deckwright.rules.book.pages import REF_PATTERN, fenced_blocks
from deckwright.rules.data.model import Game, Page
from deckwright.rules.data.pictures import ImageFile
from deckwright.rules.engine.timelimit import RulesTimedOut, outside_limit, time_limit
from deckwright.rules.problems import Loc, Problem

from .sanitize import REMOVED_PICTURE, as_text, clean_tree

EXTENSIONS = ("tables", "toc", "admonition", "fenced_code", "attr_list", "sane_lists", "smarty")  # Python-Markdown's
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
# Python-Markdown's placeholder for a stashed piece (markdown.util.HTML_PLACEHOLDER).
_STASHED = re.compile("\u0002wzxhzdk:(\\d+)\u0003")
# Python-Markdown is quadratic on some input (a long run of "["): a page it has not read within this long is an
# error rather than a wait of hours.
PAGE_SECONDS = 10.0
URL_ATTRIBUTES = ("href", "src")


class PageUnreadable(Exception):
    """Python-Markdown could not read a page (it took too long, or nests too deep for it): ``problem`` says so."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


@contextmanager
def reading(page: Page) -> Iterator[None]:
    """Wraps each reading of ``page`` by Python-Markdown: a time limit (``PAGE_SECONDS`` of processor time, so that
    a page the check read in time is read in time by the outputs however busy the machine; in the main thread
    only, see ``rules.engine.timelimit``), and its failure as a ``PageUnreadable`` at the page's first line. What
    an output makes of the page's blocks (a table of 20,000 cards) does not count: see ``Blocks``."""
    try:
        with time_limit(PAGE_SECONDS, cpu=True):
            yield
    except RulesTimedOut as exc:
        raise PageUnreadable(Problem(Loc(page.shown), f"Markdown did not finish reading this page within "
                                     f"{exc.seconds:g} s; look for a long run of brackets, asterisks or other "
                                     "punctuation, or split the page")) from None
    except RecursionError:
        raise PageUnreadable(Problem(Loc(page.shown), "Markdown could not read this page: it nests too deep "
                                     "(quotes, lists or emphasis inside one another)")) from None


@dataclass(frozen=True)
class Hooks:
    """What an output makes of deckwright's syntax in a page."""

    # (kind, fence line, body) of a fenced block -> what stands in its place, or None to leave it to Markdown
    block: Callable[[str, int, str], "str | Element | None"]
    # ("constant" or None, id, field path) of a [[...]] -> HTML text, or an element
    reference: Callable[[str | None, str, str | None], "str | Element"]
    # (another rulebook page, fragment or "") -> the href of a link to it
    page_link: Callable[[Page, str], str]
    # a picture of the page that passed the check (rules.book.pictures) -> the src the output gives it
    picture: Callable[[ImageFile], str]
    # the ids the output's own blocks put on the page (an example box's), once ``block`` has made them all: a
    # heading that would get one of them is suffixed (``_1``), as Python-Markdown suffixes a repeated heading
    taken_ids: Callable[[], Iterable[str]] = tuple


def linked_page(pages_by_path: dict, page: Page, path: str) -> Page | None:
    """The rulebook page a link of ``page`` names by its Markdown file (``turn.md``, relative to the page), out
    of the game's pages by their resolved paths; None when it names none."""
    if not path.endswith(".md") or _SCHEME.match(path):
        return None
    return pages_by_path.get((page.path.parent / path).resolve())


def rulebook_markdown(game: Game, page: Page, hooks: Hooks, toc: dict | None = None):
    """A ``markdown.Markdown`` for one page; ``toc`` configures the heading ids (the site adds permalinks)."""
    import markdown
    from markdown.extensions import Extension
    from markdown.extensions.toc import slugify, unique
    from markdown.inlinepatterns import InlineProcessor
    from markdown.preprocessors import Preprocessor
    from markdown.treeprocessors import Treeprocessor

    pages_by_path = {other.path.resolve(): other for other in game.pages}

    class Blocks(Preprocessor):
        """Replaces deckwright's fenced blocks by what the output makes of them, before fenced_code sees them."""

        def run(self, lines: list[str]) -> list[str]:
            out: list[str] = []
            index = 0
            for block in fenced_blocks("\n".join(lines), page.shown):
                with outside_limit():  # the output's work, not Markdown's: not within the page's time limit
                    made = hooks.block(block.kind, block.loc.line, block.body)
                if made is None:
                    continue
                out.extend(lines[index:block.loc.line - 1])
                # a block indented inside a list item stays in it
                out.extend(["", " " * block.indent + self.md.htmlStash.store(made), ""])
                index = block.end_line
            out.extend(lines[index:])
            return out

    class References(InlineProcessor):
        def handleMatch(self, match, data):  # noqa: N802 (Markdown's API)
            made = hooks.reference(match.group(1), match.group(2), match.group(3))
            if isinstance(made, str):
                made = self.md.htmlStash.store(made)
            return made, match.start(0), match.end(0)

    class PageLinks(Treeprocessor):
        """A link to another rulebook page's Markdown file (``turn.md#setup``) points where the output keeps it."""

        def run(self, root):
            for link in root.iter("a"):
                path, _, fragment = link.get("href", "").partition("#")
                target = linked_page(pages_by_path, page, path)
                if target is not None:
                    link.set("href", hooks.page_link(target, fragment))

    class Addresses(Treeprocessor):
        """Before attr_list: each element's link and picture address, so that Overridden can tell one that
        attr_list set (``{: src=... }``): the check read the address written in the parentheses."""

        def run(self, root):
            self.md.addresses = {id(element): {name: value for name, value in element.attrib.items()
                                               if name.lower() in URL_ATTRIBUTES} for element in root.iter()}
            self.md.dropped = []

    class Overridden(Treeprocessor):
        """Just after attr_list: the addresses it set, into ``md.dropped`` (see Clean)."""

        def run(self, root):
            addresses = getattr(self.md, "addresses", {})
            self.md.dropped.extend((name, value) for element in root.iter() for name, value in element.attrib.items()
                                   if name.lower() in URL_ATTRIBUTES  # SRC too: a second src, to a browser
                                   and addresses.get(id(element), {}).get(name) != value)

    class Clean(Treeprocessor):
        """After attr_list and the unescaping of backslash escapes (only Pictures comes later): see
        generator.book.sanitize. ``md.dropped``: what a page's ``{: ...}`` set that the outputs leave out or the
        check did not see, (attribute, value) pairs for ``check`` to report."""

        def run(self, root):
            # an address written in the parentheses that the sanitizer drops is the link or picture check's
            self.md.dropped.extend(pair for pair in clean_tree(root) if pair[0].lower() not in URL_ATTRIBUTES)

    class Pictures(Treeprocessor):
        """After Clean: a picture the check passed points where the output keeps its file, with its size in
        pixels; any other (one ``check`` reported, in a build with ``--force``) shows its alt text, so no output
        ever names a file the check did not read."""

        def run(self, root):
            for image in root.iter("img"):
                found = page.picture(image.get("src", ""))
                if found is None:
                    as_text(image, REMOVED_PICTURE)
                else:
                    image.set("src", hooks.picture(found))
                    image.set("width", str(found.width))
                    image.set("height", str(found.height))

    class Deckwright(Extension):
        def extendMarkdown(self, md):  # noqa: N802
            md.preprocessors.register(Blocks(md), "deckwright-blocks", 29)  # after whitespace, before fences
            md.inlinePatterns.register(References(REF_PATTERN.pattern, md), "deckwright-refs", 175)
            md.treeprocessors.register(PageLinks(md), "deckwright-page-links", 1)
            md.treeprocessors.register(Addresses(md), "deckwright-addresses", 9)  # attr_list is 8
            md.treeprocessors.register(Overridden(md), "deckwright-overridden", 7)
            md.treeprocessors.register(Clean(md), "deckwright-clean", -100)
            md.treeprocessors.register(Pictures(md), "deckwright-pictures", -110)
            # Raw HTML in a page shows as text: a game folder from elsewhere cannot put script on the site.
            md.preprocessors.deregister("html_block")
            md.inlinePatterns.deregister("html")

    def heading_id(text: str, separator: str) -> str:
        """Python-Markdown's id for a heading, not one of the page's example boxes' (the boxes are made before
        the headings get their ids, and the pages and indexes that link to an example know only its anchor)."""
        made = slugify(text, separator)
        taken = set(hooks.taken_ids())
        return unique(made, taken) if made in taken else made

    return markdown.Markdown(extensions=[*built_extensions({"toc": {**(toc or {}), "slugify": heading_id}}),
                                         Deckwright()], output_format="html")


def built_extensions(configs: dict[str, dict]) -> list:
    """``EXTENSIONS`` built with their ``configs``, as ``markdown.Markdown`` builds one it is given by name, but
    from its module: by name it first scans every installed package's entry points (0.03 s in each process)."""
    return [module.makeExtension(**configs.get(name, {})) for name, module in zip(EXTENSIONS, extension_modules())]


def extension_modules() -> list:
    """Python-Markdown's modules of ``EXTENSIONS``, imported (and with them Python-Markdown)."""
    from importlib import import_module

    return [import_module(f"markdown.extensions.{name}") for name in EXTENSIONS]


def unreadable_tree(problem: Problem) -> Element:
    """What a page Markdown could not read (``PageUnreadable``) shows in a ``build --force``: why, in a paragraph."""
    root = Element("div")
    SubElement(root, "p").text = f"deckwright could not read this page: {problem.message}"
    return root


def page_tree(md, text: str) -> Element:
    """The element tree Python-Markdown builds for ``text``, after every tree processor: what its HTML
    serializer would write out (the first three steps of ``Markdown.convert``). Wrap it in ``reading``."""
    md.reset()
    lines = text.split("\n")
    for preprocessor in md.preprocessors:
        lines = preprocessor.run(lines)
    root = md.parser.parseDocument(lines).getroot()
    for treeprocessor in md.treeprocessors:
        replaced = treeprocessor.run(root)
        if replaced is not None:
            root = replaced
    return root


def unstash(md, text: str | None) -> list[tuple["str | Element", bool]]:
    """``text`` split at Python-Markdown's placeholders, in order, each piece with whether it was stashed:
    plain text (False), or what a placeholder stands for (True): HTML text such as a smart quote's
    entity, or an element a hook made."""
    pieces: list[tuple[str | Element, bool]] = []
    text = text or ""
    last = 0
    blocks = md.htmlStash.rawHtmlBlocks
    for match in _STASHED.finditer(text):
        if match.start() > last:
            pieces.append((text[last:match.start()], False))
        index = int(match.group(1))
        if index < len(blocks):
            pieces.append((blocks[index], True))
        last = match.end()
    if last < len(text):
        pieces.append((text[last:], False))
    return pieces
