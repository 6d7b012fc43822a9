"""Zones: piles, draws with a reshuffle policy, and card conservation."""
from collections import Counter

import pytest

from deckwright.rules.engine.chance import ScriptedChance
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.zones import Zones


def test_piles_read_top_first():
    zones = Zones.with_piles("hand", deck=["a", "b", "c"])
    assert zones.ids("deck") == ["a", "b", "c"]
    assert zones.draw("deck", "hand", 2) == ["a", "b"]
    assert zones.ids("deck") == ["c"] and sorted(zones["hand"]) == ["a", "b"]


def test_draw_calls_the_refill_policy_when_the_pile_runs_out():
    zones = Zones.with_piles("hand", deck=["a"], discard=["x", "y"])
    chance = ScriptedChance(shuffles={"deck": [["y"]]})

    def reshuffle(z):
        if z["discard"]:
            z.move_all("discard", "deck")
            z.shuffle("deck", chance)

    assert zones.draw("deck", "hand", 3, refill=reshuffle) == ["a", "y", "x"]
    assert zones.draw("deck", "hand", 1, refill=reshuffle) == []  # nothing left anywhere: the draw stops short
    chance.finish()


def test_move_all_can_turn_a_pile_over():
    zones = Zones.with_piles(discard=["c", "b", "a"], deck=["z"])  # c was discarded last
    zones.move_all("discard", "deck", flip=True)
    assert zones.ids("deck") == ["a", "b", "c", "z"]


def test_moving_a_card_that_is_not_there_is_a_rule_error():
    zones = Zones.with_piles("discard", hand=["a"])
    with pytest.raises(RuleError, match="no b in hand"):
        zones.move("b", "hand", "discard")


def test_conservation_counts_created_and_removed_cards():
    zones = Zones.with_piles("discard", "trash", deck=["a", "a", "b"])
    start = zones.inventory()
    zones.create("wound", "discard")
    zones.move("a", "deck", "discard", to="bottom")
    zones.remove("b", "deck")
    assert zones.conservation_problems(start) == []
    zones["deck"].append("a")  # a card appearing from nowhere
    problems = zones.conservation_problems(start)
    assert problems == ["a: 3 in the piles, expected 2 (start 2, created 0, removed 0)"]


def test_copies_are_independent():
    zones = Zones.with_piles(deck=["a"])
    copy = zones.copy()
    copy.create("w", "deck")
    assert zones.ids("deck") == ["a"] and copy.ids("deck") == ["w", "a"]
    assert zones.created == Counter()


def test_a_copy_shares_its_piles_until_either_side_changes_one():
    zones = Zones.with_piles("hand", deck=["a", "b", "c"], discard=["x"])
    copy = zones.copy()
    assert copy["deck"] is zones["deck"]  # shared, not copied, until one side changes it
    copy.draw("deck", "hand")
    copy.move_all("discard", "deck", flip=True)
    zones.remove("c", "deck")  # the original changes too, after the copy was made
    assert (zones.ids("deck"), zones.ids("hand"), zones.ids("discard")) == (["a", "b"], [], ["x"])
    assert (copy.ids("deck"), copy.ids("hand"), copy.ids("discard")) == (["x", "b", "c"], ["a"], [])
    assert zones.removed == Counter({"c": 1}) and copy.removed == Counter()
    own = copy.own("deck")
    own.append("y")
    assert copy.ids("deck")[0] == "y" and "y" not in zones.ids("deck")
