"""Nightmare Hunt's card data as rule tables, and the data checks specific to the game.

``rules_from(game)`` reads every number the mechanics use from the cards and
constants once; the rest of the package never looks at the YAML-shaped data.
"""
from __future__ import annotations

from dataclasses import dataclass

# -- the numbers ---------------------------------------------------------


@dataclass(frozen=True)
class Ability:
    energy: int
    steps: tuple[tuple[str, object], ...]  # ("power", 4), ("inflict", "burning"), ("summon", "ember"), ("discard_deck", True)
    skip_turn: bool

    def describe(self, names: dict[str, str]) -> str:
        parts = []
        for kind, value in self.steps:
            if kind == "power":
                parts.append(f"Power {value}")
            elif kind == "inflict":
                parts.append(f"inflicts {names[value]}")
            elif kind == "summon":
                parts.append(f"summons {names[value]}")
            else:
                parts.append("discards your action deck")
        return " then ".join(parts) + (", skipping your turn" if self.skip_turn else "")


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
    action_deck: tuple[str, ...]  # every printed action card, in data order
    armors: dict[str, ArmorDef]
    conditions: dict[str, ConditionDef]
    enemies: dict[str, EnemyDef]
    events: dict[str, EventDef]
    levels: dict[int, tuple[str, ...]]  # level number -> its encounter cards in data order (boss last)


def _ref(value) -> str:
    return str(value)


def rules_from(game) -> Rules:
    names = {card.id: card.name for card in game.cards}
    actions = {c.id: ActionDef(c.id, c.name, c["kind"], c["time"], c["modifier"], c.get("power"), c.get("cancels"),
                               bool(c.get("skip_turn")), bool(c.get("discard_hand")))
               for c in game.cards_of("action")}
    armors = {c.id: ArmorDef(c.id, c.name, tuple(c["track"]), c["critical"], c["slow"]) for c in game.cards_of("armor")}
    conditions = {c.id: ConditionDef(c.id, c.name, c.get("track_bonus"), bool(c.get("wound_per_action")),
                                     bool(c.get("ends_on_rest")))
                  for c in game.cards_of("condition")}
    enemies = {}
    for card in game.cards_of("prey") + game.cards_of("boss"):
        abilities = tuple(sorted((Ability(a["energy"], tuple((k, _ref(v) if k in ("inflict", "summon") else v)
                                                                for step in a["steps"] for k, v in step.items()),
                                          bool(a.get("skip_turn")))
                                  for a in card["abilities"]), key=lambda a: a.energy))
        enemies[card.id] = EnemyDef(card.id, card.name, card["health"], card.get("fast") or 0,
                                    tuple(_ref(s) for s in card.get("summons") or ()), abilities, card.type == "boss",
                                    card.get("wound_reset"), _ref(card["protected_by"]) if card.get("protected_by") else None)
    events = {c.id: EventDef(c.id, c.name, _ref(c["inflict"]) if c.get("inflict") else None,
                             tuple(_ref(s) for s in c.get("summons") or ()), c.get("next_fast") or 0)
              for c in game.cards_of("event")}
    numbers = {c.id: c["number"] for c in game.cards_of("level")}
    levels: dict[int, list[str]] = {}
    for card in game.cards:
        if card.id in enemies or card.id in events:
            level = numbers.get(_ref(card.get("level")))
            if level is not None and card.deck:
                levels.setdefault(level, []).extend([card.id] * card.count)
    return Rules(
        mind=game.constants["mind"], body=game.constants["body"], wound=game.cards_of("wound")[0].id, names=names,
        actions=actions, action_deck=tuple(c.id for c in game.cards_of("action") if c.deck for _ in range(c.count)),
        armors=armors, conditions=conditions, enemies=enemies, events=events,
        levels={n: tuple(cards) for n, cards in sorted(levels.items())},
    )


# -- consistency of the data ----------------------------------------------------------------------


def consistency(game, problems) -> None:
    constants = game.constants
    mind, body = constants.get("mind"), constants.get("body")
    if isinstance(mind, int) and isinstance(body, int) and body > mind:
        problems.error(game.loc, f"constants.body: Body {body} is above Mind {mind}; Body can never be higher than Mind")
    copies = constants.get("action_copies")
    for card in game.cards_of("action"):
        if card.deck and card.copies != copies:
            problems.error(card.loc, f"action.{card.id}: {card.copies} copies; every action card has "
                                     f"{copies} (constant action_copies)")
    by_id = {card.id: card for card in game.cards}
    for card in game.cards_of("prey") + game.cards_of("boss") + game.cards_of("event"):
        for summoned in [*(card.get("summons") or ()), *(step.get("summon") for ability in card.get("abilities") or ()
                                                         for step in ability["steps"] if step.get("summon"))]:
            target = by_id.get(str(summoned))
            if target is None or target.type != "prey":
                problems.error(getattr(summoned, "loc", card.loc), f"{card.type}.{card.id}: summons '{summoned}', "
                                                                   f"which is not a prey card")
        energies = [ability["energy"] for ability in card.get("abilities") or ()]
        if energies != sorted(energies) or len(set(energies)) != len(energies):
            problems.error(card.field_locs.get("abilities", card.loc),
                           f"{card.type}.{card.id}.abilities: list them by rising energy, each cost once "
                           f"(got {', '.join(map(str, energies))})")
    for deck in game.decks:
        encounter_cards = [c for c in game.cards_in(deck) if c.type in ("prey", "boss", "event")]
        if not encounter_cards:
            continue
        bosses = [c for c in encounter_cards if c.type == "boss"]
        if len(bosses) != 1 or encounter_cards[-1].type != "boss":
            problems.error(game.decks[deck].loc, f"decks.{deck}: an encounter deck ends with its one boss "
                                                 f"(found {len(bosses)} boss card(s), last card '{encounter_cards[-1].id}')")


