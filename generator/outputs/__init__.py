"""What a build writes besides the site: home-print and print-shop PDFs and PNGs, and the exports for
online play (Tabletop Simulator saved objects, sprite sheets).
May import ``generator.render``, ``generator.layout`` and ``deckwright.rules``."""
