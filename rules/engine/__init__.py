"""The rules engine core: dice, chance, zones and the event log, shared by every game."""
