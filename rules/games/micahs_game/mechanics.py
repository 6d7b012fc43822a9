"""Micah's Game: the three-phase turn, intentions, companions, die steps, weather, the merchant, winning and losing.

Pure functions over frozen dataclasses. Every number comes from the game data
(``Rules``); every roll and shuffle goes through the chance object passed in.
Each function that changes the state returns the new state and the events it
caused (plain sentences, in order); the chance object logs its own rolls.

A value the source leaves open (``{open: ...}`` in the data) is never guessed:
a rule that needs one raises ``OpenValue`` naming the card and field.

Readings of the source that are ours (each is an open question in ``game.yaml``):
- Attack rolls the Attack dice, Charm the Charisma dice, Escape the Speed dice;
- a player succeeds on a total equal to the encounter's number ("meets"), a
  companion dies only when an attack is above its Defense ("exceeds");
- on a failed intention the encounter's attack is rolled once and the same total
  hits the player and every companion;
- an escaped encounter is shuffled back into the encounter deck;
- creature coins are paid at the start of each of the owner's turns;
- sold, forfeited and lost items go to the used treasure pile; released
  creatures go to the graveyard; applied upgrades stay on the character;
- an open companion limit or health ceiling is not enforced.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from deckwright.rules.data.values import Open
from deckwright.rules.engine.dice import Dice, DiceGroup, pool_text, step_up
from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.zones import Zones

INTENTIONS = ("attack", "charm", "escape")
STATS = ("attack", "charisma", "speed")
INTENTION_STAT = {"attack": "attack", "charm": "charisma", "escape": "speed"}
INTENTION_TARGET = {"attack": "defense", "charm": "charm", "escape": "escape"}

# Shared piles; each player also has "<name>:items", ":upgrades", ":dock" and ":companions".
ENCOUNTERS, REVEALED, GRAVEYARD = "encounters", "revealed", "graveyard"
TREASURE, USED_TREASURE, MERCHANT = "treasure", "used-treasure", "merchant"
CHARMED_FORMS = "charmed-forms"
PLAYER_PILES = ("items", "upgrades", "dock", "companions")

PREPARATION, ENCOUNTER, OVER = "preparation", "encounter", "over"
PLAYING, OUT, LEFT = "playing", "out", "left"


class OpenValue(RuleError):
    """A rule needs a value the source leaves open."""


# -- the numbers and cards, read from the game data -------------------------------


@dataclass(frozen=True)
class Rules:
    merchant_slots: int
    starting_coins: int
    companion_slots: int | None  # None: the source leaves it open, no limit is enforced
    max_health: int | None  # None: the source leaves it open, no ceiling is applied
    cards: Mapping[str, Any]  # card id -> Card
    decks: Mapping[str, tuple[str, ...]]  # deck id -> printed card ids in file order

    def card(self, card_id: str, type_id: str | None = None):
        card = self.cards.get(card_id)
        if card is None or (type_id and card.type != type_id):
            raise RuleError(f"'{card_id}' is not a {type_id or 'card'} of this game")
        return card


def _known_constant(constants: Mapping, name: str) -> Any:
    value = constants.get(name)
    return None if value is None or isinstance(value, Open) else value


def rules_from(game) -> Rules:
    c = game.constants
    return Rules(
        merchant_slots=c["merchant_slots"], starting_coins=c["starting_coins"],
        companion_slots=_known_constant(c, "companion_slots"), max_health=_known_constant(c, "max_health"),
        cards={card.id: card for card in game.cards},
        decks={deck: tuple(card.id for card in game.printed_cards(deck)) for deck in game.decks},
    )


def known(card, name: str) -> Any:
    """A card's value; OpenValue when the source leaves it open, RuleError when the card has none."""
    value = card.get(name)
    if isinstance(value, Open):
        raise OpenValue(f"{card.name}'s {name} is open in the source ({value.note})")
    if value is None:
        raise RuleError(f"{card.name} has no {name}")
    return value


def roll_value(value, chance, what: str) -> int:
    """A card number: plain numbers as they are, dice expressions rolled now (any enemy number may be rolled)."""
    if isinstance(value, int):
        return value
    total, _ = value.roll(chance, what)
    return total


# -- state -------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    name: str
    hero: str  # class card id
    hp: int | None  # None while the class's starting health is open
    coins: int
    dice: Mapping[str, tuple[int, ...] | None]  # stat -> die pool (sides); None when the class's die is open
    status: str = PLAYING
    health_change: int = 0  # net health gained or lost so far, known even when hp is not


@dataclass(frozen=True)
class Roll:
    intention: str
    faces: tuple[int, ...]  # the player's dice
    companion_faces: tuple[int, ...]
    total: int
    target: int | None  # None for a doubles check
    success: bool


@dataclass(frozen=True)
class Outcome:
    """How the last encounter ended, for the examples to claim."""

    card: str
    intention: str
    total: int
    target: int | None
    success: bool
    damage: int | None = None  # the encounter's attack on a failure (None when it did not attack)
    bounty: int | None = None
    companions_lost: tuple[str, ...] = ()
    items_lost: tuple[str, ...] = ()


@dataclass(frozen=True)
class Encounter:
    card: str
    intention: str | None = None
    roll: Roll | None = None
    settled: bool = False  # its outcome is applied; only the wrap-up is left


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    zones: Zones  # never changed in place: functions work on a copy
    active: int = 0
    turn: int = 1
    phase: str = PREPARATION
    weather: str | None = None
    weather_since: int = 0  # the turn during which the weather began
    encounter: Encounter | None = None
    winners: tuple[str, ...] = ()
    last: Outcome | None = None

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        raise RuleError(f"no player '{name}' (players: {', '.join(p.name for p in self.players)})")

    @property
    def current(self) -> Player:
        return self.players[self.active]

    def with_player(self, new: Player) -> "State":
        return replace(self, players=tuple(new if p.name == new.name else p for p in self.players))

    def pile(self, player: str, kind: str) -> list[str]:
        """A player's pile (items, upgrades, dock, companions), top first."""
        return self.zones.ids(f"{player}:{kind}")


Step = tuple[State, list[str]]


def pile_names(players: Iterable[str]) -> list[str]:
    shared = [ENCOUNTERS, REVEALED, GRAVEYARD, TREASURE, USED_TREASURE, MERCHANT, CHARMED_FORMS]
    return shared + [f"{name}:{kind}" for name in players for kind in PLAYER_PILES]


def class_dice(hero) -> dict[str, tuple[int, ...] | None]:
    return {stat: None if isinstance(hero.get(stat), Open) else tuple(hero[stat].dice) for stat in STATS}


def new_player(rules: Rules, name: str, hero_id: str, **overrides) -> Player:
    hero = rules.card(hero_id, "class")
    health = hero.get("health")
    player = Player(name=name, hero=hero_id, hp=None if isinstance(health, Open) else health,
                    coins=rules.starting_coins, dice=class_dice(hero))
    return replace(player, **overrides)


def deal(rules: Rules, seats: Iterable[tuple[str, str]], chance) -> Step:
    """Players (name, class id) in turn order; the decks shuffled, the merchant stocked, the first turn started."""
    players = tuple(new_player(rules, name, hero) for name, hero in seats)
    if len({p.name for p in players}) != len(players):
        raise RuleError("two players share a name")
    zones = Zones.with_piles(*pile_names(p.name for p in players))
    zones.put(ENCOUNTERS, rules.decks.get("encounters", ()))
    zones.put(TREASURE, rules.decks.get("treasure", ()))
    zones.put(CHARMED_FORMS, rules.decks.get("charmed", ()))
    zones.shuffle(ENCOUNTERS, chance)
    zones.shuffle(TREASURE, chance)
    state = State(players=players, zones=zones)
    state, events = restock(rules, state, chance)
    state, more = start_turn(rules, state)
    return state, [f"{len(players)} players: " + ", ".join(f"{p.name} ({p.hero})" for p in players)] + events + more


def arrange(rules: Rules, players: Iterable[Player], piles: Mapping[str, Iterable[str]] | None = None,
            **fields) -> State:
    """A state set up by hand (an example's starting position): piles top first, other State fields by name."""
    players = tuple(players)
    zones = Zones.with_piles(*pile_names(p.name for p in players))
    for pile, cards in (piles or {}).items():
        if pile not in zones.piles:
            raise RuleError(f"no pile '{pile}' (piles: {', '.join(zones.piles)})")
        for card_id in cards:
            rules.card(card_id)
        zones.put(pile, cards)
    return State(players=players, zones=zones, **fields)


# -- small helpers -------------------------------------------------------------------


def _copy(state: State) -> tuple[State, Zones]:
    zones = state.zones.copy()
    return replace(state, zones=zones), zones


def _require_preparation(state: State, name: str | None = None) -> None:
    if state.phase == OVER:
        raise RuleError("the game is over")
    if state.phase != PREPARATION or state.encounter is not None:
        raise RuleError("only while no encounter is active (before the encounter card is turned over)")
    if name is not None and state.current.name != name:
        raise RuleError(f"only {state.current.name}, whose turn it is, may do this now")


def _playing(state: State, name: str) -> Player:
    player = state.player(name)
    if player.status != PLAYING:
        raise RuleError(f"{name} is no longer in the adventure")
    return player


def change_health(rules: Rules, state: State, name: str, amount: int, why: str) -> Step:
    """Health up or down; a player whose known health reaches 0 is out."""
    player = state.player(name)
    hp = player.hp
    if hp is not None:
        hp += amount
        if rules.max_health is not None:
            hp = min(hp, rules.max_health)
    player = replace(player, hp=hp, health_change=player.health_change + amount)
    shown = f" (health {hp})" if hp is not None else ""
    verb = "gains" if amount >= 0 else "loses"
    events = [f"{name} {verb} {abs(amount)} health: {why}{shown}"]
    state = state.with_player(player)
    if hp is not None and hp <= 0:
        state, more = knock_out(rules, state, name, OUT, "health reaches 0")
        events += more
    return state, events


def _gain_coins(state: State, name: str, amount: int) -> State:
    player = state.player(name)
    return state.with_player(replace(player, coins=player.coins + amount))


# -- turn start ------------------------------------------------------------------------


def start_turn(rules: Rules, state: State) -> Step:
    """The start of the active player's turn: weather that was already in play, then creature coins."""
    if state.phase == OVER:
        raise RuleError("the game is over")
    name = state.current.name
    state = replace(state, phase=PREPARATION, encounter=None)
    events = [f"turn {state.turn}: {name}"]
    if state.weather and state.weather_since < state.turn:
        state, more = apply_weather(rules, state, name)
        events += more
    if state.player(name).status != PLAYING:
        state, more = end_turn(rules, state)
        return state, events + more
    for creature_id in state.pile(name, "dock") + state.pile(name, "companions"):
        coins = rules.card(creature_id).get("coins_per_turn")
        if coins:
            state = _gain_coins(state, name, coins)
            events.append(f"{name} gains {coins} coin from {rules.card(creature_id).name} "
                          f"({state.player(name).coins} coins)")
    return state, events


def apply_weather(rules: Rules, state: State, name: str) -> Step:
    weather = rules.card(state.weather, "weather")
    amount = known(weather, "health_per_turn")
    if not amount:
        return state, []
    return change_health(rules, state, name, amount, f"it is {weather.name}")


def set_weather(rules: Rules, state: State, weather_id: str) -> Step:
    """The weather changes now; it counts from the start of a later turn unless it takes effect immediately."""
    weather = rules.card(weather_id, "weather")
    state = replace(state, weather=weather_id, weather_since=state.turn)
    events = [f"the weather is now {weather.name}"]
    if weather["timing"] == "immediate":
        state, more = apply_weather(rules, state, state.current.name)
        events += more
    else:
        events.append(f"{weather.name} counts from the start of turn {state.turn + 1}")
    return state, events


# -- preparation actions -------------------------------------------------------------------


def restock(rules: Rules, state: State, chance) -> Step:
    """Fill the merchant up to its slots from the treasure deck, reshuffling the used pile when it runs out."""
    state, zones = _copy(state)
    events: list[str] = []

    def reshuffle(z: Zones) -> None:
        if z.count(USED_TREASURE):
            z.move_all(USED_TREASURE, TREASURE)
            z.shuffle(TREASURE, chance)
            events.append("the treasure deck is empty: the used treasure is shuffled into a new treasure deck")

    missing = rules.merchant_slots - zones.count(MERCHANT)
    drawn = zones.draw(TREASURE, MERCHANT, missing, refill=reshuffle) if missing > 0 else []
    if drawn:
        events.append("the merchant puts out " + ", ".join(rules.card(c).name for c in drawn))
    if zones.count(MERCHANT) < rules.merchant_slots:
        events.append(f"no treasure is left to restock from: the merchant shows {zones.count(MERCHANT)} "
                      f"of its {rules.merchant_slots} slots")
    return state, events


def buy(rules: Rules, state: State, name: str, item_id: str, chance) -> Step:
    _require_preparation(state, name)
    player = _playing(state, name)
    item = rules.card(item_id, "item")
    if item_id not in state.zones.ids(MERCHANT):
        raise RuleError(f"the merchant has no {item.name} (it shows: {', '.join(state.zones.ids(MERCHANT)) or 'nothing'})")
    price = known(item, "buy")
    if player.coins < price:
        raise RuleError(f"{name} has {player.coins} coins; {item.name} costs {price}")
    state, zones = _copy(state)
    zones.move(item_id, MERCHANT, f"{name}:items")
    state = _gain_coins(state, name, -price)
    events = [f"{name} buys {item.name} for {price} coins ({state.player(name).coins} coins)"]
    state, more = restock(rules, state, chance)
    return state, events + more


def sell(rules: Rules, state: State, name: str, item_id: str) -> Step:
    _require_preparation(state, name)
    _playing(state, name)
    item = rules.card(item_id, "item")
    price = known(item, "sell")
    state, zones = _copy(state)
    zones.move(item_id, f"{name}:items", USED_TREASURE)
    state = _gain_coins(state, name, price)
    return state, [f"{name} sells {item.name} to the merchant for {price} coins ({state.player(name).coins} coins)"]


def apply_upgrade(rules: Rules, state: State, name: str, item_id: str) -> Step:
    """An upgrade card raises a stat's dice by die steps and stays on the character."""
    _require_preparation(state, name)
    player = _playing(state, name)
    item = rules.card(item_id, "item")
    upgrade = item.get("upgrade")
    if item["kind"] != "upgrade" or not upgrade:
        raise RuleError(f"{item.name} is not an upgrade")
    if not item.get("stacks") and item_id in state.pile(name, "upgrades"):
        raise RuleError(f"{item.name} does not stack and {name} already has one applied")
    stat, steps = upgrade["stat"], upgrade["steps"]
    pool = player.dice[stat]
    if pool is None:
        raise OpenValue(f"{rules.card(player.hero).name}'s {stat} is open in the source")
    new_pool = tuple(step_up(list(pool), steps))
    state, zones = _copy(state)
    zones.move(item_id, f"{name}:items", f"{name}:upgrades")
    state = state.with_player(replace(player, dice={**player.dice, stat: new_pool}))
    return state, [f"{name} applies {item.name}: {stat} {pool_text(list(pool))} -> {pool_text(list(new_pool))}"]


def trade(rules: Rules, state: State, first: str, gives: Iterable[str], second: str, takes: Iterable[str]) -> Step:
    """Two players swap items; any time no encounter is active."""
    _require_preparation(state)
    _playing(state, first)
    _playing(state, second)
    gives, takes = list(gives), list(takes)
    state, zones = _copy(state)
    for item in gives:
        zones.move(item, f"{first}:items", f"{second}:items")
    for item in takes:
        zones.move(item, f"{second}:items", f"{first}:items")

    def names(ids: list[str]) -> str:
        return ", ".join(rules.card(i).name for i in ids) or "nothing"
    return state, [f"{first} trades {names(gives)} to {second} for {names(takes)}"]


def assign_companion(rules: Rules, state: State, name: str, creature_id: str) -> Step:
    _require_preparation(state, name)
    _playing(state, name)
    if rules.companion_slots is not None and len(state.pile(name, "companions")) >= rules.companion_slots:
        raise RuleError(f"{name} already has {rules.companion_slots} companion(s)")
    state, zones = _copy(state)
    zones.move(creature_id, f"{name}:dock", f"{name}:companions")
    return state, [f"{name} takes {rules.card(creature_id).name} along as a companion"]


def dismiss_companion(rules: Rules, state: State, name: str, creature_id: str) -> Step:
    _require_preparation(state, name)
    state, zones = _copy(state)
    zones.move(creature_id, f"{name}:companions", f"{name}:dock")
    return state, [f"{name} leaves {rules.card(creature_id).name} in the creature dock"]


def release(rules: Rules, state: State, name: str, creature_id: str) -> Step:
    _require_preparation(state, name)
    state, zones = _copy(state)
    source = f"{name}:dock" if creature_id in state.pile(name, "dock") else f"{name}:companions"
    zones.move(creature_id, source, GRAVEYARD)
    return state, [f"{name} releases {rules.card(creature_id).name}; it goes to the graveyard"]


def leave(rules: Rules, state: State, name: str) -> Step:
    """A player gives up the adventure (a loss), any time no encounter is active."""
    _require_preparation(state)
    _playing(state, name)
    state, events = knock_out(rules, state, name, LEFT, "leaves the adventure")
    if state.phase != OVER and state.current.name == name:
        state, more = end_turn(rules, state)
        events += more
    return state, events


# -- winning and losing ------------------------------------------------------------------------


def knock_out(rules: Rules, state: State, name: str, status: str, why: str) -> Step:
    """A player is out: charmed creatures to the graveyard, items to the merchant's used pile."""
    state, zones = _copy(state)
    player = state.player(name)
    creatures = state.pile(name, "dock") + state.pile(name, "companions")
    items = state.pile(name, "items") + state.pile(name, "upgrades")
    for kind in ("dock", "companions"):
        zones.move_all(f"{name}:{kind}", GRAVEYARD)
    for kind in ("items", "upgrades"):
        zones.move_all(f"{name}:{kind}", USED_TREASURE)
    state = state.with_player(replace(player, status=status))
    events = [f"{name} {why} and is out of the adventure"]
    if creatures:
        events.append(f"{name}'s creatures go to the graveyard: " + ", ".join(rules.card(c).name for c in creatures))
    if items:
        events.append(f"{name}'s items go to the merchant: " + ", ".join(rules.card(c).name for c in items))
    state, more = check_last_player(state)
    return state, events + more


def check_last_player(state: State) -> Step:
    playing = [p.name for p in state.players if p.status == PLAYING]
    if len(state.players) > 1 and len(playing) == 1:
        return replace(state, phase=OVER, winners=tuple(playing)), [f"{playing[0]} is the last player alive and wins"]
    if not playing:
        return replace(state, phase=OVER, winners=()), ["no player is left in the adventure"]
    return state, []


def end_turn(rules: Rules, state: State) -> Step:
    """The turn ends; the game ends when the encounter deck is exhausted, else the next player's turn starts."""
    if state.phase == OVER:
        return state, []
    state = replace(state, encounter=None, phase=PREPARATION)
    if state.zones.count(ENCOUNTERS) == 0 and state.zones.count(REVEALED) == 0:
        playing = tuple(p.name for p in state.players if p.status == PLAYING)
        return replace(state, phase=OVER, winners=playing), [
            "the encounter deck is exhausted: " + (", ".join(playing) or "nobody") + " win together"]
    count = len(state.players)
    for offset in range(1, count + 1):
        index = (state.active + offset) % count
        if state.players[index].status == PLAYING:
            return start_turn(rules, replace(state, active=index, turn=state.turn + 1))
    return replace(state, phase=OVER), ["no player is left in the adventure"]


# -- the encounter ------------------------------------------------------------------------------


def reveal(rules: Rules, state: State, chance) -> Step:
    """Turn over the top encounter card: preparation ends and on-reveal effects happen at once."""
    if state.phase != ENCOUNTER or state.encounter is not None:  # ENCOUNTER with none: a card sent us on
        _require_preparation(state)
    if state.zones.count(ENCOUNTERS) == 0:
        raise RuleError("the encounter deck is empty")
    state, zones = _copy(state)
    (card_id,) = zones.draw(ENCOUNTERS, REVEALED)
    creature = rules.card(card_id)
    state = replace(state, phase=ENCOUNTER, encounter=Encounter(card_id))
    events = [f"{state.current.name} turns over {creature.name}"]
    if creature.get("on_reveal_weather"):
        state, more = set_weather(rules, state, str(creature["on_reveal_weather"]))
        events += more
    if state.phase != OVER and state.current.status != PLAYING:
        state, zones = _copy(state)
        zones.move(card_id, REVEALED, ENCOUNTERS)
        zones.shuffle(ENCOUNTERS, chance)
        events.append(f"{creature.name} is shuffled back into the encounter deck")
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
        [f"{state.current.name} chooses to {intention}"]


def alternative_for(creature, intention: str) -> Mapping | None:
    for alt in creature.get("alternatives") or ():
        if alt["intention"] == intention:
            return alt
    return None


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
        pool = player.dice[INTENTION_STAT[intention]]
        if pool is None:
            raise OpenValue(f"{rules.card(player.hero).name}'s {INTENTION_STAT[intention]} is open in the source")
        dice = pool_dice(pool)
    total, faces = dice.roll(chance, f"{player.name}'s {intention}")
    companion_faces: list[int] = []
    events = []
    if intention == "attack" and not alt:
        for companion_id in state.pile(player.name, "companions"):
            companion = rules.card(companion_id)
            value = known(companion, "attack")
            add, more = (value, []) if isinstance(value, int) else value.roll(chance, f"{companion.name}'s attack")
            total += add
            companion_faces += more
            events.append(f"{player.name}'s companion {companion.name} adds {add}")
    if alt and alt.get("success") == "doubles":
        target = None
        success = len(faces) >= 2 and len(set(faces)) == 1
        events.append(f"{player.name} rolls {', '.join(map(str, faces))}: "
                      f"{'doubles, success' if success else 'no doubles, failure'}")
    else:
        target = roll_value(known(creature, INTENTION_TARGET[intention]), chance, f"{creature.name}'s {INTENTION_TARGET[intention]}")
        success = total >= target
        events.append(f"{player.name} rolls {total} against {creature.name}'s {INTENTION_TARGET[intention]} "
                      f"{target}: {'success' if success else 'failure'}")
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
    events: list[str] = []
    if creature.id in state.zones.ids(REVEALED):
        state, zones = _copy(state)
        zones.move(creature.id, REVEALED, ENCOUNTERS)
        zones.shuffle(ENCOUNTERS, chance)
        events.append(f"{creature.name} is shuffled back into the encounter deck")
    if state.player(name).status == PLAYING and creature.get("draw_another"):
        events.append(f"{creature.name} sends {name} on to another encounter")
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
    state, zones = _copy(state)
    if intention == "attack":
        zones.move(creature.id, REVEALED, GRAVEYARD)
        events = [f"{creature.name} is defeated and goes to the graveyard"]
        if creature.get("bounty") is not None:
            bounty = roll_value(known(creature, "bounty"), chance, f"{creature.name}'s bounty")
            state = replace(_gain_coins(state, name, bounty), last=replace(state.last, bounty=bounty))
            events.append(f"{name} collects a bounty of {bounty} coins ({state.player(name).coins} coins)")
        return state, events
    if intention == "charm":
        form = creature.get("becomes")
        if form is None:
            zones.move(creature.id, REVEALED, f"{name}:dock")
            return state, [f"{name} charms {creature.name}; it joins the creature dock"]
        form_id = str(form)
        zones.remove(creature.id, REVEALED)
        if form_id in zones.ids(CHARMED_FORMS):
            zones.move(form_id, CHARMED_FORMS, f"{name}:dock")
        else:
            zones.create(form_id, f"{name}:dock")
        return state, [f"{name} charms {creature.name}; it becomes {rules.card(form_id).name} and joins the creature dock"]
    return state, [f"{name} escapes from {creature.name}"]


def _fail(rules: Rules, state: State, creature, intention: str, chance) -> Step:
    name = state.current.name
    alt = alternative_for(creature, intention)
    if alt and alt.get("on_fail") == "lose-items":
        state, events = _lose_items(rules, state, name, roll_value(alt["lose_items"], chance, f"{creature.name}'s item loss"), chance)
    else:
        state, events = _attacked(rules, state, name, creature, chance)
    return state, events


def _lose_items(rules: Rules, state: State, name: str, count: int, chance) -> Step:
    """A card-defined failure: the player loses ``count`` items picked at random (no damage to anyone)."""
    state, zones = _copy(state)
    lost: list[str] = []
    for _ in range(count):
        items = state.pile(name, "items")
        if not items:
            break
        pick = items[chance.roll(len(items), f"which of {name}'s items is lost") - 1] if len(items) > 1 else items[0]
        zones.move(pick, f"{name}:items", USED_TREASURE)
        lost.append(pick)
    state = replace(state, last=replace(state.last, items_lost=tuple(lost)))
    return state, [f"{name} loses {count} item(s) at random: {', '.join(rules.card(i).name for i in lost) or 'none held'}"]


def _attacked(rules: Rules, state: State, name: str, creature, chance) -> Step:
    """The standard failure: one attack roll hits the player and every companion."""
    damage = roll_value(known(creature, "attack"), chance, f"{creature.name}'s attack")
    events = [f"{creature.name} attacks for {damage}"]
    dead: list[str] = []
    for companion_id in state.pile(name, "companions"):
        companion = rules.card(companion_id)
        defense = roll_value(known(companion, "defense"), chance, f"{companion.name}'s defense")
        if damage > defense:
            state, zones = _copy(state)
            zones.move(companion_id, f"{name}:companions", GRAVEYARD)
            dead.append(companion_id)
            events.append(f"{name}'s companion {companion.name} (defense {defense}) dies and goes to the graveyard")
        else:
            events.append(f"{name}'s companion {companion.name} (defense {defense}) survives")
    state = replace(state, last=replace(state.last, damage=damage, companions_lost=tuple(dead)))
    if damage:
        state, more = change_health(rules, state, name, -damage, f"{creature.name}'s attack")
        events += more
    return state, events
