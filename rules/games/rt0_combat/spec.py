"""Reading a worked example's ``setup:`` and ``actions:`` into a fight and the calls that play it.

Setup::

    room: common                       # a room id: cramped, common or large (default common)
    gm_deck: [the-moon, two-of-cups]   # the GM's intent deck, top first; or a deck id (shuffled)
    players:
      - {name: Ana, speed: fast, zone: B2, hp: 20, shield: 0,
         deck: [ace-of-cups, ...],     # top first; or a deck id such as tarot (shuffled as "Ana deck")
         hand: [], discard: [], injuries: 0, corruption: 0, fully_upgraded: 0}
    adversaries:                       # the source has no stat blocks: state the numbers here
      - {name: Wolf, hp: 10, zone: B2, targeting: default, reach: melee, intents: face-up, shield: 0}

Actions: ``intents``; ``turn: Ana``; ``{play: [cards], shield: 5}`` or
``{play: [cards], damage: 8, target: Wolf, ranged: false}``; ``end turn``;
``{act: Wolf, move: true, damage: 8}`` (steps in the order written: ``move``
true or a zone for a Strategic adversary, ``damage`` with an optional
``target`` for a GM's choice, ``shield``, ``flee: true``); ``corruption: Ana``.
"""
from __future__ import annotations

from deckwright.rules.engine.errors import SpecError

from . import fight as f
from .core import GM_DECK, SPEEDS, Adversary, Combat, Player, Rules, deck_pile, parse_zone

TOP_KEYS = ("room", "gm_deck", "players", "adversaries")
PLAYER_KEYS = ("name", "hp", "shield", "speed", "zone", "deck", "hand", "discard", "injuries", "corruption",
               "fully_upgraded")
ADVERSARY_KEYS = ("name", "hp", "targeting", "reach", "intents", "zone", "shield")
CHOICES = {"targeting": ("default", "strategic", "dimwitted"), "reach": ("melee", "ranged"),
           "intents": ("face-up", "face-down"), "speed": SPEEDS}
ACTION_FORMS = "intents, 'turn: <player>', '{play: [...], shield: N}' or '{play: [...], damage: N, target: <adversary>}', " \
               "'end turn', '{act: <adversary>, move: true, damage: N, shield: N, flee: true}', 'corruption: <player>'"


class Reader:
    def __init__(self, game, rules: Rules):
        self.game = game
        self.rules = rules
        self.side = rules.room_sides.get("common", 3)

    def setup(self, spec: dict, chance) -> Combat:
        self.keys(spec, TOP_KEYS, (), "setup")
        room = spec.get("room", "common")
        if room not in self.rules.room_sides:
            raise SpecError(f"room: '{room}' is not a room ({', '.join(self.rules.room_sides)})", ("room",))
        self.side = self.rules.room_sides[room]
        players = tuple(self.player(item, i, chance) for i, item in enumerate(self.items(spec, "players")))
        adversaries = tuple(self.adversary(item, i) for i, item in enumerate(self.items(spec, "adversaries")))
        names = [p.name for p in players] + [a.name for a in adversaries]
        for name in names:
            if names.count(name) > 1:
                raise SpecError(f"two fighters are named '{name}'; names must differ", ("players",))
        if not players:
            raise SpecError("setup: a fight needs players (a list under 'players:')", ())
        gm_deck = self.pile(spec.get("gm_deck", []), ("gm_deck",), chance, GM_DECK)
        return Combat(players=players, adversaries=adversaries, side=self.side, gm_deck=gm_deck)

    def items(self, spec: dict, key: str) -> list:
        items = spec.get(key) or []
        if not isinstance(items, list):
            raise SpecError(f"{key}: expected a list of mappings", (key,))
        return items

    def keys(self, item, allowed: tuple, key: tuple, what: str) -> None:
        if not isinstance(item, dict):
            raise SpecError(f"{what}: expected a mapping", key)
        for name in item:
            if name not in allowed:
                raise SpecError(f"{what}: unknown key '{name}' (known: {', '.join(allowed)})", key + (name,))

    def player(self, item, i: int, chance) -> Player:
        key = ("players", i)
        self.keys(item, PLAYER_KEYS, key, "a player")
        name = self.name(item, key)
        return Player(
            name=name, hp=self.number(item, "hp", key, self.rules.starting_hp), shield=self.number(item, "shield", key),
            speed=self.choice(item, "speed", key, "normal"), zone=self.zone(item, key),
            deck=self.pile(item.get("deck", []), key + ("deck",), chance, deck_pile(name)),
            hand=self.pile(item.get("hand", []), key + ("hand",), chance, ""),
            discard=self.pile(item.get("discard", []), key + ("discard",), chance, ""),
            injuries=self.number(item, "injuries", key), corruption=self.number(item, "corruption", key),
            fully_upgraded=self.number(item, "fully_upgraded", key))

    def adversary(self, item, i: int) -> Adversary:
        key = ("adversaries", i)
        self.keys(item, ADVERSARY_KEYS, key, "an adversary")
        if "hp" not in item:
            raise SpecError("an adversary needs 'hp:' (the source gives no stat blocks, so the example states it)", key)
        return Adversary(name=self.name(item, key), hp=self.number(item, "hp", key), zone=self.zone(item, key),
                         targeting=self.choice(item, "targeting", key, "default"),
                         reach=self.choice(item, "reach", key, "melee"),
                         intents=self.choice(item, "intents", key, "face-up"), shield=self.number(item, "shield", key))

    def name(self, item: dict, key: tuple) -> str:
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise SpecError("needs 'name:'", key)
        return name.strip()

    def number(self, item: dict, field: str, key: tuple, default: int = 0) -> int:
        value = item.get(field, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise SpecError(f"{field}: expected a whole number of 0 or more, got {value!r}", key + (field,))
        return value

    def choice(self, item: dict, field: str, key: tuple, default: str) -> str:
        value = item.get(field, default)
        if value not in CHOICES[field]:
            raise SpecError(f"{field}: expected one of {', '.join(CHOICES[field])}, got {value!r}", key + (field,))
        return value

    def zone(self, item: dict, key: tuple, field: str = "zone") -> tuple[int, int]:
        try:
            return parse_zone(item.get(field, "A1"), self.side)
        except ValueError as exc:
            raise SpecError(f"{field}: {exc}", key + (field,)) from None

    def pile(self, value, key: tuple, chance, shuffled_as: str) -> tuple[str, ...]:
        """A list of tarot card ids, top first; or a deck id, every card of it shuffled under ``shuffled_as``."""
        if isinstance(value, str) and shuffled_as:
            if value not in self.game.decks:
                raise SpecError(f"'{value}' is not a deck (decks: {', '.join(self.game.decks)})", key)
            return tuple(chance.shuffle([c.id for c in self.game.printed_cards(value)], shuffled_as))
        if not isinstance(value, list):
            raise SpecError("expected a list of card ids, top first", key)
        for i, card in enumerate(value):
            if card not in self.rules.values:
                raise SpecError(f"'{card}' is not a tarot card id", key + (i,))
        return tuple(value)

    # -- actions -----------------------------------------------------------------

    def action(self, fight: f.Fight, action, chance, log) -> f.Fight:
        if action == "intents":
            return f.draw_intents(fight, chance, log)
        if action == "end turn":
            return f.end_turn(fight, log)
        if not isinstance(action, dict):
            raise SpecError(f"unknown action {action!r}; an action is one of: {ACTION_FORMS}")
        if "turn" in action:
            self.keys(action, ("turn",), (), "a turn")
            return f.start_turn(fight, action["turn"], chance, log)
        if "corruption" in action:
            self.keys(action, ("corruption",), (), "taking corruption")
            return f.take_corruption(fight, action["corruption"], log)
        if "act" in action:
            return f.adversary_acts(fight, action["act"], self.steps(action), log)
        if {"play", "shield", "damage"} & set(action):
            self.keys(action, ("play", "shield", "damage", "target", "ranged"), (), "a play")
            cards = action.get("play", [])
            cards = [cards] if isinstance(cards, str) else cards
            ranged = action.get("ranged", False)
            if not isinstance(ranged, bool):
                raise SpecError("ranged: expected true or false", ("ranged",))
            return f.play(fight, tuple(self.pile(cards, ("play",), chance, "")), self.number(action, "shield", ()),
                          self.number(action, "damage", ()), action.get("target"), ranged, log)
        raise SpecError(f"unknown action {action!r}; an action is one of: {ACTION_FORMS}")

    def steps(self, action: dict) -> list[tuple[str, object]]:
        self.keys(action, ("act", "move", "damage", "target", "shield", "flee"), (), "an adversary's action")
        steps: list[tuple[str, object]] = []
        for key, value in action.items():
            if key == "move":
                steps.append(("move", True if value is True else self.zone(action, (), "move")))
            elif key == "damage":
                steps.append(("damage", (self.number(action, "damage", ()), action.get("target"))))
            elif key == "shield":
                steps.append(("shield", self.number(action, "shield", ())))
            elif key == "flee":
                if value is not True:
                    raise SpecError("flee: write 'flee: true'", ("flee",))
                steps.append(("flee", True))
        if "target" in action and "damage" not in action:
            raise SpecError("target: only a 'damage' step has a target", ("target",))
        return steps
