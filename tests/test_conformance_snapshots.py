"""The conformance suite's copies of states (rules.ci.snapshots) are the deep copies they always were: equal to a
plain recursive copy for every state random play reaches, however often the same tuples come back, and a change
made behind the caller's back (even to a frozen dataclass) still shows."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.fixtures import overlaid, random_play_setups
from deckwright.rules.ci.snapshots import MAX_DEPTH, Snapshots
from deckwright.rules.engine.log import EventLog
from deckwright.rules.engine.randomplay import play
from deckwright.rules.games import load_rules_file, rules_module
from deckwright.rules.load import load_game

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SETUPS = {setup.game: setup for setup in random_play_setups(FIXTURES / "randomplay.yaml")}


def plain_copy(value: Any, shared: set[int], depth: int = 0) -> Any:
    """The copy as rules.ci.conformance made it before rules.ci.snapshots, word for word."""
    if depth > 60:
        return "..."
    if id(value) in shared:
        return ("shared", id(value))
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    nxt = depth + 1
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, plain_copy(getattr(value, f.name), shared, nxt))
                                            for f in fields(value) if f.compare))
    if isinstance(value, dict):
        return ("dict", tuple((plain_copy(k, shared, nxt), plain_copy(v, shared, nxt)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(plain_copy(v, shared, nxt) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(v) for v in value)))
    if hasattr(value, "__dict__") and not callable(value):
        return (type(value).__name__, plain_copy(vars(value), shared, nxt))
    return repr(value)


class _Recorded:
    """A module whose every state given to or made by ``apply`` is copied both ways as play goes."""

    def __init__(self, module, rules):
        self._module, self.shared = module, {id(rules)}
        self.snapshots = Snapshots(self.shared)
        self.pairs: list[tuple[Any, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def apply(self, state, action, chance, log):
        self.pairs.append((self.snapshots.take(state), plain_copy(state, self.shared)))
        new = self._module.apply(state, action, chance, log)
        self.pairs.append((self.snapshots.take(new), plain_copy(new, self.shared)))
        return new


@pytest.mark.parametrize("name", ["nightmare-hunt", "rt0-combat"])
def test_every_state_of_random_play_copies_as_it_always_did(name, tmp_path):
    setup = SETUPS[name]
    game = load_game(overlaid(BUNDLED_GAMES / name, setup.overlay, tmp_path / name))
    module = rules_module(game)
    rules = module.prepare(game)
    recorded = _Recorded(module, rules)
    for seed in range(2):
        play(recorded, rules, seed, setup.max_actions, setup.options, log=EventLog(lambda kind, data: kind))
    assert len(recorded.pairs) > 50
    for ours, plain in recorded.pairs:
        assert ours == plain


def test_the_fixture_duel_copies_as_it_always_did():
    folder = FIXTURES / "engine" / "dice-duel"
    module = load_rules_file(folder / "rules.py", "dice-duel")
    game = load_game(folder)
    rules = module.prepare(game)
    recorded = _Recorded(module, rules)
    play(recorded, rules, 0, 5_000, {}, log=EventLog(lambda kind, data: kind))
    assert recorded.pairs and all(ours == plain for ours, plain in recorded.pairs)


def nested(levels: int, inner: Any) -> Any:
    for _ in range(levels):
        inner = (inner,)
    return inner


def test_a_tuple_seen_again_nearer_the_depth_limit_is_cut_there():
    deep = nested(5, ("a", 1))
    snapshots = Snapshots()
    assert snapshots.take(deep) == plain_copy(deep, set())
    for depth in range(MAX_DEPTH - 8, MAX_DEPTH + 3):
        near_limit = nested(depth, deep)
        assert snapshots.take(near_limit) == plain_copy(near_limit, set()), depth
        assert snapshots.take(deep) == plain_copy(deep, set())


def test_tuples_holding_changeable_values_are_copied_afresh():
    inside = ["a"]
    value = (1, inside, frozenset({"x"}), (2, (3,)))
    snapshots = Snapshots()
    before = snapshots.take(value)
    inside.append("b")
    assert snapshots.take(value) != before
    assert snapshots.take(value) == plain_copy(value, set())


@dataclass(frozen=True)
class _Score:
    hits: tuple


def test_a_frozen_dataclass_changed_behind_the_callers_back_shows():
    score = _Score(("a", "b"))
    snapshots = Snapshots()
    before = snapshots.take(score)
    object.__setattr__(score, "hits", ("a", "b", "c"))
    assert snapshots.take(score) != before


class _Named(tuple):
    pass


class _Tagged(set):
    pass


class _Plain:
    def __init__(self, inside):
        self.inside = inside


class _Number(int):
    pass


@dataclass
class _Pair:
    left: Any
    right: Any
    note: str = field(default="", compare=False)


def test_every_kind_of_value_copies_as_it_always_did_at_every_depth():
    shared = [1, 2]
    value = {"a": (1, "b", None, 2.5, True), ("k", 1): [_Named((1, 2)), _Tagged({"x", 3}), frozenset({"y"})],
             "plain": _Plain({"z": [shared, _Number(7)]}), "pair": _Pair(shared, (shared, ("c",)), "ignored"),
             "odd": len, "empty": ((), [], {}, frozenset())}
    for depth in range(MAX_DEPTH - 6, MAX_DEPTH + 2):
        for ids in ({id(shared)}, {id(shared), id("b"), id(None)}):  # text or none shared: by identity too
            snapshots = Snapshots(ids)
            for _ in range(3):  # later takes reuse the unchangeable tuples' copies
                assert snapshots.take(value, depth) == plain_copy(value, ids, depth), (depth, ids)


@dataclass
class _Enemy:
    name: str
    score: _Score
    abilities: tuple


def test_a_dataclass_deep_inside_tuples_and_dataclasses_changed_between_takes_shows():
    inner = _Score(("a",))
    enemy = _Enemy("x", _Score(("b", 1)), (inner, _Score(())))
    value = ("state", [enemy], (enemy, (enemy,)))
    snapshots = Snapshots()
    for change in (lambda: object.__setattr__(inner, "hits", ("a", "changed")),  # frozen, behind its back
                   lambda: setattr(enemy, "name", "y"),
                   lambda: setattr(enemy, "abilities", enemy.abilities + (_Score(("new",)),)),
                   lambda: object.__setattr__(enemy.abilities[-1], "hits", ("again",))):
        before = snapshots.take(value)
        assert snapshots.take(value) == before == plain_copy(value, set())  # unchanged: the kept copies reused
        change()
        after = snapshots.take(value)
        assert after != before
        assert after == plain_copy(value, set())
