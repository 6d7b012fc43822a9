"""Gloombah!'s constants and cards, read once from the Game by ``prepare``."""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.rules.data.fields import dice, record, whole
from deckwright.rules.data.model import Card, Game
from deckwright.rules.engine.dice import Dice
from deckwright.rules.engine.errors import RuleError

ONE = "the Gloombah! rules play with exactly 1"
CONSTANTS = record(
    class_cards_at_setup=whole(min=1, max=1, doc=f"Class cards each player draws at setup ({ONE})"),
    items_at_setup=whole(min=0, doc="Item cards each player draws at setup"),
    gear_slots=whole(min=1, max=1, doc=f"Gear a player wears at once ({ONE})"),
    weapon_slots=whole(min=1, max=1, doc=f"Weapons a player wields at once ({ONE})"),
    start_level=whole(min=1, doc="The level a player starts at, and starts again at after dying"),
    min_attack_points=whole(min=0, doc="Below this many attack points a player is dead"),
    win_level=whole(min=2, doc="Reaching it on one's own turn wins"),
    auto_run_below_level=whole(min=0, doc="Under this level running away always works"),
    run_roll=dice(doc="From the auto-run level on, roll it and reach your level to escape"),
    cards_kept_on_death=whole(min=0, doc="Cards a dead player keeps"),
    monsters_per_turn=whole(min=1, max=1, doc=f"Monsters drawn a turn ({ONE})"),
)


@dataclass(frozen=True)
class Rules:
    class_cards_at_setup: int
    items_at_setup: int
    gear_slots: int
    weapon_slots: int
    start_level: int
    min_attack_points: int
    win_level: int
    auto_run_below_level: int
    cards_kept_on_death: int
    monsters_per_turn: int
    run_roll: Dice
    game: Game  # the cards, and the decks as ``new_game`` deals them

    def card(self, card_id: str) -> Card:
        try:
            return self.game.card(card_id)
        except KeyError:
            raise RuleError(f"no card with id {card_id!r}") from None

    def name(self, card_id: str) -> str:
        return self.card(card_id).name


def prepare(game: Game) -> Rules:
    return Rules(**{name: game.constants[name] for name, _ in CONSTANTS.fields}, game=game)
