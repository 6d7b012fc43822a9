"""Nightmare Hunt's data checks that the schema cannot make, run by ``deckwright check``."""
from __future__ import annotations

from deckwright.rules.data.model import Game
from deckwright.rules.problems import Problems

from .numbers import ENCOUNTER_TYPES


def consistency(game: Game, problems: Problems) -> None:
    constants = game.constants
    mind, body = constants.get("mind"), constants.get("body")
    if isinstance(mind, int) and isinstance(body, int) and body > mind:
        problems.error(game.constant_loc("body"),
                       f"game.constants.body: Body {body} is above Mind {mind}; Body can never be higher than Mind")
    copies = constants.get("action_copies")
    for card in game.cards_of("action"):
        if card.deck and card.copies != copies:
            problems.error(card.loc, f"action.{card.id}: {card.copies} copies; every action card has "
                                     f"{copies} (constant action_copies)")
    by_id = {card.id: card for card in game.cards}
    for card in [c for c in game.cards if c.type in ENCOUNTER_TYPES]:
        for summoned in [*(card.get("summons") or ()), *(step.get("summon") for ability in card.get("abilities") or ()
                                                         for step in ability["steps"] if step.get("summon"))]:
            target = by_id.get(str(summoned))
            if target is None or target.type != "prey":
                problems.error(getattr(summoned, "loc", card.loc), f"{card.type}.{card.id}: summons '{summoned}', "
                                                                   f"which is not a prey card")
        energies = [ability["energy"] for ability in card.get("abilities") or ()]
        if energies != sorted(energies) or len(set(energies)) != len(energies):
            problems.error(card.field_locs.get("abilities", card.loc),
                           f"{card.type}.{card.id}.abilities: list them by rising energy, each cost once "
                           f"(got {', '.join(map(str, energies))})")
    for deck in game.decks:
        encounter_cards = [c for c in game.cards_in(deck) if c.type in ENCOUNTER_TYPES]
        if not encounter_cards:
            continue
        bosses = [c for c in encounter_cards if c.type == "boss"]
        if len(bosses) != 1 or encounter_cards[-1].type != "boss":
            problems.error(game.decks[deck].loc, f"decks.{deck}: an encounter deck ends with its one boss "
                                                 f"(found {len(bosses)} boss card(s), last card '{encounter_cards[-1].id}')")
