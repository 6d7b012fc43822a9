"""The simulator's card-fact log: the cards a rules module hands it directly (``log.drew``, ``log.played``) are the
ones its ``CARD_FACTS`` events name, and a module that only adds events (``log.add``) is counted the same way."""
from __future__ import annotations

from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.engine.log import NULL_LOG, EventLog
from deckwright.rules.engine.narration import Narrator
from deckwright.rules.engine.randomplay import play, random_choice
from deckwright.rules.games import nightmare_hunt as nh
from deckwright.rules.games.nightmare_hunt.strategies import heuristic_choice
from deckwright.rules.load import load_game
from deckwright.rules.sim.worker import CardFactLog

GAME = load_game(BUNDLED_GAMES / "nightmare-hunt")
RULES = nh.prepare(GAME)
CARDS = frozenset(card.id for card in GAME.cards)
GAMES = [(choose, seed, {"armor": armor, "level": level}) for choose in (heuristic_choice, random_choice)
         for seed in range(6) for armor in ("robes", "plate") for level in (1, 3)]


def test_log_flags_say_which_log_takes_card_facts_directly():
    assert CardFactLog(nh.CARD_FACTS, CARDS).card_facts is True
    assert EventLog().card_facts is False and NULL_LOG.card_facts is False


def test_cards_handed_directly_are_the_cards_the_events_name():
    direct, from_events = CardFactLog(nh.CARD_FACTS, CARDS), CardFactLog(nh.CARD_FACTS, CARDS)
    drawn_in_events = 0
    for choose, seed, options in GAMES:
        result = play(nh, RULES, seed, 5_000, options, choose=choose, log=direct, in_place=True)
        won = nh.outcome(result.state)[1]
        direct.game_over(won)
        log = EventLog(Narrator(nh.NARRATION, RULES))
        again = play(nh, RULES, seed, 5_000, options, choose=choose, log=log)
        assert again.actions == result.actions and not result.problems
        for kind, data in log.facts():  # the events through the old way: add(kind, **data)
            from_events.add(kind, **data)
            drawn_in_events += len(data["cards"]) if kind == "draw" else len(data["hand"]) if kind == "start" else 0
        from_events.game_over(won)
    figures = direct.figures()
    assert figures == from_events.figures()
    assert sum(drawn for drawn, _, _, _ in figures.values()) == drawn_in_events > 0
    assert "none" not in figures and set(figures) <= CARDS  # a reaction of none names no card
    played_in_games = sum(games for _, _, games, _ in figures.values())
    assert 0 < played_in_games <= sum(played for _, played, _, _ in figures.values())
    assert all(0 <= wins <= games for _, _, games, wins in figures.values())


def test_a_game_over_closes_each_game_on_its_own():
    log = CardFactLog(nh.CARD_FACTS, CARDS)
    card = sorted(RULES.action_deck)[0]
    log.played(card)
    log.played(card)
    log.played("none")
    log.game_over(True)
    log.add("action", action=card, discard=None)  # the old way counts the same
    log.game_over(False)
    log.game_over(True)  # a game in which nothing was played
    assert log.figures() == {card: [0, 3, 2, 1]}
