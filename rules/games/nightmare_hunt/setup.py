"""An example's starting position, read from its ``setup:`` mapping."""
from __future__ import annotations

from collections import Counter

from deckwright.rules.data.schema import did_you_mean
from deckwright.rules.engine.errors import SpecError
from deckwright.rules.engine.zones import Zones

from .data import Rules
from .state import CONDITIONS, DECK, DISCARD, ENCOUNTER, ENCOUNTER_DISCARD, ENCOUNTERS, HAND, PILES, Enemy, State
from .turns import advance, begin_prey_turn, cards_text, label_for, start_encounter

_SETUP_KEYS = ("armor", "level", "hand", "deck", "discard", "conditions", "encounter", "enemies", "turn",
               "encounter_deck", "encounter_discard", "skip_turn", "next_fast", "at")


def unplaced(cards, left: Counter) -> list:
    """The cards, in their order, of which ``left`` still counts some (consuming the counts)."""
    out = []
    for card in cards:
        if left[card] > 0:
            left[card] -= 1
            out.append(card)
    return out


class ExampleSetup:
    """Reads an example's ``setup:``.

    - ``armor`` (required), ``level`` (default: the level of the encounter);
    - ``hand``, ``deck`` (top first), ``discard`` (top first): card ids, ``wound`` included.
      Action cards not placed go to the deck (when ``deck`` is not given) or else to the discard;
    - ``conditions``: condition ids (a condition listed twice is on you twice);
    - ``encounter``: a card that starts now as a fresh encounter (Fast, Slow and summons apply), or
      ``enemies``: a list of ``{card, energy, wounds, summoned}`` already in a running encounter,
      with ``turn: prey`` (default) or ``player`` saying who acts next;
    - ``encounter_deck``, ``encounter_discard``: card ids top first (default: the level's other
      encounters in data order, boss last, and an empty discard);
    - ``skip_turn``, ``next_fast``; ``at: town`` or ``between`` when no encounter is running.
    """

    def __init__(self, rules: Rules, spec: dict):
        self.rules = rules
        self.spec = spec
        for key in spec:
            if key not in _SETUP_KEYS:
                raise SpecError(f"setup: unknown key '{key}'{did_you_mean(str(key), list(_SETUP_KEYS))} "
                                f"(known: {', '.join(_SETUP_KEYS)})", (key,))

    def build(self, chance, log) -> State:
        rules, spec = self.rules, self.spec
        armor = spec.get("armor")
        if armor not in rules.armors:
            raise SpecError(f"setup.armor: expected one of {', '.join(rules.armors)}, got {armor!r}", ("armor",))
        state = State(rules, Zones.with_piles(*PILES), armor, 1)
        self.action_piles(state.zones)
        for i, condition in enumerate(self.list("conditions")):
            self.known(condition, rules.conditions, ("conditions", i))
            state.zones.create(condition, CONDITIONS)
        first = self.spec.get("encounter") or self.first_enemy()
        state.level = spec.get("level") or self.level_of(first)
        if state.level not in rules.levels:
            raise SpecError(f"setup.level: no level {state.level} (levels: {', '.join(map(str, rules.levels))})", ("level",))
        state.skip_turn = bool(spec.get("skip_turn"))
        state.next_fast = int(spec.get("next_fast") or 0)
        self.encounter_piles(state)
        if log:
            log.add("setup", f"{rules.names[armor]}; hand {cards_text(rules, state.zones[HAND])}; "
                             f"deck {len(state.zones[DECK])}, discard {len(state.zones[DISCARD])}")
        if "encounter" in spec:
            start_encounter(state, state.zones[ENCOUNTERS].pop(), chance, log)
        elif "enemies" in spec:
            self.enemies(state)
            turn = spec.get("turn", "prey")
            if turn not in ("prey", "player"):
                raise SpecError(f"setup.turn: 'prey' or 'player', not {turn!r}", ("turn",))
            if turn == "prey":
                begin_prey_turn(state)
            else:
                state.phase = "turn"
        else:
            at = spec.get("at", "town")
            if at not in ("town", "between"):
                raise SpecError(f"setup.at: 'town' or 'between', not {at!r}", ("at",))
            state.phase = at
        advance(state, chance, log)
        return state

    def list(self, key: str) -> list:
        value = self.spec.get(key) or []
        if not isinstance(value, list):
            raise SpecError(f"setup.{key}: expected a list of card ids", (key,))
        return value

    def known(self, card_id, table, key: tuple) -> None:
        if card_id not in table:
            raise SpecError(f"setup.{key[0]}: no card '{card_id}' here{did_you_mean(str(card_id), list(table))}", key)

    def action_piles(self, zones: Zones) -> None:
        rules = self.rules
        cards = set(rules.action_deck) | {rules.wound}
        left = Counter(rules.action_deck)
        for pile in (HAND, DECK, DISCARD):
            for i, card in enumerate(self.list(pile)):
                self.known(card, cards, (pile, i))
                if card == rules.wound:
                    zones.create(card, pile, to="bottom")
                    continue
                if left[card] == 0:
                    raise SpecError(f"setup.{pile}: one {card} too many; the game has "
                                    f"{rules.action_deck.count(card)}", (pile, i))
                left[card] -= 1
                zones.put(pile, [card], to="bottom")
        rest = unplaced(rules.action_deck, left)
        zones.put(DECK if "deck" not in self.spec else DISCARD, rest, to="bottom")

    def first_enemy(self) -> str | None:
        for entry in self.list("enemies"):
            if isinstance(entry, dict) and not entry.get("summoned"):
                return entry.get("card")
        return None

    def level_of(self, card_id) -> int:
        for number, cards in self.rules.levels.items():
            if card_id in cards:
                return number
        return next(iter(self.rules.levels))

    def encounter_piles(self, state: State) -> None:
        rules, spec, zones = self.rules, self.spec, state.zones
        level_cards = rules.levels[state.level]
        for key, pile in (("encounter_deck", ENCOUNTERS), ("encounter_discard", ENCOUNTER_DISCARD)):
            for i, card in enumerate(self.list(key)):
                self.known(card, level_cards, (key, i))
                zones.put(pile, [card], to="bottom")
        current = spec.get("encounter")
        if current is not None:
            self.known(current, level_cards, ("encounter",))
        main = current or self.first_enemy()
        if "encounter_deck" not in spec:
            left = Counter(level_cards)
            left.subtract(zones.ids(ENCOUNTER_DISCARD) + ([main] if main else []))
            zones.put(ENCOUNTERS, unplaced(level_cards, left), to="bottom")
        if current is not None:
            zones.put(ENCOUNTERS, [current])

    def enemies(self, state: State) -> None:
        rules, zones = self.rules, state.zones
        for i, entry in enumerate(self.list("enemies")):
            if isinstance(entry, str):
                entry = {"card": entry}
            if not isinstance(entry, dict):
                raise SpecError("setup.enemies: each enemy is a card id or {card, energy, wounds, summoned}", ("enemies", i))
            for key in entry:
                if key not in ("card", "energy", "wounds", "summoned"):
                    raise SpecError(f"setup.enemies: unknown key '{key}' (card, energy, wounds, summoned)", ("enemies", i, key))
            card_id = entry.get("card")
            self.known(card_id, rules.enemies, ("enemies", i, "card"))
            enemy = Enemy(card_id, label_for(state, card_id), rules.enemies[card_id], int(entry.get("energy", 0)),
                          int(entry.get("wounds", 0)), bool(entry.get("summoned")))
            if enemy.summoned:
                zones.create(enemy, ENCOUNTER)
            else:
                zones[ENCOUNTER].append(enemy)
