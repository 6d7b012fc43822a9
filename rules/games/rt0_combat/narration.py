"""Each RT:0 combat event's sentence, made from its data (``rules.engine.narration``)."""
from __future__ import annotations

from .combat import supremacy_reason
from .numbers import Rules

_WHY = {"gm": lambda d: "the GM's choice", "only": lambda d: "the only player in reach",
        "shield": lambda d: f"most shield, {d['value']}", "hp": lambda d: f"no one has shield; fewest HP, {d['value']}"}


def _draw(d, rules: Rules) -> str:
    kept = f", keeping {', '.join(d['kept'])}" if d["kept"] else ""
    return f"{d['player']} draws {', '.join(d['cards']) or 'nothing'}{kept}"


NARRATION = {
    "reshuffle": lambda d, r: (f"{d['player']} has {d['left']} card(s) left: shuffles them with the {d['discard']}-card "
                               f"discard pile into a new {d['deck']}-card deck"),
    "short-draw": lambda d, r: f"{d['player']} can draw only {d['drawn']} of {r.hand_size}",
    "draw": _draw,
    "catastrophe": lambda d, r: f"{d['player']} drew {d['card']}: catastrophe",
    "shield-drop": lambda d, r: f"{d['who']} discards {d['shield']} shield",
    "unused-shield": lambda d, r: f"{d['who']} discards {d['shield']} unused shield",
    "discard": lambda d, r: f"{d['player']} discards the unplayed {', '.join(d['cards'])}",
    "damage": lambda d, r: (f"{d['target']} takes {d['damage']} damage, {d['blocked']} blocked by shield, loses "
                            f"{d['before'] - d['after']} HP ({d['before']} -> {d['after']})"),
    "injury": lambda d, r: f"{d['player']} is at 0 HP: takes a major injury and buys {d['hp']} HP",
    "out": lambda d, r: f"{d['adversary']} is at 0 HP and leaves the combat",
    "stays": lambda d, r: f"{d['adversary']} shares {d['zone']} with {', '.join(d['sharing'])} and stays",
    "move": lambda d, r: (f"{d['adversary']} moves {d['from']} -> {d['to']} towards {d['towards']} "
                          f"(nearest, {d['distance']} zone(s) away)"),
    "gm-move": lambda d, r: f"{d['adversary']} moves {d['from']} -> {d['to']} (the GM's choice)",
    "round": lambda d, r: f"round {d['round']}",
    "gm-reshuffle": lambda d, r: "the GM shuffles the discarded intents into a new deck",
    "intent": lambda d, r: f"{d['adversary']} draws its intent: {d['card'] if d['face_up'] else 'a face-down card'}",
    "intent-discard": lambda d, r: f"{d['adversary']} discards its intent {d['card']}",
    "order": lambda d, r: "turn order: " + ", ".join(f"{name} ({speed})" for name, speed in d["order"]),
    "turn": lambda d, r: f"{d['player']}'s turn",
    "play": lambda d, r: f"{d['player']} plays {', '.join(d['cards'])}",
    "shield": lambda d, r: f"{d['who']} raises {d['amount']} shield ({d['total']} in all)",
    "players-done": lambda d, r: "every player has had a turn: adversary shield drops",
    "round-end": lambda d, r: f"end of round {d['round']}: player shield drops",
    "act": lambda d, r: f"{d['adversary']} acts on its intent {d['intent']}",
    "adversary-shield": lambda d, r: f"{d['adversary']} raises {d['amount']} shield",
    "flees": lambda d, r: f"{d['adversary']} flees the combat",
    "no-target": lambda d, r: f"{d['adversary']} has no player within {d['reach']} reach",
    "attack": lambda d, r: f"{d['adversary']} attacks {d['target']} ({_WHY[d['reason']](d)})",
    "corruption": lambda d, r: (f"{d['player']} takes a corruption point ({d['corruption']} this combat): "
                                f"{d['arcana']} arcana abilities"),
    "over": lambda d, r: "every adversary is out: the combat is over",
    "supremacy": lambda d, r: (f"supremacy worksheet: {d['tallies']} tally(ies): "
                               f"{supremacy_reason(r, d['reason'], d['players'])}"),
}
