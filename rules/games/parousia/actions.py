"""Parousia's actions: the verb table, ``apply`` and the actions legal now.

Actions (a mapping whose first key is the verb; ``player:`` names who acts
and may be left out when there is one player):

- ``take: <floor thing>``, ``buy: <floor thing>``, ``use: <machine on the floor>``
- ``play: <card in hand>`` (``target:`` when several enemies share the most HP)
- ``random_pickup`` (the top pickup-deck card drops on the floor)
- ``draw_room``, ``enter: <special room>``
- ``shoot: <enemy>`` or ``shoot: [<enemy>, ...]`` (one per tears point), ``skip``,
  ``enemy: <enemy>`` (its turn), ``round: {<player>: [targets], ...}`` (everyone in turn order)
- ``devil_roll``, ``deal: <devil item>`` with ``pay: {heart-containers: n, soul-hearts: n, black-hearts: n}``
- ``next_floor``

When the last enemy of a fight falls, the fight ends on its own (a random
pickup drops, activated items gain charge, fight-long effects end).
"""
from __future__ import annotations

from typing import Any

from deckwright.rules.data.fields import anything, either, listing, record, ref, text, whole
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.verbs import Action, Verb, dispatch

from . import cards, combat, devil, rooms
from .pickups import drop_deck_card, room_for, take
from .setup import PICKUP_DECK
from .state import Player, State


def _player(state: State, name: Any) -> Player:
    if name is not None:
        return state.player(str(name))
    if len(state.players) == 1:
        return state.players[0]
    raise SpecError(f"several players ({', '.join(p.name for p in state.players)}): say which one acts with 'player:'")


def _targets(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise SpecError(f"targets: expected an enemy or a list of enemies, got {value!r}")


def _acting(run):
    """A verb's function run on a private copy of the state, with its player found; a fight whose last foe
    fell ends on its own."""
    def on_copy(state: State, value, options, chance, log) -> State:
        state = state.copy()
        state.last = {}
        run(state, value, options, chance, log)
        if state.fight is not None and not combat.foes_left(state):
            last = state.last
            combat.end_fight(state, log)
            state.last = last
        return state
    return on_copy


def _player_does(function, with_chance: bool = False):
    """A verb whose rule takes the acting player and the verb's value (a floor thing, a room, a card)."""
    @_acting
    def run(state, value, options, chance, log):
        extra = (chance,) if with_chance else ()
        function(state, _player(state, options.get("player")), str(value), *extra, log)
    return run


def _game_does(function, with_chance: bool = False):
    """A verb whose rule takes only the state: the top pickup, a room, the devil's roll, the next floor."""
    @_acting
    def run(state, value, options, chance, log):
        function(state, *((chance,) if with_chance else ()), log)
    return run


@_acting
def _play(state, card, options, chance, log):
    cards.play(state, _player(state, options.get("player")), str(card), str(options.get("target") or ""), chance, log)


@_acting
def _shoot(state, targets, options, chance, log):
    combat.shoot(state, _player(state, options.get("player")), _targets(targets), chance, log)


@_acting
def _skip(state, value, options, chance, log):
    combat.skip(state, _player(state, options.get("player")), log)


@_acting
def _enemy(state, key, options, chance, log):
    combat.foe_turn(state, combat.foe(state, str(key)), chance, log)


@_acting
def _round(state, targets, options, chance, log):
    if not isinstance(targets, dict):
        raise SpecError("round: expected a mapping of player -> targets", ("round",))
    combat.play_round(state, {str(k): _targets(v) for k, v in targets.items()}, chance, log)


@_acting
def _deal(state, key, options, chance, log):
    devil.deal(state, _player(state, options.get("player")), str(key), dict(options.get("pay") or {}), log)


def _a_random_pickup(state, log):
    drop_deck_card(state, log, "a random pickup")


PLAYER = (("player", text(optional=True)),)
TARGETS = either(scalar=text(), seq=listing(text(), optional=False))
ACTIONS = {
    "take": Verb(_player_does(take), text(), PLAYER, doc="take something free from the floor"),
    "buy": Verb(_player_does(rooms.buy), text(), PLAYER, doc="buy something on sale (the party's coins)"),
    "use": Verb(_player_does(rooms.use_machine, with_chance=True), text(), PLAYER, doc="use a machine on the floor"),
    "play": Verb(_play, ref(*PICKUP_DECK), PLAYER + (("target", text(optional=True)),), doc="play a card in hand"),
    "random_pickup": Verb(_game_does(_a_random_pickup), doc="the top pickup-deck card drops on the floor"),
    "draw_room": Verb(_game_does(rooms.draw_room), doc="draw the next room"),
    "enter": Verb(_player_does(rooms.enter), ref("special-room"), PLAYER, doc="go into a special room"),
    "shoot": Verb(_shoot, TARGETS, PLAYER, doc="a player's turn in a fight: one D20 per point of tears"),
    "skip": Verb(_skip, None, PLAYER, doc="a player lets the turn pass"),
    "enemy": Verb(_enemy, text(), doc="an enemy's turn"),
    "round": Verb(_round, anything(optional=False), doc="everyone in turn order: {player: [targets], ...}"),
    "devil_roll": Verb(_game_does(devil.devil_roll, with_chance=True),
                       doc="after a boss fight, every player rolls the devil die"),
    "deal": Verb(_deal, text(), PLAYER + (("pay", record(optional=True, **{
        "heart-containers": whole(min=0, optional=True), "soul-hearts": whole(min=0, optional=True),
        "black-hearts": whole(min=0, optional=True)})),), doc="a devil deal, paid in hearts"),
    "next_floor": Verb(_game_does(devil.next_floor, with_chance=True), doc="the party goes down to the next floor"),
}


def apply(state: State, action: Action, chance: Chance, log: Log) -> State:
    return dispatch(ACTIONS, state, action, chance, log)


# -- random play ---------------------------------------------------------------------------


def legal_actions(state: State) -> list:
    """The actions of random play that need no value the source leaves open: in a fight, a round with every
    player shooting at one foe first, then the others (or only the foes' turns when no player can shoot); out
    of one, taking what is free,
    buying what is affordable, playing a card whose effect is known, drawing a room, entering a special room,
    the devil's roll and deals, and the next floor. Machines are not used (what a use costs is open)."""
    if state.floors is not None and state.floor_number > state.floors:
        return []
    if state.fight is not None:
        return _fight_actions(state)
    actions: list = []
    for player in state.players:
        who = {"player": player.name} if len(state.players) > 1 else {}
        for loot in state.floor:
            if loot.kind == "machine" or (loot.guard and not _can_pay(state, player, loot.guard)):
                continue
            if loot.price_in == "heart-containers":
                if player.counters["heart-containers"] >= loot.price:
                    actions.append({"deal": loot.key, **who})
            elif loot.price:
                if state.coins >= loot.price and _fits(state, player, loot):
                    actions.append({"buy": loot.key, **who})
            elif _fits(state, player, loot):
                actions.append({"take": loot.key, **who})
        for card in dict.fromkeys(player.hand):
            if cards.playable_now(state, card):
                actions.append({"play": card, **who})
    if state.boss_beaten:
        return ["devil_roll"]
    if _rooms_left(state):
        actions.append("draw_room")
    who = {"player": state.players[0].name} if len(state.players) > 1 else {}
    actions += [{"enter": room, **who} for room in rooms.enterable(state, state.players[0])]
    return actions + ["next_floor"]


def _fight_actions(state: State) -> list:
    foes = combat.foes_left(state)
    shooters = [p for p in state.players if not p.has("no-shooting")]
    if not shooters:
        return [{"round": {}}]
    keys = [foe.key for foe in foes]
    return [{"round": {p.name: keys[i:] + keys[:i] for p in shooters}} for i in range(len(keys))]


def _fits(state: State, player: Player, loot) -> bool:
    if loot.kind == "pickup":
        return room_for(state, player, loot.pickup) > 0
    if loot.kind == "playable":
        return len(player.hand) < state.rules.hand_size
    return True


def _can_pay(state: State, player: Player, guard: str) -> bool:
    pays = state.rules.guards[guard]
    return pays == "contact-hit" or player.counters["bombs" if pays == "bomb" else "keys"] > 0


def _rooms_left(state: State) -> bool:
    """A room can be drawn when the deck holds more ordinary rooms than chasers among them: even a chase
    that chains every chaser then ends before the deck runs out (the source does not say what happens then)."""
    ordinary = [card for card in state.piles.get("rooms", ()) if not rooms.is_special(state, card)]
    return len(ordinary) > sum(1 for card in ordinary if state.thing(card).get("chaser"))
