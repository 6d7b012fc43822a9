"""The output folder (issue 13: D2, D4, D9, D13): deckwright writes only where it may, replaces only what it
wrote, never leaves the output missing, cleans up after a crash, and lets one run at a time write it."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from deckwright.generator import PROJECT_ROOT, cli, output
from deckwright.generator.output import MARKER, locked, staged_folder


def deckwright(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "deckwright.generator.cli", *args], cwd=cwd, capture_output=True,
                            text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def tree(folder: Path) -> dict[str, bytes | str]:
    return {str(p.relative_to(folder)): ("folder" if p.is_dir() else p.read_bytes()) for p in sorted(folder.rglob("*"))}


def renamed(game: Path, slug: str) -> Path:
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("slug: tiny", f"slug: {slug}").replace("Tiny Test Game", slug.title()))
    return game


# -- D2: where output may go ------------------------------------------------------------------------------


def test_a_linked_out_that_resolves_above_the_game_is_refused(tiny, tmp_path):
    game = tiny(name="mini")
    before = tree(game)
    (tmp_path / "outlink").symlink_to(tmp_path)  # the issue's `ln -s $PWD/t2 outlink`
    result = deckwright("build", "mini", "--out", "outlink", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"deckwright: the output folder {tmp_path / 'outlink'} holds the game folder {tmp_path / 'mini'}, "
                             "which a build could replace; choose an output folder outside it\n")
    assert tree(game) == before


@pytest.mark.parametrize("out, words", [
    ("mini", "holds the game folder"),
    ("mini/dist", "is inside the game folder"),
    ("mini-link/dist", "is inside the game folder"),
])
def test_out_to_or_into_a_game_folder_is_refused(tiny, tmp_path, out, words):
    game = tiny(name="mini")
    (tmp_path / "mini-link").symlink_to(game)
    before = tree(game)
    result = deckwright("build", "mini", "--out", out, cwd=tmp_path)
    assert result.returncode == 2 and words in result.stderr and len(result.stderr.splitlines()) == 1
    assert tree(game) == before


def test_a_build_run_in_the_game_folder_names_an_output_folder_beside_it(tiny, tmp_path):
    """Run in a game folder, ``build`` works on that game, and its default output/ would be inside it: the
    refusal says where to write instead."""
    game = tiny(name="mini")
    result = deckwright("build", cwd=game)
    assert result.returncode == 2
    assert result.stderr.endswith("; choose an output folder outside it, such as --out ../output\n")
    assert deckwright("build", "--out", "../output", cwd=game).returncode == 0
    assert [path.parent.name for path in (tmp_path / "output").glob("*/game.json")] == ["tiny"]  # its slug


@pytest.mark.parametrize("out", [".", "..", "cards", "templates/layouts"])
def test_out_to_above_or_into_the_project_is_refused(tiny, out):
    assert cli.main(["build", str(tiny()), "--out", str(PROJECT_ROOT / out)]) == 2


# -- D4: only what deckwright wrote is replaced ---------------------------------------------------------------


def test_an_out_whose_name_is_too_long_for_the_system_is_one_line(tiny, tmp_path, capsys):
    game = tiny()
    out = tmp_path / ("e" * 300)  # longer than a file name may be (255 bytes): every look at it fails
    assert cli.main(["build", str(game), "--out", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"deckwright: cannot write into {out}: File name too long")


def permissions_as_for_a_user(monkeypatch) -> None:
    """os.unlink and os.rmdir refuse, as they do for anyone but root, to remove an entry of a folder its owner may
    not write (these tests run as root in CI, whom the modes do not stop)."""
    import errno
    import stat

    def guarded(remove):
        def call(path, *, dir_fd=None):
            folder = os.fstat(dir_fd) if dir_fd is not None else os.stat(os.path.dirname(os.path.abspath(path)))
            if not folder.st_mode & stat.S_IWUSR:
                raise PermissionError(errno.EACCES, "Permission denied", path)
            return remove(path, dir_fd=dir_fd)
        return call

    monkeypatch.setattr(os, "unlink", guarded(os.unlink))
    monkeypatch.setattr(os, "rmdir", guarded(os.rmdir))


def test_an_earlier_output_made_read_only_is_replaced_and_nothing_is_left_behind(tmp_path, monkeypatch):
    out = tmp_path / "out"
    with staged_folder(out / "game") as folder:  # (as the site's assets copied from a read-only install are)
        (folder / "assets").mkdir()
        (folder / "assets" / "site.css").write_text("a", encoding="utf-8")
    (out / "game" / "assets").chmod(0o555)
    (out / "game").chmod(0o555)
    permissions_as_for_a_user(monkeypatch)
    for build in ("second", "third"):  # the second's leftovers, if any, would stop the third
        with staged_folder(out / "game") as folder:
            (folder / "built.txt").write_text(build, encoding="utf-8")
        assert (out / "game" / "built.txt").read_text(encoding="utf-8") == build
        assert [entry.name for entry in out.iterdir() if entry.name.startswith(".game.")] == []


def test_a_site_folder_deckwright_did_not_make_is_left_alone(tiny, tmp_path):
    game = tiny()
    out = tmp_path / "public"
    (out / "site").mkdir(parents=True)
    (out / "site" / "blog.md").write_text("# My blog\n")
    result = deckwright("build", str(game), "--out", str(out), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"deckwright: {out / 'site'} was not made by deckwright (it has no {MARKER} file) and a "
                             "build would replace it; move it away or choose another --out\n")
    assert (out / "site" / "blog.md").read_text() == "# My blog\n"


def test_a_file_added_to_deckwright_output_is_never_deleted(tiny, tmp_path):
    game = tiny()
    out = tmp_path / "out"
    assert deckwright("build", str(game), "--out", str(out), cwd=tmp_path).returncode == 0
    (out / "site" / "notes.txt").write_text("mine\n")
    (out / "tiny" / "print" / "my-edit.pdf").write_bytes(b"%PDF mine")
    before = tree(out)
    result = deckwright("build", str(game), "--out", str(out), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"deckwright: {out / 'tiny'} holds print/my-edit.pdf, which deckwright did not write, "
                             "and a build replaces the whole folder; move the file elsewhere or choose another --out\n")
    assert tree(out) == before


def test_a_build_refused_for_its_site_folder_leaves_the_games_output_too(tiny, tmp_path):
    """Every folder a build replaces is asked about before any is replaced: a file of the user's in site/ leaves
    the game's folder as the last build wrote it, not replaced ahead of the refusal."""
    game = tiny()
    out = tmp_path / "out"
    assert deckwright("build", str(game), "--out", str(out), cwd=tmp_path).returncode == 0
    (out / "site" / "my.html").write_text("mine\n")
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("title: ", "title: Changed ", 1))
    before = tree(out)
    result = deckwright("build", str(game), "--out", str(out), cwd=tmp_path)
    assert result.returncode == 2 and "site holds my.html, which deckwright did not write" in result.stderr
    assert "built into" not in result.stdout
    assert tree(out) == before


def test_a_link_where_an_output_folder_belongs_is_left_alone(tiny, tmp_path):
    game = tiny()
    out = tmp_path / "out"
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "keep.txt").write_text("keep\n")
    out.mkdir()
    (out / "tiny").symlink_to(precious)
    assert cli.main(["build", str(game), "--out", str(out)]) == 2
    assert (out / "tiny").is_symlink() and (precious / "keep.txt").read_text() == "keep\n"


# -- D9: crashes and the swap -------------------------------------------------------------------------------


def test_a_killed_build_leaves_staging_that_the_next_build_removes(tiny, tmp_path):
    game = tiny()
    out = tmp_path / "out"
    crash = ("import os, sys; from pathlib import Path; from deckwright.generator.output import staged_folder\n"
             "with staged_folder(Path(sys.argv[1]) / 'tiny') as folder:\n"
             "    (folder / 'half.pdf').write_bytes(b'%PDF half')\n"
             "    os.kill(os.getpid(), 9)\n")
    subprocess.run([sys.executable, "-c", crash, str(out)], timeout=60)
    assert [p.name for p in out.iterdir() if p.name.startswith(".tiny.")], "the crash left no staging folder"
    assert deckwright("build", str(game), "--out", str(out), cwd=tmp_path).returncode == 0
    assert sorted(p.name for p in out.iterdir()) == ["site", "tiny"]


def test_a_hidden_folder_of_the_user_that_looks_like_staging_is_kept(tmp_path):
    lookalike = tmp_path / ".game.abc123.tmp"
    lookalike.mkdir()
    (lookalike / "mine.txt").write_text("not deckwright's\n")
    with staged_folder(tmp_path / "game") as folder:
        (folder / "a.txt").write_text("new\n")
    assert (lookalike / "mine.txt").read_text() == "not deckwright's\n"


def test_the_swap_never_leaves_the_output_missing(tmp_path, monkeypatch):
    """After every rename the swap makes, the output folder is there, old or new."""
    target = tmp_path / "out" / "game"
    with staged_folder(target) as folder:
        (folder / "version.txt").write_text("old\n")
    seen = []

    def watched(function):
        def call(*args):
            result = function(*args)
            seen.append((target / "version.txt").read_text() if (target / "version.txt").exists() else "missing")
            return result
        return call

    for name in ("rename", "replace"):
        monkeypatch.setattr(output.os, name, watched(getattr(os, name)))
    monkeypatch.setattr(output, "exchange_paths", watched(output.exchange_paths))
    with staged_folder(target) as folder:
        (folder / "version.txt").write_text("new\n")
    monkeypatch.undo()
    assert seen and "missing" not in seen, seen
    assert (target / "version.txt").read_text() == "new\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["game"]


def test_a_reader_always_finds_the_output_while_it_is_rebuilt(tmp_path):
    target = tmp_path / "out" / "game"
    with staged_folder(target) as folder:
        (folder / "version.txt").write_text("0\n")
    misses = []
    done = threading.Event()

    def read():
        while not done.is_set():
            if not (target / "version.txt").exists():
                misses.append(time.monotonic())

    reader = threading.Thread(target=read)
    reader.start()
    for number in range(1, 40):
        with staged_folder(target) as folder:
            (folder / "version.txt").write_text(f"{number}\n")
    done.set()
    reader.join()
    assert misses == []


# -- D13: one run at a time ----------------------------------------------------------------------------------


def test_a_second_run_waits_for_the_lock_then_gives_up_with_one_line(tiny, tmp_path, monkeypatch, capsys):
    game = tiny()
    out = tmp_path / "out"
    monkeypatch.setattr(output, "LOCK_WAIT_SECONDS", 0.5)
    with locked(out):
        status = cli.main(["build", str(game), "--out", str(out)])
    err = capsys.readouterr().err.splitlines()
    assert status == 1
    assert err == [f"deckwright: waiting for another deckwright run writing into {out} ...",
                   f"deckwright: another deckwright run is still writing into {out}; gave up after waiting 0.5 s "
                   "(run again when it has finished)"]
    assert not out.joinpath("tiny").exists()


def test_builds_at_once_into_one_folder_all_succeed(tiny, tmp_path):
    games = [renamed(tiny(name=f"g{i}"), f"game-{i}") for i in range(3)]
    out = tmp_path / "out"
    runs = [subprocess.Popen([sys.executable, "-m", "deckwright.generator.cli", "build", str(game), "--out", str(out)],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for game in games]
    results = [(run.wait(timeout=300), run.stderr.read()) for run in runs]
    assert all(code == 0 for code, _ in results), results
    assert sorted(p.name for p in out.iterdir()) == ["game-0", "game-1", "game-2", "site"]


def test_building_another_game_keeps_the_first_games_site_pages(tiny, tmp_path):
    first, second = tiny(name="a"), renamed(tiny(name="b"), "second")
    out = tmp_path / "out"
    assert deckwright("build", str(first), "--out", str(out), cwd=tmp_path).returncode == 0
    pages = {p for p in tree(out / "site") if p.startswith("tiny/")}
    second_build = deckwright("build", str(second), "--out", str(out), cwd=tmp_path)
    assert second_build.returncode == 0
    assert f"site: 1 game(s) built, 1 more kept from earlier builds, in {out / 'site'}/index.html" in second_build.stdout
    assert {p for p in tree(out / "site") if p.startswith("tiny/")} == pages
    index = (out / "site" / "index.html").read_text()
    assert 'href="tiny/index.html"' in index and 'href="second/index.html"' in index
    assert "for 2 games" in index
