"""Parousia's mechanics: the pickup deck, counters and caps, tarot effects, rooms and
special rooms, combat with D20 volleys, bosses, and the devil die.

The protocol of ``rules/README.md``: ``setup`` reads an example's setup,
``apply`` runs one action on a copy of the state, ``observe`` reports the
outcomes the rulebook talks about. Every number comes from the game data.

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

from deckwright.rules.engine.errors import SpecError

from . import cards, combat, devil, rooms
from .checks import consistency
from .pickups import drop_deck_card, floor_pickups, take
from .setup import read_setup
from .state import Player, State

__all__ = ["setup", "apply", "observe", "consistency"]

VERBS = ("take", "buy", "use", "play", "random_pickup", "draw_room", "enter", "shoot", "skip", "enemy", "round",
         "devil_roll", "deal", "next_floor")
OPTIONS = {"player", "target", "pay"}
PLAYER_VERBS = {"take", "buy", "use", "play", "enter", "shoot", "skip", "deal"}


def setup(game, spec: dict, chance, log) -> State:
    return read_setup(game, spec or {}, log)


def apply(state: State, action: Any, chance, log) -> State:
    verb, value, options = _read_action(action)
    state = state.copy()
    state.last = {}
    player = _player(state, options.get("player")) if verb in PLAYER_VERBS else None
    if verb == "take":
        take(state, player, str(value), log)
    elif verb == "buy":
        rooms.buy(state, player, str(value), log)
    elif verb == "use":
        rooms.use_machine(state, player, str(value), chance, log)
    elif verb == "play":
        cards.play(state, player, str(value), str(options.get("target") or ""), chance, log)
    elif verb == "random_pickup":
        drop_deck_card(state, log, "a random pickup")
    elif verb == "draw_room":
        rooms.draw_room(state, log)
    elif verb == "enter":
        rooms.enter(state, player, str(value), log)
    elif verb == "shoot":
        combat.shoot(state, player, _targets(value), chance, log)
    elif verb == "skip":
        combat.skip(state, player, log)
    elif verb == "enemy":
        combat.foe_turn(state, combat.foe(state, str(value)), chance, log)
    elif verb == "round":
        if not isinstance(value, dict):
            raise SpecError("round: expected a mapping of player -> targets", ("round",))
        combat.play_round(state, {str(k): _targets(v) for k, v in value.items()}, chance, log)
    elif verb == "devil_roll":
        devil.devil_roll(state, chance, log)
    elif verb == "deal":
        devil.deal(state, player, str(value), _payment(options.get("pay")), log)
    elif verb == "next_floor":
        devil.next_floor(state, chance, log)
    if state.fight is not None and not combat.foes_left(state):
        last = state.last
        combat.end_fight(state, log)
        state.last = last
    return state


def _read_action(action: Any) -> tuple[str, Any, dict]:
    if isinstance(action, str):
        verb, value, options = action, None, {}
    elif isinstance(action, dict) and action:
        verb = next(iter(action))
        value = action[verb]
        options = {k: v for k, v in action.items() if k != verb}
    else:
        raise SpecError(f"an action is a verb ({', '.join(VERBS)}) or a mapping starting with one")
    if verb not in VERBS:
        from deckwright.rules.data.schema import did_you_mean
        raise SpecError(f"unknown action '{verb}'{did_you_mean(str(verb), list(VERBS))} (known: {', '.join(VERBS)})",
                        (verb,) if isinstance(action, dict) else ())
    for key in options:
        if key not in OPTIONS:
            raise SpecError(f"{verb}: unknown option '{key}' (options: {', '.join(sorted(OPTIONS))})", (key,))
    return verb, value, options


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


def _payment(value: Any) -> dict[str, int]:
    if value is None:
        return {}
    allowed = ("heart-containers", "soul-hearts", "black-hearts")
    if not isinstance(value, dict) or any(k not in allowed or not isinstance(v, int) for k, v in value.items()):
        raise SpecError(f"pay: expected a mapping of {', '.join(allowed)} to numbers", ("pay",))
    return dict(value)


# -- what an example can claim -------------------------------------------------------------


def observe(state: State) -> dict:
    out: dict[str, Any] = {
        "floor_number": state.floor_number,
        "coins": state.coins,
        "floor": [loot.key for loot in state.floor],
        "floor_pickups": floor_pickups(state),
        "for_sale": {loot.key: loot.price for loot in state.floor if loot.price},
        "discovered": list(state.discovered),
        "location": state.location,
        "devil_room": "open" if state.devil_room_open else "closed",
        "in_fight": state.fight is not None,
        "players": {p.name: _player_view(state, p) for p in state.players},
        "decks": {name: len(cards) for name, cards in state.piles.items()},
        "deck_tops": {name: cards[0] for name, cards in state.piles.items() if cards},
        "last": dict(state.last),
    }
    if state.fight is not None:
        out["fight"] = {
            "boss": state.fight.boss,
            "order": combat.turn_order(state),
            "enemies": {f.key: _foe_view(f) for f in state.fight.foes},
        }
    return out


def _player_view(state: State, player: Player) -> dict:
    view: dict[str, Any] = dict(player.counters)
    view.update({
        "soul-hearts": player.soul_hearts,
        "black-hearts": player.black_hearts,
        "hand": list(player.hand),
        "items": list(player.items),
        "effects": [e.source for e in player.effects],
        "stats": {stat: player.stat(stat) for stat in state.rules.stat_counters},
    })
    return view


def _foe_view(foe) -> dict:
    view = {"form": foe.thing.id, "alive": foe.alive}
    if foe.boss:
        view["hp"] = foe.hp
    return view
