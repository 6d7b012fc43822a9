"""The site's own templates compiled once and read back by later builds (generator.site.template_cache): the
same pages as compiled afresh, an entry used only for the same source and compile options, a damaged entry
compiled again, and no cache at all where the folder is not this user's own."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import jinja2
import pytest
from conftest import output_contents

from deckwright.generator.site import build_site
from deckwright.generator.site.template_cache import cache_folder, template_cache
from deckwright.rules.load import load_game


@pytest.fixture
def cache_home(tmp_path, monkeypatch) -> Path:
    """This user's cache folder for the compiled templates, under ``tmp_path``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "deckwright" / "site-templates"


def entries(cache_home: Path) -> list[Path]:
    return sorted(cache_home.glob("__deckwright_site_*.cache"))


def site_of(game, folder: Path) -> dict[str, object]:
    build_site([game], folder)
    return output_contents(folder)


def test_a_site_from_compiled_templates_read_back_is_the_same(tiny, tmp_path, cache_home, monkeypatch):
    game = load_game(tiny())
    fresh = site_of(game, tmp_path / "fresh")
    assert len(entries(cache_home)) == 8  # the templates of a game with no odds, balance or readings page

    def no_compiling(*args, **kwargs):
        raise AssertionError("a template was compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    assert site_of(game, tmp_path / "cached") == fresh


def test_a_damaged_entry_is_compiled_again(tiny, tmp_path, cache_home):
    game = load_game(tiny())
    fresh = site_of(game, tmp_path / "fresh")
    for entry in entries(cache_home):
        entry.write_bytes(entry.read_bytes()[:40] + b"\x00garbage")
    assert site_of(game, tmp_path / "again") == fresh
    assert site_of(game, tmp_path / "rewritten") == fresh


def test_an_entry_is_used_only_under_the_same_compile_options(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "cache").mkdir()
    (tmp_path / "templates" / "page.html").write_text("{% if true %}\nyes\n{% endif %}\n", encoding="utf-8")

    def rendered(trim_blocks: bool) -> str:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path / "templates")), trim_blocks=trim_blocks)
        env.bytecode_cache = template_cache(env, tmp_path / "cache")
        return env.get_template("page.html").render()

    assert rendered(True) == "yes\n"
    assert rendered(False) == "\nyes\n"
    assert rendered(True) == "yes\n"
    assert len(list((tmp_path / "cache").iterdir())) == 2


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="a folder's owner is checked on POSIX only")
def test_no_cache_where_the_folder_is_not_this_users_own(tiny, tmp_path, cache_home):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cache_home.parent.mkdir(parents=True)
    cache_home.symlink_to(elsewhere, target_is_directory=True)
    assert template_cache(jinja2.Environment()) is None
    game = load_game(tiny())
    assert "index.html" in site_of(game, tmp_path / "site")
    assert list(elsewhere.iterdir()) == []


def test_the_cache_folder_is_made_for_this_user_alone(cache_home, tmp_path, monkeypatch):
    assert cache_folder() == cache_home and stat.S_IMODE(cache_home.stat().st_mode) == 0o700
    cache_home.chmod(0o777)
    assert cache_folder() == cache_home and stat.S_IMODE(cache_home.stat().st_mode) == 0o700
    assert cache_folder({"XDG_CACHE_HOME": "relative", "HOME": str(tmp_path / "home")}) == \
        tmp_path / "home" / ".cache" / "deckwright" / "site-templates"
    assert cache_folder({"XDG_CACHE_HOME": "relative"}) is None
