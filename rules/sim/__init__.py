"""Playtest at scale: many seeded games of one rules module, split into chunks, tallied into balance figures.

``plan`` turns a command into sweep cells and seeded chunks; ``worker`` plays one chunk (a game folder loaded
by path, so any process or machine with deckwright and the folder can run it); ``tally`` merges chunk results
into each cell's figures (``stats`` holds the formulas); ``backends`` runs the chunks in this process, a local
process pool or a Dask cluster; ``report`` prints the table.
"""
