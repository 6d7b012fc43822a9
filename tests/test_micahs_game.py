"""Micah's Game: the card data keeps the source's facts, and the mechanics follow its rules."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.check import check_game
from deckwright.rules.data.values import Open
from deckwright.rules.engine.chance import ScriptedChance, SeededChance
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.games.micahs_game import mechanics as mg
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "micahs-game" / "extra-cards.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(BUNDLED_GAMES / "micahs-game")


@pytest.fixture(scope="module")
def rules(game):
    return mg.rules_from(game)


@pytest.fixture(scope="module")
def test_game(tmp_path_factory):
    """The bundled game plus made-up test cards (alternative resolutions, known companion stats)."""
    folder = tmp_path_factory.mktemp("micah") / "micahs-game"
    shutil.copytree(BUNDLED_GAMES / "micahs-game", folder)
    shutil.copy(FIXTURE, folder / "extra-cards.yaml")
    return load_game(folder)


@pytest.fixture(scope="module")
def trules(test_game):
    return mg.rules_from(test_game)


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
    assert events == ["adam applies Confidence Boost: charisma D8 -> D10",
                      "adam applies Confidence Boost: charisma D10 -> D12"]
    assert state.pile("adam", "upgrades") == ["confidence-boost", "confidence-boost"]


def test_a_step_past_d20_adds_a_d4_and_all_dice_are_summed(rules):
    adam = hero(rules, "adam", "wiseman", dice={"attack": None, "charisma": (20,), "speed": None})
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
    with pytest.raises(mg.OpenValue, match="Paladin's charisma is open"):
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
    assert "adam rolls 7 against Grumpy Goose's charm 5: success" in events
    assert state.pile("adam", "dock") == ["silly-goose"]
    assert state.player("adam").coins == 0 and state.current.name == "micah" and state.turn == 2
    # Adam's next turn pays the Silly Goose's coin.
    state = mg.arrange(rules, state.players, {"adam:dock": ["silly-goose"], "encounters": ["yeti"]}, turn=4)
    state, events = mg.start_turn(rules, state)
    assert state.player("adam").coins == 1 and events[-1] == "adam gains 1 coin from Silly Goose (1 coins)"
    chance.finish()


def test_turn_2_micah_escapes_the_goblin_king(rules):
    state = three_players(rules, ["goblin-king", "yeti"], active=1, turn=2)
    chance = ScriptedChance(["D10=4"], shuffles={"encounters": [[]]})
    state, events = replay(state, (mg.start_turn, rules, STATE), (mg.reveal, rules, STATE, None),
                           (mg.face, rules, STATE, "escape", chance))
    assert "micah rolls 4 against Goblin King's escape 2: success" in events
    assert sorted(state.zones.ids("encounters")) == ["goblin-king", "yeti"]
    assert state.current.name == "tanya"
    chance.finish()


def test_turn_3_tanya_defeats_the_yeti_and_it_starts_snowing(rules):
    state = three_players(rules, ["yeti", "goblin-king"], active=2, turn=3)
    chance = ScriptedChance(["D10=10"])
    state, events = replay(state, (mg.start_turn, rules, STATE), (mg.reveal, rules, STATE, None),
                           (mg.face, rules, STATE, "attack", chance))
    assert "the weather is now Snowing" in events
    assert "tanya rolls 10 against Yeti's defense 5: success" in events
    assert state.player("tanya").coins == 6 and state.zones.ids("graveyard") == ["yeti"]
    assert state.player("tanya").health_change == 0
    # Snowing counts from the next turn: Adam loses a health at the start of turn 4.
    assert events[-2:] == ["turn 4: adam", "adam loses 1 health: it is Snowing"]
    assert state.player("adam").health_change == -1
    chance.finish()


def test_turn_3_failure_variant_yeti_deals_5(rules):
    state = three_players(rules, ["yeti", "goblin-king"], active=2, turn=3)
    chance = ScriptedChance(["D10=2", "D4=3"], shuffles={"encounters": [[]]})
    state, events = replay(state, (mg.start_turn, rules, STATE), (mg.reveal, rules, STATE, None),
                           (mg.face, rules, STATE, "attack", chance))
    assert "Yeti attacks for 5" in events
    assert state.player("tanya").health_change == -5 and state.player("tanya").coins == 0
    assert "yeti" in state.zones.ids("encounters")
    chance.finish()


def test_turn_23_sunny_shopping_and_selling(rules):
    adam = hero(rules, "adam", "wiseman", coins=26, dice={"attack": None, "charisma": (10,), "speed": None})
    state = mg.arrange(rules, [adam], {"merchant": ["confidence-boost"], "treasure": ["suspicious-remedy"],
                                       "adam:items": ["suspicious-remedy"], "adam:upgrades": ["confidence-boost"],
                                       "encounters": ["goblin-king"]},
                       turn=23, weather="sunny", weather_since=20)
    rules1 = mg.Rules(1, 0, None, None, rules.cards, rules.decks)  # a one-slot merchant keeps the test small
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
    with pytest.raises(mg.OpenValue, match="Wiseman's attack is open"):
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
    # The gambler's card-defined attack skips the companion: that rule replaces the standard one.
    chance = ScriptedChance(["D6=1", "D4=2"], shuffles={"encounters": [[]]})
    state2, events = mg.face(trules, state, "attack", chance)
    assert state2.pile("t", "companions") == ["test-wolf"]
    # A standard attack against a wolf: the companion's roll is added; on a failure the encounter's attack
    # hits the companion, which dies only when the attack is above its defense.
    state = mg.arrange(trules, [t, hero(trules, "u", "test-hero")],
                       {"t:companions": ["test-wolf"], "encounters": ["test-wolf", "test-wolf"]})
    state, _ = mg.reveal(trules, state, None)
    chance = ScriptedChance(["D6=1", "D6=1", "D6=3"], shuffles={"encounters": [[]]})
    state3, events = mg.face(trules, state, "attack", chance)
    assert "t's companion Test Wolf adds 1" in events and "t rolls 2 against Test Wolf's defense 3: failure" in events
    assert "t's companion Test Wolf (defense 3) survives" in events and state3.player("t").hp == 7
    chance = ScriptedChance(["D6=1", "D6=1", "D6=4"], shuffles={"encounters": [[]]})
    state4, events = mg.face(trules, state, "attack", chance)
    assert "t's companion Test Wolf (defense 3) dies and goes to the graveyard" in events
    assert state4.pile("t", "companions") == [] and state4.zones.ids("graveyard") == ["test-wolf"]
    chance = ScriptedChance(["D6=2", "D6=1"])
    state5, events = mg.face(trules, state, "attack", chance)
    assert "t rolls 3 against Test Wolf's defense 3: success" in events  # meeting the number is enough
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
    assert "t loses 2 item(s) at random: Test Charm, Suspicious Remedy" in events
    assert state.pile("t", "items") == ["test-sword"] and state.player("t").hp == 10
    assert sorted(state.zones.ids("used-treasure")) == ["suspicious-remedy", "test-charm"]
    chance.finish()


def test_escape_by_rolling_doubles(trules):
    players = [hero(trules, "t", "test-hero", hp=10), hero(trules, "u", "test-hero")]
    state = mg.arrange(trules, players, {"encounters": ["test-eel"]})
    state, _ = mg.reveal(trules, state, None)
    won, events = mg.face(trules, state, "escape", ScriptedChance(["D6=4", "D6=4"], shuffles={"encounters": [[]]}))
    assert "t rolls 4, 4: doubles, success" in events and won.player("t").hp == 10
    lost, events = mg.face(trules, state, "escape", ScriptedChance(["D6=4", "D6=5"], shuffles={"encounters": [[]]}))
    assert "t rolls 4, 5: no doubles, failure" in events and lost.player("t").hp == 7


# -- weather -------------------------------------------------------------------------------------------


def test_weather_counts_from_a_later_turn_but_immediate_weather_at_once(trules):
    players = [hero(trules, "t", "test-hero", hp=10), hero(trules, "u", "test-hero", hp=10)]
    state = mg.arrange(trules, players, {"encounters": ["test-crow", "test-wolf"]}, turn=5)
    state, events = mg.reveal(trules, state, None)
    assert state.player("t").hp == 8 and "t loses 2 health: it is Test Fog (health 8)" in events
    state, events = mg.face(trules, state, "escape", ScriptedChance(["D20=9"], shuffles={"encounters": [[]]}))
    assert state.player("u").hp == 8 and state.player("t").hp == 8


def test_storming_has_no_known_effect_to_apply(rules):
    state = three_players(rules, ["yeti"])
    with pytest.raises(mg.OpenValue, match="Storming's health_per_turn is open"):
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
    assert "the used treasure is shuffled" in events[1]
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
    assert "t loses 4 health: Test Wolf's attack (health -1)" in events
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
    assert events[-1] == "the encounter deck is exhausted: t, v win together"
    assert state.phase == mg.OVER and state.winners == ("t", "v")


def test_random_games_keep_every_card_and_end(test_game):
    """Seeded random play with the fully known test cards: cards are conserved and every game ends."""
    from deckwright.rules.engine.randomplay import play
    from deckwright.rules.games import micahs_game

    options = {"players": [["t", "test-hero"], ["u", "test-hero"], ["v", "test-hero"]],
               "decks": {"encounters": ["test-wolf", "test-wolf", "test-gambler", "test-eel", "test-wisp", "test-crow"],
                         "treasure": ["test-sword", "test-charm"] * 4}}
    kinds = Counter()
    for seed in range(60):
        result = play(micahs_game, test_game, seed, max_actions=2000, options=options)
        assert result.over and not result.problems, (seed, result.problems)
        assert all(p.coins >= 0 for p in result.state.state.players)
        kinds[len(result.state.state.winners)] += 1
    assert kinds[1] > 0


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


def test_setup_and_actions_report_what_they_cannot_read(game):
    from deckwright.rules.engine.errors import SpecError
    from deckwright.rules.games.micahs_game import protocol

    chance = ScriptedChance([])
    with pytest.raises(SpecError) as err:
        protocol.setup(game, {"players": [{"name": "a", "class": "wizard"}]}, chance, None)
    assert err.value.key == ("players", 0, "class") and "'wizard' is not a class card" in str(err.value)
    with pytest.raises(SpecError) as err:
        protocol.setup(game, {"players": [{"name": "a", "class": "wiseman"}], "encounter": ["yeti"]}, chance, None)
    assert err.value.key == ("encounter",)
    with pytest.raises(SpecError) as err:
        protocol.setup(game, {"players": [{"name": "a", "class": "wiseman", "items": ["sword"]}]}, chance, None)
    assert err.value.key == ("players", 0, "items", 0)
    table = protocol.setup(game, {"players": [{"name": "a", "class": "wiseman"}], "encounters": ["yeti"]}, chance, None)
    for bad in ("hide", {"steal": "yeti"}, {"trade": "a"}):
        with pytest.raises(SpecError):
            protocol.apply(table, bad, chance, None)
    seen = protocol.observe(table)
    assert seen["players"]["a"]["dice"] == {"attack": "open", "charisma": "D8", "speed": "open"}
    assert seen["players"]["a"]["health"] == "open" and seen["encounters"] == ["yeti"] and seen["last"] == "none"
