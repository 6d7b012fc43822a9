"""A layout key that takes one of a few words (an icon's or a picture's ``fit``) or a number within bounds
(``opacity``) or a yes or no (``bleed``): another value is one located error, as a text box's ``align`` is, not silently the default."""
from __future__ import annotations

import pytest
from test_layout_limits import HERO, assert_located, errors_of, hero_layout


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # messages name tiny/layouts/hero.yaml


ICONS = "star: {paths: [{d: 'M 0 0 L 10 10 L 0 10 Z'}]}\n"


@pytest.mark.parametrize("box, words", [
    ("{kind: icon, icon: star, left: 1, top: 1, width: 5, height: 5, fit: cover}",
     "bad.fit: expected one of contain, stretch, got 'cover'"),
    ('{kind: rect, left: 1, top: 1, width: 5, height: 5, fill: "#000000", opacity: 5}',
     "bad.opacity: 5 is outside 0 to 1"),
    ('{kind: rect, left: 1, top: 1, width: 5, height: 5, fill: "#000000", opacity: -0.5}',
     "bad.opacity: -0.5 is outside 0 to 1"),
    ('{kind: rect, left: 0, top: 0, width: 5, height: 5, fill: "#000000", bleed: maybe}',
     "bad.bleed: expected true or false, got 'maybe'"),
])
def test_a_value_outside_its_choices_is_located(tiny, box, words):
    assert_located(errors_of(tiny({HERO: hero_layout(bad=box), "layouts/icons.yaml": ICONS})), 3, words)


def test_a_pictures_fit_outside_its_choices_is_located(tiny):
    from PIL import Image

    game = tiny({HERO: hero_layout(bad="{kind: image, src: art/x.png, left: 1, top: 1, width: 5, height: 5, "
                                       "fit: nope}")})
    (game / "art").mkdir(exist_ok=True)
    Image.new("RGB", (60, 60), "#336699").save(game / "art" / "x.png")
    assert_located(errors_of(game), 3, "bad.fit: expected one of cover, contain, stretch, got 'nope'")


@pytest.mark.parametrize("box", [
    "{kind: icon, icon: star, left: 1, top: 1, width: 5, height: 5, fit: stretch, opacity: 0.5}",
    '{kind: rect, left: 1, top: 1, width: 5, height: 5, fill: "#000000", opacity: 0}',
    '{kind: rect, left: 0, top: 0, width: 5, height: 5, fill: "#000000", bleed: "{{ 1 > 0 }}"}',
    '{kind: rect, left: 0, top: 0, width: 5, height: 5, fill: "#000000", bleed: no}',
])
def test_values_within_their_choices_pass(tiny, box):
    assert errors_of(tiny({HERO: hero_layout(bad=box), "layouts/icons.yaml": ICONS})) == []
