"""The rules of this game as code: deckwright replays the rulebook's worked examples with it.

A made-up duel to start from: each hero attacks in turn; an attack rolls the hero's attack dice and hits
when the total reaches the target's defense; the first to land `hits_to_win` hits wins. The names below
are the rules protocol (deckwright's rules/README.md explains each one); `deckwright check` tests them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from deckwright.rules.data.fields import mapping, record, ref, whole
from deckwright.rules.data.model import Game
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.verbs import Action, Verb, dispatch
from deckwright.rules.engine.zones import Zones

# game.yaml's `constants:`, typed and checked at their own lines.
CONSTANTS = record(hits_to_win=whole(min=1, doc="Hits that win the duel"))


@dataclass(frozen=True)
class State:  # one moment of a game; apply() returns a new one and never changes it
    heroes: dict  # hero id -> its card
    hits_to_win: int
    score: tuple = ()  # (hero id, hits landed), one pair per hero
    last: tuple = ()  # the last attack: (("total", n), ("hit", bool))


def prepare(game: Game) -> State:  # what play needs from the game data, read once
    heroes = {card.id: card for card in game.cards_of("hero")}
    return State(heroes, game.constants["hits_to_win"], tuple((h, 0) for h in heroes))


# An example's `setup:` (hits already landed, by hero) and each action, read like card data.
SETUP = record(score=mapping(whole(min=0), doc="hits already landed, by hero id"))


def setup(rules: State, spec: dict, chance: Chance, log: Log) -> State:
    return replace(rules, score=tuple((h, spec.get("score", {}).get(h, 0)) for h in rules.heroes))


def new_game(rules: State, options: dict, chance: Chance, log: Log) -> State:
    return rules


def _attack(state: State, hero: str, options: dict, chance: Chance, log: Log) -> State:
    if is_over(state):
        raise RuleError("the duel is over")
    attacker, target = state.heroes[hero], state.heroes[options["target"]]
    total, _ = attacker["attack"].roll(chance, f"{attacker.name} attacks")  # dice come from chance only
    hit = total >= target["defense"]
    log.add("attack", attacker=attacker.id, target=target.id, total=total, hit=hit)  # the event log
    score = tuple((h, n + (hit and h == hero)) for h, n in state.score)
    return replace(state, score=score, last=(("total", total), ("hit", hit)))


ACTIONS = {"attack": Verb(_attack, ref("hero"), (("target", ref("hero")),), doc="one attack")}


def apply(state: State, action: Action, chance: Chance, log: Log) -> State:
    return dispatch(ACTIONS, state, action, chance, log)


def legal_actions(state: State) -> list:
    return [{"attack": a, "target": t} for a in state.heroes for t in state.heroes if a != t]


def is_over(state: State) -> bool:
    return any(n >= state.hits_to_win for _, n in state.score)


# For `deckwright simulate` (optional): how a finished game ended and whether it counts as a win, here for the
# first hero, so the report's win rate tells whether the duel is fair. A game that deals and plays cards also
# declares CARD_FACTS (which events draw and play a card: per-card figures), and OPTIONS (what new_game takes,
# so --option and --sweep are checked); rules/README.md explains both.
def outcome(state: State) -> tuple[str, bool | None]:
    winner = next(h for h, n in state.score if n >= state.hits_to_win)
    return f"{state.heroes[winner].name} wins", winner == state.score[0][0]


def zones(state: State) -> Zones:
    return Zones()  # no card moves in a duel


def observe(state: State) -> dict:  # what an example's `expect:` can claim
    return {"hits": sum(n for _, n in state.score), "score": dict(state.score), "last": dict(state.last) or None}


# Each event's sentence, from its data and prepare()'s result: the example's log reads like the rulebook.
NARRATION = {"attack": lambda d, rules: f"{rules.heroes[d['attacker']].name} rolls {d['total']} against "
                                        f"{rules.heroes[d['target']].name}: {'hit' if d['hit'] else 'miss'}"}
