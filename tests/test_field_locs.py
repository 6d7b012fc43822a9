"""A card's field locations, held compactly (rules.data.fieldlocs), read as the dict of Locs they stand for."""
from __future__ import annotations

from pathlib import Path

import pytest

from deckwright.rules.data.fieldlocs import FieldLocs, FieldLocsMaker
from deckwright.rules.load import load_game
from deckwright.rules.problems import Loc


def test_locations_in_one_file_read_as_the_locs_they_stand_for():
    make = FieldLocsMaker()
    written = [("name", Loc("cards.yaml", 12, 5)), ("health", Loc("cards.yaml", 13, 13)),
               ("text", Loc("cards.yaml", 70000, 11))]
    locs = make(written)
    assert isinstance(locs, FieldLocs)
    assert locs == dict(written) and dict(locs) == dict(written)
    assert locs["health"] == Loc("cards.yaml", 13, 13) and str(locs["text"]) == "cards.yaml:70000:11"
    assert locs.get("attack", Loc("cards.yaml", 11, 3)) == Loc("cards.yaml", 11, 3)
    assert list(locs) == ["name", "health", "text"] and len(locs) == 3
    with pytest.raises(KeyError):
        locs["attack"]
    again = make([("name", Loc("cards.yaml", 20, 5)), ("health", Loc("cards.yaml", 21, 13)),
                  ("text", Loc("cards.yaml", 22, 11))])
    assert again._names is locs._names  # one tuple of names for every card listing the same fields


def test_spreadsheet_cells_and_mixed_files_stay_a_dict_of_locs():
    make = FieldLocsMaker()
    cells = [("power", Loc("monsters.csv", 3, 2, "3:power"))]
    assert make(cells) == {"power": Loc("monsters.csv", 3, 2, "3:power")} and type(make(cells)) is dict
    mixed = [("a", Loc("a.yaml", 1, 1)), ("b", Loc("b.yaml", 1, 1))]
    assert type(make(mixed)) is dict
    assert make([]) == {}


def test_a_loaded_card_names_where_each_field_is_written(tmp_path: Path):
    (tmp_path / "game.yaml").write_text("title: T\nslug: t\nplayers: 1\nsummary: s\ncard_types:\n  unit:\n"
                                        "    name: Unit\n    fields:\n      power: {type: int}\n"
                                        "decks:\n  d: {name: D, size: poker, back: {title: T}}\n", encoding="utf-8")
    (tmp_path / "units.yaml").write_text("type: unit\ndeck: d\ncards:\n  - id: a\n    name: A\n    power: 3\n"
                                         "  - {id: b, name: B, power: 4}\n", encoding="utf-8")
    first, second = load_game(tmp_path).cards
    assert first.field_locs["power"].line == 6 and first.field_locs["power"].col == 12
    assert first.field_locs["id"].position == "4:9" and first.field_locs["power"].file.endswith("units.yaml")
    assert second.field_locs["power"].position == "7:29"
