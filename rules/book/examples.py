"""Worked examples in rulebook pages, replayed through a game's rules module.

An example is a fenced ```` ```example ```` block of YAML beside the prose it
illustrates (the format and the rules protocol are in ``rules/README.md``).
Its setup and actions are read through the rules module's field definitions
(``SETUP``, ``ACTIONS``) by the same validator as card data, then replayed.
Replaying one gives an ``ExampleResult``:

- verified: every claimed outcome matches the rules;
- erratum: the example is marked as known to disagree, and still does;
- not run: the game's own rules module may not run (``--no-code``);
- failing: an outcome differs, the script cannot be replayed (an impossible,
  missing or left-over roll, an illegal action), an erratum now agrees, the
  event log differs from its golden file or has none, or the verdict changes
  when cards a shuffle leaves unnamed come out in another order.

Golden logs are JSON lines, ``["kind", {data}, "narration"]`` an event, in
``<page>.golden/<example>.jsonl`` beside the page; the facts (kind and data)
are compared, the narration is there for the reader.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from deckwright.rules.data.confine import FileRefused, confined, read_confined, write_confined
from deckwright.rules.data.fields import record
from deckwright.rules.data.model import Game, Page
from deckwright.rules.data.names import file_name_problem
from deckwright.rules.data.schema import did_you_mean
from deckwright.rules.data.specs import read_plain
from deckwright.rules.data.yamlsrc import AliasBudget, YNode, parse_yaml
from deckwright.rules.engine.chance import ScriptedChance, parse_roll
from deckwright.rules.engine.errors import ChanceError, RuleError, SpecError
from deckwright.rules.engine.log import EventLog, brief, fact_difference, fact_of_line, plain_fact, strict
from deckwright.rules.engine.narration import Narrator
from deckwright.rules.engine.timelimit import time_limit
from deckwright.rules.engine.verbs import find_verb
from deckwright.rules.games import rules_module
from deckwright.rules.games.gamecode import RulesInterrupted, definition_loc, module_failure
from deckwright.rules.numbers import unsigned_number
from deckwright.rules.problems import Loc, Problems, display_path

from .pages import fenced_blocks, skipped_fences

EXAMPLE_FENCE = "example"
EXAMPLE_KEYS = ("name", "erratum", "setup", "rolls", "shuffles", "actions", "expect")
GOLDEN_SUFFIX = ".golden"  # golden logs live in <page>.golden/<example>.jsonl beside the page
GOLDEN_EXTENSION = ".jsonl"
ORDER_SEEDS = (1, 2, 3, 4)  # other orders for the cards a shuffle leaves unnamed


@dataclass(frozen=True)
class ExampleResult:
    """One worked example replayed: verdict is verified, erratum or failing."""

    game: str
    name: str
    loc: object
    verdict: str
    message: str = ""
    log: tuple[str, ...] = ()  # "kind: narration", one line an event
    trace: str = ""  # the traceback of an exception the rules module raised, for --traceback
    order: str = ""  # when the verdict depends on an order left open: one to write (``shuffles: {...}``), whole

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
        return golden_folder(self.page) / f"{self.slug}{GOLDEN_EXTENSION}"


def golden_folder(page: Page) -> Path:
    return page.path.parent / f"{page.path.stem}{GOLDEN_SUFFIX}"


# -- reading ---------------------------------------------------------------------


def find_examples(game: Game) -> list[Example]:
    """Every example block of every rulebook page, in page order."""
    examples: list[Example] = []
    seen: dict[str, Loc] = {}
    for page in game.pages:
        aliases = AliasBudget()  # a page's blocks share one alias limit, as one file's YAML does
        for block in fenced_blocks(page.text, page.shown):
            if block.kind != EXAMPLE_FENCE:
                continue
            example = _read_block(game, page, block, aliases)
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
        aliases = AliasBudget()
        for block in fenced_blocks(page.text, page.shown):
            if block.kind != EXAMPLE_FENCE:
                continue
            node, _ = parse_yaml(block.body, page.shown, aliases)
            name = node.get("name") if node is not None and node.kind == "map" else None
            if name is not None and name.kind == "scalar" and name.value is not None:
                names.add(str(name.value).strip())
    return names


def example_warnings(game: Game, examples: list[Example], problems: Problems) -> None:
    """Example fences the reader skips, and golden logs that belong to no example."""
    for page in game.pages:
        for loc in skipped_fences(page.text, page.shown, EXAMPLE_FENCE):
            problems.warning(loc, "this looks like an example fence but opens no example block "
                                  "(write ```example at the start of a line, or indented in a list item)")
    wanted = {example.golden_path for example in examples}
    for page in game.pages:
        folder = golden_folder(page)
        if folder.is_symlink() or not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path not in wanted:
                problems.warning(Loc(display_path(path)), f"a golden log with no example on {page.shown} "
                                                          f"(renamed or removed?); delete it")


def _read_block(game: Game, page: Page, block, aliases: AliasBudget) -> Example:
    # Padding with blank lines makes YAML locations count from the top of the page.
    node, problems = parse_yaml("\n" * (block.body_line - 1) + block.body, page.shown, aliases)
    if block.indent and node is not None:
        node = _shifted(node, block.indent)
    fallback = f"example at line {block.loc.line}"
    if problems:
        loc = problems[0].loc
        return Example(game.slug, fallback, page, block.loc, None, problems[0].message,
                       replace(loc, col=loc.col + block.indent))
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


def _shifted(node: YNode, columns: int) -> YNode:
    """The node with every location moved right (the block was dedented before it was parsed)."""
    loc = replace(node.loc, col=node.loc.col + columns)
    if node.kind == "map":
        return node._replace(loc=loc, value=tuple((_shifted(k, columns), _shifted(v, columns)) for k, v in node.value))
    if node.kind == "seq":
        return node._replace(loc=loc, value=tuple(_shifted(item, columns) for item in node.value))
    return node._replace(loc=loc)


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


def replay_game_examples(game: Game, update_golden: bool = False, module=None,
                         examples: list[Example] | None = None) -> list[ExampleResult]:
    examples = find_examples(game) if examples is None else examples
    if not examples:
        return []
    module = module or rules_module(game)
    rules = _prepare(module, game)
    return [replay_example(game, example, module, update_golden, rules) for example in examples]


def _prepare(module, game: Game):
    """The module's prepared rules, or the exception preparing them raised (each example reports it)."""
    if module is None:
        return None
    try:
        with time_limit():
            return module.prepare(game)
    except Exception as exc:  # a bug in the rules module, or data it cannot play with (or an endless loop)
        return exc


@dataclass(frozen=True)
class _Run:
    """One replay: the log, the claims that differ, or what stopped it."""

    log: EventLog
    mismatches: tuple[tuple[Loc, str], ...] = ()
    stopped: str = ""  # why the replay could not go on
    stopped_at: Loc | None = None
    free_orders: int = 0  # shuffles whose unnamed cards could come out in more than one order
    trace: str = ""  # the traceback when the rules module raised
    dealt: tuple = ()  # every shuffle's order as it came out: (pile, ids top first, whether its rest was free)

    @property
    def verdict(self) -> str:
        return "stopped" if self.stopped else ("differs" if self.mismatches else "agrees")


def replay_example(game: Game, example: Example, module=None, update_golden: bool = False,
                   rules: Any = None) -> ExampleResult:
    def result(verdict: str, message: str = "", loc: Loc | None = None, log: EventLog | None = None,
               trace: str = "", order: str = "") -> ExampleResult:
        return ExampleResult(example.game, example.name, loc or example.loc, verdict, message,
                             tuple(log.lines()) if log is not None else (), trace, order)

    if example.problem:
        return result("failing", example.problem, example.problem_loc)
    if module is None and game.mechanics and not game.run_code:
        return result("not run", "--no-code skips the game's own rules module")
    if module is None:
        return result("failing", "the game has no rules module to replay it with (game.yaml 'mechanics:')")
    rules = _prepare(module, game) if rules is None else rules
    if isinstance(rules, Exception):
        failure = module_failure(rules, module)
        return result("failing", f"the rules cannot prepare this game: {failure.said}", trace=failure.trace)
    run = _replay(game, example, module, rules, None)
    if run.stopped:
        return result("failing", run.stopped, run.stopped_at, run.log, run.trace)
    if run.free_orders:
        for seed in ORDER_SEEDS:
            other = _replay(game, example, module, rules, seed)
            if other.verdict != run.verdict:
                unsteady = _unsteady(game, example, module, rules, run)
                if unsteady is not None:  # not the order: the rules give another result for the same script
                    return result("failing", _unsteady_message(run, unsteady), example.loc, unsteady.log)
                order = _shuffles_text(next((r for r in (run, other) if r.verdict == "agrees"), run))
                return result("failing", _order_message(run, other, seed, order), example.loc, other.log,
                              order=order)
    return _verdict(example, run, update_golden, result)


def _unsteady(game: Game, example: Example, module, rules, run: _Run) -> _Run | None:
    """A replay in file order again that differs from ``run``, the first (None when every one agrees): rules
    that are not deterministic (Python's random, the clock, a set's order) change their verdict without any
    order changing."""
    for _ in ORDER_SEEDS:
        again = _replay(game, example, module, rules, None)
        if again.verdict != run.verdict or again.log.facts() != run.log.facts():
            return again
    return None


def _unsteady_message(run: _Run, again: _Run) -> str:
    return (f"the rules are not deterministic: replayed the same way, the example gives another result (rules code "
            f"asks the chance object it is given for every random outcome, never Python's random, the clock or a "
            f"set's order); once it is {_outcome(run)}, then {_outcome(again)}")


def _order_message(run: _Run, other: _Run, seed: int, order: str) -> str:
    """``order``, the one to write, comes first: a long message is cut at the end on the terminal."""
    which = "the one in which its claims hold" if "agrees" in (run.verdict, other.verdict) else "the file order"
    return (f"the verdict depends on an order the example leaves open: name it under 'shuffles:' (top card first) "
            f"as the source gives it, or as the example's own choice, such as {which}: {order}; with the cards its "
            f"shuffles do not name in file order it is {_outcome(run)}, in another order (permutation {seed}) "
            f"{_outcome(other)}")


def _shuffles_text(run: _Run) -> str:
    """The orders of the piles whose rest was left free, as they came out, in the example's own words:
    ``shuffles: {deck: [scratch, poke, wound]}`` (a pile shuffled twice: a list of its orders)."""
    free = {pile for pile, _, was_free in run.dealt if was_free}
    orders: dict[str, list[str]] = {}
    for pile, ids, _ in run.dealt:
        if pile in free:
            orders.setdefault(pile, []).append(f"[{', '.join(ids)}]")
    piles = [f"{pile}: {texts[0] if len(texts) == 1 else '[' + ', '.join(texts) + ']'}"
             for pile, texts in orders.items()]
    return f"shuffles: {{{', '.join(piles)}}}"


def _outcome(run: _Run) -> str:
    if run.stopped:
        return f"failing ({run.stopped})"
    if run.mismatches:
        return f"failing ({'; '.join(message for _, message in run.mismatches)})"
    return "verified"


def _replay(game: Game, example: Example, module, rules, rest_seed: int | None) -> _Run:
    node = example.node
    log = EventLog(Narrator(getattr(module, "NARRATION", None), rules))
    chance = ScriptedChance([item.value for item in _items(node.get("rolls"))],
                            _plain_shuffles(node.get("shuffles")), log, rest_seed)
    mismatches: list[tuple[Loc, str]] = []
    piece, piece_loc = node.get("setup"), node.loc

    def stop(message: str, loc: Loc, trace: str = "") -> _Run:
        return _Run(log, tuple(mismatches), message, loc, chance.free_orders, trace, tuple(chance.dealt))

    try:
        with time_limit():  # an endless loop in the rules fails this example, and the next is replayed
            chance.step = f"the setup (line {piece_loc.line})"
            spec, problems = _setup_spec(game, module, node)
            if problems:
                return stop("; ".join(p.message for p in problems), problems[0].loc)
            state = module.setup(rules, spec, chance, log)
            if state is None:
                return stop(f"{chance.step}: setup(rules, spec, chance, log) returned None, not a state "
                            f"{_def_of(module, 'setup')}", piece_loc)
            for number, piece in enumerate(_items(node.get("actions")), start=1):
                piece_loc = piece.loc
                if piece.kind == "map" and piece.keys() == ["expect"]:
                    _compare(piece.get("expect"), _observed(module, state), "", mismatches)
                    continue
                chance.step = f"action {number} ({_summary(piece)}, line {piece.loc.line})"
                action, problems = _action(game, module, piece, number)
                if problems:
                    return stop("; ".join(p.message for p in problems), problems[0].loc)
                state = module.apply(state, action, chance, log)
                if state is None:  # a missing `return`: said here, not as the next call's AttributeError
                    return stop(f"{chance.step}: apply(state, {action!r}) returned None, not a state "
                                f"{_def_of(module, 'apply')}", piece_loc)
            piece, piece_loc = None, node.loc
            chance.step = "at the end of the example"
            chance.finish()
            expect = node.get("expect")
            if expect is not None and expect.kind == "map":
                piece_loc = expect.loc
                _compare(expect, _observed(module, state), "", mismatches)
    except SpecError as exc:
        return stop(str(exc), _loc_of(piece, exc.key) if piece is not None else piece_loc)
    except ChanceError as exc:
        return stop(str(exc), _script_loc(node, exc.place) or piece_loc)
    except RuleError as exc:
        return stop(str(exc), piece_loc)
    except _NotObserved as exc:
        return stop(f"{chance.step}: {exc}", piece_loc)
    except Exception as exc:  # a bug in the rules module (or an endless loop); this example's failure, at its line
        failure = module_failure(exc, module)
        return stop(f"{chance.step}: the rules {failure.said}", piece_loc, failure.trace)
    except KeyboardInterrupt as exc:  # Ctrl-C: what was running, said by the command as it stops
        raise RulesInterrupted.of(exc, module, f"replaying the example '{example.name}' of {game.slug}, "
                                               f"{chance.step}") from None
    return _Run(log, tuple(mismatches), free_orders=chance.free_orders, dealt=tuple(chance.dealt))


class _NotObserved(Exception):
    """``observe(state)`` gave something an example's claims cannot be read from."""


def _observed(module, state) -> dict:
    observed = module.observe(state)
    if not isinstance(observed, dict):
        raise _NotObserved(f"observe(state) returned {_a(observed)}, not a mapping of outcome names to values "
                           f"{_def_of(module, 'observe')}")
    return observed


def _a(value: Any) -> str:
    name = type(value).__name__
    return "None" if value is None else f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def _def_of(module, name: str) -> str:
    """``(rules.py:61)``: where the module defines ``name``, or "" where that is not in the module's folder."""
    loc = definition_loc(module, name)
    return f"({loc.file}:{loc.line})" if loc is not None else ""


def _setup_spec(game: Game, module, node: YNode) -> tuple[dict, list]:
    """The example's setup read through the module's SETUP definition (plain values when it declares none)."""
    setup = node.get("setup")
    if setup is None or (setup.kind == "scalar" and setup.scalar_type == "null"):
        setup = YNode("map", node.loc, ())
    fdef = getattr(module, "SETUP", None)
    if fdef is None:
        return setup.plain(), []
    if callable(fdef):  # a setup whose fields follow the game's own card types
        fdef = fdef(game)
    return read_plain(setup, fdef, "setup", game)


def _action(game: Game, module, node: YNode, number: int) -> tuple[Any, list]:
    """One action read through the module's verb table: the verb known, its value and options valid."""
    verbs = getattr(module, "ACTIONS", None)
    if verbs is None:
        return node.plain(), []
    path = f"action {number}"
    if node.kind == "scalar" and node.scalar_type == "str":
        entry = find_verb(verbs, node.value, keyed=False)
        if not entry.bare:
            raise SpecError(f"'{node.value}' needs a value: {{{node.value}: ...}}")
        return node.value, []
    if node.kind != "map" or not node.value:
        raise SpecError("an action is a word such as 'draw' or a mapping such as {play: card}")
    verb_key, value_node = node.value[0]
    verb = str(verb_key.value)
    entry = find_verb(verbs, verb, keyed=True)
    problems: list = []
    value: Any = value_node.plain()
    if entry.bare and value is not None:  # ``{skip: null, player: 2}``: a bare verb given options only
        alone = f"{{{verb}: null, {entry.options[0][0]}: ...}}" if entry.options else f"'- {verb}'"
        raise SpecError(f"'{verb}' takes no value; write {alone}", (verb,))
    if not entry.bare:
        value, problems = read_plain(value_node, entry.value, f"{path}.{verb}", game)
    options: dict = {}
    if len(node.value) > 1 or entry.options:
        rest = YNode("map", node.loc, node.value[1:])
        options, more = read_plain(rest, record(**dict(entry.options)), path, game)
        problems += more
    return {verb: value, **options}, problems


def _verdict(example: Example, run: _Run, update_golden: bool, result) -> ExampleResult:
    erratum, mismatches, log = example.erratum, run.mismatches, run.log
    if not mismatches and erratum is not None:
        return result("failing", f"marked as an erratum ({erratum}) but now agrees with the rules; "
                                 f"remove its 'erratum:' line", log=log)
    text = ""
    if mismatches:
        loc = mismatches[0][0]
        text = "; ".join(f"line {where.line}: {message}" if where != loc else message for where, message in mismatches)
        if erratum is None:
            return result("failing", text, loc, log)
    golden = _golden(example, log, update_golden)  # an erratum's log is pinned too
    if golden:
        return result("failing", golden, log=log)
    if mismatches:
        return result("erratum", f"{erratum} ({text})", mismatches[0][0], log)
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
        if path.parent.exists() or path.parent.is_symlink():
            confined(root, path.parent)  # a <page>.golden folder that links elsewhere: said, not "no golden log"
        return None
    try:
        return read_confined(root, path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})") from None


def _golden(example: Example, log: EventLog, update: bool) -> str:
    """A message when the log differs from its golden file or has none; "" when it matches (or was just written)."""
    path = example.golden_path
    try:
        text = log.golden()
    except (TypeError, ValueError) as exc:
        return f"an event's data is not plain JSON ({exc}); the rules module must log ids, numbers, text, lists and mappings"
    try:
        stored = golden_file(example, text if update else None)
    except FileRefused as exc:
        return f"its golden file {display_path(path)}: {exc.message}"
    if update:
        return ""
    if stored is None:
        return (f"no golden log {display_path(path)}: every example's event log is kept beside its page; "
                f"run deckwright check --update-golden to write it, and read it")
    return _golden_difference(path, stored.splitlines(), log)


def _golden_difference(path: Path, golden: list[str], log: EventLog) -> str:
    actual = log.events
    for number in range(1, max(len(golden), len(actual)) + 1):
        try:
            want = fact_of_line(golden[number - 1]) if number <= len(golden) else None
        except ValueError:
            return f"line {number} of the golden file {display_path(path)} is not a [kind, data, narration] line"
        got = plain_fact(actual[number - 1]) if number <= len(actual) else None
        if strict(want) == strict(got):
            continue
        if got is None:
            where = f"at event {number}: the log ends, where the golden file has event '{want[0]}' ({brief(want[1])})"
        elif want is None:
            where = f"at event {number}: event '{got[0]}' ({brief(got[1])}), after the golden file's last"
        else:
            where = f"at event {number} ({want[0]}): {fact_difference(want, got)}"
        return (f"the event log differs from its golden file {display_path(path)} {where} (if the change is right, "
                f"run deckwright check --update-golden)")
    return ""


def _plain_shuffles(node: YNode | None) -> dict[str, list[list[str]]]:
    if node is None or node.kind != "map":
        return {}
    return {str(key.value): [[str(card.value) for card in order.value] for order in _orders(value)]
            for key, value in node.value}


def _script_loc(example: YNode, place: tuple | None) -> Loc | None:
    """Where the example's script holds the entry at ``place`` (a ``ChanceError``'s): a roll of ``rolls:``, or an
    order of ``shuffles:`` or a card in one; None where it does not."""
    if not place:
        return None
    if place[0] == "rolls":
        rolls = _items(example.get("rolls"))
        return rolls[place[1]].loc if place[1] < len(rolls) else None
    shuffles = example.get("shuffles")
    pile = shuffles.get(place[1]) if shuffles is not None and shuffles.kind == "map" else None
    orders = _orders(pile) if pile is not None else []
    if place[2] >= len(orders):
        return None
    if len(place) == 3:
        return orders[place[2]].loc
    names = _items(orders[place[2]])
    return names[place[3]].loc if place[3] < len(names) else None


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
        if strict(want) != strict(actual):
            out.append((expected.loc, f"{path or 'value'}: expected {_show(want)}, got {_show(actual)}"))
        return
    if not isinstance(actual, dict):
        out.append((expected.loc, f"{path}: expected {_show(expected.plain())}, got {_show(actual)}"))
        return
    for key, value in expected.value:
        target, where = actual, path
        for part in str(key.value).split("."):
            where = f"{where}.{part}" if where else part
            index = unsigned_number(part)
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, (list, tuple)) and index is not None and 1 <= index <= len(target):
                target = target[index - 1]
            else:
                known = list(target) if isinstance(target, dict) else []
                listed = f" (it reports: {', '.join(map(str, known))})" if known else ""
                out.append((key.loc, f"{where}: the game reports no such outcome{did_you_mean(part, known)}{listed}"))
                break
        else:
            _compare(value, target, where, out)


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
