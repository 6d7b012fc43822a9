"""``deckwright check`` split across the workers (generator.check.run): a game that is more than a core's share of
the work is checked in parts, its data, examples and rules module in one, its faces in shares, and what the parts
find, put together, is what checking it whole finds, line for line; the layout problems of the shares of a game's
faces are the problems of all of them."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES, TEMPLATES
from deckwright.generator.check import run
from deckwright.generator.check.run import CheckOptions, Part, PartOutput
from deckwright.generator.layout.fitcheck import layout_warnings
from deckwright.rules.load import load_game

OPTIONS = CheckOptions(cache=False)


@pytest.fixture(scope="module")
def misfit(tmp_path_factory) -> Path:
    """Gloombah with its card layout's titles too small to read (warnings) and its rules text too big to fit
    (errors), on every card."""
    folder = tmp_path_factory.mktemp("games") / "misfit"
    shutil.copytree(BUNDLED_GAMES / "gloombah", folder)
    shutil.copytree(TEMPLATES / "layouts" / "gloombah", folder / "layouts")
    layout = folder / "layouts" / "gb-card.yaml"
    text = layout.read_text(encoding="utf-8")
    for old, new in (("title: {font: Vollkorn, font_style: black, size: 13, min_size: 7,",
                      "title: {font: Vollkorn, font_style: black, size: 5, min_size: 4,"),
                     ("body: {font: Open Sans, size: 8.4, min_size: 6,",
                      "body: {font: Open Sans, size: 30, min_size: 30,")):
        assert old in text
        text = text.replace(old, new)
    layout.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Path:
    """Gloombah with a card of an unknown field: an error, so its faces are not laid out."""
    folder = tmp_path_factory.mktemp("games") / "broken"
    shutil.copytree(BUNDLED_GAMES / "gloombah", folder)
    gear = folder / "gear.yaml"
    gear.write_text(gear.read_text(encoding="utf-8").replace("  - id:", "  - bogus: 1\n    id:", 1), encoding="utf-8")
    return folder


BIG = run.SPLIT_BYTES  # card files and pages big enough to split a game


def split(folder: Path, shares: int) -> list[Part]:
    return run.plan([folder], [BIG], shares)


def checked_in_parts(folders: list[Path], parts: list[Part], options: CheckOptions = OPTIONS):
    """What the workers would send back, each part checked here, and the games' outputs made from it."""
    return run.joined_parts(folders, parts, [run.check_part(part, options) for part in parts], options)


def test_a_big_game_alone_is_split_into_its_rules_and_shares_of_its_faces():
    game = Path("game")
    assert run.plan([game], [BIG], 2) == [Part(game, faces=None), Part(game, rules=False, faces=(0, 2)),
                                          Part(game, rules=False, faces=(1, 2))]
    assert run.plan([game], [BIG], 1) == [Part(game)]  # one core: checked whole
    assert run.plan([game], [BIG - 1], 2) == [Part(game)]  # a smaller game is checked faster whole


def test_games_of_similar_sizes_are_checked_whole_the_largest_first():
    small, middle, large = Path("small"), Path("middle"), Path("large")
    assert run.plan([small, large, middle], [3 * BIG, 5 * BIG, 4 * BIG], 2) == [Part(large), Part(middle),
                                                                                   Part(small)]


def test_a_game_bigger_than_a_cores_share_is_split_beside_the_others():
    big, small = Path("big"), Path("small")
    parts = run.plan([small, big], [BIG // 10, BIG], 2)
    assert parts == [Part(big, faces=None), Part(big, rules=False, faces=(0, 2)),
                     Part(big, rules=False, faces=(1, 2)), Part(small)]


@pytest.mark.parametrize("shares", [2, 3])
def test_the_shares_of_a_games_faces_find_its_layout_problems(misfit, shares):
    game = load_game(misfit)
    whole = layout_warnings(game)
    found = [layout_warnings(game, share=(k, shares)) for k in range(shares)]
    assert {p.severity for p in whole} == {"error", "warning"}
    assert all(found) and all(share != whole for share in found)  # each share finds some, none finds all
    assert sorted(set().union(*found)) == whole


@pytest.mark.parametrize("name", ["misfit", "broken", "nightmare-hunt"])
@pytest.mark.parametrize("options", [OPTIONS, CheckOptions(cache=False, traceback=True),
                                     CheckOptions(cache=False, run_code=False)])
def test_a_game_checked_in_parts_prints_what_it_prints_checked_whole(name, options, request):
    folder = BUNDLED_GAMES / name if name == "nightmare-hunt" else request.getfixturevalue(name)
    whole = run.check_one(folder, options)
    [in_parts] = checked_in_parts([folder], split(folder, 2), options)
    assert in_parts == whole
    texts = [line.text for line in whole.lines]
    assert whole.failed == (name != "nightmare-hunt")
    if name == "misfit":
        assert sum("does not fit" in text for text in texts) > 5
        assert any(text.startswith("gloombah: 12 cards in 3 decks: invalid: ") for text in texts)
    elif name == "broken":
        assert texts[-1] == "broken: 1 error(s)"
    else:
        assert "nightmare-hunt: " in texts[0] and texts[0].endswith(": valid")


def test_games_split_and_whole_side_by_side_print_what_they_print_alone(misfit, broken):
    folders = [misfit, BUNDLED_GAMES / "micahs-game", broken]
    parts = run.plan(folders, [BIG, 10, 10], 2)
    assert Part(misfit, rules=False, faces=(1, 2)) in parts and Part(broken) in parts
    assert checked_in_parts(folders, parts) == [run.check_one(folder, OPTIONS) for folder in folders]


def test_a_game_whose_share_was_not_laid_out_is_checked_again_whole(misfit, monkeypatch):
    """A share whose load found an error its report's did not (a file changed between the two): the game is
    checked again, whole, rather than printed without that share's problems."""
    parts = split(misfit, 2)
    outputs = [run.check_part(part, OPTIONS) for part in parts]
    outputs[1] = PartOutput(None, None)
    wholes = []
    check_part = run.check_part

    def counted(part, options):
        wholes.append(part)
        return check_part(part, options)

    monkeypatch.setattr(run, "check_part", counted)
    assert run.joined_parts([misfit], parts, outputs, OPTIONS) == [run.check_one(misfit, OPTIONS)]
    assert wholes == [Part(misfit), Part(misfit)]  # once again in joined_parts, once by check_one above


def test_a_split_game_checked_by_the_workers_prints_what_it_prints_whole(misfit, monkeypatch):
    """The real thing: the parts sent to worker processes (where the machine has cores for them) and back."""
    monkeypatch.setattr(run, "SPLIT_BYTES", 0)  # misfit, alone, is split
    assert len(run.plan([misfit], [run._size(misfit)], 2)) == 3
    assert run.check_games([misfit], OPTIONS) == [run.check_one(misfit, OPTIONS)]


def test_a_layout_typo_is_one_line_however_many_cards_and_shares_it_fails_on(tmp_path):
    """A misspelt field in a card layout fails on every card it fills: one line, at the layout's line, naming the
    first card and counting the others, whether the game's faces are laid out whole or in shares."""
    folder = tmp_path / "typo"
    shutil.copytree(BUNDLED_GAMES / "gloombah", folder)
    shutil.copytree(TEMPLATES / "layouts" / "gloombah", folder / "layouts")
    layout = folder / "layouts" / "gb-card.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("else card.name }}", "else card.nmae }}"),
                      encoding="utf-8")
    whole = run.check_one(folder, OPTIONS)
    [in_parts] = checked_in_parts([folder], split(folder, 2), OPTIONS)
    assert in_parts == whole
    typo = [line.text for line in whole.lines if "nmae" in line.text]
    assert len(typo) == 1, typo
    cards = len(load_game(folder).cards)
    assert "typo/layouts/gb-card.yaml:46:29: " in typo[0], typo[0]
    assert "boxes.title.text: no field 'nmae' in this card's type; did you mean 'name'? (filling " in typo[0], typo[0]
    # a line of the frame the class and item layouts extend: the faces of both, the layouts named
    assert f", and {cards - 1} more filling class and item: " in typo[0] and typo[0].endswith(", ...)"), typo[0]
    assert any(line.text.endswith(": invalid: 1 layout error") for line in whole.lines), whole.lines


def test_a_games_layout_errors_are_a_failing_junit_case_whole_and_in_parts(misfit, monkeypatch):
    """Every layout error (not a warning) is a line of the game's failing ``layout`` test case, whether its faces
    were laid out whole or by the workers, in shares."""
    whole = run.check_one(misfit, OPTIONS)
    errors = [line.text for line in whole.lines if line.to_stderr and ": error:" not in line.text
              and "does not fit" in line.text]
    [layout] = [case for case in whole.suite.cases if case.name == "layout"]
    assert layout.outcome == "failure" and layout.message == f"{len(errors)} layout error(s)"
    assert layout.text.splitlines() == errors
    assert not any("warning" in line for line in layout.text.splitlines())
    monkeypatch.setattr(run, "SPLIT_BYTES", 0)
    [in_parts] = run.check_games([misfit], OPTIONS)
    assert in_parts.suite == whole.suite
