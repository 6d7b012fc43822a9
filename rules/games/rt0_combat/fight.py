"""A fight as a sequence of decisions: the round's phases, whose turn it is, and what each action does.

The phases of a round follow one another on their own: after the last
player's turn the adversaries drop their shield; after the last adversary has
acted the players drop theirs and a new round waits for its intents; when the
last adversary falls the combat ends and the supremacy tally is worked out.
Abilities, spells and adversary stat blocks are not given by the source, so an
action states its effect (``shield: 5``, ``damage: 8``) instead of naming one.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from deckwright.rules.engine.errors import RuleError

from . import core
from .core import SPEEDS, Adversary, Combat, Player, Rules, zone_name

PHASES = ("intents", "players", "adversaries", "over")


@dataclass(frozen=True)
class Fight:
    rules: Rules
    combat: Combat
    phase: str = "intents"
    order: tuple[str, ...] = ()  # this round's turn order
    waiting: tuple[str, ...] = ()  # players who have not had their turn this round
    current: str | None = None  # the player taking a turn
    acted: tuple[str, ...] = ()  # adversaries that have acted this round
    catastrophes: int = 0
    last_attack: tuple[tuple[str, object], ...] = ()
    supremacy: tuple[int, str] | None = None
    stand_in_damage: tuple[tuple[str, int], ...] = ()  # random play only: each adversary's intent damage


def _log(log, events) -> None:
    if log:
        for kind, text in events:
            log.add(kind, text)


# -- the round -------------------------------------------------------------------


def draw_intents(fight: Fight, chance, log) -> Fight:
    _need_phase(fight, "intents", "draw intents")
    combat, events = core.draw_intents(fight.combat, chance)
    order = tuple(core.turn_order(combat.players))
    events.append(("order", "turn order: " + ", ".join(f"{n} ({combat.player(n).speed})" for n in order)))
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
    events.insert(0, ("turn", f"{name}'s turn"))
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
    events: core.Events = []
    if cards:
        events.append(("play", f"{player.name} plays {', '.join(cards)}"))
    if shield:
        player = replace(player, shield=player.shield + shield)
        events.append(("shield", f"{player.name} raises {shield} shield ({player.shield} in all)"))
    combat = fight.combat.with_player(player)
    fight = replace(fight, combat=combat)
    if damage:
        if target is None:
            raise RuleError(f"{player.name} deals damage: say to whom with 'target:'")
        adversary = combat.adversary(target)
        if adversary.out:
            raise RuleError(f"{target} is no longer in the combat")
        if not core.in_reach(player.zone, adversary.zone, "ranged" if ranged else "melee"):
            raise RuleError(f"{target} is in {zone_name(adversary.zone)}, {player.name} in {zone_name(player.zone)}: "
                            f"melee damage only hits in the same zone")
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
        events += [("phase", "every player has had a turn: adversary shield drops")] + dropped
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
    _log(log, [("act", f"{name} acts on its intent {adversary.intent}")])
    for key, value in steps:
        fight = _adversary_step(fight, name, key, value, log)
        if fight.phase == "over":
            return fight
    combat, events = core.discard_intent(fight.combat, name)
    fight = replace(fight, combat=combat, acted=fight.acted + (name,))
    if all(a.name in fight.acted for a in combat.fighting()):
        combat, dropped = core.end_round(combat)
        events += [("phase", f"end of round {combat.round}: player shield drops")] + dropped
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
        _log(log, [("shield", f"{name} raises {value} shield")])
        return replace(fight, combat=combat.with_adversary(replace(adversary, shield=adversary.shield + value)))
    if key == "flee":
        _log(log, [("out", f"{name} flees the combat")])
        return _maybe_over(replace(fight, combat=combat.with_adversary(replace(adversary, out=True))), log)
    damage, choice = value
    target = core.choose_target(adversary, combat.players, choice)
    if target is None:
        _log(log, [("attack", f"{name} has no player within {adversary.reach} reach")])
        return fight
    how = "the GM's choice" if choice else _why_target(target, core.reachable_players(adversary, combat.players))
    player, events = core.damage_player(fight.rules, target, damage)
    _log(log, [("attack", f"{name} attacks {target.name} ({how})")] + events)
    fight = replace(fight, combat=combat.with_player(player))
    return _attacked(fight, name, target.name, damage, player.hp)


def _why_target(target: Player, candidates: list[Player]) -> str:
    if len(candidates) == 1:
        return "the only player in reach"
    if target.shield:
        return f"most shield, {target.shield}"
    return f"no one has shield; fewest HP, {target.hp}"


def _attacked(fight: Fight, by: str, target: str, damage: int, hp: int) -> Fight:
    return replace(fight, last_attack=(("by", by), ("target", target), ("damage", damage), ("hp", hp)))


def take_corruption(fight: Fight, name: str, log) -> Fight:
    if fight.phase == "over":
        raise RuleError("the combat is over")
    player = fight.combat.player(name)
    player = replace(player, corruption=player.corruption + 1)
    _log(log, [("corruption", f"{name} takes a corruption point ({player.corruption} this combat): "
                              f"{core.arcana_ability_count(fight.rules, player)} arcana abilities")])
    return replace(fight, combat=fight.combat.with_player(player))


def _maybe_over(fight: Fight, log) -> Fight:
    if not core.combat_over(fight.combat):
        return fight
    tallies, why = core.supremacy_tallies(fight.rules, fight.combat.players)
    _log(log, [("over", "every adversary is out: the combat is over"),
               ("supremacy", f"supremacy worksheet: {tallies} tally(ies): {why}")])
    return replace(fight, phase="over", current=None, supremacy=(tallies, why))


def _need_phase(fight: Fight, phase: str, doing: str) -> None:
    if fight.phase == phase:
        return
    now = {"intents": "the round has not started: draw intents first",
           "players": f"players are taking turns ({', '.join(fight.waiting)} still to go)",
           "adversaries": f"adversaries are acting ({', '.join(a.name for a in fight.combat.fighting() if a.name not in fight.acted)} still to act)",
           "over": "the combat is over"}[fight.phase]
    raise RuleError(f"cannot {doing}: {now}")


# -- what an example can claim ---------------------------------------------------


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
        "supremacy_reason": fight.supremacy[1] if fight.supremacy else None,
    }


def _player_view(rules: Rules, p: Player) -> dict:
    return {"hp": p.hp, "shield": p.shield, "speed": p.speed, "zone": zone_name(p.zone),
            "hand": list(p.hand), "hand_size": len(p.hand), "deck": list(p.deck), "deck_size": len(p.deck),
            "discard": list(p.discard), "discard_size": len(p.discard), "injuries": p.injuries,
            "corruption": p.corruption, "arcana_abilities": core.arcana_ability_count(rules, p)}


def _adversary_view(a: Adversary) -> dict:
    return {"hp": a.hp, "shield": a.shield, "zone": zone_name(a.zone), "intent": a.intent, "out": a.out}
