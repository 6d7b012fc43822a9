"""RT:0 combat's worked examples: every one replays, and a wrong one fails where it is wrong."""
import shutil

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.check import check_game

FOLDER = BUNDLED_GAMES / "rt0-combat"
EXPECTED = {
    "arcana abilities with corruption", "turn order with Fast and Slow players", "a reshuffle when the deck is short",
    "held cards, The Tower, and the end of a turn", "8 damage against 5 shield",
    "adversary shield lasts through the players' turns", "an injury buy-back", "targeting the most shield",
    "targeting the fewest HP", "an adversary moving on a 3x3 grid", "supremacy after an injury",
    "supremacy with corruption", "supremacy, one tally", "supremacy, two tallies",
    "a player's leftover shield goes at the start of her turn", "a Strategic adversary hits whom the GM chooses",
    "a Dimwitted adversary hits whom the GM chooses", "ranged damage hits across the room",
    "everyone in reach in a cramped room", "an adversary crossing a large room",
    "a Strategic adversary moves where the GM wants", "the last adversary flees",
}


def test_every_example_is_verified():
    report = check_game(FOLDER)
    assert not report.problems.errors
    assert {e.name for e in report.examples} == EXPECTED
    assert {e.name: e.verdict for e in report.examples} == {name: "verified" for name in EXPECTED}


def test_the_shield_example_log_tells_the_arithmetic():
    report = check_game(FOLDER)
    shield = next(e for e in report.examples if e.name == "8 damage against 5 shield")
    assert "damage: Ana takes 8 damage, 5 blocked by shield, loses 3 HP (20 -> 17)" in shield.log
    assert shield.log[-1] == "round-end: end of round 1: player shield drops"


def _edited(tmp_path, page: str, old: str, new: str):
    folder = tmp_path / "rt0-combat"
    shutil.copytree(FOLDER, folder)
    path = folder / "rulebook" / page
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    line = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if new.splitlines()[0] in row)
    return folder, line


def _result(folder, name):
    report = check_game(folder)
    return next(e for e in report.examples if e.name == name)


def test_a_wrong_claim_fails_at_its_line(tmp_path):
    folder, line = _edited(tmp_path, "damage.md", "Ana: {hp: 17, shield: 0}", "Ana: {hp: 16, shield: 0}")
    result = _result(folder, "8 damage against 5 shield")
    assert result.verdict == "failing"
    assert "players.Ana.hp: expected 16, got 17" in result.message
    assert result.loc.line == line


@pytest.mark.parametrize("page, name, old, new, message", [
    ("round.md", "turn order with Fast and Slow players", "  - turn: Di\n  - expect: {turn: Di}",
     "  - turn: Ed\n  - expect: {turn: Ed}", "Ed (normal) must wait for Di (fast)"),
    ("damage.md", "targeting the fewest HP", "{name: Cy, hp: 5, zone: C3", "{name: Cy, hp: 5, zone: D4",
     "zone: 'D4' is not a zone of a 3x3 room (A1 to C3)"),
    ("damage.md", "adversary shield lasts through the players' turns", "    - {name: Ogre, hp: 12, zone: B2, shield: 4}",
     "    - {name: Ogre, hp: 12, zone: A1, shield: 4}", "melee damage only hits in the same zone"),
    ("damage.md", "an injury buy-back", "  - act: Ogre\n    damage: 10", "  - act: Ogre\n    damage: 10\n    target: Bo",
     "Ogre targets by the default rule; the GM does not choose"),
])
def test_an_impossible_example_fails_with_a_reason(tmp_path, page, name, old, new, message):
    folder, _ = _edited(tmp_path, page, old, new)
    result = _result(folder, name)
    assert result.verdict == "failing"
    assert message in result.message


def test_a_bad_setup_value_points_at_its_line(tmp_path):
    folder, line = _edited(tmp_path, "damage.md", "{name: Cy, hp: 5, zone: C3", "{name: Cy, hp: 5, zone: D4")
    result = _result(folder, "targeting the fewest HP")
    assert result.loc.line == line
