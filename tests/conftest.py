"""Shared fixtures: the project root, the tiny test game, and the system tools some tests need.

A test that needs a system tool (poppler's pdftoppm and pdftotext, qpdf, Chromium) skips on a
developer's machine without it, but fails when the ``CI`` environment variable is set, so CI can
never pass with those tests skipped (``.ci/run`` installs them). Python packages the tests need are
declared in pyproject.toml's ``test`` extra and imported plainly.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")  # Debian's chromium package, driven through Playwright
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need_tools(*tools: str, package: str) -> None:
    """Skip the calling test unless every tool is installed; with ``CI`` set, fail it instead."""
    missing = [tool for tool in tools if not (shutil.which(tool) or Path(tool).is_file())]
    if not missing:
        return
    message = f"{', '.join(missing)} not installed (Debian package {package}; .ci/run installs it)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}, and CI is set: CI must run every test", pytrace=False)
    pytest.skip(message)


def need_package(module: str, extra: str) -> None:
    """Skip the calling test unless the Python package ``module`` imports; with ``CI`` set, fail it instead."""
    import importlib.util

    if importlib.util.find_spec(module) is not None:
        return
    message = f"the Python package {module} is not installed (pip install 'deckwright[{extra}]'; tasks.py installs it)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}, and CI is set: CI must run every test", pytrace=False)
    pytest.skip(message)


def default_sigint() -> None:
    """A ``preexec_fn`` for a command a test interrupts with SIGINT: a shell without job control (``cmd &`` in a
    script, as CI runners may be) starts its children with SIGINT ignored, and Python then never raises
    KeyboardInterrupt. A terminal's Ctrl-C finds the default there."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def output_contents(folder: Path) -> dict[str, object]:
    """Every file under ``folder`` by its relative path: a PNG as its mode, size and pixels, any other file as
    its bytes. ISA-L (the ``png`` extra) has been seen to deflate the same pixels to a different stream from
    one build to the next, so two builds promise the same pixels, not the same PNG bytes (render/png.py)."""
    from PIL import Image

    contents: dict[str, object] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.suffix == ".png":
            with Image.open(path) as image:
                contents[path.relative_to(folder).as_posix()] = (image.mode, image.size, image.tobytes())
        else:
            contents[path.relative_to(folder).as_posix()] = path.read_bytes()
    return contents


@pytest.fixture
def poppler():
    need_tools("pdftoppm", "pdftotext", package="poppler-utils")


@pytest.fixture
def qpdf():
    need_tools("qpdf", package="qpdf")


@pytest.fixture(scope="session")
def chromium():
    need_tools(str(CHROMIUM), package="chromium")


@pytest.fixture(scope="session")
def browser(chromium):
    """Headless Chromium, shared by every browser test of the run."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Path:
    """A venv outside the repository with only the wheel built from this checkout installed (and pytest), built
    once a session: the packaging tests and the CI recipe's test share it."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(ROOT), "-w", str(work)],
                   check=True, capture_output=True)
    (wheel,) = work.glob("deckwright-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(wheel), "pytest"], check=True, capture_output=True)
    return venv


@pytest.fixture
def root() -> Path:
    return ROOT


TINY = ROOT / "tests" / "bad_inputs" / "base"  # a small valid made-up game: heroes and monsters, one rulebook page


@pytest.fixture
def tiny(tmp_path):
    """A factory: the tiny test game copied to ``tmp_path/tiny``, with some files replaced (path -> text or bytes)."""
    import shutil

    def make(files: dict[str, str | bytes] | None = None, name: str = "tiny") -> Path:
        game = tmp_path / name
        shutil.copytree(TINY, game)
        for rel, content in (files or {}).items():
            target = game / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
        return game

    return make
