"""Chance objects: seeded games are reproducible; scripted replays fail loudly and name the step."""
import pytest

from deckwright.rules.engine.chance import ScriptedChance, SeededChance, parse_roll
from deckwright.rules.engine.errors import ChanceError
from deckwright.rules.engine.log import NULL_LOG, EventLog


def test_seeded_chance_is_reproducible_from_one_integer():
    def run(seed):
        chance = SeededChance(seed)
        return [chance.roll(20) for _ in range(10)], chance.shuffle(list("abcdefgh"), "deck")

    assert run(42) == run(42)
    assert run(42) != run(43)


def test_rules_code_never_imports_random():
    import re
    from pathlib import Path

    rules = Path(__file__).resolve().parent.parent / "rules"
    imports_random = re.compile(r"^\s*(import random\b|from random\b)", re.MULTILINE)
    offenders = [str(p.relative_to(rules)) for p in rules.rglob("*.py")
                 if p.name != "chance.py" and imports_random.search(p.read_text())]
    assert offenders == []


def test_scripted_rolls_replay_in_order_and_are_logged():
    log = EventLog()
    chance = ScriptedChance([3, "D8=5"], log=log)
    assert chance.roll(6, "attack") == 3
    assert chance.roll(8, "charm") == 5
    chance.finish()
    assert log.lines() == ["roll: attack: D6 shows 3", "roll: charm: D8 shows 5"]


def test_an_impossible_roll_names_the_step():
    chance = ScriptedChance([9])
    chance.step = "action 2 (attack: yeti, line 40)"
    with pytest.raises(ChanceError) as error:
        chance.roll(8, "Yeti attack")
    assert str(error.value) == ("action 2 (attack: yeti, line 40): scripted roll 1 is 9, "
                                "impossible on a D8 for Yeti attack (faces 1 to 8)")


def test_a_zero_is_impossible_too():
    with pytest.raises(ChanceError, match="scripted roll 1 is 0, impossible on a D6"):
        ScriptedChance([0]).roll(6)


def test_a_missing_roll_names_the_step():
    chance = ScriptedChance([4])
    chance.roll(6)
    chance.step = "action 3 (escape, line 12)"
    with pytest.raises(ChanceError) as error:
        chance.roll(10, "escape")
    assert "action 3 (escape, line 12): the rules roll a D10 for escape, but all 1 scripted roll(s) are used up" in str(error.value)


def test_leftover_rolls_fail_at_the_end():
    chance = ScriptedChance([4, 2, "D6=6"])
    chance.roll(6)
    chance.step = "at the end of the example"
    with pytest.raises(ChanceError, match=r"at the end of the example: 2 scripted roll\(s\) left over: 2, D6=6"):
        chance.finish()


def test_a_roll_scripted_for_another_die_fails():
    with pytest.raises(ChanceError, match="is for a D8, but the rules roll a D6"):
        ScriptedChance(["D8=3"]).roll(6)


@pytest.mark.parametrize("value", ["five", "D8", 2.5, None, True])
def test_unreadable_scripted_rolls(value):
    with pytest.raises(ValueError):
        parse_roll(value)


def test_scripted_shuffle_names_the_top_cards_and_keeps_the_rest():
    chance = ScriptedChance(shuffles={"deck": [["c", "a"], []]})
    assert chance.shuffle(["a", "b", "c", "d"], "deck") == ["c", "a", "b", "d"]
    assert chance.shuffle(["x", "y"], "deck") == ["x", "y"]
    chance.finish()


def test_scripted_shuffle_must_fit_the_pile():
    chance = ScriptedChance(shuffles={"deck": [["a", "a"]]})
    with pytest.raises(ChanceError, match="names 'a' at position 2, one more than the pile holds") as raised:
        chance.shuffle(["a", "b"], "deck")
    assert raised.value.place == ("shuffles", "deck", 0, 1)  # the pile, the order and the position in it, from 0


def test_scripted_shuffle_naming_a_card_the_pile_lacks_says_so():
    chance = ScriptedChance(shuffles={"deck": [[], ["b", "crwn"]]})
    chance.shuffle(["a"], "deck")
    with pytest.raises(ChanceError) as raised:
        chance.shuffle(["crown", "b", "a"], "deck")
    assert str(raised.value) == "setup: no card 'crwn' in 'deck'; did you mean 'crown'? (it holds: a, b, crown)"
    assert raised.value.place == ("shuffles", "deck", 1, 1)


def test_unscripted_and_leftover_shuffles_fail():
    with pytest.raises(ChanceError, match="the rules shuffle 'discard', but the example scripts no order for it"):
        ScriptedChance(shuffles={"deck": [[]]}).shuffle(["a"], "discard")
    chance = ScriptedChance(shuffles={"deck": [[], []]})
    chance.shuffle(["a"], "deck")
    with pytest.raises(ChanceError, match=r"1 scripted order\(s\) for 'deck' left over") as raised:
        chance.finish()
    assert raised.value.place == ("shuffles", "deck", 1)  # the first order left over


def test_null_log_is_falsy_and_records_nothing():
    assert not NULL_LOG
    NULL_LOG.add("roll", die=6, face=3)
    assert NULL_LOG.lines() == [] and NULL_LOG.golden() == ""
    assert EventLog()  # an empty log still records


def test_seeded_shuffles_are_those_of_random_shuffle():
    """SeededChance spells the shuffle out; the orders, and the generator's state after them, stay the ones
    ``random.Random(seed).shuffle`` gives (simulations and random-play logs do not change)."""
    import random

    for seed in range(50):
        chance, reference = SeededChance(seed), random.Random(seed)
        for size in (0, 1, 2, 5, 15, 17, 64):
            expected = list(range(size))
            reference.shuffle(expected)
            assert chance.shuffle(range(size)) == expected, (seed, size)
        assert chance.roll(20) == int(reference.random() * 20) + 1
