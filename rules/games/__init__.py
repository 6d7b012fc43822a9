"""One module per game's mechanics, named after the game's ``mechanics:`` id (dashes become underscores)."""
