"""The Jinja2 environment a game's layouts run in: read-only, bounded, and timed.

A layout comes with a game folder, so it is untrusted code. Jinja2's
``ImmutableSandboxedEnvironment`` already refuses private attributes and calls
that change a list, dict or set; the view model (``generator.layout.viewmodel``)
keeps paths, files and modules out of reach. On top of those, this environment
bounds what one evaluation may spend, so no layout can hang or exhaust the machine:

- sizes: a string may hold at most ``MAX_TEXT`` characters, a list or a range
  ``MAX_ITEMS`` items (lists inside lists ten times that, counted as printed), a
  whole number ``MAX_INT_BITS`` bits; an operation whose result would be larger
  (``'a' * 10**10``, ``2**100000``, ``'%999999999d' % 1``, ``s.center(10**9)``,
  ``s.expandtabs(n)``, ``a ~ b``, a filter's width, a join, a format's fields,
  printing a list that holds one long text many times) is refused before it
  runs, its result's size worked out from its inputs (``generator.layout.lengths``),
  and so is a value that grows round after round (a ``namespace`` in a loop, a
  macro calling itself);
- work: every ``{% for %}`` loop, call, operator and piece of output counts
  against a ``Budget`` (``MAX_STEPS`` steps and ``FACE_SECONDS`` processor seconds per card
  face), so nested loops over ``range(10000)`` end with a located error;
- Jinja2's globals are cut to ``range`` and ``namespace`` (functions, not
  classes), and its filters to those without side effects (``random`` is gone:
  it would also make builds differ from run to run).

Exceeding a limit raises ``LayoutLimit`` (a ``SecurityError``) whose message
says which limit; ``OutOfBudget`` is the one that ends a whole face.
"""
from __future__ import annotations

import functools
import re
import string
import time
import types
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from jinja2 import StrictUndefined, nodes
from jinja2.compiler import CodeGenerator
from jinja2.exceptions import SecurityError
from jinja2.filters import FILTERS, make_attrgetter
from jinja2.nodes import EvalContext
from jinja2.runtime import Namespace, Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter
from jinja2.utils import url_quote
from markupsafe import escape

from .lengths import brace_length, expanded_tabs_length, joined_length, percent_length, replaced_length, text_length

MAX_TEXT = 100_000  # characters in one string a layout makes
MAX_ITEMS = 10_000  # items in one list, tuple or range
MAX_INT_BITS = 4096  # a whole number of about 1200 digits
MAX_STEPS = 1_000_000  # loop iterations, calls and operators in one face
FACE_SECONDS = 5.0  # processor time for one card face, back or sheet
# steps between looks at the clock: reading a thread's processor time is a system call (about 9 us on this
# project's virtual machines, 0.3 us for a step), and a step is small (a loop round, a call, an operator)
CLOCK_EVERY = 64

# Filters that would break determinism or purity.
REMOVED_FILTERS = frozenset({"random"})
# Filters whose first argument is a size of their output (width, length, count).
SIZE_ARGUMENT_FILTERS = frozenset({"center", "indent", "wordwrap", "truncate", "round", "batch", "slice"})
# Filters that turn the value filtered into text first (str() of a list of 10,000 long texts is huge).
TEXT_FILTERS = frozenset({"capitalize", "center", "e", "escape", "forceescape", "format", "indent", "lower", "pprint",
                          "replace", "safe", "string", "striptags", "title", "tojson", "trim", "upper", "urlize",
                          "wordcount", "wordwrap"})
# str methods that build a new string from a mapping the layout gives: their output cannot be bounded beforehand.
REFUSED_METHODS = frozenset({"translate", "maketrans", "format_map", "to_bytes"})
# str methods whose whole-number arguments are the size of their output.
SIZED_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})
_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[#0 +-]*(\*|\d+)?(?:\.(\*|\d+))?")
_NUMBER = re.compile(r"\d+")


class LayoutLimit(SecurityError):
    """A layout's evaluation went past one of the limits above."""


class OutOfBudget(LayoutLimit):
    """A face used up its time or steps: the rest of it is not evaluated."""


@dataclass
class Budget:
    """What one face may still spend."""

    # time.thread_time() when the face is out of time: processor time of the evaluating thread, so that a
    # busy machine (a CI runner, a parallel build) does not fail a layout that is merely waiting its turn
    deadline: float
    steps: int = MAX_STEPS
    seconds: float = FACE_SECONDS  # what the deadline was set from, for the message
    unclocked: int = 0  # steps spent since the clock was last read

    @classmethod
    def start(cls, seconds: float = FACE_SECONDS, steps: int = MAX_STEPS) -> "Budget":
        return cls(time.thread_time() + seconds, steps, seconds)

    def spend(self, steps: int = 1) -> None:
        self.steps -= steps
        if self.steps < 0:
            raise OutOfBudget("the layout takes more steps than one face may (a loop inside a loop?); simplify it")
        self.unclocked += steps
        if self.unclocked < CLOCK_EVERY:
            return
        self.unclocked = 0
        if time.thread_time() > self.deadline:
            raise OutOfBudget(f"the layout takes longer than the {self.seconds:g} s one face may take; simplify it")


def size_of(value: Any) -> int | None:
    """Characters, items or bits: the measure a limit applies to; None for what has no size."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset, range)):
        return len(value)
    return None


_CONTAINERS = (list, tuple, dict, set, frozenset)


def expanded_size(value: Any, limit: int = MAX_ITEMS * 10) -> int:
    """How many items ``value`` holds, counting every nested item as often as it appears (stops past ``limit``).

    A list that holds itself twice, ten times over, is small in memory but a thousand items when printed;
    a thousand such levels would print for ever. Shared parts are counted once per appearance, each worked
    out once."""
    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]  # every item stays alive inside value: ids are not reused
    while stack:
        item, children_done = stack.pop()
        key = id(item)
        if key in sizes:
            continue
        if not isinstance(item, _CONTAINERS):
            sizes[key] = 1
            continue
        parts = [*item.keys(), *item.values()] if isinstance(item, dict) else list(item)
        if children_done:
            sizes[key] = min(limit + 1, 1 + sum(sizes[id(part)] for part in parts))
            continue
        stack.append((item, True))
        stack.extend((part, False) for part in parts if id(part) not in sizes)
    return sizes[id(value)]


_TEXTS = (str, bytes)


def check_size(value: Any) -> Any:
    """``value``, or LayoutLimit when it is larger than a layout may make (called on every value a call, an
    operator or a filter makes, so the common cases come first)."""
    kind = type(value)
    if kind is str or kind is bytes or (kind not in _CONTAINERS and isinstance(value, _TEXTS)):
        if len(value) > MAX_TEXT:
            raise LayoutLimit(f"a text of {len(value):,} characters; a layout may make at most {MAX_TEXT:,}")
        return value
    if kind is int:
        if value.bit_length() > MAX_INT_BITS:
            raise LayoutLimit(f"a number of more than {MAX_INT_BITS} bits (about 1200 digits); layouts use small numbers")
        return value
    if isinstance(value, (*_CONTAINERS, range)):
        if len(value) > MAX_ITEMS:
            raise LayoutLimit(f"a list of {len(value):,} items; a layout may make at most {MAX_ITEMS:,}")
        if kind is not range and any(isinstance(item, _CONTAINERS) for item in (value.values() if kind is dict else value)) \
                and expanded_size(value) > MAX_ITEMS * 10:
            raise LayoutLimit(f"lists inside lists holding more than {MAX_ITEMS * 10:,} items in all; "
                              "a layout may make at most that many")
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        raise LayoutLimit(f"a number of more than {MAX_INT_BITS} bits (about 1200 digits); layouts use small numbers")
    return value


def check_length(characters: int, what: str) -> None:
    """LayoutLimit when an operation would make a text of ``characters`` characters (checked before it runs)."""
    if characters > MAX_TEXT:
        raise LayoutLimit(f"{what} would make a text of {characters:,} characters; a layout may make at most {MAX_TEXT:,}")


def check_printable(value: Any, what: str = "printing a value") -> Any:
    """``value``, or LayoutLimit when ``str(value)`` would be longer than MAX_TEXT, worked out without making
    it: a list holding one long text 10,000 times is small, and prints as a billion characters."""
    if type(value) is not str:
        check_length(text_length(value), what)
    return value


def as_text(value: Any) -> str:
    """``str(value)``, refused before it is made when it would be longer than MAX_TEXT."""
    return check_size(str(check_printable(value)))


def check_items(count: int, what: str) -> None:
    """LayoutLimit when an operation would make a list of ``count`` items (checked before it runs)."""
    if count > MAX_ITEMS:
        raise LayoutLimit(f"{what} would make a list of {count:,} items; a layout may make at most {MAX_ITEMS:,}")


def _check_width(width: Any, what: str) -> None:
    if isinstance(width, int) and not isinstance(width, bool) and abs(width) > MAX_TEXT:
        raise LayoutLimit(f"{what}: {width} is larger than any text a layout may make ({MAX_TEXT:,} characters)")


def check_percent_format(text: str) -> None:
    """``'%10d' % x``: refuse widths and precisions beyond MAX_TEXT (and ``*``, which takes them from the values)."""
    for match in _PERCENT_FIELD.finditer(text):
        for part in match.groups():
            if part == "*":
                raise LayoutLimit("a '%*' format takes its width from the values; write the width")
            if part:
                _check_width(int(part), "a % format's width")


def check_brace_format(text: str) -> None:
    """``'{:>10}'.format(x)``: the same for str.format's specs; nested ``{}`` in a spec are refused."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise LayoutLimit(f"format string: {exc}") from None
    for _, _, spec, _ in fields:
        if not spec:
            continue
        if "{" in spec:
            raise LayoutLimit("a format spec with a nested {...} takes its width from the values; write the width")
        for digits in _NUMBER.findall(spec):
            _check_width(int(digits), "a format's width")


def _check_operation(operator: str, left: Any, right: Any) -> None:
    """Refuse ``left <operator> right`` before it runs when its result would be too large."""
    ints = isinstance(left, int) and isinstance(right, int)
    if operator == "**" and ints and right > 0 and abs(left) > 1 and abs(left).bit_length() * right > MAX_INT_BITS:
        raise LayoutLimit(f"{left} ** {right} is a number of more than {MAX_INT_BITS} bits; layouts use small numbers")
    if operator == "*":
        if ints and left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
            raise LayoutLimit(f"a product of more than {MAX_INT_BITS} bits; layouts use small numbers")
        for seq, times in ((left, right), (right, left)):
            size = size_of(seq)
            if size is not None and isinstance(times, int) and size * times > (MAX_TEXT if isinstance(seq, str) else MAX_ITEMS):
                raise LayoutLimit(f"repeating {size:,} characters or items {times:,} times is more than a layout may make")
    if operator == "+":
        a, b = size_of(left), size_of(right)
        if a is not None and b is not None and a + b > (MAX_TEXT if isinstance(left, str) else MAX_ITEMS):
            raise LayoutLimit(f"joining {a:,} and {b:,} characters or items is more than a layout may make")
    if operator == "%" and isinstance(left, str):
        check_percent_format(left)
        check_length(percent_length(left, right, MAX_TEXT), "a % format")


def _check_method(method: Any, args: tuple, kwargs: dict) -> None:
    """Checks for the methods of strings, numbers, lists and mappings that can make large values."""
    name = method.__name__
    if name in REFUSED_METHODS:
        raise LayoutLimit(f"{name}() is not available in layouts")
    owner = method.__self__
    if name in SIZED_METHODS:
        for value in (*args, *kwargs.values()):
            _check_width(value, f"{name}()")
    texts = (str, bytes)
    if name == "expandtabs" and isinstance(owner, texts):
        tabsize = args[0] if args else kwargs.get("tabsize", 8)
        tab = "\t" if isinstance(owner, str) else b"\t"
        # a tab becomes at most tabsize characters: counted exactly (a loop over the tabs) only past that bound
        if isinstance(tabsize, int) and len(owner) + owner.count(tab) * (tabsize - 1) > MAX_TEXT:
            check_length(expanded_tabs_length(owner, tabsize), "expandtabs()")
    if name == "replace" and isinstance(owner, texts) and all(isinstance(a, type(owner)) for a in args[:2]) \
            and len(args) >= 2:
        count = args[2] if len(args) > 2 else kwargs.get("count", -1)
        check_length(replaced_length(owner, args[0], args[1], count if isinstance(count, int) else -1), "replace()")
    if name == "join" and isinstance(owner, str) and args:
        items = list(args[0]) if not isinstance(args[0], (list, tuple)) else args[0]
        check_size(items)
        if all(isinstance(item, str) for item in items):  # else join() refuses them itself
            check_length(joined_length(owner, items), "join()")


def _argument(values: list, kwargs: dict, position: int, key: str, default: Any = None) -> Any:
    """A filter's argument, given by position (after the value filtered, at 1) or by name."""
    return values[position] if len(values) > position else kwargs.get(key, default)


def _whole(values: list) -> Any:
    """The value filtered, a lazy sequence (from map or select) made whole, and checked."""
    if not isinstance(values[0], (str, list, tuple)):
        values[0] = list(values[0])
    return check_size(values[0])


def _input_check(env: "LayoutSandbox", name: str, function):
    """The check a filter's arguments need before it runs (None for a filter that needs none): ``values`` are
    the value filtered and the filter's arguments, without the environment or context Jinja2 may pass first.
    Each check works out how large the filter's result would be from its inputs."""
    def width(values, kwargs):
        if len(values) > 1:
            _check_width(values[1], f"|{name}")
        for key in ("width", "length", "linecount", "slices", "precision"):
            _check_width(kwargs.get(key), f"|{name}({key}=...)")

    def indent(values, kwargs):
        if not isinstance(values[0], str):  # Jinja2's indent adds "\n" to it with +=, which extends a list in place
            raise TypeError(f"|indent takes text, got {type(values[0]).__name__}")
        width(values, kwargs)
        pad = _argument(values, kwargs, 1, "width", 4)
        text = str(values[0])
        pad = len(pad) if isinstance(pad, str) else pad if isinstance(pad, int) else 0
        check_length(len(text) + (text.count("\n") + 1) * pad, "|indent")

    def percent(values, kwargs):
        if isinstance(values[0], str):
            check_percent_format(values[0])
            check_length(percent_length(values[0], kwargs or tuple(values[1:]), MAX_TEXT), "|format")

    def replace(values, kwargs):
        if len(values) >= 3:
            count = _argument(values, kwargs, 3, "count")
            count = count if isinstance(count, int) else -1
            check_length(replaced_length(str(values[0]), str(values[1]), str(values[2]), count), "|replace")

    def join(values, kwargs):
        items = _whole(values)
        attribute = _argument(values, kwargs, 2, "attribute")
        if attribute is not None and isinstance(items, (list, tuple)):
            getter = make_attrgetter(env, attribute)
            items = [getter(item) for item in items]
        separator = _argument(values, kwargs, 1, "d", "")
        if isinstance(items, (list, tuple, str)):
            check_length(joined_length(str(check_printable(separator, "|join's separator")), items), "|join")

    def wordwrap(values, kwargs):
        width(values, kwargs)
        joint = _argument(values, kwargs, 3, "wrapstring")
        if isinstance(joint, str) and len(joint) > 1:
            # wrapped once with a one-character joint, whose lines then each take len(joint) characters more
            # (the lines wrapped hold no line breaks: the filter splits its text at them)
            plain = [*values[:3], "\n", *values[4:]] if len(values) > 3 else values
            wrapped = function(env, *plain, **({**kwargs, "wrapstring": "\n"} if len(values) <= 3 else kwargs))
            check_length(len(wrapped) + wrapped.count("\n") * (len(joint) - 1), "|wordwrap")

    def urlize(values, kwargs):
        if _argument(values, kwargs, 3, "target") or _argument(values, kwargs, 4, "rel"):
            # every web link gets the target and rel attributes: their length, times the links made without them
            context = EvalContext(env)
            plain = function(context, *values[:2], **{k: v for k, v in kwargs.items() if k == "trim_url_limit"})
            links = plain.count('<a href="') - plain.count('<a href="mailto:')
            sample = "https://a.bc"
            one = function(context, sample, None, *values[2:],
                           **{k: v for k, v in kwargs.items() if k != "trim_url_limit"})
            check_length(len(plain) + links * (len(one) - len(function(context, sample))), "|urlize")

    def batch(values, kwargs):
        width(values, kwargs)
        items = len(_whole(values))
        size = _argument(values, kwargs, 1, "linecount")
        if isinstance(size, int) and size > 0 and items:
            filled = _argument(values, kwargs, 2, "fill_with") is not None
            check_items(size if filled else min(size, items), "|batch")

    def slices(values, kwargs):
        width(values, kwargs)
        count = _argument(values, kwargs, 1, "slices")
        if isinstance(count, int):
            check_items(count, "|slice")

    def urlencode(values, kwargs):
        if isinstance(values[0], str):
            return  # quoted, at most 9 characters for each one (3 bytes of UTF-8, each as %XX)
        pairs = list(values[0].items()) if isinstance(values[0], dict) else _whole(values)

        def pair(item) -> int:
            key, value = item
            return sum(len(url_quote(check_printable(part, f"|{name}"), for_qs=True)) for part in (key, value)) + 1
        try:
            total = joined_length("&", pairs, pair)
        except (TypeError, ValueError):
            return  # not pairs: the filter says so itself
        check_length(total, f"|{name}")

    def xmlattr(values, kwargs):
        if not isinstance(values[0], dict):
            return
        pairs = [(key, value) for key, value in values[0].items()
                 if value is not None and not isinstance(value, Undefined)]  # what the filter writes
        lengths: dict[int, int] = {}

        def pair(item) -> int:  # key="value", each value escaped once however often it appears
            key, value = item
            if id(value) not in lengths:
                lengths[id(value)] = len(escape(check_printable(value, f"|{name}")))
            return len(escape(str(key))) + 3 + lengths[id(value)]
        autospace = _argument(values, kwargs, 1, "autospace", True)
        check_length(joined_length(" ", pairs, pair) + (1 if pairs and autospace else 0), f"|{name}")

    checks = {"indent": indent, "format": percent, "replace": replace, "join": join, "wordwrap": wordwrap,
              "urlize": urlize, "batch": batch, "slice": slices, "urlencode": urlencode, "xmlattr": xmlattr}
    check = checks.get(name, width if name in SIZE_ARGUMENT_FILTERS else None)
    if name not in TEXT_FILTERS:
        return check

    def text_first(values, kwargs):
        if values:
            check_printable(values[0], f"|{name}")
            if check is not None:
                check(values, kwargs)
    return text_first


def _guarded_filter(env: "LayoutSandbox", name: str, function):
    """A filter that spends ``env``'s budget and refuses inputs and outputs over the limits."""
    passes_first = 1 if hasattr(function, "jinja_pass_arg") else 0  # the environment or context comes first
    check_input = _input_check(env, name, function)

    @functools.wraps(function)  # keeps jinja_pass_arg, so Jinja2 still passes what the filter asks for
    def guarded(*args, **kwargs):
        env.spend()
        if check_input is not None and len(args) > passes_first:
            values = list(args[passes_first:])
            check_input(values, kwargs)
            args = (*args[:passes_first], *values)
        return check_size(function(*args, **kwargs))

    return guarded


class _CheckedNamespace(Namespace):
    """Jinja2's namespace, the one value a loop can carry from one round to the next: each value set is checked,
    so ``{% set ns.v = ns.v ~ ns.v %}`` fifty times over cannot build a string of 2**50 characters."""

    def __setitem__(self, name: str, value: Any) -> None:
        super().__setitem__(name, check_size(value))


def namespace(**attributes: Any) -> Namespace:
    """``{% set ns = namespace(total=0) %}``: a small mutable record for counting across a loop."""
    for value in attributes.values():
        check_size(value)
    return _CheckedNamespace(**attributes)


class _GuardedCodeGenerator(CodeGenerator):
    """Compiles every ``{% for %}`` loop to iterate through ``environment.guarded_iter``, which spends the budget,
    and every ``~`` to ``environment.joined``, which refuses a text longer than MAX_TEXT before making it."""

    def visit_Concat(self, node: nodes.Concat, frame) -> None:  # noqa: N802 (Jinja2's name)
        self.write("environment.joined((")
        for part in node.nodes:
            self.visit(part, frame)
            self.write(", ")
        self.write("))")

    def visit_For(self, node: nodes.For, frame) -> None:  # noqa: N802 (Jinja2's name)
        iterated = node.iter
        if not (isinstance(iterated, nodes.Call) and isinstance(iterated.node, nodes.EnvironmentAttribute)
                and iterated.node.name == "guarded_iter"):
            node.iter = nodes.Call(nodes.EnvironmentAttribute("guarded_iter"), [iterated], [], None, None,
                                   lineno=node.lineno)
        super().visit_For(node, frame)


class LayoutUndefined(StrictUndefined):
    """A missing value, as strict as Jinja2's StrictUndefined; a card's missing field is named as the designer
    wrote it (``card 'x' has no value for 'tags'``), not as Python's class (``'deckwright...CardView object' has no
    attribute 'tags'``), with the way to read an optional field."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        from .viewmodel import CardView

        card, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint is None and isinstance(card, CardView) and isinstance(name, str):
            return missing_field_message(card, name)
        return super()._undefined_message


def missing_field_message(card, name: str) -> str:
    """What a layout is told when it reads a field ``card`` has no value for. It does not name the card (the
    problem's line does), so that one misspelt name in a layout reads the same on every card
    (``generator.layout.measure.merged``)."""
    from deckwright.rules.problems import closest, hint

    builtins = ["id", "name", "type", "deck", "copies", "count"]
    if name in card._declared:
        return (f"this card leaves out '{name}', an optional field; card.get('{name}') gives none instead of "
                f"failing")
    if not card._declared:  # a view made without its type: its own fields are all there is to go on
        near = closest(name, [*card.fields, *builtins])
        return (f"no value for '{name}'{hint(near)}" if near is not None else
                f"no value for '{name}' (a field this card leaves out, or one its type does not have); "
                f"card.get('{name}') gives none instead of failing")
    near = closest(name, [*card._declared, *builtins])
    if near is not None:
        return f"no field '{name}' in this card's type{hint(near)}"
    return f"no field '{name}' in this card's type (its fields: {', '.join(card._declared)})"


class LayoutSandbox(ImmutableSandboxedEnvironment):
    """Jinja2 for layouts: sandboxed, immutable, strict about missing values, bounded (see the module's doc)."""

    code_generator_class = _GuardedCodeGenerator
    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})

    def __init__(self, **options: Any):
        options.setdefault("undefined", LayoutUndefined)
        given = options.get("finalize")
        # what ``{{ value }}`` prints is str() of what finalize gives: checked before it is made
        options["finalize"] = lambda value: check_printable(given(value) if given else value)
        super().__init__(**options)
        self.budget: Budget | None = None
        # compiled layout values by (kind, source): a source written in several boxes or files is compiled once
        # (generator.layout.files)
        self.compiled: dict[tuple[str, str], tuple] = {}
        self.globals.clear()
        self.globals.update(range=self.range, namespace=namespace)
        self.filters = {name: _guarded_filter(self, name, function) for name, function in FILTERS.items()
                        if name not in REMOVED_FILTERS}

    def add_filters(self, filters: dict) -> None:
        """deckwright's own filters, guarded like Jinja2's."""
        self.filters.update({name: _guarded_filter(self, name, function) for name, function in filters.items()})

    # -- the budget ----------------------------------------------------------

    def spend(self, steps: int = 1) -> None:
        if self.budget is not None:
            self.budget.spend(steps)

    def evaluating(self, seconds: float = FACE_SECONDS, steps: int = MAX_STEPS):
        """A context manager: a fresh budget for one face, unless one is already running (then that one)."""
        return _Evaluation(self, seconds, steps)

    def range(self, *args: int) -> range:
        for arg in args:
            if not isinstance(arg, int):
                raise TypeError(f"range() takes whole numbers, got {arg!r}")
        items = range(*args)
        if len(items) > MAX_ITEMS:
            raise LayoutLimit(f"range{args!r} has {len(items):,} items; a layout may make at most {MAX_ITEMS:,}")
        return items

    def guarded_iter(self, iterable: Iterable) -> Iterator:
        for item in iterable:
            self.spend()
            yield item

    def joined(self, parts: tuple) -> str:
        """``a ~ b``: the parts as text, joined; LayoutLimit before a text longer than MAX_TEXT is made."""
        self.spend()
        for part in parts:
            check_size(part)
        check_length(sum(text_length(part) for part in parts), "~")
        return "".join(part if isinstance(part, str) else str(part) for part in parts)

    def concat(self, pieces: Iterable[str]) -> str:
        """A template's output (and a macro's), refused as soon as it grows past MAX_TEXT."""
        out: list[str] = []
        total = 0
        for piece in pieces:
            total += len(piece)
            if total > MAX_TEXT:
                raise LayoutLimit(f"the output is longer than {MAX_TEXT:,} characters")
            out.append(piece)
        self.spend(len(out))
        return "".join(out)

    # -- the sandbox's hooks -------------------------------------------------

    def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja2's signature)
        __self.spend()
        for value in (*args, *kwargs.values()):
            check_size(value)
        if isinstance(__obj, types.BuiltinMethodType) and not isinstance(__obj.__self__, types.ModuleType):
            _check_method(__obj, args, kwargs)
        return check_size(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        self.spend()
        _check_operation(operator, left, right)
        return check_size(super().call_binop(context, operator, left, right))

    def wrap_str_format(self, value: Any):
        wrapper = super().wrap_str_format(value)
        if wrapper is None:
            return None
        if value.__name__ == "format_map":
            raise LayoutLimit("format_map() is not available in layouts")
        check_brace_format(value.__self__)

        formatter = SandboxedFormatter(self)

        @functools.wraps(wrapper)
        def checked(*args, **kwargs):
            check_length(brace_length(value.__self__, args, kwargs, formatter, MAX_TEXT), "format()")
            return check_size(wrapper(*args, **kwargs))

        return checked


class _Evaluation:
    def __init__(self, env: LayoutSandbox, seconds: float, steps: int):
        self.env = env
        self.seconds = seconds
        self.steps = steps
        self.owner = False

    def __enter__(self) -> Budget:
        if self.env.budget is None:
            self.env.budget = Budget.start(self.seconds, self.steps)
            self.owner = True
        return self.env.budget

    def __exit__(self, *exc) -> None:
        if self.owner:
            self.env.budget = None
