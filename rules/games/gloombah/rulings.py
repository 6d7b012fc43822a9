"""House rulings for the rules the source leaves open, given by an example or a random-play option.

A ruling not given stays None; play that needs it stops with an OpenRuleError naming the game's open
question, so nothing is guessed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from deckwright.rules.data.fields import choice, flag, record
from deckwright.rules.engine.openvalues import OpenRuleError


@dataclass(frozen=True)
class Rulings:
    tie: str | None = field(default=None, metadata={"about": "tied fight", "values": ("player", "monster")})
    damaged_gear_absorbs: bool | None = field(default=None, metadata={"about": "damaged gear hit again"})
    effects_end_on_death: bool | None = field(default=None, metadata={"about": "death"})
    flee_with_empty_hand: bool | None = field(default=None, metadata={"about": "fleeing with an empty hand"})
    reshuffle_empty_decks: bool | None = field(default=None, metadata={"about": "empty decks"})
    equip_after_setup: bool | None = field(default=None, metadata={"about": "equipping after setup"})

    def need(self, name: str):
        value = getattr(self, name)
        if value is None:
            known = next(f for f in fields(self) if f.name == name)
            values = " or ".join(known.metadata.get("values", ("true", "false")))
            raise OpenRuleError(f"the source leaves this open (open question '{known.metadata['about']}'); play "
                                f"needs the ruling '{name}' ({values}), given as rulings: {{{name}: ...}}")
        return value


# The rulings as field definitions: how an example's ``rulings:`` is read.
RULINGS = record(optional=True, **{f.name: choice(*f.metadata["values"], optional=True) if "values" in f.metadata
                                   else flag(doc=f"the ruling on the open question '{f.metadata['about']}'")
                                   for f in fields(Rulings)})


def rulings_from(spec: dict) -> Rulings:
    """Rulings from plain values already read through RULINGS (or a random-play option)."""
    return Rulings(**spec)
