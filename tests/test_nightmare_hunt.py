"""Nightmare Hunt's mechanics: rules the rulebook examples do not show, data checks, and seeded random play."""
import re
import shutil
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.check import check_game
from deckwright.rules.data.specs import read_plain
from deckwright.rules.data.yamlsrc import parse_yaml
from deckwright.rules.engine.chance import ScriptedChance
from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.engine.log import EventLog
from deckwright.rules.engine.narration import Narrator
from deckwright.rules.engine.randomplay import play
from deckwright.rules.games import nightmare_hunt as nh
from deckwright.rules.games.nightmare_hunt.strategies import heuristic_choice
from deckwright.rules.load import load_game

FOLDER = BUNDLED_GAMES / "nightmare-hunt"
# A level attempt (from town to the boss's defeat or the first death) must end within this many
# player decisions. Random players wander back to town and reset the level, so they take longest:
# the longest of 1,800 seeded random attempts took under 1,000.
MAX_DECISIONS = 5_000


@pytest.fixture(scope="module")
def game():
    return load_game(FOLDER)


@pytest.fixture(scope="module")
def rules(game):
    return nh.prepare(game)


class Hunt:
    """A hunt from an example-style setup, played action by action; ``state`` is always the latest."""

    def __init__(self, rules, shuffles=None, **spec):
        self.log = EventLog(Narrator(nh.NARRATION, rules))
        self.chance = ScriptedChance(shuffles=shuffles, log=self.log)
        self.state = nh.setup(rules, spec, self.chance, self.log)

    def act(self, *actions) -> dict:
        for action in actions:
            self.state = nh.apply(self.state, action, self.chance, self.log)
        return nh.observe(self.state)

    def refused(self, action):
        """The action's error; the state it was tried on is left as it was."""
        before = nh.observe(self.state)
        with pytest.raises((RuleError, SpecError)) as error:
            nh.apply(self.state, action, self.chance, self.log)
        assert nh.observe(self.state) == before
        return error.value


# -- the rule tables come from the data ---------------------------------------------------------------


def test_rules_are_read_from_the_card_data(game, rules):
    assert (rules.mind, rules.body) == (game.constants["mind"], game.constants["body"])
    assert len(rules.action_deck) == game.deck_total("actions")
    assert rules.armors["plate"].track == tuple(game.card("plate")["track"])
    assert [a.energy for a in rules.enemies["ayth-ender"].abilities] == [1, 4, 6, 8]
    assert rules.enemies["flaming-heart"].protected_by == "ember"
    assert rules.levels[1][-1] == "jack-the-black" and len(rules.levels[3]) == game.deck_total("level-3")


# -- turns, actions and reactions ---------------------------------------------------------------------


def test_pass_only_without_action_cards(rules):
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "vile-giant"}], turn="player",
                               hand=["swipe", "wound"])
    assert re.search("only when your hand holds no action cards", str(hunt.refused({"play": "pass"})))
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "vile-giant"}], turn="player",
                               hand=["wound"], deck=["wound", "wound"], shuffles={"deck": [["dodge"]]})
    assert nh.legal_actions(hunt.state) == [{"play": "pass"}]
    seen = hunt.act({"play": "pass"})
    assert seen["deaths"] == 0 and seen["wounds"]["hand"] == 3  # one short of Body 4
    lines = hunt.log.lines()
    first = lines.index("draw: You draw Wound x2")  # the deck runs out mid-draw: Recovery, then the last card
    assert [line.split(":")[0] for line in lines[first:first + 4]] == ["draw", "recovery", "shuffle", "draw"]
    assert lines[first + 3] == "draw: You draw Dodge"


def test_drawing_wounds_up_to_body_kills(rules):
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "vile-giant"}], turn="player",
                               hand=["swipe", "wound", "wound", "wound"], deck=["wound"], shuffles={"deck": [[], []]})
    seen = hunt.act({"play": "swipe"})
    assert seen["deaths"] == 1 and seen["phase"] == "town" and seen["wounds"]["total"] == 0
    assert "death: You die: 4 wounds in hand reach your Body 4" in hunt.log.lines()


def test_basic_actions_cost_an_action_card(rules):
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "vile-giant"}], turn="player",
                               hand=["parry", "parry", "dodge", "wound"])
    assert re.search("name the action card you discard", str(hunt.refused({"play": "punch"})))
    assert re.search("Parry is a reaction", str(hunt.refused({"play": "parry"})))
    seen = hunt.act({"play": "punch", "discard": "dodge"})
    assert seen["enemies"]["vile-giant"] == {"card": "vile-giant", "energy": 4, "wounds": 3, "health": 12}
    assert seen["discard"] == ["dodge"]


def test_rest_discards_the_hand_and_ends_conditions(rules):
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "vile-giant"}], turn="player",
                               hand=["slam", "wound", "wound", "swipe"], conditions=["burning", "vulnerability"])
    seen = hunt.act({"play": "rest", "discard": "slam"})
    assert seen["conditions"] == {"burning": 0, "vulnerability": 0}
    assert seen["wounds"] == {"hand": 0, "deck": 0, "discard": 2, "total": 2}  # Rest is not hurt by Burning
    assert sorted(seen["discard"]) == ["slam", "swipe", "wound", "wound"]


def test_sprint_cancels_only_at_zero_energy_and_skips_the_turn(rules):
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "rabid-dog", "energy": 6}],
                               hand=["slam", "swipe", "slash", "swipe"])
    assert hunt.state.phase == "reaction"
    assert {"react": "sprint", "discard": "slam"} in nh.legal_actions(hunt.state)
    seen = hunt.act({"react": "sprint", "discard": "slam"})
    # cancelled; Sprint's Time 4 feeds the dog, the skipped turn lets it bite for Power 1 at once
    assert seen["last_attack"]["power"] == 1 and seen["enemies"]["rabid-dog"]["energy"] == 2
    assert seen["count"]["hand"] == 3 and seen["phase"] == "turn"
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "rabid-dog", "energy": 7}],
                               hand=["dodge", "swipe", "slash", "swipe"])
    assert re.search("leaves the enemy at 0 energy; Rabid Dog has 1", str(hunt.refused({"react": "sprint", "discard": "swipe"})))


def test_summoned_prey_wait_for_the_next_prey_turn(rules):
    hunt = Hunt(rules, armor="robes", enemies=[{"card": "dog-handler", "energy": 4}],
                               hand=["swipe", "swipe", "slash", "slam"], deck=["slash", "slash", "swipe"])
    seen = hunt.act({"react": "none"})
    assert seen["enemies"]["rabid-dog"]["energy"] == 0 and seen["phase"] == "turn"
    seen = hunt.act({"play": "swipe", "target": "dog-handler"}, {"react": "none"})
    dog = seen["enemies"]["rabid-dog"]
    assert dog["energy"] == 1  # gained 3 from Swipe, spent 2 on its bite in the prey turn after
    assert seen["last_attack"]["enemy"] == "rabid-dog"


def test_several_enemies_all_gain_energy_and_need_a_target(rules):
    hunt = Hunt(rules, armor="robes", turn="player", hand=["swipe", "swipe", "slash", "slam"],
                               enemies=[{"card": "flaming-heart"}, {"card": "ember", "summoned": True},
                                        {"card": "ember", "summoned": True}])
    assert re.search("name the enemy you strike.*flaming-heart, ember, ember#2", str(hunt.refused({"play": "slash"})))
    seen = hunt.act({"play": "slash", "target": "ember#2"})
    assert seen["defeated"] == ["ember#2"]
    assert seen["pending"] == {"enemy": "flaming-heart", "energy": 5}  # its summons leaves it at 0: Sprint could cancel it


# -- encounters, town, resets -------------------------------------------------------------------------


def test_twin_flames_summons_two_embers_without_fast_but_with_slow(rules):
    hunt = Hunt(rules, armor="leather", encounter="twin-flames", hand=["swipe", "swipe", "slash", "slam"])
    seen = nh.observe(hunt.state)
    assert seen["enemies"] == {"ember": {"card": "ember", "energy": 2, "wounds": 0, "health": 1},
                               "ember#2": {"card": "ember", "energy": 2, "wounds": 0, "health": 1}}
    assert ("slow", {"armor": "leather", "energy": [["ember", 2], ["ember#2", 2]]}) in hunt.log.facts()
    assert "slow: Leather is Slow 2: Ember has 2, Ember #2 has 2 energy" in hunt.log.lines()


def test_inferno_and_mirage_inflict_and_end_at_once(rules):
    hunt = Hunt(rules, armor="robes", encounter="inferno", hand=["swipe", "swipe", "slash", "slam"])
    seen = nh.observe(hunt.state)
    assert seen["phase"] == "between" and seen["conditions"]["burning"] == 1 and seen["encounter_discard"] == ["inferno"]
    hunt = Hunt(rules, armor="plate", encounter="distracting-mirage", hand=["swipe", "swipe", "slash", "slam"])
    assert nh.observe(hunt.state)["track"] == [3, 3, 5, 7]


def test_going_to_town_resets_the_deck_removes_wounds_keeps_conditions(rules):
    hunt = Hunt(rules, armor="robes", at="between", hand=["swipe", "wound", "slash", "slam"],
                               discard=["wound"], conditions=["burning"],
                               encounter_discard=["rabid-dog", "dire-rat"], shuffles={"deck": [[]]})
    seen = hunt.act("town")
    assert seen["phase"] == "town" and seen["wounds"]["total"] == 0 and seen["conditions"]["burning"] == 1
    assert seen["encounter_deck"][:3] == ["dire-rat", "rabid-dog", "corrupted-kobold"]
    assert seen["count"] == {"hand": 4, "deck": 11, "discard": 0}
    seen = hunt.act({"equip": "plate"}, "venture")
    assert seen["armor"] == "plate" and seen["enemies"]["dire-rat"]["energy"] == 4 - 4  # Slow 4, then its 4-energy bite


def setup_problems(game, text: str) -> list[str]:
    node, _ = parse_yaml(text, "setup.md")
    _, problems = read_plain(node, nh.SETUP, "setup", game)
    return [f"{p.loc.line}:{p.loc.col}: {p.message}" for p in problems]


def test_a_setup_mistake_is_reported_at_its_own_line(game, rules):
    assert setup_problems(game, "armor: robes\nhand: [swipe, swipee]\n") == [
        "2:15: setup.hand.2: no card with id 'swipee'; did you mean 'swipe'?"]
    assert setup_problems(game, "armour: robes\n") == ["1:1: setup.armour: unknown field; did you mean 'armor'?"]
    assert setup_problems(game, "armor: robes\nturn: players\n") == [
        "2:7: setup.turn: expected one of prey, player, got \"players\"; did you mean 'player'?"]
    with pytest.raises(SpecError, match="one swipe too many") as error:
        Hunt(rules, armor="robes", hand=["swipe", "swipe", "swipe", "swipe"])
    assert error.value.key == ("hand", 3)


# -- the game's own data checks -----------------------------------------------------------------------


def broken_copy(tmp_path, edits) -> Path:
    folder = tmp_path / "nightmare-hunt"
    shutil.copytree(FOLDER, folder)
    for file, old, new in edits:
        path = folder / file
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, 1))
    return folder


PARRY = "  - id: parry\n    name: Parry\n    deck: actions\n    copies: 3"
KOBOLD = "      - {energy: 3, steps: [{power: 2}]}\n      - {energy: 6, steps: [{power: 4}], skip_turn: true}"


@pytest.mark.parametrize("edits, message", [
    ([("game.yaml", "  body: 4", "  body: 5")], "Body 5 is above Mind 4"),
    ([("actions.yaml", PARRY, PARRY.replace("copies: 3", "copies: 2")), ("game.yaml", "count: 15", "count: 14")],
     "action.parry: 2 copies; every action card has 3 (constant action_copies)"),
    ([("level-1.yaml", KOBOLD, "\n".join(reversed(KOBOLD.split("\n"))))],
     "prey.corrupted-kobold.abilities: list them by rising energy"),
    ([("game.yaml", "summons: {type: list, of: {type: ref, to: [prey]}, optional: true}\n",
       "summons: {type: list, of: {type: ref, to: [prey, boss]}, optional: true}\n"),
      ("level-2.yaml", "    summons: [ember, ember]\n    text: Summons", "    summons: [ember, flaming-heart]\n    text: Summons")],
     "event.twin-flames: summons 'flaming-heart', which is not a prey card"),
    ([("level-2.yaml", "    name: Charred Horror\n", "    name: Charred Horror\n    deck: level-1\n"),
      ("game.yaml", "    count: 7\n    color: \"#2e5a3a\"", "    count: 8\n    color: \"#2e5a3a\""),
      ("game.yaml", "    count: 7\n    color: \"#9a2f1b\"", "    count: 6\n    color: \"#9a2f1b\"")],
     "decks.level-1: an encounter deck ends with its one boss (found 1 boss card(s), last card 'charred-horror')"),
])
def test_consistency_checks(tmp_path, edits, message):
    report = check_game(broken_copy(tmp_path, edits))
    assert any(message in str(problem) for problem in report.problems.errors), report.problems.errors


def test_the_bundled_game_checks_clean_with_every_example_verified():
    report = check_game(FOLDER)
    assert not report.problems.errors
    assert len(report.examples) >= 9
    assert {e.verdict for e in report.examples} == {"verified"}, [str(e) for e in report.examples if e.verdict != "verified"]


# -- seeded random play -------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_random_play_conserves_cards_and_ends(rules, level):
    for seed in range(200):
        armor = ("robes", "leather", "plate")[seed % 3]
        result = play(nh, rules, seed, MAX_DECISIONS, {"armor": armor, "level": level})
        assert not result.problems, (seed, result.problems)
        assert result.over, f"seed {seed}: not over after {MAX_DECISIONS} decisions"


def test_a_thousand_heuristic_level_one_attempts(rules):
    outcomes = {"won": 0, "died": 0}
    for seed in range(1000):
        result = play(nh, rules, seed, MAX_DECISIONS, {"armor": ("robes", "leather", "plate")[seed % 3]},
                      choose=heuristic_choice)
        assert result.over and not result.problems, (seed, result.problems)
        outcomes["won" if result.state.phase == "won" else "died"] += 1
    assert outcomes["won"] > 0 and outcomes["died"] > 0


def test_random_play_is_reproducible(rules):
    def trace(seed):
        log = EventLog(Narrator(nh.NARRATION, rules))
        play(nh, rules, seed, MAX_DECISIONS, {"armor": "leather", "level": 2}, log=log)
        return log.lines(), log.facts()

    assert trace(5) == trace(5)
    assert trace(5) != trace(6)


def test_the_heuristic_cancels_a_summon_and_lets_a_single_wound_through(rules):
    summoning = Hunt(rules, armor="robes", level=2, hand=["dodge", "slash", "slam", "swipe"],
                     enemies=[{"card": "flaming-heart", "energy": 5}])
    assert summoning.state.phase == "reaction" and summoning.state.pending[0].id == "flaming-heart"
    assert heuristic_choice(summoning.state, nh.legal_actions(summoning.state), None) == {"react": "dodge"}
    biting = Hunt(rules, armor="robes", level=2, hand=["dodge", "slash", "slam", "swipe"],
                  enemies=[{"card": "deranged-pyromancer", "energy": 3}])  # Power 2 through Robes: one wound
    assert biting.state.phase == "reaction"
    assert heuristic_choice(biting.state, nh.legal_actions(biting.state), None) == {"react": "none"}


@pytest.mark.parametrize("choose", [heuristic_choice, None], ids=["heuristic", "random"])
def test_apply_in_place_plays_the_same_games_as_apply(rules, choose):
    """The simulator's path (``apply_in_place``, no copy at each step) gives the same event log, fact for fact and
    line for line, as ``apply``, and the same final state."""
    def played(seed, in_place):
        log = EventLog(Narrator(nh.NARRATION, rules))
        options = {"armor": ("robes", "leather", "plate")[seed % 3], "level": 1 + seed // 3 % 3}
        result = play(nh, rules, seed, MAX_DECISIONS, options, **({"choose": choose} if choose else {}), log=log,
                      in_place=in_place)
        return log.golden(), nh.observe(result.state), result.actions

    for seed in range(27):
        copied, in_place = played(seed, False), played(seed, True)
        assert copied == in_place, seed
        assert copied[0].count("\n") > 20


def test_apply_leaves_the_state_it_is_given_and_apply_in_place_changes_it(rules):
    hunt = Hunt(rules, armor="robes", level=1, hand=["swipe", "slash", "slam", "parry"],
                enemies=[{"card": "rabid-dog"}], turn="player")
    before = nh.observe(hunt.state)
    after = nh.apply(hunt.state, {"play": "swipe"}, hunt.chance, hunt.log)
    assert nh.observe(hunt.state) == before and nh.observe(after)["enemies"]["rabid-dog"]["wounds"] == 4
    same = nh.apply_in_place(hunt.state, {"play": "swipe"}, hunt.chance, hunt.log)
    assert same is hunt.state and nh.observe(same) == nh.observe(after)
