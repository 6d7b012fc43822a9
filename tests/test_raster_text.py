"""Text runs blended at the output resolution (render.raster_text): the pixels of painting every run
supersampled, within one level of rounding, and the order of painting kept where a later item covers a run."""
from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.render.raster import Rasterizer
from deckwright.generator.render.raster_text import split_text
from deckwright.rules.load import bundled_games, load_game

FONT = "Open Sans:regular"
CARD = dl.Rect(-1, -1, 65.5, 90.9, fill="#fbf7ef")


def _largest_difference(one: Image.Image, other: Image.Image) -> int:
    histogram = ImageChops.difference(one, other).convert("L").histogram()
    return max(level for level, count in enumerate(histogram) if count)


def test_a_run_that_a_later_item_covers_stays_on_the_supersampled_canvas():
    under = dl.Text(5, 20, "under the band", FONT, 9, "#1d1a24", width=22)
    over = dl.Text(5, 50, "over the band", FONT, 9, "#ffffff", width=21)
    band = dl.Rect(0, 15, 63.5, 10, fill="#35506b")
    multiline = dl.Text(5, 70, "two\nlines", FONT, 9, "#1d1a24", width=10)
    split = split_text((CARD, under, dl.Group((band, dl.Rect(0, 45, 63.5, 8, fill="#8c1c13"))), over, multiline))
    assert split.supersampled[:3] == (CARD, under, band) and multiline in split.supersampled
    assert split.at_output == (over,)


def test_a_covered_run_is_hidden_and_an_uncovered_one_shows():
    under = dl.Text(5, 20, "Hidden", FONT, 12, "#000000", width=14)
    shown = dl.Text(5, 60, "Shown", FONT, 12, "#000000", width=13)
    face = dl.DisplayList("order", 63.5, 88.9, 0.0, (CARD, under, dl.Rect(0, 14, 63.5, 9, fill="#35506b"), shown))
    image = Rasterizer(shipped_fonts()).image(face, 100)
    band = image.crop((20, 58, 80, 88))  # 14-23 mm at 100 dpi
    assert band.getcolors() == [(60 * 30, (0x35, 0x50, 0x6B))]
    words = image.crop((18, 210, 80, 240)).convert("L")
    assert words.getextrema()[0] < 60  # dark ink of the run drawn after everything


@pytest.mark.parametrize("dpi", [120, 300])
def test_runs_at_the_output_resolution_have_the_pixels_of_supersampled_runs_within_one_level(dpi):
    fonts = shipped_fonts()
    items = [CARD, dl.Ellipse(40, 10, 12, 12, fill="#8c1c13")]
    for line in range(12):
        x, y = 4 + line * 0.173, 8 + line * 6.37  # every fraction of a pixel
        items.append(dl.Text(x, y, f"Line {line} fox", FONT, 6 + line, "#1d1a24", width=30))  # left of the disc
    items.append(dl.Text(44, 17.5, "7", "Open Sans:bold", 12, "#ffffff", width=2.4))  # on the ellipse
    face = dl.DisplayList("runs", 63.5, 88.9, 1.0, tuple(items))
    at_output = Rasterizer(fonts).image(face, dpi)
    supersampled = Rasterizer(fonts, text_at_output=False).image(face, dpi)
    assert _largest_difference(at_output, supersampled) <= 1
    assert _largest_difference(at_output, Image.new("RGB", at_output.size, "#fbf7ef")) > 150  # the text is there


@pytest.mark.parametrize("folder", bundled_games(BUNDLED_GAMES), ids=lambda folder: folder.name)
def test_bundled_faces_are_within_rounding_of_supersampled_text(folder):
    """Where a run crosses the edge of a shape inside a block of supersampled pixels, blending it into the block's
    average differs a little from averaging its blends: a few pixels a face, by a few levels (measured: at most 5,
    3 pixels in a million)."""
    game = load_game(folder)
    faces = Faces(game)
    at_output, supersampled = Rasterizer(faces.fonts), Rasterizer(faces.fonts, text_at_output=False)
    for card in list(game.cards)[:4]:
        face = faces.front(card, 0.3)
        one, other = at_output.image(face, 150), supersampled.image(face, 150)
        histogram = ImageChops.difference(one, other).convert("L").histogram()
        assert _largest_difference(one, other) <= 8 and sum(histogram[2:]) <= one.width * one.height // 10_000, card.id


@pytest.mark.parametrize("font", sorted(shipped_fonts().files()))
def test_runs_put_together_from_their_words_have_the_pixels_of_the_run_rendered_whole(font):
    """Each word's mask is rendered once and kept (raster_text.word_masks); ImageDraw.text renders the run whole
    (the path a Pillow without the internals takes): the same pixels, in every shipped font, from every fraction
    of a pixel, with kerning and punctuation."""
    words = ("AVAST", "Wolf's", "(draw)", "two,", "fine-tuned", "Yoke;", "\u00e9t\u00e9", "1,024", "\u2014", "ff", "To")
    items = [CARD]
    for line in range(10):
        text = " ".join(words[(line * 3 + k) % len(words)] for k in range(4 + line % 3))
        items.append(dl.Text(1.5 + line * 0.0913, 6 + line * 8.117, text, font, 7 + line * 1.3, "#1d1a24", width=60))
    face = dl.DisplayList("words", 63.5, 88.9, 1.0, tuple(items))
    by_words, whole = Rasterizer(shipped_fonts()), Rasterizer(shipped_fonts())
    whole.keeps_text_masks = False
    for dpi in (150, 300):
        assert by_words.image(face, dpi).tobytes() == whole.image(face, dpi).tobytes()
    assert by_words._words._entries and not whole._words._entries
