"""Gloombah! as a sequence of decisions: the verb table, ``apply`` and the actions legal now.

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

from deckwright.rules.data.fields import anything, ref, text
from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.protocol import Chance, Log
from deckwright.rules.engine.verbs import Action, Verb, dispatch

from .state import MONSTER, Play, State
from .turn import (
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


def _by(state: State, options) -> str:
    return str(options.get("by", state.table.turn_player.name))


def _equip(state, card, options, chance, log):
    if state.phase == "setup":
        return replace(state, table=equip(state.rules, state.table, _by(state, options), card, log))
    if state.phase == "start":
        state.rulings.need("equip_after_setup")
        return replace(state, table=equip(state.rules, state.table, state.table.turn_player.name, card, log))
    raise RuleError("equip: not at this phase")  # apply checks the phase first


def _begin(state, value, options, chance, log):
    return replace(state, phase="start")


def _repair(state, value, options, chance, log):
    return replace(state, table=repair(state.table, state.table.turn_player.name, log))


def _play(state, card, options, chance, log):
    if state.phase == "start":
        return replace(state, table=play_level_card(state.rules, state.table, state.table.turn_player.name, card, log))
    if state.phase == "fight":
        by = _by(state, options)
        on = str(options.get("on", by if by in state.fighters else ""))
        if not on:
            raise RuleError(f"{by} is not fighting: say whom the card is played on ('on: NAME' or 'on: monster')")
        play = Play(str(card), by, on)
        table = play_in_fight(state.rules, state.table, play, state.fighters, log)
        return replace(state, table=table, plays=state.plays + (play,))
    raise RuleError("play: not at this phase")  # apply checks the phase first


def _draw(state, value, options, chance, log):
    table, _ = draw_monster(state.table, state.rulings, chance, log)
    return replace(state, table=table, phase="monster", fighters=(), plays=(), fight=None, escape=None, hits=(),
                   died=())


def _choose(how: str):
    def run(state, value, options, chance, log):
        name = state.table.turn_player.name
        table, escape = run_away(state.rules, state.table, name, how, chance, state.rulings, log)
        state = replace(state, table=table, escape=escape)
        if escape.escaped:
            return _finish(state, log)
        return replace(state, phase="fight", fighters=(name,))
    return run


def _help(state, name, options, chance, log):
    name = state.table.player(str(name)).name
    if name in state.fighters:
        raise RuleError(f"{name} is already in this fight")
    log.add("help", player=name, helps=state.fighters[0])
    return replace(state, fighters=state.fighters + (name,))


def _resolve(state, value, options, chance, log):
    result = fight(state.rules, state.table, state.table.fighting, state.fighters, state.plays, state.rulings, log)
    return replace(state, fight=result, phase="post-fight")


def _post_fight(state, value, options, chance, log):
    if state.fight.outcome == "won":
        table = win(state.rules, state.table, state.table.fighting, state.fight, None, chance, state.rulings, log)
        return _finish(replace(state, table=table), log)
    table, hits = lose(state.rules, state.table, state.table.fighting, state.fight, state.rulings, log)
    state = replace(state, table=table, hits=tuple(hits.items()))
    return _deaths(replace(state, keeping=tuple(dying(state.rules, table, state.fight.fighters))), log)


def _share(state, shares, options, chance, log):
    if state.fight.outcome != "won":
        raise RuleError("only a won fight's reward is shared")
    if not isinstance(shares, dict) or not all(isinstance(v, list) and len(v) == 2 for v in shares.values()):
        raise SpecError("share: expected {NAME: [XP, ITEMS], ...}")
    table = win(state.rules, state.table, state.table.fighting, state.fight,
                {str(k): (int(v[0]), int(v[1])) for k, v in shares.items()}, chance, state.rulings, log)
    return _finish(replace(state, table=table), log)


def _deaths(state: State, log) -> State:
    """The dead with no choice to make die now; the others are asked which card they keep."""
    rules, table = state.rules, state.table
    keeping = []
    for name in state.keeping:
        if len(table.player(name).hand) > rules.cards_kept_on_death:
            keeping.append(name)
        else:
            table = die(rules, table, name, (table.player(name).hand or (None,))[0], state.rulings, log)
    died = state.died + tuple(name for name in state.keeping if name not in keeping)
    state = replace(state, table=table, keeping=tuple(keeping), died=died)
    return replace(state, phase="keep") if keeping else _finish(state, log)


def _keep(state, card, options, chance, log):
    by = str(options.get("by", state.keeping[0]))
    if by not in state.keeping:
        raise RuleError(f"{by} has no card to choose (choosing: {', '.join(state.keeping)})")
    table = die(state.rules, state.table, by, str(card), state.rulings, log)
    keeping = tuple(name for name in state.keeping if name != by)
    state = replace(state, table=table, keeping=keeping, died=state.died + (by,))
    return state if keeping else _finish(state, log)


def _finish(state: State, log) -> State:
    table = end_turn(state.table, log)
    return replace(state, table=table, phase="over" if table.winner else "start")


BY = (("by", text(optional=True)),)
ACTIONS = {
    "equip": Verb(_equip, ref("gear", "weapon"), BY, doc="gear or a weapon from the hand ('by' a player at setup)"),
    "begin": Verb(_begin, doc="the first turn starts"),
    "repair": Verb(_repair, doc="repair damaged gear"),
    "play": Verb(_play, ref("consumable"), BY + (("on", text(optional=True)),),
                 doc="a Level Up at the start of a turn; a consumable in a fight, 'on' a fighter or the monster"),
    "draw": Verb(_draw, doc="draw the monster"),
    "fight": Verb(_choose("fight"), doc="fight the monster"),
    "run": Verb(_choose("run"), doc="run away (free below the auto-run level, else a roll)"),
    "flee": Verb(_choose("flee"), doc="discard the hand and flee"),
    "help": Verb(_help, text(), doc="another player joins the fight"),
    "resolve": Verb(_resolve, doc="both sides' attack points compared"),
    "post-fight": Verb(_post_fight, doc="the reward, or the damage"),
    "share": Verb(_share, anything(optional=False), doc="how winners who fought together share: {NAME: [XP, ITEMS]}"),
    "keep": Verb(_keep, ref(), BY, doc="the card a dead player keeps"),
}


CHOICES = {  # the verbs each phase allows
    "setup": ("equip", "begin"),
    "start": ("repair", "play", "equip", "draw"),
    "monster": ("fight", "run", "flee"),
    "fight": ("help", "play", "resolve"),
    "post-fight": ("post-fight", "share"),
    "keep": ("keep",),
    "over": (),
}


def apply(state: State, action: Action, chance: Chance, log: Log) -> State:
    verb = action if isinstance(action, str) else next(iter(action), None) if isinstance(action, dict) else None
    if verb in ACTIONS and verb not in CHOICES[state.phase]:
        allowed = ", ".join(CHOICES[state.phase]) or "nothing (the game is over)"
        raise RuleError(f"'{verb}' is not possible now: at the {state.phase} phase the choices are {allowed}")
    return dispatch(ACTIONS, state, action, chance, log)


def legal_actions(state: State) -> list:
    """Every action allowed now, each checked by trying it (no chance is used in the check)."""
    table, phase = state.table, state.phase
    if phase == "setup":
        candidates = [{"equip": c, "by": p.name} for p in table.players for c in p.hand] + ["begin"]
    elif phase == "start":
        player = table.turn_player
        candidates = ["draw", "repair"] + [{"play": c} for c in player.hand]
        if state.rulings.equip_after_setup:
            candidates += [{"equip": c} for c in player.hand]
    elif phase == "monster":
        return [c for c in ("fight", "run", "flee")
                if c != "flee" or table.turn_player.hand or state.rulings.flee_with_empty_hand]
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
    if action in ("draw", "resolve", "begin"):
        return True
    try:
        apply(state, action, None, NULL_LOG)
    except (RuleError, SpecError):
        return False
    return True


def _share_options(state: State) -> list:
    """All to the turn's player, or one XP and one item to each helper while they last (no XP to a helper it
    would take to the win level: only a win on one's own turn gets there)."""
    fighters, monster = state.fight.fighters, state.table.fighting
    xp, treasure = monster.xp, monster.treasure
    options = [{"share": {fighters[0]: [xp, treasure]}}]
    split = {who: [0, 0] for who in fighters}
    given = 0
    for i, who in enumerate(fighters[1:]):
        takes_xp = given < xp and state.table.player(who).level + 1 < state.rules.win_level
        given += takes_xp
        split[who] = [int(takes_xp), 1 if i < treasure else 0]
    split[fighters[0]] = [xp - sum(v[0] for v in split.values()), treasure - sum(v[1] for v in split.values())]
    return options + [{"share": split}]
