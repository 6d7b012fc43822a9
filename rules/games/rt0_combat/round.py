"""A fight as a sequence of decisions: the round's phases, whose turn it is, and what each action does.

The phases of a round follow one another on their own: after the last
player's turn the adversaries drop their shield; after the last adversary has
acted the players drop theirs and a new round waits for its intents; when the
last adversary falls the combat ends and the supremacy tally is worked out.
Abilities, spells and adversary stat blocks are not given by the source, so an
action states its effect (``shield: 5``, ``damage: 8``) instead of naming one.
"""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace

from . import combat as core
from .state import SPEEDS, Fight, Player


def _log(log, events) -> None:
    if log:
        for kind, data in events:
            log.add(kind, **data)


def draw_intents(fight: Fight, chance, log) -> Fight:
    _need_phase(fight, "intents", "draw intents")
    combat, events = core.draw_intents(fight.combat, chance)
    order = tuple(core.turn_order(combat.players))
    events.append(("order", {"order": [[n, combat.player(n).speed] for n in order]}))
    _log(log, events)
    return replace(fight, combat=combat, phase="players", order=order, waiting=order, acted=())


def start_turn(fight: Fight, name: str, chance, log) -> Fight:
    _need_phase(fight, "players", f"start {name}'s turn")
    if fight.current is not None:
        raise RuleError(f"{fight.current} is still taking a turn; end it first")
    if name not in fight.waiting:
        done = "has already had a turn this round" if name in fight.order else "is not a player here"
        raise RuleError(f"{name} {done}")
    first_speed = min(SPEEDS.index(fight.combat.player(n).speed) for n in fight.waiting)
    player = fight.combat.player(name)
    if SPEEDS.index(player.speed) > first_speed:
        ahead = [n for n in fight.waiting if SPEEDS.index(fight.combat.player(n).speed) == first_speed]
        raise RuleError(f"{name} ({player.speed}) must wait for {', '.join(ahead)} ({SPEEDS[first_speed]})")
    player, events = core.start_turn(fight.rules, player, chance)
    events.insert(0, ("turn", {"player": name}))
    _log(log, events)
    catastrophes = sum(1 for kind, _ in events if kind == "catastrophe")
    return replace(fight, combat=fight.combat.with_player(player), current=name,
                   catastrophes=fight.catastrophes + catastrophes)


def play(fight: Fight, cards: tuple[str, ...], shield: int, damage: int, target: str | None, ranged: bool,
         log) -> Fight:
    """The current player plays cards; the effect the example states is applied."""
    if fight.current is None:
        raise RuleError("no player is taking a turn; start one with 'turn: <player>'")
    player = core.play_cards(fight.combat.player(fight.current), cards)
    events: list = []
    if cards:
        events.append(("play", {"player": player.name, "cards": list(cards)}))
    if shield:
        player = replace(player, shield=player.shield + shield)
        events.append(("shield", {"who": player.name, "amount": shield, "total": player.shield}))
    combat = fight.combat.with_player(player)
    fight = replace(fight, combat=combat)
    if damage:
        if target is None:
            raise RuleError(f"{player.name} deals damage: say to whom with 'target:'")
        adversary = combat.adversary(target)
        if adversary.out:
            raise RuleError(f"{target} is no longer in the combat")
        if not core.in_reach(player.zone, adversary.zone, "ranged" if ranged else "melee"):
            raise RuleError(f"{target} is in {core.zone_name(adversary.zone)}, {player.name} in "
                            f"{core.zone_name(player.zone)}: melee damage only hits in the same zone")
        adversary, hit = core.damage_adversary(adversary, damage)
        events += hit
        fight = _attacked(fight, player.name, adversary.name, damage, adversary.hp)
        fight = replace(fight, combat=fight.combat.with_adversary(adversary))
    _log(log, events)
    return _maybe_over(fight, log)


def end_turn(fight: Fight, log) -> Fight:
    if fight.current is None:
        raise RuleError("no player is taking a turn")
    player, events = core.end_turn(fight.combat.player(fight.current))
    fight = replace(fight, combat=fight.combat.with_player(player), current=None,
                    waiting=tuple(n for n in fight.waiting if n != player.name))
    if not fight.waiting:
        combat, dropped = core.end_player_turns(fight.combat)
        events += [("players-done", {})] + dropped
        fight = replace(fight, combat=combat, phase="adversaries")
    _log(log, events)
    return fight


def adversary_acts(fight: Fight, name: str, steps: list[tuple[str, object]], log) -> Fight:
    """The adversary carries out its intent, step by step in the order given, then discards it."""
    _need_phase(fight, "adversaries", f"let {name} act")
    adversary = fight.combat.adversary(name)
    if adversary.out:
        raise RuleError(f"{name} is no longer in the combat")
    if name in fight.acted:
        raise RuleError(f"{name} has already acted this round")
    _log(log, [("act", {"adversary": name, "intent": adversary.intent})])
    for key, value in steps:
        fight = _adversary_step(fight, name, key, value, log)
        if fight.phase == "over":
            return fight
    combat, events = core.discard_intent(fight.combat, name)
    fight = replace(fight, combat=combat, acted=fight.acted + (name,))
    if all(a.name in fight.acted for a in combat.fighting()):
        combat, dropped = core.end_round(combat)
        events += [("round-end", {"round": combat.round})] + dropped
        fight = replace(fight, combat=combat, phase="intents", order=(), waiting=())
    _log(log, events)
    return fight


def _adversary_step(fight: Fight, name: str, key: str, value, log) -> Fight:
    combat = fight.combat
    adversary = combat.adversary(name)
    if key == "move":
        if value is True:
            adversary, events = core.default_move(adversary, combat.players)
        else:
            adversary, events = core.chosen_move(adversary, value)
        _log(log, events)
        return replace(fight, combat=combat.with_adversary(adversary))
    if key == "shield":
        _log(log, [("adversary-shield", {"adversary": name, "amount": value})])
        return replace(fight, combat=combat.with_adversary(replace(adversary, shield=adversary.shield + value)))
    if key == "flee":
        _log(log, [("flees", {"adversary": name})])
        return _maybe_over(replace(fight, combat=combat.with_adversary(replace(adversary, out=True))), log)
    damage, choice = value
    target = core.choose_target(adversary, combat.players, choice)
    if target is None:
        _log(log, [("no-target", {"adversary": name, "reach": adversary.reach})])
        return fight
    reason, amount = ("gm", None) if choice else _why_target(target, core.reachable_players(adversary, combat.players))
    player, events = core.damage_player(fight.rules, target, damage)
    _log(log, [("attack", {"adversary": name, "target": target.name, "reason": reason, "value": amount})] + events)
    fight = replace(fight, combat=combat.with_player(player))
    return _attacked(fight, name, target.name, damage, player.hp)


def _why_target(target: Player, candidates: list[Player]) -> tuple[str, int | None]:
    if len(candidates) == 1:
        return "only", None
    if target.shield:
        return "shield", target.shield
    return "hp", target.hp


def _attacked(fight: Fight, by: str, target: str, damage: int, hp: int) -> Fight:
    return replace(fight, last_attack=(("by", by), ("target", target), ("damage", damage), ("hp", hp)))


def take_corruption(fight: Fight, name: str, log) -> Fight:
    if fight.phase == "over":
        raise RuleError("the combat is over")
    player = fight.combat.player(name)
    player = replace(player, corruption=player.corruption + 1)
    _log(log, [("corruption", {"player": name, "corruption": player.corruption,
                               "arcana": core.arcana_ability_count(fight.rules, player)})])
    return replace(fight, combat=fight.combat.with_player(player))


def _maybe_over(fight: Fight, log) -> Fight:
    if not core.combat_over(fight.combat):
        return fight
    tallies, reason, players = core.supremacy_tallies(fight.rules, fight.combat.players)
    _log(log, [("over", {}), ("supremacy", {"tallies": tallies, "reason": reason, "players": list(players)})])
    return replace(fight, phase="over", current=None, supremacy=(tallies, reason, players))


def _need_phase(fight: Fight, phase: str, doing: str) -> None:
    if fight.phase == phase:
        return
    now = {"intents": "the round has not started: draw intents first",
           "players": f"players are taking turns ({', '.join(fight.waiting)} still to go)",
           "adversaries": "adversaries are acting "
                          f"({', '.join(a.name for a in fight.combat.fighting() if a.name not in fight.acted)} still to act)",
           "over": "the combat is over"}[fight.phase]
    raise RuleError(f"cannot {doing}: {now}")
