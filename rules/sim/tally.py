"""Chunk results merged into each cell's figures, and the whole simulation as JSON-plain data.

Merging adds counts, so the order chunks finish in (which depends on the backend) changes nothing; the figures
are rounded to six places, so the JSON is the same bytes for the same counts.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .plan import Simulation, cells
from .stats import histogram_mean, histogram_quantile, wilson


@dataclass
class CellCounts:
    games: int = 0
    wins: int = 0
    scored: bool = False  # the module's outcome says which games are wins
    outcomes: Counter = field(default_factory=Counter)
    lengths: Counter = field(default_factory=Counter)
    cards: dict = field(default_factory=dict)  # card id -> [drawn, played, games played in, wins when played]

    def add(self, result: dict) -> None:
        self.games += result["games"]
        self.wins += result["wins"]
        self.scored |= result["scored"]
        self.outcomes.update(result["outcomes"])
        self.lengths.update({int(k): v for k, v in result["lengths"].items()})
        for card, counts in result["cards"].items():
            mine = self.cards.setdefault(card, [0, 0, 0, 0])
            for i, n in enumerate(counts):
                mine[i] += n


def merged(simulation: Simulation, results) -> list[CellCounts]:
    counts = [CellCounts() for _ in cells(simulation)]
    for result in results:
        counts[result["cell"]].add(result)
    return counts


def _round(x: float) -> float:
    return round(x, 6)


def _rate(successes: int, trials: int) -> dict:
    low, high = wilson(successes, trials)
    return {"rate": _round(successes / trials) if trials else None, "low": _round(low), "high": _round(high)}


def cell_figures(values: dict, counts: CellCounts, card_order: list[str]) -> dict:
    lengths = counts.lengths
    figures = {
        "sweep": values,
        "games": counts.games,
        "win": {"wins": counts.wins, **_rate(counts.wins, counts.games)} if counts.scored else None,
        "length": {"mean": _round(histogram_mean(lengths)), "q1": histogram_quantile(lengths, 0.25),
                   "median": histogram_quantile(lengths, 0.5), "q3": histogram_quantile(lengths, 0.75),
                   "min": min(lengths, default=0), "max": max(lengths, default=0)},
        "outcomes": dict(sorted(counts.outcomes.items())),
        "cards": {},
    }
    for card in card_order:
        if card not in counts.cards:
            continue
        drawn, played, games_played, wins_played = counts.cards[card]
        figures["cards"][card] = {
            "drawn": drawn, "played": played, "games_played": games_played,
            "win_when_played": {"wins": wins_played, **_rate(wins_played, games_played)} if counts.scored else None}
    return figures


# How the figures' JSON file begins (``summary`` written with an indent of 2, "game" its first key): a file that does
# not is not one deckwright wrote, and ``simulate --json`` leaves it alone.
FIGURES_OPENING = b'{\n  "game": '


def summary(simulation: Simulation, game, results, interrupted: bool = False, own_content: str | None = None) -> dict:
    """The simulation as it is written to JSON: what was asked, then each cell's figures in grid order.
    ``own_content``: the digest of the game's own cards, where a fixture was laid over them (a build compares it
    with the game's cards then)."""
    card_order = [card.id for card in game.cards]  # file order, as the game lists them
    names = {card.id: card.name for card in game.cards}
    counts = merged(simulation, results)
    return {
        "game": game.slug,
        "title": game.title,
        "strategy": simulation.strategy,
        "seed": simulation.seed,
        "games_per_cell": simulation.games,
        "max_actions": simulation.max_actions,
        "options": simulation.options,
        # made-up content laid over the game's (its folder's name): the figures are not the game's own balance
        "fixture": Path(simulation.source.fixture).name if simulation.source.fixture else None,
        "content": own_content or content_digest(game),  # the build says when the game's cards changed since
        "sweeps": [{"key": s.key, "name": _key_name(s.key, game), "values": list(s.values)} for s in simulation.sweeps],
        "interrupted": interrupted,
        "games_played": sum(c.games for c in counts),
        "card_names": {card: names[card] for card in card_order if any(card in c.cards for c in counts)},
        "cells": [cell_figures(values, c, card_order) for values, c in zip(cells(simulation), counts)],
    }


def _key_name(key: str, game) -> str:
    """How a sweep's key is shown: the name of the card type it picks (Nightmare Hunt's ``armor``: Armour)."""
    card_type = game.card_types.get(key)
    return card_type.name if card_type is not None else key


def content_digest(game) -> str:
    """A short digest of what play reads: every card's id, type, deck, copies and fields, and the constants
    (an open value by its kind: the note and place of an open value change no game)."""
    cards = [[c.id, c.type, c.deck, c.copies, c.fields] for c in game.cards]
    text = json.dumps([cards, game.constants], sort_keys=True, ensure_ascii=False,
                      default=lambda value: f"<{type(value).__name__}>")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
