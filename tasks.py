#!/usr/bin/env python3
"""The project's two commands, needing nothing but Python 3.11+:

    python3 tasks.py build   # set up .venv if needed, then build every bundled game into output/
    python3 tasks.py test    # set up .venv if needed, then run the test suite

Extra arguments go to ``deckwright build`` or ``pytest``.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".deckwright-installed"
PACKAGE = ("generator", "rules", "cards")  # the folders holding deckwright's Python modules


def ensure_venv() -> None:
    """Create .venv and install deckwright with its test, serve, cluster, charts and png extras; redone when
    pyproject.toml changes."""
    if sys.version_info < (3, 11):
        sys.exit(f"deckwright needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not (BIN / "python").exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing deckwright and its dependencies into .venv ...", flush=True)
    subprocess.run([str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-e", f"{ROOT}[test,serve,cluster,charts,png]"], check=True)
    # An editable install leaves deckwright's modules uncompiled; where PYTHONDONTWRITEBYTECODE is set (CI images,
    # some containers) Python would then compile them afresh in every command: 0.4 s of each `deckwright check`.
    subprocess.run([str(BIN / "python"), "-m", "compileall", "-q", "-j", "0", *(str(ROOT / name) for name in PACKAGE)],
                   check=True)
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("build", "test"):
        print(__doc__.strip())
        return 2
    ensure_venv()
    command, rest = argv[0], argv[1:]
    if command == "build":
        args = [str(BIN / "deckwright"), "build", *rest]
    else:
        args = [str(BIN / "python"), "-m", "pytest", *rest]
    return subprocess.run(args, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
