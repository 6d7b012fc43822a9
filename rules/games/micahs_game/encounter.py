"""The encounter: turning a card over, one intention, the single roll cycle, success or failure, and the
wrap-up.

Readings of the source that are ours (open questions in game.yaml): Attack rolls the Attack dice, Charm
the Charisma dice, Escape the Speed dice; a player succeeds on a total equal to the encounter's number
("meets"), a companion dies only when an attack is above its Defense ("exceeds"); on a failed intention
the encounter's attack is rolled once and the same total hits the player and every companion; an escaped
encounter is shuffled back into the encounter deck.
"""
from __future__ import annotations

from deckwright.rules.engine.dice import Dice, DiceGroup
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.openvalues import known

from .numbers import INTENTION_STAT, INTENTION_TARGET, INTENTIONS, Rules, alternative_for, card_value, roll_value
from .state import (
    CHARMED_FORMS,
    ENCOUNTER,
    ENCOUNTERS,
    GRAVEYARD,
    OVER,
    PLAYING,
    REVEALED,
    USED_TREASURE,
    Encounter,
    Outcome,
    Roll,
    State,
    Step,
)
from .turn import change_health, end_turn, gain_coins, require_preparation, set_weather


def reveal(rules: Rules, state: State, chance) -> Step:
    """Turn over the top encounter card: preparation ends and on-reveal effects happen at once."""
    if state.phase != ENCOUNTER or state.encounter is not None:  # ENCOUNTER with none: a card sent us on
        require_preparation(state)
    if state.zones.count(ENCOUNTERS) == 0:
        raise RuleError("the encounter deck is empty")
    state, zones = state.changing()
    (card_id,) = zones.draw(ENCOUNTERS, REVEALED)
    creature = rules.card(card_id)
    state = replace(state, phase=ENCOUNTER, encounter=Encounter(card_id))
    events = [("reveal", {"player": state.current.name, "card": card_id})]
    if creature.get("on_reveal_weather"):
        state, more = set_weather(rules, state, str(creature["on_reveal_weather"]))
        events += more
    if state.phase != OVER and state.current.status != PLAYING:
        state, zones = state.changing()
        zones.move(card_id, REVEALED, ENCOUNTERS)
        zones.shuffle(ENCOUNTERS, chance)
        events.append(("shuffled-back", {"card": card_id}))
        state, more = end_turn(rules, state)
        events += more
    return state, events


def choose(state: State, intention: str) -> Step:
    """Set the one intention; it may be changed until the dice are rolled."""
    if state.encounter is None or state.phase != ENCOUNTER:
        raise RuleError("an intention is chosen after an encounter is turned over")
    if intention not in INTENTIONS:
        raise RuleError(f"'{intention}' is not an intention (attack, charm or escape)")
    if state.encounter.roll is not None:
        raise RuleError(f"the intention is fixed once the dice are rolled ({state.encounter.intention})")
    return replace(state, encounter=replace(state.encounter, intention=intention)), \
        [("intention", {"player": state.current.name, "intention": intention})]


def pool_dice(pool: tuple[int, ...]) -> Dice:
    return Dice(tuple(DiceGroup(1, sides) for sides in pool))


def roll(rules: Rules, state: State, chance) -> Step:
    """The single roll cycle: the player's dice, every companion's attack (when attacking), then the encounter's number."""
    encounter = state.encounter
    if encounter is None or encounter.intention is None:
        raise RuleError("choose an intention before rolling")
    if encounter.roll is not None:
        raise RuleError("the dice for this encounter are already rolled")
    player, intention = state.current, encounter.intention
    creature = rules.card(encounter.card)
    alt = alternative_for(creature, intention)
    if alt and alt.get("roll") is not None:
        dice = alt["roll"]
    else:
        stat = INTENTION_STAT[intention]
        dice = pool_dice(known(player.dice[stat], f"{rules.name(player.hero)}'s {stat}"))
    total, faces = dice.roll(chance, f"{player.name}'s {intention}")
    companion_faces: list[int] = []
    events = []
    # A card's rule replaces what it names (readings.yaml, companions-under-card-rules): companions add their
    # attack unless the card brings its own dice or pattern for the roll itself.
    replaces_roll = bool(alt) and (alt.get("roll") is not None or alt.get("success") == "doubles")
    if intention == "attack" and not replaces_roll:
        for companion_id in state.pile(player.name, "companions"):
            companion = rules.card(companion_id)
            value = card_value(companion, "attack")
            add, more = (value, []) if isinstance(value, int) else value.roll(chance, f"{companion.name}'s attack")
            total += add
            companion_faces += more
            events.append(("companion-adds", {"player": player.name, "companion": companion_id, "adds": add}))
    if alt and alt.get("success") == "doubles":
        target = None
        success = len(faces) >= 2 and len(set(faces)) == 1
        events.append(("doubles", {"player": player.name, "faces": list(faces), "success": success}))
    else:
        against = INTENTION_TARGET[intention]
        target = roll_value(card_value(creature, against), chance, f"{creature.name}'s {against}")
        success = total >= target
        events.append(("result", {"player": player.name, "total": total, "card": creature.id, "against": against,
                                "target": target, "success": success}))
    result = Roll(intention, tuple(faces), tuple(companion_faces), total, target, success)
    return replace(state, encounter=replace(encounter, roll=result)), events


def settle(rules: Rules, state: State, chance) -> Step:
    """Apply the outcome of the rolled intention, then wrap the encounter up."""
    state, events = outcome(rules, state, chance)
    state, more = wrap_up(rules, state, chance)
    return state, events + more


def outcome(rules: Rules, state: State, chance) -> Step:
    """Success or failure, as the roll decided: rewards, or the creature's strike (or its card's own rule)."""
    encounter = state.encounter
    if encounter is None or encounter.roll is None:
        raise RuleError("roll before settling the encounter")
    if encounter.settled:
        raise RuleError("this encounter is already settled")
    creature = rules.card(encounter.card)
    rolled = encounter.roll
    state = replace(state, last=Outcome(creature.id, rolled.intention, rolled.total, rolled.target, rolled.success),
                    encounter=replace(encounter, settled=True))
    if rolled.success:
        return _succeed(rules, state, creature, encounter.intention, chance)
    return _fail(rules, state, creature, encounter.intention, chance)


def wrap_up(rules: Rules, state: State, chance) -> Step:
    """A creature still on the table is shuffled back; then the turn ends (or the card sends the player on)."""
    encounter = state.encounter
    if encounter is None or not encounter.settled:
        raise RuleError("settle the encounter before wrapping it up")
    if state.phase == OVER:
        return state, []
    creature = rules.card(encounter.card)
    name = state.current.name
    events: list = []
    if creature.id in state.zones.ids(REVEALED):
        state, zones = state.changing()
        zones.move(creature.id, REVEALED, ENCOUNTERS)
        zones.shuffle(ENCOUNTERS, chance)
        events.append(("shuffled-back", {"card": creature.id}))
    if state.player(name).status == PLAYING and creature.get("draw_another"):
        events.append(("draw-another", {"card": creature.id, "player": name}))
        return replace(state, phase=ENCOUNTER, encounter=None), events
    state, more = end_turn(rules, state)
    return state, events + more


def face(rules: Rules, state: State, intention: str, chance) -> Step:
    """Choose, roll and settle in one go: the encounter played through."""
    state, events = choose(state, intention)
    state, more = roll(rules, state, chance)
    events += more
    state, more = settle(rules, state, chance)
    return state, events + more


def _succeed(rules: Rules, state: State, creature, intention: str, chance) -> Step:
    name = state.current.name
    state, zones = state.changing()
    if intention == "attack":
        zones.move(creature.id, REVEALED, GRAVEYARD)
        events = [("defeated", {"card": creature.id})]
        if creature.get("bounty") is not None:
            bounty = roll_value(card_value(creature, "bounty"), chance, f"{creature.name}'s bounty")
            state = replace(gain_coins(state, name, bounty), last=replace(state.last, bounty=bounty))
            events.append(("bounty", {"player": name, "bounty": bounty, "coins": state.player(name).coins}))
        return state, events
    if intention == "charm":
        form = creature.get("becomes")
        if form is None:
            zones.move(creature.id, REVEALED, f"{name}:dock")
            return state, [("charmed", {"player": name, "card": creature.id, "becomes": None})]
        form_id = str(form)
        zones.remove(creature.id, REVEALED)
        if form_id in zones.ids(CHARMED_FORMS):
            zones.move(form_id, CHARMED_FORMS, f"{name}:dock")
        else:
            zones.create(form_id, f"{name}:dock")
        return state, [("charmed", {"player": name, "card": creature.id, "becomes": form_id})]
    return state, [("escaped", {"player": name, "card": creature.id})]


def _fail(rules: Rules, state: State, creature, intention: str, chance) -> Step:
    name = state.current.name
    alt = alternative_for(creature, intention)
    if alt and alt.get("on_fail") == "lose-items":
        count = roll_value(alt["lose_items"], chance, f"{creature.name}'s item loss")
        return _lose_items(state, name, count, chance)
    return _attacked(rules, state, name, creature, chance)


def _lose_items(state: State, name: str, count: int, chance) -> Step:
    """A card-defined failure: the player loses ``count`` items picked at random (no damage to anyone)."""
    state, zones = state.changing()
    lost: list[str] = []
    for _ in range(count):
        items = state.pile(name, "items")
        if not items:
            break
        pick = items[chance.roll(len(items), f"which of {name}'s items is lost") - 1] if len(items) > 1 else items[0]
        zones.move(pick, f"{name}:items", USED_TREASURE)
        lost.append(pick)
    state = replace(state, last=replace(state.last, items_lost=tuple(lost)))
    return state, [("items-lost", {"player": name, "count": count, "items": lost})]


def _attacked(rules: Rules, state: State, name: str, creature, chance) -> Step:
    """The standard failure: one attack roll hits the player and every companion."""
    damage = roll_value(card_value(creature, "attack"), chance, f"{creature.name}'s attack")
    events = [("attacks", {"card": creature.id, "damage": damage})]
    dead: list[str] = []
    for companion_id in state.pile(name, "companions"):
        companion = rules.card(companion_id)
        defense = roll_value(card_value(companion, "defense"), chance, f"{companion.name}'s defense")
        dies = damage > defense
        if dies:
            state, zones = state.changing()
            zones.move(companion_id, f"{name}:companions", GRAVEYARD)
            dead.append(companion_id)
        events.append(("companion-hit", {"player": name, "companion": companion_id, "defense": defense,
                                         "dies": dies}))
    state = replace(state, last=replace(state.last, damage=damage, companions_lost=tuple(dead)))
    if damage:
        state, more = change_health(rules, state, name, -damage, attacker=creature.id)
        events += more
    return state, events
