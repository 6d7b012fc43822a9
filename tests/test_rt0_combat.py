"""RT:0 combat: the tarot data and the mechanics in rules/games/rt0_combat.py."""
import importlib
import shutil
from types import SimpleNamespace

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.check import check_game
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.numerals import roman, roman_value
from deckwright.rules.games.rt0_combat import combat, state
from deckwright.rules.load import load_game

GAME = load_game(BUNDLED_GAMES / "rt0-combat")
rt0 = importlib.import_module("deckwright.rules.games.rt0_combat")
RULES = rt0.prepare(GAME)
# The rule functions and state types under one name, as the tests call them.
rt = SimpleNamespace(**{name: getattr(module, name) for module in (state, combat) for name in dir(module)
                        if not name.startswith("_")})


class ListedOrder:
    """A chance object that hands back shuffles in the orders it was given, in turn."""

    def __init__(self, *orders):
        self.orders = list(orders)
        self.asked: list[str] = []

    def shuffle(self, items, what):
        self.asked.append(what)
        order = list(self.orders.pop(0))
        assert sorted(order) == sorted(items), f"{what}: scripted order is not the pile"
        return order


# -- data ------------------------------------------------------------------------


def test_tarot_deck_has_78_cards_with_the_source_values():
    assert GAME.deck_total("tarot") == 78
    values = RULES.values
    assert values["the-fool"] == 0 and values["the-chariot"] == 7 and values["death"] == 13
    assert values["the-tower"] == 16 and values["the-world"] == 21
    assert [values[f"{r}-of-cups"] for r in ("ace", "ten", "page", "knight", "queen", "king")] == [1, 10, 11, 12, 13, 14]
    assert len([c for c in GAME.cards_of("tarot") if c["arcana"] == "major"]) == 22
    assert {c["suit"] for c in GAME.cards_of("tarot") if c["arcana"] == "minor"} == {"wands", "cups", "swords", "pentacles"}


def test_numbers_come_from_the_data():
    assert (RULES.starting_hp, RULES.injury_hp, RULES.hand_size) == (20, 15, 5)
    assert RULES.room_sides == {"cramped": 1, "common": 3, "large": 5}
    assert {d.id for d in GAME.decks.values() if d.open} == {
        "combat-abilities", "magic", "arcana-abilities", "injuries", "catastrophes", "adversaries"}


@pytest.mark.parametrize("text, value", [("0", 0), ("IV", 4), ("IX", 9), ("XIII", 13), ("XIX", 19), ("XXI", 21),
                                         ("IIII", None), ("VX", None), ("", None), ("13", None)])
def test_roman_value(text, value):
    assert roman_value(text) == value
    if value is not None:
        assert roman(value) == text


def test_a_wrong_tarot_value_is_reported_at_its_line(tmp_path):
    folder = tmp_path / "rt0-combat"
    shutil.copytree(BUNDLED_GAMES / "rt0-combat", folder)
    minor = folder / "minor-arcana.yaml"
    minor.write_text(minor.read_text().replace("rank: Queen, value: 13}", "rank: Queen, value: 12}", 1))
    major = folder / "major-arcana.yaml"
    major.write_text(major.read_text().replace('numeral: "XIII", value: 13', 'numeral: "XIII", value: 31'))
    report = check_game(folder)
    messages = [str(p) for p in report.problems.errors]
    assert report.failed and len(messages) == 2
    assert any("queen-of-wands.value: 12, but the other Queens count 13" in m for m in messages)
    line = next(i for i, text in enumerate(major.read_text().splitlines(), 1) if "id: death" in text)
    assert any(m.startswith(f"{major}:{line}:") or f"major-arcana.yaml:{line}:" in m for m in messages)
    assert any("death.value: 31, but its numeral XIII is 13" in m for m in messages)


# -- shield and HP -----------------------------------------------------------------


def test_shield_offsets_damage_point_for_point():
    assert rt.absorb(8, 5) == (3, 0)
    assert rt.absorb(3, 5) == (0, 2)
    player, events = rt.damage_player(RULES, rt.Player(hp=20, name="Ana", shield=5), 8)
    assert (player.hp, player.shield, player.injuries) == (17, 0, 0)
    assert events[0] == ("damage", {"target": "Ana", "damage": 8, "blocked": 5, "before": 20, "after": 17})


def test_zero_hp_buys_back_hp_with_a_major_injury():
    player, events = rt.damage_player(RULES, rt.Player("Ana", hp=4, shield=1), 10)
    assert (player.hp, player.injuries, player.shield) == (15, 1, 0)
    assert events[-1] == ("injury", {"player": "Ana", "hp": 15})


def test_adversary_at_zero_hp_leaves_the_combat():
    combat = rt.Combat(players=(rt.Player(hp=20, name="Ana"),), adversaries=(rt.Adversary("Wolf", hp=6, shield=2),))
    wolf, _ = rt.damage_adversary(combat.adversary("Wolf"), 8)
    combat = combat.with_adversary(wolf)
    assert wolf.hp == 0 and wolf.out and rt.combat_over(combat)


# -- drawing -----------------------------------------------------------------------


def test_turn_draws_five_and_keeps_held_cards():
    deck = ("ace-of-cups", "two-of-cups", "three-of-cups", "four-of-cups", "five-of-cups", "six-of-cups")
    player = rt.Player("Ana", hp=20, shield=3, deck=deck, hand=("king-of-swords",))
    player, events = rt.start_turn(RULES, player, ListedOrder())
    assert player.shield == 0 and events[0] == ("shield-drop", {"who": "Ana", "shield": 3})
    assert player.hand == ("king-of-swords",) + deck[:5] and player.deck == ("six-of-cups",)


def test_short_deck_reshuffles_the_discard_into_it():
    player = rt.Player("Ana", hp=20, deck=("ace-of-cups", "two-of-cups"),
                       discard=("page-of-wands", "the-sun", "three-of-swords", "four-of-swords"))
    order = ("the-sun", "ace-of-cups", "four-of-swords", "two-of-cups", "page-of-wands", "three-of-swords")
    chance = ListedOrder(order)
    player, events = rt.start_turn(RULES, player, chance)
    assert chance.asked == ["Ana deck"]
    assert player.hand == order[:5] and player.deck == order[5:] and player.discard == ()
    assert events[0] == ("reshuffle", {"player": "Ana", "left": 2, "discard": 4, "deck": 6})


def test_fewer_cards_than_a_hand_even_after_reshuffling():
    player = rt.Player("Ana", hp=20, deck=("ace-of-cups",), discard=("two-of-cups",))
    player, events = rt.start_turn(RULES, player, ListedOrder(("two-of-cups", "ace-of-cups")))
    assert player.hand == ("two-of-cups", "ace-of-cups") and events[1] == ("short-draw", {"player": "Ana", "drawn": 2})


def test_drawing_the_tower_activates_catastrophe():
    player = rt.Player("Ana", hp=20, deck=("the-tower", "ace-of-cups", "two-of-cups", "three-of-cups", "four-of-cups"))
    _, events = rt.start_turn(RULES, player, ListedOrder())
    assert events[-1] == ("catastrophe", {"player": "Ana", "card": "the-tower"})


def test_unplayed_cards_are_discarded_at_the_end_of_the_turn():
    player = rt.Player("Ana", hp=20, hand=("ace-of-cups", "the-sun", "two-of-cups"))
    player = rt.play_cards(player, ["the-sun"])
    player, _ = rt.end_turn(player)
    assert player.hand == () and player.discard == ("the-sun", "ace-of-cups", "two-of-cups")
    with pytest.raises(RuleError, match="no the-moon in hand"):
        rt.play_cards(player, ["the-moon"])


# -- order, targeting, movement ------------------------------------------------------


def test_turn_order_fast_then_neither_then_slow():
    players = [rt.Player("Bo", 20, speed="slow"), rt.Player("Cy", 20), rt.Player("Di", 20, speed="fast"),
               rt.Player("Ed", 20)]
    assert rt.turn_order(players) == ["Di", "Cy", "Ed", "Bo"]


def test_default_targeting():
    ana, bo, cy = rt.Player("Ana", 12, shield=2), rt.Player("Bo", 5, shield=4), rt.Player("Cy", 9)
    assert rt.default_target([ana, bo, cy]).name == "Bo"  # most shield
    unshielded = [rt.Player("Ana", 12), rt.Player("Bo", 5), rt.Player("Cy", 9)]
    assert rt.default_target(unshielded).name == "Bo"  # least HP
    assert rt.default_target([rt.Player("Ana", 12, shield=3), rt.Player("Bo", 7, shield=3)]).name == "Bo"


def test_melee_reaches_only_its_own_zone():
    wolf = rt.Adversary("Wolf", hp=8, zone=(1, 1))
    near, far = rt.Player("Ana", 20, zone=(1, 1)), rt.Player("Bo", 3, zone=(0, 0))
    assert rt.choose_target(wolf, [near, far]).name == "Ana"
    archer = rt.Adversary("Archer", hp=8, reach="ranged", zone=(2, 2))
    assert rt.choose_target(archer, [near, far]).name == "Bo"
    sly = rt.Adversary("Sly", hp=8, targeting="strategic", reach="ranged")
    with pytest.raises(RuleError, match="the GM chooses"):
        rt.choose_target(sly, [near, far])
    assert rt.choose_target(sly, [near, far], gm_choice="Ana").name == "Ana"


def test_adversary_moves_one_zone_towards_the_nearest_player():
    wolf = rt.Adversary("Wolf", hp=8, zone=(0, 0))
    ana, bo = rt.Player("Ana", 20, zone=(2, 2)), rt.Player("Bo", 20, zone=(2, 0))
    moved, events = rt.default_move(wolf, [ana, bo])  # both 2 away: Ana is listed first
    assert moved.zone == (1, 1)
    assert events[0] == ("move", {"adversary": "Wolf", "from": "A1", "to": "B2", "towards": "Ana", "distance": 2})
    stays, events = rt.default_move(moved, [rt.Player("Cy", 20, zone=(1, 1))])
    assert stays.zone == (1, 1) and events[0] == ("stays", {"adversary": "Wolf", "zone": "B2", "sharing": ["Cy"]})
    assert rt.distance((0, 0), (2, 1)) == 2


# -- rounds and the end of a combat ---------------------------------------------------


def test_round_draws_intents_and_discards_shields_in_order():
    combat = rt.Combat(players=(rt.Player("Ana", 20, shield=4),),
                       adversaries=(rt.Adversary("Wolf", 8, shield=3), rt.Adversary("Shade", 8, intents="face-down")),
                       gm_deck=("the-moon", "two-of-wands", "the-sun"))
    combat, events = rt.draw_intents(combat, ListedOrder())
    assert events == [("round", {"round": 1}), ("intent", {"adversary": "Wolf", "card": "the-moon", "face_up": True}),
                      ("intent", {"adversary": "Shade", "card": "two-of-wands", "face_up": False})]
    assert combat.adversary("Shade").intent == "two-of-wands" and combat.gm_deck == ("the-sun",)
    combat, _ = rt.end_player_turns(combat)
    assert combat.adversary("Wolf").shield == 0 and combat.player("Ana").shield == 4
    combat, _ = rt.discard_intent(combat, "Wolf")
    assert combat.gm_discard == ("the-moon",)
    combat, _ = rt.end_round(combat)
    assert combat.player("Ana").shield == 0


def test_supremacy_tallies():
    def p(name, hp=20, injuries=0, corruption=0):
        return rt.Player(name, hp, injuries=injuries, corruption=corruption)

    assert rt.supremacy_tallies(RULES, [p("Ana", injuries=1), p("Bo")])[0] == 0
    assert rt.supremacy_tallies(RULES, [p("Ana", corruption=2), p("Bo")])[0] == 0
    assert rt.supremacy_tallies(RULES, [p("Ana", hp=11, corruption=1), p("Bo")])[0] == 1
    assert rt.supremacy_tallies(RULES, [p("Ana", corruption=1), p("Bo")])[0] == 2


def test_arcana_abilities_grow_with_corruption():
    assert rt.arcana_ability_count(RULES, rt.Player("Ana", 20)) == 2
    assert rt.arcana_ability_count(RULES, rt.Player("Bo", 20, corruption=3)) == 5
    assert rt.arcana_ability_count(RULES, rt.Player("Cy", 20, corruption=1, fully_upgraded=2)) == 5


# -- whole fights --------------------------------------------------------------------


def test_random_play_asks_for_what_the_source_leaves_open():
    from deckwright.rules.engine.chance import SeededChance
    from deckwright.rules.engine.openvalues import OpenRuleError

    with pytest.raises(OpenRuleError, match="the source gives no adversary stat blocks"):
        rt0.new_game(RULES, {"card_effect": 1, "intent_damage": 1}, SeededChance(1), NULL_LOG)


# -- the round's phases through the example protocol ------------------------------------


def _fight(spec, shuffles=None):
    from deckwright.rules.engine.chance import ScriptedChance
    from deckwright.rules.games import rt0_combat

    chance = ScriptedChance(shuffles=shuffles or {})
    return Module(rt0_combat), rt0_combat.setup(RULES, spec, chance, NULL_LOG), chance


class Module:
    """The rules module with ``apply`` taking the null log, as these tests do not read it."""

    def __init__(self, module):
        self.module = module

    def apply(self, fight, action, chance):
        return self.module.apply(fight, action, chance, NULL_LOG)

    def observe(self, fight):
        return self.module.observe(fight)


BASIC = {"gm_deck": ["the-moon"], "players": [{"name": "Ana", "zone": "B2"}, {"name": "Bo", "zone": "B2"}],
         "adversaries": [{"name": "Ogre", "hp": 12, "zone": "B2"}]}


def test_phases_refuse_actions_out_of_turn():
    module, fight, chance = _fight(BASIC)
    with pytest.raises(RuleError, match="draw intents first"):
        module.apply(fight, {"turn": "Ana"}, chance)
    fight = module.apply(fight, "intents", chance)
    with pytest.raises(RuleError, match=r"cannot let Ogre act: players are taking turns \(Ana, Bo still to go\)"):
        module.apply(fight, {"act": "Ogre", "damage": 3}, chance)
    fight = module.apply(module.apply(fight, {"turn": "Ana"}, chance), "end turn", chance)
    with pytest.raises(RuleError, match="Ana has already had a turn this round"):
        module.apply(fight, {"turn": "Ana"}, chance)
    fight = module.apply(module.apply(fight, {"turn": "Bo"}, chance), "end turn", chance)
    fight = module.apply(fight, {"act": "Ogre", "damage": 3}, chance)
    assert module.observe(fight)["phase"] == "intents" and module.observe(fight)["gm"]["discard"] == ["the-moon"]


def test_the_gm_reshuffles_discarded_intents():
    module, fight, chance = _fight(BASIC, {"GM deck": [["the-moon"]]})
    for _ in range(2):  # the second round finds the GM deck empty
        fight = module.apply(fight, "intents", chance)
        for name in ("Ana", "Bo"):
            fight = module.apply(module.apply(fight, {"turn": name}, chance), "end turn", chance)
        fight = module.apply(fight, {"act": "Ogre", "damage": 1}, chance)
    chance.finish()
    assert module.observe(fight)["round"] == 2


def test_a_strategic_adversary_moves_and_targets_as_the_gm_says():
    spec = {"room": "large", "gm_deck": ["the-moon"],
            "players": [{"name": "Ana", "zone": "B2"}, {"name": "Bo", "zone": "E5", "hp": 3}],
            "adversaries": [{"name": "Fox", "hp": 5, "zone": "C3", "targeting": "strategic"}]}
    module, fight, chance = _fight(spec)
    fight = module.apply(fight, "intents", chance)
    for name in ("Ana", "Bo"):
        fight = module.apply(module.apply(fight, {"turn": name}, chance), "end turn", chance)
    with pytest.raises(RuleError, match="moves one zone at a time: A1 is 2 away from C3"):
        module.apply(fight, {"act": "Fox", "move": "A1"}, chance)
    with pytest.raises(RuleError, match="the GM chooses its target"):
        module.apply(fight, {"act": "Fox", "move": "B2", "damage": 4}, chance)
    fight = module.apply(fight, {"act": "Fox", "move": "B2", "damage": 4, "target": "Ana"}, chance)
    view = module.observe(fight)
    assert view["adversaries"]["Fox"]["zone"] == "B2" and view["players"]["Ana"]["hp"] == 16
