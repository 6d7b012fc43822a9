"""A game's own fonts: ``fonts/fonts.yaml`` in the game folder, in the shipped fonts' format, read and checked.

Every file is read once, through ``rules.data.confine`` (inside the game folder, links resolved, size
bounded), and only those bytes are used afterwards: ReportLab, Pillow and the site all get the same
bytes, never the path again. What is wrong is a located problem: an error for a file deckwright cannot
embed (not TrueType, embedding forbidden), a warning for a font shipped without its licence, a note for a
family that replaces a shipped one of the same name.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from deckwright.rules.data.confine import MAX_FILE_BYTES, FileRefused, confined, is_confined, read_confined
from deckwright.rules.data.jsonschema import DRAFT
from deckwright.rules.data.yamlsrc import YNode, load_yaml_file
from deckwright.rules.problems import Loc, Problem, did_you_mean, display_path

from .sfnt import embedding_problem

FOLDER = "fonts"  # in the game folder
MANIFEST = "fonts.yaml"
LICENCE_KEYS = ("licence", "license")
MAX_FONT_BYTES = 32 * 1024 * 1024  # one font file (a large CJK font is about 20 MB)
MAX_TOTAL_BYTES = 96 * 1024 * 1024  # all of a game's font files together
MAX_FONT_FILES = 64
MAX_LISTED = 1000  # entries of a fonts folder looked at for a licence file
# A family name goes into PDFs, CSS and SVG attributes: letters, digits, spaces and a little punctuation.
_FAMILY = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}")
_LICENCE_FILE = re.compile(r"(OFL|LICEN[CS]E|COPYING)", re.I)


@dataclass(frozen=True)
class Licence:
    name: str  # the file's name, as the site publishes it
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class FontFile:
    """One face of a game's own family, as read from its folder."""

    family: str
    style: str
    path: Path
    loc: Loc  # where fonts.yaml names the file
    data: bytes = field(repr=False, compare=False)
    digest: str  # sha256 of the bytes, hex
    licence: Licence | None


@dataclass
class GameFonts:
    files: list[FontFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def family_id(self, family: str) -> str:
        """The family's name in display lists, PDFs and CSS: unique to the game's files, so two games in one
        build, or a game and the shipped fonts, never take each other's letters."""
        digest = hashlib.sha256()
        for font in self.files:
            if font.family == family:
                digest.update(f"{font.style}:{font.digest};".encode())
        return f"{family}~{digest.hexdigest()[:12]}"


def fonts_file_schema(styles) -> dict:
    """JSON Schema of fonts.yaml, for editor completion (``deckwright schema`` writes it as fonts.json)."""
    file = {"type": "string", "minLength": 1, "description": "a TrueType (.ttf) file, relative to fonts/"}
    properties = {style: file for style in styles}
    properties.update({key: {"type": "string", "minLength": 1, "description": "the family's licence file, relative "
                                                                               "to fonts/"} for key in LICENCE_KEYS})
    return {
        "$schema": DRAFT,
        "title": "fonts.yaml: a game's own font families",
        "description": "Each family names the TrueType file of each style it has; layouts name the family.",
        "type": "object",
        "propertyNames": {"pattern": f"^{_FAMILY.pattern}$"},
        "additionalProperties": {"type": "object", "properties": properties, "additionalProperties": False,
                                 "anyOf": [{"required": [style]} for style in styles]},
    }


def read_game_fonts(root: Path, shipped_families, styles) -> GameFonts:
    """The fonts ``root/fonts/fonts.yaml`` names (none without that file), with the problems found."""
    folder = root / FOLDER
    manifest = folder / MANIFEST
    out = GameFonts()
    if not (manifest.exists() or manifest.is_symlink()):
        if is_confined(root, folder) and folder.is_dir():
            fonts = sorted(path for path in _listed(folder) if path.suffix.lower() in (".ttf", ".otf"))
            if fonts:
                out.problems.append(Problem(Loc(display_path(fonts[0])), "a font file in fonts/, but no fonts.yaml "
                                            "naming its family (Family: {regular: File.ttf}); it is not used", "warning"))
        return out
    node, problems = load_yaml_file(manifest, display_path(manifest), root)
    out.problems.extend(problems)
    if node is None:
        return out
    if node.kind != "map":
        out.problems.append(Problem(node.loc, "fonts.yaml: expected a mapping of family names to their styles' "
                                              "files (Pirata One: {regular: PirataOne-Regular.ttf})"))
        return out
    reader = _Reader(root, folder, out)
    for key, value in node.value:
        reader.family(key, value, shipped_families, styles)
    return out


def _listed(folder: Path) -> list[Path]:
    """The first MAX_LISTED entries of a folder (a folder of a million files is no reason to stall)."""
    try:
        return list(itertools.islice(folder.iterdir(), MAX_LISTED))
    except OSError:
        return []


class _Reader:
    def __init__(self, root: Path, folder: Path, out: GameFonts):
        self.root, self.folder, self.out = root, folder, out
        self.read: dict[Path, tuple[bytes, str]] = {}  # resolved path -> bytes and digest: a file named twice
        self.total = 0

    def error(self, loc: Loc, message: str, severity: str = "error") -> None:
        self.out.problems.append(Problem(loc, message, severity))

    def family(self, key: YNode, value: YNode, shipped_families, styles) -> None:
        family = key.value
        if not isinstance(family, str) or not _FAMILY.fullmatch(family):
            self.error(key.loc, f"font family name {key.describe()}: use letters, digits, spaces, '.', '_' or '-' "
                                f"(at most 64), starting with a letter or digit")
            return
        if value.kind != "map":
            self.error(value.loc, f"font family '{family}': expected its styles and files "
                                  f"({{regular: File-Regular.ttf, bold: File-Bold.ttf}}), not {value.describe()}")
            return
        if family in shipped_families:
            self.error(key.loc, f"font family '{family}' is the game's own: it replaces the shipped family of that "
                                f"name in this game's cards, sheets, rulebook and site", "note")
        declared = next((v for k, v in value.value if k.value in LICENCE_KEYS), None)
        licence = self.declared_licence(family, declared) if declared is not None else None
        for style_key, file_node in value.value:
            style = style_key.value
            if style in LICENCE_KEYS:
                continue
            if style not in styles:
                self.error(style_key.loc, f"font family '{family}': unknown style '{style}'"
                                          f"{did_you_mean(str(style), styles)} (styles: {', '.join(styles)}, and licence)")
                continue
            self.face(family, style, file_node, licence, declared is not None)

    def declared_licence(self, family: str, node: YNode) -> Licence | None:
        """The licence file fonts.yaml names for a family (None, with an error, when it cannot be read)."""
        path = self.path_of(node, f"font family '{family}': licence")
        if path is None:
            return None
        try:
            return Licence(path.name, read_confined(self.root, path, MAX_FILE_BYTES))
        except FileRefused as exc:
            self.error(node.loc, f"font family '{family}': licence file '{node.value}': {exc.message}")
            return None

    def path_of(self, node: YNode, what: str) -> Path | None:
        """The file a fonts.yaml value names, relative to fonts/; None (with an error) if it cannot be one."""
        if node.scalar_type != "str" or not node.value.strip():
            self.error(node.loc, f"{what}: expected a file name in fonts/, not {node.describe()}")
            return None
        path = Path(os.path.normpath(self.folder / node.value))
        if os.path.isabs(node.value) or not path.is_relative_to(os.path.normpath(self.root)):
            self.error(node.loc, f"{what}: '{node.value}' is outside the game folder; deckwright reads only files "
                                 f"inside it (put the file in fonts/)")
            return None
        return path

    def face(self, family: str, style: str, node: YNode, licence: Licence | None, declared: bool) -> None:
        """One style's file, read and checked; ``licence``: the one fonts.yaml names (``declared``), if any."""
        what = f"font '{family}' {style}"
        path = self.path_of(node, what)
        if path is None:
            return
        if len(self.out.files) >= MAX_FONT_FILES:
            self.error(node.loc, f"{what}: more than {MAX_FONT_FILES} font files; a game needs only a few")
            return
        try:
            resolved = confined(self.root, path)
            if resolved not in self.read:
                data = read_confined(self.root, path, MAX_FONT_BYTES)
                self.total += len(data)
                if self.total > MAX_TOTAL_BYTES:
                    raise FileRefused(f"the game's fonts come to more than {MAX_TOTAL_BYTES // 2**20} MB; "
                                      f"deckwright reads at most that")
                self.read[resolved] = (data, hashlib.sha256(data).hexdigest())
        except FileRefused as exc:
            self.error(node.loc, f"{what}: font file '{node.value}': {exc.message}")
            return
        data, digest = self.read[resolved]
        problem = embedding_problem(data)
        if problem:
            self.error(node.loc, f"{what}: font file '{node.value}' {problem}")
            return
        if not declared:
            licence, refused = self.licence_beside(resolved, family)
            if licence is None and refused:
                self.error(node.loc, f"{what}: the licence file beside '{node.value}', {refused[0]}, cannot be "
                                     f"read: {refused[1]}; the site publishes the font, so ship its licence with "
                                     f"it, inside the game folder", "warning")
            elif licence is None:
                self.error(node.loc, f"{what}: no licence file beside '{node.value}' (OFL.txt, LICENSE.txt, or "
                                     f"{path.stem}.txt) and none named in fonts.yaml (licence: OFL.txt): the site "
                                     f"publishes the font, so ship its licence with it", "warning")
        self.out.files.append(FontFile(family, style, path, node.loc, data, digest, licence))

    def licence_beside(self, path: Path, family: str) -> tuple[Licence | None, tuple[str, str] | None]:
        """A licence file in the font's folder: OFL*, LICENSE*, LICENCE*, COPYING*, or a .txt file whose name
        holds the font file's name or the family's (PirataOne-Regular.txt, PirataOne-OFL.txt); with the first
        one named so that could not be read, and why (a link out, a folder named LICENSE), when none could."""
        names = (path.stem.lower(), family.replace(" ", "").lower())
        refused = None
        for candidate in sorted(_listed(path.parent)):
            name = candidate.name
            if not (_LICENCE_FILE.match(name) or (candidate.suffix.lower() == ".txt"
                                                 and any(n in candidate.stem.lower() for n in names))):
                continue
            try:
                return Licence(name, read_confined(self.root, candidate, MAX_FILE_BYTES)), None
            except FileRefused as exc:
                refused = refused or (name, exc.message)  # not a licence; said if no other is found
        return None, refused
