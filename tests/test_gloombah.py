"""Gloombah!'s mechanics: the formula, gear, death, running away, fights, rewards, rounds, random play."""
import importlib
import shutil
from types import SimpleNamespace
from dataclasses import replace
from fractions import Fraction

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.engine.chance import ScriptedChance, SeededChance
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.log import EventLog
from deckwright.rules.engine.randomplay import play
from deckwright.rules.data.specs import read_plain
from deckwright.rules.data.yamlsrc import parse_yaml
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.narration import Narrator
from deckwright.rules.games import gloombah
from deckwright.rules.games.gloombah import actions, cards, formula, numbers, rulings, state, turn, view

setup_rules = importlib.import_module("deckwright.rules.games.gloombah.setup")  # the package's setup is the function
# The rule functions of the package's modules under one name, as the tests call them.
g = SimpleNamespace(**{**{name: getattr(module, name)
                          for module in (numbers, rulings, formula, state, cards, turn, setup_rules, actions, view)
                          for name in dir(module) if not name.startswith("_")},
                       "setup": gloombah.setup, "apply": gloombah.apply})
from deckwright.rules.load import load_game
from deckwright.rules.ci.check import check_game

FIXTURES = BUNDLED_GAMES.parent / "tests" / "fixtures" / "gloombah"
ALL_RULED = {"tie": "monster", "damaged_gear_absorbs": False, "effects_end_on_death": True,
             "flee_with_empty_hand": False, "reshuffle_empty_decks": True, "equip_after_setup": True}
HALF_MORE = Fraction(3, 2)


@pytest.fixture(scope="module")
def game():
    return load_game(BUNDLED_GAMES / "gloombah")


@pytest.fixture(scope="module")
def rules(game):
    return g.prepare(game)


@pytest.fixture(scope="module")
def trules(test_game):
    return g.prepare(test_game)


@pytest.fixture(scope="module")
def test_game(tmp_path_factory):
    """The bundled game with made-up monsters, weapons and values laid over it."""
    folder = tmp_path_factory.mktemp("gloombah") / "gloombah"
    shutil.copytree(BUNDLED_GAMES / "gloombah", folder)
    for path in FIXTURES.glob("*.yaml"):
        shutil.copy(path, folder / path.name)
    return load_game(folder)


def worn(game, card_id, **changes):
    return replace(g.worn_from_card(game.card(card_id)), **changes)


# -- the formula --------------------------------------------------------------------


def test_attack_formula_rounds_up_before_the_consumable_bonus(game, rules):
    vial, buff = game.card("exploding-vial"), game.card("attack-buff")
    assert g.attack_points(5, 2, [g.multiplier(buff["attack_multiplier"])], vial["bonus"]) == 15
    assert g.attack_points(5, 2, [HALF_MORE], 2) == 13  # the source's sum adds 2 and still gets 13
    assert g.attack_points(5, 2) == 7
    assert g.formula_text(5, 2, [HALF_MORE], 4) == "(5 + 2) x 1.5 = 10.5, rounded up 11, + 4 = 15"
    assert g.formula_text(6, 0, [], 0) == "6"


def test_several_multipliers_multiply_and_monsters_round_up():
    assert g.attack_points(4, 0, [HALF_MORE, HALF_MORE]) == 9  # 4 x 2.25
    assert g.monster_attack_points(7, [Fraction(1, 2)]) == 4  # 3.5 rounded up


def test_multiplier_from_data_is_exact():
    assert g.multiplier(1.5) == HALF_MORE and g.multiplier(0.1) == Fraction(1, 10)


# -- gear and damage ------------------------------------------------------------------


def test_light_chainmail_breaks_on_5_and_lets_3_through(game, rules):
    assert g.absorb(5, game.card("light-chainmail")["durability"]) == g.Hit(5, 2, 3, "broken")


def test_gear_takes_damage_up_to_its_durability_without_breaking():
    assert g.absorb(2, 2) == g.Hit(2, 2, 0, "damaged")
    assert g.absorb(3, 2) == g.Hit(3, 2, 1, "broken")


def test_an_open_durability_bounded_below_settles_only_what_every_value_agrees_on():
    assert g.absorb(2, g.AtLeast(2)) == g.Hit(2, 2, 0, "damaged")
    for durability in range(2, 12):
        assert g.absorb(2, durability) == g.Hit(2, 2, 0, "damaged")
    with pytest.raises(g.OpenRuleError, match="depends on the gear's open durability"):
        g.absorb(3, g.AtLeast(2))


def test_armour_piercing_damage_ignores_gear():
    assert g.absorb(3, 8, armour_piercing=True) == g.Hit(3, 0, 3, "none")


def test_damaged_gear_hit_again_needs_a_ruling():
    with pytest.raises(g.OpenRuleError, match="damaged gear hit again"):
        g.absorb(1, 4, damaged=True)
    assert g.absorb(3, 4, damaged=True, rulings=g.Rulings(damaged_gear_absorbs=True)) == g.Hit(3, 3, 0, "broken")
    assert g.absorb(3, 4, damaged=True, rulings=g.Rulings(damaged_gear_absorbs=False)) == g.Hit(3, 0, 3, "broken")


def test_open_durability_is_never_guessed(game, rules):
    with pytest.raises(g.OpenRuleError, match="at least 2"):
        g.absorb(2, game.card("steel-plate")["durability"])


# -- levels, death ------------------------------------------------------------------------


def test_levels_other_than_an_own_turn_win_stop_short_of_12(game, rules):
    n = rules
    assert g.gain(10, 2, n, may_win=True) == 12
    assert g.gain(10, 2, n, may_win=False) == 11
    assert g.gain(11, 1, n, may_win=False) == 11
    assert g.gain(3, 2, n, may_win=False) == 5


def test_death_below_1_attack_point(game, rules):
    n = rules
    assert g.is_dead(6 - 6, n) and not g.is_dead(1, n)


def test_die_keeps_one_card_and_the_class(test_game, trules):
    table = g.Table((g.Player("ana", "rogue", 0, ("level-up", "exploding-vial"), worn(test_game, "light-chainmail"),
                              worn(test_game, "test-dagger")),))
    log = EventLog()
    after = g.die(trules, table, "ana", "exploding-vial", g.Rulings(), log)
    ana = after.player("ana")
    assert (ana.level, ana.hand, ana.gear, ana.weapon, ana.klass) == (1, ("exploding-vial",), None, None, "rogue")
    assert set(after.item_discard) == {"level-up", "light-chainmail", "test-dagger"}
    assert g.cards_on_table(after) == g.cards_on_table(table)
    assert log.facts() == [("death", {"player": "ana", "kept": ["exploding-vial"], "klass": "rogue",
                                      "discarded": ["level-up", "light-chainmail", "test-dagger"]})]
    with pytest.raises(RuleError, match="say which"):
        g.die(trules, table, "ana", None)


def test_level_up_cannot_reach_12(test_game, trules):
    table = g.Table((g.Player("ana", "rogue", 11, hand=("level-up",)),))
    with pytest.raises(RuleError, match="level 12 comes only from defeating a monster"):
        g.play_level_card(trules, table, "ana", "level-up")
    lower = table.with_player(replace(table.player("ana"), level=5))
    after = g.play_level_card(trules, lower, "ana", "level-up")
    assert after.player("ana").level == 6 and after.item_discard == ("level-up",)


# -- running away ------------------------------------------------------------------------


def test_run_chances_come_from_2d6(game, rules):
    table = dict(g.run_table(rules))
    assert list(table) == list(range(1, 12))
    assert table[1] == table[2] == 1
    assert table[3] == Fraction(35, 36) and table[7] == Fraction(21, 36) and table[11] == Fraction(3, 36)
    assert g.run_chance(12, rules) == Fraction(1, 36)


def test_run_roll(test_game, trules):
    table = g.Table((g.Player("ana", "rogue", 5, hand=("level-up",)), g.Player("bo", "mage", 2)))
    _, caught = g.run_away(trules, table, "ana", "run", ScriptedChance([2, 2]))
    chance = ScriptedChance([3, 2])
    _, away = g.run_away(trules, table, "ana", "run", chance)
    chance.finish()
    assert (caught.escaped, caught.roll, away.escaped, away.roll) == (False, 4, True, 5)
    assert g.run_away(trules, table, "bo", "run", ScriptedChance([]))[1] == g.Escape("auto-run", True)
    after, fled = g.run_away(trules, table, "ana", "flee", ScriptedChance([]))
    assert fled.escaped and after.player("ana").hand == () and after.item_discard == ("level-up",)
    with pytest.raises(g.OpenRuleError, match="fleeing with an empty hand"):
        g.run_away(trules, table, "bo", "flee", ScriptedChance([]))


# -- fights ----------------------------------------------------------------------------------


def monster(test_game, card_id):
    return g.monster_from_card(test_game.card(card_id))


def two_players(test_game, level_a=5, level_b=4, **kw):
    return g.Table((g.Player("ana", "warrior", level_a, ("exploding-vial", "curse-of-weakness"),
                             worn(test_game, "light-chainmail"), worn(test_game, "test-sword")),
                    g.Player("bo", "mage", level_b, ("attack-buff",), worn(test_game, "steel-plate"))), **kw)


def test_helpers_add_their_attack_and_share_the_reward(test_game, trules):
    table = two_players(test_game, items=("level-up", "test-dagger", "attack-buff"))
    ogre = monster(test_game, "test-ogre")
    play = g.Play("exploding-vial", "ana", "ana")
    table = g.play_in_fight(trules, table, play, ("ana", "bo"))
    result = g.fight(trules, table, ogre, ("ana", "bo"), (play,))
    assert (result.side, result.monster_side, result.outcome) == ((5 + 2 + 4) + 4, 9, "won")
    assert table.in_play == ("exploding-vial",)
    after = g.win(trules, table, ogre, result, {"ana": (1, 1), "bo": (1, 1)})
    assert (after.player("ana").level, after.player("bo").level) == (6, 5)
    assert after.player("bo").hand == ("attack-buff", "test-dagger")
    with pytest.raises(RuleError, match="add up to more"):
        g.win(trules, table, ogre, result, {"ana": (2, 1), "bo": (1, 1)})


def test_backstab_cards_only(test_game, trules):
    table = two_players(test_game)
    with pytest.raises(RuleError, match="no backstab mark"):
        g.play_in_fight(trules, table, g.Play("exploding-vial", "ana", "bo"), ("bo",))
    play = g.Play("curse-of-weakness", "ana", "bo")
    table = g.play_in_fight(trules, table, play, ("bo",))
    assert g.fight(trules, table, monster(test_game, "test-slime"), ("bo",), (play,),
                   g.Rulings(tie="player")).side == 2  # 4 x 0.5


def test_bundled_curse_has_no_size_yet(game, rules):
    table = g.Table((g.Player("ana", "warrior", 5), g.Player("bo", "mage", 5, hand=("curse-of-weakness",))))
    with pytest.raises(g.OpenRuleError, match="its size is not given"):
        g.play_in_fight(rules, table, g.Play("curse-of-weakness", "bo", "ana"), ("ana",))


def test_ties_need_a_ruling(test_game, trules):
    table = g.Table((g.Player("ana", "warrior", 4),))
    with pytest.raises(g.OpenRuleError, match="tied fight"):
        g.fight(trules, table, monster(test_game, "test-slime"), ("ana",))
    assert g.fight(trules, table, monster(test_game, "test-slime"), ("ana",), (), g.Rulings(tie="player")).outcome == "won"


def test_losers_all_take_the_full_damage_and_effect(test_game, trules):
    table = two_players(test_game, level_a=3, level_b=2)
    ogre = monster(test_game, "test-ogre")
    result = g.fight(trules, table, ogre, ("ana", "bo"))
    assert result.outcome == "lost"
    after, hits = g.lose(trules, table, ogre, result)
    assert hits == {"ana": g.Hit(5, 2, 3, "broken"), "bo": g.Hit(5, 4, 1, "broken")}  # fixture plate: 4
    ana, bo = after.player("ana"), after.player("bo")
    assert (ana.gear, ana.level, bo.gear, bo.level) == (None, 0, None, 1)
    assert bo.effects == (g.Effect("Dazed", Fraction(1, 2), 2),)
    assert set(after.item_discard) == {"light-chainmail", "steel-plate"}


def test_monster_effect_lasts_until_the_end_of_the_following_round(test_game, trules):
    table = g.Table((g.Player("ana", "warrior", 8), g.Player("bo", "mage", 3)), round=4)
    ogre = monster(test_game, "test-ogre")
    table, _ = g.lose(trules, table, ogre, g.fight(trules, table, ogre, ("ana",)))
    assert table.player("ana").effects == (g.Effect("Dazed", Fraction(1, 2), 5),)
    assert g.player_attack(table.player("ana")) == 2  # level 3 x 0.5, rounded up
    for _ in range(3):  # the rest of round 4, then round 5
        table = g.end_turn(table)
        assert table.player("ana").effects
    table = g.end_turn(table)
    assert table.round == 6 and table.player("ana").effects == ()


def test_only_the_turn_player_wins_at_12(test_game, trules):
    table = g.Table((g.Player("ana", "warrior", 10), g.Player("bo", "mage", 10)), items=("level-up",) * 3)
    dragon = monster(test_game, "test-dragon")
    result = g.Fight(dragon.name, ("ana", "bo"), 20, 14, "won")
    with pytest.raises(RuleError, match=r"level 12 only on one's own turn: bo at level 10 cannot take 2 level"):
        g.win(trules, table, dragon, result, {"ana": (1, 1), "bo": (2, 2)})
    after = g.win(trules, table, dragon, result, {"ana": (1, 1), "bo": (1, 2)})
    assert (after.player("ana").level, after.player("bo").level, after.winner) == (11, 11, None)
    after = g.win(trules, table, dragon, result, {"ana": (2, 1), "bo": (1, 2)})
    assert (after.player("ana").level, after.winner) == (12, "ana")


def test_weapons_only_for_their_classes(test_game, trules):
    table = g.Table((g.Player("ana", "warrior", 1, hand=("test-staff", "test-sword", "steel-plate")),))
    with pytest.raises(RuleError, match="Test Staff is not for Warrior"):
        g.equip(trules, table, "ana", "test-staff")
    table = g.equip(trules, g.equip(trules, table, "ana", "steel-plate"), "ana", "test-sword")
    assert table.player("ana").hand == ("test-staff",)
    with pytest.raises(RuleError, match="already has Test Sword"):
        g.equip(trules, table.with_player(replace(table.player("ana"), hand=("test-sword",))), "ana", "test-sword")


# -- setup and the bundled game's limits ---------------------------------------------------------


def test_deal_gives_a_class_and_5_items(test_game, trules):
    table = g.deal(trules, ["ana", "bo", "cy"], SeededChance(3))
    for p in table.players:
        assert test_game.card(p.klass).type == "class" and p.level == 1 and len(p.hand) == 5
    assert len(table.classes) == 3


def test_bundled_decks_have_open_counts_so_nobody_is_dealt_a_guess(game, rules, trules):
    with pytest.raises(g.OpenRuleError, match="the number of Warrior cards in the deck 'Class deck' is open"):
        g.deal(rules, ["a", "b"], SeededChance(1))
    with pytest.raises(g.OpenRuleError, match="item deck holds .* card.s. and f must draw 5"):
        g.deal(trules, ["a", "b", "c", "d", "e", "f"], SeededChance(1))
    with pytest.raises(g.OpenRuleError, match="class deck has run out"):
        g.deal(replace(trules, items_at_setup=0), ["a", "b", "c", "d", "e", "f", "g"], SeededChance(1))


def test_the_bundled_monster_deck_is_empty(game, rules):
    table = g.Table((g.Player("a", "mage"),))
    with pytest.raises(g.OpenRuleError, match="lists no monsters"):
        g.draw_monster(table, g.rulings_from(ALL_RULED), SeededChance(1))


# -- the decision protocol -------------------------------------------------------------------------


def test_a_turn_through_the_protocol(test_game, trules):
    log = EventLog(Narrator(gloombah.NARRATION, trules))
    state = g.setup(trules, {"players": [{"name": "A", "class": "warrior", "level": 4, "weapon": "test-sword",
                                             "hand": ["exploding-vial"]}, {"name": "B", "level": 3}],
                                "monsters": ["test-ogre"], "items": ["level-up", "attack-buff"]}, None, log)
    chance = ScriptedChance([1, 2])
    for action in ["draw", "run", {"help": "B"}, {"play": "exploding-vial"}, "resolve",
                   {"share": {"A": [1, 1], "B": [1, 1]}}]:
        state = g.apply(state, action, chance, log)
    chance.finish()
    seen = g.observe(state)
    assert seen["run"] == {"how": "roll", "roll": 3, "escaped": False}
    assert seen["fight"] == {"monster": "Test Ogre", "fighters": ["A", "B"], "side": 13, "monster_side": 9,
                             "outcome": "won", "margin": 4}
    assert (seen["players"]["A"]["level"], seen["players"]["B"]["level"]) == (5, 4)
    assert (seen["players"]["A"]["hand"], seen["players"]["B"]["hand"]) == (["level-up"], ["attack-buff"])
    assert (seen["phase"], seen["turn"], seen["item_discard"]) == ("start", "B", ["exploding-vial"])
    assert log.facts()[-1] == ("reward", {"player": "B", "xp": 1, "before": 3, "level": 4, "items": 1, "capped": False})
    assert log.lines()[-1] == "reward: B: 1 XP, level 3 -> 4; draws 1 item(s)"


def test_protocol_run_caught_then_fight(test_game, trules):
    state = g.setup(trules, {"players": [{"name": "A", "level": 5, "weapon": {"bonus": 2}}],
                                "phase": "monster", "monster": {"attack": 6, "xp": 2, "treasure": 0}}, None, NULL_LOG)
    state = g.apply(state, "run", ScriptedChance([2, 2]), EventLog())
    assert state.phase == "fight" and g.observe(state)["run"] == {"how": "roll", "roll": 4, "escaped": False}
    state = g.apply(g.apply(state, "resolve", None, NULL_LOG), "post-fight", None, NULL_LOG)
    assert g.observe(state)["players"]["A"]["level"] == 7 and state.phase == "start"


def test_protocol_refuses_what_the_phase_does_not_allow(test_game, trules):
    state = g.setup(trules, {"players": [{"name": "A"}]}, None, NULL_LOG)
    with pytest.raises(RuleError, match="'resolve' is not possible now: at the start phase the choices are"):
        g.apply(state, "resolve", None, NULL_LOG)
    node, _ = parse_yaml("players: [{name: A, hand: [exploding-vile]}]\n", "page.md")
    _, problems = read_plain(node, gloombah.SETUP, "setup", test_game)
    assert [f"{p.loc.line}:{p.loc.col}: {p.message}" for p in problems] == [
        "1:28: setup.players.1.hand.1: no card with id 'exploding-vile'; did you mean 'exploding-vial'?"]


def test_protocol_unnamed_monster_values_are_open(test_game, trules):
    state = g.setup(trules, {"players": [{"name": "A", "level": 5}], "phase": "fight", "monster": {"damage": 3}}, None,
                    NULL_LOG)
    with pytest.raises(g.OpenRuleError, match=r"the monster's attack is open \(not given in this example\)"):
        g.apply(state, "resolve", None, NULL_LOG)


def test_a_random_game_ends_with_a_win_on_the_winners_own_turn(trules):
    """Random play of many games is the conformance suite's (tests/test_conformance.py); here, one game's end."""
    result = play(gloombah, trules, 3, 200_000, {"players": 3, "rulings": ALL_RULED})
    assert result.over and not result.problems
    table = result.state.table
    assert table.player(table.winner).level >= trules.win_level
    assert all(p.level < trules.win_level for p in table.players if p.name != table.winner)


def test_constants_are_typed_and_reported_at_their_own_lines(tmp_path):
    folder = tmp_path / "gloombah"
    shutil.copytree(BUNDLED_GAMES / "gloombah", folder)
    path = folder / "game.yaml"
    text = path.read_text()
    for old, new in (("gear_slots: 1", "gear_slots: 2"), ("run_roll: 2d6", "run_roll: 2x6"),
                     ("win_level: 12", 'win_level: "12"'), ("start_level: 1", "start_level: 13")):
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)
    report = check_game(folder)
    lines = {str(p).split(": ", 1)[1] for p in report.problems.errors}
    where = {str(p).split(": ", 1)[0] for p in report.problems.errors}
    assert "game.constants.gear_slots: expected a whole number from 1 to 1, got 2" in lines
    assert 'game.constants.run_roll: "2x6" is not a dice expression (expected e.g. D8, 2d6, D4+2, D20/5)' in lines
    assert 'game.constants.win_level: expected a whole number >= 2, got "12"' in lines
    lines_of = {str(number) for number, line in enumerate(text.splitlines(), start=1)
                if line.strip().startswith(("gear_slots:", "run_roll:", "win_level:"))}
    assert {w.split(":")[1] for w in where} == lines_of  # each at its own line of game.yaml, once


def test_every_rulebook_example_replays(game, rules):
    from deckwright.rules.book.examples import replay_game_examples

    verdicts = {r.name: r.verdict for r in replay_game_examples(game)}
    assert verdicts.pop("Attack points, the source's example") == "erratum"
    assert len(verdicts) == 9 and set(verdicts.values()) == {"verified"}


def test_layout_data_gives_the_reference_card_its_computed_odds_as_numbers(game, rules):
    rows = {row["level"]: row for row in g.layout_data(game)["run_chances"]}
    assert sorted(rows) == list(range(1, 12))
    assert rows[2] == {"level": 2, "free": True, "chance": 1.0, "ways": 36, "outcomes": 36}
    assert rows[3] == {"level": 3, "free": False, "chance": 35 / 36, "ways": 35, "outcomes": 36}
    assert (rows[7]["ways"], rows[11]["ways"]) == (21, 3)
    assert g.odds(rules)["run away"][7] == Fraction(21, 36)
