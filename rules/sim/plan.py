"""A simulation as data: the game, the options, the sweep grid, and the seeded chunks the work is split into.

Every chunk's seed comes from ``--seed`` and the chunk's number alone (not from the worker that plays it, nor
from how many there are), so the same command gives the same figures on one core, a process pool or a cluster.
A chunk number means the same games in every cell of a sweep: cells are compared on the same seeds (common
random numbers), so a difference between two cells is the options', not the dice's.
"""
from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path

CHUNK_GAMES = 100  # games a chunk plays: small enough for a steady progress bar and a quick Ctrl-C
# The games of a cell: the chunks are planned up front, a million of them at this many games. A typo of a few extra
# digits would otherwise plan chunks until memory ran out.
MAX_GAMES = 100_000_000
# A piece is at most this share of a worker's part of the work still to hand out: whole chunks while much is left,
# pieces that shrink to single games at the end, so that no worker idles long while another plays a last long piece
TAIL_SHARE = 1 / 4


@dataclass(frozen=True)
class GameSource:
    """Where a worker finds the game: the folder by absolute path (or, for a bundled game, its folder name
    under the worker's own installed deckwright), a fixture folder laid over it (or None), and the constants
    played with instead of game.yaml's."""

    folder: str
    fixture: str | None = None
    bundled: bool = False
    constants: tuple = ()  # (name, value) pairs laid over the game's constants (a cell of a sweep of one)

    def path(self) -> Path:
        return bundled_games() / self.folder if self.bundled else Path(self.folder)


def bundled_games() -> Path:
    """The bundled games' folder of the deckwright installed here: ``deckwright/cards`` beside ``deckwright/rules``
    (the repository's ``cards/`` beside ``rules/`` in an editable install), as ``generator.BUNDLED_GAMES`` finds it."""
    return Path(__file__).resolve().parent.parent.parent / "cards"


@dataclass(frozen=True)
class Sweep:
    key: str
    values: tuple


@dataclass(frozen=True)
class Simulation:
    source: GameSource
    games: int  # per cell
    seed: int
    strategy: str
    options: dict = field(default_factory=dict)  # the options every cell shares
    sweeps: tuple[Sweep, ...] = ()
    max_actions: int = 5_000
    constants: frozenset[str] = frozenset()  # the keys of options and sweeps that are the game's constants


@dataclass(frozen=True)
class Chunk:
    source: GameSource
    strategy: str
    options: dict  # the cell's options, the shared ones with the cell's sweep values
    cell: int
    number: int  # within the cell
    seed: int  # the first game's seed; game i of the chunk plays seed + i
    games: int
    max_actions: int


def cells(simulation: Simulation) -> list[dict]:
    """Each cell's sweep values, in grid order (the first sweep varies slowest); one empty cell without sweeps."""
    keys = [sweep.key for sweep in simulation.sweeps]
    return [dict(zip(keys, values)) for values in itertools.product(*(s.values for s in simulation.sweeps))]


def chunk_seed(seed: int, number: int) -> int:
    """A 63-bit seed for chunk ``number`` of a simulation seeded ``seed`` (SHA-256: stable across Python versions
    and machines, unlike ``hash``)."""
    digest = hashlib.sha256(f"deckwright-simulate:{seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def chunks(simulation: Simulation) -> list[Chunk]:
    """The work: ``CHUNK_GAMES`` games a chunk (a cell's last one smaller), chunk 0 of every cell first, then
    chunk 1 of every cell, ...: a run stopped early has played every cell about as much."""
    work = []
    for number, start in enumerate(range(0, simulation.games, CHUNK_GAMES)):
        for index, values in enumerate(cells(simulation)):
            source, options = cell_game(simulation, values)
            work.append(Chunk(source, simulation.strategy, options, index, number, chunk_seed(simulation.seed, number),
                              min(CHUNK_GAMES, simulation.games - start), simulation.max_actions))
    return work


def cell_game(simulation: Simulation, values: dict) -> tuple[GameSource, dict]:
    """Where a cell's games are played (the game with the cell's constants) and the options they are given."""
    given = {**simulation.options, **values}
    constants = tuple((key, value) for key, value in given.items() if key in simulation.constants)
    options = {key: value for key, value in given.items() if key not in simulation.constants}
    return replace(simulation.source, constants=constants) if constants else simulation.source, options


def pieces(work: list[Chunk], workers: int) -> list[Chunk]:
    """The chunks cut for ``workers`` workers taking them in order, guided self-scheduling: a piece is at most
    ``TAIL_SHARE`` of a worker's share of the games not yet handed out, so the first pieces are whole chunks and
    the last are single games. Otherwise a game whose games take up to seconds each (Gloombah!, RT:0) leaves one
    worker idle while the other plays its last piece. A piece is a run of its chunk's games with their seeds, so
    the games and the merged figures are the same however the work is cut."""
    left = sum(chunk.games for chunk in work)
    out = []
    for chunk in work:
        start = 0
        while start < chunk.games:
            size = min(chunk.games - start, max(1, int(left * TAIL_SHARE / workers)))
            out.append(replace(chunk, seed=chunk.seed + start, games=size) if size < chunk.games else chunk)
            start += size
            left -= size
    return out
