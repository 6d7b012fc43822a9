"""The conformance suite: what every rules module must do, checked on a module object.

The same checks run for the bundled games, the test fixtures and a game
folder's own module (``deckwright check`` runs them on whatever module the game
names, and a module loaded by path through ``rules.games.load_rules_file`` is
checked the same way):

- the protocol's names are present, and its functions take the right
  parameters, every one annotated (``rules.engine.protocol``);
- ``prepare`` reads the game;
- random play of N seeded games ends, keeps the cards conserved and the
  game's invariants after every action;
- ``apply`` never changes the state it is given (a deep comparison before and
  after, in the first games);
- the same seed gives the same event log; observations, legal actions and
  event data are JSON-plain, and every event kind is narrated without error;
- ``apply_in_place``, when the module has it, gives the events and states ``apply``
  gives: the first games are played both ways, and compared step by step;
- the optional names ``deckwright simulate`` reads have their shape: ``OPTIONS`` a
  record definition, ``CARD_FACTS`` a table of (fact, data key), and
  ``outcome(state)`` of every finished game a (name, win) pair.

Each problem is located in the module's own code: at the line an exception or the time limit
(``rules.engine.timelimit``) stopped it, else at the definition of the name the problem is about
(``apply``'s ``def`` line for an ``apply`` that changes its input), or the module's file.

A game whose bundled content cannot be played (its source leaves a deck or a
value open, and ``new_game`` says so with an OpenRuleError) is not failed: the
note says what is missing.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from deckwright.rules.data.schema import FieldDef
from deckwright.rules.engine.errors import EngineError
from deckwright.rules.engine.log import EventLog
from deckwright.rules.engine.narration import Narrator
from deckwright.rules.engine.odds import tables_problems
from deckwright.rules.engine.openvalues import OpenRuleError
from deckwright.rules.engine.protocol import OPTIONAL_FUNCTIONS, REQUIRED_FUNCTIONS, outcome_problem
from deckwright.rules.engine.randomplay import play
from deckwright.rules.engine.timelimit import RulesTimedOut, game_seconds, time_limit
from deckwright.rules.engine.verbs import Verb
from deckwright.rules.games.gamecode import CodeFailure, RulesInterrupted, definition_loc, module_failure
from deckwright.rules.problems import Loc, Problem, display_path

from .snapshots import Snapshots

PARAMETERS = {"prepare": 1, "setup": 4, "new_game": 4, "apply": 4, "legal_actions": 1, "is_over": 1, "zones": 1,
              "observe": 1, "invariants": 1, "consistency": 2, "odds": 1, "layout_data": 1,
              "outcome": 1, "apply_in_place": 4}
GAMES = 20  # seeded random games
WATCHED_GAMES = 2  # of which every step is also checked for purity and plain values
MAX_ACTIONS = 5_000


@dataclass
class Conformance:
    problems: list[Problem] = field(default_factory=list)  # promises of the protocol the module breaks, located
    traces: list[str] = field(default_factory=list)  # tracebacks of what the module raised, for --traceback
    notes: list[str] = field(default_factory=list)  # what could not be checked, and why
    games: int = 0  # random games played to the end

    @property
    def ok(self) -> bool:
        return not self.problems


def check_module(module, game, games: int = GAMES, options: dict | None = None,
                 max_actions: int = MAX_ACTIONS) -> Conformance:
    """Every conformance check of ``module`` on ``game`` (random play with ``options``)."""
    report = Conformance()
    report.problems += located(module, protocol_problems(module, game), game)
    if report.problems:
        return report
    try:
        with time_limit():
            rules = module.prepare(game)
    except Exception as exc:  # the module cannot read this game's data (or loops)
        report.problems.append(_raised("prepare(game)", exc, module, report, game))
        return report
    report.problems += located(module, [("odds", p) for p in odds_problems(module, rules)], game)
    try:
        _random_play(module, game, rules, games, options or {}, max_actions, report)
    except KeyboardInterrupt as exc:  # Ctrl-C: what was running, said by the command as it stops
        raise RulesInterrupted.of(exc, module, f"playing random games of {game.slug} (the conformance "
                                               f"suite)") from None
    return report


def located(module, problems: list, game=None) -> list[Problem]:
    """``(name, message)`` pairs as problems at the module's definition of ``name`` (its file, where it has no
    such name or it lies outside the module's folder)."""
    return [Problem(_place(module, name, game), message) for name, message in problems]


def _place(module, name: str, game) -> Loc:
    loc = definition_loc(module, name)
    if loc is None:
        file = getattr(module, "__file__", None)
        loc = Loc(display_path(file)) if file else (game.loc if game is not None else Loc(getattr(module, "__name__", "?")))
    return loc


def odds_problems(module, rules) -> list[str]:
    """``odds(rules)``, when the module has it: named OddsTables whose chances lie between 0 and 1, exactly."""
    if getattr(module, "odds", None) is None:
        return []
    try:
        with time_limit():
            tables = module.odds(rules)
    except OpenRuleError:
        return []  # the odds need a value the source leaves open: the site says so
    except Exception as exc:
        return [f"odds(rules) {module_failure(exc, module).said}"]
    return tables_problems(tables)


def _raised(what: str, exc: Exception, module, report: Conformance, game) -> Problem:
    """``what`` raised ``exc`` (or ran out of time), at the line of the module's own code it came from; the
    traceback kept for --traceback."""
    failure: CodeFailure = module_failure(exc, module)
    report.traces.append(failure.trace)
    return Problem(failure.loc or _place(module, "", game), f"{what} {failure.said_at_loc}")


# -- the protocol's names ------------------------------------------------------------


def protocol_problems(module, game=None) -> list[tuple[str, str]]:
    """What the module lacks of the protocol, as (the name it is about, message); SETUP may be a function of the
    game (checked on ``game``)."""
    problems = []
    setup = getattr(module, "SETUP", None)
    if callable(setup) and game is not None:
        try:
            setup = setup(game)
        except Exception as exc:
            problems.append(("SETUP", f"SETUP(game) raised {module_failure(exc, module)}"))
    checks = (("CONSTANTS", getattr(module, "CONSTANTS", None), _record), ("SETUP", setup, _record),
              ("ACTIONS", getattr(module, "ACTIONS", None), _verbs),
              ("NARRATION", getattr(module, "NARRATION", None), _narration))
    for name, value, check in checks:
        if value is None:
            problems.append((name, f"{name} is missing"))
        else:
            problems += [(name, f"{name}: {p}") for p in check(value)]
    for name in REQUIRED_FUNCTIONS:
        if not hasattr(module, name):
            problems.append((name, f"{name}() is missing"))
        else:
            problems += [(name, p) for p in _signature_problems(name, getattr(module, name))]
    for name in OPTIONAL_FUNCTIONS:
        if hasattr(module, name):
            problems += [(name, p) for p in _signature_problems(name, getattr(module, name))]
    return problems + simulator_problems(module)


def simulator_problems(module) -> list[tuple[str, str]]:
    """The optional names ``deckwright simulate`` reads, in their shape: ``OPTIONS``, ``CARD_FACTS``, ``STRATEGIES``."""
    options = getattr(module, "OPTIONS", None)
    problems = [("OPTIONS", f"OPTIONS: {p}") for p in _record(options)] if options is not None else []
    return (problems + [("CARD_FACTS", p) for p in card_facts_problems(module)]
            + [("STRATEGIES", p) for p in strategies_problems(module)])


def _record(value) -> list[str]:
    return [] if isinstance(value, FieldDef) and value.type == "record" else ["expected a record field definition"]


def _verbs(value) -> list[str]:
    if not isinstance(value, dict) or not value:
        return ["expected a mapping of verbs to Verb"]
    return [f"'{name}' is not a Verb" for name, verb in value.items() if not isinstance(verb, Verb)]


def _narration(value) -> list[str]:
    if not isinstance(value, dict):
        return ["expected a mapping of event kinds to functions (data, rules) -> str"]
    return [f"'{kind}' is not callable" for kind, say in value.items() if not callable(say)]


def _signature_problems(name: str, function) -> list[str]:
    if not callable(function):
        return [f"{name} is not a function"]
    signature = inspect.signature(function)
    params = [p for p in signature.parameters.values() if p.default is inspect.Parameter.empty
              and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    problems = []
    if len(params) != PARAMETERS[name]:
        problems.append(f"{name}() takes {len(params)} parameter(s) without a default; the protocol passes {PARAMETERS[name]}")
    bare = [p.name for p in signature.parameters.values() if p.annotation is inspect.Parameter.empty]
    if bare:
        problems.append(f"{name}(): parameter(s) {', '.join(bare)} not annotated")
    if signature.return_annotation is inspect.Signature.empty:
        problems.append(f"{name}(): no return annotation")
    return problems


# -- random play ----------------------------------------------------------------------


class _Broken(EngineError):
    """A step broke a promise the watched games check; ``name`` is the protocol name that broke it."""

    def __init__(self, message: str, name: str = "apply"):
        super().__init__(message)
        self.name = name


def _random_play(module, game, rules, games: int, options: dict, max_actions: int, report: Conformance) -> None:
    """Random play, watched in the first games; it stops with a note where play reaches a value the source
    leaves open (the game's content cannot be played further), and with a problem for anything else."""
    def problem(name: str, message: str) -> None:
        report.problems.append(Problem(_place(module, name, game), message))

    try:
        first = _watched_game(module, rules, 0, options, max_actions)
        again = _watched_game(module, rules, 0, options, max_actions, watch=False)
        if again.lines() != first.lines() or again.facts() != first.facts():
            problem("apply", "seed 0 played twice gives two different event logs: "
                             + _first_difference(first.lines(), again.lines())
                             + " (rules code asks the chance object it is given, never Python's random)")
        for seed in range(1, WATCHED_GAMES):
            _watched_game(module, rules, seed, options, max_actions)
        for seed in range(WATCHED_GAMES if getattr(module, "apply_in_place", None) else 0):
            report.problems += located(module, _in_place_problems(module, rules, seed, options, max_actions), game)
    except OpenRuleError as exc:
        report.notes.append(f"random play stops at a value the source leaves open: {exc}")
        return
    except _Broken as exc:
        problem(exc.name, f"random play: {exc}")
        return
    except Exception as exc:
        report.problems.append(_raised("random play", exc, module, report, game))
        return
    for seed in range(games):
        try:
            with time_limit(game_seconds(max_actions)):
                result = play(module, rules, seed, max_actions, options)
        except OpenRuleError as exc:
            report.notes.append(f"seed {seed}: random play stops at a value the source leaves open: {exc}")
            return
        except Exception as exc:
            report.problems.append(_raised(f"seed {seed}: random play", exc, module, report, game))
            if isinstance(exc, RulesTimedOut):
                return  # a loop is told once, not waited on again for every seed
            continue
        if result.problems:
            problem(_broken_by(result.problems[0]), f"seed {seed}: {result.problems[0]}")
        elif not result.over:
            problem("is_over", f"seed {seed}: the game did not end within {max_actions} actions")
        else:
            report.games += 1
            try:
                with time_limit():
                    found = outcome_problems(module, result.state)
            except RulesTimedOut as exc:  # at the line of outcome() that was running; told once
                report.problems.append(_raised(f"seed {seed}: outcome()", exc, module, report, game))
                return
            report.problems += located(module, [("outcome", f"seed {seed}: {p}") for p in found], game)


def _broken_by(problem: str) -> str:
    """The protocol name a problem of random play is about: a stall is legal_actions', a broken rule apply's."""
    return "legal_actions" if "no legal action" in problem else "apply"


def outcome_problems(module, state) -> list[str]:
    """What is wrong with ``outcome(state)`` of a finished game: it must be (text, true/false/None)."""
    outcome = getattr(module, "outcome", None)
    if outcome is None:
        return []
    try:
        value = outcome(state)
    except RulesTimedOut:
        raise  # the caller's time limit ran out: reported where the code stood
    except Exception as exc:
        return [f"outcome() raised {type(exc).__name__}: {exc}"]
    problem = outcome_problem(value)
    return [problem] if problem else []


def card_facts_problems(module) -> list[str]:
    """``CARD_FACTS`` must map event kinds to ("drawn" or "played", a data key)."""
    table = getattr(module, "CARD_FACTS", None)
    if table is None:
        return []
    if not isinstance(table, dict):
        return ["CARD_FACTS: expected a mapping of event kinds to (fact, data key)"]
    return [f"CARD_FACTS['{kind}']: expected ('drawn' or 'played', a data key), got {entry!r}"
            for kind, entry in table.items()
            if not (isinstance(entry, tuple) and len(entry) == 2 and entry[0] in ("drawn", "played")
                    and isinstance(entry[1], str))]


def strategies_problems(module) -> list[str]:
    """``STRATEGIES`` must map names to players: functions ``choose(state, actions, chance) -> action``."""
    table = getattr(module, "STRATEGIES", {})  # None too is no mapping: simulate reads it as one
    if not isinstance(table, Mapping):
        return ["STRATEGIES: expected a mapping of names to functions (state, actions, chance) -> action"]
    return [f"STRATEGIES[{name!r}]: expected a name and a function (state, actions, chance) -> action"
            for name, choose in table.items() if not (isinstance(name, str) and callable(choose))]


def _watched_game(module, rules, seed: int, options: dict, max_actions: int, watch: bool = True) -> EventLog:
    """One game with a full event log; with ``watch``, every step checked for purity and plain values."""
    log = EventLog(_checked_narrator(module, rules))
    target = _Watched(module, rules) if watch else module
    with time_limit(game_seconds(max_actions)):
        result = play(target, rules, seed, max_actions, options, log=log)
    if result.problems:
        raise _Broken(result.problems[0], _broken_by(result.problems[0]))
    if watch:
        for event in log.events:
            bad = plain_problems(event.data, f"event '{event.kind}'")
            if bad:
                raise _Broken(bad[0])
    return log


def _in_place_problems(module, rules, seed: int, options: dict, max_actions: int) -> list[tuple[str, str]]:
    """Where ``apply_in_place`` departs from ``apply``: the game of ``seed`` played both ways, its state after
    every action and its events compared."""
    ways = [_Stepped(module, rules) for _ in range(2)]
    logs = [EventLog(_checked_narrator(module, rules)) for _ in ways]
    for way, log, in_place in zip(ways, logs, (False, True)):
        with time_limit(game_seconds(max_actions)):
            play(way, rules, seed, max_actions, options, log=log, in_place=in_place)
    copied, in_place = ways
    for number, (action, a, b) in enumerate(zip(copied.actions, copied.states, in_place.states), start=1):
        if a != b:
            return [("apply_in_place", f"seed {seed}: apply_in_place gives another state than apply after action "
                                       f"{number} ({action!r})")]
    if len(copied.states) != len(in_place.states):
        return [("apply_in_place", f"seed {seed}: apply_in_place plays {len(in_place.states)} actions, "
                                   f"apply {len(copied.states)}")]
    if logs[0].facts() != logs[1].facts():
        return [("apply_in_place", f"seed {seed}: apply_in_place logs other events than apply: "
                 + _first_difference([str(f) for f in logs[0].facts()], [str(f) for f in logs[1].facts()]))]
    return []


class _Stepped:
    """The module with the state after every ``apply`` or ``apply_in_place`` kept (as a snapshot)."""

    def __init__(self, module, rules):
        self._module, self._snapshots = module, Snapshots({id(rules)})
        self.actions: list = []
        self.states: list = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def _kept(self, new, action):
        self.actions.append(action)
        self.states.append(self._snapshots.take(new))
        return new

    def apply(self, state, action, chance, log):
        return self._kept(self._module.apply(state, action, chance, log), action)

    def apply_in_place(self, state, action, chance, log):
        return self._kept(self._module.apply_in_place(state, action, chance, log), action)


def _checked_narrator(module, rules) -> Callable:
    narrator = Narrator(module.NARRATION, rules)

    def narrate(kind, data) -> str:
        try:
            text = narrator(kind, data)
        except Exception as exc:
            raise _Broken(f"narrating a '{kind}' event raised {type(exc).__name__}: {exc}", "NARRATION") from None
        if not isinstance(text, str):
            raise _Broken(f"narrating a '{kind}' event gave {type(text).__name__}, not text", "NARRATION")
        return text
    return narrate


class _Watched:
    """The module with ``apply`` and ``legal_actions`` checked at every step."""

    def __init__(self, module, rules):
        self._module = module
        self._snapshots = Snapshots({id(rules)})  # the prepared rules are shared by design; not snapshotted

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def new_game(self, rules, options, chance, log):
        state = self._module.new_game(rules, options, chance, log)
        if state is None:
            raise _Broken("new_game(rules, options, chance, log) returned None, not a state", "new_game")
        return state

    def legal_actions(self, state) -> list:
        actions = self._module.legal_actions(state)
        bad = plain_problems(actions, "legal_actions()")
        if bad:
            raise _Broken(bad[0], "legal_actions")
        return actions

    def apply(self, state, action, chance, log):
        before = self._snapshots.take(state)
        try:
            new = self._module.apply(state, action, chance, log)
        except OpenRuleError:
            raise
        except EngineError as exc:
            raise _Broken(f"the legal action {action!r} was refused: {exc}") from None
        if new is None:  # a missing `return`: said here, not as the next call's AttributeError
            raise _Broken(f"apply(state, {action!r}) returned None, not a state")
        if self._snapshots.take(state) != before:
            raise _Broken(f"apply(state, {action!r}) changed the state it was given")
        observed = self._module.observe(new)
        if not isinstance(observed, dict):
            raise _Broken(f"observe(state) returned a {type(observed).__name__}, not a mapping of outcome names "
                          f"to values (an example's expect: claims them by name)", "observe")
        bad = plain_problems(observed, "observe()")
        if bad:
            raise _Broken(bad[0], "observe")
        return new


def plain_problems(value: Any, where: str) -> list[str]:
    """Why ``value`` is not JSON-plain (dicts with text keys, lists, text, numbers, true/false, null); [] when it is."""
    if value is None or isinstance(value, (str, bool, int)):
        return []
    if isinstance(value, float):
        return [] if math.isfinite(value) else [f"{where}: {value} is not a finite number"]
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in plain_problems(item, f"{where}[{i}]")]
    if isinstance(value, dict):
        out = [f"{where}: key {key!r} is not text" for key in value if not isinstance(key, str)]
        return out + [p for key, item in value.items() for p in plain_problems(item, f"{where}.{key}")]
    return [f"{where}: {type(value).__name__} {value!r} is not JSON-plain"]


def _first_difference(first: list[str], second: list[str]) -> str:
    for number, (a, b) in enumerate(zip(first, second), start=1):
        if a != b:
            return f"event {number}: {a!r} then {b!r}"
    return f"{len(first)} events, then {len(second)}"
