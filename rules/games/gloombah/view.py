"""What can be seen of a game of Gloombah!: the outcomes an example may claim, the end, the piles, the invariants."""
from __future__ import annotations

from deckwright.rules.engine.openvalues import OpenRuleError
from deckwright.rules.engine.zones import Zones

from .cards import player_attack
from .state import Player, State, piles


def observe(state: State) -> dict:
    table = state.table
    out = {
        "phase": state.phase,
        "turn": table.turn_player.name,
        "round": table.round,
        "winner": table.winner,
        "players": {p.name: _player_view(p) for p in table.players},
        "monster": table.fighting.name if table.fighting else None,
        "fighters": list(state.fighters),
        "hits": {name: {"damage": h.damage, "absorbed": h.absorbed, "to_player": h.to_player, "gear": h.gear}
                 for name, h in state.hits},
        "died": list(state.died),
        "items": list(table.items),
        "item_discard": list(table.item_discard),
    }
    if state.fight is not None:
        f = state.fight
        out["fight"] = {"monster": f.monster, "fighters": list(f.fighters), "side": f.side,
                        "monster_side": f.monster_side, "outcome": f.outcome, "margin": f.margin}
    if state.escape is not None:
        e = state.escape
        out["run"] = {"how": e.how, "roll": e.roll, "escaped": e.escaped}
    return out


def _player_view(p: Player) -> dict:
    try:
        attack = player_attack(p)
    except OpenRuleError:
        attack = None
    return {"level": p.level, "class": p.klass, "hand": list(p.hand), "attack": attack,
            "gear": (p.gear.card or p.gear.name) if p.gear else None,
            "gear_state": ("damaged" if p.gear.damaged else "intact") if p.gear else None,
            "weapon": (p.weapon.card or p.weapon.name) if p.weapon else None,
            "effects": [e.name for e in p.effects]}


def is_over(state: State) -> bool:
    return state.phase == "over"


def outcome(state: State) -> tuple[str, bool | None]:
    """Who reached the last level first (``deckwright simulate`` counts the wins by seat); no single side wins."""
    return f"{state.table.winner} wins", None


def zones(state: State) -> Zones:
    return Zones.with_piles(**piles(state.table))


def invariants(state: State) -> list[str]:
    """Levels stay below the win level except for the winner, and at or above the minimum attack points except
    for a dead player still choosing the card to keep; a weapon is one the wearer's class may hold; the game is
    over exactly when someone has won."""
    rules, table, broken = state.rules, state.table, []
    for player in table.players:
        if player.level >= rules.win_level and player.name != table.winner:
            broken.append(f"{player.name} is at level {player.level} without having won")
        if player.level < rules.min_attack_points and player.name not in state.keeping:
            broken.append(f"{player.name} is at level {player.level}, below {rules.min_attack_points}, and not dying")
        weapon = player.weapon
        if weapon is not None and weapon.card and player.klass not in weapon.classes:
            broken.append(f"{player.name} ({player.klass}) wields {weapon.card}, which is for {', '.join(weapon.classes)}")
    if (state.phase == "over") != (table.winner is not None):
        broken.append(f"phase {state.phase} with winner {table.winner}")
    if not set(state.fighters) <= {p.name for p in table.players}:
        broken.append(f"fighters {', '.join(state.fighters)} are not all players")
    return broken
