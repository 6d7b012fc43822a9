"""Playing a card from the hand: an Ace, a Joker or one of the major arcana."""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError

from .combat import foes_left, wound
from .pickups import cap, convert_floor
from .rooms import discover, enter, place_card_machine, spawn
from .state import Player, State, TimedEffect


def play(state: State, player: Player, card_id: str, target: str, chance, log) -> None:
    if card_id not in player.hand:
        raise RuleError(f"{card_id} is not in {player.name}'s hand ({', '.join(player.hand) or 'empty'})")
    card = state.rules.deck_cards[card_id]
    effect = card.effect
    if card.kind == "tarot" and effect.open_note:
        raise RuleError(f"{card.name} cannot be resolved: {effect.open_note}")
    player.hand.remove(card_id)
    if log:
        log.add("play", player=player.name, card=card_id)
    state.last = {}
    if card.kind == "ace":
        state.used.append(card_id)
        state.last = {"converted": convert_floor(state, card.pickup, log)}
        return
    if effect.damage:
        damage(state, effect.damage, effect.damage_target, target, log)
    if effect.bonus or effect.conditions:
        player.effects.append(TimedEffect(card_id, dict(effect.bonus), effect.conditions, effect.lasts, effect.turns))
        if log:
            log.add("effect", player=player.name, card=card_id, bonus=[list(b) for b in effect.bonus],
                    conditions=list(effect.conditions), lasts=effect.lasts, turns=effect.turns)
    if effect.drops or effect.chance:
        state.last.update(spawn(state, effect, chance, log, card.name))
    if effect.full_heal:
        player.counters["hearts"] = cap(state, player, "hearts")
        if log:
            log.add("heal", player=player.name, hearts=player.counters["hearts"])
    for room in effect.reveals:
        discover(state, room, log)
    if effect.machine:
        place_card_machine(state, card_id, effect.machine, log)
    else:
        state.used.append(card_id)
    if effect.travel:
        enter(state, player, effect.travel, log, by_card=True)


def playable_now(state: State, card_id: str) -> bool:
    """Whether random play may play the card: its effect is known, and a room it leads to can be entered."""
    card = state.rules.deck_cards[card_id]
    effect = card.effect
    if card.kind == "tarot" and effect.open_note:
        return False
    if effect.travel and state.rules.special_rooms[effect.travel].starts_combat:
        return state.fight is None and bool(state.piles.get("bosses"))
    return True


def damage(state: State, amount: int, target_rule: str, named: str, log) -> None:
    """Card damage. A boss loses that much HP; an enemy, which has no HP, takes it as one hit."""
    foes = foes_left(state)
    if not foes:
        if log:
            log.add("no-target")
        return
    if target_rule == "every-enemy":
        targets = foes
    else:
        most = max(f.hp for f in foes)
        candidates = [f for f in foes if f.hp == most]
        if len(candidates) == 1 and not named:
            targets = candidates
        else:
            chosen = [f for f in candidates if f.key == named]
            if not chosen:
                raise RuleError(f"several enemies share the most HP ({', '.join(f.key for f in candidates)}); "
                                f"name one with 'target:'")
            targets = chosen
    for foe in targets:
        if log:
            log.add("damage", foe=foe.key, amount=amount)
        wound(state, foe, amount, log)
