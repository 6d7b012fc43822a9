"""Where a hunt starts: an example's position (``setup:``, read through ``SETUP``) or a new level attempt."""
from __future__ import annotations

from collections import Counter

from deckwright.rules.data.fields import choice, flag, listing, record, ref, whole
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.zones import Zones

from .encounters import build_encounter_deck, start_encounter
from .numbers import Rules
from .prey import advance, begin_prey_turn, label_for
from .state import CONDITIONS, DECK, DISCARD, ENCOUNTER, ENCOUNTER_DISCARD, ENCOUNTERS, HAND, PILES, Enemy, State

ACTION_CARDS = listing(ref("action", "wound"), doc="card ids, top first; 'wound' for a wound")
ENCOUNTER_CARDS = listing(ref("prey", "boss", "event"), doc="encounter card ids, top first")

SETUP = record(
    armor=ref("armor", doc="the armour worn"),
    level=whole(min=1, optional=True, doc="default: the level of the encounter"),
    hand=ACTION_CARDS, deck=ACTION_CARDS, discard=ACTION_CARDS,
    conditions=listing(ref("condition"), doc="a condition listed twice is on you twice"),
    encounter=ref("prey", "boss", "event", optional=True, doc="a card that starts now as a fresh encounter"),
    enemies=listing(record(card=ref("prey", "boss"), energy=whole(min=0, optional=True),
                           wounds=whole(min=0, optional=True), summoned=flag()),
                    doc="enemies already in a running encounter"),
    turn=choice("prey", "player", optional=True, doc="who acts next in a running encounter (default prey)"),
    encounter_deck=ENCOUNTER_CARDS, encounter_discard=ENCOUNTER_CARDS,
    skip_turn=flag(), next_fast=whole(min=0, optional=True),
    at=choice("town", "between", optional=True, doc="where the hunter is when no encounter is running"),
)

# What new_game takes, for ``deckwright simulate --option`` (read through the same validator as card data).
OPTIONS = record(
    armor=ref("armor", optional=True, doc="the armour worn (default: the first)"),
    level=whole(min=1, optional=True, doc="the level attempted (default 1)"),
    stop_at_death=flag(doc="an attempt ends at the first death (default true)"),
)


def new_game(rules: Rules, options: dict, chance: Chance, log: Log) -> State:
    """A hunter in town before a level: fresh action deck shuffled, hand drawn, encounter deck built.

    Options: ``armor`` (default: the first armour), ``level`` (default 1),
    ``stop_at_death`` (default true: a level attempt ends at the first death).
    """
    armor = options.get("armor") or next(iter(rules.armors))
    level = options.get("level", 1)
    if level not in rules.levels:
        raise SpecError(f"level: no level {level} (levels: {', '.join(map(str, rules.levels))})", ("level",))
    state = State(rules, Zones.with_piles(*PILES), armor, level,
                  stop_at_death=options.get("stop_at_death", True))
    zones = state.zones
    zones.put(DECK, rules.action_deck)
    zones.shuffle(DECK, chance)
    zones.draw(DECK, HAND, rules.mind)
    build_encounter_deck(state, chance)
    if log.card_facts:  # the simulator's log: the cards alone, no event built
        log.drew(zones.piles[HAND])
    elif "start" in log:
        log.add("start", armor=armor, hand=list(zones.piles[HAND]))
    return state


def setup(rules: Rules, spec: dict, chance: Chance, log: Log) -> State:
    """An example's starting position, run forward to the first decision.

    Action cards not placed in ``hand``, ``deck`` or ``discard`` go to the deck (when ``deck`` is
    not given) or else to the discard; the encounter deck defaults to the level's other encounters
    in data order, boss last.
    """
    state = State(rules, Zones.with_piles(*PILES), spec["armor"], 1)
    _action_piles(rules, spec, state.zones)
    for condition in spec.get("conditions", ()):
        state.zones.create(condition, CONDITIONS)
    first = spec.get("encounter") or _first_enemy(spec)
    state.level = spec.get("level") or _level_of(rules, first)
    if state.level not in rules.levels:
        raise SpecError(f"setup.level: no level {state.level} (levels: {', '.join(map(str, rules.levels))})", ("level",))
    state.skip_turn = spec.get("skip_turn", False)
    state.next_fast = spec.get("next_fast", 0)
    _encounter_piles(rules, spec, state)
    if "setup" in log:
        log.add("setup", armor=state.armor, hand=list(state.zones.piles[HAND]), deck=len(state.zones.piles[DECK]),
                discard=len(state.zones.piles[DISCARD]))
    if "encounter" in spec:
        start_encounter(state, state.zones.own(ENCOUNTERS).pop(), chance, log)
    elif "enemies" in spec:
        _enemies(rules, spec, state)
        if spec.get("turn", "prey") == "prey":
            begin_prey_turn(state)
        else:
            state.phase = "turn"
    else:
        state.phase = spec.get("at", "town")
    advance(state, chance, log)
    return state


def _unplaced(cards, left: Counter) -> list:
    """The cards, in their order, of which ``left`` still counts some (consuming the counts)."""
    out = []
    for card in cards:
        if left[card] > 0:
            left[card] -= 1
            out.append(card)
    return out


def _action_piles(rules: Rules, spec: dict, zones: Zones) -> None:
    left = Counter(rules.action_deck)
    for pile in (HAND, DECK, DISCARD):
        for i, card in enumerate(spec.get(pile, ())):
            if card == rules.wound:
                zones.create(card, pile, to="bottom")
                continue
            if left[card] == 0:
                raise SpecError(f"setup.{pile}: one {card} too many; the game has "
                                f"{rules.action_deck.count(card)}", (pile, i))
            left[card] -= 1
            zones.put(pile, [card], to="bottom")
    zones.put(DECK if "deck" not in spec else DISCARD, _unplaced(rules.action_deck, left), to="bottom")


def _first_enemy(spec: dict) -> str | None:
    return next((entry["card"] for entry in spec.get("enemies", ()) if not entry.get("summoned")), None)


def _level_of(rules: Rules, card_id) -> int:
    return next((number for number, cards in rules.levels.items() if card_id in cards), next(iter(rules.levels)))


def _in_level(level_cards, card_id, key: tuple) -> None:
    if card_id not in level_cards:
        raise SpecError(f"setup.{key[0]}: '{card_id}' is not an encounter of this level", key)


def _encounter_piles(rules: Rules, spec: dict, state: State) -> None:
    zones = state.zones
    level_cards = rules.levels[state.level]
    for key, pile in (("encounter_deck", ENCOUNTERS), ("encounter_discard", ENCOUNTER_DISCARD)):
        for i, card in enumerate(spec.get(key, ())):
            _in_level(level_cards, card, (key, i))
            zones.put(pile, [card], to="bottom")
    current = spec.get("encounter")
    if current is not None:
        _in_level(level_cards, current, ("encounter",))
    main = current or _first_enemy(spec)
    if "encounter_deck" not in spec:
        left = Counter(level_cards)
        left.subtract(zones.ids(ENCOUNTER_DISCARD) + ([main] if main else []))
        zones.put(ENCOUNTERS, _unplaced(level_cards, left), to="bottom")
    if current is not None:
        zones.put(ENCOUNTERS, [current])


def _enemies(rules: Rules, spec: dict, state: State) -> None:
    for entry in spec.get("enemies", ()):
        card_id = entry["card"]
        enemy = Enemy(card_id, label_for(state, card_id), rules.enemies[card_id], entry.get("energy", 0),
                      entry.get("wounds", 0), entry.get("summoned", False))
        if enemy.summoned:
            state.zones.create(enemy, ENCOUNTER)
        else:
            state.zones.own(ENCOUNTER).append(enemy)
