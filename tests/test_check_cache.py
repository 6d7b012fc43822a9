"""``deckwright check``'s cache: an unchanged game prints, exits and reports to --junit exactly as it did, without
being loaded; any change to what its check reads checks it again; the cache never goes inside a game folder,
never trusts a damaged entry, and is neither read nor written with --no-cache, --update-golden or in CI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import need_tools

from deckwright.generator import cli, parallel
from deckwright.generator.check import cache, inputs, run
from deckwright.generator.new import write_new_game

MARKER = "DECKWRIGHT_TEST_IMPORTS"  # the file the game's rules module appends a line to each time it is imported
COUNTS_IMPORTS = f"""
import os as _os
with open(_os.environ["{MARKER}"], "a", encoding="utf-8") as _imports:
    _imports.write("imported\\n")
"""
# what a run in which every game is unchanged must not import: the loader, the checks, YAML, layouts, workers
NOT_IMPORTED = ("deckwright.rules.load", "deckwright.rules.ci.check", "deckwright.generator.layout.fitcheck",
                "deckwright.generator.parallel", "yaml", "reportlab", "jinja2", "multiprocessing")


@pytest.fixture
def duel(tmp_path, monkeypatch) -> Path:
    """``deckwright new``'s game as ``tmp_path/duel``, its rules module counting its imports in
    ``tmp_path/imports.txt``, run from ``tmp_path`` without CI set."""
    folder = tmp_path / "duel"
    write_new_game(folder, "Duel")
    with open(folder / "rules.py", "a", encoding="utf-8") as handle:
        handle.write(COUNTS_IMPORTS)
    monkeypatch.setenv(MARKER, str(tmp_path / "imports.txt"))
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.chdir(tmp_path)
    return folder


def golden(folder: Path) -> Path:
    [path] = (folder / "rulebook" / "rules.golden").glob("*.jsonl")
    return path


def imports(folder: Path) -> int:
    marker = folder.parent / "imports.txt"
    return len(marker.read_text().splitlines()) if marker.exists() else 0


def entries(here: Path) -> list[Path]:
    return sorted((here / cache.CACHE_FOLDER / cache.ENTRIES).glob("*.json"))


def check(capfd, *args: str) -> tuple[int, str, str]:
    status = cli.main(["check", "duel", *args])
    out, err = capfd.readouterr()
    return status, out, err


@pytest.fixture
def checked(monkeypatch) -> list[Path]:
    """The game folders checked (not printed from the cache) from here on, in this process (one part after
    another, as on one core)."""
    folders = []
    check_part = run.check_part

    def counted(part, options):
        if part.rules:
            folders.append(part.folder)
        return check_part(part, options)

    monkeypatch.setattr(parallel, "cores", lambda: 1)
    monkeypatch.setattr(run, "check_part", counted)
    return folders


DRIVER = """
import sys
from deckwright.generator import cli
status = cli.main(sys.argv[1:])
loaded = [name for name in {not_imported!r} if name in sys.modules]
print("loaded: " + " ".join(loaded), file=sys.stderr)
sys.exit(status)
"""


def deckwright(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``deckwright ARGS`` in a fresh process; its stderr ends with a line naming the heavy modules it imported."""
    code = DRIVER.format(not_imported=NOT_IMPORTED)
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True)


def test_a_warm_check_prints_the_same_without_loading_the_game(duel):
    path = golden(duel)
    path.write_text(path.read_text().replace("hit", "miss", 1))  # the example now fails: exit 1, a failure in junit
    cold = deckwright("check", "duel", "--junit", "cold.xml", cwd=duel.parent)
    assert cold.returncode == 1 and "failing" in cold.stdout
    assert "loaded: " in cold.stderr and "deckwright.rules.load" in cold.stderr.splitlines()[-1]
    assert imports(duel) == 1
    warm = deckwright("check", "duel", "--junit", "warm.xml", cwd=duel.parent)
    assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
    assert warm.stderr.splitlines()[:-1] == cold.stderr.splitlines()[:-1]
    assert warm.stderr.splitlines()[-1] == "loaded: "  # nothing that loads, checks, lays out or forks
    assert imports(duel) == 1  # the rules module was not run again
    cold_xml, warm_xml = (duel.parent / name for name in ("cold.xml", "warm.xml"))
    assert "<failure" in cold_xml.read_text() and warm_xml.read_bytes() == cold_xml.read_bytes()
    assert (duel.parent / cache.CACHE_FOLDER / cache.TAG).read_text().startswith("Signature: 8a477f59")


def test_the_cache_keeps_itself_out_of_git(duel, capfd, checked):
    """A designer's repository does not show the cache as a file to add (git reads the cache's own .gitignore);
    one made before it had one gets it, and a .gitignore already there is left as it is."""
    need_tools("git", package="git")
    repo = duel.parent
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    check(capfd)
    ignore = repo / cache.CACHE_FOLDER / ".gitignore"
    assert ignore.read_text() == cache.GITIGNORE_TEXT
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo, capture_output=True,
                            text=True, check=True).stdout
    assert status and cache.CACHE_FOLDER not in status, status
    ignore.write_text("# mine\n*\n")
    check(capfd, "--no-code")  # a new entry written: the .gitignore there is not touched
    assert ignore.read_text() == "# mine\n*\n"


def change_card(folder: Path) -> None:
    heroes = folder / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("name: ", "name: Sir ", 1))


def change_golden(folder: Path) -> None:
    path = golden(folder)
    path.write_text(path.read_text().replace("hit", "miss", 1))


def change_rules(folder: Path) -> None:
    with open(folder / "rules.py", "a", encoding="utf-8") as handle:
        handle.write("\nCONSTANTS = 3  # breaks the protocol\n")


def add_font(folder: Path) -> None:
    (folder / "fonts").mkdir(exist_ok=True)
    (folder / "fonts" / "Extra.ttf").write_bytes(b"not really a font")


@pytest.mark.parametrize("change", [change_card, change_golden, change_rules, add_font])
def test_a_change_is_checked_again(duel, capfd, checked, change):
    cold = check(capfd)
    assert checked == [Path("duel")]
    change(duel)
    after = check(capfd)
    assert checked == [Path("duel")] * 2  # checked again, not printed from the cache
    assert after == check(capfd, "--no-cache")  # as a check without any cache prints it
    if change is not add_font:
        assert after != cold


def test_an_unchanged_game_is_not_checked_again(duel, capfd, checked):
    cold = check(capfd)
    assert check(capfd) == cold and checked == [Path("duel")]
    assert check(capfd, "--no-code") != cold and len(checked) == 2  # another way to check: its own entry
    assert check(capfd) == cold and len(checked) == 2


@pytest.mark.parametrize("damage", ["not json", '{"format": "other"}', "[]", "same key, a line that is not one",
                                    "same key, a case that is not one"])
def test_a_damaged_or_foreign_entry_is_ignored(duel, capfd, checked, damage):
    cold = check(capfd)
    [entry] = entries(duel.parent)
    if damage.startswith("same key"):
        data = json.loads(entry.read_text())
        if "line" in damage:
            data["lines"][0] = ["made up", "yes"]
        else:
            data["suite"]["cases"][0]["line"] = "4"
        damage = json.dumps(data)
    entry.write_text(damage)
    assert check(capfd) == cold and len(checked) == 2
    assert json.loads(entry.read_text())["lines"][0][0] != "made up"  # written anew
    assert check(capfd) == cold and len(checked) == 2


def test_no_cache_neither_reads_nor_writes_it(duel, capfd, checked):
    cold = check(capfd, "--no-cache")
    assert not (duel.parent / cache.CACHE_FOLDER).exists()
    check(capfd)
    assert check(capfd, "--no-cache") == cold and len(checked) == 3


def test_update_golden_never_reads_the_cache(duel, capfd, checked, monkeypatch):
    change_golden(duel)
    assert check(capfd)[0] == 1
    read = cache.read
    reads = []
    monkeypatch.setattr(cache, "read", lambda *args: reads.append(args) or read(*args))
    assert check(capfd, "--update-golden")[0] == 0 and len(checked) == 2 and reads == []
    assert check(capfd)[0] == 0 and len(checked) == 3  # the golden log it wrote changed the key


def test_ci_has_no_cache(duel, capfd, checked, monkeypatch):
    monkeypatch.setenv("CI", "true")
    cold = check(capfd)
    assert check(capfd) == cold and len(checked) == 2
    assert not (duel.parent / cache.CACHE_FOLDER).exists()


def test_a_cache_folder_deckwright_did_not_make_is_left_alone(duel, capfd, checked):
    foreign = duel.parent / cache.CACHE_FOLDER
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    cold = check(capfd)
    assert check(capfd) == cold and len(checked) == 2
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]


def test_no_cache_inside_a_game_folder(duel, capfd, checked, monkeypatch):
    monkeypatch.chdir(duel)
    assert cli.main(["check"]) == cli.main(["check"]) == 0  # the game in the working folder
    assert len(checked) == 2
    assert not list(duel.parent.rglob(cache.CACHE_FOLDER))


def test_the_key_follows_deckwrights_own_files_and_the_libraries(tmp_path, monkeypatch):
    code = tmp_path / "deckwright"
    for name in ("generator", "rules", "templates"):
        (code / name).mkdir(parents=True)
    monkeypatch.setattr("deckwright.generator.PROJECT_ROOT", code)
    monkeypatch.setattr("deckwright.generator.TEMPLATES", code / "templates")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "site-packages")])
    (tmp_path / "site-packages").mkdir()
    digests = [inputs.install_digest()]
    ruling = code / "rules" / "ruling.py"
    ruling.write_text("X = 1\n")
    digests.append(inputs.install_digest())
    os.utime(ruling, ns=(1, 1))  # edited, same size
    digests.append(inputs.install_digest())
    (tmp_path / "site-packages" / "PyYAML-6.0.2.dist-info").mkdir()
    digests.append(inputs.install_digest())
    assert len(set(digests)) == 4 and inputs.install_digest() == digests[-1]


def test_a_game_edited_while_it_is_checked_is_not_stored(duel, capfd, monkeypatch):
    check_part = run.check_part

    def edited_meanwhile(part, options):
        output = check_part(part, options)
        change_card(duel)
        return output

    monkeypatch.setattr(parallel, "cores", lambda: 1)
    monkeypatch.setattr(run, "check_part", edited_meanwhile)
    check(capfd)
    assert entries(duel.parent) == []
