"""Where a worked example's panel breaks across pages in the printed rulebook."""
from __future__ import annotations

import pytest
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle

from deckwright.generator.outputs.rulebook.examples import PAD, ExamplePanel, Look, Row

LEADING = 10.0


def panel(sections: dict[str, int]) -> ExamplePanel:
    """A panel with ``sections`` (name -> how many one-line rows) in Helvetica."""
    style = ParagraphStyle("t", fontName="Helvetica", fontSize=8, leading=LEADING)
    look = Look("Helvetica", "Helvetica-Bold", 8.0, LEADING, 40.0, *([colors.black] * 6), style, style)
    rows = []
    for name, count in sections.items():
        rows.append(Row(True, (name,), ()))
        rows += [Row(False, (f"{name} {n}",), ("a value",)) for n in range(count)]
    return ExamplePanel(1, "An example", "VERIFIED", rows, "Verified.", look)


def split_at(example: ExamplePanel, height: float, page: float = 700.0) -> list[list[Row]]:
    """The rows of each part when ``height`` points are left on a page of ``page`` points."""
    example.wrap(400, page)
    example._frame = type("Frame", (), {"_height": page})()
    return [part.rows for part in example.split(400, height)]


def head_room(example: ExamplePanel, rows: int) -> float:
    """The height that holds the panel's title and exactly its first ``rows`` rows."""
    example.wrap(400, 700)
    return example._head_h + PAD + sum(example._heights[:rows]) + 0.1


def test_a_section_name_and_one_line_at_a_page_foot_move_to_the_next_page():
    example = panel({"SETUP": 3, "ACTIONS": 4, "CLAIMS": 3})
    assert split_at(example, head_room(example, 2)) == []  # SETUP and its first line alone: moved whole


def test_a_panel_that_fits_on_a_page_is_not_split_with_a_sliver_left_behind():
    example = panel({"SETUP": 3, "ACTIONS": 6, "CLAIMS": 6})
    assert split_at(example, head_room(example, 4)) == []  # 3 lines of 18 rows: under a third


@pytest.mark.parametrize("kept", [8, 13])
def test_a_panel_splits_between_rows_with_enough_on_both_sides(kept):
    example = panel({"SETUP": 3, "ACTIONS": 6, "CLAIMS": 6})
    first, rest = split_at(example, head_room(example, kept))
    assert len(first) == kept and len(first) + len(rest) == 18
    assert not first[-1].head  # a section's name never ends a page
    assert sum(not row.head for row in rest) >= 2


def test_a_section_name_that_would_end_a_page_goes_with_its_first_row():
    example = panel({"SETUP": 3, "ACTIONS": 6, "CLAIMS": 6})
    first, rest = split_at(example, head_room(example, 12))  # the 12th row is CLAIMS, the section's name
    assert len(first) == 11 and rest[0].key == ("CLAIMS",)


def test_a_panel_whose_rows_fit_a_page_but_not_its_verdict_splits_before_the_verdict():
    """Its rows fit on a whole page, its long verdict under them does not (an erratum's reason, on a half-letter
    page): the last rows go on to the next page with the verdict; it was refused whole, and the build died."""
    example = panel({"SETUP": 3, "ACTIONS": 10, "CLAIMS": 8})
    example.verdict = " ".join(["The engine finds another number for this claim."] * 40)
    example.wrap(400, 700)
    rows_only = example._head_h + PAD + sum(example._heights) + 1  # a page that holds every row, no verdict
    assert example.height > rows_only
    parts = split_at(example, rows_only, page=rows_only)
    assert len(parts) == 2 and len(parts[0]) + len(parts[1]) == 24 and not parts[1][0].head
    heights = [part.wrap(400, rows_only)[1] for part in example.split(400, rows_only)]
    assert heights[0] <= rows_only
