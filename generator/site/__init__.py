"""The HTML rulebook site: Markdown pages, card gallery and printable cards for every game built."""
from .build import build_site, site_step, write_site

__all__ = ["build_site", "site_step", "write_site"]
