"""The readings register: ``readings.yaml`` beside ``game.yaml``, read into ``Reading`` values.

Every entry names a place where the game's source is unclear (a ``reading``) or says two
things (a ``contradiction``), the readings possible, the one deckwright plays and why, and
what depends on it. The field definitions are ``gamefile.READING_FIELDS``; this module adds
the checks that span fields: ids unique, ``chosen`` and ``pending`` among the readings, a
contradiction with two places, and dependencies that exist in the game.
"""
from __future__ import annotations

from collections.abc import Collection

from deckwright.rules.problems import Loc, Problems

from .gamefile import READING_FIELDS
from .model import Depends, Pending, Reading, SourcePlace
from .schema import Validator, did_you_mean
from .yamlsrc import YNode

READINGS_FILE = "readings.yaml"
DEPENDS_KEYS = ("examples", "pages", "cards", "constants", "tests")


def entry_nodes(node: YNode) -> tuple[YNode, ...]:
    """The entries of a parsed readings.yaml, as written (valid or not)."""
    items = node.get("readings") if node.kind == "map" else None
    return items.value if items is not None and items.kind == "seq" else ()


def read_readings(node: YNode, validator: Validator, problems: Problems) -> list[Reading]:
    """The valid entries of a parsed readings.yaml; every problem is reported at its line."""
    if node.kind != "map":
        validator.fail(node, "readings.yaml", "a mapping with 'readings:', a list of entries")
        return []
    validator.record_fields(node, (), "readings.yaml", extra=("readings",))  # unknown keys beside it
    items = node.get("readings")
    if items is None:
        problems.error(node.loc, "readings.yaml: missing required field 'readings'")
        return []
    if items.kind != "seq":
        validator.fail(items, "readings", "a list of entries, each starting with '- id: ...'")
        return []
    readings: list[Reading] = []
    seen: dict[str, Loc] = {}
    for number, item_node in enumerate(items.value, start=1):
        if item_node.kind != "map":
            validator.fail(item_node, f"readings.{number}", "an entry (a mapping starting with 'id:')")
            continue
        id_node = item_node.get("id")
        has_id = id_node is not None and id_node.kind == "scalar"
        raw_id = str(id_node.value) if has_id else str(number)  # (an entry without an id is named by its number)
        if has_id and raw_id in seen:
            problems.error(id_node.loc, f"readings.{raw_id}: duplicate id (first at {seen[raw_id]})")
            continue
        if has_id:
            seen[raw_id] = id_node.loc
        errors_before = problems.error_count
        item = validator.record_fields(item_node, READING_FIELDS, f"readings.{raw_id}")
        _check_entry(item_node, item, f"readings.{raw_id}", problems)
        if problems.error_count == errors_before:
            readings.append(_reading(item_node, item))
    return readings


def _check_entry(node: YNode, item: dict, path: str, problems: Problems) -> None:
    """The checks that span fields; each runs when the fields it needs are valid."""
    options = list(item.get("readings", {}))
    if "readings" in item and len(options) < 2:
        problems.error(node.get("readings").loc, f"{path}.readings: name at least two possible readings")
    if item.get("kind") == "contradiction" and len(item.get("source") or ()) == 1:
        problems.error(node.get("source").loc,
                       f"{path}.source: a contradiction names both places, where the source says one thing and the other")
    if "chosen" in item and "readings" in item and item["chosen"] not in options:
        problems.error(node.get("chosen").loc, f"{path}.chosen: '{item['chosen']}' is not one of its readings "
                                               f"({', '.join(options)}){did_you_mean(item['chosen'], options)}")
    pending = item.get("pending") or {}
    if "plays" in pending and "readings" in item:
        where = node.get("pending").get("plays").loc
        if pending["plays"] not in options:
            problems.error(where, f"{path}.pending.plays: '{pending['plays']}' is not one of its readings "
                                  f"({', '.join(options)}){did_you_mean(pending['plays'], options)}")
        elif pending["plays"] == item.get("chosen"):
            problems.error(where, f"{path}.pending.plays: '{pending['plays']}' is the chosen reading; 'plays' names "
                                  "the other reading the engine plays today (leave it out if it plays none of them)")


def _reading(node: YNode, item: dict) -> Reading:
    depends = item.get("depends") or {}
    pending = item.get("pending")
    return Reading(
        id=item["id"], kind=item["kind"], title=item["title"],
        places=tuple(SourcePlace(p["section"], p["line"], p["says"]) for p in item["source"]),
        options=tuple(item["readings"].items()), chosen=item["chosen"], why=item["why"], loc=node.loc,
        depends=Depends(**{key: tuple(str(v) for v in depends.get(key) or ()) for key in DEPENDS_KEYS}),
        pending=Pending(pending.get("plays"), pending["change"]) if pending else None,
    )


def check_depends(node: YNode, problems: Problems, *, pages: Collection[str], examples: Collection[str],
                  constants: Collection[str]) -> None:
    """Each dependency names a rulebook page, a worked example or a constant the game has.

    Cards are references, checked with every other reference; tests live outside the game folder.
    """
    known = {"pages": (pages, "a rulebook page listed in game.yaml"),
             "examples": (examples, "the name of a worked example in the rulebook"),
             "constants": (constants, "a constant in game.yaml")}
    for item in entry_nodes(node):
        depends = item.get("depends") if item.kind == "map" else None
        if depends is None or depends.kind != "map":
            continue
        id_node = item.get("id")
        path = f"readings.{id_node.value if id_node is not None and id_node.kind == 'scalar' else '?'}.depends"
        for key, (names, what) in known.items():
            values = depends.get(key)
            for value_node in values.value if values is not None and values.kind == "seq" else ():
                value = str(value_node.value) if value_node.kind == "scalar" else None
                if value is not None and value not in names:
                    problems.error(value_node.loc, f"{path}.{key}: '{value}' is not {what}"
                                                   f"{did_you_mean(value, list(names))}")
