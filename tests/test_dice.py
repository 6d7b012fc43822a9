"""Dice expressions: parsing, die steps, rolling through a chance object, exact distributions."""
from fractions import Fraction

import pytest

from deckwright.rules.engine.chance import ScriptedChance, SeededChance
from deckwright.rules.engine.dice import DIE_STEPS, DiceError, parse_dice, parse_die, pool_text, step_up
from deckwright.rules.engine.errors import ChanceError


@pytest.mark.parametrize("text, canonical, dice, constant, divisor", [
    ("D8", "D8", [8], 0, 1),
    ("2d6", "2D6", [6, 6], 0, 1),
    ("D4+2", "D4+2", [4], 2, 1),
    ("D20/5", "D20/5", [20], 0, 5),
    ("D20+D20+D6", "D20+D20+D6", [20, 20, 6], 0, 1),
    (" 3d20 + d6 ", "3D20+D6", [20, 20, 20, 6], 0, 1),
    ("D6-1", "D6-1", [6], -1, 1),
    (7, "7", [], 7, 1),
])
def test_parse(text, canonical, dice, constant, divisor):
    parsed = parse_dice(text)
    assert str(parsed) == canonical
    assert parsed.dice == dice
    assert parsed.constant == constant and parsed.divisor == divisor


@pytest.mark.parametrize("text, message", [
    ("", "expected a dice expression"),
    ("D", "is not a dice expression"),
    ("D1", "at least 2 sides"),
    ("D20/0", "cannot divide by 0"),
    ("2d6 3", "is not a dice expression"),
    ("101d6", "use 1 to 100"),
    ("fireball", "is not a dice expression"),
    ("1d" + "9" * 5000, "has a number of more than 4300 digits"),
])
def test_parse_errors_say_why(text, message):
    with pytest.raises(DiceError, match=message):
        parse_dice(text)


def test_die_steps():
    assert DIE_STEPS == (4, 6, 8, 10, 12, 20)
    assert parse_die("D10") == 10
    with pytest.raises(DiceError, match="not a die step"):
        parse_die("D7")
    with pytest.raises(DiceError, match="one die"):
        parse_die("2D6")


def test_step_up_climbs_the_ladder_then_adds_a_d4():
    assert step_up([4]) == [6]
    assert step_up([8], 2) == [12]
    assert step_up([20]) == [20, 4]
    assert step_up([20, 4], 2) == [20, 8]
    assert step_up([12, 20]) == [20, 20]
    assert pool_text(step_up([20, 20], 2)) == "D20 + D20 + D6"


def test_exact_distributions():
    two_d6 = parse_dice("2d6").distribution()
    assert two_d6[7] == Fraction(1, 6) and two_d6[2] == Fraction(1, 36)
    assert sum(two_d6.values()) == 1
    assert parse_dice("D4+2").distribution() == {3: Fraction(1, 4), 4: Fraction(1, 4), 5: Fraction(1, 4), 6: Fraction(1, 4)}
    big = parse_dice("3d20+D6").distribution()
    assert (min(big), max(big)) == (4, 66)
    assert sum(big.values()) == 1
    assert big[4] == Fraction(1, 20 ** 3 * 6)


def test_division_rounds_as_asked():
    fifth = parse_dice("D20/5")
    assert fifth.distribution() == {0: Fraction(4, 20), 1: Fraction(5, 20), 2: Fraction(5, 20), 3: Fraction(5, 20), 4: Fraction(1, 20)}
    assert fifth.bounds("up") == (1, 4)
    assert parse_dice("D20/2").chance_at_least(10) == Fraction(1, 20)
    assert parse_dice("D20/2").chance_at_least(5) == Fraction(11, 20)


def test_roll_asks_the_chance_object_for_each_die():
    total, faces = parse_dice("D20+D20+D6").roll(ScriptedChance([20, 1, 6]))
    assert (total, faces) == (27, [20, 1, 6])
    total, faces = parse_dice("D20/5").roll(ScriptedChance([19]))
    assert (total, faces) == (3, [19])


def test_rolling_an_impossible_face_fails_loudly():
    with pytest.raises(ChanceError, match="impossible on a D8"):
        parse_dice("D8").roll(ScriptedChance([9]))


def test_seeded_rolls_stay_on_the_die():
    chance = SeededChance(7)
    faces = [parse_dice("D6").roll(chance)[0] for _ in range(600)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_a_static_modifier_is_added_after_the_roll():
    """Micah's Game, 4.3: "Modifiers such as D10 +3 add the static value after the roll"."""
    total, faces = parse_dice("D10 +3").roll(ScriptedChance(["D10=4"]), "a stat")
    assert (total, faces) == (7, [4])
