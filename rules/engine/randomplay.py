"""Seeded random play through a game's rules module, checking invariants after every action.

Used by the conformance suite, each game's tests and the benchmarks
(OpenSpiel style): many seeded games in which a player picks among the legal
actions. After every action the cards must be conserved across the zones and
the game's own ``invariants(state)`` must hold; the game must end within a
stated number of actions. ``choose(state, actions, chance)`` picks the action;
the default picks uniformly with the seeded chance.

With ``in_place``, a module's optional ``apply_in_place`` is used instead of
``apply``: play owns its states (a player sees each one only during its
``choose`` call and must not keep it), so the copy ``apply`` makes at every step
is saved. The simulator and the benchmarks play that way; the conformance
suite plays through ``apply``, which it watches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .chance import SeededChance
from .log import NULL_LOG


@dataclass(frozen=True)
class PlayResult:
    seed: int
    actions: int  # actions applied
    over: bool  # the game ended within the bound
    state: object
    problems: tuple[str, ...] = ()  # conservation or invariant failures, with the step they appeared at


def random_choice(state, actions: list, chance):
    return chance.pick(actions)


def broken_rules(module, state, start) -> list[str]:
    """Cards not conserved since ``start`` (an inventory) and the game's invariants that do not hold."""
    problems = module.zones(state).conservation_problems(start)
    invariants = getattr(module, "invariants", None)
    return problems + list(invariants(state)) if invariants is not None else problems


def play(module, rules: Any, seed: int, max_actions: int, options: dict | None = None,
         choose: Callable = random_choice, log=NULL_LOG, check_every: int = 1, in_place: bool = False) -> PlayResult:
    """One seeded game from ``module.new_game(rules, ...)`` (``rules`` from ``module.prepare(game)``, read once
    for many games); stops at the end, at ``max_actions``, or at the first broken rule."""
    apply = (in_place and getattr(module, "apply_in_place", None)) or module.apply
    is_over, legal_actions = module.is_over, module.legal_actions
    chance = SeededChance(seed, log)
    state = module.new_game(rules, options or {}, chance, log)
    start = module.zones(state).inventory()
    applied = 0
    checking = check_every <= max_actions  # else only at the end (the simulator's way): no test at every step
    while not is_over(state):
        if applied >= max_actions:
            return PlayResult(seed, applied, False, state)
        actions = legal_actions(state)
        if not actions:
            return PlayResult(seed, applied, False, state, (f"action {applied + 1}: no legal action but the game is not over",))
        state = apply(state, choose(state, actions, chance), chance, log)
        applied += 1
        if checking and applied % check_every == 0:
            problems = broken_rules(module, state, start)
            if problems:
                return PlayResult(seed, applied, False, state, tuple(f"after action {applied}: {p}" for p in problems))
    problems = broken_rules(module, state, start)
    return PlayResult(seed, applied, True, state, tuple(f"at the end: {p}" for p in problems))
