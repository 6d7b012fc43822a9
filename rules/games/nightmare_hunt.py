"""Nightmare Hunt's mechanics (arrives with the rules engine)."""
