"""What a build writes besides the site: home-print and print-shop PDFs and PNGs.
May import ``generator.render``, ``generator.layout`` and ``deckwright.rules``."""
