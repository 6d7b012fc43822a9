"""Display lists as PNG images (Pillow), e.g. the 300 dpi files print shops ask for.

Shapes are drawn at ``SUPERSAMPLE`` times the resolution and scaled down, so
edges are smooth; text is drawn with the same TrueType files as the PDF, its
masks rendered at that resolution too and, for the runs no later shape covers,
averaged and blended into the scaled-down face (``raster_text``).

A Rasterizer paints many faces: what they share (a frame, a text run) is painted once and reused
(``raster_reuse``), with the same pixels as painting each face from scratch (``reuse=False``).
"""
from __future__ import annotations

import io
import math
from pathlib import Path

from deckwright.generator.layout import displaylist as dl
from deckwright.generator.layout.fonts import FontBook

from .raster_reuse import Background, BoundedStore, aligned
from .raster_text import Split, reach, split_text, word_masks

SUPERSAMPLE = 2
_CURVE_STEPS = 12
# Bytes kept between faces: a poker card's frame at 300 dpi with bleed is 19 MB (supersampled and reduced),
# so one fits; at the online-play sheets' 164 dpi, under 6 MB. Text masks and icons' shapes are a few KB
# each (a long line of body text at 300 dpi: 130 KB, and seldom drawn twice).
FRAME_BUDGET = 36 * 2 ** 20
TEXT_BUDGET = 2 * 2 ** 20
WORD_BUDGET = 8 * 2 ** 20  # words' masks at the supersampled size: 5-20 KB each (raster_text.word_masks)
SHAPE_BUDGET = 4 * 2 ** 20
PICTURE_BUDGET = 32 * 2 ** 20  # pictures at their painted size: a poker card's full art at 300 dpi is 4 MB


class Rasterizer:
    def __init__(self, fonts: FontBook | dict[str, Path | bytes], reuse: bool = True, text_at_output: bool = True):
        """``fonts``: the game's FontBook, or its ``files()`` (what a worker process is handed). ``reuse``: keep
        frames and text masks from face to face. ``text_at_output``: blend the text runs ``raster_text`` allows
        into the face at the output resolution (False: every run on the supersampled canvas, as before)."""
        self.font_files = fonts.files() if isinstance(fonts, FontBook) else fonts
        self._fonts: dict[tuple[str, float], object] = {}
        # the class's functions, not bound methods: a Rasterizer in no reference cycle frees its kept frames at once
        self._handlers = dl.handlers(type(self))
        self._frames: BoundedStore[Background] = BoundedStore(FRAME_BUDGET if reuse else 0)
        self._frames_seen: set = set()  # a frame is kept from its second face on: a sheet drawn once costs nothing
        self._masks: BoundedStore[tuple] = BoundedStore(TEXT_BUDGET if reuse else 0)
        self._shapes: BoundedStore[tuple] = BoundedStore(SHAPE_BUDGET if reuse else 0)  # paths' polygons and masks
        self._pictures: BoundedStore = BoundedStore(PICTURE_BUDGET if reuse else 0)  # art as decoded and sized
        self._touched: list | None = None  # while a face is painted on a kept frame: the boxes its items cover
        # text masks kept through the Pillow internals ImageDraw.text uses itself; a Pillow without them gets
        # ImageDraw.text (the same pixels, each run rendered again)
        self.keeps_text_masks = reuse and pillow_text_internals()
        self.text_at_output = text_at_output
        self._output_masks: BoundedStore[tuple] = BoundedStore(TEXT_BUDGET if reuse else 0)
        self._words: BoundedStore[tuple] = BoundedStore(WORD_BUDGET if reuse else 0)

    def image(self, display: dl.DisplayList, dpi: float = 300, bleed: bool = True):
        """A Pillow RGB image of the face, with its bleed (or cut at the trim)."""
        margin = display.bleed if bleed else 0.0
        px_per_mm = dpi / 25.4
        width = round((display.width + 2 * margin) * px_per_mm)
        height = round((display.height + 2 * margin) * px_per_mm)
        self._scale = px_per_mm * SUPERSAMPLE
        self._origin = margin
        size = (width * SUPERSAMPLE, height * SUPERSAMPLE)
        frame_items = _leading_groups(display.items)
        own = display.items[len(frame_items):]
        split = split_text(own) if self.text_at_output else Split(own, ())
        key = (size, self._scale, margin, frame_items)
        frame = self._frames.get(key) if frame_items else None
        if frame is None and frame_items and key in self._frames_seen and self._frames.budget:
            full = self._painted(size, frame_items)
            frame = Background(full, full.reduce(SUPERSAMPLE))
            self._frames.put(key, frame, frame.size_in_bytes)
        elif frame_items:
            self._frames_seen.add(key)
        if frame is None:
            # the canvas is an exact multiple of the output, so averaging each block is the whole antialiasing
            face = self._painted(size, frame_items + split.supersampled).reduce(SUPERSAMPLE)
        else:
            self._use(frame.full)
            kept = frame.keep([aligned(self._reach(item), SUPERSAMPLE, size) for item in split.supersampled])
            self._touched = []
            try:
                self._items(split.supersampled)
            except BaseException:
                self._frames.drop(key)  # it may hold part of this face
                raise
            finally:
                touched, self._touched = self._touched, None
            face, unspoilt = frame.face(kept, touched, SUPERSAMPLE)
            if not unspoilt:  # an item painted beyond its reach: the frame is painted again for the next face
                self._frames.drop(key)
        for run in split.at_output:
            self._text_at_output(face, run)
        return face

    def _reach(self, item) -> tuple[float, float, float, float]:
        """The canvas pixels an item can paint in (``raster_text.reach``; a run of several lines: all of them)."""
        if isinstance(item, dl.Text) and "\n" in item.text:
            return 0, 0, *self._canvas.size
        if isinstance(item, dl.Group):
            boxes = [self._reach(inner) for inner in item.items] or [(0, 0, 0, 0)]
            return (min(box[0] for box in boxes), min(box[1] for box in boxes),
                    max(box[2] for box in boxes), max(box[3] for box in boxes))
        left, top, right, bottom = reach(item)
        return (*self._xy(left, top), *self._xy(right, bottom))

    def _painted(self, size: tuple[int, int], items) -> object:
        from PIL import Image

        canvas = Image.new("RGB", size, "#ffffff")
        self._use(canvas)
        self._items(items)
        return canvas

    def save_png(self, display: dl.DisplayList, path: Path, dpi: float = 300, bleed: bool = True) -> None:
        from deckwright.generator.render.png import save_png

        # rows unfiltered, deflated at once: a third of the time of Pillow's writer at its default level 6 for the
        # same size with zlib (a poker card at 300 dpi: 13 against 39 ms, 78 KB either way), the same pixels
        save_png(self.image(display, dpi, bleed), path, dpi)

    def _use(self, canvas) -> None:
        from PIL import ImageDraw

        self._canvas = canvas
        self._draw = ImageDraw.Draw(canvas, "RGBA")  # blends what it draws
        self._solid = ImageDraw.Draw(canvas)  # overwrites: the same pixels for opaque colours, and much faster

    def _pen(self, opacity: float):
        return self._solid if opacity >= 1 else self._draw

    def _touch(self, left: float, top: float, right: float, bottom: float) -> None:
        """Notes the canvas pixels an item painted (not counting ``raster_reuse.MARGIN``)."""
        if self._touched is not None:
            self._touched.append((left, top, right, bottom))

    # -- items -----------------------------------------------------------

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return (x + self._origin) * self._scale, (y + self._origin) * self._scale

    def _items(self, items) -> None:
        draw = self._handlers
        for item in items:
            draw[type(item)](self, item)

    def _group(self, group: dl.Group) -> None:
        self._items(group.items)

    @staticmethod
    def _rgba(color: str | None, opacity: float = 1.0):
        if color is None:
            return None
        return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5)) + (round(255 * opacity),)

    def _rect(self, r: dl.Rect) -> None:
        x0, y0 = self._xy(r.x, r.y)
        x1, y1 = self._xy(r.x + r.w, r.y + r.h)
        width = self._outline(r.stroke_width, x1 - x0, y1 - y0) if r.stroke else 0
        box = [x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)]  # a hairline under a pixel wide: one pixel
        fill, outline = self._rgba(r.fill, r.opacity), self._rgba(r.stroke, r.opacity)
        pen = self._pen(r.opacity)
        if r.radius > 0:
            pen.rounded_rectangle(box, radius=r.radius * self._scale, fill=fill, outline=outline, width=width)
        else:
            pen.rectangle(box, fill=fill, outline=outline, width=width)
        self._touch(x0, y0, x1, y1)

    def _outline(self, stroke_width: float, across: float, down: float) -> int:
        """Pixels of an outline Pillow draws inside a box of ``across`` x ``down`` pixels: at most what fills the
        box, which looks the same. Pillow draws an outline ring by ring, and a stroke of metres made millions."""
        return min(max(1, round(stroke_width * self._scale)), int(min(abs(across), abs(down)) // 2) + 1)

    def _ellipse(self, e: dl.Ellipse) -> None:
        x0, y0 = self._xy(e.x, e.y)
        x1, y1 = self._xy(e.x + e.w, e.y + e.h)
        width = self._outline(e.stroke_width, x1 - x0, y1 - y0) if e.stroke else 0
        self._pen(e.opacity).ellipse([x0, y0, x1, y1], fill=self._rgba(e.fill, e.opacity),
                                     outline=self._rgba(e.stroke, e.opacity), width=width)
        self._touch(x0, y0, x1, y1)

    def _polygons(self, commands) -> list[list[tuple[float, float]]]:
        polygons: list[list[tuple[float, float]]] = []
        current: list[tuple[float, float]] = []
        pen = (0.0, 0.0)
        for command in commands:
            op = command[0]
            if op == "M":
                if len(current) > 1:
                    polygons.append(current)
                pen = self._xy(command[1], command[2])
                current = [pen]
            elif op == "L":
                pen = self._xy(command[1], command[2])
                current.append(pen)
            elif op == "C":
                p1, p2, p3 = self._xy(*command[1:3]), self._xy(*command[3:5]), self._xy(*command[5:7])
                for i in range(1, _CURVE_STEPS + 1):
                    t = i / _CURVE_STEPS
                    u = 1 - t
                    current.append((u ** 3 * pen[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
                                    u ** 3 * pen[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1]))
                pen = p3
        if len(current) > 1:
            polygons.append(current)
        return polygons

    def _path(self, p: dl.Path) -> None:
        from PIL import Image

        shape = self._shape(p.commands)
        if shape is None:
            return
        polygons, (left, top, right, bottom) = shape
        reach = max(1, round(p.stroke_width * self._scale)) if p.stroke else 0
        self._touch(left - reach, top - reach, right + reach, bottom + reach)
        if p.fill:
            if len(polygons) == 1:
                self._pen(p.opacity).polygon(polygons[0], fill=self._rgba(p.fill, p.opacity))
            else:
                alpha, corner = self._even_odd(p.commands, polygons, p.opacity)
                self._canvas.paste(Image.new("RGB", alpha.size, self._rgba(p.fill)[:3]), corner, alpha)
        if p.stroke:
            width = max(1, round(p.stroke_width * self._scale))
            for polygon in polygons:
                self._draw.line(polygon, fill=self._rgba(p.stroke, p.opacity), width=width, joint="curve")

    def _shape(self, commands) -> tuple | None:
        """The path's polygons on the canvas and the box around them (None when it has none), kept: icons repeat
        at the same place from face to face."""
        key = ("polygons", commands, self._scale, self._origin)
        shape = self._shapes.get(key)
        if shape is None:
            polygons = self._polygons(commands)
            if not polygons:
                return None
            xs = [x for polygon in polygons for x, _ in polygon]
            ys = [y for polygon in polygons for _, y in polygon]
            shape = (polygons, (min(xs), min(ys), max(xs), max(ys)))
            self._shapes.put(key, shape, 64 * len(xs))
        return shape

    def _even_odd(self, commands, polygons, opacity: float) -> tuple:
        """The alpha mask of an even-odd fill and its top-left corner on the canvas, kept like ``_shape``: each
        subpath flips the pixels it covers (worked in the paths' bounding box)."""
        from PIL import Image, ImageChops, ImageDraw

        key = ("even-odd", commands, self._scale, self._origin, opacity, self._canvas.size)
        kept = self._shapes.get(key)
        if kept is not None:
            return kept
        xs = [pt[0] for polygon in polygons for pt in polygon]
        ys = [pt[1] for polygon in polygons for pt in polygon]
        # the mask covers the paths' box on the canvas only: a path reaching metres off the card needs no more
        width, height = self._canvas.size
        left, top = max(0, int(min(xs)) - 1), max(0, int(min(ys)) - 1)
        size = (max(1, min(width, int(max(xs)) + 2) - left), max(1, min(height, int(max(ys)) + 2) - top))
        mask = Image.new("1", size, 0)
        for polygon in polygons:
            layer = Image.new("1", size, 0)
            ImageDraw.Draw(layer).polygon([(px - left, py - top) for px, py in polygon], fill=1)
            mask = ImageChops.logical_xor(mask, layer)
        alpha = mask.convert("L")
        if opacity < 1:
            alpha = alpha.point(lambda v: round(v * opacity))
        self._shapes.put(key, (alpha, (left, top)), size[0] * size[1])
        return alpha, (left, top)

    def _font(self, name: str, size_px: float):
        from PIL import ImageFont

        key = (name, round(size_px, 2))
        font = self._fonts.get(key)
        if font is None:
            file = self.font_files[name]
            source = io.BytesIO(file) if isinstance(file, bytes) else str(file)
            font = self._fonts[key] = ImageFont.truetype(source, size=key[1], layout_engine=ImageFont.Layout.BASIC)
        return font

    def _text(self, t: dl.Text) -> None:
        """What ``ImageDraw.text(anchor="ls")`` does for one line, with the glyph mask kept for the next time the
        same run starts at the same fraction of a pixel."""
        size_px = t.size * 25.4 / 72 * self._scale
        x, y = self._xy(t.x, t.y)
        font = self._font(t.font, size_px)
        fill = self._rgba(t.color)
        if "\n" in t.text:  # measured runs are single lines; ImageDraw would lay this out as several
            self._draw.text((x, y), t.text, font=font, fill=fill, anchor="ls")
            self._touch(0, 0, *self._canvas.size)
            return
        if not self.keeps_text_masks:
            self._draw.text((x, y), t.text, font=font, fill=fill, anchor="ls")
            self._touch(*self._draw.textbbox((x, y), t.text, font=font, anchor="ls"))
            return
        ink = self._draw._getink(fill)[0]
        start = (math.modf(x)[0], math.modf(y)[0])
        key = (t.font, round(size_px, 2), t.text, ink, start)
        run = self._masks.get(key)
        if run is None:
            run = font.getmask2(t.text, self._draw.fontmode, anchor="ls", ink=ink, start=start)
            self._masks.put(key, run, run[0].size[0] * run[0].size[1])
        mask, offset = run
        left, top = int(x) + offset[0], int(y) + offset[1]
        self._draw.draw.draw_bitmap((left, top), mask, ink)
        self._touch(left, top, left + mask.size[0], top + mask.size[1])

    def _text_at_output(self, face, t: dl.Text) -> None:
        """A run blended into the reduced ``face``: its mask rendered as ``_text`` renders it, on a supersampled
        patch that starts on a block boundary, averaged like the canvas (``raster_text``)."""
        size_px = t.size * 25.4 / 72 * self._scale
        x, y = self._xy(t.x, t.y)
        start = (math.modf(x)[0], math.modf(y)[0])
        key = (t.font, round(size_px, 2), t.text, start, int(x) % SUPERSAMPLE, int(y) % SUPERSAMPLE)
        kept = self._output_masks.get(key)
        if kept is None:
            kept = self._output_mask(t, size_px, x, y)
            self._output_masks.put(key, kept, kept[0].size[0] * kept[0].size[1] if kept[0] else 1)
        mask, (left, top) = kept
        if mask is None:  # blanks only
            return
        face.paste(self._rgba(t.color)[:3], ((int(x) + left) // SUPERSAMPLE, (int(y) + top) // SUPERSAMPLE), mask)

    def _output_mask(self, t: dl.Text, size_px: float, x: float, y: float) -> tuple:
        """The run's mask averaged to the output resolution and where it goes: its top-left corner on the canvas
        less ``int(x)``, ``int(y)`` (a multiple of ``SUPERSAMPLE`` once those are added)."""
        from PIL import Image, ImageDraw

        font = self._font(t.font, size_px)
        start = (math.modf(x)[0], math.modf(y)[0])
        pieces = None
        if self.keeps_text_masks:  # what ImageDraw.text renders, word by word
            pieces = word_masks(font, (t.font, round(size_px, 2)), t.text, start, self._words)
            if not pieces:
                return None, (0, 0)
            ink = (min(piece[0] for piece in pieces), min(piece[1] for piece in pieces),
                   max(piece[0] + piece[2].size[0] for piece in pieces),
                   max(piece[1] + piece[2].size[1] for piece in pieces))
        else:
            ink = font.getbbox(t.text, anchor="ls")
            ink = (ink[0] - 2, ink[1] - 2, ink[2] + 3, ink[3] + 3)  # room for where the start's fraction moves it
        step = SUPERSAMPLE
        left = (int(x) + ink[0]) // step * step - int(x)
        top = (int(y) + ink[1]) // step * step - int(y)
        left, top = min(left, left % -step), min(top, top % -step)  # at or before int(x), int(y): see below
        patch = Image.new("L", (-(-(ink[2] - left) // step) * step, -(-(ink[3] - top) // step) * step), 0)
        draw = ImageDraw.Draw(patch)
        if pieces is not None:
            for piece_left, piece_top, mask in pieces:
                draw.draw.draw_bitmap((piece_left - left, piece_top - top), mask, 255)
        else:  # at a point of the same fraction (ImageDraw splits it from the integer part as int() does)
            draw.text((start[0] - left, start[1] - top), t.text, font=font, fill=255, anchor="ls")
        return patch.reduce(step), (left, top)

    def _image(self, im: dl.Image) -> None:
        from PIL import Image

        x0, y0 = self._xy(im.x, im.y)
        x1, y1 = self._xy(im.x + im.w, im.y + im.h)
        size = (max(1, round(x1 - x0)), max(1, round(y1 - y0)))
        left, top = round(x0), round(y0)
        shown = self._part_to_scale(size, left, top)
        if shown is None:
            return
        key = (im.path, size, shown)
        picture = self._pictures.get(key)
        if picture is None:  # a picture many cards share (a frame's art, a 40-megapixel one) is decoded once
            with Image.open(im.path) as source:
                picture = _scaled_part(source.convert("RGBA"), size, shown)
            self._pictures.put(key, picture, 4 * picture.width * picture.height)
        left, top = left + shown[0], top + shown[1]
        mask = picture if im.opacity >= 1 else picture.getchannel("A").point(lambda v: round(v * im.opacity))
        self._canvas.paste(picture, (left, top), mask)
        self._touch(left, top, left + picture.width, top + picture.height)

    def _part_to_scale(self, size: tuple[int, int], left: int, top: int) -> tuple[int, int, int, int] | None:
        """The part (left, top, right, bottom) of a picture scaled to ``size`` at (left, top) on the canvas to
        resample: all of it when it has no more pixels than the canvas (the pixels it always had), else only
        what is on the canvas (a thin picture covering its box scales to millions of pixels, nearly all cut
        off); None when nothing is."""
        width, height = self._canvas.size
        shown = (max(0, -left), max(0, -top), min(size[0], width - left), min(size[1], height - top))
        if shown[0] >= shown[2] or shown[1] >= shown[3]:
            return None
        return (0, 0, *size) if size[0] * size[1] <= width * height else shown

    def _clip(self, clip: dl.Clip) -> None:
        from PIL import Image, ImageDraw

        saved_canvas, touched = self._canvas, self._touched
        layer = saved_canvas.copy()
        self._use(layer)
        self._touched = None  # its items are painted on the layer; only the clip's box reaches the canvas
        try:
            self._items(clip.items)
        finally:
            self._touched = touched
        mask = Image.new("L", layer.size, 0)
        x0, y0 = self._xy(clip.x, clip.y)
        x1, y1 = self._xy(clip.x + clip.w, clip.y + clip.h)
        ImageDraw.Draw(mask).rectangle([x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)], fill=255)
        saved_canvas.paste(layer, (0, 0), mask)
        self._use(saved_canvas)
        self._touch(x0, y0, x1, y1)


def _scaled_part(picture, size: tuple[int, int], part: tuple[int, int, int, int]):
    """The ``part`` (left, top, right, bottom) of ``picture`` scaled to ``size``, resampling only the source
    pixels under it (Pillow's resize of a box: close to, not bit for bit, scaling it all and cutting it out)."""
    from PIL import Image

    if part == (0, 0, *size):
        return picture.resize(size, Image.LANCZOS)
    across, down = picture.width / size[0], picture.height / size[1]
    box = (part[0] * across, part[1] * down, part[2] * across, part[3] * down)
    return picture.resize((part[2] - part[0], part[3] - part[1]), Image.LANCZOS, box=box)


def pillow_text_internals() -> bool:
    """Whether this Pillow has what ``ImageDraw.text`` draws a line with (its ink, ``getmask2(start=)`` and the
    core's ``draw_bitmap``), which the rasteriser calls itself to keep glyph masks: private names, so asked."""
    import inspect

    from PIL import Image, ImageDraw, ImageFont

    getmask2 = getattr(ImageFont.FreeTypeFont, "getmask2", None)
    return (hasattr(ImageDraw.ImageDraw, "_getink") and getmask2 is not None
            and "start" in inspect.signature(getmask2).parameters
            and hasattr(ImageDraw.Draw(Image.new("L", (1, 1))).draw, "draw_bitmap"))


def _leading_groups(items: tuple) -> tuple:
    """The face's first items that are Groups: what it shares with other faces."""
    count = 0
    while count < len(items) and isinstance(items[count], dl.Group):
        count += 1
    return items[:count]
