"""Each Micah's Game event's sentence, made from its data (``rules.engine.narration``)."""
from __future__ import annotations

from deckwright.rules.engine.dice import pool_text

from .numbers import Rules


def _names(rules: Rules, ids, empty: str = "nothing") -> str:
    return ", ".join(rules.name(i) for i in ids) or empty


def _health(d, rules: Rules) -> str:
    why = f"it is {rules.name(d['weather'])}" if d["weather"] else f"{rules.name(d['attacker'])}'s attack"
    shown = f" (health {d['health']})" if d["health"] is not None else ""
    verb = "gains" if d["amount"] >= 0 else "loses"
    return f"{d['player']} {verb} {abs(d['amount'])} health: {why}{shown}"


def _result(d, rules: Rules) -> str:
    return (f"{d['player']} rolls {d['total']} against {rules.name(d['card'])}'s {d['against']} {d['target']}: "
            f"{'success' if d['success'] else 'failure'}")


def _charmed(d, rules: Rules) -> str:
    if d["becomes"] is None:
        return f"{d['player']} charms {rules.name(d['card'])}; it joins the creature dock"
    return f"{d['player']} charms {rules.name(d['card'])}; it becomes {rules.name(d['becomes'])} and joins the creature dock"


def _companion_hit(d, rules: Rules) -> str:
    what = "dies and goes to the graveyard" if d["dies"] else "survives"
    return f"{d['player']}'s companion {rules.name(d['companion'])} (defense {d['defense']}) {what}"


NARRATION = {
    "players": lambda d, r: f"{len(d['players'])} players: " + ", ".join(f"{n} ({h})" for n, h in d["players"]),
    "treasure-reshuffled": lambda d, r: "the treasure deck is empty: the used treasure is shuffled into a new treasure deck",
    "restock": lambda d, r: "the merchant puts out " + _names(r, d["items"]),
    "merchant-short": lambda d, r: (f"no treasure is left to restock from: the merchant shows {d['shows']} "
                                    f"of its {r.merchant_slots} slots"),
    "turn": lambda d, r: f"turn {d['turn']}: {d['player']}",
    "creature-coins": lambda d, r: (f"{d['player']} gains {d['coins']} coin from {r.name(d['creature'])} "
                                    f"({d['total']} coins)"),
    "health": _health,
    "out": lambda d, r: (f"{d['player']} {'health reaches 0' if d['reason'] == 'health' else 'leaves the adventure'} "
                         f"and is out of the adventure"),
    "creatures-to-graveyard": lambda d, r: f"{d['player']}'s creatures go to the graveyard: " + _names(r, d["creatures"]),
    "items-to-merchant": lambda d, r: f"{d['player']}'s items go to the merchant: " + _names(r, d["items"]),
    "last-alive": lambda d, r: f"{d['player']} is the last player alive and wins",
    "nobody-left": lambda d, r: "no player is left in the adventure",
    "exhausted": lambda d, r: f"the encounter deck is exhausted: {', '.join(d['winners']) or 'nobody'} win together",
    "weather": lambda d, r: f"the weather is now {r.name(d['weather'])}",
    "weather-from": lambda d, r: f"{r.name(d['weather'])} counts from the start of turn {d['turn']}",
    "buy": lambda d, r: f"{d['player']} buys {r.name(d['item'])} for {d['price']} coins ({d['coins']} coins)",
    "sell": lambda d, r: (f"{d['player']} sells {r.name(d['item'])} to the merchant for {d['price']} coins "
                          f"({d['coins']} coins)"),
    "upgrade": lambda d, r: (f"{d['player']} applies {r.name(d['item'])}: {d['stat']} {pool_text(d['before'])} -> "
                             f"{pool_text(d['after'])}"),
    "trade": lambda d, r: f"{d['player']} trades {_names(r, d['gives'])} to {d['with']} for {_names(r, d['gets'])}",
    "companion": lambda d, r: f"{d['player']} takes {r.name(d['creature'])} along as a companion",
    "dismiss": lambda d, r: f"{d['player']} leaves {r.name(d['creature'])} in the creature dock",
    "release": lambda d, r: f"{d['player']} releases {r.name(d['creature'])}; it goes to the graveyard",
    "reveal": lambda d, r: f"{d['player']} turns over {r.name(d['card'])}",
    "shuffled-back": lambda d, r: f"{r.name(d['card'])} is shuffled back into the encounter deck",
    "intention": lambda d, r: f"{d['player']} chooses to {d['intention']}",
    "companion-adds": lambda d, r: f"{d['player']}'s companion {r.name(d['companion'])} adds {d['adds']}",
    "doubles": lambda d, r: (f"{d['player']} rolls {', '.join(map(str, d['faces']))}: "
                             f"{'doubles, success' if d['success'] else 'no doubles, failure'}"),
    "result": _result,
    "draw-another": lambda d, r: f"{r.name(d['card'])} sends {d['player']} on to another encounter",
    "defeated": lambda d, r: f"{r.name(d['card'])} is defeated and goes to the graveyard",
    "bounty": lambda d, r: f"{d['player']} collects a bounty of {d['bounty']} coins ({d['coins']} coins)",
    "charmed": _charmed,
    "escaped": lambda d, r: f"{d['player']} escapes from {r.name(d['card'])}",
    "items-lost": lambda d, r: (f"{d['player']} loses {d['count']} item(s) at random: "
                                f"{_names(r, d['items'], 'none held')}"),
    "attacks": lambda d, r: f"{r.name(d['card'])} attacks for {d['damage']}",
    "companion-hit": _companion_hit,
}
