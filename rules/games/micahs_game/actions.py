"""The actions of Micah's Game: the verb table, ``apply`` and the actions legal now.

``reveal``; ``attack``, ``charm`` or ``escape`` (choose, roll and settle); ``{choose: attack}``,
``roll`` and ``settle`` one at a time; ``{buy: id}``, ``{sell: id}``, ``{apply: id}``,
``{companion: id}``, ``{dismiss: id}``, ``{release: id}`` for the player whose turn it is;
``{trade: adam, with: micah, give: [...], get: [...]}``; ``{leave: name}``.
"""
from __future__ import annotations

from deckwright.rules.data.fields import choice, listing, ref, text
from deckwright.rules.engine.openvalues import is_open
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.verbs import Action, Verb, dispatch

from . import encounter, preparation
from .numbers import INTENTION_STAT, INTENTION_TARGET, INTENTIONS, alternative_for
from .state import ENCOUNTER, ENCOUNTERS, MERCHANT, OVER, State


def _logged(state: State, step, log: Log) -> State:
    """Run a rule function (state -> (state, events)) and log its events."""
    state, events = step(state)
    if log:
        for kind, data in events:
            log.add(kind, **data)
    return state


def _reveal(state, value, options, chance, log):
    return _logged(state, lambda st: encounter.reveal(state.rules, st, chance), log)


def _face(intention):
    def run(state, value, options, chance, log):
        rules = state.rules
        for step in (lambda st: encounter.choose(st, intention), lambda st: encounter.roll(rules, st, chance),
                     lambda st: encounter.outcome(rules, st, chance), lambda st: encounter.wrap_up(rules, st, chance)):
            state = _logged(state, step, log)  # each step logged as it happens
        return state
    return run


def _choose(state, intention, options, chance, log):
    return _logged(state, lambda st: encounter.choose(st, intention), log)


def _roll(state, value, options, chance, log):
    return _logged(state, lambda st: encounter.roll(state.rules, st, chance), log)


def _settle(state, value, options, chance, log):
    return _logged(state, lambda st: encounter.settle(state.rules, st, chance), log)


def _own(function, with_chance: bool = False):
    """An action by the player whose turn it is, on one card: buy, sell, apply, companion, dismiss, release."""
    def run(state, card, options, chance, log):
        extra = (chance,) if with_chance else ()
        return _logged(state, lambda st: function(state.rules, st, st.current.name, card, *extra), log)
    return run


def _trade(state, first, options, chance, log):
    return _logged(state, lambda st: preparation.trade(state.rules, st, first, options.get("give") or [],
                                                       options["with"], options.get("get") or []), log)


def _leave(state, name, options, chance, log):
    return _logged(state, lambda st: preparation.leave(state.rules, st, name), log)


ITEMS = listing(ref("item"))
ACTIONS = {
    "reveal": Verb(_reveal, doc="turn over the top encounter card"),
    **{intention: Verb(_face(intention), doc=f"{intention}: choose, roll and settle in one go")
       for intention in INTENTIONS},
    "choose": Verb(_choose, choice(*INTENTIONS), doc="set the intention (it may change until the roll)"),
    "roll": Verb(_roll, doc="the roll cycle: the player's dice, companions, the encounter's number"),
    "settle": Verb(_settle, doc="apply the rolled outcome and end the encounter"),
    "buy": Verb(_own(preparation.buy, with_chance=True), ref("item"), doc="buy an item from the merchant"),
    "sell": Verb(_own(preparation.sell), ref("item"), doc="sell an item to the merchant"),
    "apply": Verb(_own(preparation.apply_upgrade), ref("item"), doc="apply an upgrade to a stat"),
    "companion": Verb(_own(preparation.assign_companion), ref("creature"), doc="take a charmed creature along"),
    "dismiss": Verb(_own(preparation.dismiss_companion), ref("creature"), doc="leave a companion in the dock"),
    "release": Verb(_own(preparation.release), ref("creature"), doc="release a charmed creature"),
    "trade": Verb(_trade, text(), (("with", text()), ("give", ITEMS), ("get", ITEMS)),
                  doc="two players swap items: {trade: adam, with: micah, give: [...], get: [...]}"),
    "leave": Verb(_leave, text(), doc="a player gives up the adventure"),
}


def apply(state: State, action: Action, chance: Chance, log: Log) -> State:
    return dispatch(ACTIONS, state, action, chance, log)


def legal_actions(state: State) -> list:
    """The actions allowed now that need no open value (random play never guesses one)."""
    rules = state.rules
    if state.phase == OVER:
        return []
    if state.encounter is None and state.phase == ENCOUNTER:
        return ["reveal"]
    player = state.current
    if state.encounter is not None:
        creature = rules.card(state.encounter.card)
        return [i for i in INTENTIONS if _can_try(player, creature, i)]
    actions: list = ["reveal"] if state.zones.count(ENCOUNTERS) else []
    for item_id in sorted(set(state.zones.ids(MERCHANT))):
        price = rules.card(item_id).get("buy")
        if isinstance(price, int) and player.coins >= price:
            actions.append({"buy": item_id})
    for item_id in sorted(set(state.pile(player.name, "items"))):
        item = rules.card(item_id)
        if isinstance(item.get("sell"), int):
            actions.append({"sell": item_id})
        upgrade = item.get("upgrade")
        if upgrade and not is_open(player.dice[upgrade["stat"]]) and (
                item.get("stacks") or item_id not in state.pile(player.name, "upgrades")):
            actions.append({"apply": item_id})
    free = rules.companion_slots is None or len(state.pile(player.name, "companions")) < rules.companion_slots
    actions += [{"companion": c} for c in sorted(set(state.pile(player.name, "dock"))) if free]
    actions += [{"dismiss": c} for c in sorted(set(state.pile(player.name, "companions")))]
    return actions


def _can_try(player, creature, intention: str) -> bool:
    alt = alternative_for(creature, intention)
    if alt is not None:
        return alt.get("roll") is not None or not is_open(player.dice[INTENTION_STAT[intention]])
    target = creature.get(INTENTION_TARGET[intention])
    return target is not None and not is_open(target) and not is_open(player.dice[INTENTION_STAT[intention]])
