"""What a build writes besides the site: home-print, print-shop and proof PDFs and PNGs, the printed rulebook
(``rulebook/``), and the exports for online play (Tabletop Simulator saved objects, sprite sheets).
May import ``generator.book``, ``generator.render``, ``generator.layout`` and ``deckwright.rules``."""
