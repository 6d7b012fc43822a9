"""The faces deckwright shows a CI job: ``check`` for one game, JUnit XML, the pytest plugin."""
