"""Each Nightmare Hunt event's sentence, made from its data (``rules.engine.narration``)."""
from __future__ import annotations

from collections import Counter

from deckwright.rules.engine.narration import plural

from .numbers import Ability, Rules


def cards_text(rules: Rules, ids) -> str:
    counts = Counter(ids)
    return ", ".join(f"{rules.names[c]}" + (f" x{n}" if n > 1 else "") for c, n in counts.items()) or "nothing"


def ability_text(rules: Rules, ability: Ability) -> str:
    parts = []
    for kind, value in ability.steps:
        if kind == "power":
            parts.append(f"Power {value}")
        elif kind == "inflict":
            parts.append(f"inflicts {rules.names[value]}")
        elif kind == "summon":
            parts.append(f"summons {rules.names[value]}")
        else:
            parts.append("discards your action deck")
    return " then ".join(parts) + (", skipping your turn" if ability.skip_turn else "")


def _energies(rules: Rules, energy) -> str:
    return ", ".join(f"{rules.name(label)} has {amount}" for label, amount in energy) + " energy"


def _track(track, critical: int) -> str:
    return "(" + " ".join(f"{v}+" for v in track) + f", critical {critical}+)"


def _enemy_card(rules: Rules, label: str):
    return rules.enemies[label.partition("#")[0]]


def _prey(d, rules: Rules) -> str:
    ability = _enemy_card(rules, d["enemy"]).ability(d["spent"])
    return f"{rules.name(d['enemy'])} spends {d['spent']} energy ({d['left']} left): {ability_text(rules, ability)}"


def _attack(d, rules: Rules) -> str:
    armor = rules.armors[d["armor"]]
    where = "your hand (critical)" if d["to"] == "hand" else "the discard"
    return (f"{rules.name(d['enemy'])}: Power {d['power']} against {armor.name} {_track(d['track'], armor.critical)} "
            f"-> {plural(d['wounds'], 'wound')} to {where}")


def _action(d, rules: Rules) -> str:
    action = rules.actions[d["action"]]
    extra = f", discarding {rules.names[d['discard']]}" if d["discard"] else ""
    return f"You take {action.name} (Time {action.time}{extra})"


def _reaction(d, rules: Rules) -> str:
    if d["action"] == "none":
        return f"You let {rules.name(d['enemy'])}'s action happen"
    action = rules.actions[d["action"]]
    cost = f", discarding {rules.names[d['discard']]}" if d["discard"] else ""
    return f"You react with {action.name} (Time {action.time}{cost}): {rules.name(d['enemy'])}'s action is cancelled"


def _strike(d, rules: Rules) -> str:
    card = _enemy_card(rules, d["enemy"])
    action = rules.actions[d["action"]]
    return (f"{action.name}: Power {action.power} against {rules.name(d['enemy'])} -> "
            f"{min(d['wounds'], card.health)} of {card.health} wounds")


def _wounds_reset(d, rules: Rules) -> str:
    card = _enemy_card(rules, d["enemy"])
    action = rules.actions[d["action"]]
    return (f"{action.name}: Power {action.power} would bring {rules.name(d['enemy'])} to {d['would_be']} wounds "
            f"(>= {card.wound_reset}): all his wounds are removed (0 of {card.health})")


def _protected(d, rules: Rules) -> str:
    action = rules.actions[d["action"]]
    return (f"{action.name}: Power {action.power} against {rules.name(d['enemy'])}: no wounds while "
            f"{rules.names[d['by']]} is in the encounter")


def _encounter(d, rules: Rules) -> str:
    fast = f" (Fast {d['energy']})" if d["energy"] else ""
    return f"Encounter: {rules.names[d['card']]}{fast}"


def _skip(d, rules: Rules) -> str:
    by = rules.actions[d["by"]].name if d["by"] in rules.actions else rules.name(d["by"])
    return f"{by} makes you skip your next turn"


NARRATION = {
    "start": lambda d, r: f"You are in town wearing {r.names[d['armor']]}, hand {cards_text(r, d['hand'])}",
    "setup": lambda d, r: f"{r.names[d['armor']]}; hand {cards_text(r, d['hand'])}; deck {d['deck']}, discard {d['discard']}",
    "equip": lambda d, r: f"You put on {r.names[d['armor']]}",
    "town": lambda d, r: "You return to town",
    "town-deck": lambda d, r: f"In town: {plural(d['wounds_removed'], 'wound')} removed; the action cards are "
                              f"shuffled into a new deck",
    "encounter": _encounter,
    "next-fast": lambda d, r: f"{r.names[d['card']]}: the next prey or boss gains Fast {d['fast']}",
    "join": lambda d, r: f"{r.name(d['enemy'])} joins the encounter",
    "slow": lambda d, r: f"{r.armors[d['armor']].name} is Slow {r.armors[d['armor']].slow}: {_energies(r, d['energy'])}",
    "cleared": lambda d, r: "The level is cleared: its boss is defeated",
    "encounter-over": lambda d, r: "The encounter is over",
    "reset": lambda d, r: (f"The encounter deck is reset ({d['returned']} encounter(s) back on top): "
                           f"top {cards_text(r, d['top'])}"),
    "pass": lambda d, r: f"{r.name(d['enemy'])} passes ({d['energy']} energy)",
    "prey": _prey,
    "attack": _attack,
    "inflict": lambda d, r: f"{r.name(d['by'])} inflicts {r.names[d['condition']]} ({d['count']} on you)",
    "summon": lambda d, r: f"{r.name(d['enemy'])} summons {r.name(d['summoned'])}",
    "deck-lost": lambda d, r: f"{r.name(d['enemy'])} sends your action deck ({d['cards']} cards) to the action discard",
    "skip": _skip,
    "skipped": lambda d, r: "You skip your turn",
    "action": _action,
    "reaction": _reaction,
    "time": lambda d, r: f"{r.actions[d['action']].name}'s Time {r.actions[d['action']].time}: {_energies(r, d['energy'])}",
    "wound": lambda d, r: f"Burning: {plural(d['wounds'], 'wound')} to the discard for {r.actions[d['action']].name}",
    "strike": _strike,
    "wounds-reset": _wounds_reset,
    "protected": _protected,
    "defeat": lambda d, r: f"{r.name(d['enemy'])} is defeated" + (" and trashed" if d["trashed"] else ""),
    "discard": lambda d, r: f"{r.actions[d['action']].name}: your hand ({cards_text(r, d['cards'])}) goes to the discard",
    "conditions-end": lambda d, r: f"{r.actions[d['action']].name} ends {cards_text(r, d['conditions'])}",
    "draw": lambda d, r: f"You draw {cards_text(r, d['cards'])}",
    "recovery": lambda d, r: (f"Recovery: your action deck is empty; a wound joins the discard and the {d['cards']} "
                              f"cards are shuffled into a new action deck"),
    "death": lambda d, r: f"You die: {plural(d['wounds'], 'wound')} in hand reach your Body {r.body}",
}
