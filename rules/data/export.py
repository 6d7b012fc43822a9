"""The validated game as plain JSON-ready data (the build's ``game.json``)."""
from __future__ import annotations

from typing import Any

from deckwright.rules.engine.dice import Dice

from .model import Game, Reading
from .schema import Ref
from .values import Open, Range


def plain(value: Any) -> Any:
    if isinstance(value, Open):
        return {"open": value.note}
    if isinstance(value, (Dice, Range, Ref)):
        return str(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def game_data(game: Game) -> dict[str, Any]:
    return {
        "title": game.title,
        "slug": game.slug,
        "players": str(game.players),
        "summary": game.summary,
        "decks": {
            deck.id: {"name": deck.name, "size": {"name": deck.size.name, "width_mm": deck.size.width, "height_mm": deck.size.height},
                      "count": plain(deck.count), "cards": game.deck_total(deck.id)}
            for deck in game.decks.values()
        },
        "constants": plain(game.constants),
        "cards": [
            {"id": c.id, "name": c.name, "type": c.type, "deck": c.deck or None, "copies": plain(c.copies), **plain(c.fields)}
            for c in game.cards
        ],
        "open_questions": [{"about": q.subject, "note": q.note, "where": str(q.loc)} for q in game.open_questions],
        "source": game.source,
        "readings": [reading_data(r) for r in game.readings],
    }


def reading_data(reading: Reading) -> dict[str, Any]:
    return {
        "id": reading.id, "kind": reading.kind, "title": reading.title,
        "source": [{"section": p.section, "line": str(p.lines), "says": p.says} for p in reading.places],
        "readings": dict(reading.options), "chosen": reading.chosen, "why": reading.why,
        "pending": {"plays": reading.pending.plays, "change": reading.pending.change} if reading.pending else None,
        "depends": {key: list(getattr(reading.depends, key)) for key in ("examples", "pages", "cards", "constants", "tests")},
        "where": str(reading.loc),
    }
