"""What a build writes besides the site: home-print and print-shop PDFs and PNGs, and the printed rulebook
(``rulebook/``). May import ``generator.book``, ``generator.render``, ``generator.layout`` and ``deckwright.rules``."""
