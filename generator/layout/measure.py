"""Measuring a layout for one card (or back, or sheet) into a display list.

Evaluates the layout's colours, vars and boxes with the card's values,
places every box, fits every text and returns a ``DisplayList``. Errors in
filling a layout (a missing field, a bad colour) are located problems.
"""
from __future__ import annotations

import itertools
import math
import re
from pathlib import Path
from typing import Any

from jinja2 import TemplateError, Undefined, UndefinedError

from deckwright.rules.data.pictures import check_image
from deckwright.rules.data.units import parse_length
from deckwright.rules.engine.frozen import replace
from deckwright.rules.problems import Loc, Problem, clip

from . import displaylist as dl
from .bounds import SLACK, Spill, ink_spill, spill, told
from .files import GEOMETRY_KEYS, Box, Layout, LayoutError, Value
from .fonts import FontBook, FontError
from .icons import Icon
from .memo import Memo
from .perface import FILLING
from .richtext import is_plain, parse
from .sandbox import FACE_SECONDS, LayoutLimit, OutOfBudget, as_text
from .textfit import MM_PER_PT, TextSetter, TextSpec

# Names that make a value differ from card to card (used to find boxes that can be drawn once and reused).
CARD_NAMES = frozenset({"card", "fmt", "labelled_fields", "item", "index", "number", "count", "copy"})
COLOR_KEYS = ("fill", "stroke", "color", "accent")
_FIELD_IN_TEXT = re.compile(r"(?:card\.([a-z_][a-z0-9_]*)|fmt\(\s*['\"]([a-z_][a-z0-9_]*))")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_LENGTH = 10_000.0  # mm: ten metres, far beyond any sheet
MAX_NUMBER = 1e9
_LIMITS = {"length": MAX_LENGTH, "number": MAX_NUMBER}
MAX_STROKE = 50.0  # mm: a frame wider than this is a filled shape
MAX_POINTS = 1000.0  # the largest text size
MAX_REPEAT = 1_000  # copies of one repeated box
MAX_ITEMS = 20_000  # boxes drawn on one face
# Icon path segments drawn on one face, boxes and inline icons together: 20 of the most complex icons an
# icons.yaml may hold (icons.MAX_ICON_SEGMENTS), 4,000 of the shipped ones (46 at most); some 50 MB of paths.
MAX_SEGMENTS = 200_000
MM_PER_INCH = 25.4
CONTEXTS_KEPT = 256  # contexts (deck, card type, palette, size) whose boxes without card values are remembered
TEXTS_KEPT = 4_000  # fitted texts remembered: a deck's type lines, numbers and repeated rules text are set once
TEXT_DEFAULTS = {"font": "Open Sans", "font_style": "regular", "size": 8.0, "min_size": 4.0, "leading": 1.2,
                 "align": "left", "valign": "top", "fit": "shrink"}
# A text box's ``fit``: shrink down to min_size; keep its size; or shrink, and text that still does not fit is
# drawn past the box without failing the check (any other text that does not fit is an error).
TEXT_FITS = ("shrink", "none", "overflow-ok")
ICON_FITS = ("contain", "stretch")  # the first of each is the default
FLAG_WORDS = ("true", "false", "yes", "no", "1", "0", "none", "")
IMAGE_FITS = ("cover", "contain", "stretch")


def evaluate(value: Value, ctx: dict) -> Any:
    if value.kind == "const":
        return value.raw
    if value.kind == "path":
        return value.code(ctx)
    if value.kind == "expr":
        return value.code(**ctx)
    return value.code.render(ctx)


def truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "no", "0", "none")
    return bool(value)


def length(value: Any, reference: float) -> float:
    """Millimetres from a number, a length with a unit, or a percentage of ``reference``."""
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            return finite(float(value.strip()[:-1]) * reference / 100, MAX_LENGTH, "mm")
        except ValueError:
            raise ValueFailure(f'"{value}" is not a percentage')
    try:
        return finite(parse_length(value), MAX_LENGTH, "mm")
    except OverflowError:
        raise ValueFailure(f"{clip(str(value), 40)} is not a usable value (at most {MAX_LENGTH:g}mm either way)")
    except ValueError as exc:
        raise ValueFailure(str(exc))


def finite(number: float, largest: float, unit: str = "") -> float:
    """The number if it is finite and at most ``largest`` either way; else ValueFailure."""
    if not math.isfinite(number) or abs(number) > largest:
        raise ValueFailure(f"{number:g}{unit} is not a usable value (at most {largest:g}{unit} either way)")
    return number


class ValueFailure(Exception):
    """A value that cannot be used; ``fatal`` ones (a used-up budget) end the whole face."""

    def __init__(self, message: str, fatal: bool = False):
        super().__init__(message)
        self.message = message
        self.fatal = fatal


class _Abandoned(Exception):
    """The face's budget is used up: its problems so far are reported, nothing more is evaluated."""


class _TooManySegments(Exception):
    """The face's icons come to more than MAX_SEGMENTS path segments (the box drawing them reports it)."""


def color_value(raw: Any, palette: dict) -> str | None:
    """A colour from ``#rrggbb``, a palette name, or none."""
    if raw is None:
        return None
    text = str(raw).strip()
    if text.lower() in ("", "none", "transparent"):
        return None
    if _HEX.match(text):
        return text.lower()
    if text in palette:
        return palette[text]
    raise ValueFailure(f'"{text}" is neither a colour (#rrggbb) nor a palette name ({", ".join(sorted(palette))})')


def resolve(value: Value, ctx: dict, kind: str = "any", reference: float = 0.0, palette: dict | None = None) -> Any:
    """A layout value filled in and converted (length, number, color, text or any); raises ValueFailure.

    Whatever the layout's Jinja2 does wrong (a missing value, a limit of the sandbox, a macro that calls itself
    forever, a number too large for a float) ends here as a ValueFailure, never as a traceback.
    """
    try:
        raw = evaluate(value, ctx)
        if isinstance(raw, Undefined):
            str(raw)  # a StrictUndefined (a missing attribute): raises the UndefinedError that names it
        if kind == "length":
            return None if raw is None else length(raw, reference)
        if kind == "number":
            try:
                return finite(float(raw), MAX_NUMBER)
            except OverflowError:
                raise ValueFailure(f"{clip(str(raw), 40)} is not a usable value (at most {MAX_NUMBER:g} either way)")
        if kind == "color":
            return color_value(raw, palette or {})
        if kind == "text":
            return "" if raw is None else as_text(raw)
        return raw
    except ValueFailure:
        raise
    except OutOfBudget as exc:
        raise ValueFailure(exc.message, fatal=True) from None
    except LayoutLimit as exc:
        raise ValueFailure(exc.message) from None
    except UndefinedError as exc:  # worded by LayoutUndefined: a missing value, named as the layout wrote it
        raise ValueFailure(exc.message or "a value is missing") from None
    except TemplateError as exc:
        raise ValueFailure(f"{type(exc).__name__}: {exc.message}" if getattr(exc, "message", None) else str(exc)) from None
    except RecursionError:
        raise ValueFailure("a macro or loop calls itself too deeply (RecursionError)") from None
    except MemoryError:
        raise ValueFailure("the value needs more memory than there is (MemoryError)", fatal=True) from None
    except SAID_IN_WORDS as exc:  # Python's own words say it ("division by zero"): no class name needed
        raise ValueFailure(str(exc)) from None
    except Exception as exc:  # KeyError, ...: the layout's mistake, at the layout's line
        raise ValueFailure(f"{type(exc).__name__}: {exc}") from None


_SEEN = object()  # in the memo of fitted texts: a text set once so far


def mm(length: float) -> str:
    """A length in a message, to a hundredth of a millimetre (a layout may compute -0.117647)."""
    return f"{round(length, 2):g}"

# the errors whose message reads on its own, without Python's class name (`unsupported operand type(s) for +:
# 'int' and 'str'`, `division by zero`); a KeyError's message is just the key, so it keeps its name
SAID_IN_WORDS = (TypeError, ValueError, ArithmeticError)



class Measurer:
    """Turns layouts into display lists for one game (fonts, icons and Jinja2 environment shared)."""

    def __init__(self, env, fonts: FontBook, icons: dict[str, Icon], game_root: Path, seconds: float = FACE_SECONDS):
        self.env = env
        self.seconds = seconds  # the time budget of one face
        self.fonts = fonts
        self.icons = icons
        self.game_root = game_root.resolve()
        self.setter = TextSetter(fonts, self._inline_icon)
        self._independent: dict[int, list[bool]] = {}
        self._fixed_geometry: dict[int, bool] = {}
        self._frames: dict[tuple, tuple[float, float, float, float]] = {}
        self._specs: dict[tuple, tuple] = {}
        self._colored: dict[tuple, TextSpec] = {}  # ((id(box), text style), colour) -> a cached spec in that colour
        # (text, spec or its key in _colored, box rectangle) -> (Fitted, its inline icons' path segments), or _SEEN
        self._fitted = Memo(TEXTS_KEPT)
        self._fields: dict[int, str] = {}  # id(box) -> the card field its text shows
        self._contexts = Memo(CONTEXTS_KEPT)  # what a face's context holds apart from its card -> (number, held)
        self._contexts_made = 0
        # (id(box), context number) -> (items, fits, art, boxes measured, spills, icon path segments drawn)
        self._fixed = Memo(CONTEXTS_KEPT * 4)
        self._images: dict[str, tuple[Path, tuple[int, int]] | str] = {}  # src -> (file, size) or why it cannot be used
        # icon path segments the face being measured may still draw; None between faces (the rulebook's text)
        self.segments_left: int | None = None

    # -- entry point -----------------------------------------------------

    def measure(self, layout: Layout, ctx: dict, width: float, height: float, bleed: float, name: str,
                who: str) -> dl.DisplayList:
        """``who`` names the card (or back, sheet) in messages, e.g. "card 'dire-rat'"."""
        self.problems: list[Problem] = []
        self.spills: list[Spill] = []  # the drawn boxes that pass the face's edge
        self.fits: list[dl.TextFit] = []
        self.art: list[dl.ArtFit] = []
        self.who = who
        self.layout = layout
        self.size = (width, height, bleed)
        self.trim = (-SLACK, -SLACK, width + SLACK, height + SLACK)  # a box inside it passes no edge
        self.boxes_left = MAX_ITEMS
        self.segments_left = MAX_SEGMENTS
        ctx = dict(ctx, width=width, height=height, bleed=bleed, parent_width=width, parent_height=height)
        try:
            with self.env.evaluating(self.seconds):
                items = self._measure(layout, ctx, width, height)
        except _Abandoned:
            items = []
        finally:
            self.segments_left = None
        spilled = [self._filled(loc, text, severity) for loc, text, severity in told(self.spills, bleed > 0)]
        if self.problems:
            raise LayoutError(self.problems + spilled)
        return dl.DisplayList(name, width, height, bleed, tuple(items), tuple(self.fits), tuple(self.art),
                              tuple(spilled))

    def _measure(self, layout: Layout, ctx: dict, width: float, height: float) -> list:
        independent = self._box_independence(layout)
        context = self._context_token(ctx) if any(independent) else None  # before vars: they may shadow a name
        palette = dict(ctx.get("colors") or {})
        ctx["colors"] = palette
        self.palette = palette
        for key, value in layout.vars.items():  # vars first: colours may depend on them
            ctx[key] = self._get(value, ctx, "vars", key)
        for key, value in layout.colors.items():
            color = self._get(value, ctx, "colors", key, kind="color", palette=palette)
            if color is not None or key not in palette:
                palette[key] = color
        if context is not None:
            context = self._context_token((context, tuple(palette.items())))
        items: list = []
        pending: list = []
        for box, fixed in zip(layout.boxes, independent):
            if fixed:
                pending.extend(self._fixed_box(box, ctx, (0.0, 0.0, width, height), context))
                continue
            if pending:
                items.append(dl.Group(tuple(pending)))
                pending = []
            items.extend(self._box(box, ctx, (0.0, 0.0, width, height), f"boxes.{box.name}", top=True))
        if pending:
            items.append(dl.Group(tuple(pending)))
        return items

    def _context_token(self, signature) -> int:
        """A number for what a face's context holds apart from the card (a ctx dict: its plain values, and the
        other objects by identity, held so that no other object takes their ids; or such a number and a
        palette): equal numbers, equal contexts."""
        if isinstance(signature, dict):
            held = []
            parts = []
            for key, value in signature.items():
                if key in CARD_NAMES or key == "colors":
                    continue
                if value is None or type(value) in (str, int, float, bool):
                    parts.append((key, value))
                else:
                    parts.append((key, id(value)))
                    held.append(value)
            signature = tuple(parts)
        else:
            held = None
        found = self._contexts.get(signature)
        if found is None:
            self._contexts_made += 1
            found = (self._contexts_made, held)
            self._contexts.put(signature, found)
        return found[0]

    def _fixed_box(self, box: Box, ctx: dict, parent: tuple, context: int) -> tuple:
        """A top-level box with no card values in it, measured once for each context it is drawn in (the same
        items, text fits, art fits and spills); one whose filling found a problem is measured every time."""
        key = (id(box), context)
        found = self._fixed.get(key)
        if found is not None and found[3] <= self.boxes_left and found[5] <= self.segments_left:
            items, fits, art, boxes, spills, segments = found
            self.fits.extend(fits)
            self.art.extend(art)
            self.spills.extend(spills)
            self.boxes_left -= boxes
            self.segments_left -= segments
            return items
        problems, fits, art, boxes, spills, segments = (len(self.problems), len(self.fits), len(self.art),
                                                        self.boxes_left, len(self.spills), self.segments_left)
        items = tuple(self._box(box, ctx, parent, f"boxes.{box.name}", top=True))
        if len(self.problems) == problems:
            self._fixed.put(key, (items, tuple(self.fits[fits:]), tuple(self.art[art:]), boxes - self.boxes_left,
                                  tuple(self.spills[spills:]), segments - self.segments_left))
        return items

    # -- values ----------------------------------------------------------

    def _report(self, loc: Loc, text: str) -> None:
        """A problem found filling the layout for this face, which it names (``merged`` reads it back)."""
        self.problems.append(self._filled(loc, text))

    def _filled(self, loc: Loc, text: str, severity: str = "error") -> Problem:
        return Problem(loc, FILLING.format(text=text, layout=self.layout.name, who=self.who), severity)

    def _get(self, value: Value | None, ctx: dict, where: str, key: str, kind: str = "any", reference: float = 0.0,
             palette: dict | None = None, default: Any = None) -> Any:
        """The value filled in and converted (see ``resolve``); a failure is reported at ``where.key``."""
        if value is None:
            return default
        if value.kind == "const":  # fast path for plain numbers and words, most values in a layout
            raw = value.raw
            # within the limits resolve() applies (a NaN is not: it takes resolve()'s way, to its error)
            if kind in ("length", "number") and type(raw) in (int, float) and abs(raw) <= _LIMITS[kind]:
                return float(raw)
            if kind == "text" and type(raw) is str:
                return raw
        try:
            return resolve(value, ctx, kind, reference, self.palette if palette is None else palette)
        except ValueFailure as exc:
            self._report(value.loc, f"{where}.{key}: {exc.message}")
            if exc.fatal:
                raise _Abandoned() from None
            return default

    def _flag(self, box: Box, ctx: dict, where: str, key: str) -> bool:
        """A yes-or-no key: true or false (yes, no, 1, 0, as ``truthy`` reads them); another word is reported."""
        value = self._get(box.get(key), ctx, where, key, default=False)
        if isinstance(value, str) and value.strip().lower() not in FLAG_WORDS:
            self._report(box.get(key).loc, f"{where}.{key}: expected true or false, got '{clip(value, 40)}'")
            return False
        return truthy(value)

    def _choice(self, box: Box, ctx: dict, where: str, key: str, allowed: tuple[str, ...]) -> str:
        """A word from ``allowed`` (the first, the default, where unset); another is reported, and the default used."""
        value = self._get(box.get(key), ctx, where, key, "text", default=allowed[0])
        if value not in allowed:
            self._report(box.get(key).loc, f"{where}.{key}: expected one of {', '.join(allowed)}, got '{clip(str(value), 40)}'")
            return allowed[0]
        return value

    def _stroke_width(self, box: Box, ctx: dict, where: str, reference: float) -> float:
        """A rect's or ellipse's stroke width, at most MAX_STROKE (the default, 0.3 mm, where unset or unusable)."""
        width = self._get(box.get("stroke_width"), ctx, where, "stroke_width", "length", reference, default=0.3)
        if width is None or width < 0 or width > MAX_STROKE:
            said = "nothing (null)" if width is None else f"{width:g} mm"
            self._report(box.get("stroke_width").loc,
                         f"{where}.stroke_width: {said}; a stroke is from 0 to {MAX_STROKE:g} mm wide")
            return 0.3
        return width

    def _box_independence(self, layout: Layout) -> list[bool]:
        """Per top-level box: does it look the same on every card (no card values in it)?"""
        key = id(layout)
        if key not in self._independent:
            dynamic = set(CARD_NAMES)
            for name, value in layout.vars.items():
                if value.names & dynamic:
                    dynamic.add(name)
            card_colors = {name for name, value in layout.colors.items() if value.names & dynamic}
            if card_colors:
                dynamic.add("colors")

            def independent(box: Box) -> bool:
                for prop, value in box.props.items():
                    if value.names & dynamic:
                        return False
                    if prop in COLOR_KEYS and value.kind == "const" and value.raw in card_colors:
                        return False
                    if prop == "text_style":
                        style = layout.text_styles.get(str(value.raw), {})
                        if any(v.names & dynamic or (k == "color" and v.raw in card_colors) for k, v in style.items()):
                            return False
                return all(independent(child) for child in box.children)

            self._independent[key] = [independent(box) for box in layout.boxes]
        return self._independent[key]

    # -- boxes -----------------------------------------------------------

    def _frame(self, box: Box, ctx: dict, parent: tuple, where: str) -> tuple[float, float, float, float]:
        fixed = self._fixed_geometry.get(id(box))
        if fixed is None:
            fixed = self._fixed_geometry[id(box)] = not any(
                box.props[k].dynamic or (isinstance(box.props[k].raw, str) and box.props[k].raw.strip().endswith("%"))
                for k in GEOMETRY_KEYS if k in box.props)
        if fixed:  # the same offsets on every card: computed once per parent size
            key = (id(box), parent[2], parent[3])
            offsets = self._frames.get(key)
            if offsets is None:
                offsets = self._frames[key] = self._place(box, ctx, (0.0, 0.0, parent[2], parent[3]), where)
            return parent[0] + offsets[0], parent[1] + offsets[1], offsets[2], offsets[3]
        return self._place(box, ctx, parent, where)

    def _place(self, box: Box, ctx: dict, parent: tuple, where: str) -> tuple[float, float, float, float]:
        px, py, pw, ph = parent
        g = self._geometry(box, ctx, parent, where)
        x, w = _span(px, pw, g["left"], g["right"], g["width"])
        y, h = _span(py, ph, g["top"], g["bottom"], g["height"])
        return x, y, w, h

    def _geometry(self, box: Box, ctx: dict, parent: tuple, where: str) -> dict[str, float | None]:
        """The box's left, right, top, bottom, width and height in millimetres (None: not given)."""
        return {key: self._get(box.get(key), ctx, where, key, "length",
                               parent[2] if key in ("left", "right", "width") else parent[3])
                for key in GEOMETRY_KEYS}

    def _negative_size(self, box: Box, ctx: dict, parent: tuple, where: str, top: bool, w: float, h: float) -> str:
        """Why the box comes out narrower (or lower) than nothing, from the keys that place it on that axis."""
        g = self._geometry(box, ctx, parent, where)
        keys, size, across, extent = (("left", "right", "width"), w, "wide", parent[2]) if w < 0 else \
            (("top", "bottom", "height"), h, "high", parent[3])
        given = " and ".join(f"{key} {mm(g[key])} mm" for key in keys if g[key] is not None)
        within = "face (is it smaller than the layout was made for?)" if top else "parent box"
        return f"{where}: {given} leave it {mm(size)} mm {across}, which no box can be, in its {mm(extent)} mm " \
               f"{across} {within}"

    def _box(self, box: Box, ctx: dict, parent: tuple, where: str, top: bool = False) -> list:
        repeat = box.get("repeat")
        if repeat is None:
            return self._one(box, ctx, parent, where, top)
        items = self._get(repeat, ctx, where, "repeat", default=())
        too_many = f"{where}.repeat: a box is repeated at most {MAX_REPEAT:,} times"
        if isinstance(items, int):
            if items > MAX_REPEAT:
                self._report(repeat.loc, f"{too_many}, not {items:,}")
                return []
            items = range(items)
        try:
            items = list(itertools.islice(items, MAX_REPEAT + 1))
        except Exception as exc:  # not iterable, or a lazy filter that fails while iterating
            self._report(repeat.loc, f"{where}.repeat: expected a list or a number, got {clip(repr(items), 60)} "
                                     f"({type(exc).__name__}: {clip(str(exc), 80)})")
            return []
        if len(items) > MAX_REPEAT:
            self._report(repeat.loc, too_many)
            return []
        name = str(self._get(box.get("as"), ctx, where, "as", default="item"))
        out = []
        count_ctx = dict(ctx, count=len(items))
        step_x = self._get(box.get("step_x"), count_ctx, where, "step", "length", parent[2], default=0.0)
        step_y = self._get(box.get("step_y"), count_ctx, where, "step", "length", parent[3], default=0.0)
        if step_x is None or step_y is None:  # a length may be null (unset) elsewhere; a step is added up
            unset = box.get("step_x") if step_x is None else box.get("step_y")
            self._report(unset.loc, f"{where}.step: expected a length, got nothing (null)")
            step_x, step_y = step_x or 0.0, step_y or 0.0
        for index, item in enumerate(items):
            copy = dict(count_ctx, index=index, number=index + 1)
            copy[name] = item
            shifted = (parent[0] + index * step_x, parent[1] + index * step_y, parent[2], parent[3])
            out.extend(self._one(box, copy, shifted, where, top))
        return out

    def _one(self, box: Box, ctx: dict, parent: tuple, where: str, top: bool) -> list:
        self.boxes_left -= 1
        if self.boxes_left < 0:
            self._report(box.loc, f"{where}: the layout draws more than {MAX_ITEMS:,} boxes on one face")
            raise _Abandoned()
        if "show" in box.props and not truthy(self._get(box.get("show"), ctx, where, "show", default=False)):
            return []
        x, y, w, h = self._frame(box, ctx, parent, where)
        if w < 0 or h < 0:  # a located error, and nothing a painter cannot draw
            self._report(box.loc, self._negative_size(box, ctx, parent, where, top, w, h))
            return []
        frame = (x, y, w, h)
        if top and self._flag(box, ctx, where, "bleed"):
            x, y, w, h = self._bleed(x, y, w, h)
        opacity = self._get(box.get("opacity"), ctx, where, "opacity", "number", default=1.0)
        if not 0.0 <= opacity <= 1.0:
            self._report(box.get("opacity").loc, f"{where}.opacity: {opacity:g} is outside 0 to 1")
            opacity = min(1.0, max(0.0, opacity))
        items: list = []
        kind = box.kind
        if kind == "rect":
            fill = self._get(box.get("fill"), ctx, where, "fill", "color")
            stroke = self._get(box.get("stroke"), ctx, where, "stroke", "color")
            stroke_width = self._stroke_width(box, ctx, where, w)
            radius = self._get(box.get("radius"), ctx, where, "radius", "length", min(w, h), default=0.0)
            if fill or stroke:
                items.append(dl.Rect(x, y, w, h, fill, stroke, stroke_width if stroke else 0.0, radius, opacity))
        elif kind == "ellipse":
            fill = self._get(box.get("fill"), ctx, where, "fill", "color")
            stroke = self._get(box.get("stroke"), ctx, where, "stroke", "color")
            stroke_width = self._stroke_width(box, ctx, where, w)
            if fill or stroke:
                items.append(dl.Ellipse(x, y, w, h, fill, stroke, stroke_width if stroke else 0.0, opacity))
        elif kind == "icon":
            items.extend(self._icon(box, ctx, (x, y, w, h), where, opacity))
        elif kind == "image":
            items.extend(self._image(box, ctx, (x, y, w, h), where, opacity))
        elif kind == "text":
            items.extend(self._text(box, ctx, (x, y, w, h), where))
        left, top, right, bottom = self.trim
        passes_trim = x < left or y < top or x + w > right or y + h > bottom
        if items and passes_trim:
            spilt = spill(box.loc, where, "index" in ctx, (x, y, w, h), self.size)
            if spilt is not None:
                self.spills.append(spilt)
        if kind == "text" and items and (passes_trim or self.fits[-1].overflow_ok):  # set text may pass the trim
            spilt = ink_spill(box.loc, where, "index" in ctx, self._ink(items), self.size)
            if spilt is not None:
                self.spills.append(spilt)
        if box.children:
            inner = dict(ctx, parent_width=frame[2], parent_height=frame[3])
            for child in box.children:
                items.extend(self._box(child, inner, frame, f"{where}.boxes.{child.name}"))
        return items

    def _ink(self, items: list) -> tuple[float, float, float, float]:
        """Where set text's runs put ink: left, top, right, bottom (each run's advance, its face's ascent and
        descent)."""
        left = top = float("inf")
        right = bottom = float("-inf")
        for item in items:
            if type(item) is dl.Text:
                face, em = self.fonts.by_name(item.font), item.size * MM_PER_PT
                left, right = min(left, item.x), max(right, item.x + item.width)
                top, bottom = min(top, item.y - face.ascent * em), max(bottom, item.y + face.descent * em)
        return left, top, right, bottom

    def _bleed(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """Extend a box that touches the trim edge out over the bleed on that side."""
        width, height, bleed = self.size
        eps = 0.01
        if abs(x) < eps:
            x, w = x - bleed, w + bleed
        if abs(x + w - width) < eps:
            w += bleed
        if abs(y) < eps:
            y, h = y - bleed, h + bleed
        if abs(y + h - height) < eps:
            h += bleed
        return x, y, w, h

    def _icon(self, box: Box, ctx: dict, rect: tuple, where: str, opacity: float) -> list:
        name = self._get(box.get("icon"), ctx, where, "icon", "text", default="")
        if not name:
            return []
        icon = self.icons.get(name)
        if icon is None:
            from deckwright.rules.data.schema import did_you_mean

            self._report(box.get("icon").loc, f"{where}.icon: no icon '{name}'{did_you_mean(name, list(self.icons))}")
            return []
        color = self._get(box.get("color"), ctx, where, "color", "color", default=self.palette.get("ink", "#000000"))
        accent = self._get(box.get("accent"), ctx, where, "accent", "color")
        fit = self._choice(box, ctx, where, "fit", ICON_FITS)
        try:
            self._spend_segments(icon.segments)
        except _TooManySegments:
            self._too_many_segments(box, where)
        return icon.place(*rect, color, accent, fit, opacity)

    def _inline_icon(self, name: str, x: float, y: float, size: float, color: str) -> list:
        icon = self.icons[name]
        self._spend_segments(icon.segments)
        return icon.place(x, y, size, size, color, color)

    def _spend_segments(self, count: int) -> None:
        """Counts icon path segments against the face's, before they are made; _TooManySegments past them."""
        if self.segments_left is None:
            return
        self.segments_left -= count
        if self.segments_left < 0:
            raise _TooManySegments()

    def _too_many_segments(self, box: Box, where: str):
        self._report(box.loc, f"{where}: the layout draws more than {MAX_SEGMENTS:,} icon path segments on one face "
                              f"(a complex icon repeated?); draw fewer or simpler icons")
        raise _Abandoned()

    def _image(self, box: Box, ctx: dict, rect: tuple, where: str, opacity: float) -> list:
        src = self._get(box.get("src"), ctx, where, "src", "text", default="")
        if not src:
            return []
        loc = box.get("src").loc
        found = self._images.get(src)
        if found is None:
            found = self._images[src] = check_image(self.game_root, src)
        if isinstance(found, str):
            self._report(loc, f"{where}.src: {found}")
            return []
        path, size = found
        x, y, w, h = rect
        fit = self._choice(box, ctx, where, "fit", IMAGE_FITS)
        iw, ih = size
        if fit == "stretch":
            self.art.append(dl.ArtFit(box.name, src, min(iw / w, ih / h) * MM_PER_INCH if w > 0 and h > 0 else 0.0, w, h))
            return [dl.Image(x, y, w, h, str(path), opacity)]
        scale = (max if fit == "cover" else min)(w / iw, h / ih)
        if scale > 0:
            self.art.append(dl.ArtFit(box.name, src, MM_PER_INCH / scale, w, h))
        sw, sh = iw * scale, ih * scale
        image = dl.Image(x + (w - sw) / 2, y + (h - sh) / 2, sw, sh, str(path), opacity)
        return [dl.Clip(x, y, w, h, (image,))] if fit == "cover" else [image]

    def _text(self, box: Box, ctx: dict, rect: tuple, where: str) -> list:
        text = self._get(box.get("text"), ctx, where, "text", "text", default="")
        style_name = self._get(box.get("text_style"), ctx, where, "text_style", "text", default="")
        style: dict[str, Value] = {}
        if style_name:
            if style_name not in self.layout.text_styles:
                self.problems.append(Problem(box.get("text_style").loc, f"{where}.text_style: no text style '{style_name}' "
                                                                        f"(styles: {', '.join(self.layout.text_styles)})"))
            style = self.layout.text_styles.get(style_name, {})

        spec_key = (id(box), style_name)
        cached = self._specs.get(spec_key)
        if cached is not None:
            spec, color_value_ = cached
            color = self.palette.get(color_value_, color_value_) if color_value_ else self.palette.get("ink", "#000000")
            color = color.lower() if color and color.startswith("#") else "#000000"
            spec_key = (spec_key, color)  # all the spec depends on: the same spec object for it, a cheap memo key
            colored = self._colored.get(spec_key)
            if colored is None:
                colored = self._colored[spec_key] = replace(spec, color=color)
            spec = colored
        else:
            spec = spec_key = self._text_spec(box, style_name, style, ctx, where)
            if spec is None:
                return []
        if not text.strip():
            return []
        key = (text, spec_key, rect)
        found = self._fitted.get(key)
        try:
            if found is None or found is _SEEN:
                before = self.segments_left
                if is_plain(text):
                    fitted = self.setter.fit((), spec, *rect, self.setter.measure_plain(text, spec.face))
                else:
                    fitted = self.setter.fit(parse(text, self.icons.__contains__), spec, *rect)
                # kept the second time it is set: most texts (a card's name, its own rules) are set once
                self._fitted.put(key, (fitted, before - self.segments_left) if found is _SEEN else _SEEN)
            else:
                fitted, segments = found
                self._spend_segments(segments)  # its inline icons, drawn again on this face
        except _TooManySegments:
            self._too_many_segments(box, where)
        field = self._fields.get(id(box))
        if field is None:
            field = self._fields[id(box)] = self._field_of(box)
        self.fits.append(dl.TextFit(box.name, field, fitted.size, fitted.fits, box.loc, spec.overflow_ok))
        return fitted.items

    def _text_spec(self, box: Box, style_name: str, style: dict, ctx: dict, where: str) -> TextSpec | None:
        def value_of(key: str) -> Value | None:
            return box.get(key) or style.get(key)

        def prop(key: str, kind: str = "any"):
            default = TEXT_DEFAULTS.get(key)
            if key == "color":
                default = self.palette.get("ink", "#000000")
            return self._get(value_of(key), ctx, where, key, kind, default=default)

        family, font_style = str(prop("font")), str(prop("font_style"))
        try:
            face = self.fonts.face(family, font_style)
        except FontError as exc:
            loc = (value_of("font") or value_of("font_style")).loc
            self.problems.append(Problem(loc, f"{where}: {exc}"))
            return None
        size, min_size, leading = prop("size", "number"), prop("min_size", "number"), prop("leading", "number")
        for key, number, low, high in (("size", size, 0.5, MAX_POINTS), ("min_size", min_size, 0.5, MAX_POINTS),
                                       ("leading", leading, 0.1, 10.0)):
            if number is not None and not low <= number <= high:
                self._report(value_of(key).loc, f"{where}.{key}: {number:g} is outside {low:g} to {high:g}")
                return None
        if size is None or min_size is None or leading is None:
            return None  # reported
        fit = str(prop("fit"))
        spec = TextSpec(face=face, size=size, min_size=min(size, min_size),
                        leading=leading, align=str(prop("align")), valign=str(prop("valign")),
                        color=prop("color", "color") or "#000000", shrink=fit != "none", overflow_ok=fit == "overflow-ok")
        for key, value, allowed in (("align", spec.align, ("left", "center", "right")),
                                    ("valign", spec.valign, ("top", "middle", "bottom")), ("fit", fit, TEXT_FITS)):
            if value not in allowed:
                self.problems.append(Problem(value_of(key).loc, f"{where}.{key}: expected one of {', '.join(allowed)}, "
                                                                f"got '{clip(value, 40)}'"))
                return None
        keys = ("font", "font_style", "size", "min_size", "leading", "align", "valign", "fit", "color")
        values = [value_of(k) for k in keys]
        if not self.problems and all(v is None or not v.dynamic for v in values):  # the same for every card
            color = value_of("color")
            self._specs[(id(box), style_name)] = (spec, str(color.raw).strip() if color is not None else "")
        return spec

    @staticmethod
    def _field_of(box: Box) -> str:
        declared = box.get("field")
        if declared is not None:
            return str(declared.raw)
        raw = box.get("text").raw if box.get("text") is not None else ""
        match = _FIELD_IN_TEXT.search(str(raw))
        return (match.group(1) or match.group(2)) if match else ""


def _span(start: float, extent: float, before: float | None, after: float | None, size: float | None) -> tuple[float, float]:
    """Position and size on one axis from offsets from the start and end and a size; a size alone is centred."""
    if size is None:
        size = extent - (before or 0.0) - (after or 0.0)
        return start + (before or 0.0), size
    if before is None:
        return (start + extent - after - size, size) if after is not None else (start + (extent - size) / 2, size)
    return start + before, size
