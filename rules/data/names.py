"""Names that become file names: ids, slugs, rulebook pages, example names.

A build turns them into ``<slug>/``, ``deck-<deck>.pdf``, ``rules/<page>.html``,
``schema/<type>.json`` and golden logs, so each must make a file that exists on
every system a game may be built on: not too long, and not a name Windows
reserves (``CON``, ``aux``, ``com1``, ``nul``, with or without an extension).
"""
from __future__ import annotations

import re

MAX_ID_LENGTH = 64
MAX_FILE_NAME = 120  # characters of a file name deckwright makes from a name (most systems allow 255 bytes)
WINDOWS_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))})
# What a rulebook page's file name may hold: it becomes a web page's name.
PAGE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def reserved(name: str) -> bool:
    """Whether Windows refuses a file called ``name`` (its part before the first dot, in any case)."""
    return name.split(".")[0].strip().lower() in WINDOWS_RESERVED


def _length_or_reserved(name: str, what: str, longest: int) -> str | None:
    if len(name) > longest:
        return f"{what} has at most {longest} characters, this one {len(name)}"
    if reserved(name):
        return f"'{name}' is a name Windows reserves for a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9); choose another"
    return None


# The folders a build writes beside the games' own (out/site, out/simulate) and inside the site beside them
# (site/assets): a game with one of these slugs would be written over them, or they over it.
OUTPUT_FOLDERS = ("site", "simulate", "assets")


def slug_problem(slug: str) -> str | None:
    """Why a game's slug cannot name its output folder, or None."""
    if slug.lower() in OUTPUT_FOLDERS:
        return (f"'{slug}' names a folder deckwright writes beside every game's ({', '.join(OUTPUT_FOLDERS)}); "
                f"choose another slug")
    return None


# deckwright's own files in a game's schema/ folder (<name>.json), beside one a card type (<type>.json, <type>.csv):
# a card type with one of these ids would be written over one of them, or it over the type's.
SCHEMA_FILES = {"game": "game.yaml", "cards": "a card file of any type", "readings": "readings.yaml",
                "fonts": "fonts/fonts.yaml"}


def type_id_problem(type_id: str) -> str | None:
    """Why a card type's id cannot name its schema files (``schema/<type>.json``), or None."""
    if type_id in SCHEMA_FILES:
        return (f"'{type_id}' names deckwright's own schema/{type_id}.json (for {SCHEMA_FILES[type_id]}), which a card "
                f"type's schema would replace; choose another id for this type")
    return id_problem(type_id)


def id_problem(name: str) -> str | None:
    """Why an id cannot be used as part of a file name, or None."""
    return _length_or_reserved(name, "an id", MAX_ID_LENGTH)


def page_name_problem(stem: str) -> str | None:
    """Why a rulebook page's file name cannot name a web page, or None."""
    if not PAGE_NAME.match(stem):
        return (f"the page's file name '{stem}' has characters a web page's name cannot have everywhere; "
                "use letters, digits, '-', '_' and '.'")
    return _length_or_reserved(stem, "a page's file name", MAX_ID_LENGTH)


def file_name_problem(name: str) -> str | None:
    """Why a file name deckwright makes (``<example>.log``) cannot exist everywhere, or None."""
    return _length_or_reserved(name, "a file name", MAX_FILE_NAME)


def portable_file_name(name: str) -> str:
    """``name`` with every character some system refuses in a file name replaced by '-' (for copied pictures)."""
    cleaned = re.sub(r'[<>:"/\\|?*\x00-\x1f\x7f]', "-", name).strip(" .") or "file"
    return f"{cleaned}-file" if reserved(cleaned) else cleaned[:MAX_FILE_NAME]
