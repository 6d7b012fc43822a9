"""Lengths and sizes: numbers are millimetres, strings may carry a unit, sizes are named or WIDTHxHEIGHT."""
import pytest

from deckwright.rules.data.units import CARD_SIZES, MM_PER, mm_to_pt, parse_length
from deckwright.rules.data.units import PAGE_SIZES as PAPER_SIZES
from deckwright.rules.load import parse_size


@pytest.mark.parametrize("value, mm", [
    (63.5, 63.5),
    (88, 88.0),
    ("63.5", 63.5),
    ("63.5mm", 63.5),
    ("  63.5 mm ", 63.5),
    ("6.35cm", 63.5),
    ("2.5in", 63.5),
    ("72pt", 25.4),
    ("3", 3.0),
    ("-2mm", -2.0),  # negative lengths are read; whoever needs a positive one says so (parse_size does)
])
def test_parse_length(value, mm):
    assert parse_length(value) == pytest.approx(mm)


@pytest.mark.parametrize("value", ["", "mm", "63,5mm", "2.5 inches", "1/8in", "63.5MM", "five", "1e3mm", None, True])
def test_parse_length_rejects(value):
    with pytest.raises(ValueError):
        parse_length(value)


def test_parse_length_message_names_the_value_and_the_form():
    with pytest.raises(ValueError, match=r'"five" is not a length \(use e.g. 63.5, 63.5mm or 2.5in\)'):
        parse_length("five")


def test_units_and_points():
    assert MM_PER["in"] == 25.4 and MM_PER["cm"] == 10 and MM_PER["pt"] == pytest.approx(25.4 / 72)
    assert mm_to_pt(25.4) == pytest.approx(72)
    assert mm_to_pt(63.5) == pytest.approx(180)  # a poker card is 2.5 in wide
    assert mm_to_pt(parse_length("1pt")) == pytest.approx(1)


@pytest.mark.parametrize("name, mm", [("poker", (63.5, 88.9)), ("bridge", (57.15, 88.9)), ("tarot", (70, 120)),
                                      ("mini", (41, 63)), ("mini-euro", (44, 67)), ("square", (70, 70))])
def test_named_card_sizes(name, mm):
    size = parse_size(name, CARD_SIZES)
    assert (size.name, size.width, size.height) == (name, *mm)


def test_named_sizes_ignore_case_and_spaces():
    assert parse_size(" Poker ", CARD_SIZES) == parse_size("poker", CARD_SIZES)
    assert parse_size("A4", PAPER_SIZES).width == 210 and parse_size("letter", PAPER_SIZES).height == 279.4


@pytest.mark.parametrize("text, mm", [
    ("63.5x88.9", (63.5, 88.9)),
    ("63.5mmx88.9mm", (63.5, 88.9)),
    ("63.5mm x 88.9mm", (63.5, 88.9)),
    ("2.5in x 3.5in", (63.5, 88.9)),
    ("2.5inX3.5in", (63.5, 88.9)),
    ("70\u00d7120", (70, 120)),  # the multiplication sign
    ("7cm x 70mm", (70, 70)),  # units may differ per side
])
def test_custom_sizes(text, mm):
    size = parse_size(text, CARD_SIZES)
    assert size.name == "custom"
    assert (size.width, size.height) == pytest.approx(mm)


@pytest.mark.parametrize("text, message", [
    ("huge", '"huge" is not a size; use one of poker, bridge, tarot, mini, mini-euro, square or WIDTHxHEIGHT such as '
             '63.5x88.9mm or 2.5x3.5in'),
    ("63.5", '"63.5" is not a size; use one of'),
    ("63.5x", '"63.5x" is not a size'),
    ("-63.5x88.9", '"-63.5x88.9" is not a size'),
    ("0x88.9", '"0x88.9" has a zero or negative side'),
    ("63.5furlongx2", '"63.5furlong" is not a length'),
    ("..x5", '".." is not a length'),
])
def test_bad_sizes(text, message):
    with pytest.raises(ValueError) as caught:
        parse_size(text, CARD_SIZES)
    assert str(caught.value).startswith(message)


def test_paper_size_message_lists_the_paper_names():
    with pytest.raises(ValueError, match="use one of a4, letter, a3, tabloid or WIDTHxHEIGHT"):
        parse_size("a5", PAPER_SIZES)


@pytest.mark.parametrize("text, mm", [
    ("2.5x3.5in", (63.5, 88.9)),  # one unit at the end is both sides' (it gave 2.5 mm x 88.9 mm)
    ("6.35x8.89cm", (63.5, 88.9)),
    ("63.5mmx88.9", (63.5, 88.9)),  # or at the start
    ("2.5 x 3.5 in", (63.5, 88.9)),
    ("2.5inx88.9mm", (63.5, 88.9)),  # a unit on each side is each side's
])
def test_a_unit_written_once_applies_to_both_sides(text, mm):
    size = parse_size(text, CARD_SIZES)
    assert (size.width, size.height) == pytest.approx(mm)


def test_a_size_without_a_unit_is_millimetres_but_a_card_under_10_mm_asks_for_the_unit():
    assert (parse_size("297x210", PAPER_SIZES).width, parse_size("63x88", CARD_SIZES).height) == (297, 88)
    with pytest.raises(ValueError) as caught:
        parse_size("2.5x3.5", CARD_SIZES)
    assert str(caught.value) == ('"2.5x3.5" without a unit is millimetres, 2.5 x 3.5 mm; write the unit: '
                                 '2.5x3.5in, 2.5x3.5cm or 2.5x3.5mm')
    assert parse_size("9mmx9mm", CARD_SIZES).width == 9  # a unit written says what is meant
