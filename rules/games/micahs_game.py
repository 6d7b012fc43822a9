"""Micah's Game mechanics."""
