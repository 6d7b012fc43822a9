"""Gloombah!'s mechanics: the formula, gear, death, running away, fights, rewards, rounds, random play."""
import shutil
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from generator import BUNDLED_GAMES
from rules.engine.chance import ScriptedChance, SeededChance
from rules.engine.errors import RuleError
from rules.engine.log import EventLog
from rules.load import load_game
from rules.problems import Problems
from rules.games import gloombah as g

FIXTURES = BUNDLED_GAMES.parent / "tests" / "fixtures" / "gloombah"
ALL_RULED = g.Rulings(tie="monster", damaged_gear_absorbs=False, effects_end_on_death=True,
                      flee_with_empty_hand=False, reshuffle_empty_decks=True, equip_after_setup=True)


@pytest.fixture(scope="module")
def game():
    return load_game(BUNDLED_GAMES / "gloombah")


@pytest.fixture(scope="module")
def test_game(tmp_path_factory):
    """The bundled game with made-up monsters, weapons and values laid over it."""
    folder = tmp_path_factory.mktemp("gloombah") / "gloombah"
    shutil.copytree(BUNDLED_GAMES / "gloombah", folder)
    for path in FIXTURES.glob("*.yaml"):
        shutil.copy(path, folder / path.name)
    return load_game(folder)


def half():
    return Fraction(3, 2)


# -- the formula --------------------------------------------------------------------


def test_attack_formula_rounds_up_before_the_consumable_bonus(game):
    vial, buff = game.card("exploding-vial"), game.card("attack-buff")
    points = g.attack_points(5, 2, [g.multiplier(buff["attack_multiplier"])], vial["bonus"])
    assert points == 15  # ceil(7 x 1.5) = 11, + 4; the source's own sum says 13 (it adds 2)
    assert g.attack_points(5, 2, [half()], 2) == 13
    assert g.attack_points(5, 2) == 7
    assert g.formula_text(5, 2, [half()], 4) == "(5 + 2) x 1.5 = 10.5, rounded up 11, + 4 = 15"


def test_several_multipliers_multiply_and_monsters_round_up():
    assert g.attack_points(4, 0, [half(), half()]) == 9  # 4 x 2.25 = 9
    assert g.monster_attack_points(7, [Fraction(1, 2)]) == 4  # 3.5 rounded up


def test_multiplier_from_data_is_exact():
    assert g.multiplier(1.5) == Fraction(3, 2)
    assert g.multiplier(0.1) == Fraction(1, 10)


# -- gear and damage ------------------------------------------------------------------


def test_light_chainmail_breaks_on_5_and_lets_3_through(game):
    hit = g.absorb(5, game.card("light-chainmail")["durability"])
    assert hit == g.Hit(5, 2, 3, "broken")


def test_gear_takes_damage_up_to_its_durability_without_breaking():
    assert g.absorb(2, 2) == g.Hit(2, 2, 0, "damaged")
    for durability in range(2, 12):  # Steel Plate: every durability its example allows
        assert g.absorb(2, durability) == g.Hit(2, 2, 0, "damaged")


def test_armour_piercing_damage_ignores_gear():
    assert g.absorb(3, 8, armour_piercing=True) == g.Hit(3, 0, 3, "none")


def test_damaged_gear_hit_again_needs_a_ruling(game):
    with pytest.raises(g.OpenRuleError, match="damaged gear hit again"):
        g.absorb(1, 4, damaged=True)
    assert g.absorb(3, 4, damaged=True, rulings=g.Rulings(damaged_gear_absorbs=True)) == g.Hit(3, 3, 0, "broken")
    assert g.absorb(3, 4, damaged=True, rulings=g.Rulings(damaged_gear_absorbs=False)) == g.Hit(3, 0, 3, "broken")


def test_open_durability_is_never_guessed(game):
    with pytest.raises(g.OpenRuleError, match="at least 2"):
        g.absorb(2, game.card("steel-plate")["durability"])


def test_no_damage_no_change():
    assert g.absorb(0, 2) == g.Hit(0, 0, 0, "held")


# -- levels, death, winning -------------------------------------------------------------


def test_levels_other_than_an_own_turn_win_stop_short_of_12(game):
    n = g.numbers(game)
    assert g.gain(10, 2, n, may_win=True) == 12
    assert g.gain(10, 2, n, may_win=False) == 11
    assert g.gain(11, 1, n, may_win=False) == 11
    assert g.gain(3, 2, n, may_win=False) == 5


def test_death_at_zero_attack_points(game):
    n = g.numbers(game)
    assert g.is_dead(6 - 6, n) and not g.is_dead(1, n)


def test_die_keeps_one_card_and_the_class(test_game):
    table = g.Table((g.Player("ana", "rogue", 6, hand=("level-up", "exploding-vial"), gear="light-chainmail",
                              weapon="test-dagger"),))
    log = EventLog()
    after = g.die(test_game, table, "ana", "exploding-vial", log=log)
    ana = after.player("ana")
    assert (ana.level, ana.hand, ana.gear, ana.weapon, ana.klass) == (1, ("exploding-vial",), None, None, "rogue")
    assert set(after.item_discard) == {"level-up", "light-chainmail", "test-dagger"}
    assert g.cards_on_table(after) == g.cards_on_table(table)
    with pytest.raises(RuleError, match="say which"):
        g.die(test_game, table, "ana", None)


def test_level_up_cannot_reach_12(test_game):
    table = g.Table((g.Player("ana", "rogue", 11, hand=("level-up",)),))
    with pytest.raises(RuleError, match="level 12 comes only from defeating a monster"):
        g.play_level_card(test_game, table, "ana", "level-up")
    lower = table.with_player(replace(table.player("ana"), level=5))
    after = g.play_level_card(test_game, lower, "ana", "level-up")
    assert after.player("ana").level == 6 and after.item_discard == ("level-up",)


# -- running away ------------------------------------------------------------------------


def test_run_chances_come_from_2d6(game):
    table = dict(g.run_table(game))
    assert list(table) == list(range(1, 12))
    assert table[1] == table[2] == 1
    assert table[3] == Fraction(35, 36)
    assert table[7] == Fraction(21, 36)
    assert table[11] == Fraction(3, 36)
    assert g.run_chance(12, g.numbers(game)) == Fraction(1, 36)


def test_run_roll(test_game):
    table = g.Table((g.Player("ana", "rogue", 5, hand=("level-up",)), g.Player("bo", "mage", 2)))
    _, caught = g.run_away(test_game, table, "ana", "run", ScriptedChance([2, 2]))
    _, away = g.run_away(test_game, table, "ana", "run", chance := ScriptedChance([3, 2]))
    chance.finish()
    assert (caught.escaped, caught.roll, away.escaped, away.roll) == (False, 4, True, 5)
    _, auto = g.run_away(test_game, table, "bo", "run", ScriptedChance([]))
    assert auto == g.Escape("auto-run", True)
    after, fled = g.run_away(test_game, table, "ana", "flee", ScriptedChance([]))
    assert fled.escaped and after.player("ana").hand == () and after.item_discard == ("level-up",)
    with pytest.raises(g.OpenRuleError, match="fleeing with an empty hand"):
        g.run_away(test_game, table, "bo", "flee", ScriptedChance([]))


# -- fights ----------------------------------------------------------------------------------


def two_players(level_a=5, level_b=4, **kw):
    return g.Table((g.Player("ana", "warrior", level_a, hand=("exploding-vial", "curse-of-weakness"),
                             weapon="test-sword", gear="light-chainmail"),
                    g.Player("bo", "mage", level_b, hand=("attack-buff",), gear="steel-plate")), **kw)


def test_helpers_add_their_attack_and_share_the_reward(test_game):
    table = two_players(items=("level-up", "test-dagger", "attack-buff"))
    log = EventLog()
    table, result = g.fight(test_game, table, "test-ogre", ["ana", "bo"], [g.Play("exploding-vial", "ana", "ana")],
                            log=log)
    assert (result.side, result.monster_side, result.outcome) == ((5 + 2 + 4) + 4, 9, "won")
    assert table.item_discard == ("exploding-vial",)
    after = g.win(test_game, table, result, {"ana": (1, 1), "bo": (1, 1)}, log=log)
    assert (after.player("ana").level, after.player("bo").level) == (6, 5)
    assert len(after.player("ana").hand) == 2 and len(after.player("bo").hand) == 2
    with pytest.raises(RuleError, match="add up to more"):
        g.win(test_game, table, result, {"ana": (2, 1), "bo": (1, 1)})


def test_backstab_cards_only(test_game):
    table = two_players()
    with pytest.raises(RuleError, match="no backstab mark"):
        g.fight(test_game, table, "test-slime", ["bo"], [g.Play("exploding-vial", "ana", "bo")])
    _, result = g.fight(test_game, table, "test-slime", ["bo"], [g.Play("curse-of-weakness", "ana", "bo")])
    assert result.side == 2  # 4 x 0.5


def test_bundled_curse_has_no_size_yet(game):
    table = g.Table((g.Player("ana", "warrior", 5, hand=("curse-of-weakness",)),))
    with pytest.raises(g.OpenRuleError, match="its size is not given"):
        g.fight(game, table, "curse-of-weakness", ["ana"], [g.Play("curse-of-weakness", "ana", "ana")])


def test_ties_need_a_ruling(test_game):
    table = g.Table((g.Player("ana", "warrior", 4),))
    with pytest.raises(g.OpenRuleError, match="tied fight"):
        g.fight(test_game, table, "test-slime", ["ana"])
    _, result = g.fight(test_game, table, "test-slime", ["ana"], rulings=g.Rulings(tie="player"))
    assert result.outcome == "won"


class KeepFirst:
    def keep(self, table, player):
        return player.hand[0]


def test_losers_all_take_the_full_damage_and_effect(test_game):
    table = two_players(level_a=3, level_b=2)
    table, result = g.fight(test_game, table, "test-ogre", ["ana", "bo"])
    assert result.outcome == "lost"
    after = g.lose(test_game, table, result, KeepFirst(), ALL_RULED)
    ana, bo = after.player("ana"), after.player("bo")
    assert (ana.gear, ana.level) == (None, 0 + 1)  # chainmail absorbs 2, 3 reach her: dead, back to level 1
    assert (bo.gear, bo.level) == (None, 1)  # the plate (4 in the fixture) breaks on 5, 1 reaches him
    assert ana.weapon is None and {"light-chainmail", "steel-plate", "test-sword"} <= set(after.item_discard)
    assert ana.effects == ()  # ended by death under this ruling; Bo carries the daze
    assert bo.effects == (g.Effect("Test Ogre", Fraction(1, 2), 2),)


def test_monster_effect_lasts_until_the_end_of_the_following_round(test_game):
    table = g.Table((g.Player("ana", "warrior", 8), g.Player("bo", "mage", 3)), round=4)
    table, result = g.fight(test_game, table, "test-ogre", ["ana"])
    table = g.lose(test_game, table, result)
    assert table.player("ana").effects == (g.Effect("Test Ogre", Fraction(1, 2), 5),)
    assert g.player_attack(test_game, table.player("ana")) == 2  # level 3 x 0.5, rounded up
    for _ in range(3):  # the rest of round 4, then round 5
        table = g.end_turn(table, None)
        assert table.player("ana").effects
    table = g.end_turn(table, None)
    assert table.round == 6 and table.player("ana").effects == ()


def test_only_the_turn_player_wins_at_12(test_game):
    table = g.Table((g.Player("ana", "warrior", 10), g.Player("bo", "mage", 10)), items=("level-up",) * 3)
    table, result = g.fight(test_game, table, "test-dragon", ["ana", "bo"])
    after = g.win(test_game, table, result, {"ana": (1, 1), "bo": (2, 2)})
    assert (after.player("ana").level, after.player("bo").level, after.winner) == (11, 11, None)
    after = g.win(test_game, table, result, {"ana": (2, 1), "bo": (1, 2)})
    assert (after.player("ana").level, after.winner) == (12, "ana")


# -- setup and whole games --------------------------------------------------------------------------


class RandomPlayers:
    """Legal random choices, for playing whole games."""

    def __init__(self, game, chance):
        self.game, self.chance = game, chance

    def _of(self, player, kind):
        return [c for c in player.hand if self.game.card(c).type == kind]

    def equip(self, table, player):
        gear = self._of(player, "gear")
        weapons = [c for c in self._of(player, "weapon") if player.klass in {str(k) for k in self.game.card(c)["classes"]}]
        return (gear[0] if gear else None), (weapons[0] if weapons else None)

    def repair(self, table, player):
        return True

    def prepare(self, table, player):
        ups = [c for c in player.hand if c == "level-up"]
        return ups[:1] if ups and player.level < 11 and self.chance.pick([True, False]) else []

    def fight_or_run(self, table, player, monster):
        if g.player_attack(self.game, player) > self.game.card(monster)["attack"]:
            return self.chance.pick(["fight", "fight", "run"])
        return self.chance.pick(["fight", "run", "run"] + (["flee"] if player.hand else []))

    def helpers(self, table, player, monster):
        return [p.name for p in table.players if p.name != player.name and self.chance.pick([True, False, False])]

    def plays(self, table, fighters, monster):
        plays = []
        for p in table.players:
            for card in p.hand:
                data = self.game.card(card)
                if p.name in fighters and data.type == "consumable" and data.get("bonus") and self.chance.pick([0, 1]):
                    plays.append(g.Play(card, p.name, p.name))
                elif p.name not in fighters and card == "curse-of-weakness" and self.chance.pick([0, 1]):
                    plays.append(g.Play(card, p.name, fighters[0]))
        return plays

    def shares(self, table, winners, monster):
        card = self.game.card(monster)
        return {winners[0]: (card["xp"] - 1, card["treasure"] - 1), winners[1]: (1, 1)} | {w: (0, 0) for w in winners[2:]}

    def keep(self, table, player):
        return self.chance.pick(list(player.hand))


def test_setup_deals_a_class_and_5_items_and_equips(test_game):
    chance = SeededChance(3)
    table = g.setup(test_game, ["ana", "bo", "cy"], chance, RandomPlayers(test_game, chance))
    for p in table.players:
        assert test_game.card(p.klass).type == "class" and p.level == 1
        assert len(p.hand) + (p.gear is not None) + (p.weapon is not None) == 5
    assert len(table.classes) == 3


def test_bundled_decks_hold_too_few_cards_to_set_up(game):
    chance = SeededChance(1)
    with pytest.raises(g.OpenRuleError, match="item deck holds 4 card.s., b must draw 5"):
        g.setup(game, ["a", "b"], chance, RandomPlayers(game, chance))
    no_items = replace(game, constants={**game.constants, "items_at_setup": 0})
    with pytest.raises(g.OpenRuleError, match="class deck has run out"):
        g.setup(no_items, ["a", "b", "c", "d"], chance, RandomPlayers(game, chance))


def test_the_bundled_monster_deck_is_empty(game):
    table = g.Table((g.Player("a", "mage"),), monsters=tuple(c.id for c in game.printed_cards("monsters")))
    with pytest.raises(g.OpenRuleError, match="lists no monsters"):
        g.draw_monster(table, ALL_RULED, SeededChance(1))


def test_weapons_only_for_their_classes(test_game):
    table = g.Table((g.Player("ana", "warrior", 1, hand=("test-staff", "test-sword", "steel-plate")),))
    with pytest.raises(RuleError, match="Warriors may not use Test Staff"):
        g.equip(test_game, table, "ana", None, "test-staff")
    table = g.equip(test_game, table, "ana", "steel-plate", "test-sword")
    assert table.player("ana").hand == ("test-staff",)


@pytest.mark.parametrize("seed", range(30))
def test_random_games_keep_every_card_and_end_by_an_own_turn_win(test_game, seed):
    chance = SeededChance(seed)
    players = RandomPlayers(test_game, chance)
    table = g.setup(test_game, ["ana", "bo", "cy", "di"][: 2 + seed % 3], chance, players)
    start = g.cards_on_table(table)
    win_level = g.numbers(test_game).win_level
    for _ in range(20000):
        turn_player = table.turn_player.name
        table = g.play_turn(test_game, table, players, chance, ALL_RULED)
        assert g.cards_on_table(table) == start
        assert all(1 <= p.level for p in table.players)
        assert all(p.level < win_level for p in table.players if p.name != table.winner)
        if table.winner:
            assert table.winner == turn_player
            break
    else:
        pytest.fail("no winner in 20000 turns")


def test_consistency_reports_bad_constants(game):
    broken = replace(game, constants={**game.constants, "gear_slots": 2, "run_roll": "2x6", "win_level": "12"})
    problems = Problems()
    g.consistency(broken, problems)
    text = "\n".join(str(p) for p in problems.errors)
    assert "constants.gear_slots: the Gloombah! rules play with exactly 1" in text
    assert "constants.run_roll" in text and "constants.win_level" in text
    problems = Problems()
    g.consistency(game, problems)
    assert not problems.errors
