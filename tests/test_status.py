"""The build's status line: on a terminal only, erased before every other line and at the end."""
from __future__ import annotations

import io
import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

from deckwright.generator.cli import PrintableStream
from deckwright.generator.status import Status

TINY = Path(__file__).parent / "bad_inputs" / "base"  # a small valid game


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_stage_rewrites_the_line_and_clear_erases_it(monkeypatch):
    monkeypatch.setenv("TERM", "xterm")
    terminal = Terminal()
    status = Status(terminal)
    status.stage("g: checking")
    status.stage("g: print files \x1b[2J")  # a control character is shown, not obeyed
    status.clear()
    status.clear()  # nothing left to erase
    assert terminal.getvalue() == "\r\x1b[Kg: checking...\r\x1b[Kg: print files \\x1b[2J...\r\x1b[K"


def test_a_line_printed_while_the_status_shows_erases_it_first(monkeypatch):
    """A rules module's print() or a warning in the middle of a stage was glued to the status line's words."""
    monkeypatch.setenv("TERM", "xterm")
    terminal = Terminal()
    out, err = PrintableStream(terminal), PrintableStream(terminal)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    status = Status()
    status.stage("g: checking")
    print("debug from a rules module")
    print("a warning", file=sys.stderr)  # the line is gone: nothing more to erase
    status.stage("g: print files")
    status.clear()
    assert terminal.getvalue() == ("\r\x1b[Kg: checking...\r\x1b[Kdebug from a rules module\na warning\n"
                                   "\r\x1b[Kg: print files...\r\x1b[K")
    assert out.before_write is None and err.before_write is None


def test_nothing_is_written_off_a_terminal_or_on_a_dumb_one(monkeypatch):
    pipe = io.StringIO()
    Status(pipe).stage("g: checking")
    monkeypatch.setenv("TERM", "dumb")
    dumb = Terminal()
    Status(dumb).stage("g: checking")
    assert pipe.getvalue() == dumb.getvalue() == ""


def _build(game: Path, out: Path, terminal: bool) -> str:
    command = [sys.executable, "-c", "import sys; from deckwright.generator.cli import main; sys.exit(main(sys.argv[1:]))",
               "build", str(game), "--target", "home", "--out", str(out)]
    env = {**os.environ, "TERM": "xterm"}
    if not terminal:
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        return done.stdout + done.stderr
    main, other = pty.openpty()
    process = subprocess.Popen(command, stdin=other, stdout=other, stderr=other, env=env)
    os.close(other)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    assert process.wait() == 0
    return b"".join(chunks).decode().replace("\r\n", "\n")


def test_a_build_on_a_terminal_shows_its_stages_and_leaves_only_its_lines(tmp_path):
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    shown = _build(game, tmp_path / "a", terminal=True)
    stages = re.findall(r"\r\x1b\[K([^\r\n]+?)\.\.\.", shown)
    assert stages[:3] == ["tiny: checking", "tiny: laying out and drawing the print-and-play PDFs",
                          "tiny: card data and schemas"] and stages[-1].startswith("site: ")
    lines = re.sub(r"\r\x1b\[K([^\r\n]*?\.\.\.(?=\r))?", "", shown)  # what stays on the screen
    piped = _build(game, tmp_path / "b", terminal=False)
    # (sorted: a pipe's stdout and stderr are read apart)
    assert sorted(lines.replace(str(tmp_path / "a"), "OUT").splitlines()) == \
        sorted(piped.replace(str(tmp_path / "b"), "OUT").splitlines())
    assert "\x1b" not in piped
