"""Vector icons: SVG path data in ``icons.yaml`` files, placed into boxes as display-list paths.

An icon file maps names to either a path string (filled with the box's
colour) or ``{viewbox: [x, y, w, h], paths: [{d, fill, stroke, stroke_width}]}``
where ``fill``/``stroke`` are ``color`` (the box's colour, the default for
fill), ``accent`` (the box's accent colour), ``none`` or a ``#rrggbb`` value.
Path data understands M L H V C S Q T A Z, absolute and relative.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .displaylist import Path

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
# Path segments (M/L/C/Z commands, arcs as their curves) in one icon's paths together. The shipped icons have at
# most 46 and a detailed icon from an icon set a few thousand; more is a drawing pasted in whole, which every
# card would carry (and a face's drawing is bounded too: measure.MAX_SEGMENTS).
MAX_ICON_SEGMENTS = 10_000
# A viewbox's width and height, and how far (in its own sizes) a path may reach past its edges: so that an
# icon placed in a box, however large its own numbers, hands the renderers numbers near that box (a viewbox of
# 1e-300 scaled to a card, or an arc out to 1e207, is past what ReportLab writes and Pillow's masks hold).
VIEWBOX_SIZES = (0.001, 1e6)
REACH = 10


class IconError(ValueError):
    pass


@dataclass(frozen=True)
class IconPart:
    commands: tuple[tuple, ...]  # absolute M/L/C/Z in viewbox units
    fill: str  # "color", "accent", "none" or "#rrggbb"
    stroke: str
    stroke_width: float  # viewbox units


@dataclass(frozen=True)
class Icon:
    name: str
    viewbox: tuple[float, float, float, float]
    parts: tuple[IconPart, ...]

    @property
    def segments(self) -> int:
        """Its path segments, all parts together: what placing it costs."""
        return sum(len(part.commands) for part in self.parts)

    def place(self, x: float, y: float, w: float, h: float, color: str | None, accent: str | None,
              fit: str = "contain", opacity: float = 1.0) -> list[Path]:
        """The icon scaled into the box (``contain`` keeps its proportions and centres it; ``stretch`` fills the box)."""
        vx, vy, vw, vh = self.viewbox
        sx, sy = w / vw, h / vh
        if fit != "stretch":
            sx = sy = min(sx, sy)
            x += (w - vw * sx) / 2
            y += (h - vh * sy) / 2
        out = []
        for part in self.parts:
            fill = _paint(part.fill, color, accent)
            stroke = _paint(part.stroke, color, accent)
            if fill is None and stroke is None:
                continue
            commands = tuple([_transform(c, x - vx * sx, y - vy * sy, sx, sy) for c in part.commands])
            out.append(Path(commands, fill, stroke, part.stroke_width * min(sx, sy), opacity))
        return out


def _paint(role: str, color: str | None, accent: str | None) -> str | None:
    if role == "color":
        return color
    if role == "accent":
        return accent
    if role == "none":
        return None
    return role


def _transform(command: tuple, dx: float, dy: float, sx: float, sy: float) -> tuple:
    letter = command[0]
    if letter == "Z":
        return command
    # the shapes parse_path makes, spelt out: the bundled games' faces place some 25,000 commands
    if len(command) == 3:
        return (letter, dx + command[1] * sx, dy + command[2] * sy)
    if len(command) == 7:
        _, x1, y1, x2, y2, x, y = command
        return (letter, dx + x1 * sx, dy + y1 * sy, dx + x2 * sx, dy + y2 * sy, dx + x * sx, dy + y * sy)
    return (letter, *(dx + v * sx if i % 2 == 0 else dy + v * sy for i, v in enumerate(command[1:])))


def parse_path(d: str, most: int = MAX_ICON_SEGMENTS) -> tuple[tuple, ...]:
    """SVG path data as absolute M/L/C/Z commands, at most ``most`` of them; raises IconError."""
    tokens = _TOKEN.findall(d)
    if "".join(tokens).replace(" ", "") == "" or re.sub(_TOKEN, "", d).strip(" ,\n\t"):
        raise IconError(f"cannot read path data near '{re.sub(_TOKEN, '', d).strip()[:20]}'")
    out: list[tuple] = []
    cx = cy = sx0 = sy0 = 0.0
    last_ctrl: tuple[float, float] | None = None
    last_cmd = ""
    i = 0
    cmd = ""
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
        elif not cmd:
            raise IconError("path data must start with M")
        upper = cmd.upper()
        rel = cmd.islower()
        n = _ARGS[upper]
        args = []
        for _ in range(n):
            if i >= len(tokens) or tokens[i].isalpha():
                raise IconError(f"'{cmd}' needs {n} numbers")
            number = float(tokens[i])
            if not math.isfinite(number) or abs(number) > 1e6:
                raise IconError(f"'{tokens[i]}' is not a usable coordinate")
            args.append(number)
            i += 1
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        if upper == "M":
            cx, cy = args[0] + ox, args[1] + oy
            sx0, sy0 = cx, cy
            out.append(("M", cx, cy))
            cmd = "l" if rel else "L"  # further pairs are line-tos
            last_ctrl = None
        elif upper in ("L", "H", "V"):
            if upper == "H":
                cx = args[0] + (cx if rel else 0.0)
            elif upper == "V":
                cy = args[0] + (cy if rel else 0.0)
            else:
                cx, cy = args[0] + ox, args[1] + oy
            out.append(("L", cx, cy))
            last_ctrl = None
        elif upper in ("C", "S"):
            if upper == "C":
                x1, y1, x2, y2, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy, args[4] + ox, args[5] + oy
            else:
                x1, y1 = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_cmd in "CS" and last_ctrl else (cx, cy)
                x2, y2, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy
            out.append(("C", x1, y1, x2, y2, x, y))
            last_ctrl = (x2, y2)
            cx, cy = x, y
        elif upper in ("Q", "T"):
            if upper == "Q":
                qx, qy, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy
            else:
                qx, qy = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_cmd in "QT" and last_ctrl else (cx, cy)
                x, y = args[0] + ox, args[1] + oy
            out.append(("C", cx + 2 / 3 * (qx - cx), cy + 2 / 3 * (qy - cy), x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y))
            last_ctrl = (qx, qy)
            cx, cy = x, y
        elif upper == "A":
            x, y = args[5] + ox, args[6] + oy
            out.extend(_arc(cx, cy, args[0], args[1], args[2], bool(args[3]), bool(args[4]), x, y))
            cx, cy = x, y
            last_ctrl = None
        elif upper == "Z":
            out.append(("Z",))
            cx, cy = sx0, sy0
            last_ctrl = None
        last_cmd = upper
        if len(out) > most:
            raise IconError(f"its paths have more than {MAX_ICON_SEGMENTS:,} segments; an icon needs far fewer "
                            f"(simplify the drawing, e.g. Inkscape's Path > Simplify)")
    if not out or out[0][0] != "M":
        raise IconError("path data must start with M")
    return tuple(out)


def _arc(x1, y1, rx, ry, angle, large, sweep, x2, y2) -> list[tuple]:
    """An SVG elliptical arc as cubic Bezier curves: the endpoint-to-centre conversion of SVG 1.1 (F.6.5) with its
    out-of-range parameters (F.6.2, F.6.6), worked so that no radius, however small or far from the other,
    divides by zero; an ellipse so flat that it reaches past any icon comes back with huge or NaN numbers,
    which icon_from_data refuses."""
    if x1 == x2 and y1 == y2:
        return []  # an arc to where it starts is omitted
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", x2, y2)]
    phi = math.radians(angle)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos_p * dx + sin_p * dy, -sin_p * dx + cos_p * dy
    # On the unit circle (x over rx, y over ry) the ends are u and -u: u's direction, and its length d
    biggest = max(rx, ry)
    direction = math.atan2(yp * (rx / biggest), xp * (ry / biggest))
    d = math.hypot(xp / rx, yp / ry)
    if d >= 1:  # radii too small to span the ends: scaled up until they just do, the centre halfway between them
        rx, ry = math.hypot(xp, yp * (rx / ry)), math.hypot(xp * (ry / rx), yp)
        d = 1.0
    ux, uy = d * math.cos(direction), d * math.sin(direction)
    off = math.sqrt(1 - d * d) * (-1 if large == sweep else 1)  # the centre's distance from the chord's middle
    ox, oy = off * math.sin(direction), -off * math.cos(direction)
    cx = cos_p * ox * rx - sin_p * oy * ry + (x1 + x2) / 2
    cy = sin_p * ox * rx + cos_p * oy * ry + (y1 + y2) / 2

    theta1 = math.atan2(uy - oy, ux - ox)
    delta = math.atan2(2 * d * off, 1 - 2 * d * d)  # from u - o to -u - o, o at right angles to u: exact for any d
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    segments = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / segments
    k = 4 / 3 * math.tan(step / 4)
    out = []

    def point(t):
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cos_p * ex - sin_p * ey + cx, sin_p * ex + cos_p * ey + cy

    def deriv(t):
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos_p * ex - sin_p * ey, sin_p * ex + cos_p * ey

    t = theta1
    for _ in range(segments):
        p0, p3 = point(t), point(t + step)
        d0, d3 = deriv(t), deriv(t + step)
        out.append(("C", p0[0] + k * d0[0], p0[1] + k * d0[1], p3[0] - k * d3[0], p3[1] - k * d3[1], p3[0], p3[1]))
        t += step
    last = out[-1]
    out[-1] = ("C", *last[1:5], x2, y2)  # land exactly on the endpoint
    return out


def icon_from_data(name: str, data, known: dict[str, Icon] | None = None) -> Icon:
    """An Icon from its YAML value (path data, a mapping, or ``{same_as: other}``); raises IconError."""
    if isinstance(data, dict) and set(data) == {"same_as"}:
        other = (known or {}).get(str(data["same_as"]))
        if other is None:
            raise IconError(f"same_as: no icon '{data['same_as']}' defined before it")
        return Icon(name, other.viewbox, other.parts)
    if isinstance(data, str):
        data = {"paths": [data]}
    if not isinstance(data, dict) or "paths" not in data:
        raise IconError("an icon is path data or a mapping with 'paths'")
    unknown = set(data) - {"viewbox", "paths"}
    if unknown:
        raise IconError(f"unknown key '{sorted(unknown)[0]}' (icons have viewbox and paths)")
    viewbox = _viewbox(data.get("viewbox", [0, 0, 100, 100]))
    parts: list[IconPart] = []
    for part in data["paths"] or ():
        if isinstance(part, str):
            part = {"d": part}
        if not isinstance(part, dict) or "d" not in part:
            raise IconError("each path is path data or a mapping with 'd'")
        unknown = set(part) - {"d", "fill", "stroke", "stroke_width"}
        if unknown:
            raise IconError(f"unknown key '{sorted(unknown)[0]}' in a path (d, fill, stroke, stroke_width)")
        fill, stroke = str(part.get("fill", "color")), str(part.get("stroke", "none"))
        for paint in (fill, stroke):
            if paint not in ("color", "accent", "none") and not re.fullmatch(r"#[0-9a-fA-F]{6}", paint):
                raise IconError(f"paint '{paint}' is not color, accent, none or #rrggbb")
        most = MAX_ICON_SEGMENTS - sum(len(done.commands) for done in parts)
        stroke_width = _number(part.get("stroke_width", 0), "stroke_width")
        if not 0 <= stroke_width <= max(viewbox[2], viewbox[3]):  # painted as a line that wide: slow, and no icon
            raise IconError(f"stroke_width: {stroke_width:g} is not from 0 to the viewbox's size "
                            f"({max(viewbox[2], viewbox[3]):g})")
        parts.append(IconPart(parse_path(str(part["d"]), most), fill, stroke, stroke_width))
    _check_reach(parts, viewbox)
    return Icon(name, viewbox, tuple(parts))


def _viewbox(value) -> tuple[float, float, float, float]:
    if not (isinstance(value, list) and len(value) == 4 and all(isinstance(v, (int, float)) for v in value)
            and value[2] > 0 and value[3] > 0):
        raise IconError("viewbox is four numbers: [x, y, width, height]")
    x, y, w, h = (_number(v, "viewbox") for v in value)
    least, most = VIEWBOX_SIZES
    if not (least <= w <= most and least <= h <= most):
        raise IconError(f"viewbox: its width and height are from {least:g} to {most:,.0f}, not {w:g} and {h:g}")
    return x, y, w, h


def _check_reach(parts: list[IconPart], viewbox: tuple[float, float, float, float]) -> None:
    """IconError when a path goes more than REACH viewbox sizes past the viewbox, or to no number at all."""
    x, y, w, h = viewbox
    bounds = ((x - REACH * w, x + (REACH + 1) * w), (y - REACH * h, y + (REACH + 1) * h))
    for part in parts:
        for command in part.commands:
            for index, value in enumerate(command[1:]):
                low, high = bounds[index % 2]
                if not low <= value <= high:  # NaN too
                    shown = f"{value:g}" if math.isfinite(value) else "past any number"
                    raise IconError(f"its paths reach {'xy'[index % 2]} = {shown}, more than {REACH} times the "
                                    f"viewbox's size outside it ({x:g} {y:g} {w:g} {h:g}); give the icon a viewbox "
                                    f"around its drawing")


def _number(value, what: str) -> float:
    """A finite number from icon data; IconError for text, booleans, infinities."""
    # abs() first: math.isfinite() of an integer of hundreds of digits raises OverflowError
    if isinstance(value, bool) or not isinstance(value, (int, float)) or abs(value) > 1e6 or not math.isfinite(value):
        raise IconError(f"{what}: expected a number, got {value!r}")
    return float(value)
