"""A hostile layout cannot touch files (issue 13, D1), spend unbounded time or memory (D5) or end in a traceback (D6).

Each case is the tiny test game with one layout, icon file or picture replaced;
``layout_warnings`` (what ``deckwright check`` runs) must return located problems
at the layout's line, within the face's budget, and nothing outside the game
folder may change.
"""
from __future__ import annotations

import random
import string
import struct
import tracemalloc
import zlib
from pathlib import Path

import pytest

from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.files import LayoutError
from deckwright.generator.layout.fitcheck import layout_warnings
from deckwright.generator.layout.icons import MAX_ICON_SEGMENTS
from deckwright.generator.layout.lengths import (
    brace_length,
    expanded_tabs_length,
    percent_length,
    repr_length,
    text_length,
)
from deckwright.generator.layout.measure import MAX_SEGMENTS
from deckwright.generator.layout.sandbox import MAX_TEXT, LayoutSandbox
from deckwright.rules.load import load_game

HERO = "layouts/hero.yaml"


def hero_layout(text_box: str = "", **boxes: str) -> str:
    """The tiny game's hero face with one text box (or the given boxes) written by the test."""
    lines = ["boxes:", '  paper: {kind: rect, left: 0, top: 0, right: 0, bottom: 0, fill: "#fdfaf3"}']
    if text_box:
        lines.append(f"  name: {{kind: text, left: 5, top: 5, right: 5, height: 10, size: 12, text: {text_box}}}")
    lines += [f"  {name}: {body}" for name, body in boxes.items()]
    return "\n".join(lines) + "\n"


def errors_of(game: Path) -> list[str]:
    return [str(p) for p in layout_warnings(load_game(game)) if p.severity == "error"]


def assert_located(lines: list[str], line: int, *words: str) -> None:
    assert lines, "expected a located error"
    for text in lines:
        assert text.startswith(f"tiny/{HERO}:{line}:") or f"{HERO}:{line}:" in text, text
    for word in words:
        assert any(word in text for text in lines), (word, lines)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # messages name tiny/layouts/hero.yaml


# -- D1: no file is reachable ------------------------------------------------------------


@pytest.mark.parametrize("expression", [
    "game.root.joinpath('{target}').write_text('owned')",
    "game.pages[0].path.parent.parent.joinpath('{target}').touch()",
    "game.root.parent.joinpath('{target}').read_text()",
])
def test_a_layout_cannot_reach_the_file_system(tiny, tmp_path, expression):
    target = tmp_path / "outside.txt"
    target.write_text("the user's file\n")
    game = tiny({HERO: hero_layout(f'"{{{{ {expression.format(target=target)} }}}}"')})
    lines = errors_of(game)
    assert target.read_text() == "the user's file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside.txt", "tiny"]
    assert_located(lines, 3, "has no attribute")


def test_a_read_file_never_reaches_a_card(tiny, tmp_path):
    (tmp_path / "secret.txt").write_text("TOP SECRET")
    game = load_game(tiny({HERO: hero_layout('"{{ game.root.parent.joinpath(\'secret.txt\').read_text() }}"')}))
    try:
        drawn = repr(Faces(game).front(game.card("knight")))
    except LayoutError as exc:
        drawn = str(exc)
    assert "TOP SECRET" not in drawn


# -- D5: limits on evaluation --------------------------------------------------------------


def test_nested_loops_end_with_a_located_error(tiny):
    loop = "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}"
    lines = errors_of(tiny({HERO: hero_layout(f'"{loop}"')}))
    assert_located(lines, 3, "more steps than one face may")


def test_a_huge_string_is_refused_before_it_is_made(tiny):
    lines = errors_of(tiny({HERO: hero_layout("\"{{ 'a' * 10**10 }}\"")}))
    assert_located(lines, 3, "repeating 1 characters or items 10,000,000,000 times")


@pytest.mark.parametrize("expression, words", [
    ("'ab' ~ 'x'.center(10**9)", "center()"),
    ("'%0999999999d' % 1", "% format's width"),
    ("'{:>999999999}'.format(1)", "format's width"),
    ("'x'|center(10**9)", "|center"),
    ("('x' * 90000)|replace('x', 'xx')", "|replace"),
    ("2**100000", "bits"),
    ("range(10**9)|list", "a layout may make at most"),
    ("[1] * 10**8", "times"),
])
def test_operations_that_make_huge_values_are_refused(tiny, expression, words):
    lines = errors_of(tiny({HERO: hero_layout(f'"{{{{ {expression} }}}}"')}))
    assert_located(lines, 3, words)


# Each makes a text (or list) of 10**8 to 10**10 characters (items) from small parts: before it was refused
# only once made (28 s and 9.8 GB for the first); it must be refused from its parts' sizes.
HUGE_RESULTS = [
    ("('\\t'*99999).expandtabs(99999)", "expandtabs() would make a text of 9,999,800,001 characters"),
    ("(['x'*99999]*10000)|join('y'*99999)", "|join would make a text of 1,999,880,001 characters"),
    ("('x'*99999)|join('y'*99999)", "|join would make a text of 9,999,800,001 characters"),
    ("(['x'*99999]*10000)|join", "|join would make a text of 999,990,000 characters"),
    ("['x'*99999]*10000", "printing a value would make a text of 1,000,030,000 characters"),
    ("'a' ~ ['x'*99999]*10000", "~ would make a text of 1,000,030,001 characters"),
    ("(['x'*99999]*10000)|string", "|string would make a text of 1,000,030,000 characters"),
    ("(['x'*99999]*10000)|upper", "|upper would make"),
    ("(['x'*99999]*10000)|tojson", "|tojson would make"),
    ("{'a': ['x'*99999]*10000}.items()", "printing a value would make a text of 1,000,030,021 characters"),
    ("('{0}'*25000).format('x'*99999)", "format() would make a text of 2,499,975,000 characters"),
    ("('{!r:.5}'*100).format(['x'*99999]*10000)", "format() would make"),
    ("('%(a)s'*20000) % {'a': 'x'*99999}", "a % format would make a text of 1,999,980,000 characters"),
    ("('%s'*10000) % (('x'*99999,)*10000)", "a % format would make a text of 999,990,000 characters"),
    ("('%(a)s'*20000)|format(a='x'*99999)", "|format would make a text of 1,999,980,000 characters"),
    ("('x '*49999)|wordwrap(1, wrapstring='y'*99999)", "|wordwrap would make"),
    ("('www.x.com '*10000)|urlize(target='y'*99999)", "|urlize would make"),
    ("([('x'*99999, 'y'*99999)]*10000)|urlencode", "|urlencode would make a text of 1,999,999,999 characters"),
    ("{'a': ['x'*99999]*10000}|xmlattr", "|xmlattr would make a text of 1,000,030,000 characters"),
    ("['x']|batch(99999, 'y')|list", "|batch would make a list of 99,999 items"),
    ("[1]|slice(99999)|list", "|slice would make a list of 99,999 items"),
]


# a whole {{ }} is evaluated as closures (generator.layout.expressions); one holding a slice is compiled by
# Jinja2 as an expression; text around a {{ }} makes a template, compiled by Jinja2 too
FORMS = {"closures": "{{{{ {} }}}}", "compiled": "{{{{ ({}) if true else ''[0:] }}}}", "template": "- {{{{ {} }}}}"}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("expression, words", HUGE_RESULTS)
def test_a_huge_result_is_refused_before_it_is_made(tiny, expression, words, form):
    game = load_game(tiny({HERO: hero_layout(f'"{FORMS[form].format(expression)}"')}))
    tracemalloc.start()
    try:
        lines = [str(p) for p in layout_warnings(game) if p.severity == "error"]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert_located(lines, 3, words)
    assert peak < 16_000_000, f"{peak:,} bytes allocated at the peak"  # the result would take 100 MB to 40 GB


def test_a_namespace_printing_a_huge_list_is_refused(tiny):
    body = "{% set ns = namespace(a=['x'*99999]*10000) %}{{ ns }}"
    lines = errors_of(tiny({HERO: hero_layout(f'"{body}"')}))
    assert_located(lines, 3, "printing a value would make a text of 1,000,030,019 characters")


@pytest.mark.parametrize("expression, value", [
    ("('x'*60000)|replace('x', 'yy', 1)", "yy" + "x" * 59999),  # a count: one replacement, not 60,000
    ("('a\\tbc\\n\\td'*3).expandtabs(4)", ("a\tbc\n\td" * 3).expandtabs(4)),
    ("'%s|%5.1f|%%' % ('ab', 2.25)", "ab|  2.2|%"),
    ("'{0}:{1:>4}:{0!r}'.format('a', 'b')", "a:   b:'a'"),
    ("['a', 'b']|join(', ')", "a, b"),
    ("'ab cd'|wordwrap(2, wrapstring='<br>')", "ab<br>cd"),
    ("[('a b', 'c&d'), ('e', 1)]|urlencode", "a+b=c%26d&e=1"),
    ("{'a': 'x<y', 'b': none, 'c': 3}|xmlattr", ' a="x&lt;y" c="3"'),
    ("'see www.x.com'|urlize(target='_blank')", 'see <a href="https://www.x.com" rel="noopener" target="_blank">'
                                                 'www.x.com</a>'),
])
def test_operations_under_the_limits_still_work(expression, value):
    env = LayoutSandbox(autoescape=False)
    with env.evaluating():
        assert env.compile_expression(expression)() == value


VALUES = [[], [1], (1,), (), {}, set(), frozenset(), {1}, frozenset({1, 2}), {"a": [1, (2,)], "b'\"": None},
          "it's", "a\\b", "x\ty", "\u00e9\x00\U0001f600", [1.5, True, None, 10**50, -0.0], {"a": 1}.items(),
          {"a": 1}.keys(), {"a": [1]}.values(), range(3), b"by\tes", ["shared"] * 3]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_printed_lengths_are_counted_exactly(value):
    assert repr_length(value) == len(repr(value))
    assert text_length(value) == len(str(value))


def test_expanded_tabs_are_counted_exactly():
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice("ab\t\n\r ") for _ in range(rng.randrange(40)))
        tabsize = rng.randrange(-2, 12)
        assert expanded_tabs_length(text, tabsize) == len(text.expandtabs(tabsize)), (text, tabsize)
        assert expanded_tabs_length(text.encode(), tabsize) == len(text.encode().expandtabs(tabsize))


@pytest.mark.parametrize("text, values", [
    ("%s-%d %r %5.2f %%", ([1, "x"], 3, "q", 2.5)),
    ("%(a)s %(b)r %%%(a)10s", {"a": "xy", "b": [1, {2: 3}]}),
    ("%(a(b))s!", {"a(b)": "zz"}),
    ("%.s|%.3s|%5.1s|%-4s|", ("abc", "abcdef", "xyz", "q")),
    ("%c%x%o%e%+05d", (65, 255, 8, 1.5, 7)),
    ("%s", {"k": (1,)}),
    ("%s and %s", ("é", b"b")),
])
def test_percent_formats_are_counted_exactly(text, values):
    assert percent_length(text, values, MAX_TEXT) == len(text % values)


@pytest.mark.parametrize("text, args, kwargs", [
    ("{} {} {!r}", ("a", [1, "b"], "c"), {}),
    ("{0:>6}|{0!s:.1}|{x[1]}|{{}}", ("abc",), {"x": [0, "yz"]}),
    ("{0:08.3f} {1:x}", (3.14159, 255), {}),
])
def test_brace_formats_are_counted_exactly(text, args, kwargs):
    formatter = string.Formatter()
    assert brace_length(text, args, kwargs, formatter, MAX_TEXT) == len(text.format(*args, **kwargs))


def test_output_that_grows_in_a_loop_is_cut(tiny):
    body = "{% for a in range(1000) %}{{ 'x' * 1000 }}{% endfor %}"
    lines = errors_of(tiny({HERO: hero_layout(f'"{body}"')}))
    assert_located(lines, 3, f"longer than {MAX_TEXT:,} characters")


@pytest.mark.parametrize("body, words", [
    ("{% set ns = namespace(v='ab') %}{% for i in range(60) %}{% set ns.v = ns.v ~ ns.v %}{% endfor %}{{ ns.v }}",
     "a layout may make at most 100,000"),
    ("{% set ns = namespace(v=[1]) %}{% for i in range(60) %}{% set ns.v = [ns.v, ns.v] %}{% endfor %}{{ ns.v }}",
     "lists inside lists"),
    ("{% macro m(x, n) %}{% if n %}{{ m([x, x], n - 1) }}{% else %}{{ x }}{% endif %}{% endmacro %}{{ m(1, 60) }}",
     "lists inside lists"),
])
def test_values_that_double_each_round_are_refused(tiny, body, words):
    """A namespace (or a macro calling itself) carries a value from round to round: 2**60 of anything is refused."""
    lines = errors_of(tiny({HERO: hero_layout(f'"{body}"')}))
    assert_located(lines, 3, words)


def test_a_huge_repeat_is_refused(tiny):
    layout = hero_layout(dots='{kind: rect, left: 1, top: 1, width: 1, height: 1, fill: "#000000", repeat: "100000000"}')
    lines = errors_of(tiny({HERO: layout}))
    assert_located(lines, 3, "repeated at most 1,000 times, not 100,000,000")


# -- D6: located errors, never tracebacks ---------------------------------------------------------


@pytest.mark.parametrize("text, words", [
    ('"{{ range(10**9) }}"', "range(1000000000,) has"),
    ('"{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"', "calls itself too deeply"),
    ('"{{ 10**400 * 1.0 }}"', "int too large to convert to float"),
])
def test_text_errors_are_located(tiny, text, words):
    assert_located(errors_of(tiny({HERO: hero_layout(text)})), 3, words)


@pytest.mark.parametrize("box, words", [
    ('{kind: rect, left: "{{ 10**400 }}", top: 1, width: 1, height: 1, fill: "#000000"}', "not a usable value"),
    ("{kind: text, left: 5, top: 5, right: 5, height: 10, size: 0, text: x}", "size"),
    ("{kind: text, left: 5, top: 5, right: 5, height: 10, size: nan, text: x}", "not a usable value"),
    ("{kind: text, left: 5, top: 5, right: 5, height: 10, size: 12, leading: -1, text: x}", "leading"),
    ('{kind: rect, left: "{{ 1e308 * 10 }}", top: 1, width: 1, height: 1, fill: "#000000"}', "not a usable value"),
    # plain numbers, read without Jinja2: one too long for a float was a traceback, one past the limit went unseen
    ("{kind: rect, left: " + "9" * 400 + ', top: 1, width: 1, height: 1, fill: "#000000"}', "not a usable value"),
    ('{kind: rect, left: 1.0e+300, top: 1, width: 1, height: 1, fill: "#000000"}', "1e+300mm is not a usable value"),
    ("{kind: text, left: 5, top: 5, right: 5, height: 10, size: " + "9" * 400 + ", text: x}", "not a usable value"),
    # Pillow draws an outline ring by ring: a stroke of 9 m hung the pictures' painting
    ('{kind: rect, left: 1, top: 1, width: 9, height: 9, stroke: "#000000", stroke_width: 9000}',
     "bad.stroke_width: 9000 mm; a stroke is from 0 to 50 mm wide"),
    ('{kind: ellipse, left: 1, top: 1, width: 9, height: 9, stroke: "#000000", stroke_width: null}',
     "bad.stroke_width: nothing (null); a stroke is from 0 to 50 mm wide"),
])
def test_unusable_numbers_are_located(tiny, box, words):
    assert_located(errors_of(tiny({HERO: hero_layout(bad=box)})), 3, words)


@pytest.mark.parametrize("step", ["[null, 0]", '[0, "{{ none }}"]'])
def test_a_null_step_of_a_repeated_box_is_located(tiny, step):
    """Found by a helper's hunt: a TypeError multiplying the index by None."""
    box = f'{{kind: rect, repeat: "3", step: {step}, left: 1, top: 1, width: 1, height: 1, fill: "#000000"}}'
    assert_located(errors_of(tiny({HERO: hero_layout(bad=box)})), 3, "bad.step: expected a length, got nothing")


def test_an_icon_with_a_bad_stroke_width_is_located(tiny):
    icons = "star: {paths: [{d: 'M 0 0 L 10 10 Z', stroke: color, stroke_width: '1x'}]}\n"
    layout = hero_layout(icon='{kind: icon, icon: star, left: 1, top: 1, width: 5, height: 5}')
    lines = [str(p) for p in layout_warnings(load_game(tiny({HERO: layout, "layouts/icons.yaml": icons})))]
    assert lines == ["tiny/layouts/icons.yaml:1:7: icon 'star': stroke_width: expected a number, got '1x'"]


def test_an_icon_stroke_wider_than_its_viewbox_is_located(tiny):
    """A line of 900,000 units on a 24-unit icon made the pictures' painting take many times as long."""
    icons = "boom: {viewbox: [0, 0, 24, 24], paths: [{d: 'M 2 2 L 20 20 Z', stroke: color, stroke_width: 900000}]}\n"
    layout = hero_layout(icon='{kind: icon, icon: boom, left: 1, top: 1, width: 5, height: 5}')
    lines = [str(p) for p in layout_warnings(load_game(tiny({HERO: layout, "layouts/icons.yaml": icons})))]
    assert lines == ["tiny/layouts/icons.yaml:1:7: icon 'boom': stroke_width: 900000 is not from 0 to the viewbox's "
                     "size (24)"]


def test_an_icon_with_a_viewbox_of_hundreds_of_digits_is_located(tiny):
    """math.isfinite() of such an integer raised OverflowError."""
    icons = f"star: {{viewbox: [0, 0, {'9' * 400}, 24], paths: [{{d: 'M 0 0 L 10 10 Z'}}]}}\n"
    layout = hero_layout(icon='{kind: icon, icon: star, left: 1, top: 1, width: 5, height: 5}')
    lines = [str(p) for p in layout_warnings(load_game(tiny({HERO: layout, "layouts/icons.yaml": icons})))]
    assert len(lines) == 1 and lines[0].startswith("tiny/layouts/icons.yaml:1:7: icon 'star': viewbox: expected a "
                                                   "number, got 999")
    assert lines[0].endswith("more characters)")


def icon_problems(tiny, icon: str) -> list[str]:
    """What check says of the tiny game with one icon, ``zz``, shown on the hero face."""
    layout = hero_layout(icon='{kind: icon, icon: zz, left: 1, top: 1, width: 5, height: 5}')
    return [str(p) for p in layout_warnings(load_game(tiny({HERO: layout, "layouts/icons.yaml": f"zz: {icon}\n"})))]


@pytest.mark.parametrize("arc", ["A1e-300 1e-300 0 1 1 50 50", "A1e-160 1e-160 0 1 1 50 50", "A5 5 0 1 1 1e-300 0"])
def test_an_icon_arc_of_tiny_radii_or_ends_checks(tiny, arc):
    """A ZeroDivisionError or a NaN in the arc's centre; the SVG rules draw them (radii scaled up, a whole turn)."""
    assert icon_problems(tiny, f'"M0 0 {arc} Z"') == []


@pytest.mark.parametrize("icon, reach", [
    ('"M0 0 A1e6 1e-200 0 1 1 50 50 Z"', "x = 1.38071e+207"),  # radii scaled up as far apart as they were
    ('"M0 0 A1e6 5e-324 0 1 1 0 50 Z"', "x = past any number"),
    ('"M0 0 L1e6 0 L1e6 1e6 Z M10 10 L20 10 L20 20 Z"', "x = 1e+06"),  # an even-odd mask of the drawing's size
    ('{viewbox: [0, 0, 24, 24], paths: ["M0 0 l9e5 0 l9e5 0 l9e5 0 Z"]}', "x = 900000"),
])
def test_an_icon_reaching_far_outside_its_viewbox_is_located(tiny, icon, reach):
    """Numbers past what the renderers take (ReportLab refuses 1e30) or a mask of terapixels for the PNGs."""
    (line,) = icon_problems(tiny, icon)
    assert line.startswith(f"tiny/layouts/icons.yaml:1:5: icon 'zz': its paths reach {reach}, more than 10 times "
                           f"the viewbox's size outside it")


@pytest.mark.parametrize("viewbox, sizes", [("[0, 0, 1.0e-300, 1.0e-300]", "1e-300 and 1e-300"),
                                             ("[0, 0, 24, 0.0001]", "24 and 0.0001")])
def test_an_icon_viewbox_too_small_to_scale_is_located(tiny, viewbox, sizes):
    """A viewbox of 1e-300 passed check; scaled to its box, the build's PDF had numbers ReportLab refused."""
    assert icon_problems(tiny, f'{{viewbox: {viewbox}, paths: ["M0 0 L1e-300 1e-300 L0 1e-300 Z"]}}') == [
        f"tiny/layouts/icons.yaml:1:5: icon 'zz': viewbox: its width and height are from 0.001 to 1,000,000, "
        f"not {sizes}"]


def zigzag(segments: int) -> str:
    """Path data of ``segments`` segments (a move and line-tos)."""
    return "M0 0 " + " ".join(f"L{index % 100} {index * 7 % 100}" for index in range(segments - 1))


def test_an_icon_of_too_many_segments_is_refused_where_icons_yaml_defines_it(tiny):
    icons = (f"dot: 'M 0 0 L 10 10 Z'\nheavy: '{zigzag(MAX_ICON_SEGMENTS + 1)}'\n"
             f"split: {{paths: ['{zigzag(MAX_ICON_SEGMENTS // 2)}', '{zigzag(MAX_ICON_SEGMENTS // 2 + 1)}']}}\n")
    layout = hero_layout(icon="{kind: icon, icon: dot, left: 1, top: 1, width: 5, height: 5}")
    lines = [str(p) for p in layout_warnings(load_game(tiny({HERO: layout, "layouts/icons.yaml": icons})))]
    too_many = "its paths have more than 10,000 segments; an icon needs far fewer"
    assert lines == [f"tiny/layouts/icons.yaml:2:8: icon 'heavy': {too_many} (simplify the drawing, e.g. Inkscape's "
                     f"Path > Simplify)",
                     f"tiny/layouts/icons.yaml:3:8: icon 'split': {too_many} (simplify the drawing, e.g. Inkscape's "
                     f"Path > Simplify)"]


@pytest.mark.parametrize("box", [
    '{kind: icon, icon: heavy, left: 1, top: 1, width: 5, height: 5, repeat: "COPIES"}',
    "{kind: text, left: 1, top: 1, right: 1, bottom: 1, size: 4, fit: overflow-ok, "
    "text: \"{{ ':heavy: ' * COPIES }}\"}",
])
def test_a_face_drawing_too_many_icon_segments_is_a_located_error(tiny, box):
    """A complex icon (under its own limit) repeated, in boxes or inline in text: the face's drawing is bounded,
    counted before the paths are made."""
    icons = f"heavy: '{zigzag(5_000)}'\n"
    under = tiny({HERO: hero_layout(many=box.replace("COPIES", str(MAX_SEGMENTS // 5_000))),
                  "layouts/icons.yaml": icons}, name="under")
    assert errors_of(under) == []
    lines = errors_of(tiny({HERO: hero_layout(many=box.replace("COPIES", str(MAX_SEGMENTS // 5_000 + 1))),
                            "layouts/icons.yaml": icons}))
    assert_located(lines, 3, "boxes.many: the layout draws more than 200,000 icon path segments on one face")


# -- pictures ------------------------------------------------------------------------------------


def png(width: int, height: int, truncate: int = 0, noise: bool = False) -> bytes:
    """A grey PNG of the given size (rows of zeros compress to almost nothing; ``noise`` makes a large file),
    optionally with its last ``truncate`` bytes cut off."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = (lambda y: b"\0" + random.Random(y).randbytes(width)) if noise else (lambda y: b"\0" * (width + 1))
    raw = zlib.compress(b"".join(row(y) for y in range(height)), 9)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) \
        + chunk(b"IDAT", raw) + chunk(b"IEND", b"")
    return data[:len(data) - truncate] if truncate else data


def picture_game(tiny, data: bytes) -> Path:
    layout = hero_layout(art='{kind: image, src: art/picture.png, left: 0, top: 0, width: 20, height: 20}')
    return tiny({HERO: layout, "art/picture.png": data})


def test_a_decompression_bomb_is_located_with_the_pixel_limit(tiny):
    lines = errors_of(picture_game(tiny, png(14000, 14000)))
    assert_located(lines, 3, "'art/picture.png' has 196 megapixels; a picture may have at most 40 megapixels")


def test_a_picture_over_the_limit_but_under_pillows_says_its_size(tiny):
    lines = errors_of(picture_game(tiny, png(7000, 7000)))
    assert_located(lines, 3, "'art/picture.png' is 7000 x 7000 pixels (49 megapixels); a picture may have at most 40")


def test_a_truncated_picture_fails_check_not_only_build(tiny):
    """Its header is whole (Pillow opens it and says its size), its pixels are cut short."""
    lines = errors_of(picture_game(tiny, png(200, 200, truncate=2000, noise=True)))
    assert_located(lines, 3, "'art/picture.png' is not a PNG or JPEG image deckwright can read")


def test_a_file_that_is_not_a_picture_is_said_to_be_one_in_words(tiny):
    lines = errors_of(picture_game(tiny, b"not a picture at all"))
    assert_located(lines, 3, "'art/picture.png' is not a PNG or JPEG image deckwright can read (not a picture file)")
    assert not any("BytesIO" in line for line in lines)


def test_a_misspelt_picture_is_answered_with_the_picture_beside_it(tiny):
    layout = hero_layout(art='{kind: image, src: art/pictur.png, left: 0, top: 0, width: 20, height: 20}')
    lines = errors_of(tiny({HERO: layout, "art/picture.png": png(40, 40)}))
    assert_located(lines, 3, "no image 'art/pictur.png' in the game folder; did you mean 'art/picture.png'?")


def test_a_good_picture_passes(tiny):
    assert errors_of(picture_game(tiny, png(40, 40))) == []


def test_indent_takes_text_and_never_extends_a_list(tiny):
    """Jinja2's |indent adds a line break with +=, which would extend a list in place: refused before it runs."""
    lines = errors_of(tiny({HERO: hero_layout("\"{{ ([1, 2]|indent)|length }}\"")}))
    assert_located(lines, 3, "|indent takes text, got list")
    assert errors_of(tiny({HERO: hero_layout("\"{{ 'a\\nb'|indent(2) }}\"")}, name="plain")) == []
