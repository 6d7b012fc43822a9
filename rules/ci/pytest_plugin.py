"""pytest plugin: every worked example in a game's rulebook is its own test item.

Registered as the ``deckwright`` pytest11 entry point, and inert unless asked:
it collects only under the roots named by the ``deckwright_games`` ini option
(relative to the rootdir; empty by default) or by ``--deckwright-game PATH``
(repeatable; the folder is also added to what pytest collects). There, each
Markdown page that a game lists under ``rulebook:`` becomes a collector with
one item per example block:

    cards/nightmare-hunt/rulebook/armour.md::A hit against Robes PASSED

Other Markdown (READMEs, pages a game does not list, test fixtures outside
the roots) is left alone. A failing example fails with its file:line,
expected vs actual, and the event log; an erratum is reported as xfail.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from deckwright.rules.problems import printable

_CACHE = pytest.StashKey[dict]()


def pytest_addoption(parser) -> None:
    parser.addini("deckwright_games", type="linelist", default=[],
                  help="folders (relative to the rootdir) whose game folders' rulebook examples are collected")
    parser.addoption("--deckwright-game", action="append", default=[], metavar="PATH",
                     help="collect the worked examples of this game folder (repeatable)")


def pytest_configure(config) -> None:
    config.stash[_CACHE] = {}
    for game in config.getoption("deckwright_game"):
        if game not in config.args:
            config.args.append(game)


def _roots(config) -> list[Path]:
    named = [config.rootpath / name for name in config.getini("deckwright_games")]
    return [Path(p).resolve() for p in named + [Path(g) for g in config.getoption("deckwright_game")]]


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".md":
        return None
    folder = _game_folder(file_path, parent.config)
    if folder is None:
        return None
    loaded = _load(parent.config, folder)
    if loaded["game"] is None:
        return RulebookPage.from_parent(parent, path=file_path, loaded=loaded)
    pages = {page.path.resolve() for page in loaded["game"].pages}
    if file_path.resolve() not in pages:
        return None
    return RulebookPage.from_parent(parent, path=file_path, loaded=loaded)


def _game_folder(file_path: Path, config) -> Path | None:
    """The game folder (holding game.yaml) of a file under one of the configured roots."""
    path = file_path.resolve()
    for root in _roots(config):
        if not path.is_relative_to(root):
            continue
        for folder in path.parents:
            if (folder / "game.yaml").is_file():
                return folder
            if folder == root:
                break
    return None


def _load(config, folder: Path) -> dict:
    cache = config.stash[_CACHE]
    if folder not in cache:
        from deckwright.rules.book.examples import find_examples
        from deckwright.rules.games import rules_module
        from deckwright.rules.load import load_game_with_warnings

        from .check import run_consistency

        game, problems = load_game_with_warnings(folder)
        module = rules_module(game) if game is not None and not problems.errors else None
        run_consistency(module, game, problems)
        ok = game is not None and not problems.errors
        cache[folder] = {"game": game if ok else None, "problems": problems.errors,
                         "examples": find_examples(game) if ok else [], "module": module if ok else None}
    return cache[folder]


class RulebookPage(pytest.File):
    def __init__(self, *, loaded: dict, **kwargs):
        super().__init__(**kwargs)
        self.loaded = loaded

    def collect(self):
        if self.loaded["game"] is None:
            yield GameDataItem.from_parent(self, name="game data", problems=self.loaded["problems"])
            return
        here = self.path.resolve()
        for example in self.loaded["examples"]:
            if example.page.path.resolve() == here:
                yield ExampleItem.from_parent(self, name=example.name, example=example, loaded=self.loaded)


class ExampleFailed(Exception):
    def __init__(self, result):
        super().__init__(result.message)
        self.result = result


class InvalidGameData(Exception):
    pass


class ExampleItem(pytest.Item):
    def __init__(self, *, example, loaded: dict, **kwargs):
        super().__init__(**kwargs)
        self.example = example
        self.loaded = loaded

    def runtest(self) -> None:
        from deckwright.rules.book.examples import replay_example

        result = replay_example(self.loaded["game"], self.example, self.loaded["module"])
        if result.verdict == "failing":
            raise ExampleFailed(result)
        if result.verdict == "erratum":
            pytest.xfail(printable(f"erratum: {result.message}"))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ExampleFailed):
            result = excinfo.value.result
            lines = [f"{result.loc}: {result.name}: {result.message}"]
            if result.log:
                lines += ["", "event log:", *(f"  {line}" for line in result.log)]
            return printable("\n".join(lines), keep_newlines=True)  # the game's text must not drive the terminal
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.example.loc.line - 1, f"example: {self.example.name}"


class GameDataItem(pytest.Item):
    def __init__(self, *, problems, **kwargs):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise InvalidGameData(f"{len(self.problems)} problem(s)")

    def repr_failure(self, excinfo, style=None):
        return "the game's data has problems, so its examples cannot run:\n" + "\n".join(map(str, self.problems))

    def reportinfo(self):
        return self.path, None, "game data"
