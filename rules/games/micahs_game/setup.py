"""Where a game of Micah's Game starts: an example's position (``setup:``, read through ``SETUP``) or a deal.

An example's setup (every key optional except ``players``; piles are card ids, top first)::

    players:
      - {name: adam, class: wiseman, coins: 26, items: [suspicious-remedy], upgrades: [confidence-boost]}
    active: adam          # whose turn it is (default: the first player)
    turn: 23              # the turn number (default 1)
    weather: sunny        # in play since before this turn (or since ``weather_since``)
    encounters: [yeti]    # also treasure, used_treasure, merchant, graveyard, charmed_forms
                          # (charmed_forms defaults to the charmed deck)

A player's ``upgrades`` are already applied: their die steps are counted into the
stats. Setup then starts the active player's turn (weather, creature coins).
"""
from __future__ import annotations

from typing import Iterable, Mapping

from deckwright.rules.data.fields import listing, mapping, record, ref, text, whole
from deckwright.rules.engine.dice import step_up
from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.openvalues import Open, known
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.zones import Zones

from .numbers import STATS, Rules
from .preparation import restock
from .state import (
    CHARMED_FORMS,
    ENCOUNTERS,
    GRAVEYARD,
    MERCHANT,
    PLAYER_PILES,
    TREASURE,
    USED_TREASURE,
    Player,
    State,
    pile_names,
)
from .turn import start_turn

SHARED_PILES = {"encounters": ENCOUNTERS, "treasure": TREASURE, "used_treasure": USED_TREASURE,
                "merchant": MERCHANT, "graveyard": GRAVEYARD, "charmed_forms": CHARMED_FORMS}
CARDS = listing(ref(), doc="card ids, top first")
PLAYER = record(name=text(), **{"class": ref("class")}, coins=whole(min=0, optional=True),
                health=whole(optional=True), **{kind: CARDS for kind in PLAYER_PILES})
SETUP = record(
    players=listing(PLAYER, optional=False, min=1, doc="in turn order"),
    active=text(optional=True, doc="whose turn it is (default: the first player)"),
    turn=whole(min=1, optional=True, doc="the turn number (default 1)"),
    weather=ref("weather", optional=True, doc="in play since before this turn"),
    weather_since=whole(min=0, optional=True),
    **{name: CARDS for name in SHARED_PILES},
)


def class_dice(hero) -> dict[str, tuple[int, ...] | Open]:
    return {stat: hero[stat] if isinstance(hero.get(stat), Open) else tuple(hero[stat].dice) for stat in STATS}


def new_player(rules: Rules, name: str, hero_id: str, **overrides) -> Player:
    hero = rules.card(hero_id, "class")
    health = hero.get("health")
    player = Player(name=name, hero=hero_id, hp=None if isinstance(health, Open) else health,
                    coins=rules.starting_coins, dice=class_dice(hero))
    return replace(player, **overrides)


def arrange(rules: Rules, players: Iterable[Player], piles: Mapping[str, Iterable[str]] | None = None,
            **fields) -> State:
    """A state set up by hand (an example's starting position): piles top first, other State fields by name."""
    players = tuple(players)
    zones = Zones.with_piles(*pile_names(p.name for p in players))
    for pile, cards in (piles or {}).items():
        if pile not in zones.piles:
            raise RuleError(f"no pile '{pile}' (piles: {', '.join(zones.piles)})")
        for card_id in cards:
            rules.card(card_id)
        zones.put(pile, cards)
    return State(players=players, zones=zones, rules=rules, **fields)


def deal(rules: Rules, seats: Iterable[tuple[str, str]], chance) -> tuple[State, list]:
    """Players (name, class id) in turn order; the decks shuffled, the merchant stocked, the first turn started."""
    players = tuple(new_player(rules, name, hero) for name, hero in seats)
    if len({p.name for p in players}) != len(players):
        raise RuleError("two players share a name")
    zones = Zones.with_piles(*pile_names(p.name for p in players))
    zones.put(ENCOUNTERS, rules.decks.get("encounters", ()))
    zones.put(TREASURE, rules.decks.get("treasure", ()))
    zones.put(CHARMED_FORMS, rules.decks.get("charmed", ()))
    zones.shuffle(ENCOUNTERS, chance)
    zones.shuffle(TREASURE, chance)
    state = State(players=players, zones=zones, rules=rules)
    state, events = restock(rules, state, chance)
    state, more = start_turn(rules, state)
    return state, [("players", {"players": [[p.name, p.hero] for p in players]})] + events + more


def _player(rules: Rules, spec: dict, index: int) -> tuple[Player, dict[str, list[str]]]:
    key = ("players", index)
    name = spec["name"]
    player = new_player(rules, name, spec["class"])
    dice = dict(player.dice)
    for position, item_id in enumerate(spec.get("upgrades", ())):
        upgrade = rules.card(item_id).get("upgrade")
        if not upgrade:
            raise SpecError(f"'{item_id}' is not an upgrade", key + ("upgrades", position))
        stat = upgrade["stat"]
        pool = known(dice[stat], f"{rules.name(player.hero)}'s {stat}")
        dice[stat] = tuple(step_up(list(pool), upgrade["steps"]))
    player = replace(player, dice=dice, coins=spec.get("coins", player.coins), hp=spec.get("health", player.hp))
    return player, {f"{name}:{kind}": spec.get(kind, []) for kind in PLAYER_PILES}


def setup(rules: Rules, spec: dict, chance: Chance, log: Log) -> State:
    players, piles = [], {}
    for index, player_spec in enumerate(spec["players"]):
        player, own = _player(rules, player_spec, index)
        players.append(player)
        piles.update(own)
    names = [p.name for p in players]
    for name, pile in SHARED_PILES.items():
        piles[pile] = spec.get(name, [])
    if "charmed_forms" not in spec:
        piles[CHARMED_FORMS] = list(rules.decks.get("charmed", ()))
    active = spec.get("active", names[0])
    if active not in names:
        raise SpecError(f"'{active}' is not one of the players ({', '.join(names)})", ("active",))
    turn = spec.get("turn", 1)
    state = arrange(rules, players, piles, active=names.index(active), turn=turn, weather=spec.get("weather"),
                    weather_since=spec.get("weather_since", turn - 1))
    state, events = fill_merchant(rules, state)
    state, more = start_turn(rules, state)
    events += more
    for kind, data in events:
        log.add(kind, **data)
    return state


def fill_merchant(rules: Rules, state: State) -> tuple[State, list]:
    """The merchant always shows its slots (7.1): a setup's short board is filled from its treasure deck, top
    first. Not from the used pile, which 7.4 reshuffles only when a purchase finds the deck empty (readings.yaml,
    merchant-always-six)."""
    missing = min(rules.merchant_slots - state.zones.count(MERCHANT), state.zones.count(TREASURE))
    if missing <= 0:
        return state, []
    state, zones = state.changing()
    drawn = zones.draw(TREASURE, MERCHANT, missing)
    return state, [("restock", {"items": list(drawn)})]


OPTIONS = record(
    players=listing(listing(text(), min=2), doc="the seats, each [name, class id]; by default one per class"),
    decks=mapping(listing(ref()), doc="the cards dealt by deck id, top first before shuffling; by "
                                      "default the game's decks"),
)


def new_game(rules: Rules, options: dict, chance: Chance, log: Log) -> State:
    """A game from the start. Options: ``players``, a list of [name, class id] (default: one per class);
    ``decks``, the cards to deal by deck id, top first before shuffling (default: the game's decks)."""
    seats = options.get("players") or [(card_id, card_id) for card_id, card in rules.cards.items()
                                       if card.type == "class"]
    if options.get("decks"):
        rules = replace(rules, decks={**rules.decks, **{deck: tuple(cards) for deck, cards in options["decks"].items()}})
    state, events = deal(rules, [tuple(seat) for seat in seats], chance)
    if log:
        for kind, data in events:
            log.add(kind, **data)
    return state
