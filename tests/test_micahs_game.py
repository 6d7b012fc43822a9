"""Micah's Game: the card data keeps the source's facts, and the mechanics follow its rules."""
from __future__ import annotations

import importlib
import shutil
from dataclasses import replace
from collections import Counter
from types import SimpleNamespace
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.check import check_game
from deckwright.rules.data.values import Open
from deckwright.rules.engine.chance import ScriptedChance, SeededChance
from deckwright.rules.data.specs import read_plain
from deckwright.rules.data.yamlsrc import parse_yaml
from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.engine.log import EventLog
from deckwright.rules.engine.openvalues import OpenRuleError
from deckwright.rules.games.micahs_game import encounter, numbers, preparation, state, turn

deal = importlib.import_module("deckwright.rules.games.micahs_game.setup")  # the package's setup is the function

# The rule functions of the package's modules under one name, as the tests call them.
mg = SimpleNamespace(**{name: getattr(module, name) for module in (numbers, state, turn, preparation, encounter, deal)
                        for name in dir(module) if not name.startswith("_")})
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "micahs-game" / "extra-cards.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(BUNDLED_GAMES / "micahs-game")


@pytest.fixture(scope="module")
def rules(game):
    return mg.prepare(game)


@pytest.fixture(scope="module")
def test_game(tmp_path_factory):
    """The bundled game plus made-up test cards (alternative resolutions, known companion stats)."""
    folder = tmp_path_factory.mktemp("micah") / "micahs-game"
    shutil.copytree(BUNDLED_GAMES / "micahs-game", folder)
    shutil.copy(FIXTURE, folder / "extra-cards.yaml")
    return load_game(folder)


@pytest.fixture(scope="module")
def trules(test_game):
    return mg.prepare(test_game)


def class_dice(rules, class_id):
    return mg.class_dice(rules.card(class_id))


def result(events) -> dict:
    """The data of the one roll result among the events."""
    (data,) = [data for kind, data in events if kind == "result"]
    return data


def hero(rules, name, class_id, **overrides):
    return mg.new_player(rules, name, class_id, **overrides)


def replay(state, *steps):
    """Run (function, args...) steps, returning the final state and every event."""
    events = []
    for fn, *args in steps:
        state, more = fn(*args) if state is None else fn(*[state if a is STATE else a for a in args])
        events += more
    return state, events


STATE = object()


# -- the data ------------------------------------------------------------------------------


def test_card_data_keeps_the_source_values(game):
    assert str(game.card("wiseman")["charisma"]) == "D8"
    assert str(game.card("assassin")["attack"]) == "D8" and str(game.card("assassin")["speed"]) == "D10"
    assert str(game.card("paladin")["attack"]) == "D10"
    yeti = game.card("yeti")
    assert str(yeti["defense"]) == "5" and str(yeti["attack"]) == "D4+2" and str(yeti["bounty"]) == "6"
    assert str(yeti["on_reveal_weather"]) == "snowing"
    assert str(game.card("grumpy-goose")["charm"]) == "5" and str(game.card("grumpy-goose")["becomes"]) == "silly-goose"
    assert str(game.card("goblin-king")["escape"]) == "2"
    assert game.card("silly-goose")["coins_per_turn"] == 1
    assert game.card("confidence-boost")["buy"] == 12 and game.card("confidence-boost")["upgrade"] == {"stat": "charisma", "steps": 1}
    assert game.card("suspicious-remedy")["sell"] == 6
    assert game.card("snowing")["health_per_turn"] == -1 and game.card("sunny")["health_per_turn"] == 1
    assert game.card("storming")["timing"] == "immediate"
    assert game.constants["merchant_slots"] == 6 and game.constants["starting_coins"] == 0
    assert {c.id for c in game.cards} == {"wiseman", "assassin", "paladin", "grumpy-goose", "goblin-king", "yeti",
                                          "silly-goose", "confidence-boost", "suspicious-remedy", "snowing", "sunny",
                                          "storming"}


def test_every_value_the_source_leaves_open_is_an_open_question(game):
    subjects = {q.subject for q in game.open_questions}
    for hero_id, stats in {"wiseman": ("health", "attack", "speed"), "assassin": ("health", "charisma"),
                           "paladin": ("health", "charisma", "speed")}.items():
        for stat in stats:
            assert f"class.{hero_id}.{stat}" in subjects
    for wanted in ("creature.silly-goose.attack", "creature.silly-goose.defense", "item.suspicious-remedy.buy",
                   "item.confidence-boost.sell", "weather.storming.effect", "weather.storming.health_per_turn",
                   "creature.yeti.charm", "creature.goblin-king.defense", "deck encounters", "deck treasure",
                   "deck classes", "deck weather", "deck charmed", "final boss", "game.constants.companion_slots"):
        assert wanted in subjects, wanted
    assert isinstance(game.card("wiseman")["health"], Open)


def test_bundled_game_passes_its_consistency_checks(root):
    report = check_game(BUNDLED_GAMES / "micahs-game")
    assert not report.problems.errors, report.problems.errors


def test_consistency_reports_price_order_and_charmed_forms(tmp_path):
    folder = tmp_path / "micahs-game"
    shutil.copytree(BUNDLED_GAMES / "micahs-game", folder)
    path = folder / "treasure.yaml"
    path.write_text(path.read_text().replace("buy: 12", "buy: 5").replace(
        'sell: {open: "Not given; it must be below the price of 12."}', "sell: 5"))
    enc = folder / "encounters.yaml"
    enc.write_text(enc.read_text().replace("becomes: silly-goose", "becomes: yeti"))
    report = check_game(folder)
    messages = [str(p) for p in report.problems.errors]
    assert any("treasure.yaml:9:" in m and "price (5) must be above the sell price (5)" in m for m in messages), messages
    assert any("encounters.yaml:13:" in m and "'yeti' is an encounter card" in m for m in messages), messages
    assert report.failed


def test_off_ladder_dice_and_broken_charmed_forms_are_located(tmp_path):
    folder = tmp_path / "micahs-game"
    shutil.copytree(BUNDLED_GAMES / "micahs-game", folder)
    classes = folder / "classes.yaml"
    classes.write_text(classes.read_text().replace("attack: D10 ", "attack: D7 "))
    charmed = folder / "charmed.yaml"
    charmed.write_text(charmed.read_text() + "  - {id: odd-goose, name: Odd Goose, becomes: silly-gose}\n")
    report = check_game(folder)
    messages = [str(p) for p in report.problems.errors]
    assert any("classes.yaml:23:13: class.paladin.attack: D7 is not a die step" in m for m in messages), messages
    assert any("charmed.yaml:11:" in m and "no card with id 'silly-gose'; did you mean 'silly-goose'?" in m
               for m in messages), messages


# -- die steps ----------------------------------------------------------------------------------


def test_two_confidence_boosts_take_charisma_from_d8_to_d12(rules):
    adam = hero(rules, "adam", "wiseman")
    state = mg.arrange(rules, [adam], {"adam:items": ["confidence-boost", "confidence-boost"]})
    state, events = replay(state, (mg.apply_upgrade, rules, STATE, "adam", "confidence-boost"),
                           (mg.apply_upgrade, rules, STATE, "adam", "confidence-boost"))
    assert state.player("adam").dice["charisma"] == (12,)
    assert events == [("upgrade", {"player": "adam", "item": "confidence-boost", "stat": "charisma", "before": [8],
                                   "after": [10]}),
                      ("upgrade", {"player": "adam", "item": "confidence-boost", "stat": "charisma", "before": [10],
                                   "after": [12]})]
    assert state.pile("adam", "upgrades") == ["confidence-boost", "confidence-boost"]


def test_a_step_past_d20_adds_a_d4_and_all_dice_are_summed(rules):
    adam = hero(rules, "adam", "wiseman", dice={**class_dice(rules, "wiseman"), "charisma": (20,)})
    state = mg.arrange(rules, [adam], {"adam:items": ["confidence-boost"], "encounters": ["grumpy-goose"]},
                       phase=mg.PREPARATION)
    state, events = mg.apply_upgrade(rules, state, "adam", "confidence-boost")
    assert state.player("adam").dice["charisma"] == (20, 4)
    chance = ScriptedChance(["D20=2", "D4=3"])
    state, _ = mg.reveal(rules, state, None)
    state, _ = mg.choose(state, "charm")
    state, events = mg.roll(rules, state, chance)
    assert state.encounter.roll.total == 5 and state.encounter.roll.success
    chance.finish()


def test_a_non_stacking_upgrade_applies_once(trules):
    hero_ = hero(trules, "t", "test-hero")
    state = mg.arrange(trules, [hero_], {"t:items": ["test-charm", "test-charm"]})
    state, _ = mg.apply_upgrade(trules, state, "t", "test-charm")
    with pytest.raises(RuleError, match="does not stack"):
        mg.apply_upgrade(trules, state, "t", "test-charm")


def test_an_upgrade_to_an_open_stat_is_refused(rules):
    tanya = hero(rules, "tanya", "paladin")
    state = mg.arrange(rules, [tanya], {"tanya:items": ["confidence-boost"]})
    with pytest.raises(OpenRuleError, match="Paladin's charisma is open"):
        mg.apply_upgrade(rules, state, "tanya", "confidence-boost")


# -- the source's turns ---------------------------------------------------------------------------


def three_players(rules, encounters, **fields):
    players = [hero(rules, "adam", "wiseman"), hero(rules, "micah", "assassin"), hero(rules, "tanya", "paladin")]
    return mg.arrange(rules, players, {"encounters": encounters}, **fields)


def test_turn_1_adam_charms_the_grumpy_goose_and_gets_a_coin_next_turn(rules):
    state = three_players(rules, ["grumpy-goose", "goblin-king", "yeti"])
    chance = ScriptedChance(["D8=7"])
    state, events = replay(state, (mg.start_turn, rules, STATE), (mg.reveal, rules, STATE, None),
                           (mg.face, rules, STATE, "charm", chance))
    assert result(events) == {"player": "adam", "total": 7, "card": "grumpy-goose", "against": "charm", "target": 5,
                              "success": True}
    assert state.pile("adam", "dock") == ["silly-goose"]
    assert state.player("adam").coins == 0 and state.current.name == "micah" and state.turn == 2
    # Adam's next turn pays the Silly Goose's coin.
    state = mg.arrange(rules, state.players, {"adam:dock": ["silly-goose"], "encounters": ["yeti"]}, turn=4)
    state, events = mg.start_turn(rules, state)
    assert state.player("adam").coins == 1
    assert events[-1] == ("creature-coins", {"player": "adam", "creature": "silly-goose", "coins": 1, "total": 1})
    chance.finish()


def test_turn_2_micah_escapes_the_goblin_king(rules):
    state = three_players(rules, ["goblin-king", "yeti"], active=1, turn=2)
    chance = ScriptedChance(["D10=4"], shuffles={"encounters": [[]]})
    state, events = replay(state, (mg.start_turn, rules, STATE), (mg.reveal, rules, STATE, None),
                           (mg.face, rules, STATE, "escape", chance))
    assert result(events) == {"player": "micah", "total": 4, "card": "goblin-king", "against": "escape", "target": 2,
                              "success": True}
    assert sorted(state.zones.ids("encounters")) == ["goblin-king", "yeti"]
    assert state.current.name == "tanya"
    chance.finish()


def test_turn_3_tanya_defeats_the_yeti_and_it_starts_snowing(rules):
    state = three_players(rules, ["yeti", "goblin-king"], active=2, turn=3)
    chance = ScriptedChance(["D10=10"])
    state, events = replay(state, (mg.start_turn, rules, STATE), (mg.reveal, rules, STATE, None),
                           (mg.face, rules, STATE, "attack", chance))
    assert ("weather", {"weather": "snowing"}) in events
    assert result(events) == {"player": "tanya", "total": 10, "card": "yeti", "against": "defense", "target": 5,
                              "success": True}
    assert state.player("tanya").coins == 6 and state.zones.ids("graveyard") == ["yeti"]
    assert state.player("tanya").health_change == 0
    # Snowing counts from the next turn: Adam loses a health at the start of turn 4.
    assert events[-2:] == [("turn", {"turn": 4, "player": "adam"}),
                           ("health", {"player": "adam", "amount": -1, "health": None, "weather": "snowing",
                                       "attacker": None})]
    assert state.player("adam").health_change == -1
    chance.finish()


def test_turn_3_failure_variant_yeti_deals_5(rules):
    state = three_players(rules, ["yeti", "goblin-king"], active=2, turn=3)
    chance = ScriptedChance(["D10=2", "D4=3"], shuffles={"encounters": [[]]})
    state, events = replay(state, (mg.start_turn, rules, STATE), (mg.reveal, rules, STATE, None),
                           (mg.face, rules, STATE, "attack", chance))
    assert ("attacks", {"card": "yeti", "damage": 5}) in events
    assert state.player("tanya").health_change == -5 and state.player("tanya").coins == 0
    assert "yeti" in state.zones.ids("encounters")
    chance.finish()


def test_turn_23_sunny_shopping_and_selling(rules):
    adam = hero(rules, "adam", "wiseman", coins=26, dice={**class_dice(rules, "wiseman"), "charisma": (10,)})
    state = mg.arrange(rules, [adam], {"merchant": ["confidence-boost"], "treasure": ["suspicious-remedy"],
                                       "adam:items": ["suspicious-remedy"], "adam:upgrades": ["confidence-boost"],
                                       "encounters": ["goblin-king"]},
                       turn=23, weather="sunny", weather_since=20)
    rules1 = replace(rules, merchant_slots=1)  # a one-slot merchant keeps the test small
    state = replace(state, rules=rules1)
    state, events = replay(state, (mg.start_turn, rules1, STATE),
                           (mg.buy, rules1, STATE, "adam", "confidence-boost", None),
                           (mg.apply_upgrade, rules1, STATE, "adam", "confidence-boost"),
                           (mg.sell, rules1, STATE, "adam", "suspicious-remedy"))
    adam = state.player("adam")
    assert adam.health_change == 1 and adam.coins == 20 and adam.dice["charisma"] == (12,)
    assert state.zones.ids("merchant") == ["suspicious-remedy"]


# -- the turn's phases -----------------------------------------------------------------------------


def test_preparation_actions_stop_once_an_encounter_is_revealed(rules):
    state = three_players(rules, ["yeti"])
    state = mg.arrange(rules, state.players, {"encounters": ["yeti"], "adam:items": ["suspicious-remedy"],
                                              "merchant": ["confidence-boost"]})
    state, _ = mg.reveal(rules, state, None)
    for action in (lambda: mg.sell(rules, state, "adam", "suspicious-remedy"),
                   lambda: mg.buy(rules, state, "adam", "confidence-boost", None),
                   lambda: mg.trade(rules, state, "adam", ["suspicious-remedy"], "micah", []),
                   lambda: mg.reveal(rules, state, None)):
        with pytest.raises(RuleError, match="no encounter is active"):
            action()


def test_the_intention_is_fixed_once_rolled(rules):
    state = three_players(rules, ["grumpy-goose"])
    state, _ = mg.reveal(rules, state, None)
    state, _ = mg.choose(state, "attack")
    state, _ = mg.choose(state, "charm")  # free to change before rolling
    state, _ = mg.roll(rules, state, ScriptedChance(["D8=1"]))
    with pytest.raises(RuleError, match="fixed once the dice are rolled"):
        mg.choose(state, "escape")
    with pytest.raises(RuleError, match="not an intention"):
        mg.choose(mg.arrange(rules, state.players, encounter=mg.Encounter("yeti"), phase=mg.ENCOUNTER), "hide")


def test_an_open_number_is_never_guessed(rules):
    state = three_players(rules, ["goblin-king"])
    state, _ = mg.reveal(rules, state, None)
    state, _ = mg.choose(state, "attack")
    with pytest.raises(OpenRuleError, match="Wiseman's attack is open"):
        mg.roll(rules, state, ScriptedChance([]))


def test_a_card_can_send_the_player_to_another_encounter(trules):
    t = hero(trules, "t", "test-hero")
    state = mg.arrange(trules, [t, hero(trules, "u", "test-hero")], {"encounters": ["test-wisp", "test-wolf"]})
    chance = ScriptedChance(["D20=5"], shuffles={"encounters": [[]]})
    state, events = replay(state, (mg.reveal, trules, STATE, None), (mg.face, trules, STATE, "escape", chance))
    assert state.current.name == "t" and state.phase == mg.ENCOUNTER and state.encounter is None
    with pytest.raises(RuleError, match="no encounter is active"):
        mg.buy(trules, state, "t", "test-sword", None)
    state, _ = mg.reveal(trules, state, None)
    assert state.encounter.card in ("test-wisp", "test-wolf")


# -- companions --------------------------------------------------------------------------------------


def test_companion_adds_its_attack_and_dies_when_an_attack_exceeds_its_defense(trules):
    t = hero(trules, "t", "test-hero", hp=10)
    state = mg.arrange(trules, [t, hero(trules, "u", "test-hero")],
                       {"t:dock": ["test-wolf"], "encounters": ["test-gambler"]})
    state, _ = mg.assign_companion(trules, state, "t", "test-wolf")
    assert state.pile("t", "companions") == ["test-wolf"]
    state, _ = mg.reveal(trules, state, None)
    # The gambler's card-defined failure replaces damage to the player and the companion, not the companion's
    # attack (readings.yaml, companions-under-card-rules): the wolf still adds its roll, and survives the failure.
    chance = ScriptedChance(["D6=1", "D6=2", "D4=2"], shuffles={"encounters": [[]]})
    state2, events = mg.face(trules, state, "attack", chance)
    assert ("companion-adds", {"player": "t", "companion": "test-wolf", "adds": 2}) in events
    assert result(events)["total"] == 3 and not result(events)["success"]
    assert state2.pile("t", "companions") == ["test-wolf"] and state2.player("t").hp == 10
    chance.finish()
    # A standard attack against a wolf: the companion's roll is added; on a failure the encounter's attack
    # hits the companion, which dies only when the attack is above its defense.
    state = mg.arrange(trules, [t, hero(trules, "u", "test-hero")],
                       {"t:companions": ["test-wolf"], "encounters": ["test-wolf", "test-wolf"]})
    state, _ = mg.reveal(trules, state, None)
    chance = ScriptedChance(["D6=1", "D6=1", "D6=3"], shuffles={"encounters": [[]]})
    state3, events = mg.face(trules, state, "attack", chance)
    assert ("companion-adds", {"player": "t", "companion": "test-wolf", "adds": 1}) in events
    assert result(events) == {"player": "t", "total": 2, "card": "test-wolf", "against": "defense", "target": 3,
                              "success": False}
    assert ("companion-hit", {"player": "t", "companion": "test-wolf", "defense": 3, "dies": False}) in events
    assert state3.player("t").hp == 7
    chance = ScriptedChance(["D6=1", "D6=1", "D6=4"], shuffles={"encounters": [[]]})
    state4, events = mg.face(trules, state, "attack", chance)
    assert ("companion-hit", {"player": "t", "companion": "test-wolf", "defense": 3, "dies": True}) in events
    assert state4.pile("t", "companions") == [] and state4.zones.ids("graveyard") == ["test-wolf"]
    chance = ScriptedChance(["D6=2", "D6=1"])
    state5, events = mg.face(trules, state, "attack", chance)
    assert result(events)["total"] == 3 and result(events)["success"]  # meeting the number is enough
    assert state5.player("t").coins == 2


def test_companions_are_assigned_only_in_your_own_preparation(trules):
    players = [hero(trules, "t", "test-hero"), hero(trules, "u", "test-hero")]
    state = mg.arrange(trules, players, {"u:dock": ["test-wolf"], "encounters": ["test-wolf"]})
    with pytest.raises(RuleError, match="only t, whose turn it is"):
        mg.assign_companion(trules, state, "u", "test-wolf")


# -- card-defined resolutions ---------------------------------------------------------------------


def test_dice_game_loses_items_at_random_instead_of_damage(trules):
    t = hero(trules, "t", "test-hero", hp=10)
    state = mg.arrange(trules, [t, hero(trules, "u", "test-hero")],
                       {"t:items": ["test-sword", "test-charm", "suspicious-remedy"], "encounters": ["test-gambler"]})
    state, _ = mg.reveal(trules, state, None)
    chance = ScriptedChance(["D6=3", "D4=2", "D3=2", "D2=2"], shuffles={"encounters": [[]]})
    state, events = mg.face(trules, state, "attack", chance)
    assert ("items-lost", {"player": "t", "count": 2, "items": ["test-charm", "suspicious-remedy"]}) in events
    assert state.pile("t", "items") == ["test-sword"] and state.player("t").hp == 10
    assert sorted(state.zones.ids("used-treasure")) == ["suspicious-remedy", "test-charm"]
    chance.finish()


def test_escape_by_rolling_doubles(trules):
    players = [hero(trules, "t", "test-hero", hp=10), hero(trules, "u", "test-hero")]
    state = mg.arrange(trules, players, {"encounters": ["test-eel"]})
    state, _ = mg.reveal(trules, state, None)
    won, events = mg.face(trules, state, "escape", ScriptedChance(["D6=4", "D6=4"], shuffles={"encounters": [[]]}))
    assert ("doubles", {"player": "t", "faces": [4, 4], "success": True}) in events and won.player("t").hp == 10
    lost, events = mg.face(trules, state, "escape", ScriptedChance(["D6=4", "D6=5"], shuffles={"encounters": [[]]}))
    assert ("doubles", {"player": "t", "faces": [4, 5], "success": False}) in events and lost.player("t").hp == 7


# -- weather -------------------------------------------------------------------------------------------


def test_weather_counts_from_a_later_turn_but_immediate_weather_at_once(trules):
    players = [hero(trules, "t", "test-hero", hp=10), hero(trules, "u", "test-hero", hp=10)]
    state = mg.arrange(trules, players, {"encounters": ["test-crow", "test-wolf"]}, turn=5)
    state, events = mg.reveal(trules, state, None)
    assert state.player("t").hp == 8
    assert ("health", {"player": "t", "amount": -2, "health": 8, "weather": "test-fog", "attacker": None}) in events
    state, events = mg.face(trules, state, "escape", ScriptedChance(["D20=9"], shuffles={"encounters": [[]]}))
    assert state.player("u").hp == 8 and state.player("t").hp == 8


def test_storming_has_no_known_effect_to_apply(rules):
    state = three_players(rules, ["yeti"])
    with pytest.raises(OpenRuleError, match="Storming's health_per_turn is open"):
        mg.set_weather(rules, state, "storming")


# -- the merchant ---------------------------------------------------------------------------------------


def test_new_game_stocks_six_and_a_purchase_refills_from_a_reshuffled_used_pile(trules):
    seats = [("t", "test-hero"), ("u", "test-hero")]
    chance = SeededChance(3)
    state, events = mg.deal(trules, seats, chance)
    treasure = Counter(trules.decks["treasure"])
    assert len(state.zones.ids("merchant")) == min(6, sum(treasure.values()))
    # Empty the treasure deck into the used pile, then buy: the refill comes from the reshuffled used pile.
    t = hero(trules, "t", "test-hero", coins=10)
    state = mg.arrange(trules, [t], {"merchant": ["test-sword"] * 6, "used-treasure": ["test-charm"]})
    chance = ScriptedChance([], shuffles={"treasure": [["test-charm"]]})
    state, events = mg.buy(trules, state, "t", "test-sword", chance)
    assert state.player("t").coins == 5 and state.pile("t", "items") == ["test-sword"]
    assert Counter(state.zones.ids("merchant")) == Counter({"test-sword": 5, "test-charm": 1})
    assert events[1] == ("treasure-reshuffled", {})
    with pytest.raises(RuleError, match="costs 5"):
        mg.buy(trules, mg.arrange(trules, [hero(trules, "t", "test-hero", coins=4)], {"merchant": ["test-sword"]}),
               "t", "test-sword", chance)


def test_trading_moves_items_both_ways(rules):
    state = three_players(rules, ["yeti"])
    state = mg.arrange(rules, state.players, {"adam:items": ["suspicious-remedy"], "micah:items": ["confidence-boost"]})
    state, events = mg.trade(rules, state, "adam", ["suspicious-remedy"], "micah", ["confidence-boost"])
    assert state.pile("adam", "items") == ["confidence-boost"] and state.pile("micah", "items") == ["suspicious-remedy"]


# -- winning and losing -----------------------------------------------------------------------------------


def test_health_zero_frees_creatures_and_items_and_the_last_player_wins(trules):
    players = [hero(trules, "t", "test-hero", hp=3), hero(trules, "u", "test-hero", hp=10)]
    state = mg.arrange(trules, players, {"t:dock": ["test-wolf"], "t:items": ["test-sword"],
                                         "encounters": ["test-wolf", "test-eel"]})
    state, _ = mg.reveal(trules, state, None)
    state, events = mg.face(trules, state, "escape", ScriptedChance(["D20=2", "D6=4"], shuffles={"encounters": [[]]}))
    assert ("health", {"player": "t", "amount": -4, "health": -1, "weather": None, "attacker": "test-wolf"}) in events
    assert state.player("t").status == mg.OUT
    assert state.zones.ids("graveyard") == ["test-wolf"] and state.zones.ids("used-treasure") == ["test-sword"]
    assert state.phase == mg.OVER and state.winners == ("u",)


def test_leaving_is_a_loss_and_its_creatures_go_to_the_graveyard(trules):
    players = [hero(trules, "t", "test-hero"), hero(trules, "u", "test-hero"), hero(trules, "v", "test-hero")]
    state = mg.arrange(trules, players, {"t:companions": ["test-wolf"], "t:items": ["test-sword"],
                                         "encounters": ["test-eel"]})
    state, events = mg.leave(trules, state, "t")
    assert state.player("t").status == mg.LEFT and state.current.name == "u" and state.phase == mg.PREPARATION
    assert state.zones.ids("graveyard") == ["test-wolf"] and state.zones.ids("used-treasure") == ["test-sword"]


def test_an_exhausted_encounter_deck_is_a_win_for_everyone_left(trules):
    players = [hero(trules, "t", "test-hero"), hero(trules, "u", "test-hero", status=mg.OUT),
               hero(trules, "v", "test-hero")]
    state = mg.arrange(trules, players, {"encounters": ["test-wolf"]})
    state, _ = mg.reveal(trules, state, None)
    state, events = mg.face(trules, state, "attack", ScriptedChance(["D6=5"]))
    assert events[-1] == ("exhausted", {"winners": ["t", "v"]})
    assert state.phase == mg.OVER and state.winners == ("t", "v")


# -- the example protocol ----------------------------------------------------------------------------------


def test_every_rulebook_example_replays(game):
    from deckwright.rules.book.examples import replay_game_examples

    results = replay_game_examples(game)
    names = {r.name: r.verdict for r in results}
    assert len(results) >= 11 and set(names.values()) == {"verified"}, [str(r) for r in results if r.verdict != "verified"]
    for source_turn in ("Turn 1, the Wiseman charms the Grumpy Goose", "Turn 2, the Assassin escapes the Goblin King",
                        "Turn 3, the Paladin defeats the Yeti", "Turn 3, the Paladin fails against the Yeti",
                        "Turn 23, Sunny, two Confidence Boosts and a sale"):
        assert names[source_turn] == "verified"


def read(game, definition, text: str) -> list[str]:
    node, _ = parse_yaml(text, "page.md")
    _, problems = read_plain(node, definition, "setup", game)
    return [f"{p.loc.line}:{p.loc.col}: {p.message}" for p in problems]


def test_setup_and_actions_report_what_they_cannot_read(game):
    from deckwright.rules.games import micahs_game

    assert read(game, micahs_game.SETUP, "players: [{name: a, class: wisemen}]\n") == [
        "1:28: setup.players.1.class: no card with id 'wisemen'; did you mean 'wiseman'?"]
    assert read(game, micahs_game.SETUP, "players: [{name: a, class: yeti}]\n") == [
        "1:28: setup.players.1.class: 'yeti' is a creature, expected a class"]
    assert read(game, micahs_game.SETUP, "players: [{name: a, class: wiseman}]\nencounter: [yeti]\n") == [
        "2:1: setup.encounter: unknown field; did you mean 'encounters'?"]
    assert read(game, micahs_game.SETUP, "players: [{name: a, class: wiseman, items: [sword]}]\n") == [
        "1:45: setup.players.1.items.1: no card with id 'sword'"]
    rules = micahs_game.prepare(game)
    chance = ScriptedChance([])
    log = EventLog()
    state = micahs_game.setup(rules, {"players": [{"name": "a", "class": "wiseman"}], "encounters": ["yeti"]},
                              chance, log)
    for bad in ("hide", {"steal": "yeti"}, {"buy": "yeti", "price": 3}):
        with pytest.raises(SpecError):
            micahs_game.apply(state, bad, chance, log)
    seen = micahs_game.observe(state)
    assert seen["players"]["a"]["dice"] == {"attack": "open", "charisma": "D8", "speed": "open"}
    assert seen["players"]["a"]["health"] == "open" and seen["encounters"] == ["yeti"] and seen["last"] == "none"
