"""The PNG painter reuses what faces share (a frame, text masks): the pixels are exactly those of every face
painted from scratch, whatever it painted before."""
from __future__ import annotations

import pytest
from PIL import Image

from deckwright.generator import BUNDLED_GAMES
from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.render.raster import SUPERSAMPLE, Rasterizer
from deckwright.generator.render.raster_reuse import BoundedStore, aligned, merged
from deckwright.rules.load import bundled_games, load_game

FRAME = dl.Group((dl.Rect(-1, -1, 65.5, 90.9, fill="#35506b"),
                  dl.Rect(3, 3, 57.5, 82.9, fill="#fbf7ef", stroke="#1d1a24", stroke_width=0.4, radius=2)))


def _face(number: int, picture: str, font: str) -> dl.DisplayList:
    """A face of every item kind, its own items moved a little by ``number``."""
    shift = number * 0.37
    star = (("M", 30 + shift, 40), ("L", 40, 60), ("L", 20 + shift, 48), ("L", 40, 48), ("L", 20, 60), ("Z",))
    ring = (("M", 8, 40), ("L", 18, 40), ("L", 18, 50), ("L", 8, 50), ("Z",),
            ("M", 10, 42), ("C", 14, 41, 16, 44, 16, 48), ("L", 10, 48), ("Z",))  # the same on every face
    items = (
        FRAME,
        dl.Text(6 + shift, 12, f"Card {number}", font, 12, "#ffffff"),
        dl.Text(6, 20, "the same line on every card", font, 8, "#1d1a24"),
        dl.Rect(10, 30 + shift, 20, 8, fill="#8c1c13", opacity=0.5),
        dl.Ellipse(40, 25, 10 + shift, 10, fill="#2f4858", stroke="#ffffff", stroke_width=0.5),
        dl.Path(star, fill="#c9a227", stroke="#1d1a24", stroke_width=0.3),
        dl.Path(ring, fill="#2f4858", opacity=0.8),
        dl.Path((("M", 5, 70), ("C", 15, 60 + shift, 25, 80, 35, 70)), stroke="#8c1c13", stroke_width=0.6),
        dl.Clip(44, 62, 12, 14, (dl.Image(40, 60, 20, 20, picture),)),
        dl.Group((dl.Text(50, 80 - shift, str(number), font, 14, "#8c1c13"),)),
    )
    return dl.DisplayList(f"face {number}", 63.5, 88.9, 1.0, items)


@pytest.fixture(scope="module")
def picture(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("art") / "art.png"
    Image.radial_gradient("L").convert("RGB").save(path)
    return str(path)


@pytest.mark.parametrize("dpi", [150, 300])
def test_faces_sharing_a_frame_have_the_pixels_of_faces_painted_alone(picture, dpi):
    fonts = shipped_fonts()
    font = sorted(fonts.files())[0]
    reusing = Rasterizer(fonts)
    kept = []
    for number in range(5):
        face = _face(number, picture, font)
        alone = Rasterizer(fonts, reuse=False).image(face, dpi)
        assert reusing.image(face, dpi).tobytes() == alone.tobytes(), face.name
        kept += [frame for frame, _ in reusing._frames._entries.values()]
    # kept from the second face on, and never spoilt: every item painted inside its reach, the frame put back
    assert len(kept) == 4 and all(frame is kept[0] for frame in kept)


def test_a_picture_many_faces_show_is_decoded_once(picture, monkeypatch):
    """A 40-megapixel picture on every card of a deck was decoded again for each card's PNG (the security
    review measured 42 s for 30 print-shop cards); the faces' pixels are those painted alone (above)."""
    opened = []
    open_ = Image.open
    monkeypatch.setattr(Image, "open", lambda path, *a, **k: opened.append(path) or open_(path, *a, **k))
    fonts = shipped_fonts()
    font = sorted(fonts.files())[0]
    reusing = Rasterizer(fonts)
    for number in range(5):
        reusing.image(_face(number, picture, font), 150)
    assert opened == [picture]


def test_a_pillow_without_the_text_internals_paints_the_same_pixels_with_imagedraw_text(picture):
    """The glyph-mask path calls what ImageDraw.text calls inside (private names); without them, ImageDraw.text
    itself paints each run, on a kept frame too, and the pixels are the same."""
    fonts = shipped_fonts()
    font = sorted(fonts.files())[0]
    masks, plain = Rasterizer(fonts), Rasterizer(fonts)
    plain.keeps_text_masks = False
    assert masks.keeps_text_masks  # this Pillow has them (pillow>=10)
    for number in range(4):
        face = _face(number, picture, font)
        assert plain.image(face, 150).tobytes() == masks.image(face, 150).tobytes(), face.name
    assert not plain._masks._entries
    assert masks._output_masks._entries  # the runs painted at the output resolution (raster_text)


@pytest.mark.parametrize("folder", bundled_games(BUNDLED_GAMES), ids=lambda folder: folder.name)
def test_bundled_faces_are_the_same_painted_in_a_row_or_alone(folder):
    game = load_game(folder)
    faces = Faces(game)
    reusing, alone = Rasterizer(faces.fonts), Rasterizer(faces.fonts, reuse=False)
    for card in list(game.cards)[:6]:
        face = faces.front(card, 0.3)
        assert reusing.image(face, 120).tobytes() == alone.image(face, 120).tobytes(), card.id


def test_touched_boxes_grow_to_whole_blocks_inside_the_canvas_and_merge_when_they_overlap():
    assert aligned((3.2, 5.0, 7.9, 6.0), 2, (100, 100)) == (0, 2, 10, 10)
    assert aligned((-10, -10, 500, 8), 2, (100, 100)) == (0, 0, 100, 12)
    assert merged([(0, 0, 4, 4), (2, 2, 6, 6), (10, 10, 12, 12), (5, 5, 5, 9)]) == [(0, 0, 6, 6), (10, 10, 12, 12)]
    assert merged([(0, 0, 4, 4), (4, 0, 8, 4)]) == [(0, 0, 4, 4), (4, 0, 8, 4)]  # touching is not overlapping


def test_the_store_forgets_its_oldest_entries_beyond_its_budget():
    store = BoundedStore(10)
    store.put("a", 1, 4)
    store.put("b", 2, 4)
    store.put("c", 3, 4)
    store.put("huge", 4, 11)
    assert (store.get("a"), store.get("b"), store.get("c"), store.get("huge")) == (None, 2, 3, None)


@pytest.mark.parametrize("shape", [dl.Rect, dl.Ellipse])
def test_an_outline_wider_than_its_shape_paints_as_one_that_just_fills_it(shape):
    """Pillow paints an outline ring by ring: one of metres took minutes. Rings past the middle paint nothing new,
    so the painter stops there, and the pixels are those of a stroke that just fills the shape."""
    def face(stroke_width: float) -> dl.DisplayList:
        items = (dl.Rect(0, 0, 30, 30, fill="#ffffff"),
                 shape(5, 5, 12, 8, fill="#2f4858", stroke="#8c1c13", stroke_width=stroke_width))
        return dl.DisplayList("outline", 30, 30, 0.0, items)

    painter = Rasterizer(shipped_fonts(), reuse=False)
    filling = painter.image(face(4.5), 300)  # 53 pixels of stroke at 300 dpi: past the middle of 8 mm (94 px)
    assert painter.image(face(9000), 300).tobytes() == filling.tobytes()
    assert filling.getpixel((130, 130))[:3] == (0x8C, 0x1C, 0x13)  # the middle of the shape: all stroke


def test_an_even_odd_fill_reaching_metres_off_the_card_is_masked_on_the_card_only():
    """Its mask was the drawing's size: a path to 100 m off a card of 3 cm asked for terapixels (a MemoryError)."""
    def face(far: float) -> dl.DisplayList:
        triangle_and_hole = (("M", 0, 0), ("L", far, 0), ("L", far, far), ("Z",),
                             ("M", 15, 5), ("L", 25, 5), ("L", 25, 12), ("Z",))
        items = (dl.Rect(0, 0, 30, 30, fill="#ffffff"), dl.Path(triangle_and_hole, fill="#2f4858"))
        return dl.DisplayList("far", 30, 30, 0.0, items)

    painter = Rasterizer(shipped_fonts(), reuse=False)
    near = painter.image(face(200), 300)
    assert painter.image(face(100_000), 300).tobytes() == near.tobytes()
    assert near.getpixel((300, 50))[:3] == (0x2F, 0x48, 0x58) and near.getpixel((230, 70))[:3] == (0xFF, 0xFF, 0xFF)


def test_a_thin_picture_covering_its_box_is_scaled_only_where_it_shows(tmp_path, monkeypatch):
    """1 x 5000 pixels covering a 40 x 60 mm box scale to 40 mm by 200 m: resized whole, some 472 x 2.4 million
    pixels, the build ran for minutes. Only the part on the canvas is resampled now."""
    path = tmp_path / "thin.png"
    Image.linear_gradient("L").resize((1, 5000)).save(path)
    scale = max(40 / 1, 60 / 5000)  # what fit: cover makes of it (measure.Measurer)
    picture = dl.Image(5 + (40 - scale) / 2, 5 + (60 - 5000 * scale) / 2, scale, 5000 * scale, str(path))
    face = dl.DisplayList("thin", 63.5, 88.9, 0.0, (dl.Rect(0, 0, 63.5, 88.9, fill="#ffffff"),
                                                    dl.Clip(5, 5, 40, 60, (picture,))))
    resize = Image.Image.resize
    largest = []

    def noted(im, size, *args, **kwargs):
        if im.size == (1, 5000):
            largest.append(size[0] * size[1])
            assert largest[-1] < 10_000_000, f"resized to {size}"  # before it takes minutes and gigabytes
        return resize(im, size, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "resize", noted)
    painted = Rasterizer(shipped_fonts(), reuse=False).image(face, 300)
    assert largest and max(largest) <= painted.width * painted.height * SUPERSAMPLE ** 2  # at most the canvas
    middle = painted.getpixel((round(25 / 25.4 * 300), round(35 / 25.4 * 300)))
    assert middle[:3] == pytest.approx((127, 127, 127), abs=2)  # the gradient's middle row, at the box's middle
