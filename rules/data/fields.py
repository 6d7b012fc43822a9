"""Short ways to write field definitions in code: a rules module's constants, example setups and actions.

``record(mind=whole(min=1, doc="..."), ...)`` reads like the YAML it describes.
Values are required unless ``optional=True``; none may be written
``{open: ...}`` unless ``open_ok=True`` (a constant the source may leave open).
"""
from __future__ import annotations

from .schema import FieldDef


def record(doc: str = "", optional: bool = False, **fields: FieldDef) -> FieldDef:
    return FieldDef("record", optional=optional, fields=tuple(fields.items()), doc=doc, allow_open=False)


def whole(min: float | None = None, max: float | None = None, optional: bool = False, doc: str = "",
          open_ok: bool = False) -> FieldDef:
    return FieldDef("int", optional=optional, min=min, max=max, doc=doc, allow_open=open_ok)


def number(min: float | None = None, max: float | None = None, optional: bool = False, doc: str = "") -> FieldDef:
    return FieldDef("number", optional=optional, min=min, max=max, doc=doc, allow_open=False)


def text(optional: bool = False, doc: str = "") -> FieldDef:
    return FieldDef("text", optional=optional, doc=doc, allow_open=False)


def flag(optional: bool = True, doc: str = "") -> FieldDef:
    return FieldDef("bool", optional=optional, doc=doc, allow_open=False)


def dice(optional: bool = False, doc: str = "") -> FieldDef:
    return FieldDef("dice", optional=optional, doc=doc, allow_open=False)


def choice(*values: str, optional: bool = False, doc: str = "") -> FieldDef:
    return FieldDef("choice", optional=optional, values=tuple(values), doc=doc, allow_open=False)


def ref(*types: str, optional: bool = False, doc: str = "") -> FieldDef:
    """A card id, checked against the game's cards (of these types, when given)."""
    return FieldDef("ref", optional=optional, to=tuple(types), doc=doc, allow_open=False)


def listing(of: FieldDef, optional: bool = True, min: int | None = None, doc: str = "") -> FieldDef:
    return FieldDef("list", optional=optional, of=of, min=min, doc=doc, allow_open=False)


def mapping(of: FieldDef, optional: bool = True, doc: str = "") -> FieldDef:
    """Names of the writer's choosing (lowercase, digits, - or _), each with a value of ``of``."""
    return FieldDef("map", optional=optional, of=of, doc=doc, allow_open=False)


def either(scalar: FieldDef | None = None, map: FieldDef | None = None, seq: FieldDef | None = None,
           optional: bool = False, doc: str = "") -> FieldDef:
    """A value written one of several ways, told apart by its YAML shape."""
    shapes = tuple((kind, shape) for kind, shape in (("scalar", scalar), ("map", map), ("seq", seq)) if shape)
    return FieldDef("either", optional=optional, shapes=shapes, doc=doc, allow_open=False)


def anything(optional: bool = True, doc: str = "") -> FieldDef:
    """Any YAML value, read as it is (for values the rules read themselves)."""
    return FieldDef("any", optional=optional, doc=doc, allow_open=False)
