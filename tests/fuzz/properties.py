"""Property-based fuzzing of what reads a game folder (issue 13): shared by ``tests/test_fuzz.py`` (a few
thousand inputs in every test run) and ``tests/fuzz/run.py`` (100,000 and more, with figures).

Four targets, each fed generated inputs and inputs mutated from the bundled games:

- the YAML loader (``parse_yaml``): any text;
- the card-type validator (``load_game_with_warnings``): a game folder with a mutated ``game.yaml`` and card file;
- the layout evaluator: Jinja2 expressions and templates (generated from a grammar of the names, attributes,
  filters and operators a layout can use, and mutated from the bundled layouts) compiled and resolved against
  a real card's context, and whole mutated layout files laid out for every card of a small game;
- the example-block parser (``find_examples``), then each example replayed by a real rules module.

Properties, checked for every input: it ends normally or with located problems (a ``Problem`` whose
``file:line:col`` names the input's file), never with any other exception; it writes, renames or removes
nothing outside its scratch folder (an audit hook watches); it takes bounded time (INPUT_SECONDS).
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent.parent
BUNDLED = ROOT / "cards"
TINY = ROOT / "tests" / "bad_inputs" / "base"
MINI_HUNT = ROOT / "tests" / "fixtures" / "engine" / "mini-hunt"
INPUT_SECONDS = 20.0  # one input, however hostile: a face may take FACE_SECONDS, and a game has a few faces

# -- the corpus: what the bundled games hold ------------------------------------------------------------------

_EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


def _texts(pattern: str) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(ROOT.glob(pattern))]


YAML_CORPUS = _texts("cards/*/*.yaml") + _texts("templates/layouts/**/*.yaml")
GAME_FILES = _texts("cards/*/game.yaml")
CARD_FILES = [text for path, text in zip(sorted(BUNDLED.glob("*/*.yaml")), _texts("cards/*/*.yaml"))
              if path.name != "game.yaml"]
LAYOUT_FILES = _texts("templates/layouts/*/*.yaml")
LAYOUT_SNIPPETS = sorted({m.group(0) for text in LAYOUT_FILES for m in _EXPRESSION.finditer(text)})
PAGES = _texts("cards/*/rulebook/*.md")
EXAMPLE_BLOCKS = [m.group(0) for text in PAGES for m in re.finditer(r"```example\n.*?\n```", text, re.S)]

NASTY = [
    "*a", "&a ", "<<: *a", "!!python/object/apply:os.system ['touch /tmp/pwned']", "!!binary AAAA", "!ruby/obj",
    "{", "}", "[", "]", "'", '"', "\t", "\0", "\x1b[2J", "\u202e", "\ud800", "\ufeff", ": ", "- ", "? ", "|", ">",
    "---", "...", "#", "%YAML 1.1", "~", ".nan", ".inf", "-.inf", "0x1f", "1e999", "1.0e+999", "9" * 5000, "a" * 3000,
    "9" * 400, "\u00b2",  # a number too long for a float (not for int()); a digit int() cannot read
    "{{ ", " }}", "{% ", " %}", "{{ game.root }}", "{{ 'a' * 10**10 }}", "{% for i in range(10000) %}",
    "{% endfor %}", "10**400", "copies: 100000000", "id: con", "id: " + "x" * 300, "{open: ''}", "{open: x}",
    "D1000000", "100d6+100d6", "[[", "]]", "\n", "\n  ", "\r\n", "é", "🂡", "\\", "..\\..\\", "../../etc/passwd",
    "/etc/passwd", "src: ../../x.png", "javascript:alert(1)",
]

# -- generated and mutated text -----------------------------------------------------------------------------------


@st.composite
def mutated(draw, corpus: list[str], max_edits: int = 6) -> str:
    """A text of the corpus with a few random edits: a slice deleted, doubled or moved, a nasty token inserted."""
    text = draw(st.sampled_from(corpus))
    for _ in range(draw(st.integers(0, max_edits))):
        size = len(text)
        at = draw(st.integers(0, size))
        end = min(size, at + draw(st.integers(0, 200)))
        edit = draw(st.sampled_from(("delete", "double", "insert", "insert", "replace", "move")))
        if edit == "delete":
            text = text[:at] + text[end:]
        elif edit == "double":
            text = text[:end] + text[at:end] + text[end:]
        elif edit == "insert":
            text = text[:at] + draw(st.sampled_from(NASTY) | st.text(max_size=20)) + text[at:]
        elif edit == "replace":
            text = text[:at] + draw(st.sampled_from(NASTY)) + text[end:]
        else:
            piece = text[at:end]
            rest = text[:at] + text[end:]
            where = draw(st.integers(0, len(rest)))
            text = rest[:where] + piece + rest[where:]
    return text


yaml_texts = st.one_of(mutated(YAML_CORPUS), st.text(max_size=400),
                       st.lists(st.sampled_from(NASTY), max_size=12).map("".join))

NAMES = ["card", "game", "deck", "type", "back", "sheet", "constants", "colors", "data", "width", "height",
         "bleed", "fmt", "referring", "field_text", "icon_names", "range", "namespace", "value", "loop", "self",
         "cycler", "joiner", "lipsum", "dict", "config", "request", "__builtins__"]
ATTRIBUTES = ["name", "id", "copies", "fields", "get", "cards", "cards_of", "card", "decks", "title", "root", "pages",
              "path", "parent", "joinpath", "write_text", "read_text", "unlink", "__class__", "__mro__", "mro",
              "__subclasses__", "__globals__", "__init__", "__dict__", "_by_id", "items", "keys", "format",
              "format_map", "center", "replace", "join", "upper", "dice", "groups", "note", "loc", "file", "text",
              "count", "to_bytes", "translate", "gi_frame", "func_globals", "environment", "size", "width"]
FILTERS = ["upper", "lower", "length", "list", "join", "replace", "map", "select", "selectattr", "sort", "groupby",
           "center", "indent", "wordwrap", "truncate", "format", "int", "float", "round", "sum", "max", "min",
           "unique", "reverse", "string", "tojson", "pprint", "batch", "slice", "random", "attr", "items",
           "dictsort", "first", "last", "default", "e", "safe", "urlize", "xmlattr", "filesizeformat", "card_name",
           "card_of", "mix", "plus", "title", "trim", "striptags", "wordcount"]
LITERALS = ["0", "1", "-1", "2", "10", "1000", "10**9", "10**400", "1e308", "0.5", "'x'", "'a'*100", "''",
            "'%s'", "'{:>99999}'", "'%99999d'", "[1, 2, 3]", "{'a': 1}", "none", "true", "'#ff0000'", "'poker'"]


def _expressions(depth: int) -> st.SearchStrategy[str]:
    atom = st.sampled_from(NAMES) | st.sampled_from(LITERALS)
    if depth <= 0:
        return atom
    inner = _expressions(depth - 1)
    return st.one_of(
        atom,
        st.tuples(inner, st.sampled_from(ATTRIBUTES)).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, st.lists(inner, max_size=2)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, st.sampled_from(FILTERS), st.lists(inner, max_size=2)).map(
            lambda t: f"{t[0]}|{t[1]}" + (f"({', '.join(t[2])})" if t[2] else "")),
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "~", "==", "<", " and ", " or ",
                                          " in "]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    )


EXPRESSIONS = _expressions(3)
STATEMENTS = st.one_of(
    EXPRESSIONS.map(lambda e: "{{ " + e + " }}"),
    st.tuples(EXPRESSIONS, EXPRESSIONS).map(lambda t: "{% for x in " + t[0] + " %}{{ x }}{{ " + t[1] + " }}{% endfor %}"),
    st.tuples(EXPRESSIONS, EXPRESSIONS).map(
        lambda t: "{% for a in " + t[0] + " %}{% for b in " + t[0] + " %}{{ " + t[1] + " }}{% endfor %}{% endfor %}"),
    EXPRESSIONS.map(lambda e: "{% macro m(n) %}{{ m(n ~ n) }}{{ " + e + " }}{% endmacro %}{{ m('ab') }}"),
    EXPRESSIONS.map(lambda e: "{% set ns = namespace(v=" + e + ") %}{% for i in range(50) %}{% set ns.v = ns.v ~ ns.v %}"
                              "{% endfor %}{{ ns.v }}"),
    EXPRESSIONS.map(lambda e: "{% include " + e + " %}{% import " + e + " as x %}"),
)
layout_sources = st.one_of(EXPRESSIONS, STATEMENTS, mutated(LAYOUT_SNIPPETS, 3),
                           st.lists(STATEMENTS | st.text(max_size=10), max_size=4).map("".join))
pages = st.one_of(
    st.lists(mutated(EXAMPLE_BLOCKS, 4) | st.text(max_size=30), min_size=1, max_size=4).map("\n\n".join),
    mutated(PAGES, 6),
)

# -- the watchdog: nothing written outside the scratch folder ----------------------------------------------------


class Watch:
    """An audit hook (installed once per process) that records every write, rename and removal while armed."""

    _installed: "Watch | None" = None

    def __init__(self):
        self.allowed: tuple[str, ...] = ()
        self.armed = False
        self.breaches: list[str] = []

    @classmethod
    def get(cls) -> "Watch":
        if cls._installed is None:
            cls._installed = cls()
            sys.addaudithook(cls._installed.hook)
        return cls._installed

    def hook(self, event: str, args) -> None:
        if not self.armed:
            return
        paths = []
        if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            mode, flags = (args[1] or "r"), (args[2] or 0)
            writing = any(c in str(mode) for c in "wax+") or flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
            paths = [args[0]] if writing else []
        elif event in ("os.remove", "os.rename", "os.replace", "os.rmdir", "os.mkdir", "shutil.rmtree",
                       "os.symlink", "os.link", "os.truncate", "os.chmod", "os.utime"):
            paths = [a for a in args[:2] if isinstance(a, (str, bytes, os.PathLike))]
        for path in paths:
            real = self._resolve(os.fsdecode(path), args)
            if not real.startswith(self.allowed) and "__pycache__" not in real:  # Python's own bytecode cache
                self.breaches.append(f"{event} {real}")


    @staticmethod
    def _resolve(path: str, args) -> str:
        """The real path an event names; a path relative to a folder descriptor (``dir_fd``) is resolved through it."""
        fds = [a for a in args[1:] if isinstance(a, int) and not isinstance(a, bool) and a >= 0]
        if not os.path.isabs(path) and fds and os.path.exists(f"/proc/self/fd/{fds[-1]}"):
            path = os.path.join(os.readlink(f"/proc/self/fd/{fds[-1]}"), path)
        return os.path.realpath(path)


class Scratch:
    """A scratch folder per process, emptied between inputs; the only place an input may write."""

    def __init__(self):
        base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        self.root = Path(tempfile.mkdtemp(prefix="deckwright-fuzz-", dir=base)).resolve()
        self.watch = Watch.get()

    def game(self, files: dict[str, str], base: Path = TINY) -> Path:
        folder = self.root / "game"
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(base, folder)
        for rel, text in files.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text, encoding="utf-8", errors="surrogatepass")
        return folder

    def run(self, check, *args) -> float:
        """``check(*args)`` armed: the property's own assertions, plus no writes outside, plus bounded time."""
        self.watch.allowed = (str(self.root), tempfile.gettempdir() + "/pytest-of-")
        self.watch.breaches = []
        start = time.monotonic()
        self.watch.armed = True
        try:
            check(*args)
        finally:
            self.watch.armed = False
        took = time.monotonic() - start
        assert not self.watch.breaches, self.watch.breaches
        assert took < INPUT_SECONDS, f"took {took:.1f} s"
        return took

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


# -- the properties -----------------------------------------------------------------------------------------------


def assert_located(problems, *shown: str) -> None:
    """Every problem is a Problem at a line and column of one of the ``shown`` files, printed as one safe line."""
    from deckwright.rules.problems import Problem

    for problem in problems:
        assert isinstance(problem, Problem), problem
        assert problem.loc.line >= 1 and problem.loc.col >= 1, problem
        assert problem.loc.file.startswith(shown), (problem, shown)
        text = str(problem)
        assert "\n" not in text and "\x1b" not in text, text


def yaml_loader(text: str) -> None:
    from deckwright.rules.data.yamlsrc import parse_yaml

    node, problems = parse_yaml(text, "f.yaml")
    assert_located(problems, "f.yaml")
    if node is not None:
        node.plain()


def card_files(game_text: str, card_text: str) -> dict[str, str]:
    return {"game.yaml": game_text, "heroes.yaml": card_text, "monsters.yaml": "cards:\n"}


def card_validator(folder: Path) -> None:
    from deckwright.rules.load import load_game_with_warnings

    game, problems = load_game_with_warnings(folder)
    assert_located(problems.items, str(folder))
    assert game is not None or problems.errors


class LayoutTarget:
    """A small real game, its faces and one card's context, made once; sources compiled and resolved against it."""

    def __init__(self, seconds: float = 2.0, steps: int = 100_000):
        from deckwright.generator.layout.faces import Faces
        from deckwright.rules.load import load_game

        self.game = load_game(TINY)
        self.faces = Faces(self.game)
        self.faces.measurer.seconds = seconds
        self.ctx = self.faces.card_context(self.game.cards[0])
        self.seconds = seconds
        self.steps = steps  # a tenth of a face's: inputs that loop end sooner, through the same checks

    def value(self, source: str) -> None:
        from deckwright.generator.layout.files import LayoutError, compile_value
        from deckwright.generator.layout.measure import ValueFailure, resolve
        from deckwright.rules.data.yamlsrc import YNode
        from deckwright.rules.problems import Loc

        node = YNode("scalar", Loc("layout.yaml", 3, 5), source, "str", source)
        try:
            value = compile_value(self.faces.env, node, expression=True)
        except LayoutError as exc:
            assert_located(exc.problems, "layout.yaml")
            return
        with self.faces.env.evaluating(self.seconds, self.steps):
            for kind in ("length", "text"):  # a number or a length, and text: every conversion a value goes through
                try:
                    resolve(value, dict(self.ctx), kind, 63.5, {"ink": "#000000"})
                except ValueFailure as exc:
                    assert exc.message
                    if exc.fatal:
                        return

    @staticmethod
    def layout_file(folder: Path) -> None:
        """The tiny game's hero layout replaced (``Scratch.game({"layouts/hero.yaml": text})``), every face laid out."""
        from deckwright.generator.layout.fitcheck import layout_warnings
        from deckwright.rules.load import load_game

        assert_located(layout_warnings(load_game(folder)), str(folder), "templates/", str(ROOT))


class ExampleTarget:
    """The mini-hunt game (Nightmare Hunt's rules), its rulebook page replaced by the input."""

    def __init__(self, scratch: Scratch):
        from deckwright.rules.games import rules_module
        from deckwright.rules.load import load_game

        self.folder = scratch.game({}, base=MINI_HUNT)
        self.game = load_game(self.folder)
        self.module = rules_module(self.game)

    def page(self, text: str) -> None:
        from deckwright.rules.book.examples import find_examples, replay_example
        from deckwright.rules.data.model import Page

        page = Page("hunt", "Hunt", self.folder / "rulebook" / "hunt.md", "mini-hunt/rulebook/hunt.md", text)
        game = replace(self.game, pages=(page,))
        for example in find_examples(game):
            result = replay_example(game, example, self.module)
            assert result.verdict in ("verified", "erratum", "failing")
            assert str(result.loc).startswith("mini-hunt/rulebook/hunt.md:") or result.loc == example.loc, result
