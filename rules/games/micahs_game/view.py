"""What can be seen of a game of Micah's Game: the outcomes an example may claim, the end, the piles, the invariants."""
from __future__ import annotations

from deckwright.rules.engine.dice import pool_text
from deckwright.rules.engine.openvalues import is_open
from deckwright.rules.engine.zones import Zones

from .setup import SHARED_PILES
from .state import MERCHANT, OVER, PLAYER_PILES, PLAYING, State


def _dice_text(pool) -> str:
    return "open" if is_open(pool) else pool_text(list(pool))


def observe(state: State) -> dict:
    zones = state.zones
    players = {}
    for p in state.players:
        players[p.name] = {
            "class": p.hero, "coins": p.coins, "health": "open" if p.hp is None else p.hp,
            "health_change": p.health_change, "status": p.status,
            "dice": {stat: _dice_text(pool) for stat, pool in p.dice.items()},
            **{kind: state.pile(p.name, kind) for kind in PLAYER_PILES},
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


def is_over(state: State) -> bool:
    return state.phase == OVER


def outcome(state: State) -> tuple[str, bool | None]:
    """How a game that is over ended, by the source's win conditions: the encounter deck exhausted (every player
    still in wins), the last player standing, or every player out (by health or by leaving). Several players can
    win together, so no single side wins (None)."""
    out = sum(1 for p in state.players if p.status != PLAYING)
    if not state.winners:
        return "everyone out", None
    if len(state.players) > 1 and len(state.winners) == 1 and out == len(state.players) - 1:
        return "last player standing", None
    return "encounters exhausted", None


def zones(state: State) -> Zones:
    return state.zones


def invariants(state: State) -> list[str]:
    """Coins never negative; health within its ceiling (when one is known) and above 0 for a player still in;
    the merchant never above its slots; companions within the limit (when one is known); a finished game has
    its winners among the players still in."""
    rules, broken = state.rules, []
    for player in state.players:
        if player.coins < 0:
            broken.append(f"{player.name} has {player.coins} coins")
        if player.hp is not None and rules.max_health is not None and player.hp > rules.max_health:
            broken.append(f"{player.name} has {player.hp} health, above the ceiling {rules.max_health}")
        if player.hp is not None and player.hp <= 0 and player.status == PLAYING:
            broken.append(f"{player.name} is at {player.hp} health and still in the adventure")
        companions = len(state.pile(player.name, "companions"))
        if rules.companion_slots is not None and companions > rules.companion_slots:
            broken.append(f"{player.name} has {companions} companions, above {rules.companion_slots}")
    if state.zones.count(MERCHANT) > rules.merchant_slots:
        broken.append(f"the merchant shows {state.zones.count(MERCHANT)} items, above its {rules.merchant_slots} slots")
    if state.phase == OVER and any(state.player(w).status != PLAYING for w in state.winners):
        broken.append(f"winners {', '.join(state.winners)} include a player who is out")
    return broken
