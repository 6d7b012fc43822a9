"""Whole fights for seeded random play (``rules.engine.randomplay``): a start, the legal actions, the card piles.

The source gives no abilities and no adversary stat blocks, so random play
supplies stand-ins: every card played makes 1 shield or 1 melee damage, and an
adversary's intent moves it by the default rule and deals the damage the
``options`` give it. These numbers are not game content; they only let random
play check that cards are never lost or duplicated and that fights end.
"""
from __future__ import annotations

from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.zones import Zones

from .core import GM_DECK, SPEEDS, Adversary, Combat, Player, deck_pile
from .data import rules_from
from .fight import Fight

CARD_EFFECT = 1  # stand-in: shield or damage per card played


def new_game(game, options: dict, chance, log=NULL_LOG) -> Fight:
    """Options: ``players`` (names, or {name, speed}), ``adversaries`` ({name, hp, damage, reach}), ``room``."""
    if not options.get("adversaries"):
        raise SpecError("random play needs options['adversaries'] ({name, hp, damage, reach}): "
                        "the source lists no adversaries, so the game ships none")
    rules = rules_from(game)
    side = rules.room_sides[options.get("room", "common")]
    tarot = [card.id for card in game.printed_cards("tarot")]

    def zone(name: str) -> tuple[int, int]:
        return chance.roll(side, f"{name}'s column") - 1, chance.roll(side, f"{name}'s row") - 1

    players = []
    for item in options.get("players", ["Ana", "Bo"]):
        item = {"name": item} if isinstance(item, str) else item
        deck = tuple(chance.shuffle(tarot, deck_pile(item["name"])))
        players.append(Player(item["name"], rules.starting_hp, speed=item.get("speed", "normal"),
                              zone=zone(item["name"]), deck=deck))
    adversaries = [Adversary(a["name"], a["hp"], reach=a.get("reach", "melee"), zone=zone(a["name"]))
                   for a in options["adversaries"]]
    damage = tuple((a["name"], a.get("damage", 1)) for a in options["adversaries"])
    combat = Combat(tuple(players), tuple(adversaries), side, gm_deck=tuple(chance.shuffle(tarot, GM_DECK)))
    return Fight(rules, combat, stand_in_damage=damage)


def legal_actions(fight: Fight) -> list:
    if fight.phase == "intents":
        return ["intents"]
    if fight.phase == "adversaries":
        damage = dict(fight.stand_in_damage)
        return [{"act": a.name, "move": True, "damage": damage.get(a.name, CARD_EFFECT)}
                for a in fight.combat.fighting() if a.name not in fight.acted]
    if fight.phase != "players":
        return []
    combat = fight.combat
    if fight.current is None:
        first = min(SPEEDS.index(combat.player(n).speed) for n in fight.waiting)
        return [{"turn": n} for n in fight.waiting if SPEEDS.index(combat.player(n).speed) == first]
    player = combat.player(fight.current)
    actions: list = ["end turn"]
    for card in dict.fromkeys(player.hand):
        actions.append({"play": [card], "shield": CARD_EFFECT})
        actions += [{"play": [card], "damage": CARD_EFFECT, "target": a.name}
                    for a in combat.fighting() if a.zone == player.zone]
    return actions


def is_over(fight: Fight) -> bool:
    return fight.phase == "over"


def zones(fight: Fight) -> Zones:
    """Every player's deck, hand and discard, the GM's deck and discard, and the intents in front of adversaries."""
    piles: dict[str, list] = {}
    for player in fight.combat.players:
        piles[deck_pile(player.name)] = list(player.deck)
        piles[f"{player.name} hand"] = list(player.hand)
        piles[f"{player.name} discard"] = list(player.discard)
    piles[GM_DECK] = list(fight.combat.gm_deck)
    piles["GM discard"] = list(fight.combat.gm_discard)
    piles["intents"] = [a.intent for a in fight.combat.adversaries if a.intent is not None]
    return Zones.with_piles(**piles)
