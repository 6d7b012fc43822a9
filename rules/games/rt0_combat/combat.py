"""RT:0 combat rules as pure functions over frozen dataclasses.

Every number comes from ``Rules``; every shuffle goes through the chance object passed in. A function
that changes the state returns the new state and the events it caused, ``(kind, data)`` in order, which
the action logs.

Readings of the source that are ours (each is an open question in ``game.yaml`` and explained on the
rulebook pages):
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

from typing import Iterable

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace

from .numbers import Rules
from .state import GM_DECK, SPEEDS, Adversary, Combat, Events, Player, Zone, deck_pile


def card_value(rules: Rules, card_id: str) -> int:
    if card_id not in rules.values:
        raise RuleError(f"'{card_id}' is not a tarot card")
    return rules.values[card_id]


# -- cards -----------------------------------------------------------------------


def draw_hand(rules: Rules, player: Player, chance) -> tuple[Player, Events]:
    """Draw the hand size on top of any cards held, reshuffling first when the deck is short."""
    events: Events = []
    deck, discard = player.deck, player.discard
    if len(deck) < rules.hand_size and discard:
        deck = tuple(chance.shuffle(list(deck) + list(discard), deck_pile(player.name)))
        discard = ()
        events.append(("reshuffle", {"player": player.name, "left": len(player.deck), "discard": len(player.discard),
                                     "deck": len(deck)}))
    drawn, deck = deck[:rules.hand_size], deck[rules.hand_size:]
    if len(drawn) < rules.hand_size:
        events.append(("short-draw", {"player": player.name, "drawn": len(drawn)}))
    events.append(("draw", {"player": player.name, "cards": list(drawn), "kept": list(player.hand)}))
    if rules.catastrophe_card in drawn:
        events.append(("catastrophe", {"player": player.name, "card": rules.catastrophe_card}))
    return replace(player, deck=deck, discard=discard, hand=player.hand + drawn), events


def start_turn(rules: Rules, player: Player, chance) -> tuple[Player, Events]:
    """Discard the shield still held, then draw."""
    events: Events = [("shield-drop", {"who": player.name, "shield": player.shield})] if player.shield else []
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
    events: Events = [("discard", {"player": player.name, "cards": list(player.hand)})]
    return replace(player, hand=(), discard=player.discard + player.hand), events


# -- damage, shield, HP ----------------------------------------------------------


def absorb(damage: int, shield: int) -> tuple[int, int]:
    """Shield offsets damage point for point: returns (damage that gets through, shield left)."""
    blocked = min(damage, shield)
    return damage - blocked, shield - blocked


def _hit(name: str, damage: int, through: int, before: int, after: int) -> tuple[str, dict]:
    return "damage", {"target": name, "damage": damage, "blocked": damage - through, "before": before, "after": after}


def damage_player(rules: Rules, player: Player, damage: int) -> tuple[Player, Events]:
    through, shield = absorb(damage, player.shield)
    hp = max(player.hp - through, 0)
    events: Events = [_hit(player.name, damage, through, player.hp, hp)]
    player = replace(player, hp=hp, shield=shield)
    if hp == 0:
        player = replace(player, hp=rules.injury_hp, injuries=player.injuries + 1)
        events.append(("injury", {"player": player.name, "hp": rules.injury_hp}))
    return player, events


def damage_adversary(adversary: Adversary, damage: int) -> tuple[Adversary, Events]:
    through, shield = absorb(damage, adversary.shield)
    hp = max(adversary.hp - through, 0)
    events: Events = [_hit(adversary.name, damage, through, adversary.hp, hp)]
    if hp == 0:
        events.append(("out", {"adversary": adversary.name}))
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
    sharing = [p.name for p in players if p.zone == adversary.zone]
    if sharing:
        return adversary, [("stays", {"adversary": adversary.name, "zone": zone_name(adversary.zone),
                                      "sharing": sharing})]
    target = nearest_player(adversary, players)
    if target is None:
        return adversary, []
    zone = step_toward(adversary.zone, target.zone)
    return replace(adversary, zone=zone), [
        ("move", {"adversary": adversary.name, "from": zone_name(adversary.zone), "to": zone_name(zone),
                  "towards": target.name, "distance": distance(adversary.zone, target.zone)})]


def chosen_move(adversary: Adversary, zone: Zone) -> tuple[Adversary, Events]:
    """A Strategic adversary's move where the GM wants it: any zone one step away."""
    if adversary.targeting != "strategic":
        raise RuleError(f"{adversary.name} moves by the default rule; only a Strategic adversary's move is the GM's")
    if distance(adversary.zone, zone) > 1:
        raise RuleError(f"{adversary.name} moves one zone at a time: {zone_name(zone)} is "
                        f"{distance(adversary.zone, zone)} away from {zone_name(adversary.zone)}")
    return replace(adversary, zone=zone), [
        ("gm-move", {"adversary": adversary.name, "from": zone_name(adversary.zone), "to": zone_name(zone)})]


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
    events: Events = [("round", {"round": round_number})]
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
            events.append(("gm-reshuffle", {}))
        card, deck = deck[0], deck[1:]
        events.append(("intent", {"adversary": adversary.name, "card": card, "face_up": adversary.intents == "face-up"}))
        adversaries.append(replace(adversary, intent=card))
    return replace(combat, adversaries=tuple(adversaries), gm_deck=deck, gm_discard=discard,
                   round=round_number), events


def end_player_turns(combat: Combat) -> tuple[Combat, Events]:
    """After every player's turn, all adversary shield is discarded."""
    events: Events = [("shield-drop", {"who": a.name, "shield": a.shield}) for a in combat.adversaries if a.shield]
    return replace(combat, adversaries=tuple(replace(a, shield=0) for a in combat.adversaries)), events


def discard_intent(combat: Combat, name: str) -> tuple[Combat, Events]:
    adversary = combat.adversary(name)
    if adversary.intent is None:
        return combat, []
    combat = replace(combat.with_adversary(replace(adversary, intent=None)),
                     gm_discard=combat.gm_discard + (adversary.intent,))
    return combat, [("intent-discard", {"adversary": name, "card": adversary.intent})]


def end_round(combat: Combat) -> tuple[Combat, Events]:
    """After the adversaries have acted, all player shield is discarded."""
    events: Events = [("unused-shield", {"who": p.name, "shield": p.shield}) for p in combat.players if p.shield]
    return replace(combat, players=tuple(replace(p, shield=0) for p in combat.players)), events


def combat_over(combat: Combat) -> bool:
    """Over when every adversary has fled or is at 0 HP."""
    return all(a.out for a in combat.adversaries)


# -- before and after a combat ---------------------------------------------------


def arcana_ability_count(rules: Rules, player: Player) -> int:
    """Arcana abilities a player fields: the chosen ones, one per corruption point, and the fully upgraded."""
    return rules.arcana_abilities + rules.arcana_per_corruption * player.corruption + player.fully_upgraded


def supremacy_tallies(rules: Rules, players: Iterable[Player]) -> tuple[int, str, tuple[str, ...]]:
    """Tallies added to the supremacy worksheet when a combat ends, why (injury, corruption, full-hp or clean),
    and the players the reason names."""
    players = list(players)
    injured = tuple(p.name for p in players if p.injuries)
    if injured:
        return 0, "injury", injured
    corrupted = tuple(p.name for p in players if p.corruption >= rules.supremacy_corruption_limit)
    if corrupted:
        return 0, "corruption", corrupted
    if all(p.hp == rules.starting_hp for p in players):
        return rules.supremacy_tally + rules.supremacy_full_hp_tally, "full-hp", ()
    return rules.supremacy_tally, "clean", ()


def supremacy_reason(rules: Rules, reason: str, players) -> str:
    """Why the worksheet got its tallies, in the worksheet's words."""
    return {"injury": f"{', '.join(players)} received an injury",
            "corruption": f"{', '.join(players)} received {rules.supremacy_corruption_limit} or more corruption",
            "full-hp": "a clean win with every player at full HP", "clean": "a clean win"}[reason]
