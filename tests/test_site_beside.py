"""The site written in a forked worker beside the rest of a build (generator.site.beside): the same bytes as
the site written after the games, the real rulebooks offered (not the worker's placeholders), and the serial
site built instead when the build turns out other than the worker guessed (a layout failure under --force)."""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
from pathlib import Path

import pytest

from deckwright.generator import cli, parallel
from deckwright.generator.site import beside as site_beside

OVERFLOW = ("boxes:\n  rules: {kind: text, left: 5, top: 5, width: 20, height: 6, size: 9, min_size: 5, "
            "text: '" + "a long rule " * 60 + "'}\n")
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the worker is forked on Linux only")


def snapshot(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def build(monkeypatch, tmp_path: Path, fork: bool, *args: str) -> tuple[int, str, list[int]]:
    """``deckwright build ARGS``; the pids of the processes that wrote a site with the worker's job."""
    monkeypatch.setattr(parallel, "can_fork", lambda: fork)
    pids = tmp_path / f"pids-{os.getpid()}-{fork}"
    pids.unlink(missing_ok=True)
    job = site_beside._SiteJob.__call__

    def recorded(self):
        with open(pids, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
        return job(self)

    monkeypatch.setattr(site_beside._SiteJob, "__call__", recorded)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        status = cli.main(["build", *args])
    assert "Traceback" not in printed.getvalue()
    return status, printed.getvalue(), [int(line) for line in pids.read_text().split()] if pids.exists() else []


def test_the_site_written_beside_is_the_site_written_after(tiny, tmp_path, monkeypatch):
    game = tiny()
    status, printed, pids = build(monkeypatch, tmp_path, True, str(game), "--out", str(tmp_path / "beside"),
                                  "--target", "home")
    assert status == 0, printed
    assert pids and os.getpid() not in pids  # written by a worker
    status, printed, serial = build(monkeypatch, tmp_path, False, str(game), "--out", str(tmp_path / "after"),
                                    "--target", "home")
    assert status == 0 and not serial, printed
    site = snapshot(tmp_path / "beside" / "site")
    assert site == snapshot(tmp_path / "after" / "site")
    offered = (tmp_path / "beside" / "site" / "tiny" / "rulebook.pdf").read_bytes()  # not the worker's placeholder
    assert offered.startswith(b"%PDF")
    assert offered == (tmp_path / "beside" / "tiny" / "print" / "rulebook.pdf").read_bytes()
    assert "rulebook.pdf" in (tmp_path / "beside" / "site" / "tiny" / "index.html").read_text(encoding="utf-8")


def test_a_home_build_over_a_full_one_keeps_offering_its_export(tiny, tmp_path, monkeypatch):
    game = tiny()
    out = tmp_path / "out"
    status, printed, _ = build(monkeypatch, tmp_path, False, str(game), "--out", str(out))
    assert status == 0, printed
    full = snapshot(out / "site")
    assert any(path.startswith("tiny/tts/") for path in full)
    status, printed, pids = build(monkeypatch, tmp_path, True, str(game), "--out", str(out), "--target", "home")
    assert status == 0 and pids, printed
    assert snapshot(out / "site") == full


def test_a_layout_failure_under_force_builds_the_site_after_with_its_banner(tiny, tmp_path, monkeypatch):
    game = tiny({"layouts/hero.yaml": OVERFLOW})
    out = tmp_path / "out"
    status, printed, _ = build(monkeypatch, tmp_path, True, str(game), "--out", str(out), "--target", "home",
                               "--force")
    assert status == 1 and "--force: 3 failure(s) marked on its site pages" in printed, printed
    # the worker guessed a build without failures: its site is dropped, the one written here has the banner
    html = (out / "site" / "tiny" / "cards.html").read_text(encoding="utf-8")
    assert "This build failed its checks" in html and "layouts/hero.yaml" in html


def test_a_failing_build_with_the_worker_started_leaves_the_output_as_it_was(tiny, tmp_path, monkeypatch):
    game = tiny()
    out = tmp_path / "out"
    status, printed, _ = build(monkeypatch, tmp_path, True, str(game), "--out", str(out), "--target", "home")
    assert status == 0, printed
    before = snapshot(out)
    (game / "layouts" / "hero.yaml").write_text(OVERFLOW, encoding="utf-8")
    status, printed, _ = build(monkeypatch, tmp_path, True, str(game), "--out", str(out), "--target", "home")
    assert status == 1 and "nothing written" in printed, printed
    assert "layouts/hero.yaml:" in printed
    assert snapshot(out) == before
