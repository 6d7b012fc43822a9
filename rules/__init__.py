"""deckwright's rules side: loading and validating game folders, checks, the rules engine."""
