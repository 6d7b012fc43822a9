"""The actions of a fight: the verb table, ``apply`` and the actions legal now.

``intents``; ``turn: Ana``; ``{play: [cards], shield: 5}`` or ``{play: [cards], damage: 8, target: Wolf,
ranged: false}``; ``end turn``; ``{act: Wolf, move: true, damage: 8}`` (steps in the order written:
``move`` true or a zone for a Strategic adversary, ``damage`` with an optional ``target`` for a GM's
choice, ``shield``, ``flee: true``); ``corruption: Ana``.
"""
from __future__ import annotations

from deckwright.rules.data.fields import anything, either, flag, listing, ref, text, whole
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.verbs import Action, Verb, dispatch

from . import round as rounds
from .setup import zone
from .state import SPEEDS, Fight


def _intents(fight, value, options, chance, log):
    return rounds.draw_intents(fight, chance, log)


def _turn(fight, name, options, chance, log):
    return rounds.start_turn(fight, name, chance, log)


def _play(fight, cards, options, chance, log):
    cards = [cards] if isinstance(cards, str) else list(cards)
    for i, card in enumerate(cards):
        if card not in fight.rules.values:
            raise SpecError(f"'{card}' is not a tarot card id", ("play", i))
    return rounds.play(fight, tuple(cards), options.get("shield", 0), options.get("damage", 0), options.get("target"),
                       options.get("ranged", False), log)


def _end_turn(fight, value, options, chance, log):
    return rounds.end_turn(fight, log)


def _act(fight, name, options, chance, log):
    """The adversary's steps in the order the action writes them."""
    steps: list[tuple[str, object]] = []
    for key, value in options.items():
        if key == "move":
            steps.append(("move", True if value is True else zone(fight.rules, fight.combat.side, value, ("move",))))
        elif key == "damage":
            steps.append(("damage", (value, options.get("target"))))
        elif key == "shield":
            steps.append(("shield", value))
        elif key == "flee":
            if value is not True:
                raise SpecError("flee: write 'flee: true'", ("flee",))
            steps.append(("flee", True))
    if "target" in options and "damage" not in options:
        raise SpecError("target: only a 'damage' step has a target", ("target",))
    return rounds.adversary_acts(fight, name, steps, log)


def _corruption(fight, name, options, chance, log):
    return rounds.take_corruption(fight, name, log)


AMOUNT = whole(min=0, optional=True)
ACTIONS = {
    "intents": Verb(_intents, doc="a new round: every adversary draws its intent"),
    "turn": Verb(_turn, text(), doc="a player's turn starts: shield dropped, a hand drawn"),
    "play": Verb(_play, either(scalar=ref("tarot"), seq=listing(ref("tarot"), optional=False)),
                 (("shield", AMOUNT), ("damage", AMOUNT), ("target", text(optional=True)), ("ranged", flag())),
                 doc="the current player plays cards for the effect the example states"),
    "end turn": Verb(_end_turn, doc="the current player's unplayed cards are discarded"),
    "act": Verb(_act, text(), (("move", anything()), ("damage", AMOUNT), ("target", text(optional=True)),
                               ("shield", AMOUNT), ("flee", flag())),
                doc="an adversary carries out its intent, step by step"),
    "corruption": Verb(_corruption, text(), doc="a player takes a corruption point"),
}


def apply(state: Fight, action: Action, chance: Chance, log: Log) -> Fight:
    return dispatch(ACTIONS, state, action, chance, log)


def legal_actions(fight: Fight) -> list:
    """The actions of random play: with the stand-in numbers ``new_game`` was given, every card played makes
    shield or melee damage, and every adversary moves by the default rule and deals its intent damage."""
    if fight.phase == "intents":
        return ["intents"]
    card_effect, intent_damage = fight.stand_ins or (0, 0)
    if fight.phase == "adversaries":
        return [{"act": a.name, "move": True, "damage": intent_damage}
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
        actions.append({"play": [card], "shield": card_effect})
        actions += [{"play": [card], "damage": card_effect, "target": a.name}
                    for a in combat.fighting() if a.zone == player.zone]
    return actions
