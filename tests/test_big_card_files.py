"""Big card files (issue 21): up to 64 MB, still guarded, every problem at its exact place.

The plain YAML of a big file is read straight from libyaml's events (rules.data.yamlfast); whatever it
reads must give the very tree, locations included, that the full reader gives.
"""
from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from fuzz.properties import yaml_texts
from hypothesis import HealthCheck, given, settings

from deckwright.rules.data import yamlsrc
from deckwright.rules.data.yamlfast import Unusual, read_plain
from deckwright.rules.load import load_game_with_warnings

GAME = """title: Big
slug: big
players: 1-4
summary: Made-up cards in one big file.
card_types:
  unit:
    name: Unit
    fields:
      attack: {type: int, min: 0}
      text: text
decks:
  units:
    name: Units
    size: poker
    back: {title: Big}
"""
TEXT = "Draws a card, then discards one; made-up words to give each card some length. " * 2


def yaml_cards(count: int, bad_row: int | None = None) -> str:
    """``count`` cards of 5 lines each after a 3-line header: card i starts at line 4 + 5 * i."""
    lines = ["type: unit", "deck: units", "cards:"]
    for i in range(count):
        attack = "lots" if i == bad_row else str(i % 9)
        lines += [f"  - id: card-{i}", f"    name: Card {i}", f"    attack: {attack}", f"    text: {TEXT}", ""]
    return "\n".join(lines) + "\n"


def csv_cards(count: int, bad_row: int | None = None) -> str:
    rows = ["id,name,attack,text"]
    rows += [f'card-{i},Card {i},{"lots" if i == bad_row else i % 9},"{TEXT}"' for i in range(count)]
    return "\n".join(rows) + "\n"


def game(tmp_path: Path, yaml_text: str | None = None, csv_text: str | None = None) -> Path:
    folder = tmp_path / "big"
    folder.mkdir()
    declared = "spreadsheets:\n  - {file: cards.csv, type: unit, deck: units}\n" if csv_text is not None else ""
    (folder / "game.yaml").write_text(GAME + declared, encoding="utf-8")
    if yaml_text is not None:
        (folder / "cards.yaml").write_text(yaml_text, encoding="utf-8")
    if csv_text is not None:
        (folder / "cards.csv").write_text(csv_text, encoding="utf-8")
    return folder


def errors(folder: Path) -> list[str]:
    _, problems = load_game_with_warnings(folder)
    return [str(problem).split("big/", 1)[1] for problem in problems.errors]


def test_a_card_file_over_1_mb_loads(tmp_path):
    text = yaml_cards(8_000)
    assert len(text.encode()) > 2**20
    loaded, problems = load_game_with_warnings(game(tmp_path, yaml_text=text))
    assert problems.errors == []
    assert len(loaded.cards) == 8_000
    last = loaded.cards[-1]
    assert (last.id, last["attack"], last.loc.line) == ("card-7999", 7999 % 9, 4 + 5 * 7999)


def test_a_csv_file_over_1_mb_loads(tmp_path):
    text = csv_cards(8_000)
    assert len(text.encode()) > 2**20
    loaded, problems = load_game_with_warnings(game(tmp_path, csv_text=text))
    assert problems.errors == []
    assert [card.id for card in loaded.cards[-2:]] == ["card-7998", "card-7999"]


def test_row_15000s_error_is_at_its_line(tmp_path):
    """Card 15,000 (from 1) of a YAML file, and row 15,000 of a CSV file after its header."""
    assert errors(game(tmp_path, yaml_text=yaml_cards(20_000, bad_row=14_999))) == [
        f"cards.yaml:{4 + 5 * 14_999 + 2}:13: unit.card-14999.attack: expected a whole number >= 0, got \"lots\""]
    other = tmp_path / "csv"
    other.mkdir()
    assert errors(game(other, csv_text=csv_cards(20_000, bad_row=14_999))) == [
        "cards.csv:15001:attack: unit.card-14999.attack: expected a whole number >= 0, got \"lots\""]


@pytest.mark.parametrize("name", ["cards.yaml", "cards.csv"])
def test_a_file_over_64_mb_is_refused_in_one_line(tmp_path, name):
    folder = game(tmp_path, csv_text="id,name,attack,text\n" if name.endswith(".csv") else None)
    with open(folder / name, "wb") as handle:  # sparse: the size is refused before anything is read
        handle.write(b"type: unit\ncards:\n" if name.endswith(".yaml") else b"id,name,attack,text\n")
        handle.truncate(64 * 2**20 + 1)
    assert errors(folder) == [f"{name}:1:1: file is 64.0 MB; deckwright reads files of at most 64 MB"]


def test_an_alias_bomb_in_a_big_file_is_refused(tmp_path):
    bomb = ["lol0: &l0 [a, a, a, a, a, a, a, a, a, a]"]
    bomb += [f"lol{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 9)]
    text = yaml_cards(10_000) + "\n".join(bomb) + "\n"
    bomb_line = text.count("\n") - len(bomb) + 1
    found = errors(game(tmp_path, yaml_text=text))
    assert len(found) == 1
    assert found[0].startswith("cards.yaml:")
    assert "aliases expand to more than 200,000 values (an alias bomb?)" in found[0]
    assert int(found[0].split(":")[1]) >= bomb_line


def test_deep_nesting_in_a_big_file_is_refused_at_its_line(tmp_path):
    text = yaml_cards(10_000) + "deep: " + "[" * 70 + "]" * 70 + "\n"
    line = text.count("\n")
    assert errors(game(tmp_path, yaml_text=text)) == [
        f"cards.yaml:{line}:{6 + 64}: values nested more than 64 levels deep; a deckwright file needs only a few"]


def test_too_many_values_are_refused_at_the_first_one_over(tmp_path):
    with mock.patch("deckwright.rules.data.yamlfast.MAX_VALUES", 1000), \
            mock.patch("deckwright.rules.data.yamlsrc.MAX_VALUES", 1000):
        found = errors(game(tmp_path, yaml_text=yaml_cards(200)))
    # the root mapping, 3 keys, 2 values and the list are 7 values, then 9 a card (the mapping, 4 keys, 4 values):
    # the 1,001st is the key `name` of card 110, on line 4 + 5 * 110 + 1
    assert found == [("cards.yaml:555:5: the file holds more than 1,000 values (keys counted); deckwright reads at "
                      "most that many from one file: split the cards into several files")]


def _full_read(text: str):
    with mock.patch.object(yamlsrc, "read_plain", side_effect=Unusual()):
        return yamlsrc._parse(text, "f.yaml")


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_texts)
def test_the_fast_reader_gives_the_full_readers_tree(text):
    try:
        fast = read_plain(text, "f.yaml")
    except Unusual:
        return
    assert fast == _full_read(text)


@pytest.mark.parametrize("text", [
    "a: é, then b\nb: [x, \"ü\", 3]\n",
    "\ufeffkey: 🂡 card\nnext: {deep: {er: [1, 2.5, yes, ~, 2024-01-02]}}\n",
    "a: 1\r\nb:\r\n  - x\r\n  - 'y'\r\n",
    "text: |\n  two\n  lines\nafter: >\n  folded\n  text\n",
    "0x1f: hex\n1: one\nnull: x\n",
    "\tnot: yaml\n",
])
def test_locations_agree_with_the_full_reader(text):
    try:
        fast = read_plain(text.removeprefix("\ufeff"), "f.yaml")
    except Unusual:
        fast = None
    full = _full_read(text.removeprefix("\ufeff"))
    assert fast is None or fast == full
    if fast is not None:
        assert fast[0] is not None


def test_misspelt_references_among_20000_cards_each_get_a_suggestion_as_close_as_difflibs():
    """A did-you-mean over 20,000 ids compares a word with a shortlist only (difflib over all of them takes 0.4 s
    a word: a spreadsheet column of misspelt references took hours), and answers each misspelling once. Where the
    word keeps a part of an id few others have (its number), what it suggests is as close, by difflib's own ratio,
    as the best of all the ids (of equally close ones, it may name another)."""
    import difflib
    from types import SimpleNamespace

    from deckwright.rules.data.schema import Ref, check_refs
    from deckwright.rules.problems import Loc, Problems, Suggestions, closest

    cards = {f"card-{i}": SimpleNamespace(type="unit" if i % 2 else "item") for i in range(20_000)}
    wrong = [f"crad-{i * 74 + 1}" for i in range(40)] + ["card-77x", "zzz-nothing-like"]
    refs = [Ref(word, ("unit",), f"cards[{row}].ally", Loc("cards.csv", row + 2)) for row, word in enumerate(wrong * 3)]
    problems = Problems()
    check_refs(refs, cards, problems)
    units = [card_id for card_id, card in cards.items() if card.type == "unit"]

    def ratio(word: str, other: str) -> float:
        return difflib.SequenceMatcher(None, other, word).ratio()

    lines = [str(problem) for problem in problems.items]
    assert len(lines) == len(refs) and lines[:len(wrong)] != []
    for row, (word, line) in enumerate(zip(wrong * 3, lines)):
        assert line.startswith(f"cards.csv:{row + 2}:1: cards[{row}].ally: no card with id '{word}'")
        best = closest(word, units)
        if best is None:
            assert "did you mean" not in line
            continue
        suggested = line.split("did you mean '")[1].rstrip("'?")
        assert suggested in units and ratio(word, suggested) == ratio(word, best)
    assert lines[len(wrong):] == [line.replace(f":{row + 2}:", f":{row + 2 + len(wrong)}:").replace(
        f"cards[{row}]", f"cards[{row + len(wrong)}]") for row, line in enumerate(lines[:2 * len(wrong)])]
    assert len(Suggestions(units)._shortlist("crad-37")) == Suggestions.SHORTLIST
    small = Suggestions(["swipe", "slash", "bite"])
    assert small._shortlist("swpie") == ["swipe", "slash", "bite"] and small.closest("swpie") == "swipe"
