"""Each Parousia event's sentence, made from its data (``rules.engine.narration``)."""
from __future__ import annotations

from .chances import chance_text
from .numbers import ChanceLine, Rules


def _effect(d, rules: Rules) -> str:
    parts = [f"{amount:+d} {rules.counter_name(stat).lower()}" for stat, amount in d["bonus"]]
    parts += [condition.replace("-", " ") for condition in d["conditions"]]
    span = f"for {d['turns']} turns" if d["lasts"] == "turns" else "until the combat phase ends"
    return f"{d['player']}: {', '.join(parts)} {span}"


def _take(d, rules: Rules) -> str:
    rule = rules.pickups[d["pickup"]]
    what = rules.counter_name(rule.counter) if rule.counter else f"{rule.name}s"
    return f"{d['player']} takes {d['loot']}: {what} +{d['added']}"


def _why(d) -> str:
    return f"{d['why']}: " if d["why"] else ""


def _chance(d, rules: Rules) -> str:
    lines = [ChanceLine(up_to, result) for up_to, result in d["lines"]]
    return f"{d['what']}: {d['roll']} on ({chance_text(lines, rules.die)}): {d['result'] or 'nothing'}"


NARRATION = {
    "play": lambda d, r: f"{d['player']} plays {r.deck_cards[d['card']].name}",
    "effect": _effect,
    "heal": lambda d, r: f"{d['player']} heals to {d['hearts']} red hearts",
    "no-target": lambda d, r: "no enemy to damage",
    "damage": lambda d, r: f"{d['foe']} takes {d['amount']} damage",
    "fight": lambda d, r: (f"{'boss fight' if d['boss'] else 'combat'} begins against {', '.join(d['names'])}; "
                           f"order: {', '.join(d['order'])}"),
    "shot": lambda d, r: (f"{d['player']}: {d['roll']} + {d['damage']} damage = {d['roll'] + d['damage']} against "
                          f"{d['against']} {d['defense']}: {'hit' if d['hit'] else 'miss'}"),
    "boss": lambda d, r: f"{d['name']} loses {d['damage']} HP: {d['hp']} left{', defeated' if d['defeated'] else ''}",
    "form": lambda d, r: f"{d['foe']} takes its next form, {d['name']}",
    "kill": lambda d, r: f"{d['foe']} dies",
    "wears-off": lambda d, r: f"{d['card']} wears off for {d['player']}",
    "no-shot": lambda d, r: f"{d['player']} does not shoot this turn",
    "foe-shot": lambda d, r: (f"{d['foe']}: accuracy {d['accuracy']} + {d['roll']} = {d['accuracy'] + d['roll']} "
                              f"against {d['target']}'s speed {d['speed']}: {'hit' if d['hit'] else 'miss'}"),
    "contact": lambda d, r: (f"{d['foe']} (speed {d['speed']}) is faster than {d['target']} ({d['target_speed']}): "
                             f"contact damage"),
    "fight-over": lambda d, r: "the combat phase ends",
    "charge-open": lambda d, r: f"{d['player']}'s activated item has no known charge: the counter stays",
    "charge": lambda d, r: f"{d['player']}'s activated item charge +{d['added']}: {d['charge']} of {d['of']}",
    "devil": lambda d, r: (f"{d['player']} notes {d['noted']} and rolls {d['roll']}: "
                           f"{'the devil room opens' if d['opens'] else 'no devil room'}"),
    "deal": lambda d, r: (f"{d['player']} makes a devil deal for {d['name']}: {d['containers']} heart container(s), "
                          f"{d['soul']} soul and {d['black']} black heart(s)"),
    "devil-halved": lambda d, r: f"{d['player']} made no devil deal: devil die {d['before']} -> {d['after']}",
    "floor": lambda d, r: f"the party goes down to floor {d['floor']}",
    "cap": lambda d, r: f"{r.counter_name(d['counter'])} stop at {d['after']}: {d['lost']} lost",
    "rest-on-floor": lambda d, r: (f"{r.pickups[d['pickup']].name}: the counter stops at {d['after']}; "
                                   f"{d['amount']} {r.pickups[d['unit']].name.lower()}(s) stay on the floor"),
    "hearts-drop": lambda d, r: f"{d['player']}'s red hearts drop to {d['hearts']} with the heart containers",
    "take": _take,
    "take-card": lambda d, r: f"{d['player']} takes {d['loot']} into the hand",
    "take-item": lambda d, r: f"{d['player']} takes the item {d['name']}",
    "pay": lambda d, r: f"{d['player']} spends one of their {d['counter']} on the {d['guard']}",
    "drop": lambda d, r: f"{d['amount']} {r.pickups[d['pickup']].name}(s) drop on the floor",
    "drop-card": lambda d, r: f"{_why(d)}{r.deck_cards[d['card']].name} drops on the floor",
    "drop-item": lambda d, r: f"{_why(d)}the item {d['name']} appears",
    "convert": lambda d, r: f"{d['changed']} pickup(s) on the floor turn into {r.pickups[d['pickup']].name}s",
    "unhurt": lambda d, r: (f"{d['player']} cannot be hurt" if d["why"] == "invulnerable"
                            else f"{d['player']} takes no contact damage"),
    "hurt": lambda d, r: (f"{d['player']} loses {d['hearts']} heart(s) ({d['red']} red): {d['left'][0]} red, "
                          f"{d['left'][1]} soul, {d['left'][2]} black left"),
    "devil-up": lambda d, r: f"{d['player']}'s devil die goes up by {d['step']} to {d['devil_die']}",
    "discover": lambda d, r: f"the {r.special_rooms[d['room']].name} is discovered",
    "room": lambda d, r: f"room drawn: {d['name']}{' (chaser)' if d['chaser'] else ''}",
    "unlock": lambda d, r: f"{d['player']} unlocks the {r.special_rooms[d['room']].name} with {d['keys']} key(s)",
    "enter": lambda d, r: f"{d['player']} enters the {r.special_rooms[d['room']].name}",
    "shop": lambda d, r: f"two of the pickups are hearts: {d['loot']} is sold as soul heart(s)",
    "machine": lambda d, r: f"a {r.machine_names[d['machine']]} stands in the {r.special_rooms[d['room']].name}",
    "buy": lambda d, r: f"{d['player']} buys {d['loot']} for {d['price']}c: {d['coins']}c left",
    "use": lambda d, r: (f"{d['player']} uses the {r.machine_names[d['machine']]} ({d['loot']}); the cost of a use "
                         f"is left open"),
    "chance": _chance,
    "amount": lambda d, r: f"{d['what']}: {d['dice']} with {'+'.join(map(str, d['faces']))} rolled gives {d['amount']}",
    "card-machine": lambda d, r: f"{r.deck_cards[d['card']].name} lies on the floor as a {r.machine_names[d['machine']]}",
}
