"""Worked examples in rulebook pages, replayed through a game's mechanics module.

An example is a fenced ```` ```example ```` block of YAML beside the prose it
illustrates (the format and the mechanics protocol are in ``rules/README.md``).
Replaying one gives an ``ExampleResult``:

- verified: every claimed outcome matches the rules;
- erratum: the example is marked as known to disagree, and still does;
- failing: an outcome differs, the script cannot be replayed (an impossible,
  missing or left-over roll, an illegal action), an erratum now agrees, or
  the event log drifted from its golden file.
"""
from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckwright.rules.data.confine import FileRefused, read_confined, write_confined
from deckwright.rules.data.model import Game, Page
from deckwright.rules.data.names import file_name_problem
from deckwright.rules.data.schema import did_you_mean
from deckwright.rules.data.yamlsrc import YNode, parse_yaml
from deckwright.rules.engine.chance import ScriptedChance, parse_roll
from deckwright.rules.engine.errors import ChanceError, RuleError, SpecError
from deckwright.rules.engine.log import EventLog
from deckwright.rules.games import mechanics_module
from deckwright.rules.problems import Loc

from .pages import fenced_blocks

EXAMPLE_FENCE = "example"
EXAMPLE_KEYS = ("name", "erratum", "setup", "rolls", "shuffles", "actions", "expect")
GOLDEN_SUFFIX = ".golden"  # golden logs live in <page>.golden/<example>.log beside the page


@dataclass(frozen=True)
class ExampleResult:
    """One worked example replayed: verdict is verified, erratum or failing."""

    game: str
    name: str
    loc: object
    verdict: str
    message: str = ""
    log: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"{self.loc}: {self.name}: {self.verdict}"
        return f"{text}: {self.message}" if self.message else text


class _Unreadable(Exception):
    def __init__(self, loc: Loc, message: str):
        super().__init__(message)
        self.loc = loc
        self.message = message


@dataclass(frozen=True)
class Example:
    """One example block, read but not yet replayed."""

    game: str  # the game's slug
    name: str
    page: Page
    loc: Loc  # the ``name:`` line (or the fence when there is none)
    node: YNode | None  # the block's YAML, with locations as lines of the page
    problem: str = ""  # why the block cannot be replayed, if it cannot
    problem_loc: Loc | None = None

    @property
    def erratum(self) -> str | None:
        node = self.node.get("erratum") if self.node is not None else None
        return str(node.value) if node is not None else None

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") or "example"

    @property
    def golden_path(self) -> Path:
        return self.page.path.parent / f"{self.page.path.stem}{GOLDEN_SUFFIX}" / f"{self.slug}.log"


# -- reading ---------------------------------------------------------------------


def find_examples(game: Game) -> list[Example]:
    """Every example block of every rulebook page, in page order."""
    examples: list[Example] = []
    seen: dict[str, Loc] = {}
    for page in game.pages:
        for block in fenced_blocks(page.text, page.shown):
            if block.kind != EXAMPLE_FENCE:
                continue
            example = _read_block(game, page, block)
            first = seen.get(example.slug)
            if first is not None and not example.problem:
                example = Example(example.game, example.name, page, example.loc, example.node,
                                  f"another example is named the same way at {first}; names are unique within a game",
                                  example.loc)
            seen.setdefault(example.slug, example.loc)
            examples.append(example)
    return examples


def example_names(pages) -> set[str]:
    """The names of the readable example blocks of these pages (what a readings register may point at)."""
    names = set()
    for page in pages:
        for block in fenced_blocks(page.text, page.shown):
            if block.kind != EXAMPLE_FENCE:
                continue
            node, _ = parse_yaml(block.body, page.shown)
            name = node.get("name") if node is not None and node.kind == "map" else None
            if name is not None and name.kind == "scalar" and name.value is not None:
                names.add(str(name.value).strip())
    return names


def _read_block(game: Game, page: Page, block) -> Example:
    # Padding with blank lines makes YAML locations count from the top of the page.
    node, problems = parse_yaml("\n" * (block.body_line - 1) + block.body, page.shown)
    fallback = f"example at line {block.loc.line}"
    if problems:
        return Example(game.slug, fallback, page, block.loc, None, problems[0].message, problems[0].loc)
    if node is None or node.kind != "map":
        what = "nothing" if node is None else node.describe()
        return Example(game.slug, fallback, page, block.loc, None,
                       f"an example is a YAML mapping with name, setup, actions and expect; got {what}", block.loc)
    name_node = node.get("name")
    name = str(name_node.value).strip() if name_node is not None and name_node.kind == "scalar" else ""
    loc = name_node.loc if name_node is not None else block.loc
    try:
        _check_shape(node)
        if not name:
            raise _Unreadable(loc, "an example needs 'name:', the name its test is reported under")
    except _Unreadable as exc:
        return Example(game.slug, name or fallback, page, loc, node, exc.message, exc.loc)
    return Example(game.slug, name, page, loc, node)


_SHAPES = {"name": "scalar", "erratum": "scalar", "setup": "map", "rolls": "seq", "shuffles": "map",
           "actions": "seq", "expect": "map"}
_SHAPE_WORDS = {"scalar": "text", "map": "a mapping", "seq": "a list"}


def _check_shape(node: YNode) -> None:
    for key, value in node.value:
        if key.value not in EXAMPLE_KEYS:
            raise _Unreadable(key.loc, f"example: unknown key '{key.value}'{did_you_mean(key.value, list(EXAMPLE_KEYS))} "
                                       f"(an example has {', '.join(EXAMPLE_KEYS)})")
        if value.kind != _SHAPES[key.value] and not (value.kind == "scalar" and value.scalar_type == "null"):
            raise _Unreadable(value.loc, f"example {key.value}: expected {_SHAPE_WORDS[_SHAPES[key.value]]}, "
                                         f"got {value.describe()}")
    for item in _items(node.get("rolls")):
        try:
            parse_roll(item.value if item.kind == "scalar" else None)
        except ValueError as exc:
            raise _Unreadable(item.loc, f"example rolls: {exc}") from None
    shuffles = node.get("shuffles")
    for key, value in (shuffles.value if shuffles is not None and shuffles.kind == "map" else ()):
        for order in _orders(value):
            if order.kind != "seq" or any(card.kind != "scalar" for card in order.value):
                raise _Unreadable(order.loc, f"example shuffles.{key.value}: an order is a list of card ids, top first")
    if node.get("actions") is None and node.get("expect") is None:
        raise _Unreadable(node.loc, "an example needs 'actions:' or 'expect:'; otherwise it claims nothing")


def _items(node: YNode | None) -> tuple:
    return node.value if node is not None and node.kind == "seq" else ()


def _orders(node: YNode) -> list[YNode]:
    """``[a, b]`` is one order; ``[[a, b], [c]]`` is two."""
    if node.kind == "seq" and node.value and all(item.kind == "seq" for item in node.value):
        return list(node.value)
    return [node]


# -- replaying -------------------------------------------------------------------


def replay_game_examples(game: Game, update_golden: bool = False) -> list[ExampleResult]:
    examples = find_examples(game)
    if not examples:
        return []
    module = mechanics_module(game)
    return [replay_example(game, example, module, update_golden) for example in examples]


def replay_example(game: Game, example: Example, module=None, update_golden: bool = False) -> ExampleResult:
    def result(verdict: str, message: str = "", loc: Loc | None = None, log: EventLog | None = None) -> ExampleResult:
        return ExampleResult(example.game, example.name, loc or example.loc, verdict, message,
                             tuple(log.lines()) if log is not None else ())

    if example.problem:
        return result("failing", example.problem, example.problem_loc)
    if module is None:
        return result("failing", f"the game has no mechanics module to replay it with (game.yaml 'mechanics:')")
    node = example.node
    log = EventLog()
    chance = ScriptedChance([item.value for item in _items(node.get("rolls"))],
                            _plain_shuffles(node.get("shuffles")), log)
    mismatches: list[tuple[Loc, str]] = []
    piece, piece_loc = node.get("setup"), node.loc
    try:
        chance.step = f"the setup (line {piece_loc.line})"
        state = module.setup(game, piece.plain() if piece is not None and piece.kind == "map" else {}, chance, log)
        for number, piece in enumerate(_items(node.get("actions")), start=1):
            piece_loc = piece.loc
            if piece.kind == "map" and piece.keys() == ["expect"]:
                _compare(piece.get("expect"), module.observe(state), "", mismatches)
                continue
            chance.step = f"action {number} ({_summary(piece)}, line {piece.loc.line})"
            state = module.apply(state, piece.plain(), chance, log)
        piece, piece_loc = None, node.loc
        chance.step = "at the end of the example"
        chance.finish()
        expect = node.get("expect")
        if expect is not None and expect.kind == "map":
            _compare(expect, module.observe(state), "", mismatches)
    except SpecError as exc:
        return result("failing", str(exc), _loc_of(piece, exc.key) if piece is not None else piece_loc, log)
    except (ChanceError, RuleError) as exc:
        return result("failing", str(exc), piece_loc, log)
    except Exception as exc:  # a bug in the mechanics module; report it as this example's failure
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return result("failing", f"{chance.step}: the rules raised {type(exc).__name__}: {exc} "
                                 f"({Path(where.filename).name}:{where.lineno})", piece_loc, log)
    return _verdict(example, mismatches, log, update_golden, result)


def _verdict(example: Example, mismatches, log: EventLog, update_golden: bool, result) -> ExampleResult:
    erratum = example.erratum
    if not mismatches and erratum is not None:
        return result("failing", f"marked as an erratum ({erratum}) but now agrees with the rules; "
                                 f"remove its 'erratum:' line", log=log)
    golden = _golden(example, log, update_golden) if not mismatches or erratum is not None else ""
    if golden and not mismatches:
        return result("failing", golden, log=log)
    if mismatches:
        loc = mismatches[0][0]
        text = "; ".join(f"line {where.line}: {message}" if where != loc else message for where, message in mismatches)
        if erratum is not None:
            return result("erratum", f"{erratum} ({text})", loc, log)
        return result("failing", text, loc, log)
    return result("verified", log=log)


def golden_file(example: Example, text: str | None = None) -> str | None:
    """The example's golden log (None when it has none) or, given ``text``, that text written as it.

    Through rules.data.confine, inside the page's folder: a golden log that links elsewhere, is a folder or a
    pipe, is larger than a card file may be or is not UTF-8 raises FileRefused, and so does a ``<page>.golden``
    folder that links elsewhere when the log is written."""
    path, root = example.golden_path, example.page.path.parent
    problem = file_name_problem(path.name)
    if problem:
        raise FileRefused(f"{problem}; rename the example")
    if text is not None:
        if golden_file(example) != text:
            write_confined(root, path, text.encode("utf-8"))
        return text
    if not (path.exists() or path.is_symlink()):
        return None
    try:
        return read_confined(root, path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})") from None


def _golden(example: Example, log: EventLog, update: bool) -> str:
    """A message when the log differs from the golden file (or the file was just written); else ""."""
    path = example.golden_path
    text = log.text()
    try:
        stored = golden_file(example, text if update else None)
    except FileRefused as exc:
        return f"its golden file {_shown(path)}: {exc.message}"
    if update or stored is None:
        return ""
    golden = stored.splitlines()
    actual = text.splitlines()
    if golden == actual:
        return ""
    for number, (want, got) in enumerate(zip(golden, actual), start=1):
        if want != got:
            break
    else:
        number = min(len(golden), len(actual)) + 1
        want = golden[number - 1] if number <= len(golden) else "(end of log)"
        got = actual[number - 1] if number <= len(actual) else "(end of log)"
    return (f"the event log differs from its golden file {_shown(path)} at event {number}: "
            f"expected '{want}', got '{got}' (if the change is right, run deckwright check --update-golden)")


def _shown(path: Path) -> str:
    from deckwright.rules.problems import display_path
    return display_path(path)


def _plain_shuffles(node: YNode | None) -> dict[str, list[list[str]]]:
    if node is None or node.kind != "map":
        return {}
    return {str(key.value): [[str(card.value) for card in order.value] for order in _orders(value)]
            for key, value in node.value}


def _summary(node: YNode) -> str:
    value = node.plain()
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def _loc_of(node: YNode, key: tuple) -> Loc:
    """The location of the value at ``key`` inside ``node``, or as deep as it exists."""
    for part in key:
        if node.kind == "map":
            child = node.get(str(part))
        elif node.kind == "seq" and isinstance(part, int) and 0 <= part < len(node.value):
            child = node.value[part]
        else:
            child = None
        if child is None:
            break
        node = child
    return node.loc


# -- comparing claimed outcomes ---------------------------------------------------------


def _compare(expected: YNode, actual: Any, path: str, out: list[tuple[Loc, str]]) -> None:
    """Every claim in ``expected`` checked against the observed values; a mapping claims only its keys."""
    if expected.kind != "map":
        want = expected.plain()
        if _normal(want) != _normal(actual):
            out.append((expected.loc, f"{path or 'value'}: expected {_show(want)}, got {_show(actual)}"))
        return
    if not isinstance(actual, dict):
        out.append((expected.loc, f"{path}: expected {_show(expected.plain())}, got {_show(actual)}"))
        return
    for key, value in expected.value:
        target, where = actual, path
        for part in str(key.value).split("."):
            where = f"{where}.{part}" if where else part
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, (list, tuple)) and part.isdigit() and 1 <= int(part) <= len(target):
                target = target[int(part) - 1]
            else:
                known = list(target) if isinstance(target, dict) else []
                listed = f" (it reports: {', '.join(map(str, known))})" if known else ""
                out.append((key.loc, f"{where}: the game reports no such outcome{did_you_mean(part, known)}{listed}"))
                break
        else:
            _compare(value, target, where, out)


def _normal(value: Any) -> Any:
    if isinstance(value, bool):  # so that true never equals 1
        return ("bool", value)
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _normal(v) for k, v in value.items()}
    return value


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)
