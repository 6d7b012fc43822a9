"""Plain YAML read fast: libyaml's events made straight into YNodes.

Card files are mostly plain mappings, lists and scalars, and a big one holds
millions of them. This reader builds the YNode tree in one pass over libyaml's
events, with no intermediate node graph. It reads only the plain case and gives
up (``Unusual``) on anything else: an anchor or alias, a tag written out, a
merge key, a duplicate or non-scalar key, nesting deeper than MAX_DEPTH, a
second document, any syntax error. ``rules.data.yamlsrc`` then reads the file
the full way, which explains each of those at its place; both build the same
tree from a plain file, locations included (libyaml counts lines and columns
in characters, as PyYAML does).
"""
from __future__ import annotations

import sys

import yaml

from deckwright.rules.problems import Loc, Problem

from .ynode import MAX_DEPTH, MAX_VALUES, SCALAR_KINDS, YNode, scalar_ynode

try:  # libyaml, bundled with PyYAML's wheels
    from yaml._yaml import CParser
except ImportError:  # pragma: no cover - a PyYAML built without libyaml
    CParser = None

_STR_TAG = yaml.resolver.Resolver.DEFAULT_SCALAR_TAG
# Shorter plain texts are interned: every card repeats its field names and many of its values (a type line, a
# keyword), and one string each instead of one per card saves a few hundred bytes a card in the loaded game.
INTERNED_LENGTH = 24
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers  # first character -> [(tag, pattern)]


class Unusual(Exception):
    """The document is not plain YAML; read it the full way."""


class TooManyValues(Exception):
    def __init__(self, loc: Loc):
        self.loc = loc


class _Reader:
    """The tree of one document, built as libyaml hands out its events.

    Written for speed (it runs once per value, millions of times for a big file): the next event is fetched
    by each collection's own loop, and a plain scalar's tag is looked up once per distinct short text."""

    def __init__(self, text: str, shown: str):
        self.get = CParser(text).get_event
        self.shown = shown
        self.count = 0
        self.limit = MAX_VALUES
        self.problems: list[Problem] = []
        self.plain_kinds: dict[str, str | None] = {}  # a short plain text -> its SCALAR_KINDS kind

    def document(self) -> YNode | None:
        get = self.get
        get()  # the stream's start
        event = get()
        if isinstance(event, yaml.StreamEndEvent):
            return None
        tree = self.node(get(), 1)
        get()  # the document's end
        if not isinstance(get(), yaml.StreamEndEvent):
            raise Unusual()  # a second document
        return tree

    def node(self, event, depth: int) -> YNode:
        self.count += 1
        mark = event.start_mark
        loc = Loc(self.shown, mark.line + 1, mark.column + 1)
        if self.count > self.limit:
            raise TooManyValues(loc)
        kind = type(event)
        if kind is yaml.ScalarEvent:
            if event.anchor is not None or event.tag not in (None, "!") or depth > MAX_DEPTH:
                raise Unusual()
            return self.scalar(event, loc)
        if kind is yaml.AliasEvent or event.anchor is not None or event.tag not in (None, "!") or depth > MAX_DEPTH:
            raise Unusual()
        if kind is yaml.MappingStartEvent:
            return self.mapping(loc, depth)
        return self.sequence(loc, depth)

    def scalar(self, event, loc: Loc) -> YNode:
        text = event.value
        if event.implicit[0]:  # plain, not quoted: its look decides its type (4 is an int, yes a bool)
            scalar_kind = self.plain_kind(text)
            if scalar_kind is None:
                raise Unusual()
            if scalar_kind == "int" and text.isascii() and text.isdigit() and (text[0] != "0" or len(text) == 1):
                return YNode("scalar", loc, int(text), "int", text)  # as PyYAML reads it, without its machinery
            if scalar_kind != "str":
                return scalar_ynode(scalar_kind, text, loc, self.problems)
        elif event.style == '"':  # only escapes can make half a surrogate pair
            return scalar_ynode("str", text, loc, self.problems)
        if len(text) <= INTERNED_LENGTH:
            text = sys.intern(text)
        return YNode("scalar", loc, text, "str", text)

    def plain_kind(self, text: str) -> str | None:
        if len(text) > INTERNED_LENGTH:
            return SCALAR_KINDS.get(_plain_tag(text))
        kind = self.plain_kinds.get(text, "")
        if kind == "":
            kind = self.plain_kinds[text] = SCALAR_KINDS.get(_plain_tag(text))
        return kind

    def mapping(self, loc: Loc, depth: int) -> YNode:
        get, node = self.get, self.node
        pairs = []
        seen = set()
        depth += 1
        event = get()
        while type(event) is not yaml.MappingEndEvent:
            key = node(event, depth)
            if key.kind != "scalar":
                raise Unusual()
            if key.scalar_type != "str":
                key = YNode("scalar", key.loc, str(key.raw), "str", key.raw)
            if key.value in seen:
                raise Unusual()
            seen.add(key.value)
            pairs.append((key, node(get(), depth)))
            event = get()
        return YNode("map", loc, tuple(pairs))

    def sequence(self, loc: Loc, depth: int) -> YNode:
        get, node = self.get, self.node
        items = []
        depth += 1
        event = get()
        while type(event) is not yaml.SequenceEndEvent:
            items.append(node(event, depth))
            event = get()
        return YNode("seq", loc, tuple(items))


def _plain_tag(text: str) -> str:
    """The tag of a plain (unquoted) scalar: its look decides (4 is an int, yes a bool), as PyYAML's Resolver says."""
    for tag, pattern in _RESOLVERS.get(text[:1], ()):
        if pattern.match(text):
            return tag
    for tag, pattern in _RESOLVERS.get(None, ()):
        if pattern.match(text):
            return tag
    return _STR_TAG


def read_plain(text: str, shown: str) -> tuple[YNode | None, list[Problem]]:
    """The document's tree and the problems in its values (text that is no character); raises Unusual when the
    document is not plain YAML (see the module's docstring), TooManyValues past MAX_VALUES."""
    if CParser is None:
        raise Unusual()
    try:
        reader = _Reader(text, shown)
        return reader.document(), reader.problems
    except (Unusual, TooManyValues):
        raise
    except (yaml.YAMLError, ValueError):  # a syntax error, a number PyYAML cannot read: the full reader explains it
        raise Unusual() from None
