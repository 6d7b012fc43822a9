"""The action table: a game's verbs, what each takes, and dispatch through the table.

An action is a bare word (``venture``) or a mapping whose first key is the verb
and whose other keys are its options (``{play: swipe, target: ember}``). A
game's ``ACTIONS`` maps each verb to a ``Verb``: the function that runs it and
the field definitions of its value and options, which the example runner
reads an example's actions through (so a misspelt card id is reported at its
own line). ``dispatch`` finds the verb and calls it; it checks names only, the
values being the verb's business.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from deckwright.rules.problems import did_you_mean

from .errors import SpecError

Action = str | dict  # a bare word, or {verb: value, option: value, ...}
# (state, value, options, chance, log) -> the new state
Run = Callable[[Any, Any, Mapping[str, Any], Any, Any], Any]


@dataclass(frozen=True)
class Verb:
    run: Run
    value: Any = None  # field definition of the verb's value (rules.data.schema.FieldDef); None: a bare word
    options: tuple[tuple[str, Any], ...] = ()  # (name, field definition) of the keys that may follow the verb
    doc: str = ""
    option_names: frozenset = frozenset()  # set from ``options``

    @property
    def bare(self) -> bool:
        return self.value is None

    def __post_init__(self) -> None:
        object.__setattr__(self, "option_names", frozenset(name for name, _ in self.options))


def split_action(action: Any) -> tuple[str, Any, dict]:
    """(verb, value, options) of ``venture`` or ``{play: swipe, target: ember}``; SpecError for anything else."""
    if isinstance(action, str):
        return action, None, {}
    if isinstance(action, dict) and action:
        verb = next(iter(action))
        return str(verb), action[verb], {key: value for key, value in action.items() if key != verb}
    raise SpecError(f"an action is a word such as 'draw' or a mapping such as {{play: card}}, not {action!r}")


def describe(verbs: Mapping[str, Verb]) -> str:
    return ", ".join(name if verb.bare else f"{{{name}: ...}}" for name, verb in verbs.items())


def find_verb(verbs: Mapping[str, Verb], verb: str, keyed: bool) -> Verb:
    """The table's entry for ``verb``; SpecError naming the known verbs (``keyed``: it came as a mapping key)."""
    entry = verbs.get(verb)
    if entry is None:
        raise SpecError(f"unknown action '{verb}'{did_you_mean(verb, list(verbs))} (actions: {describe(verbs)})",
                        (verb,) if keyed else ())
    return entry


def dispatch(verbs: Mapping[str, Verb], state: Any, action: Any, chance: Any, log: Any) -> Any:
    """Run ``action`` through the verb table; the verb's function returns the new state.

    The verb's function gets the action mapping itself as ``options`` (the verb's own key included):
    random play dispatches at every step, and a fresh mapping of the other keys would cost more than
    the ``.get`` of the few options a verb reads.
    """
    if type(action) is str:
        entry = verbs.get(action)
        if entry is None:
            find_verb(verbs, action, False)
        return entry.run(state, None, _NO_OPTIONS, chance, log)
    if type(action) is not dict or not action:
        split_action(action)  # raises, saying what an action is
    for verb in action:  # the first key
        break
    entry = verbs.get(verb)
    if entry is None:
        find_verb(verbs, str(verb), True)
    if len(action) > 1:
        names = entry.option_names
        for name in action:
            if name not in names and name != verb:
                allowed = ", ".join(n for n, _ in entry.options) or "none"
                raise SpecError(f"{verb}: unknown option '{name}'{did_you_mean(name, list(names))} "
                                f"(options: {allowed})", (name,))
    return entry.run(state, action[verb], action, chance, log)


_NO_OPTIONS: Mapping[str, Any] = {}
