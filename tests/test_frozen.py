"""The engine's fast ``replace`` makes what ``dataclasses.replace`` makes, and hands every case it cannot copy to it."""
import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest

from deckwright.rules.engine.frozen import replace


@dataclass(frozen=True)
class Plain:
    name: str
    hp: int = 3
    hand: tuple = ()


@dataclass(frozen=True)
class Checked:
    hp: int

    def __post_init__(self):
        if self.hp < 0:
            raise ValueError("negative hp")


@dataclass(frozen=True, slots=True)
class Slotted:
    hp: int
    shield: int = 0


@dataclass(frozen=True)
class Derived:
    hp: int
    double: int = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "double", 2 * self.hp)


@dataclass
class WithInitVar:
    hp: int
    scale: InitVar[int]


def test_a_plain_frozen_value_is_copied_with_the_changes_and_the_original_is_untouched():
    before = Plain("Ana", 5, ("a",))
    after = replace(before, hp=7)
    assert after == dataclasses.replace(before, hp=7) == Plain("Ana", 7, ("a",))
    assert before == Plain("Ana", 5, ("a",)) and type(after) is Plain and hash(after) == hash(Plain("Ana", 7, ("a",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.hp = 1  # still frozen
    assert replace(before) == before and replace(before) is not before


def test_what_it_cannot_copy_is_dataclasses_replace_own_doing():
    with pytest.raises(ValueError, match="negative hp"):
        replace(Checked(1), hp=-1)  # __post_init__ runs
    assert replace(Slotted(1), shield=2) == Slotted(1, 2)
    assert replace(Derived(2), hp=5).double == 10  # a field outside __init__ is computed again
    with pytest.raises(ValueError, match="InitVar"):
        replace(WithInitVar(1, 2), hp=2)
    with pytest.raises(TypeError):
        replace(Plain("Ana"), armour=1)  # no such field
    with pytest.raises(TypeError):
        replace(object(), hp=1)  # not a dataclass
