"""``deckwright check`` over games: each game checked (side by side) into what it prints (``output``), and an
unchanged game's output reprinted from the cache (``cache``, keyed by everything the check reads: ``inputs``)."""
