"""Gloombah!'s mechanics."""
