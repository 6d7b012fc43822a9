"""RT:0 combat: rounds, turns, tarot draws, shield, HP and injuries, zones, targeting, supremacy.

Pure functions over frozen dataclasses. Every number comes from the game data
(``Rules``); every shuffle goes through the chance object passed in. Each
function that changes the state returns the new state and the events it caused
(plain sentences, in order), which the example runner writes to the log.

Readings of the source that are ours (each one is also an open question in
``game.yaml`` and explained on the rulebook pages):
- keeping held cards, a player still draws the full hand size on top of them;
- when the deck holds fewer cards than the hand size, the discard pile and the
  rest of the deck are shuffled together, then the draw is made; if even that
  pile is short, the player draws what there is;
- damage beyond 0 HP is lost: the player stops at 0, then buys back the injury
  HP (so one hit causes at most one injury);
- "nearest" is Chebyshev distance (diagonal zones are adjacent), an adversary
  moves one zone a move, diagonally when it can, and ties go to the player
  listed first;
- ties in default targeting go to the fewer HP, then to the player listed first.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Mapping

from rules.engine.errors import RuleError

SPEEDS = ("fast", "normal", "slow")  # turn order: Fast players, then neither, then Slow
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50}
_ROMAN_PATTERN = re.compile(r"^(?:0|X{0,2}(?:IX|IV|V?I{0,3}))$")

Zone = tuple[int, int]  # (column, row), from 0


# -- the numbers, read from the game data ---------------------------------------


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


def rules_from(game) -> Rules:
    c = game.constants
    return Rules(
        starting_hp=c["starting_hp"], injury_hp=c["injury_hp"], hand_size=c["hand_size"],
        arcana_abilities=c["arcana_abilities"], arcana_per_corruption=c["arcana_per_corruption"],
        supremacy_corruption_limit=c["supremacy_corruption_limit"], supremacy_tally=c["supremacy_tally"],
        supremacy_full_hp_tally=c["supremacy_full_hp_tally"], catastrophe_card=c["catastrophe_card"],
        values={card.id: card["value"] for card in game.cards_of("tarot")},
        room_sides={card.id: card["side"] for card in game.cards_of("room")},
    )


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
        for player in self.players:
            if player.name == name:
                return player
        raise RuleError(f"no player named '{name}' (players: {', '.join(p.name for p in self.players)})")

    def adversary(self, name: str) -> Adversary:
        for adversary in self.adversaries:
            if adversary.name == name:
                return adversary
        raise RuleError(f"no adversary named '{name}' (adversaries: {', '.join(a.name for a in self.adversaries)})")

    def with_player(self, new: Player) -> "Combat":
        return replace(self, players=tuple(new if p.name == new.name else p for p in self.players))

    def with_adversary(self, new: Adversary) -> "Combat":
        return replace(self, adversaries=tuple(new if a.name == new.name else a for a in self.adversaries))


def new_player(rules: Rules, name: str, **fields) -> Player:
    """A player at the start of a combat: HP reset to the starting HP."""
    return Player(name=name, hp=rules.starting_hp, **fields)


# -- cards -----------------------------------------------------------------------


def draw_hand(rules: Rules, player: Player, chance) -> tuple[Player, list[str]]:
    """Draw the hand size on top of any cards held, reshuffling first when the deck is short."""
    events: list[str] = []
    deck, discard = player.deck, player.discard
    if len(deck) < rules.hand_size and discard:
        pile = list(deck) + list(discard)
        deck = tuple(chance.shuffle(pile, f"{player.name} reshuffles"))
        discard = ()
        events.append(f"{player.name} has {len(player.deck)} card(s) in the deck: "
                      f"shuffles the discard pile ({len(player.discard)}) into it, {len(deck)} cards")
    drawn, deck = deck[:rules.hand_size], deck[rules.hand_size:]
    if len(drawn) < rules.hand_size:
        events.append(f"{player.name} can draw only {len(drawn)} of {rules.hand_size}")
    kept = f", keeping {', '.join(player.hand)}" if player.hand else ""
    events.append(f"{player.name} draws {', '.join(drawn) or 'nothing'}{kept}")
    if rules.catastrophe_card in drawn:
        events.append(f"{player.name} drew {rules.catastrophe_card}: catastrophe")
    return replace(player, deck=deck, discard=discard, hand=player.hand + drawn), events


def start_turn(rules: Rules, player: Player, chance) -> tuple[Player, list[str]]:
    """Discard the shield still held, then draw."""
    events = [f"{player.name} discards {player.shield} shield"] if player.shield else []
    player, drawn = draw_hand(rules, replace(player, shield=0), chance)
    return player, events + drawn


def play_cards(player: Player, cards: Iterable[str]) -> Player:
    """Cards played on abilities leave the hand for the discard pile."""
    hand = list(player.hand)
    for card in cards:
        if card not in hand:
            raise RuleError(f"{player.name} has no {card} in hand (hand: {', '.join(player.hand) or 'empty'})")
        hand.remove(card)
    return replace(player, hand=tuple(hand), discard=player.discard + tuple(cards))


def end_turn(player: Player) -> tuple[Player, list[str]]:
    """Cards not played are discarded: nothing is saved for the next hand."""
    if not player.hand:
        return player, []
    events = [f"{player.name} discards the unplayed {', '.join(player.hand)}"]
    return replace(player, hand=(), discard=player.discard + player.hand), events


# -- damage, shield, HP ----------------------------------------------------------


def absorb(damage: int, shield: int) -> tuple[int, int]:
    """Shield offsets damage point for point: returns (damage that gets through, shield left)."""
    blocked = min(damage, shield)
    return damage - blocked, shield - blocked


def damage_player(rules: Rules, player: Player, damage: int) -> tuple[Player, list[str]]:
    through, shield = absorb(damage, player.shield)
    hp = max(player.hp - through, 0)
    events = [f"{player.name} takes {damage} damage, {damage - through} blocked by shield, "
              f"loses {player.hp - hp} HP ({player.hp} -> {hp})"]
    player = replace(player, hp=hp, shield=shield)
    if hp == 0:
        player = replace(player, hp=rules.injury_hp, injuries=player.injuries + 1)
        events.append(f"{player.name} is at 0 HP: takes a major injury and buys {rules.injury_hp} HP")
    return player, events


def damage_adversary(adversary: Adversary, damage: int) -> tuple[Adversary, list[str]]:
    through, shield = absorb(damage, adversary.shield)
    hp = max(adversary.hp - through, 0)
    events = [f"{adversary.name} takes {damage} damage, {damage - through} blocked by shield, "
              f"loses {adversary.hp - hp} HP ({adversary.hp} -> {hp})"]
    if hp == 0:
        events.append(f"{adversary.name} is at 0 HP and leaves the combat")
    return replace(adversary, hp=hp, shield=shield, out=hp == 0), events


# -- zones -----------------------------------------------------------------------


def distance(a: Zone, b: Zone) -> int:
    """Zones apart, diagonal steps counting as one (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def in_reach(attacker: Zone, target: Zone, reach: str) -> bool:
    """Melee hits only within one zone; ranged hits anywhere."""
    return reach == "ranged" or attacker == target


def check_zone(zone: Zone, side: int) -> None:
    if not (0 <= zone[0] < side and 0 <= zone[1] < side):
        raise RuleError(f"zone {zone_name(zone)} is outside a {side}x{side} room")


def zone_name(zone: Zone) -> str:
    """A1 is the top-left zone; letters are columns, numbers rows."""
    return f"{chr(ord('A') + zone[0])}{zone[1] + 1}"


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


def default_move(adversary: Adversary, players: Iterable[Player]) -> tuple[Adversary, list[str]]:
    """Move one zone towards the nearest player; stay when already sharing a zone with one."""
    players = list(players)
    if any(p.zone == adversary.zone for p in players):
        return adversary, [f"{adversary.name} shares {zone_name(adversary.zone)} with a player and stays"]
    target = nearest_player(adversary, players)
    if target is None:
        return adversary, []
    zone = step_toward(adversary.zone, target.zone)
    return replace(adversary, zone=zone), [
        f"{adversary.name} moves {zone_name(adversary.zone)} -> {zone_name(zone)} towards {target.name} "
        f"(nearest, {distance(adversary.zone, target.zone)} zone(s) away)"]


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


def draw_intents(combat: Combat, chance) -> tuple[Combat, list[str]]:
    """One intent per adversary still in the combat, from the top of the GM's deck.

    When the GM's deck is empty its discard pile is shuffled to form a new one.
    """
    events: list[str] = []
    deck, discard = combat.gm_deck, combat.gm_discard
    adversaries = []
    for adversary in combat.adversaries:
        if adversary.out:
            adversaries.append(adversary)
            continue
        if not deck:
            if not discard:
                raise RuleError(f"the GM's deck and discard pile are empty: no intent for {adversary.name}")
            deck, discard = tuple(chance.shuffle(list(discard), "GM reshuffles")), ()
            events.append("the GM shuffles the discard pile to form a new deck")
        card, deck = deck[0], deck[1:]
        shown = card if adversary.intents == "face-up" else "a face-down card"
        events.append(f"{adversary.name} draws its intent: {shown}")
        adversaries.append(replace(adversary, intent=card))
    combat = replace(combat, adversaries=tuple(adversaries), gm_deck=deck, gm_discard=discard,
                     round=combat.round + 1)
    return combat, [f"round {combat.round}"] + events


def end_player_turns(combat: Combat) -> tuple[Combat, list[str]]:
    """After every player's turn, all adversary shield is discarded."""
    events = [f"{a.name} discards {a.shield} shield" for a in combat.adversaries if a.shield]
    return replace(combat, adversaries=tuple(replace(a, shield=0) for a in combat.adversaries)), events


def discard_intent(combat: Combat, name: str) -> tuple[Combat, list[str]]:
    adversary = combat.adversary(name)
    if adversary.intent is None:
        return combat, []
    combat = replace(combat.with_adversary(replace(adversary, intent=None)),
                     gm_discard=combat.gm_discard + (adversary.intent,))
    return combat, [f"{name} discards its intent {adversary.intent}"]


def end_round(combat: Combat) -> tuple[Combat, list[str]]:
    """After the adversaries have acted, all player shield is discarded."""
    events = [f"{p.name} discards {p.shield} unused shield" for p in combat.players if p.shield]
    return replace(combat, players=tuple(replace(p, shield=0) for p in combat.players)), events


def combat_over(combat: Combat) -> bool:
    """Over when every adversary has fled or is at 0 HP."""
    return all(a.out for a in combat.adversaries)


# -- before and after a combat ---------------------------------------------------


def arcana_ability_count(rules: Rules, corruption_taken: int, fully_upgraded: int = 0) -> int:
    """Arcana abilities a player may field: the chosen ones, one per corruption point, and the fully upgraded."""
    return rules.arcana_abilities + rules.arcana_per_corruption * corruption_taken + fully_upgraded


def supremacy_tallies(rules: Rules, players: Iterable[Player]) -> tuple[int, str]:
    """Tallies added to the supremacy worksheet when a combat ends, and why."""
    players = list(players)
    injured = [p.name for p in players if p.injuries]
    if injured:
        return 0, f"{', '.join(injured)} received an injury: no tally"
    corrupted = [p.name for p in players if p.corruption >= rules.supremacy_corruption_limit]
    if corrupted:
        return 0, (f"{', '.join(corrupted)} received {rules.supremacy_corruption_limit} or more corruption: "
                   f"no tally")
    if all(p.hp == rules.starting_hp for p in players):
        return rules.supremacy_tally + rules.supremacy_full_hp_tally, "clean win with every player at full HP"
    return rules.supremacy_tally, "clean win"


# -- data checks -----------------------------------------------------------------


def roman_value(numeral: str) -> int | None:
    """The value of a major arcanum's numeral, 0 to XXI; None when it is not one."""
    if not numeral or not _ROMAN_PATTERN.match(numeral):
        return None
    total = 0
    for i, char in enumerate(numeral):
        value = _ROMAN.get(char, 0)
        total += -value if i + 1 < len(numeral) and _ROMAN.get(numeral[i + 1], 0) > value else value
    return total


def consistency(game, problems) -> None:
    """Tarot values follow the source's rule: a major's numeral, one value per rank in every suit."""
    by_rank: dict[str, list] = {}
    suits: dict[str, list[str]] = {}
    for card in game.cards_of("tarot"):
        value = card["value"]
        loc = card.field_locs.get("value", card.loc)
        if card["arcana"] == "major":
            _check_major(card, value, loc, problems)
            continue
        suit, rank = card.get("suit"), card.get("rank")
        if not suit or not rank or card.get("numeral"):
            problems.error(card.loc, f"tarot.{card.id}: a minor arcanum has a suit and a rank and no numeral")
            continue
        if rank in suits.setdefault(suit, []):
            problems.error(card.loc, f"tarot.{card.id}: a second {rank} of {suit}")
        suits[suit].append(rank)
        if not isinstance(value, int):
            continue
        if rank.isdigit() and value != int(rank):
            problems.error(loc, f"tarot.{card.id}.value: {value}, but a numbered card counts as printed ({rank})")
        else:
            by_rank.setdefault(rank, []).append((card, value, loc))
    for rank, members in by_rank.items():
        values = [value for _, value, _ in members]
        usual = max(values, key=values.count)
        for card, value, loc in members:
            if value != usual:
                problems.error(loc, f"tarot.{card.id}.value: {value}, but the other {rank}s count {usual}")
    catastrophe = game.constants.get("catastrophe_card")
    if catastrophe not in {c.id for c in game.cards_of("tarot")}:
        problems.error(game.loc, f"constants.catastrophe_card: no tarot card '{catastrophe}'")


def _check_major(card, value, loc, problems) -> None:
    if card.get("suit") or card.get("rank"):
        problems.error(card.loc, f"tarot.{card.id}: a major arcanum has no suit or rank")
    numeral = card.get("numeral")
    expected = roman_value(numeral) if isinstance(numeral, str) else None
    if expected is None:
        problems.error(card.field_locs.get("numeral", card.loc),
                       f"tarot.{card.id}.numeral: expected a numeral from 0 to XXI, got {numeral!r}")
    elif isinstance(value, int) and value != expected:
        problems.error(loc, f"tarot.{card.id}.value: {value}, but its numeral {numeral} is {expected}")
