"""Exact odds: every bundled game's ``odds(rules)`` table against an oracle written here.

Each oracle enumerates outcomes by brute force (``itertools.product`` over dice faces, combinations of
the deck's cards) from the card data and constants as loaded, not from the rules module's prepared
tables, and compares every cell exactly (Fractions).
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product
from math import comb, floor, prod

import pytest

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.engine.dice import parse_dice
from deckwright.rules.engine.odds import Distribution, OddsTable, Row, hands, percent_text, plain_table
from deckwright.rules.engine.openvalues import Open
from deckwright.rules.games import rules_module
from deckwright.rules.load import load_game


def _load(slug):
    game = load_game(BUNDLED_GAMES / slug)
    module = rules_module(game)
    return game, module.odds(module.prepare(game))


def faces_of(sides: list[int]):
    return product(*(range(1, s + 1) for s in sides))


def chance_of(outcomes, predicate) -> Fraction:
    outcomes = list(outcomes)
    return Fraction(sum(1 for o in outcomes if predicate(o)), len(outcomes))


# -- the engine's distribution type ------------------------------------------------------


def test_hands_match_every_combination_of_a_small_deck():
    deck = ["a", "a", "a", "b", "b", "c"]
    values = {"a": 1, "b": 2, "c": 5}
    got = hands(Counter(deck), 3, lambda total, kind, k: total + values[kind] * k, 0)
    draws = list(combinations(range(len(deck)), 3))
    for total in range(0, 12):
        assert got[total] == chance_of(draws, lambda d: sum(values[deck[i]] for i in d) == total)
    with pytest.raises(ValueError):
        hands(Counter(deck), 7, lambda *a: 0, 0)


def test_distribution_combines_maps_and_sums_to_one():
    d6 = Distribution.of_dice(parse_dice("D6"))
    two = d6.combine(d6, lambda a, b: a + b)
    assert two[7] == Fraction(1, 6) and sum(p for _, p in two.chances) == 1
    assert two.map(lambda t: t >= 10)[True] == Fraction(1, 6)
    assert Distribution.uniform("aab")["a"] == Fraction(2, 3)


@pytest.mark.parametrize("p, text", [(Fraction(0), "0%"), (Fraction(1), "100%"), (Fraction(1, 2), "50%"),
                                     (Fraction(1, 3), "33.3%"), (Fraction(1, 2400), "<0.1%"),
                                     (Fraction(2399, 2400), ">99.9%"), (Fraction(2, 3), "66.7%")])
def test_percent_text_never_rounds_to_a_certainty(p, text):
    assert percent_text(p) == text


def test_a_table_rejects_a_row_of_the_wrong_width_and_plain_tables_carry_exact_values():
    with pytest.raises(ValueError):
        OddsTable("c", "x", ("a", "b"), (Row("r", (Fraction(1, 2),)),))
    table = OddsTable("c", "x", ("a", "b"), (Row("r", (Fraction(1, 3), Open("not given"))),))
    cells = plain_table(table)["rows"][0]["cells"]
    assert cells[0] == {"text": "33.3%", "open": "", "chance": 1 / 3, "ways": 1, "outcomes": 3}
    assert cells[1] == {"text": "open", "open": "not given"}


# -- Micah's Game ------------------------------------------------------------------------


def test_micahs_game_die_steps_against_every_encounter_number():
    game, tables = _load("micahs-game")
    table = tables["Die steps against the encounters"]
    # The ladder as the source states it: D4 to D20, then a D4 beside the D20, ... up to the constant's D20+D20+D6.
    assert table.columns == ("D4", "D6", "D8", "D10", "D12", "D20", "D20+D4", "D20+D6", "D20+D8", "D20+D10",
                             "D20+D12", "D20+D20", "D20+D20+D4", "D20+D20+D6")
    pools = [[int(die.lstrip("D")) for die in column.split("+")] for column in table.columns]
    targets = {"attack": "defense", "charm": "charm", "escape": "escape"}
    checked = 0
    for creature in game.cards_in("encounters"):
        for intention, field in targets.items():
            row = next(r for r in table.rows if r.label.startswith(f"{creature.name}: {intention} "))
            target = creature.get(field)
            if isinstance(target, Open):
                assert row.cells == tuple(target for _ in pools)  # the row says it is open, nothing invented
                continue
            rolled = target.dice  # a number the creature rolls: its dice rolled against the player's
            for pool, cell in zip(pools, row.cells):
                expected = chance_of(faces_of(pool + rolled),
                                     lambda f: sum(f[:len(pool)]) >= sum(f[len(pool):]) + target.constant)
                assert cell == expected, (row.label, pool)
                checked += 1
    assert checked == 3 * 14  # the Goose's charm, the Goblin King's escape, the Yeti's defense


def test_a_largest_pool_off_the_ladder_is_reported_at_its_line(tmp_path):
    import shutil

    from deckwright.rules.ci.check import check_game

    folder = tmp_path / "micahs-game"
    shutil.copytree(BUNDLED_GAMES / "micahs-game", folder)
    path = folder / "game.yaml"
    text = path.read_text()
    line = text.splitlines().index(next(l for l in text.splitlines() if l.startswith("  largest_pool:"))) + 1
    path.write_text(text.replace("largest_pool: D20+D20+D6", "largest_pool: D20+D8+D6"))
    errors = [str(p) for p in check_game(folder).problems.errors]
    assert any(f"game.yaml:{line}:" in e and "largest_pool: D20+D8+D6 is not on the die-step ladder" in e
               for e in errors), errors


def test_a_creature_number_that_is_rolled_is_rolled_against_the_player():
    from deckwright.rules.games.micahs_game.odds import meets

    expected = chance_of(product(range(1, 7), range(1, 5)), lambda f: f[0] >= f[1] + 2)  # D6 against D4+2
    assert meets((6,), parse_dice("D4+2")) == expected


# -- Gloombah! ----------------------------------------------------------------------------


def test_gloombah_running_away_and_fights():
    game, tables = _load("gloombah")
    c = game.constants
    sides = c["run_roll"].dice
    run = tables["Running away"]
    levels = range(c["start_level"], c["win_level"])
    assert [r.label for r in run.rows] == [str(level) for level in levels]
    for level in levels:
        expected = Fraction(1) if level < c["auto_run_below_level"] else \
            chance_of(faces_of(sides), lambda f: sum(f) >= level)
        assert run.cell(str(level), "gets away") == expected
    fights, then = tables["Fights, no weapon"], tables["Run, then fight, no weapon"]
    for level in levels:
        for column in fights.columns:
            monster = int(column)
            won = fights.cell(str(level), column)
            if level == monster:
                assert isinstance(won, Open) and "equal attack points" in won.note  # the tie: the source's open question
            else:
                assert won == (1 if level > monster else 0)
            away = run.cell(str(level), "gets away")
            after = then.cell(str(level), column)
            assert after == (away if isinstance(won, Open) and away == 1 else won if isinstance(won, Open)
                             else away + (1 - away) * won)
    assert fights.columns[-1] == str(c["win_level"])  # one past the most a bare-handed level 11 reaches


# -- Parousia -----------------------------------------------------------------------------


def test_parousia_every_x_in_d20_effect():
    game, tables = _load("parousia")
    die = game.constants["die_sides"]
    table = tables["Chances on the cards"]
    expected = {}
    for card in [*game.cards_of("tarot"), *game.cards_of("machine")]:
        lines = card.get("chance") or []
        for roll in range(1, die + 1):
            result = next((line["result"] for line in lines if roll <= line["up_to"]), "nothing")
            if lines:
                expected[f"{card.name}: {result}"] = expected.get(f"{card.name}: {result}", 0) + Fraction(1, die)
    got = {row.label: row.cells[1] for row in table.rows}
    assert got == expected
    assert got["The Moon: item"] == Fraction(2, 20) and got["Beggar: pickup"] == Fraction(2, 20)


def test_parousia_rolled_amounts_shots_and_devil_die():
    game, tables = _load("parousia")
    die, cap = game.constants["die_sides"], game.constants["counter_cap"]
    amounts = tables["Rolled amounts"]
    tower = next(r for r in amounts.rows if r.label.startswith("The Tower"))
    for column, cell in zip(amounts.columns, tower.cells):
        assert cell == chance_of(range(1, die + 1), lambda roll: floor(Fraction(roll, 2)) == int(column))
    shots = tables["Shots"]
    for row in shots.rows:
        gap = int(row.label.split()[-1])
        assert row.cells[0] == chance_of(range(1, die + 1), lambda roll: 0 + roll > gap)  # accuracy + D20 > speed
        assert row.cells[1] == chance_of(range(1, die + 1), lambda roll: roll + 0 >= gap)  # D20 + damage >= resilience
    devil = tables["The devil die"]
    assert [r.label for r in devil.rows] == [str(n) for n in range(cap + 1)]
    for row in devil.rows:
        assert row.cells[0] == chance_of(range(1, die + 1), lambda roll: roll >= int(row.label))


# -- RT:0 combat --------------------------------------------------------------------------


def test_rt0_tarot_values_and_five_card_hands():
    game, tables = _load("rt0-combat")
    deck = [game.card(card_id)["value"] for card_id in game.deck_cards("tarot")]
    assert len(deck) == 78
    values = tables["Tarot values"]
    for row in values.rows:
        v = int(row.label)
        assert row.cells == (deck.count(v), Fraction(deck.count(v), 78), Fraction(sum(x >= v for x in deck), 78))
    # Brute force over every multiset of 5 values, each weighed by the ways to pick those cards.
    size = game.constants["hand_size"]
    counts = Counter(deck)
    ways = Counter()
    for picked in combinations_with_replacement(sorted(counts), size):
        ways[sum(picked)] += prod(comb(counts[v], k) for v, k in Counter(picked).items())
    total = comb(len(deck), size)
    assert sum(ways.values()) == total
    table = tables[f"A hand of {size} against each shield total"]
    top = max(s for s, w in ways.items() if w)
    for row in table.rows:
        start = int(row.label.split("\u2013")[0])
        for unit, cell in enumerate(row.cells):
            n = start + unit
            if n > top:
                assert cell == "\u2014"
            else:
                assert cell == Fraction(sum(w for s, w in ways.items() if s >= n), total), n


# -- Nightmare Hunt -----------------------------------------------------------------------


def test_nightmare_hunt_wounds_and_the_chance_an_attack_wounds():
    game, tables = _load("nightmare-hunt")
    armours = {card.name: card for card in game.cards_of("armor")}
    bonus = {c.name.lower(): c["track_bonus"] for c in game.cards_of("condition") if c.get("track_bonus")}
    deck = [card.id for card in game.cards_of("action") if card.deck == "actions" for _ in range(card.count)]
    mind = game.constants["mind"]
    dodges = {card.id for card in game.cards_of("action") if card.get("cancels") == "any" and card.deck == "actions"}
    hands_drawn = list(combinations(range(len(deck)), mind))
    lands = chance_of(hands_drawn, lambda hand: not any(deck[i] in dodges for i in hand))
    assert lands == Fraction(comb(12, 4), comb(15, 4))
    wounds, chance = tables["Wounds through each armour"], tables["The chance an attack wounds"]
    for row in wounds.rows:
        power = int(row.label.split()[-1])
        for column in chance.columns:
            name, _, condition = column.partition(", ")
            armour = armours[name]
            track = list(armour["track"]) + ([bonus[condition]] if condition else [])
            count = sum(power >= v for v in track)
            critical = power >= armour["critical"]
            expected = f"{count + 1} to hand" if critical else count
            assert wounds.cell(row.label, column) == expected, (power, column)
            assert chance.cell(row.label, column) == (lands if count or critical else 0)
    prey_powers = {step["power"] for card in game.cards if card.type in ("prey", "boss")
                   for ability in card["abilities"] for step in ability["steps"] if "power" in step}
    assert [int(r.label.split()[-1]) for r in wounds.rows] == sorted(prey_powers)


# -- the conformance suite --------------------------------------------------------------------


def test_conformance_holds_odds_to_exact_chances():
    from deckwright.rules.ci.conformance import odds_problems

    game = load_game(BUNDLED_GAMES / "nightmare-hunt")
    module = rules_module(game)
    rules = module.prepare(game)
    assert odds_problems(module, rules) == []

    class Sampled:
        @staticmethod
        def odds(rules):
            return {"guessed": OddsTable("c", "x", ("a",), (Row("r", (0.36,)),)), "too likely":
                    OddsTable("c", "x", ("a",), (Row("r", (Fraction(3, 2),)),)), "loose": {"r": 1}}

    problems = odds_problems(Sampled, rules)
    assert len(problems) == 3 and "0.36 is not an exact chance" in problems[0] and "Fraction(3, 2)" in problems[1]
    assert "not an OddsTable" in problems[2]
