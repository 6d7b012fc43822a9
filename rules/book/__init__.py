"""The rulebook: deckwright syntax in Markdown pages, card tables, worked examples and their golden logs.
May import ``rules.data``, ``rules.engine`` and ``rules.games`` (through the registry)."""
