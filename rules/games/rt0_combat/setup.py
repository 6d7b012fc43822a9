"""Where a fight starts: an example's position (``setup:``, read through ``SETUP``) or a seeded fight.

An example's setup::

    room: common                       # a room card: cramped, common or large (default common)
    gm_deck: [the-moon, two-of-cups]   # the GM's intent deck, top first; or a deck id (shuffled)
    players:
      - {name: Ana, speed: fast, zone: B2, hp: 20, shield: 0,
         deck: [ace-of-cups, ...],     # top first; or a deck id such as tarot (shuffled as "Ana deck")
         hand: [], discard: [], injuries: 0, corruption: 0, fully_upgraded: 0}
    adversaries:                       # the source has no stat blocks: state the numbers here
      - {name: Wolf, hp: 10, zone: B2, targeting: default, reach: melee, intents: face-up, shield: 0}
"""
from __future__ import annotations

from deckwright.rules.data.fields import choice, either, listing, record, ref, text, whole
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.openvalues import OpenRuleError
from deckwright.rules.engine.protocol import Chance, Log

from .combat import parse_zone
from .numbers import Rules
from .state import GM_DECK, SPEEDS, Adversary, Combat, Fight, Player, deck_pile

TAROT = listing(ref("tarot"), doc="tarot card ids, top first")
PILE = either(scalar=text(), seq=TAROT, optional=True, doc="card ids top first, or a deck id to shuffle")
COUNT = whole(min=0, optional=True)
ADVERSARY_FIELDS = dict(targeting=choice("default", "strategic", "dimwitted", optional=True),
                        reach=choice("melee", "ranged", optional=True),
                        intents=choice("face-up", "face-down", optional=True))
SETUP = record(
    room=ref("room", optional=True, doc="the room's size (default common)"),
    gm_deck=PILE,
    players=listing(record(name=text(), hp=COUNT, shield=COUNT, speed=choice(*SPEEDS, optional=True),
                           zone=text(optional=True), deck=PILE, hand=TAROT, discard=TAROT, injuries=COUNT,
                           corruption=COUNT, fully_upgraded=COUNT), optional=False, min=1),
    adversaries=listing(record(name=text(), hp=whole(min=0, doc="the source gives no stat blocks: state it"),
                               zone=text(optional=True), shield=COUNT, **ADVERSARY_FIELDS)),
)


def zone(rules: Rules, side: int, value, key: tuple) -> tuple[int, int]:
    try:
        return parse_zone(value, side)
    except ValueError as exc:
        raise SpecError(f"zone: {exc}", key) from None


def _pile(rules: Rules, value, shuffled_as: str, chance, key: tuple) -> tuple[str, ...]:
    """A list of tarot card ids, top first; or a deck id, every card of it shuffled under ``shuffled_as``."""
    if isinstance(value, str):
        if value not in rules.game.decks:
            raise SpecError(f"'{value}' is not a deck (decks: {', '.join(rules.game.decks)})", key)
        return tuple(chance.shuffle(list(rules.game.deck_cards(value)), shuffled_as))
    return tuple(value)


def setup(rules: Rules, spec: dict, chance: Chance, log: Log) -> Fight:
    side = rules.room_sides[spec.get("room", "common")]
    players = []
    for i, item in enumerate(spec["players"]):
        key, name = ("players", i), item["name"].strip()
        players.append(Player(
            name=name, hp=item.get("hp", rules.starting_hp), shield=item.get("shield", 0),
            speed=item.get("speed", "normal"), zone=zone(rules, side, item.get("zone", "A1"), key + ("zone",)),
            deck=_pile(rules, item.get("deck", []), deck_pile(name), chance, key + ("deck",)),
            hand=tuple(item.get("hand", ())), discard=tuple(item.get("discard", ())),
            injuries=item.get("injuries", 0), corruption=item.get("corruption", 0),
            fully_upgraded=item.get("fully_upgraded", 0)))
    adversaries = []
    for i, item in enumerate(spec.get("adversaries", ())):
        key = ("adversaries", i)
        adversaries.append(Adversary(
            name=item["name"].strip(), hp=item["hp"], zone=zone(rules, side, item.get("zone", "A1"), key + ("zone",)),
            targeting=item.get("targeting", "default"), reach=item.get("reach", "melee"),
            intents=item.get("intents", "face-up"), shield=item.get("shield", 0)))
    names = [p.name for p in players] + [a.name for a in adversaries]
    for name in names:
        if names.count(name) > 1:
            raise SpecError(f"two fighters are named '{name}'; names must differ", ("players",))
    gm_deck = _pile(rules, spec.get("gm_deck", []), GM_DECK, chance, ("gm_deck",))
    return Fight(rules, Combat(players=tuple(players), adversaries=tuple(adversaries), side=side, gm_deck=gm_deck))

OPTIONS = record(
    players=listing(either(scalar=text(), map=record(name=text(), speed=choice(*SPEEDS, optional=True))),
                    doc="the players: names, or {name, speed} (default Ana and Bo)"),
    room=ref("room", optional=True, doc="the room fought in (default: common)"),
    card_effect=whole(optional=True, doc="random play's stand-in for a card's combat ability (the source gives none)"),
    intent_damage=whole(optional=True, doc="random play's stand-in for an intent's damage (the source gives none)"),
)


def new_game(rules: Rules, options: dict, chance: Chance, log: Log) -> Fight:
    """A fight for random play: the adversaries of the adversary deck against ``players`` (names, or
    {name, speed}; default two), each player and the GM with a shuffled tarot deck, everyone in a random
    zone of the ``room`` (default common).

    The source gives no combat abilities and no intent effects, so random play needs stand-ins, given as
    options and never defaulted: ``card_effect`` (the shield or melee damage a played card makes) and
    ``intent_damage`` (what an adversary's intent deals).
    """
    adversaries = [card for card in rules.game.cards_of("adversary") if card.deck]
    if not adversaries:
        raise OpenRuleError("random play needs adversaries, and the source gives no adversary stat blocks "
                            "(lay cards of type adversary over the game: --fixture FOLDER)")
    missing = [name for name in ("card_effect", "intent_damage") if name not in options]
    if missing:
        raise OpenRuleError(f"random play needs stand-ins: {' and '.join(f'--option {m}=N' for m in missing)} (the "
                            f"source gives no combat abilities and no intent effects)")
    side = rules.room_sides[options.get("room", "common")]
    tarot = list(rules.game.deck_cards("tarot"))

    def place(name: str) -> tuple[int, int]:
        return chance.roll(side, f"{name}'s column") - 1, chance.roll(side, f"{name}'s row") - 1

    players = []
    for item in options.get("players", ["Ana", "Bo"]):
        item = {"name": item} if isinstance(item, str) else item
        deck = tuple(chance.shuffle(tarot, deck_pile(item["name"])))
        players.append(Player(item["name"], rules.starting_hp, speed=item.get("speed", "normal"),
                              zone=place(item["name"]), deck=deck))
    foes = [Adversary(card.name, card["hp"], targeting="default", reach=card["reach"], intents=card["intents"],
                      zone=place(card.name)) for card in adversaries]
    combat = Combat(tuple(players), tuple(foes), side, gm_deck=tuple(chance.shuffle(tarot, GM_DECK)))
    return Fight(rules, combat, stand_ins=(options["card_effect"], options["intent_damage"]))
