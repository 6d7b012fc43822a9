"""Micah's Game through the engine's protocol: examples set up, act and observe in rulebook words.

Setup (every key optional except ``players``; piles are card ids, top first)::

    players:
      - {name: adam, class: wiseman, coins: 26, items: [suspicious-remedy], upgrades: [confidence-boost]}
    active: adam          # whose turn it is (default: the first player)
    turn: 23              # the turn number (default 1)
    weather: sunny        # in play since before this turn (or since ``weather_since``)
    encounters: [yeti]    # also treasure, used_treasure, merchant, graveyard, charmed_forms
                          # (charmed_forms defaults to the charmed deck)

A player's ``upgrades`` are already applied: their die steps are counted into the
stats. Setup then starts the active player's turn (weather, creature coins).

Actions: ``reveal``; ``attack``, ``charm`` or ``escape`` (choose, roll and settle);
``{choose: attack}``, ``roll`` and ``settle`` one at a time; ``{buy: id}``,
``{sell: id}``, ``{apply: id}``, ``{companion: id}``, ``{dismiss: id}``,
``{release: id}`` for the player whose turn it is; ``{trade: adam, with: micah,
give: [...], get: [...]}``; ``{leave: name}``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from deckwright.rules.engine.dice import pool_text, step_up
from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.engine.zones import Zones

from . import mechanics as m

SHARED_PILES = {"encounters": m.ENCOUNTERS, "treasure": m.TREASURE, "used_treasure": m.USED_TREASURE,
                "merchant": m.MERCHANT, "graveyard": m.GRAVEYARD, "charmed_forms": m.CHARMED_FORMS}
SETUP_KEYS = ("players", "active", "turn", "weather", "weather_since", *SHARED_PILES)
PLAYER_KEYS = ("name", "class", "coins", "health", *m.PLAYER_PILES)
ONE_CARD_ACTIONS = ("buy", "sell", "apply", "companion", "dismiss", "release")


@dataclass(frozen=True)
class Table:
    """What the protocol passes around: the game's numbers and the state of play."""

    rules: m.Rules
    state: m.State


# -- reading an example's setup ----------------------------------------------------------------


def _card_list(rules: m.Rules, value: Any, key: tuple) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise SpecError("expected a list of card ids, top first", key)
    for index, card_id in enumerate(value):
        if not isinstance(card_id, str) or card_id not in rules.cards:
            raise SpecError(f"no card '{card_id}' in this game", key + (index,))
    return list(value)


def _unknown_keys(spec: dict, allowed: tuple, key: tuple) -> None:
    for name in spec:
        if name not in allowed:
            raise SpecError(f"unknown key '{name}' (allowed: {', '.join(allowed)})", key + (name,))


def _player(rules: m.Rules, spec: Any, index: int) -> tuple[m.Player, dict[str, list[str]]]:
    key = ("players", index)
    if not isinstance(spec, dict) or "name" not in spec or "class" not in spec:
        raise SpecError("a player is a mapping with at least name and class", key)
    _unknown_keys(spec, PLAYER_KEYS, key)
    hero = rules.cards.get(spec["class"])
    if hero is None or hero.type != "class":
        raise SpecError(f"'{spec['class']}' is not a class card", key + ("class",))
    name = str(spec["name"])
    player = m.new_player(rules, name, hero.id)
    piles = {kind: _card_list(rules, spec.get(kind), key + (kind,)) for kind in m.PLAYER_PILES}
    dice = dict(player.dice)
    for position, item_id in enumerate(piles["upgrades"]):
        upgrade = rules.card(item_id).get("upgrade")
        if not upgrade:
            raise SpecError(f"'{item_id}' is not an upgrade", key + ("upgrades", position))
        if dice[upgrade["stat"]] is None:
            raise m.OpenValue(f"{hero.name}'s {upgrade['stat']} is open in the source")
        dice[upgrade["stat"]] = tuple(step_up(list(dice[upgrade["stat"]]), upgrade["steps"]))
    player = replace(player, dice=dice, coins=spec.get("coins", player.coins), hp=spec.get("health", player.hp))
    return player, {f"{name}:{kind}": cards for kind, cards in piles.items()}


def setup(game, spec: dict, chance, log) -> Table:
    rules = m.rules_from(game)
    _unknown_keys(spec, SETUP_KEYS, ())
    if not isinstance(spec.get("players"), list) or not spec["players"]:
        raise SpecError("setup needs 'players', a list of {name, class}", ("players",))
    players, piles = [], {}
    for index, player_spec in enumerate(spec["players"]):
        player, own = _player(rules, player_spec, index)
        players.append(player)
        piles.update(own)
    names = [p.name for p in players]
    for name, pile in SHARED_PILES.items():
        piles[pile] = _card_list(rules, spec.get(name), (name,))
    if "charmed_forms" not in spec:
        piles[m.CHARMED_FORMS] = list(rules.decks.get("charmed", ()))
    active = spec.get("active", names[0])
    if active not in names:
        raise SpecError(f"'{active}' is not one of the players ({', '.join(names)})", ("active",))
    turn = spec.get("turn", 1)
    weather = spec.get("weather")
    if weather is not None and getattr(rules.cards.get(weather), "type", None) != "weather":
        raise SpecError(f"'{weather}' is not a weather card", ("weather",))
    state = m.arrange(rules, players, piles, active=names.index(active), turn=turn, weather=weather,
                      weather_since=spec.get("weather_since", turn - 1))
    state, events = m.start_turn(rules, state)
    _log(log, "turn", events)
    return Table(rules, state)


def new_game(game, options: dict, chance, log) -> Table:
    """A game from the start: ``options['players']`` is a list of [name, class id] (default: one per class)."""
    rules = m.rules_from(game)
    seats = options.get("players") or [(card.id, card.id) for card in game.cards_of("class")]
    if options.get("decks"):
        rules = replace(rules, decks={**rules.decks, **{k: tuple(v) for k, v in options["decks"].items()}})
    state, events = m.deal(rules, [tuple(seat) for seat in seats], chance)
    _log(log, "setup", events)
    return Table(rules, state)


# -- actions -------------------------------------------------------------------------------------


def _log(log, kind: str, events: list[str]) -> None:
    """Events under the action's name; a new turn and what happens as it starts under "turn"."""
    if log:
        for text in events:
            if text.startswith("turn "):
                kind = "turn"
            log.add(kind, text)


def apply(table: Table, action: Any, chance, log) -> Table:
    rules, state = table.rules, table.state
    word, value = _read_action(action)
    name = state.current.name
    if word == "reveal":
        state, events = m.reveal(rules, state, chance)
    elif word in m.INTENTIONS:  # choose, roll and settle, each logged as it happens
        for step in (lambda st: m.choose(st, word), lambda st: m.roll(rules, st, chance),
                     lambda st: m.outcome(rules, st, chance), lambda st: m.wrap_up(rules, st, chance)):
            state, events = step(state)
            _log(log, word, events)
        return Table(rules, state)
    elif word == "choose":
        state, events = m.choose(state, value)
    elif word == "roll":
        state, events = m.roll(rules, state, chance)
    elif word == "settle":
        state, events = m.settle(rules, state, chance)
    elif word == "buy":
        state, events = m.buy(rules, state, name, value, chance)
    elif word == "sell":
        state, events = m.sell(rules, state, name, value)
    elif word == "apply":
        state, events = m.apply_upgrade(rules, state, name, value)
    elif word == "companion":
        state, events = m.assign_companion(rules, state, name, value)
    elif word == "dismiss":
        state, events = m.dismiss_companion(rules, state, name, value)
    elif word == "release":
        state, events = m.release(rules, state, name, value)
    elif word == "trade":
        state, events = m.trade(rules, state, value, action.get("give") or [], action.get("with"), action.get("get") or [])
    else:  # leave
        state, events = m.leave(rules, state, value)
    _log(log, word, events)
    return Table(rules, state)


def _read_action(action: Any) -> tuple[str, Any]:
    bare = ("reveal", "roll", "settle", *m.INTENTIONS)
    keyed = ("choose", "trade", "leave", *ONE_CARD_ACTIONS)
    if isinstance(action, str):
        if action not in bare:
            raise SpecError(f"unknown action '{action}' (bare actions: {', '.join(bare)}; "
                            f"with a value: {', '.join(keyed)})")
        return action, None
    if not isinstance(action, dict) or not action:
        raise SpecError("an action is a word such as reveal or a mapping such as {buy: confidence-boost}")
    word = next(iter(action))
    if word not in keyed:
        raise SpecError(f"unknown action '{word}' (with a value: {', '.join(keyed)}; bare: {', '.join(bare)})", (word,))
    allowed = {"trade": ("trade", "with", "give", "get")}.get(word, (word,))
    for extra in action:
        if extra not in allowed:
            raise SpecError(f"unknown key '{extra}' in a {word} action (allowed: {', '.join(allowed)})", (extra,))
    if word == "trade" and not action.get("with"):
        raise SpecError("a trade names both players: {trade: adam, with: micah, give: [...], get: [...]}", (word,))
    return word, action[word]


# -- what the examples may claim ----------------------------------------------------------------------


def _dice_text(pool) -> str:
    return "open" if pool is None else pool_text(list(pool))


def observe(table: Table) -> dict:
    state = table.state
    zones = state.zones
    players = {}
    for p in state.players:
        players[p.name] = {
            "class": p.hero, "coins": p.coins, "health": "open" if p.hp is None else p.hp,
            "health_change": p.health_change, "status": p.status,
            "dice": {stat: _dice_text(pool) for stat, pool in p.dice.items()},
            **{kind: state.pile(p.name, kind) for kind in m.PLAYER_PILES},
        }
    last = state.last
    encounter = state.encounter
    return {
        "turn": state.turn,
        "active": state.current.name,
        "phase": state.phase,
        "weather": state.weather or "none",
        "players": players,
        "encounter": "none" if encounter is None else {
            "card": encounter.card, "intention": encounter.intention or "none",
            "total": encounter.roll.total if encounter.roll else "not rolled"},
        "last": "none" if last is None else {
            "card": last.card, "intention": last.intention, "total": last.total,
            "target": "doubles" if last.target is None else last.target,
            "result": "success" if last.success else "failure",
            "damage": 0 if last.damage is None else last.damage, "bounty": last.bounty or 0,
            "companions_lost": list(last.companions_lost), "items_lost": list(last.items_lost)},
        **{name: zones.ids(pile) for name, pile in SHARED_PILES.items()},
        "winners": list(state.winners),
    }


# -- random play ----------------------------------------------------------------------------------------


def is_over(table: Table) -> bool:
    return table.state.phase == m.OVER


def zones(table: Table) -> Zones:
    return table.state.zones


def legal_actions(table: Table) -> list:
    """The actions allowed now that need no open value (random play never guesses one)."""
    rules, state = table.rules, table.state
    if state.phase == m.OVER:
        return []
    if state.encounter is None and state.phase == m.ENCOUNTER:
        return ["reveal"]
    player = state.current
    if state.encounter is not None:
        creature = rules.card(state.encounter.card)
        return [i for i in m.INTENTIONS if _can_try(rules, player, creature, i)]
    actions: list = ["reveal"] if state.zones.count(m.ENCOUNTERS) else []
    for item_id in sorted(set(state.zones.ids(m.MERCHANT))):
        price = rules.card(item_id).get("buy")
        if isinstance(price, int) and player.coins >= price:
            actions.append({"buy": item_id})
    for item_id in sorted(set(state.pile(player.name, "items"))):
        item = rules.card(item_id)
        if isinstance(item.get("sell"), int):
            actions.append({"sell": item_id})
        upgrade = item.get("upgrade")
        if upgrade and player.dice[upgrade["stat"]] is not None and (
                item.get("stacks") or item_id not in state.pile(player.name, "upgrades")):
            actions.append({"apply": item_id})
    free = rules.companion_slots is None or len(state.pile(player.name, "companions")) < rules.companion_slots
    actions += [{"companion": c} for c in sorted(set(state.pile(player.name, "dock"))) if free]
    actions += [{"dismiss": c} for c in sorted(set(state.pile(player.name, "companions")))]
    return actions


def _can_try(rules: m.Rules, player: m.Player, creature, intention: str) -> bool:
    alt = m.alternative_for(creature, intention)
    if alt is not None:
        return alt.get("roll") is not None or player.dice[m.INTENTION_STAT[intention]] is not None
    target = creature.get(m.INTENTION_TARGET[intention])
    return target is not None and not isinstance(target, m.Open) and player.dice[m.INTENTION_STAT[intention]] is not None


__all__ = ["Table", "setup", "apply", "observe", "new_game", "legal_actions", "is_over", "zones", "RuleError"]
