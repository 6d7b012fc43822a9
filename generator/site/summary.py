"""The line a build prints of the site it wrote."""
from __future__ import annotations

from pathlib import Path


def site_line(built: int, site: Path) -> str:
    """What the build says of the site: the games it built, and those its index lists besides (kept from
    earlier builds into the same output folder)."""
    listed = sum(1 for page in site.glob("*/index.html"))
    kept = f", {listed - built} more kept from earlier builds" if listed > built else ""
    return f"site: {built} game(s) built{kept}, in {site}/index.html"
