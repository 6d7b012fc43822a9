"""``--option key=value`` and ``--sweep key=v1,v2``, read as YAML values and checked against the module's OPTIONS.

A rules module may declare ``OPTIONS``, a record field definition of what ``new_game`` takes; then every option
is read through the same validator as card data (a misspelt key or card id is one clear line), and a key may
also be written as the name of the card type it refers to (``armour`` for the ``armor`` type Nightmare Hunt
names Armour). Without OPTIONS, values pass as YAML reads them.

A key that names one of the game's constants (``hits_to_win``), and no option, plays the games with that
constant instead of game.yaml's, read as game.yaml's are: ``--sweep hits_to_win=3,4,5`` compares the values.
"""
from __future__ import annotations

import math
from dataclasses import replace

import yaml

from deckwright.rules.data.specs import read_plain
from deckwright.rules.data.yamlsrc import parse_yaml

from .plan import Sweep


class OptionError(Exception):
    pass


def split(text: str, flag: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise OptionError(f"{flag} {text}: expected key=value")
    return key.strip(), value.strip()


def yaml_value(text: str, given: str):
    """``text`` read as YAML; ``given`` is the whole argument, as a message quotes it."""
    try:
        return yaml.safe_load(text) if text else ""
    except yaml.YAMLError as exc:
        raise OptionError(f"{given}: not a YAML value ({str(exc).splitlines()[0]})") from None


def parse_options(texts: list[str]) -> list[tuple[str, object]]:
    """Each ``--option key=value`` as (key, value), in the order given (the caller refuses a key given twice,
    once keys are canonical)."""
    pairs = []
    for text in texts:
        key, value = split(text, "--option")
        pairs.append((key, yaml_value(value, f"--option {text}")))
    return pairs


# Cells of a sweep grid: each is planned with a game loaded and a trial game played before any is simulated (about
# 0.1 s a cell), and reported as a row; two sweeps of 2,000 values each made 4 million and never started.
MAX_CELLS = 1_000


def parse_sweeps(texts: list[str]) -> list[Sweep]:
    sweeps, seen = [], set()
    for text in texts:
        key, values = split(text, "--sweep")
        if key in seen:
            raise OptionError(f"--sweep {text}: '{key}' is swept twice")
        seen.add(key)
        items = [yaml_value(v.strip(), f"--sweep {text}") for v in values.split(",") if v.strip()]
        if not items:
            raise OptionError(f"--sweep {text}: no values")
        twice = [v for i, v in enumerate(items) if v in items[:i]]
        if twice:
            raise OptionError(f"--sweep {text}: {twice[0]} is given twice")
        sweeps.append(Sweep(key, tuple(items)))
    sizes = [len(sweep.values) for sweep in sweeps]
    if math.prod(sizes) > MAX_CELLS:
        raise OptionError(f"--sweep: a grid of {math.prod(sizes):,} cells ({' x '.join(map(str, sizes))} values); "
                          f"deckwright plays at most {MAX_CELLS:,}: sweep fewer values, or run the sweeps apart")
    return sweeps


def is_constant(key: str, module, game) -> bool:
    """Whether ``--option``/``--sweep`` ``key`` sets one of the game's constants: a name game.yaml gives a value or
    the module's CONSTANTS declare, and not one of its OPTIONS (an option of that name wins)."""
    options, constants = getattr(module, "OPTIONS", None), getattr(module, "CONSTANTS", None)
    declared = key in game.constants or (constants is not None and constants.field(key) is not None)
    return declared and (options is None or options.field(key) is None)


def canonical_key(key: str, module, game) -> str:
    if is_constant(key, module, game):
        return key
    definition = getattr(module, "OPTIONS", None)
    if definition is None or definition.field(key) is not None:
        return key
    for type_id, card_type in game.card_types.items():
        if card_type.name.lower() == key.lower() and definition.field(type_id) is not None:
            return type_id
    known = ", ".join(name for name, _ in definition.fields)
    constants = f"; or one of its constants: {', '.join(game.constants)}" if game.constants else ""
    raise OptionError(f"unknown option '{key}'; {game.slug} takes: {known}{constants}")


def with_constants(game, module, constants: tuple):
    """``game`` with ``constants`` ((name, value) pairs, as given on the command line) instead of game.yaml's,
    each read as game.yaml's are (through the module's CONSTANTS, when it declares them)."""
    definition = getattr(module, "CONSTANTS", None)
    typed = {}
    for name, value in constants:
        field = definition.field(name) if definition is not None else None
        if field is None:
            typed[name] = value
            continue
        text = yaml.safe_dump(value, default_flow_style=True, width=10_000)
        node, problems = parse_yaml(text, f"constant {name}")
        if node is not None:
            typed[name], problems = read_plain(node, field, f"constant {name}", game)
        if problems:
            raise OptionError(f"{name}={value}: {problems[0].message.removeprefix(f'constant {name}: ')} "
                              f"(a constant of {game.slug}, as game.yaml would give it)")
    played = replace(game, constants={**game.constants, **typed})
    broken = _new_inconsistencies(module, game, played)
    if broken:
        given = " ".join(f"{name}={value}" for name, value in constants)
        raise OptionError(f"{given}: {broken[0]} (the game's own checks, as deckwright check runs them)")
    return played


def _new_inconsistencies(module, game, played) -> list[str]:
    """What the module's own data checks find in ``played`` and not in ``game`` (Body above Mind)."""
    from deckwright.rules.ci.check import run_consistency
    from deckwright.rules.problems import Problems

    found = []
    for one in (game, played):
        problems = Problems()
        run_consistency(module, one, problems)
        found.append([problem.message for problem in problems.errors])
    return [message for message in found[1] if message not in found[0]]


def checked(options: dict, module, game, where: str) -> dict:
    """``options`` read through the module's OPTIONS (when it declares them); OptionError names the problem."""
    definition = getattr(module, "OPTIONS", None)
    if definition is None:
        return options
    text = yaml.safe_dump(options, default_flow_style=True, sort_keys=False, width=10_000)
    node, problems = parse_yaml(text, where)
    if node is None:
        raise OptionError(f"{where}: {problems[0].message}")
    value, problems = read_plain(node, definition, "option", game)
    if problems:
        raise OptionError("; ".join(f"{where} {p.message.removeprefix('option.')}{choices(p.message, definition, game)}"
                                    for p in problems))  # "--option armor: no card with id 'robe'"
    return value


def choices(message: str, definition, game) -> str:
    """`` (armor: robes, leather, plate)``: the card ids an option that names cards may take, where ``message``
    is about that option."""
    for name, field in definition.fields:
        if field.type == "ref" and f"option.{name}:" in message:
            ids = [card.id for card in game.cards if not field.to or card.type in field.to]
            if ids:
                return f" ({name}: {', '.join(ids)})"
    return ""
