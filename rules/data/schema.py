"""Field definitions and the one validator that checks a YAML value against them.

Card types declare their fields in ``game.yaml``; ``game.yaml`` itself is
described by field definitions in ``rules.gamefile``. Both are validated
here, and ``rules.jsonschema`` turns the same definitions into JSON Schema.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from deckwright.rules.engine.dice import DiceError, parse_dice, parse_die
from deckwright.rules.numbers import whole_number
from deckwright.rules.problems import Problems, Suggestions, closest, did_you_mean, hint

from .names import id_problem
from .values import Open, Range
from .yamlsrc import YNode

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
FIELD_NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
COLOR_PATTERN = re.compile(r"^#[0-9a-fA-F]{6}$")
_RANGE_PATTERN = re.compile(r"^\s*(-?\d+)\s*(?:-|\u2013|\.\.)\s*(-?\d+)\s*$")

# The longest text a card's value may be. What a card shows is a few hundred characters; the rulebook's tables
# print every value whole, and one cell of 40 million characters (a 44 KB workbook) made a build run out of memory.
MAX_VALUE_CHARS = 20_000
FIELD_TYPES = ("int", "number", "text", "bool", "dice", "die", "range", "choice", "ref", "id", "color", "list", "record", "map")


@dataclass(frozen=True)
class FieldDef:
    """What one field may hold.

    ``of`` is the item definition of a list or the value definition of a map;
    ``fields`` are a record's fields; ``to`` names the card types a ref may point at;
    ``shapes`` are an ``either``'s alternatives by the YAML node's kind
    (``scalar``, ``map`` or ``seq``), for a value that may be written two ways
    (a card id, or a mapping that says more about it).
    """

    type: str
    optional: bool = False
    min: float | None = None
    max: float | None = None
    values: tuple[str, ...] = ()
    of: "FieldDef | None" = None
    fields: tuple[tuple[str, "FieldDef"], ...] = ()
    to: tuple[str, ...] = ()
    label: str = ""
    doc: str = ""
    allow_open: bool = True
    shapes: tuple[tuple[str, "FieldDef"], ...] = ()

    def field(self, name: str) -> "FieldDef | None":
        return dict(self.fields).get(name)


@dataclass(frozen=True)
class Ref:
    """A reference to a card by id, checked once every card is loaded."""

    id: str
    to: tuple[str, ...]
    path: str
    loc: Any

    def __str__(self) -> str:
        return self.id


MAX_DICE = 100  # dice in one expression
MAX_SIDES = 1000
MAX_DICE_NUMBER = 10**6  # a constant or divisor


def dice_problem(dice) -> str | None:
    """Why a parsed dice expression is too large to roll or to work out its odds, or None."""
    if sum(group.count for group in dice.groups) > MAX_DICE:
        return f"at most {MAX_DICE} dice in one expression, this one rolls {sum(g.count for g in dice.groups)}"
    if any(group.sides > MAX_SIDES or group.sides < 1 for group in dice.groups):
        return f"a die has 1 to {MAX_SIDES} sides"
    if abs(dice.constant) > MAX_DICE_NUMBER or not 1 <= dice.divisor <= MAX_DICE_NUMBER:
        return f"numbers in a dice expression are at most {MAX_DICE_NUMBER:,}"
    return None


def _whole_number(node: YNode) -> bool:
    return node.kind == "scalar" and node.scalar_type == "int"


def _bounds_text(fdef: FieldDef) -> str:
    if fdef.min is not None and fdef.max is not None:
        return f" from {fdef.min:g} to {fdef.max:g}"
    if fdef.min is not None:
        return f" >= {fdef.min:g}"
    if fdef.max is not None:
        return f" <= {fdef.max:g}"
    return ""


def _in_bounds(value, fdef: FieldDef) -> bool:
    return (fdef.min is None or value >= fdef.min) and (fdef.max is None or value <= fdef.max)


_SHAPE_WORDS = {"scalar": "a single value", "map": "a mapping", "seq": "a list"}


@dataclass
class Validator:
    """Validates YNodes against FieldDefs, collecting problems and references."""

    problems: Problems
    refs: list[Ref] = field(default_factory=list)
    opens: list[tuple[str, Open]] = field(default_factory=list)
    # field type -> its method, looked up once: a 20,000-card game checks a hundred thousand values
    handlers: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        self.handlers.update((kind, getattr(self, "_" + kind)) for kind in (*FIELD_TYPES, "any", "scalar", "either"))

    def value(self, node: YNode, fdef: FieldDef, path: str) -> Any:
        if fdef.allow_open and node.kind == "map" and node.keys() == ["open"]:
            return self._open(node, path)
        if node.kind == "scalar" and isinstance(node.value, str) and len(node.value) > MAX_VALUE_CHARS:
            self.problems.error(node.loc, f"{path}: {len(node.value):,} characters; a value has at most "
                                          f"{MAX_VALUE_CHARS:,}")
            return None
        handler = self.handlers.get(fdef.type) or getattr(self, "_" + fdef.type)
        return handler(node, fdef, path)

    def fail(self, node: YNode, path: str, expected: str) -> None:
        self.problems.error(node.loc, f"{path}: expected {expected}, got {node.describe()}")

    # -- the field types -------------------------------------------------

    def _open(self, node: YNode, path: str) -> Open | None:
        note = node.get("open")
        if note.kind != "scalar" or note.scalar_type != "str" or not note.value.strip():
            self.fail(note, path + ".open", "a note saying what the source leaves open")
            return None
        value = Open(note.value.strip(), node.loc)
        self.opens.append((path, value))
        return value

    def _int(self, node: YNode, fdef: FieldDef, path: str):
        if not _whole_number(node) or node.value is True or node.value is False or not _in_bounds(node.value, fdef):
            return self.fail(node, path, "a whole number" + _bounds_text(fdef))
        return node.value

    def _number(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or node.scalar_type not in ("int", "float") or not _in_bounds(node.value, fdef):
            return self.fail(node, path, "a number" + _bounds_text(fdef))
        # .inf, or 1e999 in a spreadsheet cell: no number a card can print (an int is finite, and may be too long
        # for math.isfinite(), which converts it to a float)
        if node.scalar_type == "float" and not math.isfinite(node.value):
            return self.fail(node, path, "a finite number" + _bounds_text(fdef))
        return node.value

    def _text(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or node.scalar_type == "null":
            return self.fail(node, path, "text")
        return str(node.raw if node.scalar_type != "str" else node.value)

    def _any(self, node: YNode, fdef: FieldDef, path: str):
        return node.plain()

    def _scalar(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or node.scalar_type == "null":
            return self.fail(node, path, "a number or text")
        return node.value

    def _bool(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or node.scalar_type != "bool":
            return self.fail(node, path, "true or false")
        return node.value

    def _dice(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or node.scalar_type not in ("str", "int"):
            return self.fail(node, path, "a dice expression such as D8, 2d6 or D4+2")
        try:
            dice = parse_dice(node.value)
        except DiceError as exc:
            self.problems.error(node.loc, f"{path}: {exc}")
        else:
            problem = dice_problem(dice)
            if problem is None:
                return dice
            self.problems.error(node.loc, f"{path}: {problem}")
        return None

    def _die(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or node.scalar_type != "str":
            return self.fail(node, path, "a die step such as D8")
        try:
            parse_die(node.value)
            return parse_dice(node.value)
        except DiceError as exc:
            self.problems.error(node.loc, f"{path}: {exc}")
        return None

    def _range(self, node: YNode, fdef: FieldDef, path: str):
        if _whole_number(node) and _in_bounds(node.value, fdef):
            return Range(node.value, node.value)
        match = _RANGE_PATTERN.match(str(node.value)) if node.kind == "scalar" and node.scalar_type == "str" else None
        low, high = (whole_number(match.group(1)), whole_number(match.group(2))) if match else (None, None)
        if low is None or high is None or low > high or not (_in_bounds(low, fdef) and _in_bounds(high, fdef)):
            bounds = _bounds_text(fdef)
            return self.fail(node, path, "a number or a range such as 2-6" + (f", each{bounds}" if bounds else ""))
        return Range(low, high)

    def _choice(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or str(node.value) not in fdef.values:
            choices = ", ".join(fdef.values)
            hint = did_you_mean(str(node.value), list(fdef.values)) if node.kind == "scalar" else ""
            self.problems.error(node.loc, f"{path}: expected one of {choices}, got {node.describe()}{hint}")
            return None
        return str(node.value)

    def _id(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or node.scalar_type != "str" or not ID_PATTERN.match(node.value):
            return self.fail(node, path, "an id in lowercase-kebab-case (letters, digits, hyphens)")
        problem = id_problem(node.value)
        if problem:
            self.problems.error(node.loc, f"{path}: {problem}")
            return None
        return node.value

    def _ref(self, node: YNode, fdef: FieldDef, path: str):
        card_id = self._id(node, fdef, path)
        if card_id is None:
            return None
        ref = Ref(card_id, fdef.to, path, node.loc)
        self.refs.append(ref)
        return ref

    def _color(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "scalar" or not COLOR_PATTERN.match(str(node.value)):
            return self.fail(node, path, 'a colour such as "#1f3a5f"')
        return str(node.value).lower()

    def _list(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "seq":
            return self.fail(node, path, "a list")
        if fdef.min is not None and len(node.value) < fdef.min:
            return self.fail(node, path, f"a list of at least {fdef.min:g} item(s)")
        return tuple(self.value(item, fdef.of, f"{path}.{i + 1}") for i, item in enumerate(node.value))

    def _record(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "map":
            return self.fail(node, path, "a mapping")
        return self.record_fields(node, fdef.fields, path)

    def _either(self, node: YNode, fdef: FieldDef, path: str):
        for kind, shape in fdef.shapes:
            if node.kind == kind:
                return self.value(node, shape, path)
        return self.fail(node, path, " or ".join(_SHAPE_WORDS[kind] for kind, _ in fdef.shapes))

    def _map(self, node: YNode, fdef: FieldDef, path: str):
        if node.kind != "map":
            return self.fail(node, path, "a mapping")
        out = {}
        for key, value in node.value:
            if not (ID_PATTERN.match(key.value) or FIELD_NAME_PATTERN.match(key.value)):
                self.problems.error(key.loc, f"{path}: '{key.value}' is not a valid name (use lowercase letters, digits, - or _)")
                continue
            if id_problem(key.value):
                self.problems.error(key.loc, f"{path}.{key.value}: {id_problem(key.value)}")
                continue
            out[key.value] = self.value(value, fdef.of, f"{path}.{key.value}")
        return out

    # -- records ---------------------------------------------------------

    def record_fields(self, node: YNode, fields: tuple[tuple[str, FieldDef], ...], path: str,
                      extra: tuple[str, ...] = ()) -> dict[str, Any]:
        """Validate a mapping's keys against ``fields``; ``extra`` keys are left to the caller."""
        known = dict(fields)
        out: dict[str, Any] = {}
        suggested: set[str] = set()  # a misspelt required field is reported once, as the misspelling
        for key, value in node.value:
            name = key.value
            if name in extra:
                continue
            fdef = known.get(name)
            if fdef is None:
                close = closest(name, list(known) + list(extra))
                suggested.add(close)
                self.problems.error(key.loc, f"{path}.{name}: unknown field{hint(close)}")
                continue
            if value.kind == "scalar" and value.scalar_type == "null" and fdef.optional:
                continue
            result = self.value(value, fdef, f"{path}.{name}")
            if result is not None:  # None: the problem is reported and the field left out
                out[name] = result
        for name, fdef in fields:
            if name not in out and not fdef.optional and node.get(name) is None and name not in suggested:
                self.problems.error(node.loc, f"{path}: missing required field '{name}'")
        return out


def check_refs(refs: list[Ref], cards_by_id: dict, problems: Problems, card_types=None) -> None:
    """Every reference names a card of the game, of a type it may point at (when those types exist)."""
    suggestions: dict[tuple, Suggestions] = {}  # by the types a reference may point at
    for ref in refs:
        target = cards_by_id.get(ref.id)
        if target is None:
            if ref.to not in suggestions:
                suggestions[ref.to] = Suggestions(card_id for card_id, card in cards_by_id.items()
                                                  if not ref.to or card.type in ref.to)
            close = suggestions[ref.to].closest(ref.id)
            problems.error(ref.loc, f"{ref.path}: no card with id '{ref.id}'{hint(close)}")
        elif ref.to and target.type not in ref.to and (card_types is None or set(ref.to) <= set(card_types)):
            problems.error(ref.loc, f"{ref.path}: '{ref.id}' is a {target.type}, expected a {' or '.join(ref.to)}")
