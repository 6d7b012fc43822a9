"""A ``deckwright simulate`` run from its command-line values: checked, planned, played, summed up."""
from __future__ import annotations

import traceback
from dataclasses import replace
from pathlib import Path

from deckwright.rules.ci.conformance import located, simulator_problems
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.openvalues import OpenRuleError
from deckwright.rules.engine.randomplay import play
from deckwright.rules.engine.timelimit import game_seconds, time_limit
from deckwright.rules.games.gamecode import RulesCodeError, module_failure
from deckwright.rules.problems import InvalidGame

from . import backends
from .options import OptionError, canonical_key, checked, is_constant, parse_options, parse_sweeps
from .plan import GameSource, Simulation, Sweep, bundled_games, cell_game, cells, chunks
from .tally import content_digest, summary
from .worker import Prepared, game_at, prepared, strategies

MORE_TRIALS = 7  # trial games played after a first one is blocked, to name every open value a deal may reach


class SimulationError(Exception):
    """The game cannot be simulated as asked (no rules, an open value blocks play): exit 1. ``lines`` are the
    open questions that may be why, one ``file:line:col`` each."""

    def __init__(self, message: str, lines: tuple[str, ...] = (), trace: str = ""):
        super().__init__(message)
        self.lines = lines
        self.trace = trace  # the rules code's traceback, for --traceback


def plan(folder: Path, fixture: Path | None, games: int, seed: int, strategy: str | None, option_texts: list[str],
         sweep_texts: list[str], max_actions: int) -> Simulation:
    """The simulation the command asks for, every option checked; OptionError for a wrong command (exit 2),
    SimulationError for a game that cannot be played (exit 1)."""
    asked_sweeps = parse_sweeps(sweep_texts)  # before the game is loaded: a grid too large is said at once
    folder = folder.resolve()
    bundled = folder.parent == bundled_games().resolve()
    source = GameSource(folder.name if bundled else str(folder), str(fixture.resolve()) if fixture else None, bundled)
    ready = _prepared(source)
    game, module = ready.game, ready.module
    if module is None:
        raise SimulationError(f"{game.slug} has no rules module (mechanics:), so it cannot be played")
    misshapen = simulator_problems(module)
    if misshapen:
        raise InvalidGame(located(module, misshapen, game))
    offered = strategies(module)
    strategy = strategy or next(iter(offered))
    if strategy not in offered:
        raise OptionError(f"--strategy {strategy}: {game.slug} offers {', '.join(offered)}")
    options = {}
    for key, value in parse_options(option_texts):
        canonical = canonical_key(key, module, game)
        if canonical in options:
            raise OptionError(f"--option {key}: '{canonical}' is given twice; give it once")
        options[canonical] = value
    sweeps = tuple(Sweep(canonical_key(s.key, module, game), s.values) for s in asked_sweeps)
    for sweep in sweeps:
        if sweep.key in options:
            raise OptionError(f"--option and --sweep both set '{sweep.key}': the sweep plays each of its values")
    constants = frozenset(key for key in [*options, *(s.key for s in sweeps)] if is_constant(key, module, game))
    for key, value in [*options.items(), *((s.key, v) for s in sweeps for v in s.values)]:
        if key in constants and not _plain(value):
            raise OptionError(f"{key}={value}: a constant is given one plain value (a number, a word, true/false)")
    shared = {**checked({k: v for k, v in options.items() if k not in constants}, module, game, "--option"),
              **{k: v for k, v in options.items() if k in constants}}
    simulation = Simulation(source, games, seed, strategy, shared, sweeps, max_actions, constants)
    for values in cells(simulation):
        cell_source, cell_options = cell_game(simulation, values)
        cell_options = checked(cell_options, module, game, "--sweep")
        cell = _prepared(cell_source)  # the game with the cell's constants, each read as game.yaml's
        blocked = what_blocks(cell, cell_options, offered[strategy], max_actions)
        if blocked:
            for seed in range(1, MORE_TRIALS + 1):  # other deals may reach other open values: all are said at once
                more = what_blocks(cell, cell_options, offered[strategy], max_actions, seed)
                if more and more not in blocked:
                    blocked += f"; {more}"
            raise SimulationError(cannot_play(game, blocked))
    return simulation


def _prepared(source: GameSource) -> Prepared:
    """``prepared(source)``; the rules module's failure in ``prepare(game)`` a SimulationError at its line."""
    try:
        return prepared(source)
    except RulesCodeError as exc:
        raise SimulationError(f"the rules module's prepare(game) {exc.failure.said}",
                              trace=exc.failure.trace) from None


def _plain(value) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def cannot_play(game, why: str) -> str:
    """The message for content that stops play, with what to do about it."""
    return (f"{game.slug} cannot be played with its content as it is: {why}. Supply what is missing with "
            f"--option key=value or --fixture FOLDER (YAML card files laid over a copy of the game's); "
            f"deckwright check {game.slug} lists its {len(game.open_questions)} open questions")


def what_blocks(ready, options: dict, choose, max_actions: int, seed: int = 0) -> str | None:
    """Why a trial game cannot be played: the open value it reaches, or a stall (no legal action: random play
    never picks one that needs an open value); None otherwise (a broken rule is the workers' to report)."""
    try:
        with time_limit(game_seconds(max_actions)):
            result = play(ready.module, ready.rules, seed, max_actions, options, choose=choose)
    except OpenRuleError as exc:
        return str(exc)
    except SpecError as exc:  # new_game cannot read an option (a level the game does not have)
        raise OptionError(f"option {exc}") from None
    except Exception as exc:  # the rules code failed: one line, located in its own files
        failure = module_failure(exc, ready.module)
        raise SimulationError(f"the trial game (seed {seed}) failed: the rules code {failure.said}",
                              trace=traceback.format_exc()) from None
    if result.problems and "no legal action" in result.problems[0]:
        definition = getattr(ready.module, "OPTIONS", None)
        given = ", ".join(options) or "none"
        named = ", ".join(f"{name} ({field.doc})" if field.doc else name for name, field in definition.fields) \
            if definition is not None else ""
        takes = f"; the game's options: {named} (given: {given})" if named else ""
        return f"a game stalls with no legal action (every action left needs a value the source leaves open){takes}"
    return None


def game_of(simulation: Simulation):
    return prepared(simulation.source).game


def missing_hooks(simulation: Simulation) -> list[str]:
    """What the report lacks for want of an optional protocol name in the game's rules module, one line each."""
    module = prepared(simulation.source).module
    asked = [key for key in [*simulation.options, *(s.key for s in simulation.sweeps)] if key not in simulation.constants]
    wanting = [("OPTIONS", asked, "the options given are passed to new_game unchecked (a misspelt key is not noticed)"),
               ("outcome", True, "no win rates: outcome(state) names a finished game's result and whether it is won"),
               ("CARD_FACTS", True, "no per-card figures: CARD_FACTS names the events that draw and play a card")]
    return [f"note: {why}; see OPTIONS, outcome and CARD_FACTS in rules/README.md"
            for name, relevant, why in wanting if relevant and getattr(module, name, None) is None]


def run(simulation: Simulation, scheduler: str | None, done=lambda result: None) -> dict:
    """The figures of every cell; on Ctrl-C those of the games finished so far, marked interrupted."""
    game = game_of(simulation)
    own = content_digest(game_at(replace(simulation.source, fixture=None))) if simulation.source.fixture else None
    try:
        results = backends.run(chunks(simulation), scheduler, done)
    except backends.Interrupted as stop:
        return summary(simulation, game, stop.results, interrupted=True, own_content=own)
    return summary(simulation, game, results, own_content=own)
