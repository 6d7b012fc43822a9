"""Where a game of Gloombah! starts: an example's position (``setup:``, read through ``SETUP``) or a deal.

An example's setup: ``players`` (name, class, level, hand, gear, weapon, effects), whose ``turn`` it is,
the ``round``, the ``phase`` it starts at (start, monster, fight, post-fight, keep), the ``monster`` in
play (a card id, or a mapping for an unnamed monster whose missing values stay open), the next
``monsters``, the item deck ``items`` (top first), the ``helpers`` already fighting, the ``outcome`` of a
fight the example does not replay, and the ``rulings`` it plays under.
"""
from __future__ import annotations

from fractions import Fraction

from deckwright.rules.data.fields import choice, either, flag, listing, number, record, ref, text, whole
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.openvalues import Open
from deckwright.rules.engine.protocol import Chance, Log

from .cards import worn_from_card
from .formula import AtLeast
from .numbers import Rules
from .rulings import RULINGS, rulings_from
from .state import NOT_GIVEN, PHASES, Effect, Fight, Monster, Player, State, Table, Worn, monster_from_card
from .turn import deal

MONSTER = either(scalar=ref("monster"), map=record(
    name=text(optional=True), attack=whole(min=0, optional=True), damage=whole(min=0, optional=True),
    xp=whole(min=0, optional=True), treasure=whole(min=0, optional=True), armour_piercing=flag(),
    effect=text(optional=True), effect_multiplier=number(min=0, optional=True)))
PLAYER = record(
    name=text(), **{"class": ref("class", optional=True)}, level=whole(optional=True), hand=listing(ref()),
    gear=either(scalar=ref("gear"), map=record(card=ref("gear"), at_least=whole(min=0, optional=True),
                                               damaged=flag()), optional=True),
    weapon=either(scalar=ref("weapon"), map=record(card=ref("weapon", optional=True),
                                                   bonus=whole(min=0, optional=True)), optional=True),
    effects=listing(record(name=text(), multiplier=number(min=0), until_round=whole(min=1))))
SETUP = record(
    players=listing(PLAYER, optional=False, min=1), turn=text(optional=True), round=whole(min=1, optional=True),
    phase=choice(*PHASES[1:-1], optional=True), monster=replace(MONSTER, optional=True),
    monsters=listing(MONSTER), items=listing(ref()), helpers=listing(text()),
    outcome=choice("won", "lost", optional=True), rulings=RULINGS,
)

OPTIONS = record(
    players=either(scalar=whole(min=1), seq=listing(text()), optional=True,
                   doc="a number of players (named P1, P2...) or their names (default 2)"),
    rulings=RULINGS,
)


def new_game(rules: Rules, options: dict, chance: Chance, log: Log) -> State:
    """A whole game from the deal; ``options``: ``players`` (names or a count) and ``rulings``."""
    names = options.get("players", 2)
    names = [f"P{i + 1}" for i in range(names)] if isinstance(names, int) else list(names)
    return State(rules, deal(rules, names, chance, log or NULL_LOG), rulings_from(options.get("rulings", {})), "setup")


def setup(rules: Rules, spec: dict, chance: Chance, log: Log) -> State:
    """The state an example starts from, as its ``setup:`` describes it."""
    players = tuple(_player(rules, p, ("players", i)) for i, p in enumerate(spec["players"]))
    names = [p.name for p in players]
    turn = spec.get("turn", names[0])
    if turn not in names:
        raise SpecError(f"turn: no player named {turn!r} (players: {', '.join(names)})", ("turn",))
    monsters = tuple(_monster(rules, m) for m in spec.get("monsters", ()))
    table = Table(players, items=tuple(spec.get("items", ())), monsters=monsters, active=names.index(turn),
                  round=spec.get("round", 1))
    phase = spec.get("phase", "start")
    state = State(rules, table, rulings_from(spec.get("rulings", {})), phase)
    if phase == "start":
        return state
    if "monster" not in spec:
        raise SpecError(f"a setup at the {phase} phase needs 'monster:', the monster in play", ())
    monster = _monster(rules, spec["monster"])
    helpers = tuple(spec.get("helpers", ()))
    for i, helper in enumerate(helpers):
        if helper not in names or helper == turn:
            raise SpecError(f"helpers: {helper!r} is not another player", ("helpers", i))
    state = replace(state, table=replace(table, fighting=monster), fighters=(turn,) + helpers if phase != "monster" else ())
    if phase == "post-fight":
        if "outcome" not in spec:
            raise SpecError("a setup at the post-fight phase needs 'outcome: won' or 'outcome: lost'", ("outcome",))
        state = replace(state, fight=Fight(monster.name, state.fighters, None, None, spec["outcome"]))
    return state


def _player(rules: Rules, spec: dict, key: tuple) -> Player:
    effects = tuple(Effect(e["name"], Fraction(str(e["multiplier"])), e["until_round"]) for e in spec.get("effects", ()))
    return Player(spec["name"], spec.get("class"), spec.get("level", rules.start_level), tuple(spec.get("hand", ())),
                  _worn(rules, spec.get("gear"), key + ("gear",)), _worn(rules, spec.get("weapon"), key + ("weapon",)),
                  effects)


def _worn(rules: Rules, spec, key: tuple) -> Worn | None:
    """A card id; ``{card: ID, at_least: N}`` for an open durability an example bounds;
    ``{bonus: N}`` for a weapon the example does not name; add ``damaged: true`` for damaged gear."""
    if spec is None:
        return None
    if isinstance(spec, str):
        return worn_from_card(rules.card(spec))
    if "card" not in spec:
        if "bonus" not in spec:
            raise SpecError("a weapon is a card id, {card: ID} or {bonus: N} for one the example does not name", key)
        return Worn(None, f"a +{spec['bonus']} weapon", spec["bonus"])
    worn = worn_from_card(rules.card(spec["card"]))
    if "at_least" in spec:
        if not isinstance(worn.value, Open):
            raise SpecError(f"{worn.name}'s durability is {worn.value}, not open; drop 'at_least'", key + ("at_least",))
        worn = replace(worn, value=AtLeast(spec["at_least"], worn.value.note))
    return replace(worn, damaged=spec.get("damaged", False))


def _monster(rules: Rules, spec) -> Monster:
    """A monster card's id, or a mapping for an unnamed monster; values it leaves out are open."""
    if isinstance(spec, str):
        return monster_from_card(rules.card(spec))
    given = {name: spec.get(name, Open(NOT_GIVEN)) for name in ("attack", "damage", "xp", "treasure")}
    return Monster(None, spec.get("name", "the monster"), **given, armour_piercing=spec.get("armour_piercing", False),
                   effect=spec.get("effect"), effect_multiplier=spec.get("effect_multiplier"))
