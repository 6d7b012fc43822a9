"""Parousia: the card data keeps the source's facts, and the mechanics follow its rules."""
from __future__ import annotations

import shutil
from collections import Counter

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.ci.check import check_game
from deckwright.rules.data.values import Open
from deckwright.rules.data.specs import read_plain
from deckwright.rules.data.yamlsrc import parse_yaml
from deckwright.rules.engine.chance import ScriptedChance
from deckwright.rules.engine.errors import ChanceError, RuleError, SpecError
from deckwright.rules.engine.log import EventLog
from deckwright.rules.games import parousia
from deckwright.rules.engine.narration import Narrator
from deckwright.rules.games.parousia.chances import chance_result, chance_text
from deckwright.rules.games.parousia.numbers import ChanceLine
from deckwright.rules.load import load_game

GAME = load_game(BUNDLED_GAMES / "parousia")
RULES = parousia.prepare(GAME)


def player(name="Ann", **counters):
    base = {"name": name, "hearts": 3, "heart-containers": 3, "damage": 3, "tears": 1, "speed": 5}
    base.update(counters)
    return base


def run(spec, actions=(), rolls=(), shuffles=None):
    """Replays actions from a setup; returns (state, observed, log lines)."""
    log = EventLog(Narrator(parousia.NARRATION, RULES))
    chance = ScriptedChance(rolls, shuffles or {}, log)
    state = parousia.setup(RULES, spec, chance, log)
    for action in actions:
        state = parousia.apply(state, action, chance, log)
    chance.finish()
    return state, parousia.observe(state), log.lines()


ENEMY = {"name": "Enemy A", "resilience": 10, "speed": 2, "charge": False}
BOSS = {"name": "Boss A", "hp": 30, "evasiveness": 6, "speed": 1, "charge": False}


# -- the data ---------------------------------------------------------------------------


def test_pickup_deck_is_75_cards_of_the_source():
    deck = list(GAME.printed_cards("pickups"))
    assert len(deck) == 75 == GAME.decks["pickups"].count
    kinds = Counter(card.type for card in deck)
    assert kinds == {"playing-card": 52, "joker": 2, "tarot": 21}
    suits = Counter(card["suit"] for card in GAME.cards_of("playing-card"))
    assert suits == {"hearts": 13, "diamonds": 13, "spades": 13, "clubs": 13}
    assert sorted(card["number"] for card in GAME.cards_of("tarot")) == list(range(1, 22))
    assert "the-fool" not in {card.id for card in deck}


@pytest.mark.parametrize("card_id, pickup, amount", [
    ("2-of-clubs", "bomb", 2), ("7-of-clubs", "bomb", 1), ("king-of-clubs", "bomb", 2),
    ("10-of-spades", "key", 1), ("queen-of-spades", "key", 2), ("3-of-hearts", "red-heart", 1),
    ("jack-of-hearts", "red-heart", 2), ("2-of-diamonds", "coin", 2), ("9-of-diamonds", "coin", 1),
    ("jack-of-diamonds", "nickel", 1), ("queen-of-diamonds", "dime", 1), ("king-of-diamonds", "quarter", 1),
])
def test_what_each_solitaire_card_gives(card_id, pickup, amount):
    card = RULES.deck_cards[card_id]
    assert (card.kind, card.pickup, card.amount) == ("pickup", pickup, amount)


def test_aces_convert_to_their_suit_and_coins_are_worth_cents():
    assert {c: RULES.deck_cards[f"ace-of-{c}"].pickup for c in ("hearts", "diamonds", "spades", "clubs")} == \
        {"hearts": "red-heart", "diamonds": "coin", "spades": "key", "clubs": "bomb"}
    assert [RULES.pickups[p].value for p in ("coin", "nickel", "dime", "quarter")] == [1, 5, 10, 25]


def test_tarot_numbers_come_from_the_source():
    assert GAME.card("the-high-priestess")["damage"] == {"amount": 10, "target": "highest-hp"}
    assert GAME.card("death")["damage"] == {"amount": 40, "target": "every-enemy"}
    assert GAME.card("the-chariot")["turns"] == 6 and GAME.card("the-chariot")["bonus"] == {"speed": 2}
    assert GAME.card("strength")["bonus"] == {"heart-containers": 1, "damage": 1, "speed": 1, "tears": 1}
    assert str(GAME.card("the-tower")["drops"][0]["amount"]) == "D20/2"
    assert str(GAME.card("blood-donation-machine")["drops"][0]["amount"]) == "D20/5"
    assert isinstance(GAME.card("the-magician")["text"], Open)


def test_counters_caps_and_open_decks():
    assert len(RULES.counters) == 10
    assert RULES.counters["hearts"].cap == "heart-containers"
    assert RULES.counters["item-charge"].cap == "item-charge"
    assert RULES.counters["coins"].shared
    assert GAME.constants["counter_cap"] == 20
    assert {d for d, deck in GAME.decks.items() if deck.open} == {"rooms", "items", "devil-items", "enemies", "bosses"}
    subjects = {q.subject for q in GAME.open_questions}
    assert {"tarot.the-magician.text", "deck bosses", "floors and the end of the game", "counter.speed.start"} <= subjects
    assert {"dividing-rolls", "partial-pickup", "soul-and-black-hearts"} <= {r.id for r in GAME.readings}


def test_shop_numbers():
    shop = GAME.card("shop")
    assert (shop["items"], shop["pickups"], shop["item_price"], shop["pickup_price"]) == (2, 3, 15, 5)
    assert GAME.card("treasure-room")["key_cost"] == 1


# -- chance ----------------------------------------------------------------------------


def test_chance_chain_reads_one_roll():
    beggar = [ChanceLine(1, "item"), ChanceLine(3, "pickup")]
    outcomes = Counter(chance_result(beggar, roll) for roll in range(1, 21))
    assert outcomes == {"item": 1, "pickup": 2, None: 17}
    moon = RULES.deck_cards["the-moon"].effect.chance
    assert Counter(chance_result(moon, roll) for roll in range(1, 21)) == {"item": 2, "pickup": 18}
    assert chance_text(beggar, 20) == "1 item, 2-3 pickup, 4-20 nothing"
    wheel = RULES.machines["slot-machine"].chance
    assert [chance_result(wheel, r) for r in (10, 11)] == ["pickup", None]


@pytest.mark.parametrize("roll, coins", [(1, 0), (4, 0), (5, 1), (13, 2), (19, 3), (20, 4)])
def test_temperance_rounds_down(roll, coins):
    _, seen, _ = run({"players": [player(hand=["temperance"])]}, [{"play": "temperance"}, {"use": "temperance"}],
                     [roll])
    assert seen["floor_pickups"].get("coin", 0) == coins


def test_an_impossible_roll_is_reported():
    with pytest.raises(ChanceError, match="impossible on a D20"):
        run({"players": [player(hand=["the-tower"])]}, [{"play": "the-tower"}], [21])


# -- counters and pickups --------------------------------------------------------------------


def test_red_hearts_stop_at_the_containers_and_the_rest_stays_on_the_floor():
    """readings.yaml, partial-pickup: the Two of Hearts' second heart stays on the floor as one red heart."""
    _, seen, log = run({"players": [player(hearts=2)], "floor": ["2-of-hearts"]}, [{"take": "2-of-hearts"}])
    assert seen["players"]["Ann"]["hearts"] == 3
    assert seen["floor_pickups"] == {"red-heart": 1}
    assert any("1 red heart(s) stay on the floor" in line for line in log)


def test_a_full_counter_leaves_the_pickup_on_the_floor():
    with pytest.raises(RuleError, match="already full"):
        run({"players": [player()], "floor": ["5-of-hearts"]}, [{"take": "5-of-hearts"}])


def test_a_playable_card_needs_room_in_the_hand():
    _, seen, _ = run({"players": [player()], "floor": ["the-sun"]}, [{"take": "the-sun"}])
    assert seen["players"]["Ann"]["hand"] == ["the-sun"]
    with pytest.raises(RuleError, match="hand is full"):
        run({"players": [player(hand=["the-sun"])], "floor": ["the-moon"]}, [{"take": "the-moon"}])


def test_coins_are_shared_in_co_op():
    spec = {"players": [player("Ann"), player("Ben")], "coins": 3, "floor": ["5-of-diamonds"]}
    _, seen, _ = run(spec, [{"take": "5-of-diamonds", "player": "Ben"}])
    assert seen["coins"] == 4
    assert "coins" not in seen["players"]["Ben"]


def test_co_op_actions_name_the_player():
    with pytest.raises(SpecError, match="say which one"):
        run({"players": [player("Ann"), player("Ben")], "floor": ["5-of-diamonds"]}, [{"take": "5-of-diamonds"}])


def test_ace_keeps_counts_and_leaves_items_and_machines():
    spec = {"players": [player(hand=["ace-of-clubs"])],
            "floor": ["2-of-spades", "queen-of-diamonds", {"item": "void"}, {"machine": "beggar"}, "the-sun"]}
    _, seen, _ = run(spec, [{"play": "ace-of-clubs"}])
    assert seen["floor_pickups"] == {"bomb": 3}
    assert seen["floor"] == ["2-of-spades", "queen-of-diamonds", "void", "beggar", "the-sun"]


def test_guarded_pickups_cost_a_bomb_a_key_or_a_hit():
    spec = {"players": [player(bombs=1, keys=0)],
            "floor": [{"pickup": "coin", "guard": "rocks"}, {"pickup": "key", "guard": "spikes"},
                      {"pickup": "bomb", "guard": "lock"}]}
    _, seen, _ = run(spec, [{"take": "coin"}, {"take": "key"}])
    ann = seen["players"]["Ann"]
    assert (seen["coins"], ann["bombs"], ann["keys"], ann["hearts"]) == (1, 0, 1, 2)
    with pytest.raises(RuleError, match="no keys"):
        run(spec, [{"take": "bomb"}])


def test_item_charge_stops_at_the_items_charge():
    spec = {"players": [player(**{"item-charge": 2}, activated={"name": "Gadget", "charge": 2, "text": "test"})],
            "fight": {"enemies": [ENEMY]}, "decks": {"pickups": ["3-of-spades"]}}
    _, seen, log = run(spec, [{"shoot": "enemy-a"}], [7])
    assert seen["players"]["Ann"]["item-charge"] == 2
    assert not seen["in_fight"] and seen["floor"] == ["3-of-spades"]


def test_apply_leaves_the_given_state_alone():
    log = EventLog(Narrator(parousia.NARRATION, RULES))
    chance = ScriptedChance([], {}, log)
    state = parousia.setup(RULES, {"players": [player()], "floor": ["3-of-spades"]}, chance, log)
    after = parousia.apply(state, {"take": "3-of-spades"}, chance, log)
    assert parousia.observe(state)["floor"] == ["3-of-spades"]
    assert parousia.observe(after)["players"]["Ann"]["keys"] == 1


# -- tarot ---------------------------------------------------------------------------------


def test_high_priestess_hits_the_boss_with_the_most_hp():
    spec = {"players": [player(hand=["the-high-priestess"])], "fight": {"enemies": [ENEMY], "boss": BOSS}}
    _, seen, _ = run(spec, [{"play": "the-high-priestess"}])
    assert seen["fight"]["enemies"]["boss-a"]["hp"] == 20
    assert seen["fight"]["enemies"]["enemy-a"]["alive"]


def test_high_priestess_among_equals_needs_a_target():
    spec = {"players": [player(hand=["the-high-priestess"])], "fight": {"enemies": [ENEMY, ENEMY]}}
    with pytest.raises(RuleError, match="name one"):
        run(spec, [{"play": "the-high-priestess"}])
    _, seen, _ = run(spec, [{"play": "the-high-priestess", "target": "enemy-a-2"}])
    assert [e["alive"] for e in seen["fight"]["enemies"].values()] == [True, False]


def test_death_hits_every_enemy():
    spec = {"players": [player(hand=["death"])], "fight": {"enemies": [ENEMY], "boss": BOSS},
            "decks": {"pickups": ["4-of-spades"]}}
    _, seen, _ = run(spec, [{"play": "death"}])
    assert not seen["in_fight"] and seen["floor"] == ["4-of-spades"]


def test_fight_long_bonuses_end_with_the_fight():
    spec = {"players": [player(hand=["the-devil"], damage=1)], "fight": {"enemies": [ENEMY]},
            "decks": {"pickups": ["4-of-spades"]}}
    state, seen, _ = run(spec, [{"play": "the-devil"}])
    assert seen["players"]["Ann"]["stats"]["damage"] == 3 and seen["players"]["Ann"]["damage"] == 1
    _, seen, _ = run(spec, [{"play": "the-devil"}, {"shoot": "enemy-a"}], [7])  # 7 + 3 = 10: hit
    assert not seen["in_fight"] and seen["players"]["Ann"]["stats"]["damage"] == 1


def test_strength_container_goes_and_the_extra_red_heart_with_it():
    spec = {"players": [player(hand=["strength"], **{"heart-containers": 3, "hearts": 3})],
            "fight": {"enemies": [ENEMY]}, "floor": ["4-of-hearts"], "decks": {"pickups": ["4-of-spades"]}}
    _, seen, _ = run(spec, [{"play": "strength"}, {"take": "4-of-hearts"}])
    assert seen["players"]["Ann"]["hearts"] == 4
    assert seen["players"]["Ann"]["stats"] == {"heart-containers": 4, "damage": 4, "speed": 6, "tears": 2}
    _, seen, _ = run(spec, [{"play": "strength"}, {"take": "4-of-hearts"}, {"shoot": "enemy-a"}], [6])
    assert seen["players"]["Ann"]["hearts"] == 3 and not seen["in_fight"]


def test_chariot_six_turns_unhurt_and_unable_to_shoot():
    spec = {"players": [player(hand=["the-chariot"], speed=1)],
            "fight": {"enemies": [dict(ENEMY, speed=9, accuracy=5)]}}
    with pytest.raises(RuleError, match="cannot shoot"):
        run(spec, [{"play": "the-chariot"}, {"shoot": "enemy-a"}])
    _, seen, _ = run(spec, [{"play": "the-chariot"}, {"enemy": "enemy-a"}], [20])
    assert seen["players"]["Ann"]["hearts"] == 3 and seen["players"]["Ann"]["stats"]["speed"] == 3
    _, seen, _ = run(spec, [{"play": "the-chariot"}] + ["skip"] * 5)
    assert seen["players"]["Ann"]["effects"] == ["the-chariot"]
    _, seen, _ = run(spec, [{"play": "the-chariot"}] + ["skip"] * 6)
    assert seen["players"]["Ann"]["effects"] == []


def test_hanged_man_stops_contact_damage_only():
    spec = {"players": [player(hand=["the-hanged-man"], speed=1)],
            "fight": {"enemies": [dict(ENEMY, speed=9, accuracy=0)]}}
    _, seen, _ = run(spec, [{"play": "the-hanged-man"}, {"enemy": "enemy-a"}], [1])
    assert seen["players"]["Ann"]["hearts"] == 3 and seen["last"]["contact"]
    _, seen, _ = run(spec, [{"play": "the-hanged-man"}, {"enemy": "enemy-a"}], [2])
    assert seen["players"]["Ann"]["hearts"] == 2 and seen["last"]["accuracy_hit"]


def test_drops_of_the_hierophant_lovers_and_justice():
    for card, wanted in (("the-hierophant", {"soul-heart": 2}), ("the-lovers", {"red-heart": 2}),
                         ("justice", {"bomb": 1, "coin": 1, "key": 1, "red-heart": 1})):
        _, seen, _ = run({"players": [player(hand=[card])]}, [{"play": card}])
        assert seen["floor_pickups"] == wanted, card


def test_travel_cards():
    _, seen, _ = run({"players": [player(hand=["the-emperor"])], "decks": {"bosses": [BOSS]}}, [{"play": "the-emperor"}])
    assert seen["in_fight"] and seen["fight"]["boss"] and seen["location"] == "boss-room"
    _, seen, _ = run({"players": [player(hand=["the-stars"], keys=0)], "floor_number": 3,
                      "decks": {"items": ["void"]}}, [{"play": "the-stars"}])
    assert seen["location"] == "treasure-room" and seen["floor"] == ["void"]
    _, seen, _ = run({"players": [player(hand=["the-hermit"])], "decks": {"items": ["void", "whore-of-babylon"]}},
                     [{"play": "the-hermit"}])
    assert seen["location"] == "shop" and len(seen["for_sale"]) == 5


def test_sun_heals_and_reveals_world_reveals():
    _, seen, _ = run({"players": [player(hand=["the-sun"], hearts=1)]}, [{"play": "the-sun"}])
    assert seen["players"]["Ann"]["hearts"] == 3
    assert seen["discovered"] == ["shop", "treasure-room", "arcade", "boss-room"]
    _, seen, _ = run({"players": [player(hand=["the-world"], hearts=1)]}, [{"play": "the-world"}])
    assert seen["players"]["Ann"]["hearts"] == 1 and len(seen["discovered"]) == 4


def test_the_magician_is_left_open():
    with pytest.raises(RuleError, match="cannot be resolved"):
        run({"players": [player(hand=["the-magician"])]}, [{"play": "the-magician"}])


# -- rooms -------------------------------------------------------------------------------------


def test_rooms_cannot_be_entered_before_discovery_or_during_a_fight():
    with pytest.raises(RuleError, match="not been discovered"):
        run({"players": [player()]}, [{"enter": "arcade"}])
    with pytest.raises(RuleError, match="combat phase"):
        run({"players": [player()], "discovered": ["arcade"], "fight": {"enemies": [ENEMY]}}, [{"enter": "arcade"}])


def test_arcade_holds_the_three_machines():
    _, seen, _ = run({"players": [player()], "discovered": ["arcade"]}, [{"enter": "arcade"}])
    assert seen["floor"] == ["slot-machine", "beggar", "blood-donation-machine"]


def test_treasure_room_key_only_after_the_first_floor():
    spec = {"players": [player(keys=0)], "discovered": ["treasure-room"], "decks": {"items": ["void"]}}
    _, seen, _ = run(spec, [{"enter": "treasure-room"}])
    assert seen["floor"] == ["void"]
    with pytest.raises(RuleError, match="needs 1 key"):
        run(dict(spec, floor_number=2), [{"enter": "treasure-room"}])


def test_shop_with_three_hearts_sells_the_first_as_soul():
    spec = {"players": [player()], "coins": 20, "discovered": ["shop"],
            "decks": {"items": ["void", "whore-of-babylon"], "pickups": ["3-of-hearts", "2-of-hearts", "9-of-hearts"]}}
    _, seen, _ = run(spec, [{"enter": "shop"}])
    assert seen["floor_pickups"] == {"red-heart": 3, "soul-heart": 1}
    with pytest.raises(RuleError, match="buy it"):
        run(spec, [{"enter": "shop"}, {"take": "void"}])
    with pytest.raises(RuleError, match="costs 15c and the party has 10c"):
        run(dict(spec, coins=10), [{"enter": "shop"}, {"buy": "void"}])


def test_a_special_room_drawn_on_its_own_is_only_discovered():
    _, seen, _ = run({"players": [player()], "decks": {"rooms": ["arcade"]}}, ["draw_room"])
    assert seen["discovered"] == ["arcade"] and not seen["in_fight"]


def test_chasers_chain():
    rooms = [{"name": "R1", "enemies": [ENEMY], "chaser": True}, "shop", "boss-room",
             {"name": "R2", "enemies": [ENEMY], "chaser": True}, {"name": "R3", "enemies": [], "chaser": False}]
    _, seen, _ = run({"players": [player()], "decks": {"rooms": rooms}}, ["draw_room"])
    assert seen["discovered"] == ["shop", "boss-room"]
    assert list(seen["fight"]["enemies"]) == ["enemy-a", "enemy-a-2"]
    assert seen["last"] == {"rooms": ["r1", "r2", "r3"], "discovered": ["shop", "boss-room"]}


# -- combat ------------------------------------------------------------------------------------


def test_turn_order_speed_then_charge():
    spec = {"players": [player("Ann", speed=5), player("Ben", speed=5, charge=True)],
            "fight": {"enemies": [dict(ENEMY, name="Fast", speed=9, charge=True), dict(ENEMY, name="Even", speed=5)]}}
    _, seen, _ = run(spec)
    assert seen["fight"]["order"] == ["Ann", "even", "fast", "Ben"]


def test_enemies_go_for_the_slowest_player():
    spec = {"players": [player("Ann", speed=2), player("Ben", speed=6)],
            "fight": {"enemies": [dict(ENEMY, speed=9)]}}
    _, seen, _ = run(spec, [{"enemy": "enemy-a"}])
    assert seen["last"]["target"] == "Ann" and seen["players"]["Ann"]["hearts"] == 2


def test_accuracy_must_exceed_speed():
    spec = {"players": [player(speed=7)], "fight": {"enemies": [dict(ENEMY, accuracy=2)]}}
    _, seen, _ = run(spec, [{"enemy": "enemy-a"}], [5])
    assert not seen["last"]["accuracy_hit"] and seen["players"]["Ann"]["hearts"] == 3
    _, seen, _ = run(spec, [{"enemy": "enemy-a"}], [6])
    assert seen["last"]["accuracy_hit"] and seen["players"]["Ann"]["hearts"] == 2


def test_soul_hearts_go_first_and_spare_the_devil_die():
    spec = {"players": [player(speed=1, **{"soul-hearts": 1, "devil-die": 2})],
            "fight": {"enemies": [dict(ENEMY, speed=9)]}}
    _, seen, _ = run(spec, [{"enemy": "enemy-a"}])
    assert seen["players"]["Ann"]["soul-hearts"] == 0 and seen["players"]["Ann"]["devil-die"] == 2
    _, seen, _ = run(spec, [{"enemy": "enemy-a"}, {"enemy": "enemy-a"}, {"enemy": "enemy-a"}])
    assert seen["players"]["Ann"]["hearts"] == 1 and seen["players"]["Ann"]["devil-die"] == 3


def test_boss_fights_raise_the_devil_die_by_two():
    spec = {"players": [player(speed=1, **{"devil-die": 19})], "fight": {"boss": dict(BOSS, speed=9)}}
    _, seen, _ = run(spec, [{"enemy": "boss-a"}])
    assert seen["players"]["Ann"]["devil-die"] == 20


def test_too_many_targets_or_a_dead_target_are_refused():
    spec = {"players": [player(tears=2)], "fight": {"enemies": [ENEMY, ENEMY]}}
    with pytest.raises(RuleError, match="2 roll"):
        run(spec, [{"shoot": ["enemy-a", "enemy-a", "enemy-a-2"]}])
    with pytest.raises(RuleError, match="enemy-a is dead; name the next targets"):
        run(spec, [{"shoot": "enemy-a"}], [19])


# -- the devil die ---------------------------------------------------------------------------


def test_devil_roll_meets_or_beats_the_noted_value():
    spec = {"players": [player(**{"devil-die": 7}, damage=10)], "fight": {"boss": dict(BOSS, hp=10)},
            "decks": {"pickups": ["4-of-spades"]}}
    _, seen, _ = run(spec, [{"shoot": "boss-a"}, "devil_roll"], [1, 7])
    assert seen["devil_room"] == "open" and seen["players"]["Ann"]["devil-die"] == 7
    with pytest.raises(RuleError, match="once, right after a boss"):
        run(spec, [{"shoot": "boss-a"}, "devil_roll", "devil_roll"], [1, 7])


@pytest.mark.parametrize("before, after", [(5, 2), (4, 2), (1, 0), (20, 10)])
def test_a_floor_without_a_deal_halves_the_devil_die(before, after):
    _, seen, _ = run({"players": [player(**{"devil-die": before})]}, ["next_floor"], shuffles={"pickups": [[]]})
    assert seen["players"]["Ann"]["devil-die"] == after and seen["floor_number"] == 2


def test_devil_payment_must_match_the_price():
    spec = {"players": [player(hand=["joker"], **{"soul-hearts": 2, "black-hearts": 1})],
            "decks": {"devil-items": [{"name": "D1", "price": 1, "text": "t"}, {"name": "D2", "price": 2, "text": "t"}]}}
    _, seen, _ = run(spec, [{"play": "joker"}, {"deal": "d1", "pay": {"soul-hearts": 2, "black-hearts": 1}}])
    assert seen["players"]["Ann"]["heart-containers"] == 3 and seen["players"]["Ann"]["items"] == ["d1"]
    with pytest.raises(RuleError, match="sets of 3"):
        run(spec, [{"play": "joker"}, {"deal": "d2", "pay": {"soul-hearts": 2}}])
    with pytest.raises(RuleError, match="worth 1"):
        run(spec, [{"play": "joker"}, {"deal": "d2", "pay": {"heart-containers": 1}}])


def test_a_new_floor_returns_floor_cards_to_the_pickup_deck():
    spec = {"players": [player(hand=["the-lovers"])], "floor": ["3-of-spades", {"item": "void"}]}
    state, seen, _ = run(spec, [{"play": "the-lovers"}, "next_floor"], shuffles={"pickups": [[]]})
    assert seen["floor"] == [] and seen["decks"]["pickups"] == 75
    assert state.piles["items"][-1] == "void"


# -- bad example input ------------------------------------------------------------------------


@pytest.mark.parametrize("spec, key, message", [
    ({"players": [player(hand=["3-of-spades"])]}, ("players", 0, "hand", 0), "not a playable card"),
    ({"players": [player(), {"name": "Ann"}]}, ("players",), "share a name"),
])
def test_bad_setups_point_at_the_value(spec, key, message):
    with pytest.raises(SpecError, match=message) as info:
        run(spec)
    assert info.value.key == key


@pytest.mark.parametrize("text, problem", [
    ("players: [{name: Ann}]\nflor: []\n", "2:1: setup.flor: unknown field; did you mean 'floor'?"),
    ("players: [{name: Ann}]\nfight:\n  enemies: [{name: X, speed: 2, charge: false}]\n",
     "3:13: setup.fight.enemies.1: missing required field 'resilience'"),
    ("players: [{name: Ann}]\nfight:\n  enemies: [{name: X, resilience: 8, speed: 2, charge: false, armour: 3}]\n",
     "3:63: setup.fight.enemies.1.armour: unknown field"),
    ("players: [{name: Ann, hand: [the-sun, 3-of-spadez]}]\n",
     "1:39: setup.players.1.hand.2: no card with id '3-of-spadez'; did you mean '3-of-spades'?"),
])
def test_setups_are_read_through_the_card_types_fields(text, problem):
    node, _ = parse_yaml(text, "page.md")
    _, problems = read_plain(node, parousia.SETUP(GAME), "setup", GAME)
    assert [f"{p.loc.line}:{p.loc.col}: {p.message}" for p in problems] == [problem]


def test_the_checker_fails_a_wrong_claim(tmp_path):
    folder = tmp_path / "parousia"
    shutil.copytree(BUNDLED_GAMES / "parousia", folder)
    page = folder / "rulebook" / "arcana.md"
    page.write_text(page.read_text().replace("  coins: 2\n  floor: [temperance]", "  coins: 3\n  floor: [temperance]"))
    report = check_game(folder)
    failing = [e for e in report.examples if e.verdict == "failing"]
    assert [e.name for e in failing] == ["Temperance drops D20/5 coins"]
    assert "coins: expected 3, got 2" in failing[0].message
    assert failing[0].loc.file.endswith("arcana.md")


def test_every_bundled_example_verifies():
    report = check_game(BUNDLED_GAMES / "parousia")
    assert not report.problems.errors
    assert len(report.examples) >= 10
    assert [str(e) for e in report.examples if e.verdict != "verified"] == []


def test_consistency_catches_a_second_card(tmp_path):
    folder = tmp_path / "parousia"
    shutil.copytree(BUNDLED_GAMES / "parousia", folder)
    cards = folder / "playing-cards.yaml"
    cards.write_text(cards.read_text().replace("rank: \"3\", action: gain, pickup: red-heart",
                                               "rank: \"4\", action: gain, pickup: red-heart"))
    report = check_game(folder)
    assert any("a second 4 of hearts" in str(p) for p in report.problems.errors)


# -- random play: no crash, cards conserved, counters within their limits ----------------------


def _candidates(state, pick):
    """A handful of actions worth trying now; the rules may refuse some (RuleError)."""
    seen = parousia.observe(state)
    name = pick([p.name for p in state.players])
    acts = [{"random_pickup": 1}, "next_floor", "draw_room", "devil_roll"]
    acts += [{"take": key, "player": name} for key in seen["floor"]]
    acts += [{"buy": key, "player": name} for key in seen["for_sale"]]
    acts += [{"use": key, "player": name} for key in seen["floor"]]
    acts += [{"play": card, "player": name} for card in seen["players"][name]["hand"]]
    acts += [{"enter": room, "player": name} for room in seen["discovered"] + ["devil-room"]]
    acts += [{"deal": key, "player": name, "pay": {"heart-containers": price}} for key, price in seen["for_sale"].items()]
    if seen["in_fight"]:
        alive = [k for k, e in seen["fight"]["enemies"].items() if e["alive"]]
        acts += [{"shoot": pick(alive), "player": name}, {"skip": name, "player": name}]
        acts += [{"enemy": key} for key in alive]
        acts += [{"round": {p: [pick(alive)] for p in seen["players"]}}]
    return acts


def _check_invariants(state):
    held = list(state.piles["pickups"]) + list(state.used)
    held += [loot.card for loot in state.floor if loot.card in RULES.deck_cards]
    for p in state.players:
        held += p.hand
        assert 0 <= p.counters["hearts"] <= max(p.stat("heart-containers"), 0)
        for counter, value in p.counters.items():
            assert 0 <= value <= RULES.counter_cap, (counter, value)
        assert 0 <= p.soul_hearts <= RULES.counter_cap and 0 <= p.black_hearts <= RULES.counter_cap
    assert 0 <= state.coins <= RULES.counter_cap
    assert Counter(held) == Counter(RULES.pickup_deck)


@pytest.mark.parametrize("seed", range(40))
def test_random_play_keeps_the_invariants(seed):
    from deckwright.rules.engine.chance import SeededChance

    chance = SeededChance(seed)
    log = EventLog(Narrator(parousia.NARRATION, RULES))
    rooms = [{"name": f"R{i}", "enemies": [dict(ENEMY, name=f"E{i}", resilience=4 + i % 9, speed=i % 7,
                                                 **({"accuracy": i % 5} if i % 2 else {}))],
              "chaser": i % 3 == 0, **({"guarded": [{"pickup": "coin", "guard": "rocks"}]} if i % 4 == 0 else {})}
             for i in range(12)]
    rooms[3:3] = ["shop", "treasure-room", "arcade"]
    spec = {"players": [player("Ann", tears=2, hand=["joker"]), player("Ben", speed=2, **{"soul-hearts": 3})],
            "decks": {"rooms": rooms + ["boss-room"], "bosses": [dict(BOSS, speed=4, accuracy=2)],
                      "items": ["void", "whore-of-babylon"],
                      "devil-items": [{"name": "D1", "price": 1, "text": "t"}, {"name": "D2", "price": 1, "text": "t"}]},
            "discovered": ["boss-room"]}
    state = parousia.setup(RULES, spec, chance, log)
    applied = 0
    for _ in range(300):
        action = chance.pick(_candidates(state, chance.pick))
        try:
            state = parousia.apply(state, action, chance, log)
            applied += 1
        except RuleError:
            continue
        _check_invariants(state)
    assert applied > 50


def test_an_item_with_an_open_charge_does_not_block_the_end_of_a_fight():
    spec = {"players": [player(activated="void", **{"item-charge": 1})], "fight": {"enemies": [ENEMY]},
            "decks": {"pickups": ["3-of-spades"]}}
    _, seen, log = run(spec, [{"shoot": "enemy-a"}], [7])
    assert not seen["in_fight"] and seen["players"]["Ann"]["item-charge"] == 1
    assert any("no known charge" in line for line in log)


def test_a_new_activated_item_leaves_the_old_one_on_the_floor():
    spec = {"players": [player(activated={"name": "Old", "charge": 2, "text": "t"}, **{"item-charge": 2})],
            "floor": [{"item": {"name": "New", "charge": 4, "text": "t"}}]}
    state, seen, _ = run(spec, [{"take": "new"}])
    assert seen["floor"] == ["old"] and seen["players"]["Ann"]["items"] == ["new"]
    assert state.players[0].activated == "new" and seen["players"]["Ann"]["item-charge"] == 0
