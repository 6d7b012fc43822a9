"""Layouts: reading and extending them, filling them for a card, fitting text, located errors."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import TINY
from hypothesis import given
from hypothesis import strategies as st

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces, format_field
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.layout.fitcheck import layout_warnings
from deckwright.generator.layout.icons import parse_path
from deckwright.generator.layout.richtext import parse, plain
from deckwright.generator.layout.wordbreak import word_pieces
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "print" / "sample"


@pytest.fixture(scope="module")
def sample():
    return load_game(FIXTURE)


@pytest.fixture(scope="module")
def faces(sample):
    return Faces(sample)


def copy_fixture(tmp_path: Path) -> Path:
    target = tmp_path / "sample"
    shutil.copytree(FIXTURE, target)
    return target


def texts_of(display) -> list[str]:
    return dl.texts(display)


def test_extends_keeps_the_frame_and_adds_boxes(faces, sample):
    layout = faces.files.layout("unit")
    names = [box.name for box in layout.boxes]
    assert names[:4] == ["background", "panel", "band", "title"]  # from frame.yaml, in its order
    assert names[4:] == ["cost", "power", "text", "ally"]
    assert set(layout.text_styles) == {"title", "body"}
    assert layout.files == ("tests/fixtures/print/sample/layouts/unit.yaml", "tests/fixtures/print/sample/layouts/frame.yaml")


def test_face_shows_the_card_values(faces, sample):
    display = faces.front(sample.card("knight"), bleed=3.0)
    assert (display.width, display.height, display.bleed) == (63.5, 88.9, 3.0)
    assert texts_of(display) == ["Knight", "4", "5", "Holds the line.", "Ally: Archer"]


def test_background_runs_into_the_bleed(faces, sample):
    display = faces.front(sample.card("knight"), bleed=3.0)
    background = dl.walk(display.items)[0]
    assert isinstance(background, dl.Rect)
    assert (background.x, background.y, background.w, background.h) == pytest.approx((-3, -3, 69.5, 94.9))


def test_parts_that_never_change_are_grouped_for_reuse(faces, sample):
    first = faces.front(sample.card("knight"))
    second = faces.front(sample.card("giant"))
    groups = [item for item in first.items if isinstance(item, dl.Group)]
    assert groups and groups[0] == [item for item in second.items if isinstance(item, dl.Group)][0]
    assert "Knight" not in dl.texts(dl.DisplayList("g", 1, 1, 0, (groups[0],)))


def test_open_values_print_as_a_question_mark(faces, sample):
    assert "?" in texts_of(faces.front(sample.card("healer")))
    assert format_field(sample, sample.card("healer"), "text") == "?"


def test_markup_sets_bold_and_inline_icons(faces, sample):
    display = faces.front(sample.card("archer"))
    runs = [item for item in dl.walk(display.items) if isinstance(item, dl.Text)]
    bold = [run for run in runs if run.font == "Open Sans:bold" and run.size < 10]  # body text is 9 pt
    assert [run.text for run in bold] == ["Power 1"]
    body = [run for run in runs if run.font.startswith("Open Sans") and run.size < 10]
    star_paths = [item for item in dl.walk(display.items) if isinstance(item, dl.Path)
                  and body[0].y - 4 < item.commands[0][2] < body[0].y + 1]
    assert star_paths, "the :star: in the text is drawn as a vector icon on the text line"


@pytest.mark.parametrize("text", ["Deal 3 damage", "  two  spaces\nand lines \n", "\r\nword \u00a0 nbsp", "", " ",
                                  "Power 3, then Power 3", "a\n\nb"])
def test_plain_words_read_as_the_parser_reads_them(text):
    """``plain`` skips the parser for text with no markup character; it gives what parsing gives."""
    parsed = "\n".join(" ".join(w for w in ("".join(p.text for p in c).strip() for c in paragraph) if w)
                       for paragraph in parse(text))
    assert plain(text) == parsed


def test_formats_word_fields_for_cards_and_tables(sample):
    nh = load_game(BUNDLED_GAMES / "nightmare-hunt")
    faces = Faces(nh)
    abilities = faces.format_field(nh.card("ayth-ender"), "abilities")
    assert plain(abilities, faces.icon_names).splitlines() == [
        "1: Power 3",
        "4: inflicts Vulnerability; skip your turn",
        "6: Power 3, then Power 3",
        "8: discard your action deck; skip your turn",
    ]
    assert faces.format_field(nh.card("plate"), "track") == "3+ 5+ 7+"
    assert format_field(sample, sample.card("archer"), "tags") == "RANGED"
    assert format_field(sample, sample.card("knight"), "ally") == "Archer"  # a reference reads as the card's name


def test_long_text_wraps_then_shrinks_to_fit_the_box(tmp_path):
    folder = copy_fixture(tmp_path)
    long_text = " ".join(["Many words that go on and on."] * 14)
    units = folder / "units.yaml"
    units.write_text(units.read_text().replace("Holds the line.", long_text), encoding="utf-8")
    game = load_game(folder)
    display = Faces(game).front(game.card("knight"))
    fit = next(f for f in display.fits if f.box == "text")
    assert fit.fits and 4 <= fit.size < 9
    lines = [item for item in dl.walk(display.items) if isinstance(item, dl.Text) and item.size == fit.size]
    assert len({line.y for line in lines}) > 5
    assert all(6 - 0.01 <= line.x and line.x + line.width <= 63.5 - 6 + 0.01 for line in lines)
    assert max(line.y for line in lines) <= 88.9 - 8


@given(st.text(alphabet="abW./-_", min_size=1, max_size=60), st.floats(min_value=0.5, max_value=20))
def test_a_long_word_breaks_into_pieces_that_fit_after_a_dot_slash_hyphen_or_underscore_if_it_can(word, width):
    advances = [3.0 if ch == "W" else 1.0 for ch in word]
    pieces = word_pieces(word, advances, width)
    assert "".join(pieces) == word and all(pieces)
    start = 0
    for piece, after in zip(pieces, pieces[1:]):  # each piece but the last as long as fits, or to a soft break
        used = sum(advances[start:start + len(piece)])
        assert used <= width or len(piece) == 1
        if any(mark in piece[1:] for mark in "./-_"):
            assert piece[-1] in "./-_", (piece, after)
        else:
            assert used + advances[start + len(piece)] > width, (piece, after)
        start += len(piece)
    assert sum(advances[start:]) <= width or len(pieces[-1]) == 1


def test_a_table_cell_breaks_a_word_too_wide_for_it_keeping_its_faces_and_icons(faces):
    """``break_words`` (a rulebook table cell): a word of bold, plain and an icon too wide for the box is
    set in pieces that fit, the faces and the icon as they were; a word that fits is left whole."""
    setter = faces.measurer.setter
    face = faces.fonts.face("Open Sans", "regular")
    word = "**bold" + "w" * 40 + "**https://example.com/long_path:star:" + "x" * 40
    measured = setter.measure(parse(word + " short", faces.icons), face)
    size, width = 9.0, 30.0  # points, millimetres: some 20 letters a line
    broken = setter.break_words(measured, size, width)
    clusters = [cluster for line in broken for cluster in line]
    assert len(broken) > 4 and broken[-1][-1] == measured[0][-1]  # "short" whole, after the last piece
    assert all(len(line) == 1 for line in broken[:-1])  # each piece a line of its own
    limit = width / (size * 25.4 / 72)
    assert all(total <= limit + 1e-6 for _, total in clusters)
    pieces = [piece for pieces, _ in clusters[:-1] for piece in pieces]
    assert "".join(text for text, _, _ in pieces) == plain(word).replace(":star:", "")
    assert {key for _, key, _ in pieces} == {"Open Sans:bold", "Open Sans:regular", "star"}
    assert any(pieces_[-1][0].endswith("/") for pieces_, _ in clusters[:-1])  # after a slash where one fits
    assert setter.break_words(measured, size, 300.0) is measured


def test_check_warns_about_text_below_6pt_naming_card_and_field(tmp_path):
    folder = copy_fixture(tmp_path)
    units = folder / "units.yaml"
    units.write_text(units.read_text().replace("Holds the line.", " ".join(["Far too many words here."] * 30)), encoding="utf-8")
    warnings = [w for w in layout_warnings(load_game(folder)) if w.loc.file.endswith("units.yaml")]
    assert len(warnings) == 1  # (the board sheet, which lists every unit's text, gets its own warning)
    warning = warnings[0]
    assert warning.severity == "warning"
    assert warning.loc.file.endswith("units.yaml") and warning.loc.line == 5
    assert "unit 'knight'" in warning.message and "field 'text'" in warning.message


def test_bundled_layouts_have_no_warnings():
    assert layout_warnings(load_game(BUNDLED_GAMES / "nightmare-hunt")) == []


@pytest.mark.parametrize("change, expected", [
    (("radius: 2}", "radius: 2, colour: red}"), "frame.yaml:9:85: boxes.panel: unknown key 'colour'"),
    (("{{ card.name }}", "{{ card.name }"), "frame.yaml:11:29: Jinja2 syntax error"),
    (("{{ card.name }}", "{{ card.nmae }}"),
     "frame.yaml:11:29: boxes.title.text: no field 'nmae' in this card's type; did you mean 'name'? "
     "(filling unit for unit 'knight')"),
    (("{{ card.name }}", "{{ card.banner }}"),
     "frame.yaml:11:29: boxes.title.text: no field 'banner' in this card's type (its fields: cost, power, text, "
     "tags, ally)"),
    (("{{ card.name }}", "{{ card.tags }}"),  # declared, optional, and the knight has none
     "frame.yaml:11:29: boxes.title.text: this card leaves out 'tags', an optional field; card.get('tags') gives "
     "none instead of failing"),
    (("{{ card.name }}", "{{ constants.nope }}"), "frame.yaml:11:29: boxes.title.text: 'dict object' has no "
                                                  "attribute 'nope'"),
    (("{{ card.name }}", "{{ 1 / 0 }}"), "frame.yaml:11:29: boxes.title.text: division by zero (filling"),
    (("fill: band,", "fill: bnad,"), 'frame.yaml:8:34: boxes.background.fill: "bnad" is neither a colour'),
    (("kind: rect, fill: band", "kind: rectangle, fill: band"), "frame.yaml:8:22: boxes.background.kind: unknown kind 'rectangle'; did you mean 'rect'?"),
    (("{{ card.name }}", "{{ card.__class__ }}"), "frame.yaml:11:29: boxes.title.text: SecurityError"),
])
def test_layout_mistakes_are_located(tmp_path, change, expected):
    folder = copy_fixture(tmp_path)
    frame = folder / "layouts" / "frame.yaml"
    text = frame.read_text()
    assert change[0] in text
    frame.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    game = load_game(folder)
    with pytest.raises(LayoutError) as caught:
        Faces(game).front(game.card("knight"))
    messages = [str(p) for p in caught.value.problems]
    assert any(expected in m for m in messages), messages
    assert all(m.startswith(str(frame.relative_to(Path.cwd())) if frame.is_relative_to(Path.cwd()) else str(frame))
               for m in messages)


def test_missing_layout_and_extends_loop_are_reported(tmp_path):
    folder = copy_fixture(tmp_path)
    (folder / "layouts" / "frame.yaml").write_text("extends: unit\nboxes: {}\n", encoding="utf-8")
    game = load_game(folder)
    with pytest.raises(LayoutError) as caught:
        Faces(game).front(game.card("knight"))
    assert "a loop" in str(caught.value)
    (folder / "layouts" / "frame.yaml").write_text("extends: shield\nboxes: {}\n", encoding="utf-8")
    with pytest.raises(LayoutError) as caught:
        Faces(load_game(folder)).front(game.card("knight"))
    assert "extends: no layout 'shield'" in str(caught.value)
    (folder / "layouts" / "unit.yaml").unlink()  # a card type with no layout of its own: the default one, and a warning
    faces = Faces(load_game(folder))
    assert "Knight" in dl.texts(faces.front(game.card("knight")))
    assert [p.message.split(";")[0] for p in faces.problems] == ["card type 'unit' has no layout"]


def test_repeat_places_one_copy_per_item():
    nh = load_game(BUNDLED_GAMES / "nightmare-hunt")
    display = Faces(nh).front(nh.card("ayth-ender"))
    costs = [t for t in dl.walk(display.items) if isinstance(t, dl.Text) and t.font == "Open Sans:extrabold"
             and t.y > 38 and t.x < 15]  # the energy badges of the ability rows
    assert [c.text for c in costs] == ["1", "4", "6", "8"]
    ys = [c.y for c in costs]
    assert ys == sorted(ys) and len({round(b - a, 3) for a, b in zip(ys, ys[1:])}) == 1  # evenly stepped rows


def test_markup_parsing():
    (paragraph,) = parse("**Power~3**, then :heart: x:y \\*", {"heart"})
    assert [[(p.text, p.bold, p.icon) for p in cluster] for cluster in paragraph] == [
        [("Power 3", True, ""), (",", False, "")],
        [("then", False, "")],
        [("", False, "heart")],
        [("x:y", False, "")],
        [("*", False, "")],
    ]
    assert plain("a\n**b** :heart:", {"heart"}, lambda name: name) == "a\nb heart"


def test_svg_arcs_end_on_their_endpoints():
    commands = parse_path("M10 50 A40 40 0 1 0 90 50 Z")
    assert commands[0] == ("M", 10.0, 50.0)
    assert commands[-2][-2:] == (90.0, 50.0)
    assert all(c[0] == "C" for c in commands[1:-1])


@pytest.mark.parametrize("radius", ["1e-300", "1e-160", "1e-20", "5e-324"])
def test_svg_arc_radii_too_small_for_their_ends_are_scaled_up_until_they_reach(radius):
    """SVG 1.1 F.6.6: however small, the radii make the half circle over the chord (a radius of 1e-300 was a
    ZeroDivisionError, one of 1e-160 a NaN)."""
    tiny, one = parse_path(f"M0 0 A{radius} {radius} 0 1 1 50 50"), parse_path("M0 0 A1 1 0 1 1 50 50")
    assert [c[0] for c in tiny] == [c[0] for c in one] == ["M", "C", "C"]
    assert [n for c in tiny for n in c[1:]] == pytest.approx([n for c in one for n in c[1:]])


def test_an_svg_arc_whose_ends_are_almost_one_point_goes_round_its_ellipse():
    """The large arc between ends 1e-300 apart is the whole circle of radius 5 (a ZeroDivisionError)."""
    (move, *curves) = parse_path("M0 0 A5 5 0 1 1 1e-300 0")
    assert move == ("M", 0.0, 0.0) and len(curves) == 4 and curves[-1][-2:] == (1e-300, 0.0)
    ends = [curve[-2:] for curve in curves]
    assert max(y for _, y in ends) == pytest.approx(10) or min(y for _, y in ends) == pytest.approx(-10)


def test_an_svg_arc_without_a_radius_is_a_line_and_one_back_to_its_start_is_omitted():
    assert parse_path("M0 0 A0 5 0 1 1 50 50") == (("M", 0.0, 0.0), ("L", 50.0, 50.0))
    assert parse_path("M0 0 A5 5 0 1 1 0 0 L 10 0") == (("M", 0.0, 0.0), ("L", 10.0, 0.0))


def test_image_boxes_crop_to_their_box_and_stay_inside_the_game(tmp_path):
    from PIL import Image

    folder = copy_fixture(tmp_path)
    (folder / "art").mkdir()
    Image.new("RGB", (40, 20), "#ff0000").save(folder / "art" / "knight.png")
    unit = folder / "layouts" / "unit.yaml"
    box = '  picture: {kind: image, src: "art/{{ card.id }}.png", left: 6, right: 6, top: 29, height: 20}\n'
    unit.write_text(unit.read_text().replace("formats:", box + "formats:"), encoding="utf-8")
    game = load_game(folder)
    display = Faces(game).front(game.card("knight"))
    (clip,) = [item for item in display.items if isinstance(item, dl.Clip)]
    (image,) = clip.items
    assert (clip.x, clip.y, clip.w, clip.h) == pytest.approx((6, 29, 51.5, 20))
    assert image.h == pytest.approx(25.75) and image.w == pytest.approx(51.5)  # covers the box, cropped at top and bottom
    with pytest.raises(LayoutError, match=r"unit\.yaml:\d+:\d+: boxes\.picture\.src: no image 'art/archer\.png'"):
        Faces(game).front(game.card("archer"))
    unit.write_text(unit.read_text().replace("art/{{ card.id }}.png", "../../outside.png"), encoding="utf-8")
    with pytest.raises(LayoutError, match="outside the game folder"):
        Faces(load_game(folder)).front(game.card("knight"))


def test_one_mistake_on_many_faces_is_one_line_that_stays_whole():
    """Problems differing only in the face they were found on are merged, naming the first face and a few more;
    with long card ids the line still keeps its message whole (clip cuts a line over its limit at '; ')."""
    from deckwright.generator.layout.perface import FILLING, merged
    from deckwright.rules.problems import READABLE, Loc, Problem

    loc = Loc("g/layouts/card.yaml", 4, 9)
    text = "boxes.title.text: no field 'nmae' in this card's type; did you mean 'name'?"
    faces = [f"hero 'a-card-with-a-rather-long-identifier-number-{n:04d}'" for n in range(3000)]
    problems = [Problem(loc, FILLING.format(text=text, layout="hero", who=who)) for who in reversed(faces)]
    other = Problem(Loc("g/layouts/card.yaml", 5, 9), FILLING.format(text="boxes.art.src: no image", layout="hero",
                                                                     who=faces[0]))
    [first, second] = merged([*problems, other])
    assert first.message.startswith(f"{text} (filling hero for {faces[0]}, and for 2,999 more: {faces[1]}")
    assert first.message.endswith(", ...)") and len(first.message) < READABLE
    assert str(first).endswith(first.message)  # not cut
    assert second == other  # found on one face: as it was


def test_a_box_an_extending_layout_gives_another_kind_keeps_its_place_not_its_old_keys(tmp_path):
    """`art: {kind: image, src: ...}` over the frame's icon box: an image where the icon was, without the icon's
    `icon` and `color` keys (they were errors located in the frame, a file the designer had not touched)."""
    from PIL import Image

    from deckwright.generator.layout.fitcheck import layout_warnings
    from deckwright.generator.new import write_new_game

    game_folder = write_new_game(tmp_path / "duel").folder
    (game_folder / "art").mkdir()
    Image.new("RGB", (300, 300), "red").save(game_folder / "art" / "blink.png")
    potion = game_folder / "layouts" / "potion.yaml"
    text = potion.read_text()
    assert "\nboxes:\n" in text
    potion.write_text(text.replace("\nboxes:\n", "\nboxes:\n  art: {kind: image, src: art/blink.png}\n", 1))
    game = load_game(game_folder)
    assert [p for p in layout_warnings(game) if p.severity == "error"] == []
    card = next(card for card in game.cards if card.type == "potion")
    items = dl.walk(Faces(game).front(card).items)
    [image] = [item for item in items if isinstance(item, dl.Image)]
    frame = next(item for item in items if isinstance(item, dl.Ellipse))  # the art's ground, drawn under it
    assert frame.x < image.x < image.x + image.w < frame.x + frame.w  # where the icon was: inside its ground


def test_a_key_a_box_kind_lacks_is_named_with_the_right_article(tmp_path):
    from deckwright.generator.layout.files import Box, Value, check_box_keys
    from deckwright.rules.problems import Loc

    box = Box("art", "image", Loc("l.yaml"), {"kind": Value("image", Loc("l.yaml")), "icon": Value("x", Loc("l.yaml", 2))})
    [problem] = check_box_keys((box,), "boxes")
    assert problem.message.startswith("boxes.art: an image box has no key 'icon'")


def test_a_merged_line_of_a_shared_layout_names_the_layouts_its_faces_were_filled_by():
    from deckwright.generator.layout.perface import FILLING, merged
    from deckwright.rules.problems import Loc, Problem

    loc = Loc("g/layouts/card.yaml", 24, 29)
    text = "boxes.title.text: no field 'nmae' in this card's type; did you mean 'name'?"
    faces = [("hero", "hero 'knight'"), ("hero", "hero 'rogue'"), ("potion", "potion 'tonic'")]
    numbered = [Problem(loc, FILLING.format(text=text, layout="hero", who=f"hero 'h{n}'")) for n in (10, 2, 1)]
    assert merged(numbered)[0].message.endswith("(filling hero for hero 'h1', and for 2 more: hero 'h2', hero 'h10')")
    [line] = merged([Problem(loc, FILLING.format(text=text, layout=layout, who=who)) for layout, who in faces])
    assert line.message == f"{text} (filling hero for hero 'knight', and 2 more filling hero and potion: " \
                           "hero 'rogue', potion 'tonic')"


def test_a_computed_negative_size_is_told_to_a_hundredth_of_a_millimetre():
    from deckwright.generator.layout.measure import mm

    assert [mm(-0.117647), mm(63.5), mm(40.0), mm(-16.499999)] == ["-0.12", "63.5", "40", "-16.5"]


def test_an_inline_icon_misspelt_in_card_data_is_a_warning_at_the_value(tiny, tmp_path):
    """``:hart:`` prints as text (only known icon names are icons): check says so where the name is close to an
    icon the game has; a name close to none, or a colon in ordinary text, is left alone."""
    game_yaml = (TINY / "game.yaml").read_text(encoding="utf-8")
    game = tiny({
        "game.yaml": game_yaml.replace("      rival: {type: ref, to: [monster], optional: true}",
                                       "      rival: {type: ref, to: [monster], optional: true}\n"
                                       "      lore: {type: text, optional: true}"),
        "heroes.yaml": (TINY / "heroes.yaml").read_text(encoding="utf-8").replace(
            "    copies: 2\n", "    copies: 2\n    lore: 'Gains :hart: at 10:30:00, and :zzyzx: stays text'\n"),
    })
    warnings = [str(p) for p in layout_warnings(load_game(game)) if "icon" in p.message]
    assert warnings == [f"{game / 'heroes.yaml'}:10:11: warning: hero 'knight' lore: ':hart:' is no icon of this "
                        f"game, so it prints as text; did you mean ':heart:'?"]


def test_a_pictures_file_name_is_not_card_text_in_alt_text_search_or_a_tabletop_description(tiny):
    """A card's art is named by a text field (``portrait: art/knight.png``) that a layout's image box draws: the
    card's words for alt text, search and Tabletop Simulator leave it out, and keep every other field."""
    from deckwright.generator.layout.cardtext import card_description, card_fields

    game_yaml = (TINY / "game.yaml").read_text(encoding="utf-8")
    heroes = (TINY / "heroes.yaml").read_text(encoding="utf-8")
    folder = tiny({
        "game.yaml": game_yaml.replace("      rival: {type: ref, to: [monster], optional: true}",
                                       "      rival: {type: ref, to: [monster], optional: true}\n"
                                       "      portrait: {type: text, optional: true}\n"
                                       "      motto: {type: text, optional: true}"),
        "heroes.yaml": heroes.replace("    copies: 2\n", "    copies: 2\n    portrait: art/knight.png\n"
                                                       "    motto: Shields up, see shield.png\n").replace(
            "    attack: 2d4\n", "    attack: 2d4\n    portrait: art/archer portrait.JPG\n"),
        "art/archer portrait.JPG": b"a picture",
    })
    game = load_game(folder)
    faces = Faces(game)
    knight, archer = dict(card_fields(faces, game.card("knight"))), dict(card_fields(faces, game.card("archer")))
    assert "Portrait" not in knight and "Portrait" not in archer  # the art, with or without a space in its name
    assert knight["Motto"] == "Shields up, see shield.png"  # words that end as a file name does, and name none
    assert "art/knight.png" not in card_description(faces, game.card("knight"))
