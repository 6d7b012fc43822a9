"""Gloombah! as a sequence of decisions: the example protocol and random play (see rules/README.md).

A state sits at one of these phases, and each action moves it to the next decision:

- ``setup``: ``{equip: CARD, by: NAME}`` any number of times, then ``begin``;
- ``start`` (step 1): ``repair``, ``{play: CARD}`` (a Level Up), ``{equip: CARD}`` (only
  under the ruling equip_after_setup), then ``draw`` (step 2);
- ``monster`` (step 3): ``fight``, ``run`` or ``flee``;
- ``fight`` (step 4): ``{help: NAME}``, ``{play: CARD, by: NAME, on: NAME or monster}``, then ``resolve``;
- ``post-fight`` (step 5): ``post-fight``, or ``{share: {NAME: [XP, ITEMS], ...}}`` after a shared win;
- ``keep``: ``{keep: CARD, by: NAME}`` for each dead player with a choice to make;
- ``over``: someone reached the win level.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from deckwright.rules.data.values import Open
from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.zones import Zones

from .formula import AtLeast, Hit
from .numbers import OpenRuleError, Rulings, numbers, rulings_from
from .table import (
    MONSTER,
    NOT_GIVEN,
    Effect,
    Escape,
    Fight,
    Monster,
    Play,
    Player,
    Table,
    Worn,
    monster_from_card,
    piles,
    player_attack,
    worn_from_card,
)
from .turn import (
    deal,
    die,
    draw_monster,
    dying,
    end_turn,
    equip,
    fight,
    lose,
    play_in_fight,
    play_level_card,
    repair,
    run_away,
    win,
)

PHASES = ("setup", "start", "monster", "fight", "post-fight", "keep", "over")
MONSTER_FIELDS = ("name", "attack", "damage", "xp", "treasure", "armour_piercing", "effect", "effect_multiplier")
PLAYER_KEYS = ("name", "class", "level", "hand", "gear", "weapon", "effects")
SETUP_KEYS = ("players", "turn", "round", "phase", "monster", "monsters", "items", "helpers", "outcome", "rulings")


@dataclass(frozen=True)
class State:
    game: object
    table: Table
    rulings: Rulings = Rulings()
    phase: str = "start"
    fighters: tuple[str, ...] = ()
    plays: tuple[Play, ...] = ()
    fight: Fight | None = None
    escape: Escape | None = None
    hits: tuple[tuple[str, Hit], ...] = ()
    keeping: tuple[str, ...] = ()  # dead players still to choose the card they keep
    died: tuple[str, ...] = ()


# -- building states --------------------------------------------------------------------


def new_game(game, options: dict, chance, log=NULL_LOG) -> State:
    """A whole game from the deal; ``options``: ``players`` (names or a count) and ``rulings``."""
    names = options.get("players", 2)
    names = [f"P{i + 1}" for i in range(names)] if isinstance(names, int) else list(names)
    return State(game, deal(game, names, chance, log), rulings_from(options.get("rulings", {})), "setup")


def setup(game, spec: dict, chance, log=NULL_LOG) -> State:
    """The state an example starts from, as its ``setup:`` describes it."""
    _unknown_keys(spec, SETUP_KEYS, ())
    players_spec = spec.get("players")
    if not isinstance(players_spec, list) or not players_spec:
        raise SpecError("setup needs 'players:', a list such as [{name: A, level: 5}]", ("players",))
    players = tuple(_player(game, p, ("players", i)) for i, p in enumerate(players_spec))
    names = [p.name for p in players]
    turn = spec.get("turn", names[0])
    if turn not in names:
        raise SpecError(f"turn: no player named {turn!r} (players: {', '.join(names)})", ("turn",))
    monsters = tuple(_monster(game, m, ("monsters", i)) for i, m in enumerate(_list(spec, "monsters")))
    items = tuple(_card(game, c, ("items", i)) for i, c in enumerate(_list(spec, "items")))
    table = Table(players, items=items, monsters=monsters, active=names.index(turn), round=spec.get("round", 1))
    try:
        rulings = rulings_from(spec.get("rulings") or {})
    except ValueError as exc:
        raise SpecError(str(exc), ("rulings",)) from None
    phase = spec.get("phase", "start")
    if phase not in PHASES[1:-1]:
        raise SpecError(f"phase: expected one of {', '.join(PHASES[1:-1])}, got {phase!r}", ("phase",))
    state = State(game, table, rulings, phase)
    if phase == "start":
        return state
    if "monster" not in spec:
        raise SpecError(f"a setup at the {phase} phase needs 'monster:', the monster in play", ())
    monster = _monster(game, spec["monster"], ("monster",))
    helpers = tuple(_list(spec, "helpers"))
    for i, helper in enumerate(helpers):
        if helper not in names or helper == turn:
            raise SpecError(f"helpers: {helper!r} is not another player", ("helpers", i))
    state = replace(state, table=replace(table, fighting=monster), fighters=(turn,) + helpers if phase != "monster" else ())
    if phase == "post-fight":
        outcome = spec.get("outcome")
        if outcome not in ("won", "lost"):
            raise SpecError("a setup at the post-fight phase needs 'outcome: won' or 'outcome: lost'", ("outcome",))
        state = replace(state, fight=Fight(monster.name, state.fighters, None, None, outcome))
    return state


def _unknown_keys(spec, allowed, key) -> None:
    if not isinstance(spec, dict):
        raise SpecError(f"expected a mapping with {', '.join(allowed)}", key)
    for name in spec:
        if name not in allowed:
            raise SpecError(f"unknown key '{name}' (expected {', '.join(allowed)})", key + (name,))


def _list(spec: dict, name: str) -> list:
    value = spec.get(name) or []
    if not isinstance(value, list):
        raise SpecError(f"{name}: expected a list", (name,))
    return value


def _card(game, card_id, key, types: tuple[str, ...] = ()) -> str:
    try:
        card = game.card(card_id)
    except (KeyError, TypeError):
        raise SpecError(f"no card with id {card_id!r}", key) from None
    if types and card.type not in types:
        raise SpecError(f"{card.name} is a {card.type}, not a {' or '.join(types)}", key)
    return card.id


def _player(game, spec, key) -> Player:
    _unknown_keys(spec, PLAYER_KEYS, key)
    if "name" not in spec:
        raise SpecError("a player needs 'name:'", key)
    klass = _card(game, spec["class"], key + ("class",), ("class",)) if spec.get("class") else None
    level = spec.get("level", numbers(game).start_level)
    if not isinstance(level, int) or isinstance(level, bool):
        raise SpecError("level: expected a whole number", key + ("level",))
    hand = tuple(_card(game, c, key + ("hand", i)) for i, c in enumerate(spec.get("hand") or []))
    effects = tuple(_effect(e, key + ("effects", i)) for i, e in enumerate(spec.get("effects") or []))
    return Player(str(spec["name"]), klass, level, hand, _worn(game, spec.get("gear"), "gear", key + ("gear",)),
                  _worn(game, spec.get("weapon"), "weapon", key + ("weapon",)), effects)


def _worn(game, spec, slot: str, key) -> Worn | None:
    """A card id; ``{card: ID, at_least: N}`` for an open durability an example bounds;
    ``{bonus: N}`` for a weapon the example does not name; add ``damaged: true`` for damaged gear."""
    if spec is None:
        return None
    if isinstance(spec, str):
        return worn_from_card(game.card(_card(game, spec, key, (slot,))))
    allowed = ("card", "at_least", "damaged") if slot == "gear" else ("card", "bonus")
    _unknown_keys(spec, allowed, key)
    if "card" in spec:
        worn = worn_from_card(game.card(_card(game, spec["card"], key + ("card",), (slot,))))
    elif slot == "weapon" and isinstance(spec.get("bonus"), int):
        return Worn(None, f"a +{spec['bonus']} weapon", spec["bonus"])
    else:
        raise SpecError(f"{slot}: expected a card id" + (" or {bonus: N}" if slot == "weapon" else ""), key)
    if "at_least" in spec:
        if not isinstance(worn.value, Open):
            raise SpecError(f"{worn.name}'s durability is {worn.value}, not open; drop 'at_least'", key + ("at_least",))
        worn = replace(worn, value=AtLeast(spec["at_least"], worn.value.note))
    return replace(worn, damaged=bool(spec.get("damaged", False)))


def _monster(game, spec, key) -> Monster:
    """A monster card's id, or a mapping for an unnamed monster; values it leaves out are open."""
    if isinstance(spec, str):
        return monster_from_card(game.card(_card(game, spec, key, ("monster",))))
    _unknown_keys(spec, MONSTER_FIELDS, key)
    given = {name: spec.get(name, Open(NOT_GIVEN, None)) for name in ("attack", "damage", "xp", "treasure")}
    return Monster(None, spec.get("name", "the monster"), **given, armour_piercing=bool(spec.get("armour_piercing")),
                   effect=spec.get("effect"), effect_multiplier=spec.get("effect_multiplier"))


def _effect(spec, key) -> Effect:
    _unknown_keys(spec, ("name", "multiplier", "until_round"), key)
    try:
        return Effect(str(spec["name"]), Fraction(str(spec["multiplier"])), int(spec["until_round"]))
    except (KeyError, ValueError) as exc:
        raise SpecError(f"an effect needs name, multiplier and until_round ({exc})", key) from None


# -- actions ------------------------------------------------------------------------------


def _read(action) -> tuple[str, object, dict]:
    """(word, its value, the other keys) from ``draw`` or ``{play: vial, by: A}``."""
    if isinstance(action, str):
        return action, None, {}
    if isinstance(action, dict) and action:
        word = next(iter(action))
        return str(word), action[word], {k: v for k, v in action.items() if k != word}
    raise SpecError(f"an action is a word such as draw or a mapping such as {{play: level-up}}, not {action!r}")


def apply(state: State, action, chance, log=NULL_LOG) -> State:
    word, value, extra = _read(action)
    handlers = _HANDLERS[state.phase]
    if word not in handlers:
        allowed = ", ".join(handlers) or "nothing (the game is over)"
        raise RuleError(f"'{word}' is not possible now: at the {state.phase} phase the choices are {allowed}")
    return handlers[word](state, value, extra, chance, log)


def _by(state: State, extra: dict) -> str:
    return str(extra.get("by", state.table.turn_player.name))


def _setup_equip(state, card, extra, chance, log):
    return replace(state, table=equip(state.game, state.table, _by(state, extra), card, log))


def _begin(state, value, extra, chance, log):
    return replace(state, phase="start")


def _repair(state, value, extra, chance, log):
    return replace(state, table=repair(state.table, state.table.turn_player.name, log))


def _play_level(state, card, extra, chance, log):
    return replace(state, table=play_level_card(state.game, state.table, state.table.turn_player.name, card, log))


def _equip_later(state, card, extra, chance, log):
    state.rulings.need("equip_after_setup")
    return replace(state, table=equip(state.game, state.table, state.table.turn_player.name, card, log))


def _draw(state, value, extra, chance, log):
    table, _ = draw_monster(state.table, state.rulings, chance, log)
    return replace(state, table=table, phase="monster", fighters=(), plays=(), fight=None,
                   escape=None, hits=(), died=())


def _choose(how):
    def handler(state, value, extra, chance, log):
        name = state.table.turn_player.name
        table, escape = run_away(state.game, state.table, name, how, chance, state.rulings, log)
        state = replace(state, table=table, escape=escape)
        if escape.escaped:
            return _finish(state, log)
        return replace(state, phase="fight", fighters=(name,))
    return handler


def _help(state, name, extra, chance, log):
    name = state.table.player(str(name)).name
    if name in state.fighters:
        raise RuleError(f"{name} is already in this fight")
    log.add("help", f"{name} helps {state.fighters[0]}", player=name)
    return replace(state, fighters=state.fighters + (name,))


def _play_in_fight(state, card, extra, chance, log):
    by = _by(state, extra)
    on = str(extra.get("on", by if by in state.fighters else ""))
    if not on:
        raise RuleError(f"{by} is not fighting: say whom the card is played on ('on: NAME' or 'on: monster')")
    play = Play(str(card), by, on)
    table = play_in_fight(state.game, state.table, play, state.fighters, log)
    return replace(state, table=table, plays=state.plays + (play,))


def _resolve(state, value, extra, chance, log):
    result = fight(state.game, state.table, state.table.fighting, state.fighters, state.plays, state.rulings, log)
    return replace(state, fight=result, phase="post-fight")


def _post_fight(state, value, extra, chance, log):
    if state.fight.outcome == "won":
        table = win(state.game, state.table, state.table.fighting, state.fight, None, chance, state.rulings, log)
        return _finish(replace(state, table=table), log)
    table, hits = lose(state.game, state.table, state.table.fighting, state.fight, state.rulings, log)
    state = replace(state, table=table, hits=tuple(hits.items()))
    return _deaths(replace(state, keeping=tuple(dying(state.game, table, state.fight.fighters))), log)


def _share(state, shares, extra, chance, log):
    if state.fight.outcome != "won":
        raise RuleError("only a won fight's reward is shared")
    if not isinstance(shares, dict) or not all(isinstance(v, list) and len(v) == 2 for v in shares.values()):
        raise SpecError("share: expected {NAME: [XP, ITEMS], ...}")
    table = win(state.game, state.table, state.table.fighting, state.fight,
                {str(k): (int(v[0]), int(v[1])) for k, v in shares.items()}, chance, state.rulings, log)
    return _finish(replace(state, table=table), log)


def _deaths(state: State, log) -> State:
    """The dead with no choice to make die now; the others are asked which card they keep."""
    n = numbers(state.game)
    table = state.table
    keeping = []
    for name in state.keeping:
        if len(table.player(name).hand) > n.cards_kept_on_death:
            keeping.append(name)
        else:
            table = die(state.game, table, name, (table.player(name).hand or (None,))[0], state.rulings, log)
    died = state.died + tuple(name for name in state.keeping if name not in keeping)
    state = replace(state, table=table, keeping=tuple(keeping), died=died)
    return replace(state, phase="keep") if keeping else _finish(state, log)


def _keep(state, card, extra, chance, log):
    by = str(extra.get("by", state.keeping[0]))
    if by not in state.keeping:
        raise RuleError(f"{by} has no card to choose (choosing: {', '.join(state.keeping)})")
    table = die(state.game, state.table, by, str(card), state.rulings, log)
    keeping = tuple(name for name in state.keeping if name != by)
    state = replace(state, table=table, keeping=keeping, died=state.died + (by,))
    return state if keeping else _finish(state, log)


def _finish(state: State, log) -> State:
    table = end_turn(state.table, log)
    return replace(state, table=table, phase="over" if table.winner else "start")


_HANDLERS = {
    "setup": {"equip": _setup_equip, "begin": _begin},
    "start": {"repair": _repair, "play": _play_level, "equip": _equip_later, "draw": _draw},
    "monster": {"fight": _choose("fight"), "run": _choose("run"), "flee": _choose("flee")},
    "fight": {"help": _help, "play": _play_in_fight, "resolve": _resolve},
    "post-fight": {"post-fight": _post_fight, "share": _share},
    "keep": {"keep": _keep},
    "over": {},
}


# -- what examples may claim -------------------------------------------------------------


def observe(state: State) -> dict:
    table = state.table
    out = {
        "phase": state.phase,
        "turn": table.turn_player.name,
        "round": table.round,
        "winner": table.winner,
        "players": {p.name: _player_view(p) for p in table.players},
        "monster": table.fighting.name if table.fighting else None,
        "fighters": list(state.fighters),
        "hits": {name: {"damage": h.damage, "absorbed": h.absorbed, "to_player": h.to_player, "gear": h.gear}
                 for name, h in state.hits},
        "died": list(state.died),
        "items": list(table.items),
        "item_discard": list(table.item_discard),
    }
    if state.fight is not None:
        f = state.fight
        out["fight"] = {"monster": f.monster, "fighters": list(f.fighters), "side": f.side,
                        "monster_side": f.monster_side, "outcome": f.outcome, "margin": f.margin}
    if state.escape is not None:
        e = state.escape
        out["run"] = {"how": e.how, "roll": e.roll, "escaped": e.escaped}
    return out


def _player_view(p: Player) -> dict:
    try:
        attack = player_attack(p)
    except OpenRuleError:
        attack = None
    return {"level": p.level, "class": p.klass, "hand": list(p.hand), "attack": attack,
            "gear": (p.gear.card or p.gear.name) if p.gear else None,
            "gear_state": ("damaged" if p.gear.damaged else "intact") if p.gear else None,
            "weapon": (p.weapon.card or p.weapon.name) if p.weapon else None,
            "effects": [e.name for e in p.effects]}


# -- random play ---------------------------------------------------------------------------


def is_over(state: State) -> bool:
    return state.phase == "over"


def zones(state: State) -> Zones:
    return Zones.with_piles(**piles(state.table))


def legal_actions(state: State) -> list:
    """Every action allowed now, each checked by trying it (no chance is used in the check)."""
    table, phase, name = state.table, state.phase, state.table.turn_player.name
    if phase == "setup":
        candidates = [{"equip": c, "by": p.name} for p in table.players for c in p.hand] + ["begin"]
    elif phase == "start":
        player = table.turn_player
        candidates = ["draw", "repair"] + [{"play": c} for c in player.hand]
        if state.rulings.equip_after_setup:
            candidates += [{"equip": c} for c in player.hand]
    elif phase == "monster":
        candidates = ["fight", "run", "flee"]
        return [c for c in candidates if c != "flee" or table.turn_player.hand or state.rulings.flee_with_empty_hand]
    elif phase == "fight":
        candidates = ["resolve"] + [{"help": p.name} for p in table.players if p.name not in state.fighters]
        candidates += [{"play": c, "by": p.name, "on": on} for p in table.players for c in dict.fromkeys(p.hand)
                       for on in (*state.fighters, MONSTER)]
    elif phase == "post-fight":
        if state.fight.outcome == "won" and len(state.fight.fighters) > 1:
            return _share_options(state)
        return ["post-fight"]
    elif phase == "keep":
        return [{"keep": c, "by": who} for who in state.keeping for c in dict.fromkeys(table.player(who).hand)]
    else:
        return []
    return [c for c in candidates if _allowed(state, c)]


def _allowed(state: State, action) -> bool:
    word, _, _ = _read(action)
    if word in ("draw", "run", "fight", "resolve", "begin"):
        return True
    try:
        apply(state, action, None, NULL_LOG)
    except (RuleError, SpecError):
        return False
    return True


def _share_options(state: State) -> list:
    """All to the turn's player, or one XP and one item to each helper while they last."""
    fighters, monster = state.fight.fighters, state.table.fighting
    xp, treasure = monster.xp, monster.treasure
    options = [{"share": {fighters[0]: [xp, treasure]}}]
    split = {who: [0, 0] for who in fighters}
    for i, who in enumerate(fighters[1:]):
        split[who] = [1 if i < xp else 0, 1 if i < treasure else 0]
    split[fighters[0]] = [xp - sum(v[0] for v in split.values()), treasure - sum(v[1] for v in split.values())]
    return options + [{"share": split}]
