"""The SVG renderer's own escaping: as the standard library's xml.sax.saxutils, without importing it."""
from __future__ import annotations

import subprocess
import sys
from xml.sax import saxutils

import pytest

from deckwright.generator.render.svg import escape, quoteattr

TRICKY = ["", "plain", "a & b < c > d", "&amp; already", 'say "hi"', "it's", "both \" and '", "tab\there",
          "line\nbreak\r\n", "<script>alert('x')</script>", "Pirata One~3f2a", "'Zoë' & \"Ünïcode\" <b>"]


@pytest.mark.parametrize("text", TRICKY)
def test_text_and_attributes_are_escaped_as_saxutils_escapes_them(text):
    assert escape(text) == saxutils.escape(text)
    assert quoteattr(text) == saxutils.quoteattr(text)


def test_the_renderer_does_not_import_urllib_for_its_escaping():
    code = "import sys, deckwright.generator.render.svg; print('urllib.request' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
