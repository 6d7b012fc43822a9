"""The player's decisions: an action on their turn, a reaction to an enemy's action, and what happens
between encounters and in town."""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError, SpecError
from deckwright.rules.problems import did_you_mean

from .encounters import venture
from .narration import cards_text
from .numbers import ActionDef, Rules
from .prey import begin_prey_turn, cancels, resolve
from .state import CONDITIONS, DISCARD, ENCOUNTER, ENCOUNTER_DISCARD, HAND, Enemy, State
from .town import draw_to_mind, end_encounter, go_to_town, reset_encounter_deck


def take_action(state: State, action_id, target_label, discard, log) -> None:
    """The player's turn: one action, its Time paid by every enemy, then the draw back up to Mind."""
    rules, zones = state.rules, state.zones
    action = rules.actions.get(action_id) or action_def(rules, action_id, ("play",))
    hand, kind = zones.piles[HAND], action.kind
    if action.modifier == "reaction":
        raise RuleError(f"{action.name} is a reaction: use it with 'react:' when an enemy acts")
    target = _target(state, target_label) if action.power else None
    cost_card = None
    if kind == "card":
        if action.id not in hand:
            raise RuleError(f"no {action.name} in your hand ({cards_text(rules, hand)})")
    elif kind == "instinctual":
        if not rules.actions.keys().isdisjoint(hand):  # an action card in hand (asked in C)
            raise RuleError(f"{action.name} is allowed only when your hand holds no action cards "
                            f"(it holds {cards_text(rules, hand)})")
    else:
        cost_card = _cost_card(state, discard, action)
    if log.card_facts:  # the simulator's log: the card alone, no event built
        log.played(action.id)
    elif "action" in log:
        log.add("action", action=action.id, discard=cost_card)
    if kind == "card":
        zones.move(action.id, HAND, DISCARD)
    elif cost_card:
        zones.move(cost_card, HAND, DISCARD)
    _pay_time(state, action, log)
    if action.power:
        _strike(state, action, target, log)
    if action.modifier == "recovery":
        _rest(state, action, log)
    if action.skip_turn:
        state.skip_turn = True


def end_turn(state: State, chance, log) -> None:
    """Draw back up to Mind; then death, the encounter's end, or the prey's turn."""
    if state.phase == "won":  # the level is over; nothing is left to draw for
        end_encounter(state, log)
        return
    draw_to_mind(state, chance, log)
    if state.phase == "town":  # died drawing wounds
        return
    if not state.zones.piles[ENCOUNTER]:
        end_encounter(state, log)
    else:
        begin_prey_turn(state)


def react(state: State, reaction, discard, chance, log) -> None:
    """An answer to the pending enemy action: let it happen (``none``), or cancel it with a reaction."""
    rules, zones = state.rules, state.zones
    enemy, ability = state.pending
    state.pending = None
    state.phase = "prey"
    if reaction in (None, "none", False):
        if not log.card_facts and "reaction" in log:  # "none" is no card: nothing for the simulator's log
            log.add("reaction", enemy=enemy.label, action="none", discard=None)
        resolve(state, enemy, ability, chance, log)
        return
    action = action_def(rules, reaction, ("react",))
    if action.modifier != "reaction":
        raise RuleError(f"{action.name} is not a reaction")
    if not cancels(action, enemy):
        raise RuleError(f"{action.name} cancels only an action that leaves the enemy at 0 energy; "
                        f"{rules.name(enemy.label)} has {enemy.energy}")
    if action.kind == "card":
        if action.id not in zones.piles[HAND]:
            raise RuleError(f"no {action.name} in your hand ({cards_text(rules, zones.piles[HAND])})")
        zones.move(action.id, HAND, DISCARD)
        card = None
    else:
        card = _cost_card(state, discard, action)
        zones.move(card, HAND, DISCARD)
    if log.card_facts:
        log.played(action.id)
    elif "reaction" in log:
        log.add("reaction", enemy=enemy.label, action=action.id, discard=card)
    _pay_time(state, action, log)
    if action.skip_turn:
        state.skip_turn = True
        if "skip" in log:
            log.add("skip", by=action.id)


def return_to_town(state: State, chance, log) -> None:
    if "town" in log:
        log.add("town")
    reset_encounter_deck(state, log)
    go_to_town(state, chance, log)


def press_on(state: State, chance, log) -> None:
    venture(state, chance, log)


def equip(state: State, armor: str, log) -> None:
    if armor not in state.rules.armors:
        raise SpecError(f"no armour '{armor}'{did_you_mean(str(armor), list(state.rules.armors))}", ("equip",))
    state.armor = armor
    if "equip" in log:
        log.add("equip", armor=armor)


# -- paying for actions, striking, resting -----------------------------------------------


def _cost_card(state: State, card, action: ActionDef) -> str:
    rules, hand = state.rules, state.zones.piles[HAND]
    if card is None:
        raise RuleError(f"{action.name} is a basic action: name the action card you discard for it ('discard:')")
    if card not in rules.actions or rules.actions[card].kind != "card":
        raise SpecError(f"'{card}' is not an action card{did_you_mean(str(card), list(rules.actions))}", ("discard",))
    if card not in hand:
        raise RuleError(f"no {rules.names[card]} in your hand to discard ({cards_text(rules, hand)})")
    return card


def _pay_time(state: State, action: ActionDef, log) -> None:
    """Every enemy gains the action's Time as energy; Burning adds its wounds to a non-Recovery action."""
    zones, time = state.zones, action.time
    if time:
        enemies = zones.piles[ENCOUNTER]
        for enemy in enemies:
            enemy.energy += time
        if "time" in log and enemies:
            log.add("time", action=action.id, energy=[[e.label, e.energy] for e in enemies])
    conditions = zones.piles[CONDITIONS]
    if not conditions or action.modifier == "recovery":
        return
    rules = state.rules
    burning = sum(map(rules.wounding_conditions.__contains__, conditions))
    zones.create_copies(rules.wound, DISCARD, burning)
    if burning and "wound" in log:
        log.add("wound", action=action.id, wounds=burning)


def _strike(state: State, action: ActionDef, enemy: Enemy, log) -> None:
    card = enemy.card
    protector = card.protected_by
    if protector and any(e.id == protector for e in state.enemies()):
        if "protected" in log:
            log.add("protected", action=action.id, enemy=enemy.label, by=protector)
        return
    total = enemy.wounds + action.power
    if card.wound_reset is not None and total >= card.wound_reset:
        enemy.wounds = 0
        if "wounds-reset" in log:
            log.add("wounds-reset", action=action.id, enemy=enemy.label, would_be=total)
        return
    enemy.wounds = total
    if "strike" in log:
        log.add("strike", action=action.id, enemy=enemy.label, wounds=total)
    if total >= card.health:
        _defeat(state, enemy, log)


def _defeat(state: State, enemy: Enemy, log) -> None:
    zones = state.zones
    state.defeated += (enemy.label,)
    if enemy.summoned:
        zones.remove(enemy, ENCOUNTER)
    else:
        zones.take(ENCOUNTER, enemy)
        zones.own(ENCOUNTER_DISCARD).append(enemy.id)
    if "defeat" in log:
        log.add("defeat", enemy=enemy.label, trashed=enemy.summoned)
    if enemy.card.boss:
        state.phase = "won"


def _rest(state: State, action: ActionDef, log) -> None:
    """Recovery actions: the hand may go to the discard, and conditions that end on rest end."""
    rules, zones = state.rules, state.zones
    if action.discard_hand:
        moved = zones.move_all(HAND, DISCARD)
        if "discard" in log and moved:
            log.add("discard", action=action.id, cards=list(moved))
    ended = [c for c in zones.piles[CONDITIONS] if rules.conditions[c].ends_on_rest]
    for condition in ended:
        zones.remove(condition, CONDITIONS)
    if "conditions-end" in log and ended:
        log.add("conditions-end", action=action.id, conditions=ended)


# -- small helpers ----------------------------------------------------------------------------


def action_def(rules: Rules, action_id, key: tuple) -> ActionDef:
    action = rules.actions.get(action_id)
    if action is None:
        raise SpecError(f"no action '{action_id}'{did_you_mean(str(action_id), list(rules.actions))}", key)
    return action


def _target(state: State, label) -> Enemy:
    enemies = state.enemies()
    if label is None:
        if len(enemies) == 1:
            return enemies[0]
        raise RuleError(f"name the enemy you strike ('target:'): {', '.join(e.label for e in enemies)}")
    for enemy in enemies:
        if enemy.label == label:
            return enemy
    raise RuleError(f"no enemy '{label}' in the encounter (there are: {', '.join(e.label for e in enemies)})")
