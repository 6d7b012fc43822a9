"""Safe YAML reading that keeps the file:line:col of every value.

PyYAML's safe composer gives a node graph with marks; this module turns it
into a small tree of ``YNode`` values, reporting what plain ``safe_load``
would hide or crash on: duplicate keys, tab indentation, binary, UTF-16 or
non-UTF-8 bytes, control characters, oversized files, deep nesting, alias
loops and alias bombs (many values, or a long text, repeated by aliases), and
tags (nothing is ever constructed from a tag).
PyYAML's syntax errors are reworded into what to fix, at the place to fix it.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from deckwright.rules.problems import Loc, Problem

from .confine import MAX_FILE_BYTES, FileRefused, read_confined
from .yamlfast import TooManyValues, Unusual, read_plain
from .ynode import MAX_ALIAS_CHARS, MAX_ALIAS_VALUES, MAX_DEPTH, MAX_VALUES, SCALAR_KINDS, YNode, scalar_ynode

__all__ = ["MAX_DEPTH", "AliasBudget", "YNode", "load_yaml_file", "parse_yaml", "read_text"]

_MERGE_TAG = "tag:yaml.org,2002:merge"


class _LimitExceeded(Exception):
    def __init__(self, loc):  # a Loc, or a PyYAML mark while composing
        self.loc = loc


class _TooBig(_LimitExceeded):
    def __init__(self, loc: Loc, limit: str):  # limit: the limit passed, "200,000 values"
        super().__init__(loc)
        self.limit = limit


class _TooDeep(_LimitExceeded):
    pass


class _TooMany(_LimitExceeded):
    pass


def _loc(file: str, mark) -> Loc:
    return Loc(file, mark.line + 1, mark.column + 1)


def _offset_loc(file: str, text: bytes | str, offset: int) -> Loc:
    """Line and column of an offset into a file's bytes or text."""
    newline = b"\n" if isinstance(text, bytes) else "\n"
    before = text[:offset]
    line_start = before.rfind(newline) + 1
    in_line = before[line_start:]
    if isinstance(in_line, bytes):  # count characters, not bytes
        in_line = in_line.decode("utf-8", errors="replace")
    return Loc(file, before.count(newline) + 1, len(in_line) + 1)


def read_text(path: Path, shown: str, root: Path, max_bytes: int = MAX_FILE_BYTES) -> tuple[str | None, list[Problem]]:
    """The text of a file inside ``root`` of at most ``max_bytes`` (see rules.data.confine), or the problem that
    keeps it from being read as UTF-8 text."""
    try:
        data = read_confined(root, path, max_bytes)
    except FileRefused as exc:
        return None, [Problem(Loc(shown), exc.message)]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [Problem(Loc(shown), "file is UTF-16 text; save it as UTF-8")]
    nul = data.find(b"\0")
    if nul >= 0:
        return None, [Problem(_offset_loc(shown, data, nul), "file is binary (contains a NUL byte), not text")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(_offset_loc(shown, data, exc.start),
                              f"file is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8")]
    return text.removeprefix("\ufeff"), []


def _tab_message(text: str, mark) -> str:
    lines = text.splitlines()
    line = lines[mark.line] if mark and mark.line < len(lines) else ""
    if not mark or not line[:mark.column].strip():
        return "tab character in indentation; YAML indents with spaces only"
    return "tab character here; YAML accepts only spaces between a key and its value"


def _indent(line: str) -> int:
    """Where the line's content starts; a list item's "- " counts as indentation."""
    return len(line) - len(line.lstrip(" -"))


def _colon_message(exc) -> str:
    """A ':' PyYAML cannot place: a key indented under a plain value, or ': ' inside a value."""
    mark = exc.problem_mark
    lines = mark.buffer.rstrip("\0").splitlines() if mark and mark.buffer else []
    if mark and mark.line < len(lines):
        above = [line for line in lines[:mark.line] if line.strip() and not line.lstrip().startswith("#")]
        line = lines[mark.line]
        if above and _indent(line) > _indent(above[-1]) and ": " in above[-1]:
            return ("YAML syntax error: this line is indented deeper than the line above, so YAML reads it as "
                    "more of that line's value; line it up with the key above", (mark.line, _indent(line)))
    return "YAML syntax error: unexpected ':' here; put a value that contains ': ' in quotes"


def _opened_at(exc) -> str:
    mark = exc.context_mark
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark else "above"


# PyYAML's problem text -> (which mark to point at, what to tell the user). First match wins.
_YAML_HINTS: list[tuple[re.Pattern, str, Any]] = [
    (re.compile(r"expected ',' or '([}\]])', but got '<stream end>'"), "context",
     lambda exc, m: f"YAML syntax error: this {_BRACKETS[m.group(1)]} is never closed; add '{m.group(1)}'"),
    (re.compile(r"expected ',' or '([}\]])', but got '(.*)'"), "problem",
     lambda exc, m: f"YAML syntax error: found '{m.group(2)}' where ',' or '{m.group(1)}' belongs in the "
                    f"{_BRACKETS[m.group(1)]} opened at {_opened_at(exc)}; is a comma or the closing '{m.group(1)}' missing?"),
    (re.compile(r"mapping values are not allowed here"), "problem", lambda exc, m: _colon_message(exc)),
    (re.compile(r"but found '<stream end>'"), "problem",
     lambda exc, m: "YAML syntax error: the file ends before the value above is complete; "
                    "is a closing ']', '}' or quote missing?"),
    (re.compile(r"expected <block end>, but found"), "problem",
     lambda exc, m: f"YAML syntax error: this line's indentation does not fit the block started at {_opened_at(exc)}; "
                    "keys of one mapping, and items of one list, start in the same column"),
    (re.compile(r"could not find expected ':'"), "context",
     lambda exc, m: "YAML syntax error: expected 'key: value' on this line; is the ':' missing?"),
    (re.compile(r"found unexpected end of stream"), "context",
     lambda exc, m: "YAML syntax error: this quoted value is never closed; add the closing quote"
     if exc.context and "quoted" in exc.context else "YAML syntax error: the file ends in the middle of a value"),
    (re.compile(r"but found another document"), "problem",
     lambda exc, m: "YAML syntax error: a second document starts here; a deckwright file holds one document (remove the '---')"),
    (re.compile(r"found undefined alias '(.*)'"), "problem",
     lambda exc, m: f"YAML syntax error: alias *{m.group(1)} names no anchor &{m.group(1)} defined above it"),
    (re.compile(r"expected alphabetic or numeric character, but found '(.)'"), "context",
     lambda exc, m: "YAML syntax error: a value starting with '*' or '&' is read as an alias or anchor; put the value in quotes"
     if exc.context and ("alias" in exc.context or "anchor" in exc.context) else f"YAML syntax error: {exc.problem}"),
    (re.compile(r"found character '([^\\])' that cannot start any token"), "problem",
     lambda exc, m: f"YAML syntax error: a plain value cannot start with '{m.group(1)}'; put the value in quotes"),
    (re.compile(r"second occurrence"), "problem",
     lambda exc, m: f"YAML syntax error: {exc.context.replace('; first occurrence', '')} (first at {_opened_at(exc)})"
     if exc.context else "YAML syntax error: duplicate anchor"),
]
_BRACKETS = {"}": "{...} mapping", "]": "[...] list"}


def _yaml_error(exc: yaml.MarkedYAMLError, text: str, shown: str) -> Problem:
    """One clear problem for a PyYAML syntax error, pointing where the user should look."""
    problem = exc.problem or str(exc)
    mark = exc.problem_mark or exc.context_mark
    closed = _quote_closed_before(text, exc.problem_mark)
    if closed is not None:  # `"Steel "first", ...`: the second quote ended the value, and the line goes on
        quote, line, col = closed
        inside = 'write \\" for a quote inside a "..." value' if quote == '"' else "write '' for a quote inside a '...' value"
        return Problem(Loc(shown, line + 1, col + 1),
                       f"YAML syntax error: this quote ends the quoted value, and the line goes on after it; {inside}, "
                       f"or quote the whole value with the other kind of quote")
    if "'\\t'" in problem:
        message = _tab_message(text, mark)
    else:
        for pattern, which, explain in _YAML_HINTS:
            match = pattern.search(problem)
            if match:
                chosen = exc.context_mark if which == "context" else exc.problem_mark
                mark = chosen or mark
                message = explain(exc, match)
                if isinstance(message, tuple):  # the message names its own place: (line, column), from 0
                    message, (line, col) = message
                    return Problem(Loc(shown, line + 1, col + 1), message)
                break
        else:
            context = f" ({exc.context})" if exc.context and exc.context not in problem else ""
            message = f"YAML syntax error: {problem}{context}"
    opened = _quote_run_on(text, mark.line if mark else None)
    if opened is not None:  # the error is where an unclosed quote's text ran out: point at the quote
        line, col, last = opened
        return Problem(Loc(shown, line + 1, col + 1),
                       f"YAML syntax error: this quoted value runs on over {last - line + 1} lines, to line "
                       f"{last + 1}, where the file stops making sense; is its closing quote missing?")
    return Problem(_loc(shown, mark) if mark else Loc(shown), message)


QUOTE_RUN_LINES = 2  # a syntax error at most this many lines after a quoted value spanning lines blames its quote


def _quote_closed_before(text: str, mark) -> tuple[str, int, int] | None:
    """The quote (character, line, column, from 0) that ended a quoted value right where the error is: text goes on
    after a value's closing quote on its line, as in `"Steel "first", questions after."`. A quoted value spanning
    lines is left to ``_quote_run_on`` (a quote left open reads on to the next one)."""
    if mark is None or mark.column == 0:
        return None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if (token.end_mark.line, token.end_mark.column) > (mark.line, mark.column):
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") \
                    and token.start_mark.line == mark.line == token.end_mark.line and token.end_mark.column == mark.column:
                return token.style, mark.line, mark.column - 1
    except yaml.YAMLError:
        pass
    return None


def _quote_run_on(text: str, error_line: int | None) -> tuple[int, int, int] | None:
    """The quoted value that spans lines and ends just before ``error_line`` (from 0), as (line, column, last
    line), from 0: a quote left open reads on to the next quote in the file, and the file breaks soon after.
    None when there is none (a value quoted over several lines on purpose is followed by no error)."""
    if error_line is None:
        return None
    found = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") \
                    and token.end_mark.line > token.start_mark.line:
                found = token
    except yaml.YAMLError:
        pass
    if found is None or not 0 <= error_line - found.end_mark.line <= QUOTE_RUN_LINES:
        return None
    return found.start_mark.line, found.start_mark.column, found.end_mark.line


class _DepthLimit:
    """PyYAML's composer recurses once per nesting level; stop it at MAX_DEPTH, not at Python's stack limit,
    and stop a file of more than MAX_VALUES values before it fills the memory.

    It also keeps where each alias is used: PyYAML hands back the anchored node itself, marked at
    the anchor, so every ``*alias`` would be located at its ``&anchor``. A value used through an
    alias (an open question, say) belongs to the line that uses it.
    """

    depth = 0
    count = 0

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _TooDeep(self.peek_event().start_mark)
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                return _alias_use(super().compose_node(parent, index), mark)
            self.count += 1
            if self.count > MAX_VALUES:
                raise _TooMany(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _alias_use(node: yaml.Node, mark) -> yaml.Node:
    """The anchored node as seen from one alias: the same value, marked where the alias stands. Both carry
    ``anchored``, the anchored node, so the converter reads it once and reuses it at each alias."""
    node.anchored = node
    use = copy.copy(node)
    use.start_mark = mark
    return use


class _PureLoader(_DepthLimit, yaml.SafeLoader):
    """PyYAML in Python: slower, and its error messages are the ones _YAML_HINTS explains."""


try:  # libyaml, bundled with PyYAML's wheels, scans and parses about ten times faster
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - a PyYAML built without libyaml
    _FastLoader = None
else:
    class _FastLoader(_DepthLimit, yaml.composer.Composer, _CParser, yaml.resolver.Resolver):
        """libyaml's events, composed in Python (so the depth limit holds) with the same marks and tags."""

        def __init__(self, text: str):
            _CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)


def _compose_fast(text: str) -> tuple[Any, list[Problem]] | None:
    """The document's node graph via libyaml; None on any trouble, for the Python parser to explain."""
    if _FastLoader is None:
        return None
    try:
        return _FastLoader(text).get_single_node(), []
    except Exception:  # a syntax error, or anything libyaml reads differently
        return None


@dataclass
class AliasBudget:
    """What the YAML aliases of one file have expanded to so far (see MAX_ALIAS_VALUES). A file is one document,
    but a spreadsheet's inline YAML cells are many documents of one file, and share one budget."""

    values: int = 0
    chars: int = 0


def parse_yaml(text: str, shown: str, aliases: AliasBudget | None = None) -> tuple[YNode | None, list[Problem]]:
    """Parse one YAML document into a YNode tree; None for an empty document. ``aliases``: the budget of the file
    the document is part of, when the document is not the whole file."""
    key = (text, shown)
    known = _PARSED.take(key)
    if known is None or (aliases is not None and known[2]):  # a document with aliases charges its file again
        budget = aliases or AliasBudget()
        spent = (budget.values, budget.chars)
        tree, problems = _parse(text, shown, budget)
        known = (tree, tuple(problems), (budget.values, budget.chars) != spent)
    _PARSED.keep(key, known)
    return known[0], list(known[1])


class _Recent:
    """The most recent parses by (text, name), up to ``limit`` characters of text, oldest dropped first. The same
    text gives the same (immutable) tree: `deckwright serve` reads a game again after each edit, and then only
    what was edited is parsed again. A tree takes about seven times its text's characters in bytes, so a text
    over ``largest`` characters is not kept: a build reads each card file once, and its trees, kept, would be
    most of the memory a game of 20,000 cards takes (45 of 120 MB), in the build and in every worker it forks."""

    def __init__(self, limit: int, largest: int):
        self.limit = limit
        self.largest = largest
        self.items: dict[tuple[str, str], tuple] = {}  # oldest first
        self.chars = 0

    def take(self, key: tuple[str, str]) -> tuple | None:
        value = self.items.pop(key, None)
        if value is not None:
            self.chars -= len(key[0])
        return value

    def keep(self, key: tuple[str, str], value: tuple) -> None:
        if len(key[0]) > self.largest:
            return
        self.items[key] = value
        self.chars += len(key[0])
        while self.chars > self.limit and len(self.items) > 1:
            oldest = next(iter(self.items))
            self.take(oldest)


_PARSED = _Recent(limit=2_000_000, largest=64 * 1024)  # about 14 MB of trees at most


def _parse(text: str, shown: str, aliases: AliasBudget | None = None) -> tuple[YNode | None, list[Problem]]:
    try:
        return read_plain(text, shown)
    except TooManyValues as exc:
        return None, [_too_many(exc.loc)]
    except Unusual:  # anchors, tags, merge keys, a problem to explain: read the full way
        pass
    node, problems = _compose_fast(text) or _compose_pure(text, shown)
    if node is None:
        return None, problems
    problems: list[Problem] = []
    converter = _Converter(shown, problems, aliases or AliasBudget())
    try:
        tree = converter.convert(node)
    except _TooDeep as exc:
        return None, [_too_deep(exc.loc)]
    except _TooBig as exc:
        return None, [Problem(exc.loc, f"with this alias, the file's YAML aliases expand to more than {exc.limit} "
                                       "(an alias bomb?); write the values out")]
    if converter.unsupported:  # what the tag meant cannot be honoured, so nothing in the file is trusted
        return None, problems
    return tree, problems


def _compose_pure(text: str, shown: str) -> tuple[Any, list[Problem]]:
    """The node graph via PyYAML's Python parser, or the problem that stops it, explained."""
    loader = None
    try:
        loader = _PureLoader(text)
        return loader.get_single_node(), []
    except yaml.reader.ReaderError as exc:
        return None, [Problem(_offset_loc(shown, text, exc.position),
                              f"character U+{exc.character:04X} is not allowed in a YAML file; remove it")]
    except yaml.MarkedYAMLError as exc:
        return None, [_yaml_error(exc, text, shown)]
    except yaml.YAMLError as exc:
        return None, [Problem(Loc(shown), f"YAML error: {exc}")]
    except _TooDeep as exc:
        return None, [_too_deep(_loc(shown, exc.loc))]
    except _TooMany as exc:
        return None, [_too_many(_loc(shown, exc.loc))]
    except RecursionError:  # not expected with the depth limit; kept so no input can end in a traceback
        return None, [_too_deep(Loc(shown))]
    except ValueError:  # `%YAML 1.999...`: a number of thousands of digits, which PyYAML converts with int()
        line = loader.line + 1 if loader is not None else 1
        return None, [Problem(Loc(shown, line, 1), "YAML error: a number with too many digits to read")]
    finally:
        if loader is not None:
            loader.dispose()


def _too_deep(loc: Loc) -> Problem:
    return Problem(loc, f"values nested more than {MAX_DEPTH} levels deep; a deckwright file needs only a few")


def _too_many(loc: Loc) -> Problem:
    return Problem(loc, f"the file holds more than {MAX_VALUES:,} values (keys counted); deckwright reads at most "
                        "that many from one file: split the cards into several files")


def load_yaml_file(path: Path, shown: str, root: Path,
                   max_bytes: int = MAX_FILE_BYTES) -> tuple[YNode | None, list[Problem]]:
    """A YAML file inside ``root`` as a YNode tree (see read_text and parse_yaml)."""
    text, problems = read_text(path, shown, root, max_bytes)
    if text is None:
        return None, problems
    return parse_yaml(text, shown)


_PLAIN_COLLECTION_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _short_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


@dataclass(frozen=True)
class _Expansion:
    """An anchored value, converted once and reused at each alias that names it: its tree, and what it adds to
    the document each time it is used (values and characters, as in MAX_ALIAS_VALUES, and levels of nesting
    below it)."""

    tree: YNode
    values: int
    chars: int
    height: int


class _Converter:
    """Turns PyYAML nodes into YNodes, guarding against alias loops, bombs and deep nesting.

    An anchored value is converted once, where it first stands, so its checks are made and its problems
    reported once; an alias reuses that tree, marked where the alias stands, and adds what the value stands for
    (values and characters) to the aliases' budget without walking it again."""

    def __init__(self, shown: str, problems: list[Problem], aliases: AliasBudget):
        self.shown = shown
        self.problems = problems
        self.aliases = aliases  # what aliases have added to the file: at most MAX_ALIAS_VALUES and MAX_ALIAS_CHARS
        self.values = 0  # values converted so far, an alias counting all those it stands for
        self.chars = 0  # the characters of their texts, counted the same way
        self.uses: list[Loc] = []  # the alias uses being expanded, outermost first
        self.deepest = 0  # the most values open above one converted so far
        self.expansions: dict[int, _Expansion] = {}  # id of an anchored node -> its conversion
        self.open: list[int] = []  # ids of the nodes being converted, outermost first
        self.open_ids: set[int] = set()  # the same ids, for a quick loop check
        self.unsupported = False  # a tag deckwright cannot read: the file is not used

    def convert(self, node: yaml.Node) -> YNode:
        anchored = getattr(node, "anchored", None)  # set on a node an alias names, and on each alias use
        if anchored is None:
            return self._convert(node)
        if node is anchored:
            return self._convert_anchored(node, anchored)
        self.uses.append(_loc(self.shown, node.start_mark))
        try:
            return self._convert_anchored(node, anchored)
        finally:
            self.uses.pop()

    def _convert_anchored(self, node: yaml.Node, anchored: yaml.Node) -> YNode:
        known = self.expansions.get(id(anchored))
        if known is not None and len(self.open) + known.height < MAX_DEPTH:
            self._grow(known.values, known.chars)
            self.deepest = max(self.deepest, len(self.open) + known.height)
            return known.tree._replace(loc=_loc(self.shown, node.start_mark))
        if known is not None or id(anchored) in self.open_ids:  # too deep here, or a loop: said where it happens
            return self._convert(node)
        values, chars, deepest, depth = self.values, self.chars, self.deepest, len(self.open)
        self.deepest = depth
        tree = self._convert(node)
        self.expansions[id(anchored)] = _Expansion(tree, self.values - values, self.chars - chars,
                                                   self.deepest - depth)
        self.deepest = max(self.deepest, deepest)
        return tree

    def _grow(self, values: int, chars: int) -> None:
        """The expanded document grows by ``values`` values of ``chars`` characters; inside an alias use, they
        count against the aliases' budget, and the outermost alias that goes past it is blamed."""
        self.values += values
        self.chars += chars
        if not self.uses:
            return
        self.aliases.values += values
        self.aliases.chars += chars
        if self.aliases.values > MAX_ALIAS_VALUES:
            raise _TooBig(self.uses[0], f"{MAX_ALIAS_VALUES:,} values")
        if self.aliases.chars > MAX_ALIAS_CHARS:
            raise _TooBig(self.uses[0], f"{MAX_ALIAS_CHARS:,} characters")

    def _convert(self, node: yaml.Node) -> YNode:
        loc = _loc(self.shown, node.start_mark)
        is_scalar = isinstance(node, yaml.ScalarNode)
        self._grow(1, len(node.value) if is_scalar else 0)
        node_id = id(getattr(node, "anchored", node))  # every use of an anchor is the same value
        if node_id in self.open_ids:
            self.problems.append(Problem(loc, "this alias refers to a value that contains it (a loop)"))
            return YNode("scalar", loc, None, "null", "")
        depth = len(self.open)
        if depth >= MAX_DEPTH:
            raise _TooDeep(loc)
        if depth > self.deepest:
            self.deepest = depth
        if is_scalar:
            return self._scalar(node, loc)
        if node.tag not in _PLAIN_COLLECTION_TAGS:
            self._unsupported(node, loc)
        self.open.append(node_id)
        self.open_ids.add(node_id)
        try:
            if isinstance(node, yaml.MappingNode):
                return YNode("map", loc, self._mapping(node))
            return YNode("seq", loc, tuple(self.convert(item) for item in node.value))
        finally:
            self.open_ids.discard(self.open.pop())

    def _scalar(self, node: yaml.ScalarNode, loc: Loc) -> YNode:
        kind = SCALAR_KINDS.get(node.tag)
        if kind is None:
            self._unsupported(node, loc)
            return YNode("scalar", loc, node.value, "str", node.value)
        return scalar_ynode(kind, node.value, loc, self.problems)

    def _unsupported(self, node: yaml.Node, loc: Loc) -> None:
        self.problems.append(Problem(loc, f"unsupported YAML tag {_short_tag(node.tag)}; deckwright reads plain values only"))
        self.unsupported = True

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
