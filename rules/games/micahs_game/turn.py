"""Turns, health and the end of the game: the start of a turn (weather, creature coins), health changes,
players knocked out or leaving, the next player's turn, and who wins.

Readings of the source that are ours (open questions in game.yaml): creature coins are paid at the start
of each of the owner's turns; weather hits the player whose turn is starting; an open health ceiling is
not applied.
"""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.openvalues import known

from .numbers import Rules
from .state import ENCOUNTERS, GRAVEYARD, OVER, PLAYING, PREPARATION, REVEALED, USED_TREASURE, Player, State, Step


def require_preparation(state: State, name: str | None = None) -> None:
    if state.phase == OVER:
        raise RuleError("the game is over")
    if state.phase != PREPARATION or state.encounter is not None:
        raise RuleError("only while no encounter is active (before the encounter card is turned over)")
    if name is not None and state.current.name != name:
        raise RuleError(f"only {state.current.name}, whose turn it is, may do this now")


def playing(state: State, name: str) -> Player:
    player = state.player(name)
    if player.status != PLAYING:
        raise RuleError(f"{name} is no longer in the adventure")
    return player


def gain_coins(state: State, name: str, amount: int) -> State:
    player = state.player(name)
    return state.with_player(replace(player, coins=player.coins + amount))


def change_health(rules: Rules, state: State, name: str, amount: int, weather: str | None = None,
                  attacker: str | None = None) -> Step:
    """Health up or down (by the weather or a creature's attack); a player whose known health reaches 0 is out."""
    player = state.player(name)
    hp = player.hp
    if hp is not None:
        hp += amount
        if rules.max_health is not None:
            hp = min(hp, rules.max_health)
    player = replace(player, hp=hp, health_change=player.health_change + amount)
    events = [("health", {"player": name, "amount": amount, "health": hp, "weather": weather, "attacker": attacker})]
    state = state.with_player(player)
    if hp is not None and hp <= 0:
        state, more = knock_out(rules, state, name, "health")
        events += more
    return state, events


# -- the start of a turn ---------------------------------------------------------------------


def start_turn(rules: Rules, state: State) -> Step:
    """The start of the active player's turn: weather that was already in play, then creature coins."""
    if state.phase == OVER:
        raise RuleError("the game is over")
    name = state.current.name
    state = replace(state, phase=PREPARATION, encounter=None)
    events = [("turn", {"turn": state.turn, "player": name})]
    if state.weather and state.weather_since < state.turn:
        state, more = apply_weather(rules, state, name)
        events += more
    if state.player(name).status != PLAYING:
        state, more = end_turn(rules, state)
        return state, events + more
    for creature_id in state.pile(name, "dock") + state.pile(name, "companions"):
        coins = rules.card(creature_id).get("coins_per_turn")
        if coins:
            state = gain_coins(state, name, coins)
            events.append(("creature-coins", {"player": name, "creature": creature_id, "coins": coins,
                                              "total": state.player(name).coins}))
    return state, events


def apply_weather(rules: Rules, state: State, name: str) -> Step:
    weather = rules.card(state.weather, "weather")
    amount = known(weather.get("health_per_turn"), f"{weather.name}'s health_per_turn")
    if not amount:
        return state, []
    return change_health(rules, state, name, amount, weather=weather.id)


def set_weather(rules: Rules, state: State, weather_id: str) -> Step:
    """The weather changes now; it counts from the start of a later turn unless it takes effect immediately."""
    weather = rules.card(weather_id, "weather")
    state = replace(state, weather=weather_id, weather_since=state.turn)
    events = [("weather", {"weather": weather_id})]
    if weather["timing"] == "immediate":
        state, more = apply_weather(rules, state, state.current.name)
        events += more
    else:
        events.append(("weather-from", {"weather": weather_id, "turn": state.turn + 1}))
    return state, events


# -- winning and losing ------------------------------------------------------------------------


def knock_out(rules: Rules, state: State, name: str, reason: str) -> Step:
    """A player is out (``reason``: health or left): charmed creatures to the graveyard, items to the used pile."""
    state, zones = state.changing()
    player = state.player(name)
    creatures = state.pile(name, "dock") + state.pile(name, "companions")
    items = state.pile(name, "items") + state.pile(name, "upgrades")
    for kind in ("dock", "companions"):
        zones.move_all(f"{name}:{kind}", GRAVEYARD)
    for kind in ("items", "upgrades"):
        zones.move_all(f"{name}:{kind}", USED_TREASURE)
    state = state.with_player(replace(player, status="out" if reason == "health" else "left"))
    events = [("out", {"player": name, "reason": reason})]
    if creatures:
        events.append(("creatures-to-graveyard", {"player": name, "creatures": creatures}))
    if items:
        events.append(("items-to-merchant", {"player": name, "items": items}))
    state, more = check_last_player(state)
    return state, events + more


def check_last_player(state: State) -> Step:
    playing_now = [p.name for p in state.players if p.status == PLAYING]
    if len(state.players) > 1 and len(playing_now) == 1:
        return replace(state, phase=OVER, winners=tuple(playing_now)), [("last-alive", {"player": playing_now[0]})]
    if not playing_now:
        return replace(state, phase=OVER, winners=()), [("nobody-left", {})]
    return state, []


def end_turn(rules: Rules, state: State) -> Step:
    """The turn ends; the game ends when the encounter deck is exhausted, else the next player's turn starts."""
    if state.phase == OVER:
        return state, []
    state = replace(state, encounter=None, phase=PREPARATION)
    if state.zones.count(ENCOUNTERS) == 0 and state.zones.count(REVEALED) == 0:
        winners = tuple(p.name for p in state.players if p.status == PLAYING)
        return replace(state, phase=OVER, winners=winners), [("exhausted", {"winners": list(winners)})]
    count = len(state.players)
    for offset in range(1, count + 1):
        index = (state.active + offset) % count
        if state.players[index].status == PLAYING:
            return start_turn(rules, replace(state, active=index, turn=state.turn + 1))
    return replace(state, phase=OVER), [("nobody-left", {})]
