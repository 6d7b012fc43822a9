"""One chunk of games, played where a worker runs: in this process, a pool's process or a Dask worker.

A worker needs the same deckwright installed and the game folder (and the fixture folder, if any) at the path
the chunk names; it loads the game once per process and keeps it for the chunks that follow. The result is
plain counts (picklable, JSON-ready), merged by ``tally``.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from deckwright.rules.ci.fixtures import load_overlaid
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.openvalues import OpenRuleError
from deckwright.rules.engine.protocol import outcome_problem
from deckwright.rules.engine.randomplay import play, random_choice
from deckwright.rules.engine.timelimit import game_seconds, time_limit
from deckwright.rules.games import rules_module
from deckwright.rules.games.gamecode import RulesCodeError, definition_loc, module_failure
from deckwright.rules.load import load_game

from .plan import Chunk, GameSource


class PlayStopped(Exception):
    """A game could not go on: an open value reached (``open_value``), a broken rule, no legal action, the rules
    code failing (the message says which; ``trace`` is its traceback, for --traceback). All are in ``args``, so the
    exception crosses process boundaries whole."""

    def __init__(self, message: str, open_value: bool = False, trace: str = ""):
        super().__init__(message, open_value, trace)
        self.open_value = open_value
        self.trace = trace

    def __str__(self) -> str:
        return self.args[0]


UNFINISHED = "unfinished"  # the game did not end within the most actions allowed
ENDED = "ended"  # the game ended, and its module names no outcome


@dataclass(frozen=True)
class Prepared:
    game: Any
    module: Any
    rules: Any
    cards: frozenset  # the game's card ids, to tell a card from any other value in an event


def game_at(source: GameSource):
    """The game of ``source``, the fixture laid over a copy of it (in a temporary folder this process removes
    when it ends)."""
    folder = source.path()
    if source.fixture is None:
        return load_game(folder)
    scratch = Path(tempfile.mkdtemp(prefix="deckwright-simulate-"))
    atexit.register(shutil.rmtree, scratch, True)
    return load_overlaid(folder, Path(source.fixture), scratch / folder.name)


@lru_cache(maxsize=8)  # read once a process for all the chunks it plays (a bench's worker keeps the five games)
def prepared(source: GameSource) -> Prepared:
    game = game_at(source)
    module = rules_module(game)
    if source.constants:
        from .options import with_constants

        game = with_constants(game, module, source.constants)
    try:
        with time_limit():
            rules = module.prepare(game) if module is not None else None  # no rules module: plan() says so
    except Exception as exc:  # the rules module's own failure, located in its code
        raise RulesCodeError(module_failure(exc, module)) from None
    return Prepared(game, module, rules, frozenset(card.id for card in game.cards))


def strategies(module) -> dict[str, Callable]:
    """The players a module offers: its own ``STRATEGIES`` first, then ``random``."""
    return {**getattr(module, "STRATEGIES", {}), "random": random_choice}


class CardFactLog(frozenset):
    """A log that keeps only the card facts of a chunk's games, from the events a module's ``CARD_FACTS`` table
    names: ``{event kind: (fact, data key)}`` with fact ``drawn`` or ``played`` and the key's value a card id or a
    list of them (other values, such as ``none``, are not cards and are skipped). It is the set of those kinds, so
    that ``kind in log`` is answered in C and rules code that asks it builds no other event.

    A hot path may hand it the cards without the event (``card_facts`` is true): ``drew(cards)`` and
    ``played(card)`` are the lists' own ``extend`` and ``append``, called in C. ``game_over(won)`` closes each
    game; ``figures()`` counts the chunk's facts at its end (in C)."""

    # slots: rules code reads card_facts, drew and played at every card fact (an attribute in a slot is read fastest)
    __slots__ = ("card_facts", "cards", "drawn_ids", "played_ids", "drew", "played", "routes", "played_in",
                 "won_with", "game_starts_at")

    def __new__(cls, table: dict, cards: frozenset):
        return super().__new__(cls, table)

    def __init__(self, table: dict, cards: frozenset):
        self.card_facts = True
        self.cards = cards
        self.drawn_ids, self.played_ids = [], []  # what the events name, in order, over all the games
        self.drew, self.played = self.drawn_ids.extend, self.played_ids.append
        named = {"drawn": self.drawn_ids, "played": self.played_ids}
        self.routes = {kind: (named[fact], key) for kind, (fact, key) in table.items()}
        self.played_in: list = []  # each game's cards played (once a game), and again when the game was won
        self.won_with: list = []
        self.game_starts_at = 0  # where the game being played begins in played_ids

    def __bool__(self) -> bool:
        return True

    def add(self, kind: str, **data) -> None:
        route = self.routes.get(kind)
        if route is None:
            return
        named, key = route
        value = data.get(key)
        if isinstance(value, (list, tuple)):
            named.extend(value)
        else:
            named.append(value)

    def game_over(self, won: bool) -> None:
        """The game being played has ended (``won``: a win); the next one starts."""
        played = self.played_ids
        in_game = self.cards.intersection(played[self.game_starts_at:])
        self.game_starts_at = len(played)
        self.played_in += in_game
        if won:
            self.won_with += in_game

    def figures(self) -> dict[str, list[int]]:
        """Card id -> [times drawn, times played, games played in, wins when played] over the games closed so far
        (a value that is no card is left out), in card id order."""
        counted = [Counter(filter(self.cards.__contains__, self.drawn_ids)),
                   Counter(filter(self.cards.__contains__, self.played_ids)),
                   Counter(self.played_in), Counter(self.won_with)]
        named = set().union(*counted)
        return {card: [counts[card] for counts in counted] for card in sorted(named)}


def run_chunk(chunk: Chunk) -> dict:
    """Play the chunk's games; their counts: outcomes, wins, lengths (actions), and per card drawn / played."""
    ready = prepared(chunk.source)
    module, rules = ready.module, ready.rules
    choose = strategies(module)[chunk.strategy]
    outcome = getattr(module, "outcome", None)
    table = getattr(module, "CARD_FACTS", None)
    outcomes, lengths = Counter(), Counter()
    wins, scored = 0, False
    seconds = game_seconds(chunk.max_actions)
    log = CardFactLog(table, ready.cards) if table else NULL_LOG
    with time_limit(seconds) as clock:  # set up once a chunk, restarted for each game
        for i in range(chunk.games):
            seed = chunk.seed + i
            clock.restart()
            try:
                result = play(module, rules, seed, chunk.max_actions, chunk.options, choose=choose, log=log,
                              check_every=chunk.max_actions + 1, in_place=True)
                ended = outcome(result.state) if outcome and result.over and not result.problems else None
            except OpenRuleError as exc:
                raise PlayStopped(str(exc), open_value=True) from None
            except Exception as exc:  # the rules code failed or ran out of time, in play or in outcome(): at its line
                failure = module_failure(exc, module)
                raise PlayStopped(f"game seed {seed}: the rules {failure.said}", trace=failure.trace) from None
            if result.problems:  # play checks the cards and invariants at the end of every game
                raise PlayStopped(f"game seed {seed}: {result.problems[0]}")
            wrong = outcome_problem(ended) if ended is not None else None
            if wrong:
                at = definition_loc(module, "outcome")
                raise PlayStopped(f"game seed {seed}: {wrong}" + (f" ({at.file}:{at.line})" if at else ""))
            if result.over:
                name, won = ended or (ENDED, None)
                scored |= won is not None  # the game has a winning side (an unfinished game is no win)
            else:
                name, won = UNFINISHED, False
            outcomes[name] += 1
            lengths[result.actions] += 1
            wins += bool(won)
            if table:
                log.game_over(bool(won))
    return {"cell": chunk.cell, "number": chunk.number, "games": chunk.games, "wins": wins,
            "scored": scored, "outcomes": dict(outcomes), "lengths": dict(lengths),
            "cards": log.figures() if table else {}}
