"""deckwright's generator side: layouts, PDFs, images, the HTML site and the CLI."""
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = PROJECT_ROOT / "templates"
BUNDLED_GAMES = PROJECT_ROOT / "cards"
DEFAULT_OUT = "output"  # the output folder of every command that writes one, unless --out says otherwise
