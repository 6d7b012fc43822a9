"""The deckwright syntax inside rulebook Markdown pages.

- ``[[card-id]]`` names a card (the site links it to the gallery);
  ``[[card-id.field]]`` prints one of its values; ``[[constant:name]]`` prints
  a game constant. Prose never retypes a number the data holds.
- A fenced block ```` ```cards ```` holds a YAML table spec (``type`` or
  ``deck``, ``columns``, optional ``where``); the table is generated from the data.
- A fenced block ```` ```example ```` holds a worked example that the checker replays.

Quotes and lists nest at most ``NESTING_LIMIT`` deep (``check_page_nesting``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from deckwright.rules.data.schema import did_you_mean
from deckwright.rules.numbers import unsigned_number
from deckwright.rules.problems import Loc, Problems

REF_PATTERN = re.compile(r"\[\[(?:(constant):)?([a-z0-9_-]+)(?:\.([a-z0-9_.]+))?\]\]")
_FENCE = re.compile(r"^([ \t]*)(```+|~~~+)\s*([A-Za-z0-9_-]*)\s*(.*)$")
# a whole run of backticks or tildes, never part of one: a line of 100,000 backticks took minutes to scan
_FENCE_LIKE = re.compile(r"((?<!`)`{3,}+|(?<!~)~{3,}+)\s*([A-Za-z0-9_-]+)")
# Quotes, lists and admonitions inside one another: the bundled rulebooks nest 3 deep at most. Far deeper, the
# printed rulebook's nested boxes exhaust memory in ReportLab (a quote 90 deep took more than 24 GB) and, deeper
# still, Python-Markdown exhausts Python's recursion limit; 16 leaves a real rulebook room and keeps far from both.
NESTING_LIMIT = 16
# What opens a quote, a list item or an admonition, after any indentation (Python-Markdown nests a block 4
# columns in); an admonition's title follows its "!!!".
_NESTING_MARK = re.compile(r"([ ]*)(>|[*+-](?=[ ]|$)|[0-9]{1,9}[.)](?=[ ]|$)|!!!(?=[ ]).*)[ ]?")


@dataclass(frozen=True)
class Block:
    kind: str  # the fence's info word: "example", "cards", "python", ...
    body: str  # dedented by the fence's own indentation (a block inside a list item reads like any other)
    loc: Loc  # the fence line
    body_line: int  # line number of the first body line
    end_line: int  # line number of the closing fence
    indent: int = 0  # columns before the opening fence


def page_title(text: str, fallback: str) -> str:
    """The page's first ``# `` heading outside a fenced block (a code sample's comment is none), else ``fallback``."""
    fenced = {number for block in fenced_blocks(text, "") for number in range(block.loc.line, block.end_line + 1)}
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("# ") and number not in fenced:
            return line[2:].strip()
    return fallback.replace("-", " ").title()


def _dedent(line: str, indent: str) -> str:
    return line[len(indent):] if line.startswith(indent) else line.lstrip(" \t")


def fenced_blocks(text: str, shown: str) -> list[Block]:
    """Every fenced block, at any indentation (inside a list item too); its body keeps its own indentation."""
    blocks = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, kind = match.group(1), match.group(2), match.group(3)
        start = i
        i += 1
        while i < len(lines) and not lines[i].lstrip(" \t").startswith(fence):
            i += 1
        body = "\n".join(_dedent(line, indent) for line in lines[start + 1:i]) + "\n"
        blocks.append(Block(kind, body, Loc(shown, start + 1, len(indent) + 1), start + 2, i + 1, len(indent)))
        i += 1
    return blocks


def _is_rule(text: str) -> bool:
    """Whether ``text`` is Python-Markdown's horizontal rule ("- - -", "***"), which opens no list item."""
    rule = text.strip(" ")
    return (len(rule) >= 3 and rule[0] in "-_*" and not rule.replace(" ", "").strip(rule[0])
            and rule.count(rule[0]) >= 3 and "   " not in rule)


def nesting_depth(line: str) -> tuple[int, int]:
    """How deep a line opens a quote, list item or admonition at most (each ``>``, list marker or ``!!!`` it
    starts with, and each 4 columns of indentation before them, one level; 0 for a line that opens none), and
    the column where it goes past ``NESTING_LIMIT`` (0 when it does not). An upper bound of what Python-Markdown
    makes of it: a page cannot nest deeper without a line that opens the deepest level."""
    line = line.expandtabs(4)
    depth, columns, position = 0, 0, 0
    while not _is_rule(line[position:]) and (mark := _NESTING_MARK.match(line, position)):
        columns += len(mark.group(1))
        depth += 1
        if depth + columns // 4 > NESTING_LIMIT:
            return depth + columns // 4, mark.start(2) + 1
        position = mark.end()
    return depth + columns // 4 if depth else 0, 0


def check_page_nesting(text: str, shown: str, problems: Problems) -> None:
    """The first line of a page that nests quotes and lists deeper than ``NESTING_LIMIT`` is an error there."""
    fenced = {line for b in fenced_blocks(text, shown) for line in range(b.loc.line, b.end_line + 1)}
    for number, line in enumerate(text.splitlines(), start=1):
        if number in fenced or not line.strip():
            continue
        depth, column = nesting_depth(line)
        if column:
            problems.error(Loc(shown, number, column),
                           f"quotes and lists nest {depth} deep here; a rulebook page may nest them at most "
                           f"{NESTING_LIMIT} deep (the printed rulebook cannot lay out more)")
            return


def skipped_fences(text: str, shown: str, kind: str) -> list[Loc]:
    """Lines that look like a ```kind fence but open no such block (in a quote, misspelt case, inside another block)."""
    opened = {block.loc.line for block in fenced_blocks(text, shown) if block.kind == kind}
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _FENCE_LIKE.finditer(line):
            if match.group(2).lower() == kind and number not in opened:
                found.append(Loc(shown, number, match.start() + 1))
    return found


def card_refs(text: str, shown: str) -> list[tuple[Loc, str | None, str, str | None]]:
    """Every ``[[...]]`` outside fenced blocks: (loc, "constant" or None, id, field path)."""
    fenced = {line for b in fenced_blocks(text, shown) for line in range(b.loc.line, b.end_line + 1)}
    refs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number in fenced:
            continue
        for match in REF_PATTERN.finditer(line):
            refs.append((Loc(shown, number, match.start() + 1), match.group(1), match.group(2), match.group(3)))
    return refs


def resolve_field(value: Any, path: str | None) -> Any:
    """Follow a dotted field path (``abilities.1.energy``) through records and lists; raises KeyError."""
    for part in (path.split(".") if path else ()):
        index = unsigned_number(part)
        if isinstance(value, (list, tuple)) and index is not None and 1 <= index <= len(value):
            value = value[index - 1]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        elif hasattr(value, "fields") and isinstance(value.fields, dict) and part in value.fields:
            value = value.fields[part]
        elif hasattr(value, part) and part in ("name", "copies", "id"):
            value = getattr(value, part)
        else:
            raise KeyError(part)
    return value


def check_page_refs(page, cards_by_id: dict, problems: Problems, constants: dict | None = None) -> None:
    for loc, kind, ident, path in card_refs(page.text, page.shown):
        if kind == "constant":
            if constants is not None and ident not in constants:
                problems.error(loc, f"[[constant:{ident}]]: no constant '{ident}' in game.yaml{did_you_mean(ident, list(constants))}")
            continue
        card = cards_by_id.get(ident)
        if card is None:
            problems.error(loc, f"[[{ident}]]: no card with id '{ident}'{did_you_mean(ident, list(cards_by_id))}")
            continue
        try:
            resolve_field(card, path)
        except KeyError as exc:
            problems.error(loc, f"[[{ident}.{path}]]: {card.type} '{ident}' has no field '{exc.args[0]}'")
