"""RT:0 combat rules as pure functions over frozen dataclasses.

Every number comes from ``Rules`` (read from the game data by ``data.rules_from``);
every shuffle goes through the chance object passed in. A function that changes
the state returns the new state and the events it caused, ``(kind, narration)``
pairs in order, which the caller writes to the event log.

Readings of the source that are ours (each is an open question in
``game.yaml`` and explained on the rulebook pages):
- keeping held cards, a player still draws the full hand size on top of them;
- when the deck holds fewer cards than the hand size, the rest of the deck and
  the discard pile are shuffled together, then the draw is made; if even that
  pile is short, the player draws what there is;
- damage beyond 0 HP is lost: the player stops at 0, then buys back the injury
  HP (one hit causes at most one injury);
- "nearest" is Chebyshev distance (diagonal zones are adjacent), an adversary
  moves one zone a move, diagonally when it can, and a tie goes to the player
  listed first;
- a tie in default targeting goes to the fewer HP, then to the player listed first.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping

from deckwright.rules.engine.errors import RuleError

SPEEDS = ("fast", "normal", "slow")  # turn order: Fast players, then neither, then Slow
Zone = tuple[int, int]  # (column, row), from 0
Events = list[tuple[str, str]]


@dataclass(frozen=True)
class Rules:
    starting_hp: int
    injury_hp: int
    hand_size: int
    arcana_abilities: int
    arcana_per_corruption: int
    supremacy_corruption_limit: int
    supremacy_tally: int
    supremacy_full_hp_tally: int
    catastrophe_card: str
    values: Mapping[str, int]  # tarot card id -> value
    room_sides: Mapping[str, int]  # room id -> zones along a side


def card_value(rules: Rules, card_id: str) -> int:
    if card_id not in rules.values:
        raise RuleError(f"'{card_id}' is not a tarot card")
    return rules.values[card_id]


# -- state -----------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    name: str
    hp: int
    shield: int = 0
    speed: str = "normal"
    zone: Zone = (0, 0)
    deck: tuple[str, ...] = ()  # top card first
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    injuries: int = 0  # major injuries taken this combat
    corruption: int = 0  # corruption points taken this combat
    fully_upgraded: int = 0  # arcana abilities upgraded as far as they go


@dataclass(frozen=True)
class Adversary:
    name: str
    hp: int
    targeting: str = "default"  # default, strategic, dimwitted
    reach: str = "melee"  # melee or ranged
    intents: str = "face-up"  # face-up or face-down
    zone: Zone = (0, 0)
    shield: int = 0
    intent: str | None = None  # the intent card drawn this round
    out: bool = False  # at 0 HP or fled: no longer in the combat


@dataclass(frozen=True)
class Combat:
    players: tuple[Player, ...]
    adversaries: tuple[Adversary, ...]
    side: int = 3  # the room's grid: side x side zones
    round: int = 0
    gm_deck: tuple[str, ...] = ()  # top card first
    gm_discard: tuple[str, ...] = ()

    def player(self, name: str) -> Player:
        return _named(self.players, name, "player")

    def adversary(self, name: str) -> Adversary:
        return _named(self.adversaries, name, "adversary")

    def with_player(self, new: Player) -> "Combat":
        return replace(self, players=_replaced(self.players, new))

    def with_adversary(self, new: Adversary) -> "Combat":
        return replace(self, adversaries=_replaced(self.adversaries, new))

    def fighting(self) -> list[Adversary]:
        return [a for a in self.adversaries if not a.out]


def _named(fighters, name: str, what: str):
    for fighter in fighters:
        if fighter.name == name:
            return fighter
    raise RuleError(f"no {what} named '{name}' (here: {', '.join(f.name for f in fighters) or 'none'})")


def _replaced(fighters: tuple, new) -> tuple:
    return tuple(new if f.name == new.name else f for f in fighters)


# -- cards -----------------------------------------------------------------------


def deck_pile(name: str) -> str:
    """The name a player's deck is shuffled under (scripts order it by this name)."""
    return f"{name} deck"


GM_DECK = "GM deck"


def draw_hand(rules: Rules, player: Player, chance) -> tuple[Player, Events]:
    """Draw the hand size on top of any cards held, reshuffling first when the deck is short."""
    events: Events = []
    deck, discard = player.deck, player.discard
    if len(deck) < rules.hand_size and discard:
        deck = tuple(chance.shuffle(list(deck) + list(discard), deck_pile(player.name)))
        discard = ()
        events.append(("reshuffle", f"{player.name} has {len(player.deck)} card(s) left: shuffles them with the "
                                    f"{len(player.discard)}-card discard pile into a new {len(deck)}-card deck"))
    drawn, deck = deck[:rules.hand_size], deck[rules.hand_size:]
    if len(drawn) < rules.hand_size:
        events.append(("draw", f"{player.name} can draw only {len(drawn)} of {rules.hand_size}"))
    kept = f", keeping {', '.join(player.hand)}" if player.hand else ""
    events.append(("draw", f"{player.name} draws {', '.join(drawn) or 'nothing'}{kept}"))
    if rules.catastrophe_card in drawn:
        events.append(("catastrophe", f"{player.name} drew {rules.catastrophe_card}: catastrophe"))
    return replace(player, deck=deck, discard=discard, hand=player.hand + drawn), events


def start_turn(rules: Rules, player: Player, chance) -> tuple[Player, Events]:
    """Discard the shield still held, then draw."""
    events: Events = [("shield", f"{player.name} discards {player.shield} shield")] if player.shield else []
    player, drawn = draw_hand(rules, replace(player, shield=0), chance)
    return player, events + drawn


def play_cards(player: Player, cards: Iterable[str]) -> Player:
    """Cards played on abilities leave the hand for the discard pile."""
    cards = tuple(cards)
    hand = list(player.hand)
    for card in cards:
        if card not in hand:
            raise RuleError(f"{player.name} has no {card} in hand (hand: {', '.join(player.hand) or 'empty'})")
        hand.remove(card)
    return replace(player, hand=tuple(hand), discard=player.discard + cards)


def end_turn(player: Player) -> tuple[Player, Events]:
    """Cards not played are discarded: nothing is saved for the next hand."""
    if not player.hand:
        return player, []
    events: Events = [("discard", f"{player.name} discards the unplayed {', '.join(player.hand)}")]
    return replace(player, hand=(), discard=player.discard + player.hand), events


# -- damage, shield, HP ----------------------------------------------------------


def absorb(damage: int, shield: int) -> tuple[int, int]:
    """Shield offsets damage point for point: returns (damage that gets through, shield left)."""
    blocked = min(damage, shield)
    return damage - blocked, shield - blocked


def _hit_text(name: str, damage: int, through: int, before: int, after: int) -> str:
    return (f"{name} takes {damage} damage, {damage - through} blocked by shield, "
            f"loses {before - after} HP ({before} -> {after})")


def damage_player(rules: Rules, player: Player, damage: int) -> tuple[Player, Events]:
    through, shield = absorb(damage, player.shield)
    hp = max(player.hp - through, 0)
    events: Events = [("damage", _hit_text(player.name, damage, through, player.hp, hp))]
    player = replace(player, hp=hp, shield=shield)
    if hp == 0:
        player = replace(player, hp=rules.injury_hp, injuries=player.injuries + 1)
        events.append(("injury", f"{player.name} is at 0 HP: takes a major injury and buys {rules.injury_hp} HP"))
    return player, events


def damage_adversary(adversary: Adversary, damage: int) -> tuple[Adversary, Events]:
    through, shield = absorb(damage, adversary.shield)
    hp = max(adversary.hp - through, 0)
    events: Events = [("damage", _hit_text(adversary.name, damage, through, adversary.hp, hp))]
    if hp == 0:
        events.append(("out", f"{adversary.name} is at 0 HP and leaves the combat"))
    return replace(adversary, hp=hp, shield=shield, out=hp == 0), events


# -- zones -----------------------------------------------------------------------


def distance(a: Zone, b: Zone) -> int:
    """Zones apart, diagonal steps counting as one (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def in_reach(attacker: Zone, target: Zone, reach: str) -> bool:
    """Melee hits only within one zone; ranged hits anywhere."""
    return reach == "ranged" or attacker == target


def zone_name(zone: Zone) -> str:
    """A1 is the top-left zone; letters are columns, numbers rows."""
    return f"{chr(ord('A') + zone[0])}{zone[1] + 1}"


def parse_zone(text: str, side: int) -> Zone:
    """``B2`` -> (1, 1); raises ValueError naming the room's zones."""
    last = f"{chr(ord('A') + side - 1)}{side}"
    text = str(text).strip().upper()
    if len(text) >= 2 and text[0].isalpha() and text[1:].isdigit():
        zone = (ord(text[0]) - ord("A"), int(text[1:]) - 1)
        if 0 <= zone[0] < side and 0 <= zone[1] < side:
            return zone
    raise ValueError(f"'{text}' is not a zone of a {side}x{side} room (A1 to {last})")


def nearest_player(adversary: Adversary, players: Iterable[Player]) -> Player | None:
    """The closest player; a tie goes to the player listed first."""
    best: Player | None = None
    for player in players:
        if best is None or distance(adversary.zone, player.zone) < distance(adversary.zone, best.zone):
            best = player
    return best


def step_toward(start: Zone, goal: Zone) -> Zone:
    """One zone towards the goal, diagonally when both column and row differ."""
    def sign(n: int) -> int:
        return (n > 0) - (n < 0)
    return start[0] + sign(goal[0] - start[0]), start[1] + sign(goal[1] - start[1])


def default_move(adversary: Adversary, players: Iterable[Player]) -> tuple[Adversary, Events]:
    """Move one zone towards the nearest player; stay when already sharing a zone with one."""
    players = list(players)
    here = zone_name(adversary.zone)
    sharing = [p.name for p in players if p.zone == adversary.zone]
    if sharing:
        return adversary, [("move", f"{adversary.name} shares {here} with {', '.join(sharing)} and stays")]
    target = nearest_player(adversary, players)
    if target is None:
        return adversary, []
    zone = step_toward(adversary.zone, target.zone)
    return replace(adversary, zone=zone), [
        ("move", f"{adversary.name} moves {here} -> {zone_name(zone)} towards {target.name} "
                 f"(nearest, {distance(adversary.zone, target.zone)} zone(s) away)")]


def chosen_move(adversary: Adversary, zone: Zone) -> tuple[Adversary, Events]:
    """A Strategic adversary's move where the GM wants it: any zone one step away."""
    if adversary.targeting != "strategic":
        raise RuleError(f"{adversary.name} moves by the default rule; only a Strategic adversary's move is the GM's")
    if distance(adversary.zone, zone) > 1:
        raise RuleError(f"{adversary.name} moves one zone at a time: {zone_name(zone)} is "
                        f"{distance(adversary.zone, zone)} away from {zone_name(adversary.zone)}")
    return replace(adversary, zone=zone), [
        ("move", f"{adversary.name} moves {zone_name(adversary.zone)} -> {zone_name(zone)} (the GM's choice)")]


# -- targeting -------------------------------------------------------------------


def default_target(players: Iterable[Player]) -> Player | None:
    """Most shield; when nobody has shield, least HP. Ties: fewer HP, then the player listed first."""
    players = list(players)
    if not players:
        return None
    if any(p.shield for p in players):
        return min(players, key=lambda p: (-p.shield, p.hp))  # min keeps the first of equals
    return min(players, key=lambda p: p.hp)


def reachable_players(adversary: Adversary, players: Iterable[Player]) -> list[Player]:
    return [p for p in players if in_reach(adversary.zone, p.zone, adversary.reach)]


def choose_target(adversary: Adversary, players: Iterable[Player], gm_choice: str | None = None) -> Player | None:
    """Whom an adversary hits: the default rule, or the GM's pick for a Strategic or Dimwitted one."""
    candidates = reachable_players(adversary, players)
    if adversary.targeting == "default":
        if gm_choice is not None:
            raise RuleError(f"{adversary.name} targets by the default rule; the GM does not choose")
        return default_target(candidates)
    if gm_choice is None:
        raise RuleError(f"{adversary.name} is {adversary.targeting}: the GM chooses its target; say whom")
    for player in candidates:
        if player.name == gm_choice:
            return player
    raise RuleError(f"{adversary.name} cannot reach {gm_choice} from {zone_name(adversary.zone)}")


# -- the round -------------------------------------------------------------------


def turn_order(players: Iterable[Player]) -> list[str]:
    """Fast players, then those with neither, then Slow; players of one speed keep the order given."""
    players = list(players)
    for player in players:
        if player.speed not in SPEEDS:
            raise RuleError(f"{player.name}: speed '{player.speed}' is not one of {', '.join(SPEEDS)}")
    return [p.name for p in sorted(players, key=lambda p: SPEEDS.index(p.speed))]


def draw_intents(combat: Combat, chance) -> tuple[Combat, Events]:
    """One intent per adversary still in the combat, from the top of the GM's deck.

    When the GM's deck is empty, its discard pile is shuffled into a new one.
    """
    round_number = combat.round + 1
    events: Events = [("round", f"round {round_number}")]
    deck, discard = combat.gm_deck, combat.gm_discard
    adversaries = []
    for adversary in combat.adversaries:
        if adversary.out:
            adversaries.append(adversary)
            continue
        if not deck:
            if not discard:
                raise RuleError(f"the GM's deck and discard pile are empty: no intent for {adversary.name}")
            deck, discard = tuple(chance.shuffle(list(discard), GM_DECK)), ()
            events.append(("reshuffle", "the GM shuffles the discarded intents into a new deck"))
        card, deck = deck[0], deck[1:]
        shown = card if adversary.intents == "face-up" else "a face-down card"
        events.append(("intent", f"{adversary.name} draws its intent: {shown}"))
        adversaries.append(replace(adversary, intent=card))
    return replace(combat, adversaries=tuple(adversaries), gm_deck=deck, gm_discard=discard,
                   round=round_number), events


def end_player_turns(combat: Combat) -> tuple[Combat, Events]:
    """After every player's turn, all adversary shield is discarded."""
    events: Events = [("shield", f"{a.name} discards {a.shield} shield") for a in combat.adversaries if a.shield]
    return replace(combat, adversaries=tuple(replace(a, shield=0) for a in combat.adversaries)), events


def discard_intent(combat: Combat, name: str) -> tuple[Combat, Events]:
    adversary = combat.adversary(name)
    if adversary.intent is None:
        return combat, []
    combat = replace(combat.with_adversary(replace(adversary, intent=None)),
                     gm_discard=combat.gm_discard + (adversary.intent,))
    return combat, [("intent", f"{name} discards its intent {adversary.intent}")]


def end_round(combat: Combat) -> tuple[Combat, Events]:
    """After the adversaries have acted, all player shield is discarded."""
    events: Events = [("shield", f"{p.name} discards {p.shield} unused shield") for p in combat.players if p.shield]
    return replace(combat, players=tuple(replace(p, shield=0) for p in combat.players)), events


def combat_over(combat: Combat) -> bool:
    """Over when every adversary has fled or is at 0 HP."""
    return all(a.out for a in combat.adversaries)


# -- before and after a combat ---------------------------------------------------


def arcana_ability_count(rules: Rules, player: Player) -> int:
    """Arcana abilities a player fields: the chosen ones, one per corruption point, and the fully upgraded."""
    return rules.arcana_abilities + rules.arcana_per_corruption * player.corruption + player.fully_upgraded


def supremacy_tallies(rules: Rules, players: Iterable[Player]) -> tuple[int, str]:
    """Tallies added to the supremacy worksheet when a combat ends, and why."""
    players = list(players)
    injured = [p.name for p in players if p.injuries]
    if injured:
        return 0, f"{', '.join(injured)} received an injury"
    limit = rules.supremacy_corruption_limit
    corrupted = [p.name for p in players if p.corruption >= limit]
    if corrupted:
        return 0, f"{', '.join(corrupted)} received {limit} or more corruption"
    if all(p.hp == rules.starting_hp for p in players):
        return rules.supremacy_tally + rules.supremacy_full_hp_tally, "a clean win with every player at full HP"
    return rules.supremacy_tally, "a clean win"
