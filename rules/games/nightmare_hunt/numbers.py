"""Nightmare Hunt's constants and card data as rule tables, read once from the Game by ``prepare``.

The rest of the package never looks at the YAML-shaped data.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from deckwright.rules.data.fields import record, whole
from deckwright.rules.data.model import Game

CONSTANTS = record(
    mind=whole(min=1, doc="Mind: the hand is drawn back up to this many cards"),
    body=whole(min=1, doc="Body: this many wounds in hand is death; never above Mind"),
    action_copies=whole(min=1, doc="Copies of each action card in the action deck"),
)

ENCOUNTER_TYPES = ("prey", "boss", "event")


@dataclass(frozen=True)
class Ability:
    energy: int
    steps: tuple[tuple[str, object], ...]  # ("power", 4), ("inflict", "burning"), ("summon", "ember"), ("discard_deck", True)
    skip_turn: bool


@dataclass(frozen=True)
class EnemyDef:
    id: str
    name: str
    health: int
    fast: int
    summons: tuple[str, ...]
    abilities: tuple[Ability, ...]  # cheapest first
    boss: bool
    wound_reset: int | None
    protected_by: str | None
    # by energy held, up to the dearest cost: the dearest ability it pays for (None below the cheapest)
    affordable: tuple = ()

    def ability(self, energy: int) -> Ability:
        return next(a for a in self.abilities if a.energy == energy)


@dataclass(frozen=True)
class EventDef:
    id: str
    name: str
    inflict: str | None
    summons: tuple[str, ...]
    next_fast: int


@dataclass(frozen=True)
class ActionDef:
    id: str
    name: str
    kind: str  # instinctual, basic or card
    time: int
    modifier: str  # none, reaction or recovery
    power: int | None
    cancels: str | None  # any or zero-energy
    skip_turn: bool
    discard_hand: bool


@dataclass(frozen=True)
class ArmorDef:
    id: str
    name: str
    track: tuple[int, ...]
    critical: int
    slow: int


@dataclass(frozen=True)
class ConditionDef:
    id: str
    name: str
    track_bonus: int | None
    wound_per_action: bool
    ends_on_rest: bool


@dataclass(frozen=True)
class Rules:
    mind: int
    body: int
    wound: str  # the wound card's id
    names: dict[str, str]
    actions: dict[str, ActionDef]
    action_deck: tuple[str, ...]  # every action card of the deck, in data order
    armors: dict[str, ArmorDef]
    conditions: dict[str, ConditionDef]
    enemies: dict[str, EnemyDef]
    events: dict[str, EventDef]
    levels: dict[int, tuple[str, ...]]  # level number -> its encounter cards in data order (boss last)
    reactions: tuple[ActionDef, ...] = ()  # the actions played as reactions, in data order
    plays: tuple[ActionDef, ...] = ()  # the others, played on the player's turn
    wounding_conditions: frozenset = frozenset()  # the conditions that wound at every non-Recovery action
    # The legal actions of each kind of position, worked out the first time one is met (legal.legal_actions)
    legal_memo: dict = field(default_factory=dict, compare=False, repr=False)
    # The ids of the actions in legal_memo, and id -> (its verb's function, value and options) of those played, their
    # names checked once, so that apply_in_place runs them without dispatch's checks (actions.apply_in_place)
    legal_ids: set = field(default_factory=set, compare=False, repr=False)
    checked_actions: dict = field(default_factory=dict, compare=False, repr=False)
    # The heuristic player's choice in each situation it has met, and whether an enemy action is worth cancelling
    # (strategies.heuristic_choice)
    choice_memo: dict = field(default_factory=dict, compare=False, repr=False)
    threat_memo: dict = field(default_factory=dict, compare=False, repr=False)

    def name(self, label: str) -> str:
        """A card's name from its id, or an enemy's from its label (``ember#2`` -> ``Ember #2``)."""
        card, _, number = label.partition("#")
        return f"{self.names[card]} #{number}" if number else self.names[card]


def _ability(spec) -> Ability:
    steps = tuple((kind, str(value) if kind in ("inflict", "summon") else value)
                  for step in spec["steps"] for kind, value in step.items())
    return Ability(spec["energy"], steps, bool(spec.get("skip_turn")))


def _enemy(card) -> EnemyDef:
    abilities = tuple(sorted((_ability(a) for a in card["abilities"]), key=lambda a: a.energy))
    return EnemyDef(card.id, card.name, card["health"], card.get("fast") or 0,
                    tuple(str(s) for s in card.get("summons") or ()), abilities,
                    card.type == "boss", card.get("wound_reset"),
                    str(card["protected_by"]) if card.get("protected_by") else None, _affordable(abilities))


def _affordable(abilities: tuple[Ability, ...]) -> tuple[Ability | None, ...]:
    dearest = abilities[-1].energy if abilities else 0
    return tuple(next((a for a in reversed(abilities) if a.energy <= energy), None) for energy in range(dearest + 1))


def prepare(game: Game) -> Rules:
    """Every number and card the rules use, read from the game's data."""
    actions = {c.id: ActionDef(c.id, c.name, c["kind"], c["time"], c["modifier"], c.get("power"), c.get("cancels"),
                               bool(c.get("skip_turn")), bool(c.get("discard_hand")))
               for c in game.cards_of("action")}
    enemies = {card.id: _enemy(card) for card in game.cards_of("prey") + game.cards_of("boss")}
    events = {c.id: EventDef(c.id, c.name, str(c["inflict"]) if c.get("inflict") else None,
                             tuple(str(s) for s in c.get("summons") or ()), c.get("next_fast") or 0)
              for c in game.cards_of("event")}
    numbers = {c.id: c["number"] for c in game.cards_of("level")}
    levels: dict[int, list[str]] = {}
    action_deck: list[str] = []
    for deck in game.decks:
        members = game.cards_in(deck)
        if members and all(c.type == "action" for c in members):
            action_deck += game.deck_cards(deck)
        if members and all(c.type in ENCOUNTER_TYPES for c in members):
            for card_id in game.deck_cards(deck):
                level = numbers.get(str(game.card(card_id).get("level")))
                if level is not None:
                    levels.setdefault(level, []).append(card_id)
    return Rules(
        mind=game.constants["mind"], body=game.constants["body"], wound=game.cards_of("wound")[0].id,
        names={card.id: card.name for card in game.cards}, actions=actions, action_deck=tuple(action_deck),
        armors={c.id: ArmorDef(c.id, c.name, tuple(c["track"]), c["critical"], c["slow"]) for c in game.cards_of("armor")},
        conditions={c.id: ConditionDef(c.id, c.name, c.get("track_bonus"), bool(c.get("wound_per_action")),
                                       bool(c.get("ends_on_rest"))) for c in game.cards_of("condition")},
        enemies=enemies, events=events, levels={n: tuple(cards) for n, cards in sorted(levels.items())},
        reactions=tuple(a for a in actions.values() if a.modifier == "reaction"),
        plays=tuple(a for a in actions.values() if a.modifier != "reaction"),
        wounding_conditions=frozenset(c.id for c in game.cards_of("condition") if c.get("wound_per_action")),
    )
