"""A rulebook page as every output reads it (the site and the printed rulebook): the one Markdown
configuration, and the views of card tables and worked examples. May import ``generator.layout`` and
``deckwright.rules``."""
