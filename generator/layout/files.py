"""Reading layout files: find them, merge ``extends`` chains, check every key, compile the Jinja2 in them.

The format is described in ``templates/layouts/README.md``. Every problem is
reported as a located ``rules.problems.Problem``; nothing here draws.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from jinja2 import TemplateSyntaxError, meta, nodes
from jinja2.environment import TemplateExpression
from jinja2.parser import Parser

from deckwright.generator import TEMPLATES
from deckwright.rules.data.schema import did_you_mean
from deckwright.rules.data.yamlsrc import YNode, load_yaml_file
from deckwright.rules.problems import Loc, Problem, display_path

from .expressions import closure
from .viewmodel import CardView

LAYOUT_DIR = TEMPLATES / "layouts"
DEFAULT_CARD_LAYOUT = "default-card"  # the face of a card type that has no layout of its own
TOP_KEYS = ("extends", "doc", "colors", "text_styles", "vars", "boxes", "formats")
GEOMETRY_KEYS = ("left", "right", "top", "bottom", "width", "height")
COMMON_KEYS = ("kind", *GEOMETRY_KEYS, "bleed", "show", "opacity", "repeat", "as", "step", "boxes", "doc")
TEXT_KEYS = ("text", "text_style", "font", "font_style", "size", "min_size", "color", "leading", "align", "valign",
             "fit", "field")
KIND_KEYS: dict[str, tuple[str, ...]] = {
    "group": (),
    "rect": ("fill", "stroke", "stroke_width", "radius"),
    "ellipse": ("fill", "stroke", "stroke_width"),
    "text": TEXT_KEYS,
    "icon": ("icon", "color", "accent", "fit"),
    "image": ("src", "fit"),
}
STYLE_KEYS = ("font", "font_style", "size", "min_size", "color", "leading", "align", "valign")
_WHOLE_EXPRESSION = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)
_CARD_VIEW_NAMES = frozenset(dir(CardView))  # its attributes and methods: these win over a field of the name
_NAME_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")


class LayoutError(Exception):
    """Carries every problem found in a layout (or in filling it for a card)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = sorted(set(problems))


@dataclass(frozen=True)
class Value:
    """A value from a layout file: a constant, a Jinja2 template (text) or a Jinja2 expression (any type)."""

    raw: Any
    loc: Loc
    kind: str = "const"  # const, template, expr, or path (a plain dotted name such as card.name)
    code: Any = None  # the compiled template or expression
    names: frozenset = frozenset()  # variables the Jinja2 code reads

    @property
    def dynamic(self) -> bool:
        return self.kind != "const"


@dataclass(frozen=True)
class Box:
    name: str
    kind: str
    loc: Loc
    props: dict[str, Value]
    children: tuple["Box", ...] = ()

    def get(self, key: str) -> Value | None:
        return self.props.get(key)


@dataclass(frozen=True)
class Layout:
    name: str
    path: str  # as shown in messages
    loc: Loc
    colors: dict[str, Value]
    text_styles: dict[str, dict[str, Value]]
    vars: dict[str, Value]
    boxes: tuple[Box, ...]
    formats: dict[str, Value]
    files: tuple[str, ...] = field(default=())  # this file and the ones it extends


def search_folders(game) -> list[Path]:
    """Where a game's layouts are looked for, most specific first."""
    return [game.root / "layouts", LAYOUT_DIR / game.slug, LAYOUT_DIR]


def file_root(game, path: Path) -> Path:
    """The folder a layout or icon file must stay inside: the game's folder for its own ``layouts/``
    (links followed: a linked ``layouts/`` folder is refused too), deckwright's templates for the shared ones."""
    own = game.root / "layouts"
    parent = Path(path).parent
    try:
        mine = parent == own or parent.resolve() == own.resolve()
    except (OSError, RuntimeError):
        mine = False
    return game.root if mine else TEMPLATES


def _expression_value(env, raw: str, source: str, loc: Loc, bare: bool) -> Value:
    """The Value of an expression, ``{{ source }}`` or (``bare``) a ``show``, ``repeat`` or ``vars`` value, that
    reads as Jinja2 would read it. A plain dotted name (``card.name``) is looked up directly and a literal
    (``'paw'``, ``38.5``, ``false``) is kept as it is: only other expressions are compiled, which is most of
    the time reading a layout takes."""
    name_path = source.strip()
    first = name_path.split(".")[0]
    # a bare name of one of Jinja2's globals (range) is the global, as before; in {{ }} it never was
    if _NAME_PATH.match(name_path) and first not in _KEYWORD_CONSTANTS and not (bare and first in env.globals):
        return Value(raw, loc, "path", _path_getter(env, name_path.split(".")), frozenset({first}))
    key = ("expr", source)
    found = env.compiled.get(key)
    if found is None:
        expr = _parse_expression(env, source)
        if isinstance(expr, nodes.Const) and type(expr.value) in _LITERAL_TYPES:
            found = (_Literal(expr.value), frozenset())
        else:
            found = _expression(env, expr, source)
        env.compiled[key] = found
    return Value(raw, loc, "expr", *found)


_KEYWORD_CONSTANTS = ("true", "false", "none", "True", "False", "None")
_LITERAL_TYPES = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class _Literal:
    """A compiled expression that is a literal: called with a context as compiled ones are, it gives its value."""

    value: Any

    def __call__(self, **ctx: Any) -> Any:
        return self.value


def _parse_expression(env, source: str):
    """The parsed expression; a TemplateSyntaxError for anything after it."""
    parser = Parser(env, source, state="variable")
    expr = parser.parse_expression()
    if not parser.stream.eos:
        token = parser.stream.current
        raise TemplateSyntaxError(f"unexpected {token.type!r} after the expression", token.lineno)
    return expr


def _expression(env, expr, source: str):
    """The parsed expression ``source`` ready to evaluate, and the names it reads: as closures over Jinja2's
    parse tree (generator.layout.expressions), or else ``env.compile_expression`` of it."""
    code = closure(env, expr)
    if code is not None:
        return code, _names_read(expr)
    expr = _parse_expression(env, source)  # parsed again: building the closures folds constants in place
    tree = nodes.Template([nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)], lineno=1)
    tree.set_environment(env)
    code = env.compile(tree)
    template = env.template_class.from_code(env, code, env.make_globals(None), None)
    return TemplateExpression(template, False), _names_read(expr)


def _names_read(expr) -> frozenset:
    """An expression binds no names, so every name it loads is one it reads from outside."""
    return frozenset(node.name for node in expr.find_all(nodes.Name) if node.ctx == "load")


def _template(env, source: str):
    """A compiled template and the names it reads, from one parse of its source (once per environment)."""
    key = ("template", source)
    found = env.compiled.get(key)
    if found is None:
        tree = env.parse(source)
        code = env.compile(tree)
        found = env.compiled[key] = (env.template_class.from_code(env, code, env.make_globals(None), None),
                                     frozenset(meta.find_undeclared_variables(tree)))
    return found


def compile_value(env, node: YNode, expression: bool = False) -> Value:
    """A YAML scalar as a Value; ``expression`` reads a bare string as a Jinja2 expression (show, repeat, vars)."""
    raw = node.value if node.kind == "scalar" else node.plain()
    if not isinstance(raw, str):
        return Value(raw, node.loc)
    whole = _WHOLE_EXPRESSION.match(raw)
    try:
        if whole and "{{" not in whole.group(1) and "}}" not in whole.group(1):
            return _expression_value(env, raw, whole.group(1).strip(), node.loc, bare=False)
        if "{{" in raw or "{%" in raw:
            return Value(raw, node.loc, "template", *_template(env, raw))
        if expression:
            return _expression_value(env, raw, raw, node.loc, bare=True)
    except TemplateSyntaxError as exc:
        line = node.loc.line + (exc.lineno - 1 if exc.lineno else 0)
        raise LayoutError([Problem(Loc(node.loc.file, line, node.loc.col), f"Jinja2 syntax error: {exc.message}")])
    except RecursionError:
        raise LayoutError([Problem(node.loc, "Jinja2 cannot compile this: it is nested too deeply")]) from None
    except Exception as exc:  # Jinja2 works out constant parts while compiling: `{{ 10.id or 'x' }}` fails there
        message = getattr(exc, "message", None) or str(exc)
        raise LayoutError([Problem(node.loc, f"Jinja2 cannot compile this: {type(exc).__name__}: {message}")]) from None
    return Value(raw, node.loc)


def _path_getter(env, parts: list[str]):
    """``card.name`` looked up as Jinja2 would (attribute, then item; sandboxed; undefined if missing), but
    without building a template context: most values in a layout are such plain lookups."""
    first, rest = parts[0], parts[1:]

    def get(ctx: dict):
        value = ctx[first] if first in ctx else env.undefined(name=first)
        for part in rest:
            if type(value) is CardView and part not in _CARD_VIEW_NAMES and part in value.fields:
                value = value.fields[part]  # what the sandbox finds for a card's field (no attribute of that name)
            else:
                value = env.getattr(value, part)
        return value

    return get


@dataclass(frozen=True)
class _Missing:
    """A layout name with no file: reported once, where the name is first written (a card type, deck or sheet
    in game.yaml), however many cards use it."""

    message: str
    loc: Loc | None


class LayoutFiles:
    """Finds, reads and merges the layout files of one game; caches what it read."""

    def __init__(self, game, env):
        self.game = game
        self.env = env
        self.folders = search_folders(game)
        self._compiled: dict[str, Layout | LayoutError | _Missing] = {}
        self._files: dict[tuple[str, Path], Layout] = {}  # each file read once, however many layouts extend it
        self.warnings: list[Problem] = []  # one per card type drawn with the default layout

    def find(self, name: str, after: Path | None = None) -> Path | None:
        """The file for a layout name; with ``after``, only files in folders after that file's folder."""
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,99}", name):  # a longer name would be no file name
            return None
        folders = self.folders
        if after is not None:
            resolved = [f.resolve() for f in folders]
            parent = after.parent.resolve()
            folders = folders[resolved.index(parent) + 1:] if parent in resolved else []
        for folder in folders:
            path = folder / f"{name}.yaml"
            if path.is_file():
                return path
        return None

    def compile(self, uses) -> None:
        """Read and compile every layout in ``uses`` (pairs of a name and where it is used) now, errors included,
        so that drawing later only looks them up and never reads a file."""
        for name, loc in uses:
            if name in self._compiled:
                continue
            try:
                self._compiled[name] = self._compile(name, loc)
            except LayoutError as exc:
                self._compiled[name] = exc

    def layout(self, name: str, loc: Loc | None = None) -> Layout:
        """A compiled layout; a broken or missing one raises its errors (a missing one at ``loc``, where it is used)."""
        if name not in self._compiled:
            self.compile([(name, loc)])
        found = self._compiled[name]
        if isinstance(found, _Missing):
            raise LayoutError([Problem(found.loc or loc or self.game.loc, found.message)])
        if isinstance(found, LayoutError):
            raise found
        return found

    def _compile(self, name: str, loc: Loc | None) -> Layout | _Missing:
        path = self.find(name)
        card_type = self.game.card_types.get(name)
        if path is None and card_type is not None and card_type.layout == name and name != DEFAULT_CARD_LAYOUT:
            self.warnings.append(Problem(card_type.loc or loc or self.game.loc,
                                         f"card type '{name}' has no layout; using the default layout (write "
                                         f"layouts/{name}.yaml in the game folder to give it a face of its own; "
                                         f"{DEFAULT_CARD_LAYOUT}.yaml in deckwright's templates/layouts/ is one to start from)",
                                         "warning"))
            return self._compile(DEFAULT_CARD_LAYOUT, loc)
        if path is None:
            where = ", ".join(display_path(f) for f in self.folders)
            known = sorted({path.stem for folder in self.folders if folder.is_dir() for path in folder.glob("*.yaml")})
            return _Missing(f"no layout '{name}'{did_you_mean(name, known)} (looked for {name}.yaml in {where})", loc)
        layout = self._read(name, path, ())
        problems = check_box_keys(layout.boxes, "boxes")
        ordered, cycle = order_vars(layout.vars)
        if cycle:
            problems.append(Problem(layout.vars[cycle].loc, f"vars.{cycle}: its value depends on itself (through other vars)"))
        if problems:
            raise LayoutError(problems)
        return replace(layout, vars=ordered)

    def _read(self, name: str, path: Path, seen: tuple[Path, ...]) -> Layout:
        key = (name, path.resolve())
        if key not in self._files:
            self._files[key] = self._read_file(name, path, seen)
        return self._files[key]

    def _read_file(self, name: str, path: Path, seen: tuple[Path, ...]) -> Layout:
        shown = display_path(path)
        node, problems = load_yaml_file(path, shown, file_root(self.game, path))
        if node is None and not problems:
            problems = [Problem(Loc(shown), "layout file is empty; expected boxes:")]
        if problems:
            raise LayoutError(problems)
        if node.kind != "map":
            raise LayoutError([Problem(node.loc, f"a layout is a mapping (extends, colors, text_styles, vars, boxes, formats), "
                                                 f"got {node.describe()}")])
        reader = _Reader(self.env, shown)
        own = reader.read(node)
        base = None
        extends = node.get("extends")
        if extends is not None:
            if extends.kind != "scalar" or not isinstance(extends.value, str):
                reader.problems.append(Problem(extends.loc, "extends: expected a layout name"))
            else:
                parent_path = self.find(extends.value, after=path if extends.value == name else None)
                if parent_path is None:
                    reader.problems.append(Problem(extends.loc, f"extends: no layout '{extends.value}'"))
                elif parent_path.resolve() in seen or parent_path.resolve() == path.resolve():
                    reader.problems.append(Problem(extends.loc, f"extends: '{extends.value}' extends this layout again (a loop)"))
                else:
                    base = self._read(extends.value, parent_path, seen + (path.resolve(),))
        if reader.problems:
            raise LayoutError(reader.problems)
        if base is None:
            return Layout(name, shown, node.loc, own["colors"], own["text_styles"], own["vars"], own["boxes"],
                          own["formats"], (shown,))
        styles = dict(base.text_styles)
        for style, props in own["text_styles"].items():
            styles[style] = {**styles.get(style, {}), **props}
        return Layout(name, shown, node.loc, {**base.colors, **own["colors"]}, styles, {**base.vars, **own["vars"]},
                      merge_boxes(base.boxes, own["boxes"]), {**base.formats, **own["formats"]}, (shown, *base.files))


def merge_boxes(base: tuple[Box, ...], own: tuple[Box, ...]) -> tuple[Box, ...]:
    """Boxes of an extending layout: a box with a known name changes the keys it gives; new boxes go on top."""
    merged = list(base)
    index = {box.name: i for i, box in enumerate(merged)}
    for box in own:
        if box.name in index:
            old = merged[index[box.name]]
            kind = box.kind if "kind" in box.props or old.kind == "group" else old.kind
            inherited = old.props
            if kind != old.kind and old.kind != "group":  # an icon made an image: its place kept, not its icon
                inherited = {key: value for key, value in old.props.items() if key in box_keys(kind)}
            merged[index[box.name]] = Box(box.name, kind, box.loc, {**inherited, **box.props},
                                          merge_boxes(old.children, box.children))
        else:
            index[box.name] = len(merged)
            merged.append(box)
    return tuple(merged)


class _Reader:
    """Checks one layout file's keys and compiles its values."""

    def __init__(self, env, shown: str):
        self.env = env
        self.shown = shown
        self.problems: list[Problem] = []

    def value(self, node: YNode, expression: bool = False) -> Value | None:
        try:
            return compile_value(self.env, node, expression)
        except LayoutError as exc:
            self.problems.extend(exc.problems)
            return None

    def unknown(self, key: YNode, allowed, where: str) -> None:
        self.problems.append(Problem(key.loc, f"{where}: unknown key '{key.value}'{did_you_mean(key.value, list(allowed))} "
                                              f"(allowed: {', '.join(allowed)})"))

    def mapping(self, node: YNode | None, what: str) -> list[tuple[YNode, YNode]]:
        if node is None:
            return []
        if node.kind != "map":
            self.problems.append(Problem(node.loc, f"{what}: expected a mapping, got {node.describe()}"))
            return []
        return list(node.value)

    def read(self, node: YNode) -> dict:
        for key, _ in node.value:
            if key.value not in TOP_KEYS:
                self.unknown(key, TOP_KEYS, "layout")
        out: dict[str, Any] = {"colors": {}, "text_styles": {}, "vars": {}, "formats": {}}
        for key, value in self.mapping(node.get("colors"), "colors"):
            compiled = self.value(value)
            if compiled is not None:
                out["colors"][key.value] = compiled
        for key, value in self.mapping(node.get("vars"), "vars"):
            compiled = self.value(value, expression=True)
            if compiled is not None:
                out["vars"][key.value] = compiled
        for key, value in self.mapping(node.get("formats"), "formats"):
            compiled = self.value(value)
            if compiled is not None:
                out["formats"][key.value] = compiled
        for key, value in self.mapping(node.get("text_styles"), "text_styles"):
            props = {}
            for pkey, pvalue in self.mapping(value, f"text_styles.{key.value}"):
                if pkey.value not in STYLE_KEYS:
                    self.unknown(pkey, STYLE_KEYS, f"text_styles.{key.value}")
                    continue
                compiled = self.value(pvalue)
                if compiled is not None:
                    props[pkey.value] = compiled
            out["text_styles"][key.value] = props
        out["boxes"] = self.boxes(node.get("boxes"), "boxes")
        return out

    def boxes(self, node: YNode | None, path: str) -> tuple[Box, ...]:
        boxes = []
        for key, value in self.mapping(node, path):
            box = self.box(key, value, f"{path}.{key.value}")
            if box is not None:
                boxes.append(box)
        return tuple(boxes)

    def box(self, key: YNode, node: YNode, path: str) -> Box | None:
        if node.kind != "map":
            self.problems.append(Problem(node.loc, f"{path}: expected a box (a mapping of kind, position and looks), "
                                                   f"got {node.describe()}"))
            return None
        keys = node.keys()
        kind_node = node.get("kind")
        kind = kind_node.value if kind_node is not None else infer_kind(keys)
        if kind not in KIND_KEYS:
            self.problems.append(Problem(kind_node.loc, f"{path}.kind: unknown kind '{kind}'{did_you_mean(str(kind), list(KIND_KEYS))} "
                                                        f"(kinds: {', '.join(KIND_KEYS)})"))
            return None
        allowed = COMMON_KEYS + KIND_KEYS[kind]
        if kind_node is None:  # an inferred kind: a box that only changes keys of an inherited one may use any kind's keys
            allowed = COMMON_KEYS + tuple(k for keys_ in KIND_KEYS.values() for k in keys_)
        props: dict[str, Value] = {}
        children: tuple[Box, ...] = ()
        for k, v in node.value:
            name = k.value
            if name not in allowed:
                self.unknown(k, allowed, path)
                continue
            if name == "boxes":
                children = self.boxes(v, f"{path}.boxes")
                continue
            if name == "step":
                if v.kind != "seq" or len(v.value) != 2:
                    self.problems.append(Problem(v.loc, f"{path}.step: expected [dx, dy], the offset from one repeated copy to the next"))
                    continue
                for axis, item in zip(("step_x", "step_y"), v.value):
                    compiled = self.value(item)
                    if compiled is not None:
                        props[axis] = compiled
                continue
            if v.kind != "scalar":
                self.problems.append(Problem(v.loc, f"{path}.{name}: expected a single value, got {v.describe()}"))
                continue
            compiled = self.value(v, expression=name in ("show", "repeat"))
            if compiled is not None:
                props[name] = compiled
        return Box(key.value, kind, node.loc, props, children)


def order_vars(values: dict[str, Value]) -> tuple[dict[str, Value], str | None]:
    """Vars in an order where each comes after the vars it uses (else in the order written); a var in a loop is named."""
    ordered: dict[str, Value] = {}
    visiting: set[str] = set()
    cycle: list[str] = []

    def visit(name: str) -> None:
        if name in ordered or cycle:
            return
        if name in visiting:
            cycle.append(name)
            return
        visiting.add(name)
        for dep in sorted(values[name].names & values.keys() - {name}):
            visit(dep)
        visiting.discard(name)
        ordered[name] = values[name]

    for name in values:
        visit(name)
    return (ordered if not cycle else values), (cycle[0] if cycle else None)


def box_keys(kind: str) -> set[str]:
    """The keys a box of ``kind`` may have."""
    return set(COMMON_KEYS + KIND_KEYS[kind]) | {"step_x", "step_y"}


def check_box_keys(boxes: tuple[Box, ...], path: str) -> list[Problem]:
    """Keys that do not belong to a box's kind (checked once inherited and own keys are merged)."""
    problems = []
    for box in boxes:
        allowed = box_keys(box.kind)
        for key, value in box.props.items():
            if key not in allowed:
                article = "an" if box.kind[:1] in "aeiou" else "a"
                problems.append(Problem(value.loc, f"{path}.{box.name}: {article} {box.kind} box has no key '{key}' "
                                                   f"(its keys: {', '.join(KIND_KEYS[box.kind] + COMMON_KEYS)})"))
        problems.extend(check_box_keys(box.children, f"{path}.{box.name}.boxes"))
    return problems


def infer_kind(keys: list[str]) -> str:
    if "text" in keys:
        return "text"
    if "icon" in keys:
        return "icon"
    if "src" in keys:
        return "image"
    if "fill" in keys or "stroke" in keys:
        return "rect"
    return "group"
