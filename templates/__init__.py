"""Package data, not code: layouts, fonts, HTML templates and the game `deckwright new` writes.

A regular package (not a namespace one) so that ``importlib.resources.files("deckwright.templates")`` works
in every kind of install, an editable one included.
"""
