"""Safe YAML reading that keeps the file:line:col of every value.

PyYAML's safe composer gives a node graph with marks; this module turns it
into a small tree of ``YNode`` values, reporting what plain ``safe_load``
would hide or crash on: duplicate keys, tab indentation, binary or
non-UTF-8 bytes, oversized files and alias bombs.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .problems import Loc, Problem

MAX_FILE_BYTES = 1024 * 1024
MAX_NODES = 200_000  # after alias expansion; a billion-laughs file stops here

_SCALAR_KINDS = {
    "tag:yaml.org,2002:str": "str",
    "tag:yaml.org,2002:int": "int",
    "tag:yaml.org,2002:float": "float",
    "tag:yaml.org,2002:bool": "bool",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:timestamp": "str",
}
_MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class YNode:
    """One YAML value: ``kind`` is "map", "seq" or "scalar"."""

    kind: str
    loc: Loc
    value: Any  # map: tuple of (key YNode, value YNode); seq: tuple of YNode; scalar: the Python value
    scalar_type: str = ""  # for scalars: str, int, float, bool or null
    raw: str = ""  # for scalars: the text as written

    def get(self, key: str) -> "YNode | None":
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
        if self.scalar_type == "str":
            return f'"{self.value}"'
        return self.raw or repr(self.value)


class _TooBig(Exception):
    pass


def _loc(file: str, mark) -> Loc:
    return Loc(file, mark.line + 1, mark.column + 1)


def _offset_loc(file: str, text_bytes: bytes, offset: int) -> Loc:
    before = text_bytes[:offset]
    line = before.count(b"\n") + 1
    col = offset - (before.rfind(b"\n") + 1) + 1
    return Loc(file, line, col)


def read_text(path: Path, shown: str) -> tuple[str | None, list[Problem]]:
    """The file's text, or the problem that keeps it from being read as UTF-8 text."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [Problem(Loc(shown), f"file is {size / 1e6:.1f} MB; deckwright reads files of at most {MAX_FILE_BYTES // 1024} KB")]
        data = path.read_bytes()
    except OSError as exc:
        return None, [Problem(Loc(shown), f"cannot read file: {exc.strerror or exc}")]
    nul = data.find(b"\0")
    if nul >= 0:
        return None, [Problem(_offset_loc(shown, data, nul), "file is binary (contains a NUL byte), not text")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(_offset_loc(shown, data, exc.start),
                              f"file is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8")]
    return text.removeprefix("\ufeff"), []


def _yaml_error_message(exc: yaml.MarkedYAMLError) -> str:
    problem = exc.problem or str(exc)
    if "'\\t'" in problem or "\\t" in problem:
        return "tab character in indentation; YAML indents with spaces only"
    if exc.context and exc.context not in problem:
        return f"YAML syntax error: {problem} ({exc.context})"
    return f"YAML syntax error: {problem}"


def parse_yaml(text: str, shown: str) -> tuple[YNode | None, list[Problem]]:
    """Parse one YAML document into a YNode tree; None for an empty document."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        return None, [Problem(_loc(shown, mark) if mark else Loc(shown), _yaml_error_message(exc))]
    except yaml.YAMLError as exc:
        return None, [Problem(Loc(shown), f"YAML error: {exc}")]
    finally:
        loader.dispose()
    if node is None:
        return None, []
    problems: list[Problem] = []
    converter = _Converter(shown, problems)
    try:
        tree = converter.convert(node)
    except _TooBig:
        return None, [Problem(_loc(shown, node.start_mark),
                              f"YAML aliases expand to more than {MAX_NODES} values (an alias bomb?); write the values out")]
    return tree, problems


def load_yaml_file(path: Path, shown: str) -> tuple[YNode | None, list[Problem]]:
    text, problems = read_text(path, shown)
    if text is None:
        return None, problems
    return parse_yaml(text, shown)


class _Converter:
    def __init__(self, shown: str, problems: list[Problem]):
        self.shown = shown
        self.problems = problems
        self.count = 0
        self.constructor = yaml.SafeLoader("")

    def convert(self, node: yaml.Node) -> YNode:
        self.count += 1
        if self.count > MAX_NODES:
            raise _TooBig()
        loc = _loc(self.shown, node.start_mark)
        if isinstance(node, yaml.MappingNode):
            return YNode("map", loc, self._mapping(node))
        if isinstance(node, yaml.SequenceNode):
            return YNode("seq", loc, tuple(self.convert(item) for item in node.value))
        return self._scalar(node, loc)

    def _scalar(self, node: yaml.ScalarNode, loc: Loc) -> YNode:
        kind = _SCALAR_KINDS.get(node.tag)
        if kind is None:
            self.problems.append(Problem(loc, f"unsupported YAML tag {node.tag}; deckwright reads plain values only"))
            return YNode("scalar", loc, node.value, "str", node.value)
        if kind == "str":
            return YNode("scalar", loc, node.value, "str", node.value)
        value = self.constructor.construct_object(node)
        if kind == "float" and value != value:  # .nan
            kind = "str"
        return YNode("scalar", loc, value, kind, node.value)

    def _mapping(self, node: yaml.MappingNode) -> tuple:
        pairs: list[tuple[YNode, YNode]] = []
        seen: dict[Any, Loc] = {}
        merged: list[tuple[YNode, YNode]] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                merged.extend(self._merge_source(value_node))
                continue
            key = self.convert(key_node)
            if key.kind != "scalar":
                self.problems.append(Problem(key.loc, "a mapping key must be a plain word, not " + key.describe()))
                continue
            if key.scalar_type != "str":
                key = YNode("scalar", key.loc, str(key.raw), "str", key.raw)
            if key.value in seen:
                first = seen[key.value]
                self.problems.append(Problem(key.loc, f"duplicate key '{key.value}' (first at line {first.line})"))
                continue
            seen[key.value] = key.loc
            pairs.append((key, self.convert(value_node)))
        for key, value in merged:  # explicit keys win over merged ones
            if key.value not in seen:
                seen[key.value] = key.loc
                pairs.append((key, value))
        return tuple(pairs)

    def _merge_source(self, node: yaml.Node) -> list:
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        out = []
        for source in sources:
            converted = self.convert(source)
            if converted.kind != "map":
                self.problems.append(Problem(converted.loc, "'<<' merges a mapping, not " + converted.describe()))
                continue
            out.extend(converted.value)
        return out
