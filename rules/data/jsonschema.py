"""JSON Schema for game.yaml and card files, made from the same field definitions
that validate them, so an editor's YAML extension completes and checks as deckwright does."""
from __future__ import annotations

from typing import Any

from .gamefile import (
    CARD_COMMON_FIELDS,
    CARD_FILE_FIELDS,
    CARD_TYPE_FIELDS,
    FIELD_DEF_OPTIONS,
    GAME_FIELDS,
    READINGS_FILE_FIELDS,
)
from .model import CardType, Game
from .schema import FIELD_TYPES, FieldDef

OPEN_SCHEMA = {"type": "object", "properties": {"open": {"type": "string", "minLength": 1}},
               "required": ["open"], "additionalProperties": False,
               "description": "A value the source leaves open, with a note saying so"}
DRAFT = "http://json-schema.org/draft-07/schema#"


def field_schema(fdef: FieldDef) -> dict[str, Any]:
    kind = fdef.type
    schema: dict[str, Any]
    if kind == "int":
        schema = {"type": "integer"}
    elif kind == "number":
        schema = {"type": "number"}
    elif kind == "bool":
        schema = {"type": "boolean"}
    elif kind in ("text", "scalar"):
        schema = {"type": "string"} if kind == "text" else {"type": ["string", "number", "boolean"]}
    elif kind == "dice":
        schema = {"type": ["string", "integer"], "pattern": r"^[0-9dD+\-/ ]+$"}
    elif kind == "die":
        schema = {"type": "string", "enum": ["D4", "D6", "D8", "D10", "D12", "D20"]}
    elif kind == "range":
        schema = {"type": ["integer", "string"], "pattern": r"^-?\d+\s*(-|\.\.)\s*-?\d+$"}
    elif kind == "choice":
        schema = {"enum": list(fdef.values)}
    elif kind in ("id", "ref"):
        schema = {"type": "string", "pattern": r"^[a-z0-9]+(-[a-z0-9]+)*$"}
    elif kind == "color":
        schema = {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}
    elif kind == "any":
        schema = {}
    elif kind == "list":
        schema = {"type": "array", "items": field_schema(fdef.of)}
    elif kind == "map":
        schema = {"type": "object", "additionalProperties": field_schema(fdef.of)}
    else:  # record
        schema = record_schema(fdef.fields)
    if fdef.min is not None and kind in ("int", "number", "range"):  # (a range's bounds: on its number only)
        schema["minimum"] = fdef.min
    if fdef.max is not None and kind in ("int", "number", "range"):
        schema["maximum"] = fdef.max
    if fdef.doc or fdef.label:
        schema["description"] = fdef.doc or fdef.label
    if fdef.allow_open:
        return {"anyOf": [schema, OPEN_SCHEMA], **({"description": schema["description"]} if "description" in schema else {})}
    return schema


def record_schema(fields, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    properties = {name: field_schema(fdef) for name, fdef in fields}
    properties.update(extra or {})
    required = [name for name, fdef in fields if not fdef.optional]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def card_schema(card_type: CardType, with_type_default: bool) -> dict[str, Any]:
    schema = record_schema(CARD_COMMON_FIELDS + card_type.fields)
    return schema


def card_file_schema(game: Game, card_type: CardType | None = None) -> dict[str, Any]:
    types = [card_type] if card_type else list(game.card_types.values())
    cards = [card_schema(t, True) for t in types]
    item = cards[0] if len(cards) == 1 else {"anyOf": cards}
    file_fields = record_schema(CARD_FILE_FIELDS, {"cards": {"type": "array", "items": item}})
    file_fields["required"] = ["cards"]
    title = f"{game.title}: {card_type.name} cards" if card_type else f"{game.title}: card file"
    return {"$schema": DRAFT, "title": title, **file_fields}


def game_file_schema() -> dict[str, Any]:
    field_def: dict[str, Any] = record_schema(FIELD_DEF_OPTIONS)
    field_def["properties"]["of"] = {"$ref": "#/definitions/field"}
    field_def["properties"]["fields"] = {"type": "object", "additionalProperties": {"$ref": "#/definitions/field"}}
    field_def = {"anyOf": [field_def, {"enum": list(FIELD_TYPES)}]}
    card_type = record_schema(CARD_TYPE_FIELDS, {"fields": {"type": "object", "additionalProperties": {"$ref": "#/definitions/field"}}})
    schema = record_schema(GAME_FIELDS, {"card_types": {"type": "object", "additionalProperties": card_type}})
    schema["required"].append("card_types")
    return {"$schema": DRAFT, "title": "deckwright game.yaml", "definitions": {"field": field_def}, **schema}


def readings_file_schema() -> dict[str, Any]:
    return {"$schema": DRAFT, "title": "deckwright readings.yaml (the readings register)",
            **record_schema(READINGS_FILE_FIELDS)}


def schema_files(game: Game) -> dict[str, dict[str, Any]]:
    """File name -> schema, for ``deckwright schema`` (with a build's ``fonts.json``, the names of
    ``rules.data.names.SCHEMA_FILES``, which no card type may have)."""
    files = {"game.json": game_file_schema(), "cards.json": card_file_schema(game), "readings.json": readings_file_schema()}
    for card_type in game.card_types.values():
        files[f"{card_type.id}.json"] = card_file_schema(game, card_type)
    return files
