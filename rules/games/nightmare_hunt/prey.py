"""The prey's side: prey turns, what an enemy does with its energy, attacks against the armour track,
summons, and whether the player may react."""
from __future__ import annotations

from deckwright.rules.engine.errors import RuleError

from .legal import legal_for
from .numbers import Ability, ActionDef
from .state import CONDITIONS, DECK, DISCARD, ENCOUNTER, HAND, Enemy, State
from .town import check_death, recover_if_empty

MAX_PREY_TURNS_IN_A_ROW = 1000  # only a 0-energy ability that skips the player's turn could loop; stop it loudly


def advance(state: State, chance, log) -> None:
    """Play the prey's side until the player has a decision to take."""
    prey_turns = 0
    while state.phase == "prey":
        queue = state.queue  # replaced only where the phase changes too
        while queue:
            enemy = queue.pop(0)
            if enemy in state.zones.piles[ENCOUNTER]:  # not defeated meanwhile
                _enemy_acts(state, enemy, chance, log)
                if state.phase != "prey":
                    return
        if not state.skip_turn:
            state.phase = "turn"
            return
        state.skip_turn = False
        if "skipped" in log:
            log.add("skipped")
        prey_turns += 1
        if prey_turns > MAX_PREY_TURNS_IN_A_ROW:
            raise RuleError("the prey keep acting without the player ever getting a turn")
        begin_prey_turn(state)


def begin_prey_turn(state: State) -> None:
    """Every enemy in the encounter now acts once, in order; prey summoned meanwhile wait for the next turn."""
    state.phase = "prey"
    state.queue = state.zones.piles[ENCOUNTER][:]


def _enemy_acts(state: State, enemy: Enemy, chance, log) -> None:
    energy, affordable = enemy.energy, enemy.card.affordable
    ability = affordable[energy] if energy < len(affordable) else affordable[-1]  # the dearest it can pay for
    if ability is None:
        if "pass" in log:
            log.add("pass", enemy=enemy.label, energy=enemy.energy)
        return
    enemy.energy -= ability.energy
    if "prey" in log:
        log.add("prey", enemy=enemy.label, spent=ability.energy, left=enemy.energy)
    # a reaction could cancel it (the legal answers are more than ``none``); the memo asked without a call
    key = ("reaction", enemy.energy == 0, frozenset(state.zones.piles[HAND]))
    if len(state.rules.legal_memo.get(key) or legal_for(state.rules, key)) > 1:
        state.pending = (enemy, ability)
        state.phase = "reaction"
        return
    resolve(state, enemy, ability, chance, log)


def resolve(state: State, enemy: Enemy, ability: Ability, chance, log) -> None:
    """The enemy's ability happens, step by step."""
    zones = state.zones
    for kind, value in ability.steps:
        if kind == "power":
            _hit(state, enemy, value, chance, log)
            if state.phase != "prey":  # the hunter died
                return
        elif kind == "inflict":
            zones.create(value, CONDITIONS)
            if "inflict" in log:
                log.add("inflict", by=enemy.label, condition=value, count=zones.piles[CONDITIONS].count(value))
        elif kind == "summon":
            summoned = summon(state, value)
            if "summon" in log:
                log.add("summon", enemy=enemy.label, summoned=summoned.label)
        elif kind == "discard_deck":
            moved = len(zones.piles[DECK])
            zones.move_all(DECK, DISCARD)
            if "deck-lost" in log:
                log.add("deck-lost", enemy=enemy.label, cards=moved)
            recover_if_empty(state, chance, log)
    if ability.skip_turn:
        state.skip_turn = True
        if "skip" in log:
            log.add("skip", by=enemy.label)


def _hit(state: State, enemy: Enemy, power: int, chance, log) -> None:
    """Each track value the Power reaches deals a wound to the discard; a critical one more, all to the hand."""
    rules, zones = state.rules, state.zones
    armor = rules.armors[state.armor]
    track = state.track()
    wounds, critical = wounds_from(power, track, armor.critical)
    to = HAND if critical else DISCARD
    zones.create_copies(rules.wound, to, wounds)
    state.last_attack = {"enemy": enemy.label, "power": power, "wounds": wounds, "critical": critical, "to": to}
    if "attack" in log:
        log.add("attack", enemy=enemy.label, power=power, armor=state.armor, track=track, wounds=wounds, to=to)
    if critical:
        check_death(state, chance, log)


def wounds_from(power: int, track, critical: int) -> tuple[int, bool]:
    """Wounds an attack of ``power`` deals through a defense track: one for each value it reaches, and one
    more on a critical (which sends them all to the hand)."""
    wounds = sum(1 for value in track if power >= value)
    return (wounds + 1, True) if power >= critical else (wounds, False)


def summon(state: State, card_id: str) -> Enemy:
    card = state.rules.enemies[card_id]
    enemy = Enemy(card_id, label_for(state, card_id), card, summoned=True)
    state.zones.create(enemy, ENCOUNTER)
    return enemy


def label_for(state: State, card_id: str) -> str:
    state.labels = labels = dict(state.labels)  # shared with the state apply was given
    number = labels[card_id] = labels.get(card_id, 0) + 1
    return card_id if number == 1 else f"{card_id}#{number}"


def cancels(action: ActionDef, enemy: Enemy) -> bool:
    return action.cancels == "any" or (action.cancels == "zero-energy" and enemy.energy == 0)
