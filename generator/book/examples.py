"""A worked example as the outputs show it: the script, the engine's narration and the verdict.

The block's YAML (format in ``rules/README.md``) gives the scripted dice, deck
orders, actions and claims; the replay result (``rules.book.examples.ExampleResult``)
gives the verdict and the event log.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from deckwright.rules.book.pages import fenced_blocks
from deckwright.rules.data.yamlsrc import AliasBudget, parse_yaml

VERDICT_LABELS = {
    "verified": "Verified",
    "erratum": "Known erratum",
    "failing": "Failing",
    "unchecked": "Not checked",
}


@dataclass(frozen=True)
class LogLine:
    kind: str  # the event kind ("roll", "attack", ...); "" when the line has none
    text: str


@dataclass(frozen=True)
class Roll:
    face: str  # the number the die shows
    die: str  # "D8" when the script also names the die, else ""


@dataclass(frozen=True)
class ExampleView:
    number: int  # 1-based on its page
    anchor: str
    name: str
    verdict: str  # verified, erratum, failing or unchecked
    verdict_label: str
    message: str
    erratum: str  # the block's own reason, when it is marked as a known erratum
    setup: tuple[tuple[str, str], ...]  # the setup's keys with their values on one line
    rolls: tuple[Roll, ...]
    shuffles: tuple[tuple[str, tuple[str, ...]], ...]  # pile -> each scripted order as text
    actions: tuple[str, ...]
    claims: tuple[tuple[str, str], ...]
    log: tuple[LogLine, ...]
    loc: str

    @property
    def ids(self) -> tuple[str, str]:
        """The ids its box takes on its page: the box's and its title's (templates/html/_partials.html)."""
        return self.anchor, f"{self.anchor}-title"


def _text(value: Any) -> str:
    """A plain YAML value on one line: mappings as ``key: value``, lists comma separated."""
    if isinstance(value, dict):
        return ", ".join(f"{key}: {_text(item)}" if item is not None else str(key) for key, item in value.items())
    if value == [] or value == {}:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(_text(item) for item in value) + "]" if any(isinstance(i, (list, dict)) for i in value) \
            else ", ".join(_text(item) for item in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def _flatten(claims: Any, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(claims, dict):
        out: list[tuple[str, str]] = []
        for key, value in claims.items():
            out += _flatten(value, f"{prefix}.{key}" if prefix else str(key))
        return out
    return [(prefix, "none" if claims is None else _text(claims))]


def _action(action: Any) -> str:
    """A scripted action as text; a check between actions (``- expect: {purse: 3}``) as what it claims."""
    if isinstance(action, dict) and "expect" in action:
        claims = _flatten(action["expect"] or {})
        return "check: " + ", ".join(f"{key} = {value}" for key, value in claims)
    return _text(action)


def _orders(value: Any) -> tuple[str, ...]:
    """``[a, b]`` is one scripted order; ``[[a, b], []]`` is two (an empty one: any order)."""
    orders = value if isinstance(value, list) and value and all(isinstance(v, list) for v in value) else [value]
    return tuple(_text(order) or "any order" for order in orders)


def _log_line(line: str) -> LogLine:
    kind, sep, text = line.partition(": ")
    if sep and re.fullmatch(r"[a-z][a-z0-9_-]*", kind):
        return LogLine(kind, text)
    return LogLine("", line)


def _roll(value: Any) -> Roll:
    """A scripted roll: ``5``, or ``D8=3`` (a 3 that must come from a D8)."""
    die, sep, face = str(value).partition("=")
    return Roll(face.strip(), die.strip().upper()) if sep else Roll(die.strip(), "")


def _engine_note(message: str, erratum: str) -> str:
    """What the replay found, without repeating the erratum's own reason (``[erratum: ]<reason> (<finding>)``)."""
    rest = message.removeprefix("erratum: ")
    if erratum and rest.startswith(erratum.strip()):
        rest = rest[len(erratum.strip()):].strip()
        return rest[1:-1] if rest.startswith("(") and rest.endswith(")") else rest
    return message


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "example"


def example_view(body: str, result: Any, number: int, aliases: AliasBudget | None = None) -> ExampleView:
    """The box for one ```example block; ``result`` is its ExampleResult, or None when it was not replayed.
    ``aliases``: the alias limit the blocks of its page share."""
    node, _ = parse_yaml(body, "example", aliases)  # the reader that bounds aliases: a block it refuses shows no script
    data = node.plain() if node is not None else None
    data = data if isinstance(data, dict) else {}
    name = str(data.get("name") or (result.name if result is not None else f"Example {number}"))
    verdict = result.verdict if result is not None else "unchecked"
    verdict = "unchecked" if verdict == "not run" else verdict  # --no-code: shown as not replayed, its message says why
    shuffles = data.get("shuffles") if isinstance(data.get("shuffles"), dict) else {}
    setup = data.get("setup") if isinstance(data.get("setup"), dict) else {}
    return ExampleView(
        number=number,
        anchor=f"example-{slug(name)}",
        name=name,
        verdict=verdict,
        verdict_label=VERDICT_LABELS.get(verdict, verdict.capitalize()),
        message=_engine_note(result.message, str(data.get("erratum") or "")) if result is not None else "",
        erratum=str(data.get("erratum") or ""),
        setup=tuple((str(key), _text(value)) for key, value in setup.items()),
        rolls=tuple(_roll(r) for r in data.get("rolls") or () if r is not None),
        shuffles=tuple((str(pile), _orders(order)) for pile, order in shuffles.items()),
        actions=tuple(_action(a) for a in data.get("actions") or ()),
        claims=tuple(_flatten(data.get("expect") or {})),
        log=tuple(_log_line(line) for line in (result.log if result is not None else ())),
        loc=str(result.loc) if result is not None else "",
    )


def results_by_line(page, results) -> dict[int, Any]:
    """Each replayed example of the page by its block's fence line (a result's loc is inside the block)."""
    out = {}
    blocks = [b for b in fenced_blocks(page.text, page.shown) if b.kind == "example"]
    for result in results:
        loc = result.loc
        for block in blocks:
            if getattr(loc, "file", None) == page.shown and block.loc.line <= loc.line <= block.end_line:
                out[block.loc.line] = result
    return out
