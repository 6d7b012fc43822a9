"""Micah's Game: the mechanics (``mechanics``), the data checks (``checks``) and the engine protocol (``protocol``)."""
from .checks import consistency
from .protocol import apply, is_over, legal_actions, new_game, observe, setup, zones

__all__ = ["consistency", "setup", "apply", "observe", "new_game", "legal_actions", "is_over", "zones"]
