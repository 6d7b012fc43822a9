"""The turn engine: prey turns, the player's actions and reactions, encounters, town, death.

Functions here change the ``State`` in place and log what happened; ``act``
applies one decision of the player and runs the game forward to the next.
"""
from __future__ import annotations

from collections import Counter

from deckwright.rules.data.schema import did_you_mean
from deckwright.rules.engine.errors import RuleError, SpecError

from .data import Ability, ActionDef, Rules
from .state import CONDITIONS, DECK, DISCARD, ENCOUNTER, ENCOUNTER_DISCARD, ENCOUNTERS, HAND, Enemy, State

MAX_PREY_TURNS_IN_A_ROW = 1000  # only a 0-energy ability that skips the player's turn could loop; stop it loudly


def act(state: State, action, chance, log) -> None:
    """One decision of the player, then the game runs forward to the next one."""
    act = read_action(action)
    phase = state.phase
    if phase == "turn":
        player_turn(state, act, chance, log)
    elif phase == "reaction":
        react(state, act, chance, log)
    elif phase == "between":
        between(state, act, chance, log)
    elif phase == "town":
        town_action(state, act, chance, log)
    else:
        raise RuleError("the level's boss is defeated: the hunt on this level is over")
    advance(state, chance, log)



# -- the prey's side ---------------------------------------------------------------------


def advance(state: State, chance, log) -> None:
    """Play the prey's side until the player has a decision to take."""
    prey_turns = 0
    while state.phase == "prey":
        while state.queue and state.phase == "prey":
            enemy = state.queue.pop(0)
            if enemy in state.zones[ENCOUNTER]:  # not defeated meanwhile
                _enemy_acts(state, enemy, chance, log)
        if state.phase != "prey":
            return
        if not state.skip_turn:
            state.phase = "turn"
            return
        state.skip_turn = False
        if log:
            log.add("skip", "You skip your turn")
        prey_turns += 1
        if prey_turns > MAX_PREY_TURNS_IN_A_ROW:
            raise RuleError("the prey keep acting without the player ever getting a turn")
        begin_prey_turn(state)


def begin_prey_turn(state: State) -> None:
    """Every enemy in the encounter now acts once, in order; prey summoned meanwhile wait for the next turn."""
    state.phase = "prey"
    state.queue = state.enemies()


def _enemy_acts(state: State, enemy: Enemy, chance, log) -> None:
    ability = next((a for a in reversed(enemy.card.abilities) if a.energy <= enemy.energy), None)
    if ability is None:
        if log:
            log.add("prey", f"{_name(enemy)} passes ({enemy.energy} energy)")
        return
    enemy.energy -= ability.energy
    if log:
        log.add("prey", f"{_name(enemy)} spends {ability.energy} energy ({enemy.energy} left): "
                        f"{ability.describe(state.rules.names)}", enemy=enemy.label, energy=ability.energy)
    if _reaction_possible(state, enemy):
        state.pending = (enemy, ability)
        state.phase = "reaction"
        return
    _resolve(state, enemy, ability, chance, log)


def _resolve(state: State, enemy: Enemy, ability: Ability, chance, log) -> None:
    rules, zones = state.rules, state.zones
    for kind, value in ability.steps:
        if kind == "power":
            _hit(state, enemy, value, chance, log)
            if state.phase != "prey":  # the hunter died
                return
        elif kind == "inflict":
            zones.create(value, CONDITIONS)
            if log:
                log.add("condition", f"{_name(enemy)} inflicts {rules.names[value]} "
                                     f"({zones.count(CONDITIONS, value)} on you)", condition=value)
        elif kind == "summon":
            summoned = _summon(state, value)
            if log:
                log.add("summon", f"{_name(enemy)} summons {_name(summoned)}", enemy=summoned.label)
        elif kind == "discard_deck":
            moved = len(zones[DECK])
            zones.move_all(DECK, DISCARD)
            if log:
                log.add("discard", f"{_name(enemy)} sends your action deck ({moved} cards) to the action discard")
            _recover_if_empty(state, chance, log)
    if ability.skip_turn:
        state.skip_turn = True
        if log:
            log.add("skip", f"{_name(enemy)} makes you skip your next turn")


def _hit(state: State, enemy: Enemy, power: int, chance, log) -> None:
    rules, zones = state.rules, state.zones
    armor = rules.armors[state.armor]
    track = state.track()
    wounds = sum(1 for value in track if power >= value)
    critical = power >= armor.critical
    if critical:
        wounds += 1
    to = HAND if critical else DISCARD
    for _ in range(wounds):
        zones.create(rules.wound, to)
    state.last_attack = {"enemy": enemy.label, "power": power, "wounds": wounds, "critical": critical, "to": to}
    if log:
        where = "your hand (critical)" if critical else "the discard"
        log.add("attack", f"{_name(enemy)}: Power {power} against {armor.name} {_track_text(track, armor.critical)} "
                          f"-> {_plural(wounds, 'wound')} to {where}", power=power, wounds=wounds, to=to)
    if critical:
        _check_death(state, chance, log)


def _summon(state: State, card_id: str) -> Enemy:
    card = state.rules.enemies[card_id]
    enemy = Enemy(card_id, label_for(state, card_id), card, summoned=True)
    state.zones.create(enemy, ENCOUNTER)
    return enemy


def label_for(state: State, card_id: str) -> str:
    state.labels[card_id] += 1
    number = state.labels[card_id]
    return card_id if number == 1 else f"{card_id}#{number}"


def _reaction_possible(state: State, enemy: Enemy) -> bool:
    hand = state.zones[HAND]
    for action in state.rules.actions.values():
        if action.modifier != "reaction" or not cancels(action, enemy):
            continue
        if action.kind == "card" and action.id in hand:
            return True
        if action.kind == "basic" and any(c in state.rules.actions for c in hand):
            return True
    return False


def cancels(action: ActionDef, enemy: Enemy) -> bool:
    return action.cancels == "any" or (action.cancels == "zero-energy" and enemy.energy == 0)


# -- the player's decisions -----------------------------------------------------------------------


_ACTION_KEYS = ("play", "react", "target", "discard", "equip")
_WORDS = ("venture", "continue", "town")


def read_action(action) -> dict:
    if isinstance(action, str):
        if action not in _WORDS:
            raise SpecError(f"'{action}' is not an action; use one of {', '.join(_WORDS)} or a mapping "
                            f"such as {{play: swipe}}{did_you_mean(action, list(_WORDS))}")
        return {action: True}
    if not isinstance(action, dict) or not action:
        raise SpecError("an action is a word (venture, continue, town) or a mapping such as {play: swipe, target: dire-rat}")
    for key in action:
        if key not in _ACTION_KEYS + _WORDS:
            raise SpecError(f"unknown action key '{key}'{did_you_mean(str(key), list(_ACTION_KEYS + _WORDS))}", (key,))
    return action


def player_turn(state: State, act: dict, chance, log) -> None:
    rules, zones = state.rules, state.zones
    if "play" not in act:
        raise RuleError(f"it is your turn: play an action ({{play: ...}}), not {_act_text(act)}")
    action = _action(rules, act["play"], ("play",))
    hand = zones[HAND]
    if action.modifier == "reaction":
        raise RuleError(f"{action.name} is a reaction: use it with 'react:' when an enemy acts")
    target = _target(state, act.get("target"), ("target",)) if action.power else None
    if action.kind == "instinctual":
        if any(c in rules.actions for c in hand):
            raise RuleError(f"{action.name} is allowed only when your hand holds no action cards "
                            f"(it holds {cards_text(rules, hand)})")
        cost_card = None
    elif action.kind == "card":
        if action.id not in hand:
            raise RuleError(f"no {action.name} in your hand ({cards_text(rules, hand)})")
        cost_card = None
    else:
        cost_card = _cost_card(state, act, action)
    if log:
        extra = f", discarding {rules.names[cost_card]}" if cost_card else ""
        log.add("action", f"You take {action.name} (Time {action.time}{extra})", action=action.id)
    if action.kind == "card":
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
    _end_turn(state, chance, log)


def _cost_card(state: State, act: dict, action: ActionDef) -> str:
    rules, hand = state.rules, state.zones[HAND]
    card = act.get("discard")
    if card is None:
        raise RuleError(f"{action.name} is a basic action: name the action card you discard for it ('discard:')")
    if card not in rules.actions or rules.actions[card].kind != "card":
        raise SpecError(f"'{card}' is not an action card{did_you_mean(str(card), list(rules.actions))}", ("discard",))
    if card not in hand:
        raise RuleError(f"no {rules.names[card]} in your hand to discard ({cards_text(rules, hand)})")
    return card


def _pay_time(state: State, action: ActionDef, log) -> None:
    """Every enemy gains the action's Time as energy; Burning adds its wounds to a non-Recovery action."""
    enemies = state.enemies()
    for enemy in enemies:
        enemy.energy += action.time
    if log and enemies and action.time:
        log.add("energy", f"{action.name}'s Time {action.time}: {_energies(enemies)}")
    if action.modifier == "recovery":
        return
    zones, rules = state.zones, state.rules
    burning = sum(1 for c in zones[CONDITIONS] if rules.conditions[c].wound_per_action)
    for _ in range(burning):
        zones.create(rules.wound, DISCARD)
    if burning and log:
        log.add("wound", f"Burning: {_plural(burning, 'wound')} to the discard for {action.name}", wounds=burning)


def _strike(state: State, action: ActionDef, enemy: Enemy, log) -> None:
    card = enemy.card
    protector = card.protected_by
    if protector and any(e.id == protector for e in state.enemies()):
        if log:
            log.add("strike", f"{action.name}: Power {action.power} against {_name(enemy)}: no wounds while "
                              f"{state.rules.names[protector]} is in the encounter")
        return
    total = enemy.wounds + action.power
    if card.wound_reset is not None and total >= card.wound_reset:
        enemy.wounds = 0
        if log:
            log.add("strike", f"{action.name}: Power {action.power} would bring {_name(enemy)} to {total} wounds "
                              f"(>= {card.wound_reset}): all his wounds are removed (0 of {card.health})")
        return
    enemy.wounds = total
    if log:
        log.add("strike", f"{action.name}: Power {action.power} against {_name(enemy)} -> "
                          f"{min(total, card.health)} of {card.health} wounds", enemy=enemy.label, wounds=total)
    if total >= card.health:
        _defeat(state, enemy, log)


def _defeat(state: State, enemy: Enemy, log) -> None:
    zones = state.zones
    state.defeated.append(enemy.label)
    if enemy.summoned:
        zones.remove(enemy, ENCOUNTER)
    else:
        zones.take(ENCOUNTER, enemy)
        zones[ENCOUNTER_DISCARD].append(enemy.id)
    if log:
        log.add("defeat", f"{_name(enemy)} is defeated" + (" and trashed" if enemy.summoned else ""), enemy=enemy.label)
    if enemy.card.boss:
        state.phase = "won"


def _rest(state: State, action: ActionDef, log) -> None:
    rules, zones = state.rules, state.zones
    if action.discard_hand:
        moved = zones.move_all(HAND, DISCARD)
        if log and moved:
            log.add("discard", f"{action.name}: your hand ({cards_text(rules, moved)}) goes to the discard")
    ended = [c for c in zones[CONDITIONS] if rules.conditions[c].ends_on_rest]
    for condition in ended:
        zones.remove(condition, CONDITIONS)
    if log and ended:
        log.add("condition", f"{action.name} ends {cards_text(rules, ended)}")


def _end_turn(state: State, chance, log) -> None:
    """Draw back up to Mind; then death, the encounter's end, or the prey's turn."""
    if state.phase == "won":  # the level is over; nothing is left to draw for
        _end_encounter(state, log)
        return
    _draw_to_mind(state, chance, log)
    if state.phase == "town":  # died drawing wounds
        return
    if not state.enemies():
        _end_encounter(state, log)
    else:
        begin_prey_turn(state)


def _draw_to_mind(state: State, chance, log) -> None:
    rules, zones = state.rules, state.zones
    missing = rules.mind - len(zones[HAND])
    while missing > 0:
        drawn = zones.draw(DECK, HAND, missing)
        missing -= len(drawn)
        if log and drawn:
            log.add("draw", f"You draw {cards_text(rules, drawn)}")
        _recover_if_empty(state, chance, log)  # always leaves at least the new wound to draw
    _check_death(state, chance, log)


def _recover_if_empty(state: State, chance, log) -> None:
    if not state.zones[DECK]:
        _recover(state, chance, log)


def _recover(state: State, chance, log) -> None:
    """Recovery: a wound joins the discard, which is shuffled to become the new action deck."""
    zones = state.zones
    zones.create(state.rules.wound, DISCARD)
    zones.move_all(DISCARD, DECK)
    if log:
        log.add("recovery", f"Recovery: your action deck is empty; a wound joins the discard and "
                            f"the {len(zones[DECK])} cards are shuffled into a new action deck")
    zones.shuffle(DECK, chance)


def _check_death(state: State, chance, log) -> None:
    rules, zones = state.rules, state.zones
    in_hand = zones.count(HAND, rules.wound)
    if in_hand < rules.body:
        return
    state.deaths += 1
    if log:
        log.add("death", f"You die: {_plural(in_hand, 'wound')} in hand reach your Body {rules.body}")
    for item in list(zones[ENCOUNTER]):
        if isinstance(item, Enemy) and item.summoned:
            zones.remove(item, ENCOUNTER)
        else:
            zones.take(ENCOUNTER, item)
            zones[ENCOUNTER_DISCARD].append(item if isinstance(item, str) else item.id)
    _reset_encounter_deck(state, log)
    _go_to_town(state, chance, log)


def react(state: State, act: dict, chance, log) -> None:
    rules, zones = state.rules, state.zones
    if "react" not in act:
        raise RuleError(f"{_name(state.pending[0])} is acting: answer with 'react:' (a reaction, or none), "
                        f"not {_act_text(act)}")
    enemy, ability = state.pending
    state.pending = None
    state.phase = "prey"
    if act["react"] in (None, "none", False):
        if log:
            log.add("reaction", f"You let {_name(enemy)}'s action happen", action="none")
        _resolve(state, enemy, ability, chance, log)
        return
    action = _action(rules, act["react"], ("react",))
    if action.modifier != "reaction":
        raise RuleError(f"{action.name} is not a reaction")
    if not cancels(action, enemy):
        raise RuleError(f"{action.name} cancels only an action that leaves the enemy at 0 energy; "
                        f"{_name(enemy)} has {enemy.energy}")
    if action.kind == "card":
        if action.id not in zones[HAND]:
            raise RuleError(f"no {action.name} in your hand ({cards_text(rules, zones[HAND])})")
        zones.move(action.id, HAND, DISCARD)
        cost = ""
    else:
        card = _cost_card(state, act, action)
        zones.move(card, HAND, DISCARD)
        cost = f", discarding {rules.names[card]}"
    if log:
        log.add("reaction", f"You react with {action.name} (Time {action.time}{cost}): "
                            f"{_name(enemy)}'s action is cancelled", action=action.id)
    _pay_time(state, action, log)
    if action.skip_turn:
        state.skip_turn = True
        if log:
            log.add("skip", f"{action.name} makes you skip your next turn")


def between(state: State, act: dict, chance, log) -> None:
    if act.get("continue"):
        _venture(state, chance, log)
    elif act.get("town"):
        if log:
            log.add("town", "You return to town")
        _reset_encounter_deck(state, log)
        _go_to_town(state, chance, log)
    else:
        raise RuleError(f"between encounters: 'continue' or 'town', not {_act_text(act)}")


def town_action(state: State, act: dict, chance, log) -> None:
    if act.get("venture"):
        _venture(state, chance, log)
    elif "equip" in act:
        armor = act["equip"]
        if armor not in state.rules.armors:
            raise SpecError(f"no armour '{armor}'{did_you_mean(str(armor), list(state.rules.armors))}", ("equip",))
        state.armor = armor
        if log:
            log.add("town", f"You put on {state.rules.names[armor]}")
    else:
        raise RuleError(f"in town: 'venture' or {{equip: <armour>}}, not {_act_text(act)}")


# -- encounters, town, resets ---------------------------------------------------------------------


def build_encounter_deck(state: State, chance) -> None:
    """The level's encounters shuffled, with the boss at the bottom."""
    rules, zones = state.rules, state.zones
    cards = rules.levels[state.level]
    bosses = [c for c in cards if c in rules.enemies and rules.enemies[c].boss]
    others = [c for c in cards if c not in bosses]
    zones.put(ENCOUNTERS, others)
    zones.shuffle(ENCOUNTERS, chance)
    zones.put(ENCOUNTERS, bosses, to="bottom")


def _venture(state: State, chance, log) -> None:
    zones = state.zones
    if not zones[ENCOUNTERS]:
        raise RuleError("the encounter deck is empty")
    card_id = zones[ENCOUNTERS].pop()
    start_encounter(state, card_id, chance, log)


def start_encounter(state: State, card_id: str, chance, log) -> None:
    rules, zones = state.rules, state.zones
    state.encounters += 1
    state.labels = Counter()
    state.defeated = []
    state.queue = []
    state.last_attack = None
    armor = rules.armors[state.armor]
    if card_id in rules.events:
        event = rules.events[card_id]
        zones[ENCOUNTER].append(card_id)
        if log:
            log.add("encounter", f"Encounter: {event.name}", card=card_id)
        if event.inflict:
            zones.create(event.inflict, CONDITIONS)
            if log:
                log.add("condition", f"{event.name} inflicts {rules.names[event.inflict]} "
                                     f"({zones.count(CONDITIONS, event.inflict)} on you)")
        if event.next_fast:
            state.next_fast += event.next_fast
            if log:
                log.add("encounter", f"{event.name}: the next prey or boss gains Fast {event.next_fast}")
        summons = event.summons
    else:
        card = rules.enemies[card_id]
        enemy = Enemy(card_id, label_for(state, card_id), card, energy=card.fast + state.next_fast)
        zones[ENCOUNTER].append(enemy)
        if log:
            fast = f" (Fast {enemy.energy})" if enemy.energy else ""
            log.add("encounter", f"Encounter: {card.name}{fast}", card=card_id)
        state.next_fast = 0
        summons = card.summons
    for summoned_id in summons:
        summoned = _summon(state, summoned_id)
        if log:
            log.add("summon", f"{_name(summoned)} joins the encounter", enemy=summoned.label)
    enemies = state.enemies()
    if armor.slow:
        for enemy in enemies:
            enemy.energy += armor.slow
        if log and enemies:
            log.add("energy", f"{armor.name} is Slow {armor.slow}: "
                              f"{_energies(enemies)}")
    if enemies:
        begin_prey_turn(state)
    else:
        _end_encounter(state, log)


def _end_encounter(state: State, log) -> None:
    zones = state.zones
    for item in list(zones[ENCOUNTER]):  # the event card, if any; every enemy is defeated
        zones.take(ENCOUNTER, item)
        zones[ENCOUNTER_DISCARD].append(item if isinstance(item, str) else item.id)
    state.skip_turn = False
    state.queue = []
    if state.phase != "won":
        state.phase = "between"
    if log:
        log.add("encounter", "The level is cleared: its boss is defeated" if state.phase == "won"
                else "The encounter is over")


def _reset_encounter_deck(state: State, log) -> None:
    """The boss (if met) to the bottom, then the discard turned face down on top, unshuffled."""
    rules, zones = state.rules, state.zones
    for card_id in [c for c in zones[ENCOUNTER_DISCARD] if c in rules.enemies and rules.enemies[c].boss]:
        zones.move(card_id, ENCOUNTER_DISCARD, ENCOUNTERS, to="bottom")
    returned = zones.move_all(ENCOUNTER_DISCARD, ENCOUNTERS, flip=True)
    if log:
        log.add("reset", f"The encounter deck is reset ({len(returned)} encounter(s) back on top): "
                         f"top {cards_text(rules, zones.ids(ENCOUNTERS)[:3])}")


def _go_to_town(state: State, chance, log) -> None:
    rules, zones = state.rules, state.zones
    removed = 0
    for pile in (HAND, DECK, DISCARD):
        while rules.wound in zones[pile]:
            zones.remove(rules.wound, pile)
            removed += 1
    zones.move_all(HAND, DECK)
    zones.move_all(DISCARD, DECK)
    if log:
        log.add("town", f"In town: {_plural(removed, 'wound')} removed; the action cards are shuffled into a new deck")
    zones.shuffle(DECK, chance)
    zones.draw(DECK, HAND, rules.mind)
    state.phase = "town"
    state.skip_turn = False
    state.next_fast = 0
    state.pending = None
    state.queue = []
    if log:
        log.add("draw", f"You draw {cards_text(rules, zones[HAND])}")


# -- small helpers --------------------------------------------------------------------------------


def _action(rules: Rules, action_id, key: tuple) -> ActionDef:
    action = rules.actions.get(action_id)
    if action is None:
        raise SpecError(f"no action '{action_id}'{did_you_mean(str(action_id), list(rules.actions))}", key)
    return action


def _target(state: State, label, key: tuple) -> Enemy:
    enemies = state.enemies()
    if label is None:
        if len(enemies) == 1:
            return enemies[0]
        raise RuleError(f"name the enemy you strike ('target:'): {', '.join(e.label for e in enemies)}")
    for enemy in enemies:
        if enemy.label == label:
            return enemy
    raise RuleError(f"no enemy '{label}' in the encounter (there are: {', '.join(e.label for e in enemies)})")


def _name(enemy: Enemy) -> str:
    number = enemy.label.partition("#")[2]
    return f"{enemy.card.name} #{number}" if number else enemy.card.name


def _energies(enemies) -> str:
    return ", ".join(f"{_name(e)} has {e.energy}" for e in enemies) + " energy"


def cards_text(rules: Rules, ids) -> str:
    counts = Counter(ids)
    return ", ".join(f"{rules.names[c]}" + (f" x{n}" if n > 1 else "") for c, n in counts.items()) or "nothing"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _track_text(track: list[int], critical: int) -> str:
    return "(" + " ".join(f"{v}+" for v in track) + f", critical {critical}+)"


def _act_text(act: dict) -> str:
    return ", ".join(f"{k}: {v}" if v is not True else k for k, v in act.items())



# -- what the player may do, and what an example may claim -----------------------------------------


def legal_actions(state: State) -> list:
    rules, hand = state.rules, state.zones[HAND]
    phase = state.phase
    if phase == "town":
        return ["venture"] + [{"equip": a} for a in rules.armors if a != state.armor]
    if phase == "between":
        return ["continue", "town"]
    cards = sorted({c for c in hand if c in rules.actions})
    if phase == "reaction":
        enemy, _ = state.pending
        out: list = [{"react": "none"}]
        for action in rules.actions.values():
            if action.modifier != "reaction" or not cancels(action, enemy):
                continue
            if action.kind == "card" and action.id in hand:
                out.append({"react": action.id})
            elif action.kind == "basic":
                out += [{"react": action.id, "discard": c} for c in cards]
        return out
    if phase != "turn":
        return []
    targets = [e.label for e in state.enemies()]
    out = []
    for action in rules.actions.values():
        if action.modifier == "reaction":
            continue
        if action.kind == "instinctual":
            if not cards:
                out.append({"play": action.id})
        elif action.kind == "card":
            if action.id in hand:
                out += [{"play": action.id, "target": t} for t in targets] if action.power else [{"play": action.id}]
        else:
            for discard in cards:
                if action.power:
                    out += [{"play": action.id, "discard": discard, "target": t} for t in targets]
                else:
                    out.append({"play": action.id, "discard": discard})
    return out




def observe(state: State) -> dict:
    rules, zones = state.rules, state.zones
    wound = rules.wound
    wounds = {name: zones.count(name, wound) for name in (HAND, DECK, DISCARD)}
    wounds["total"] = sum(wounds.values())
    armor = rules.armors[state.armor]
    pending = None
    if state.pending:
        enemy, ability = state.pending
        pending = {"enemy": enemy.label, "energy": ability.energy}
    return {
        "phase": state.phase,
        "level": state.level,
        "armor": state.armor,
        "track": state.track(),
        "critical": armor.critical,
        "hand": sorted(zones[HAND]),
        "deck": zones.ids(DECK),
        "discard": zones.ids(DISCARD),
        "count": {name: len(zones[name]) for name in (HAND, DECK, DISCARD)},
        "wounds": wounds,
        "conditions": {c: zones.count(CONDITIONS, c) for c in rules.conditions},
        "enemies": {e.label: {"card": e.id, "energy": e.energy, "wounds": e.wounds, "health": e.card.health}
                    for e in state.enemies()},
        "defeated": list(state.defeated),
        "pending": pending,
        "skip_turn": state.skip_turn,
        "next_fast": state.next_fast,
        "last_attack": dict(state.last_attack) if state.last_attack else None,
        "deaths": state.deaths,
        "encounter_deck": zones.ids(ENCOUNTERS),
        "encounter_discard": zones.ids(ENCOUNTER_DISCARD),
    }


