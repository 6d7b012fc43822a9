"""What a rulebook page's Markdown may put into the site's HTML: no script, however it is spelled.

A rulebook page comes with a game folder, so it is untrusted. Raw HTML in it is
shown as text (``generator.site.pages``); this module cleans the element tree
Python-Markdown builds from the rest, after every other step (``attr_list``,
``toc``, the unescaping of ``\\:``), just before it is serialised:

- links and pictures keep only ``http:``, ``https:`` and ``mailto:`` URLs, URLs
  relative to the page and ``#anchors``; ``javascript:``, ``data:``, ``vbscript:``
  and any other scheme are dropped, also when hidden behind entities (``&#x61;``),
  escapes, whitespace or case;
- an element keeps only the attributes Markdown itself makes (``href``, ``src``,
  ``alt``, ``title``, ``id``, ``class`` and the few table ones); ``{: onmouseover=...
  style=... }`` written with ``attr_list`` loses everything but ``id`` and ``class``.

The pages also carry a Content-Security-Policy (``templates/html/base.html``)
that forbids inline event handlers and scripts from anywhere but the site itself.
"""
from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

SAFE_SCHEMES = ("http", "https", "mailto")
OWN_TAG_PREFIX = "dw-"  # elements deckwright's hooks put in the tree (a page's raw HTML never reaches it)
URL_ATTRIBUTES = ("href", "src")
ALLOWED_ATTRIBUTES = frozenset({"href", "src", "alt", "title", "id", "class", "start", "colspan", "rowspan", "align"})
# Python-Markdown's tables extension aligns cells with this style and no other.
TABLE_ALIGN = re.compile(r"^text-align: (left|right|center);?$")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.I)
_IGNORED_IN_URLS = re.compile(r"[\x00-\x20\x7f-\x9f]")  # browsers drop these anywhere in a URL's scheme


def safe_url(value: str, allow_network: bool = True) -> bool:
    """Whether a link target may stay: a safe scheme, or none (relative, an anchor); ``allow_network`` False
    also refuses ``//host/...`` (for pictures, which must come from the site itself)."""
    cleaned = _IGNORED_IN_URLS.sub("", html.unescape(html.unescape(value)))
    scheme = _SCHEME.match(cleaned)
    if scheme:
        return allow_network and scheme.group(1).lower() in SAFE_SCHEMES
    if cleaned.startswith(("//", "\\\\", "/\\", "\\/")):
        return allow_network
    return ":" not in cleaned.split("/")[0].split("?")[0].split("#")[0]


REMOVED_TITLE = "a link deckwright removed: rulebook links may be http(s), mailto or relative"
REMOVED_PICTURE = "a picture deckwright left out: deckwright check says why"


def clean_tree(root: ET.Element) -> list[tuple[str, str]]:
    """Remove from ``root`` every attribute and URL a rulebook page may not have (see the module's doc); the
    (attribute, value) pairs removed, in order, for ``check`` to report.

    A link or picture that loses its URL becomes plain text (a picture, its alt text), so the page does not
    show a dead link."""
    removed = []
    for element in list(root.iter()):
        if isinstance(element.tag, str) and element.tag.startswith(OWN_TAG_PREFIX):
            continue  # made by deckwright's own hooks from checked data (the rulebook PDF reads them), never by Markdown
        for name, value in list(element.attrib.items()):
            key = name.lower()
            if key == "style" and TABLE_ALIGN.match(value.strip()):
                continue
            if key not in ALLOWED_ATTRIBUTES:
                del element.attrib[name]
                removed.append((name, value))
            elif key in URL_ATTRIBUTES and not safe_url(value, allow_network=key == "href"):
                removed.append((name, value))
                removed += [(other, rest) for other, rest in element.attrib.items() if other != name
                            and other.lower() not in ALLOWED_ATTRIBUTES]
                as_text(element)  # clears the element's other attributes too
                break
    return removed


def as_text(element: ET.Element, why: str = REMOVED_TITLE) -> None:
    """A link or picture as plain words (a picture, its alt text), marked as removed (``why``: its tooltip)."""
    alt = element.get("alt", "") if element.tag == "img" else None
    element.attrib.clear()
    element.tag = "span"
    element.set("class", "link-removed")
    element.set("title", why)
    if alt is not None:
        element.text = alt
