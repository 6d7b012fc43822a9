"""What laying out and painting many cards remembers (fitted texts, words, paths) never changes what is drawn."""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.memo import Memo
from deckwright.rules.load import load_game

GAMES = sorted(path.name for path in BUNDLED_GAMES.iterdir() if (path / "game.yaml").exists())


class _Forgetful:
    """A memo that remembers nothing: every text is set afresh."""

    def get(self, key):
        return None

    def put(self, key, result) -> None:
        pass


def test_memo_keeps_at_most_its_limit_and_the_results_in_use():
    memo = Memo(10)
    for number in range(100):
        memo.put(("once", number), number)
        memo.put("often", "kept")
        assert memo.get("often") == "kept"
    assert len(memo.new) + len(memo.old) <= 10
    assert memo.get(("once", 0)) is None  # long gone
    assert memo.get(("once", 99)) == 99


@pytest.mark.parametrize("game_name", GAMES)
def test_remembered_texts_draw_what_setting_them_afresh_draws(game_name):
    game = load_game(BUNDLED_GAMES / game_name)
    remembering, afresh = Faces(game), Faces(game)
    afresh.measurer._fitted = afresh.measurer._fixed = _Forgetful()
    cards = list(game.cards)
    for card in cards + cards[::-1]:  # the second time round every text is remembered
        kept, fresh = remembering.front(card, 3.0), afresh.front(card, 3.0)
        assert kept.items == fresh.items, card.id
        assert kept.fits == fresh.fits, card.id
    assert any(isinstance(item, dl.Text) for item in dl.walk(kept.items))


@pytest.mark.parametrize("text", ["Draw two cards.", "  two  spaces\n\nand a blank line ", "no\u00a0break here",
                                  "", "\n", "Ünïcödé wörds — and ‘quotes’"])
def test_plain_text_is_measured_as_parsing_it_measures_it(text):
    from deckwright.generator.layout.richtext import is_plain, parse

    faces = Faces(load_game(BUNDLED_GAMES / GAMES[0]))
    setter, face = faces.measurer.setter, faces.fonts.face("Open Sans", "regular")
    assert is_plain(text)
    assert setter.measure_plain(text, face) == setter.measure(parse(text), face)
    assert setter.measure_plain(text, face) != setter.measure(parse(text + " more"), face)


_SPACES = "  \u00a0\u2003\u3000\r\x1c\x85\u2028"  # the space, and whitespace that is not the space


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from("ab.\u00e9\n" + _SPACES) | st.characters(), max_size=30))
def test_a_line_of_plain_words_reads_as_its_words_split_at_spaces_and_stripped(text):
    from deckwright.generator.layout.richtext import is_plain, plain

    assume(is_plain(text))
    assert plain(text) == "\n".join(" ".join(w for w in (word.strip() for word in line.split(" ")) if w)
                                    for line in text.split("\n"))


def test_text_with_markup_is_not_plain():
    from deckwright.generator.layout.richtext import is_plain

    assert not any(is_plain(text) for text in ("**bold**", "*it*", ":icon:", "a\\*b", "a~b", "tab\there"))


TWO_DECKS = """title: Two decks
slug: two-decks
players: 1
summary: Made-up cards for a test.
card_types:
  unit:
    name: Unit
    fields:
      text: text
decks:
  red:
    name: Red deck
    size: poker
    color: "#aa0000"
    back: {title: Red}
  blue:
    name: Blue deck
    size: poker
    color: "#0000aa"
    back: {title: Blue}
"""
TWO_DECKS_LAYOUT = """vars:
  deck_title: "{{ deck.name }}"
boxes:
  band: {kind: rect, left: 3, right: 3, top: 3, height: 10, fill: deck}
  deck_name: {kind: text, text: "{{ deck_title }}", left: 5, right: 5, top: 3, height: 10}
  text: {kind: text, text: "{{ card.text }}", left: 5, right: 5, top: 20, bottom: 5}
"""


def test_boxes_without_card_values_are_drawn_for_each_deck_as_its_own(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "game.yaml").write_text(TWO_DECKS, encoding="utf-8")
    (tmp_path / "layouts" / "unit.yaml").write_text(TWO_DECKS_LAYOUT, encoding="utf-8")
    cards = ["type: unit", "cards:"]
    for number in range(6):
        cards += [f"  - id: card-{number}", f"    name: Card {number}", f"    deck: {('red', 'blue')[number % 2]}",
                  "    text: Same words."]
    (tmp_path / "cards.yaml").write_text("\n".join(cards) + "\n", encoding="utf-8")
    game = load_game(tmp_path)
    faces = Faces(game)
    for card in list(game.cards) * 2:
        display = faces.front(card, 3.0)
        deck = game.decks[card.deck]
        band = next(item for item in dl.walk(display.items) if isinstance(item, dl.Rect))
        assert dl.texts(display) == [deck.name, "Same words."]
        assert band.fill == deck.color
        assert [fit.box for fit in display.fits] == ["deck_name", "text"]


def test_a_cards_field_is_looked_up_as_the_sandbox_looks_it_up():
    from deckwright.generator.layout.faces import make_environment
    from deckwright.generator.layout.files import _path_getter
    from deckwright.generator.layout.viewmodel import CardView

    game = load_game(BUNDLED_GAMES / GAMES[0])
    env = make_environment(game)
    card = CardView("c", "unit", "d", "Attribute name", 1, 1,
                    {"kind": "Beast", "name": "Field name", "get": "Field get", "stats": {"attack": 3}})
    for path in (["kind"], ["name"], ["get"], ["fields"], ["stats", "attack"], ["count"]):
        expected = card
        for part in path:
            expected = env.getattr(expected, part)
        assert _path_getter(env, ["card", *path])({"card": card}) == expected, path
    assert _path_getter(env, ["card", "name"])({"card": card}) == "Attribute name"
    assert _path_getter(env, ["card", "kind"])({"card": card}) == "Beast"
    missing = _path_getter(env, ["card", "missing"])({"card": card})
    with pytest.raises(Exception, match="missing"):
        str(missing)


def test_vertical_metrics_are_reportlabs_without_parsing_the_font():
    from reportlab.pdfbase.ttfonts import TTFont

    from deckwright.generator.layout.fonts import FONT_DIR
    from deckwright.generator.layout.sfnt import vertical_metrics

    files = sorted(FONT_DIR.glob("*/*.ttf"))
    assert len(files) >= 10
    for path in files:
        ttf = TTFont("metrics-check", str(path))
        assert vertical_metrics(path.read_bytes()) == (ttf.face.ascent / 1000, -ttf.face.descent / 1000), path.name


def test_shipped_faces_are_parsed_only_when_a_game_measures_or_draws_with_them():
    from deckwright.generator.layout.fonts import FontBook

    book = FontBook()
    assert book._ttf == {}
    book.width("Vollkorn:bold", "Hunter")
    assert set(book._ttf) == {"Vollkorn:bold"}
    assert book.width("Vollkorn:bold", "Hunter") > 0


_COORDINATES = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.sampled_from([("M", 2), ("L", 2), ("C", 6), ("Z", 0), ("X", 4)]), st.lists(_COORDINATES, min_size=6,
       max_size=6), st.tuples(_COORDINATES, _COORDINATES, _COORDINATES, _COORDINATES))
@settings(max_examples=300, deadline=None)
def test_an_icon_command_is_placed_as_the_general_formula_places_it(shape, numbers, move):
    from deckwright.generator.layout.icons import _transform

    letter, count = shape
    command, (dx, dy, sx, sy) = (letter, *numbers[:count]), move
    general = command if letter == "Z" else (
        letter, *(dx + v * sx if i % 2 == 0 else dy + v * sy for i, v in enumerate(command[1:])))
    assert _transform(command, dx, dy, sx, sy) == general
