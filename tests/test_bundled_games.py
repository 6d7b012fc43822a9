"""Every bundled game loads cleanly and keeps the facts of its source."""
from deckwright.generator import BUNDLED_GAMES
from deckwright.rules.load import bundled_games, load_game


def test_every_bundled_game_loads():
    folders = bundled_games(BUNDLED_GAMES)
    assert folders, "no bundled games"
    for folder in folders:
        game = load_game(folder)
        assert game.slug == folder.name


def test_nightmare_hunt_facts():
    game = load_game(BUNDLED_GAMES / "nightmare-hunt")
    assert game.deck_total("actions") == 15
    assert {c.id for c in game.cards_in("actions")} == {"dodge", "parry", "slash", "slam", "swipe"}
    assert game.card("robes")["track"] == (1, 3, 5) and game.card("robes")["critical"] == 7
    assert game.card("plate")["slow"] == 4
    assert game.card("jack-the-black")["health"] == 21
    assert game.card("ayth-ender")["fast"] == 8
    assert [a["energy"] for a in game.card("rabid-dog")["abilities"]] == [2, 6, 8]
    subjects = {q.subject for q in game.open_questions}
    assert "wound.wound.copies" in subjects
