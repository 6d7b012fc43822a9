"""What can be seen of a fight: the outcomes an example may claim, the end, the piles, the invariants."""
from __future__ import annotations

from deckwright.rules.engine.zones import Zones

from .combat import arcana_ability_count, supremacy_reason, zone_name
from .numbers import Rules
from .state import GM_DECK, Adversary, Fight, Player, deck_pile


def observe(fight: Fight) -> dict:
    combat = fight.combat
    return {
        "round": combat.round,
        "phase": fight.phase,
        "turn_order": list(fight.order),
        "turn": fight.current,
        "players": {p.name: _player_view(fight.rules, p) for p in combat.players},
        "adversaries": {a.name: _adversary_view(a) for a in combat.adversaries},
        "gm": {"deck": list(combat.gm_deck), "deck_size": len(combat.gm_deck), "discard": list(combat.gm_discard)},
        "catastrophes": fight.catastrophes,
        "last_attack": dict(fight.last_attack) or None,
        "over": fight.phase == "over",
        "supremacy": fight.supremacy[0] if fight.supremacy else None,
        "supremacy_reason": supremacy_reason(fight.rules, *fight.supremacy[1:]) if fight.supremacy else None,
    }


def _player_view(rules: Rules, p: Player) -> dict:
    return {"hp": p.hp, "shield": p.shield, "speed": p.speed, "zone": zone_name(p.zone),
            "hand": list(p.hand), "hand_size": len(p.hand), "deck": list(p.deck), "deck_size": len(p.deck),
            "discard": list(p.discard), "discard_size": len(p.discard), "injuries": p.injuries,
            "corruption": p.corruption, "arcana_abilities": arcana_ability_count(rules, p)}


def _adversary_view(a: Adversary) -> dict:
    return {"hp": a.hp, "shield": a.shield, "zone": zone_name(a.zone), "intent": a.intent, "out": a.out}


def is_over(fight: Fight) -> bool:
    return fight.phase == "over"


def outcome(fight: Fight) -> tuple[str, bool | None]:
    """How a combat that is over ended, by the Supremacy Worksheet: ``injury`` or ``corruption`` (nothing added),
    ``clean`` (a tally), ``full-hp`` (two). A combat ends only when every adversary is out, and an injury buys a
    player's HP back, so the source names no losing side (None)."""
    return fight.supremacy[1], None


def zones(fight: Fight) -> Zones:
    """Every player's deck, hand and discard, the GM's deck and discard, and the intents in front of adversaries."""
    piles: dict[str, list] = {}
    for player in fight.combat.players:
        piles[deck_pile(player.name)] = list(player.deck)
        piles[f"{player.name} hand"] = list(player.hand)
        piles[f"{player.name} discard"] = list(player.discard)
    piles[GM_DECK] = list(fight.combat.gm_deck)
    piles["GM discard"] = list(fight.combat.gm_discard)
    piles["intents"] = [a.intent for a in fight.combat.adversaries if a.intent is not None]
    return Zones.with_piles(**piles)


def invariants(fight: Fight) -> list[str]:
    """HP never above the starting HP nor below 0 (an injury buys HP back at 0), shield never negative, a hand
    only during its player's turn (or when the last blow of that turn ended the combat), and an adversary at
    0 HP out of the fight."""
    rules, broken = fight.rules, []
    for p in fight.combat.players:
        if not 0 < p.hp <= rules.starting_hp:
            broken.append(f"{p.name} has {p.hp} HP (from 1 to {rules.starting_hp})")
        if p.shield < 0:
            broken.append(f"{p.name} has {p.shield} shield")
        if p.hand and p.name != fight.current and fight.phase != "over":
            broken.append(f"{p.name} holds {len(p.hand)} card(s) outside their turn")
    for a in fight.combat.adversaries:
        if a.hp < 0 or a.shield < 0:
            broken.append(f"{a.name} has {a.hp} HP and {a.shield} shield")
        if a.hp == 0 and not a.out:
            broken.append(f"{a.name} is at 0 HP and still fighting")
    return broken
