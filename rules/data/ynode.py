"""A located YAML value (``YNode``) and how a scalar's resolved tag becomes one.

Both ways of reading YAML build these: the fast one straight from libyaml's
events (``rules.data.yamlfast``) and the full one that explains every problem
(``rules.data.yamlsrc``), so a value reads the same whichever way its file took.
"""
from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

import yaml

from deckwright.rules.problems import Loc, Problem

MAX_DEPTH = 64  # nesting levels; real card data needs under ten
MAX_VALUES = 3_000_000  # values in one file, keys counted: a 64 MB card file of 100,000 cards holds about 1.5 million
# What aliases may add to a document, counted as they expand: a value used through an alias counts each time it is
# used, with the characters of its texts (keys included). A billion-laughs file stops at the values, a long text
# used a thousand times at the characters (64 million: the text of the largest card file deckwright reads).
MAX_ALIAS_VALUES = 200_000
MAX_ALIAS_CHARS = 64_000_000

SCALAR_KINDS = {
    "tag:yaml.org,2002:str": "str",
    "tag:yaml.org,2002:int": "int",
    "tag:yaml.org,2002:float": "float",
    "tag:yaml.org,2002:bool": "bool",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:timestamp": "str",
}
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONSTRUCT = {  # PyYAML's own readings of the typed scalars, called without its object-graph machinery
    "int": yaml.constructor.SafeConstructor.construct_yaml_int,
    "float": yaml.constructor.SafeConstructor.construct_yaml_float,
    "bool": yaml.constructor.SafeConstructor.construct_yaml_bool,
    "null": yaml.constructor.SafeConstructor.construct_yaml_null,
}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


class YNode(NamedTuple):
    """One YAML value: ``kind`` is "map", "seq" or "scalar".

    A named tuple, not a frozen dataclass: a 100,000-card file holds millions of them, and a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__`` (1.7 us a node against 0.3 us; a third of the time
    of reading a 20,000-card YAML file)."""

    kind: str
    loc: Loc
    value: Any  # map: tuple of (key YNode, value YNode); seq: tuple of YNode; scalar: the Python value
    scalar_type: str = ""  # for scalars: str, int, float, bool or null
    raw: str = ""  # for scalars: the text as written

    def get(self, key: str) -> YNode | None:
        for k, v in self.value:
            if k.value == key:
                return v
        return None

    def keys(self) -> list[str]:
        return [k.value for k, _ in self.value]

    def plain(self) -> Any:
        """The value with locations dropped (dicts, lists, scalars)."""
        if self.kind == "map":
            return {k.value: v.plain() for k, v in self.value}
        if self.kind == "seq":
            return [v.plain() for v in self.value]
        return self.value

    def describe(self) -> str:
        """How a value is named in a message: ``"four"``, ``a list``, ``a mapping``."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.scalar_type == "null":
            return "nothing"
        text = str(self.value) if self.scalar_type == "str" else (self.raw or repr(self.value))
        if len(text) > 40:
            text = f"{text[:30]}... ({len(text)} characters)"
        return f'"{text}"' if self.scalar_type == "str" else text


def scalar_ynode(kind: str, text: str, loc: Loc, problems: list[Problem]) -> YNode:
    """The scalar ``text`` whose tag resolved to ``kind`` (a value of SCALAR_KINDS)."""
    if kind == "str":
        if _SURROGATE.search(text):  # "\ud800" in a quoted value: no character, and unprintable
            problems.append(Problem(loc, "text holds half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF escape); "
                                         "write the character itself"))
        return YNode("scalar", loc, text, "str", text)
    try:
        value = _CONSTRUCT[kind](_CONSTRUCTOR, yaml.ScalarNode(kind, text))
    except ValueError:  # an integer of thousands of digits: kept as text, so a number field rejects it
        return YNode("scalar", loc, text, "str", text)
    if kind == "float" and math.isnan(value):  # .nan is no number a card can use
        return YNode("scalar", loc, text, "str", text)
    return YNode("scalar", loc, value, kind, text)
