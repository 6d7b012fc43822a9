from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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
