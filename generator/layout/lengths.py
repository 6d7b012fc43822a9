"""How long a text an operation would make, worked out without making it.

The sandbox (``generator.layout.sandbox``) refuses an operation whose result would be longer than a layout may
make before the operation runs. A layout can hold a small value that prints as a huge text: a list of 10,000
references to one string of 99,999 characters takes 80 kB, and ``str()`` of it is a billion characters. These
functions count such texts from their parts, each part measured once however often it appears.
"""
from __future__ import annotations

import re
import string
from typing import Any, Callable, Sequence

from jinja2.runtime import Namespace


def _frame_list(count: int) -> int:
    return 2 + 2 * max(count - 1, 0)  # [a, b]


def _frame_tuple(count: int) -> int:
    return 3 if count == 1 else _frame_list(count)  # (a,) or (a, b)


def _frame_dict(pairs: int) -> int:
    return 2 + 2 * pairs + 2 * max(pairs - 1, 0)  # {a: b, c: d}


def _frame_set(count: int) -> int:
    return 5 if count == 0 else _frame_list(count)  # set() or {a, b}


def _frame_frozenset(count: int) -> int:
    return 11 if count == 0 else 11 + _frame_list(count)  # frozenset() or frozenset({a, b})


# how repr() frames the parts of a value whose type prints them (a subclass that keeps list's, tuple's or
# dict's __repr__ prints as they do: Jinja2's groupby tuples)
_FRAMES = {list.__repr__: _frame_list, tuple.__repr__: _frame_tuple, dict.__repr__: _frame_dict}
_VIEWS = {type({}.keys()): len("dict_keys()"), type({}.values()): len("dict_values()"),
          type({}.items()): len("dict_items()")}
_NAMESPACE_FRAME = len("<Namespace >")
_CYCLE = len("[...]")  # what repr() prints for a list inside itself


def _parts(value: Any) -> tuple[list, int] | None:
    """The parts repr() prints of ``value`` and the characters it adds around them; None for a value printed
    whole (a string, a number, anything else)."""
    kind = type(value)
    if kind is set or kind is frozenset:
        frame = _frame_set if kind is set else _frame_frozenset
        return list(value), frame(len(value))
    frame = _FRAMES.get(kind.__repr__)
    if frame is not None:
        if isinstance(value, dict):
            return [*value.keys(), *value.values()], frame(len(value))
        return list(value), frame(len(value))
    if kind in _VIEWS:
        return list(value), _VIEWS[kind] + _frame_list(len(value))
    if kind is Namespace:
        return [value._Namespace__attrs], _NAMESPACE_FRAME
    return None


def _whole_repr_length(value: Any) -> int:
    if type(value) is str and value.isascii() and value.isprintable():
        # repr() adds quotes, doubles backslashes and escapes ' only when the text holds both kinds of quote
        quotes = value.count("'") if "'" in value and '"' in value else 0
        return len(value) + 2 + value.count("\\") + quotes
    return len(repr(value))


def repr_length(value: Any) -> int:
    """``len(repr(value))``, counted part by part for lists, tuples, dicts, sets, dict views and namespaces."""
    lengths: dict[int, int] = {}
    opened: set[int] = set()
    held: list = []  # parts made while counting (a dict view's pairs) stay alive, so that no id is reused
    stack: list[tuple[Any, tuple[list, int] | None]] = [(value, None)]
    while stack:
        item, found = stack.pop()
        key = id(item)
        if key in lengths or (found is None and key in opened):
            continue
        if found is None:
            found = _parts(item)
            if found is None:
                lengths[key] = _whole_repr_length(item)
                continue
            held.append(found[0])
            opened.add(key)
            stack.append((item, found))
            stack.extend((part, None) for part in found[0] if id(part) not in lengths)
            continue
        parts, frame = found
        lengths[key] = frame + sum(lengths.get(id(part), _CYCLE) for part in parts)
    return lengths[id(value)]


def text_length(value: Any) -> int:
    """``len(str(value))``, without making the text of a list, tuple, dict, set, dict view or namespace."""
    if isinstance(value, str):
        return len(value)
    if _parts(value) is not None:
        return repr_length(value)
    return len(str(value))


def expanded_tabs_length(text: str | bytes, tabsize: int) -> int:
    """``len(text.expandtabs(tabsize))``: a tab moves to the next multiple of tabsize, counted from the last
    line break (\\n or \\r)."""
    tab, breaks = ("\t", "[\r\n]") if isinstance(text, str) else (b"\t", b"[\r\n]")
    tabs = text.count(tab)
    if tabs == 0:
        return len(text)
    if tabsize <= 0:
        return len(text) - tabs
    lines = re.split(breaks, text)
    total = len(lines) - 1  # the line breaks
    for line in lines:
        if tab not in line:
            total += len(line)
            continue
        *tabbed, last = line.split(tab)
        column = 0
        for piece in tabbed:
            column += len(piece)
            column += tabsize - column % tabsize
        total += column + len(last)
    return total


def replaced_length(text: str, old: str, new: str, count: int = -1) -> int:
    """How long ``text.replace(old, new, count)`` would be."""
    times = len(text) + 1 if not old else text.count(old)
    if count >= 0:
        times = min(times, count)
    return len(text) + times * (len(new) - len(old))


def joined_length(separator: str, items: Sequence, measure: Callable[[Any], int] = text_length) -> int:
    """How long ``separator.join(map(str, items))`` would be; or, with ``measure``, the join of each item's
    text as ``measure`` counts it. An item that appears many times is measured once."""
    lengths: dict[int, int] = {}
    total = len(separator) * max(len(items) - 1, 0)
    for item in items:
        key = id(item)
        if key not in lengths:
            lengths[key] = measure(item)
        total += lengths[key]
    return total


class _Fields:
    """Lengths of formatted fields, each (value, conversion, spec) worked out once. A field whose conversion
    (``!s``, ``!r``, ``%s``, ``%r``) alone gives more than ``limit`` characters counts as that many, even
    with a precision that cuts it: the conversion is made before it is cut."""

    def __init__(self, limit: int):
        self.limit = limit
        self.lengths: dict[tuple, int] = {}
        self.held: list = []  # the values measured stay alive, so that no id is reused

    def length(self, value: Any, conversion: str, spec: str, make) -> int:
        """``make(value, conversion, spec)`` gives the field's text; it is called only when that text is short
        (a number, a width or a precision applied to a short text)."""
        key = (id(value), conversion, spec)
        found = self.lengths.get(key)
        if found is None:
            self.held.append(value)
            base = repr_length(value) if conversion in ("r", "a") else text_length(value) if conversion == "s" else None
            found = base if base is not None and (not spec or base > self.limit) else len(make(value, conversion, spec))
            self.lengths[key] = found
        return found


# %[(key)][flags][width][.precision][length modifier]type, as Python reads it; a key holding parentheses
# (Python lets them nest) is read by _percent_fields' slower loop
_PERCENT_REST = r"([#0 +-]*)(\*|\d+)?(\.\*|\.\d*)?[hlL]?(.?)"
_PERCENT_FIELD = re.compile(r"%(\([^()]*\))?" + _PERCENT_REST, re.DOTALL)
_NESTED_KEY = re.compile(r"%\([^)]*\(")
_PERCENT_AFTER_KEY = re.compile(_PERCENT_REST, re.DOTALL)


def _percent_fields(text: str) -> tuple[int, list[tuple]]:
    """The literal characters of a % format, and its fields as ("(key)" or "", flags, width, .precision, type)."""
    if not _NESTED_KEY.search(text):
        return len(_PERCENT_FIELD.sub("", text)), _PERCENT_FIELD.findall(text)
    fields, literal, at = [], 0, 0
    while (start := text.find("%", at)) >= 0:
        literal += start - at
        at, key = start + 1, ""
        if text.startswith("(", at):
            depth, end = 1, at + 1
            while end < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
            key, at = text[at:end], end
        match = _PERCENT_AFTER_KEY.match(text, at)
        fields.append((key, *match.groups(default="")))
        at = match.end()
    return literal + len(text) - at, fields


def percent_length(text: str, values: Any, limit: int) -> int:
    """How long ``text % values`` would be: literal text, and each field counted from its value (a text's
    length, a list's printed length; a number formatted). Stops at the first field Python would refuse,
    whose error the operation itself then raises. Widths must already be checked (``check_percent_format``)."""
    mapping = values if hasattr(values, "__getitem__") and not isinstance(values, (tuple, str)) else None
    positional = values if isinstance(values, tuple) else (values,)
    lengths = _Fields(limit)
    total, fields = _percent_fields(text)
    next_value = 0
    for key, flags, width, precision, kind in fields:
        if kind == "%":
            total += 1
            continue
        try:
            if key:
                value = mapping[key[1:-1]]
            else:
                value, next_value = positional[next_value], next_value + 1
            conversion = kind if kind in _CONVERSIONS else ""
            spec = f"%{flags}{width}{precision}{kind}" if flags or width or precision or not conversion else ""
            total += lengths.length(value, conversion, spec, _percent_field)
        except (LookupError, TypeError, ValueError, OverflowError):
            return total
    return total


_CONVERSIONS = ("s", "r", "a")


def _percent_field(value: Any, conversion: str, spec: str) -> str:
    return spec % (value,)


def brace_length(text: str, args: tuple, kwargs: dict, formatter: string.Formatter, limit: int) -> int:
    """How long ``text.format(*args, **kwargs)`` would be, each field looked up through ``formatter`` (the
    sandbox's, so looking up is as safe as formatting). Stops at the first field that fails, whose error the
    operation itself then raises. Specs must already be checked (``check_brace_format``)."""
    def field_text(value: Any, conversion: str, spec: str) -> str:
        return formatter.format_field(formatter.convert_field(value, conversion or None), spec)

    fields = _Fields(limit)
    total, automatic = 0, 0
    for literal, name, spec, conversion in formatter.parse(text):
        total += len(literal)
        if name is None:
            continue
        if name == "":
            name, automatic = str(automatic), automatic + 1
        try:
            value, _ = formatter.get_field(name, args, kwargs)
            # no conversion and no spec is format(value, ""), which is str(value)
            total += fields.length(value, conversion or ("" if spec else "s"), spec or "", field_text)
        except (LookupError, AttributeError, TypeError, ValueError, OverflowError):
            return total
    return total
