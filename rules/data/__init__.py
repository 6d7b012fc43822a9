"""Game data: YAML with locations, field types and the validator, the Game model, JSON Schema and export.
May import ``rules.engine`` and ``rules.problems`` only."""
