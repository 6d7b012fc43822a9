"""The test suite's own rules (issue 13): a test that needs a system tool skips without it on a developer's
machine but fails when ``CI`` is set; skips are listed; declared test dependencies are imported plainly."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from conftest import need_tools

TESTS = Path(__file__).parent
ROOT = TESTS.parent


def test_a_missing_tool_skips_on_a_developer_machine(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no-such-tool-for-deckwright not installed"):
        need_tools("no-such-tool-for-deckwright", package="none")


def test_a_missing_tool_fails_when_ci_is_set(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run every test"):
        need_tools("no-such-tool-for-deckwright", package="none")


def test_an_installed_tool_neither_skips_nor_fails(monkeypatch):
    monkeypatch.setenv("CI", "true")
    need_tools("python3", package="python3")


def test_skips_are_listed_with_their_reason():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]
    assert "-rs" in options.split()


def test_tests_neither_importorskip_nor_skip_on_a_missing_tool_themselves():
    """Tool checks go through conftest.need_tools; packages from the test extra are imported plainly."""
    offenders = []
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text(encoding="utf-8")
        if "importorskip" in text or re.search(r"skipif\([^)]*(which|exists\(\))", text):
            offenders.append(path.name)
    assert offenders == []
