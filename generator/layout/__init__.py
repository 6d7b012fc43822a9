"""Layouts compiled and measured: layout files, fonts, icons, rich text, text fitting, imposition geometry,
and the display lists every renderer paints. May import ``deckwright.rules`` only."""
