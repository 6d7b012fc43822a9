"""Gloombah!: attack points, gear and damage, death, running away, fights with helpers, turns and rounds.

Pure functions over frozen dataclasses. Every number comes from the game data
(``Numbers``, the constants in ``game.yaml``, and the cards); every roll and
shuffle goes through the chance object passed in; every step is narrated to
the event log passed in.

Where the source leaves a rule open, the game's ``open_questions`` say so.
Readings we take are listed there and implemented here (a helper's attack
points add to the fighting side, several multipliers multiply, breaking gear
absorbs its durability, non-winning level gains stop one short of the win
level). Rules with no reading at all are ``Rulings``: play that needs one
without a ruling stops with an ``OpenRuleError`` quoting the open question,
so nothing is guessed silently.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from math import ceil
from typing import Iterable, Protocol

from rules.engine.dice import Dice, DiceError, parse_dice
from rules.engine.errors import RuleError
from rules.engine.log import NULL_LOG
from rules.values import Open

MONSTER = "monster"  # the target of a card played on the monster's side


class OpenRuleError(RuleError):
    """Play reached a rule the source leaves open and no ruling was given."""


# -- the numbers, read from the game data ---------------------------------------

CONSTANTS = ("class_cards_at_setup", "items_at_setup", "gear_slots", "weapon_slots", "start_level",
             "min_attack_points", "win_level", "auto_run_below_level", "cards_kept_on_death", "monsters_per_turn")


@dataclass(frozen=True)
class Numbers:
    class_cards_at_setup: int
    items_at_setup: int
    gear_slots: int
    weapon_slots: int
    start_level: int
    min_attack_points: int
    win_level: int
    auto_run_below_level: int
    cards_kept_on_death: int
    monsters_per_turn: int
    run_roll: Dice


def numbers(game) -> Numbers:
    c = game.constants
    return Numbers(**{name: c[name] for name in CONSTANTS}, run_roll=parse_dice(c["run_roll"]))


def consistency(game, problems) -> None:
    """The constants this module reads exist and hold what it can play with."""
    c = game.constants
    for name in CONSTANTS:
        if not isinstance(c.get(name), int) or isinstance(c.get(name), bool):
            problems.error(game.loc, f"constants.{name}: the Gloombah! rules need it as a whole number")
    try:
        parse_dice(c.get("run_roll", ""))
    except DiceError as exc:
        problems.error(game.loc, f"constants.run_roll: {exc}")
    for name in ("gear_slots", "weapon_slots", "monsters_per_turn"):
        if c.get(name) not in (1, None) and isinstance(c.get(name), int):
            problems.error(game.loc, f"constants.{name}: the Gloombah! rules play with exactly 1")


# -- rulings for the rules the source leaves open --------------------------------


@dataclass(frozen=True)
class Rulings:
    """House rulings for open rules; None means "not ruled", and play that needs it stops.

    Each field names the game's open question it answers (``about``).
    """

    tie: str | None = field(default=None, metadata={"about": "tied fight", "values": ("player", "monster")})
    damaged_gear_absorbs: bool | None = field(default=None, metadata={"about": "damaged gear hit again"})
    effects_end_on_death: bool | None = field(default=None, metadata={"about": "death"})
    flee_with_empty_hand: bool | None = field(default=None, metadata={"about": "fleeing with an empty hand"})
    reshuffle_empty_decks: bool | None = field(default=None, metadata={"about": "empty decks"})
    equip_after_setup: bool | None = field(default=None, metadata={"about": "equipping after setup"})

    def need(self, name: str):
        value = getattr(self, name)
        if value is None:
            about = next(f.metadata["about"] for f in fields(self) if f.name == name)
            raise OpenRuleError(f"the source leaves this open (open question '{about}'); play needs the ruling '{name}'")
        return value


# -- the formula and the tables made from it ------------------------------------


def multiplier(value) -> Fraction:
    """An exact multiplier from card data (1.5 -> 3/2)."""
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def attack_points(level: int, weapon_bonus: int = 0, multipliers: Iterable[Fraction] = (), bonus: int = 0) -> int:
    """((level + weapon bonus) x status effects), rounded up, + consumable bonus."""
    return ceil(_product(level + weapon_bonus, multipliers)) + bonus


def monster_attack_points(attack: int, multipliers: Iterable[Fraction] = ()) -> int:
    return ceil(_product(attack, multipliers))


def _product(value: int, multipliers: Iterable[Fraction]) -> Fraction:
    total = Fraction(value)
    for m in multipliers:
        total *= m
    return total


def formula_text(level: int, weapon_bonus: int, multipliers: Iterable[Fraction], bonus: int) -> str:
    """The sum as a player would write it: ``(5 + 2) x 1.5 = 10.5 -> 11, + 4 = 15``."""
    multipliers = tuple(multipliers)
    text = f"({level} + {weapon_bonus})" if weapon_bonus else f"{level}"
    exact = _product(level + weapon_bonus, multipliers)
    if multipliers:
        text += "".join(f" x {_number(m)}" for m in multipliers) + f" = {_number(exact)}"
        if exact.denominator != 1:
            text += f", rounded up {ceil(exact)}"
    elif weapon_bonus:
        text += f" = {ceil(exact)}"
    if bonus:
        text += f", + {bonus} = {ceil(exact) + bonus}"
    return text


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def run_chance(level: int, n: Numbers) -> Fraction:
    """The chance of getting away by running (not by discarding the hand) at ``level``."""
    if level < n.auto_run_below_level:
        return Fraction(1)
    return n.run_roll.chance_at_least(level)


def run_table(game) -> list[tuple[int, Fraction]]:
    """(level, chance to run away) for every level a player can be at during play."""
    n = numbers(game)
    return [(level, run_chance(level, n)) for level in range(n.start_level, n.win_level)]


# -- gear and damage --------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """What one loser's gear does with a monster's damage."""

    damage: int
    absorbed: int
    to_player: int
    gear: str  # "none" (no gear or armour-piercing), "held", "damaged" or "broken"


def absorb(damage: int, durability: int | None, damaged: bool = False, armour_piercing: bool = False,
           rulings: Rulings = Rulings()) -> Hit:
    """Damage against the worn gear (``durability`` None: no gear).

    Up to its durability, gear absorbs the damage and is damaged; more breaks
    it, and the rest reaches the player. Damaged gear breaks on any damage.
    """
    if damage <= 0:
        return Hit(damage, 0, 0, "held" if durability is not None else "none")
    if durability is None or armour_piercing:
        return Hit(damage, 0, damage, "none")
    if isinstance(durability, Open):
        raise OpenRuleError(f"the gear's durability is open: {durability.note}")
    if damaged:
        absorbed = min(damage, durability) if rulings.need("damaged_gear_absorbs") else 0
        return Hit(damage, absorbed, damage - absorbed, "broken")
    if damage > durability:
        return Hit(damage, durability, damage - durability, "broken")
    return Hit(damage, damage, 0, "damaged")


def gain(level: int, amount: int, n: Numbers, may_win: bool) -> int:
    """Levels gained; only a win on one's own turn may reach the win level, other gains stop one short."""
    if may_win:
        return level + amount
    return max(level, min(level + amount, n.win_level - 1))


def is_dead(level: int, n: Numbers) -> bool:
    return level < n.min_attack_points


# -- the table ----------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """A monster's effect on a loser: multiplies their attack until the end of round ``until_round``."""

    name: str
    multiplier: Fraction
    until_round: int


@dataclass(frozen=True)
class Player:
    name: str
    klass: str = ""  # the class card's id
    level: int = 1
    hand: tuple[str, ...] = ()
    gear: str | None = None
    gear_damaged: bool = False
    weapon: str | None = None
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Table:
    players: tuple[Player, ...]
    items: tuple[str, ...] = ()  # top card first
    monsters: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    item_discard: tuple[str, ...] = ()  # most recent first
    monster_discard: tuple[str, ...] = ()
    active: int = 0  # index of the player whose turn it is
    round: int = 1
    winner: str | None = None

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise RuleError(f"no player named '{name}' (players: {', '.join(p.name for p in self.players)})")

    def with_player(self, player: Player) -> "Table":
        return replace(self, players=tuple(player if p.name == player.name else p for p in self.players))

    @property
    def turn_player(self) -> Player:
        return self.players[self.active]


def cards_on_table(table: Table) -> Counter:
    """Every card anywhere: piles, hands, worn and wielded, classes. It never changes during play."""
    count = Counter(table.items + table.monsters + table.classes + table.item_discard + table.monster_discard)
    for p in table.players:
        count.update(p.hand + tuple(c for c in (p.klass, p.gear, p.weapon) if c))
    return count


def player_attack(game, player: Player, multipliers: Iterable[Fraction] = (), bonus: int = 0) -> int:
    """A player's attack points: their standing effects, plus the effect cards and bonuses played on them."""
    return attack_points(player.level, _weapon_bonus(game, player), _standing(player) + tuple(multipliers), bonus)


def _weapon_bonus(game, player: Player) -> int:
    return _known(game.card(player.weapon), "bonus") if player.weapon else 0


def _standing(player: Player) -> tuple[Fraction, ...]:
    return tuple(e.multiplier for e in player.effects)


def _known(card, name: str, default=None):
    value = card.get(name, default)
    if isinstance(value, Open):
        raise OpenRuleError(f"{card.name}'s {name.replace('_', ' ')} is open: {value.note}")
    return value


# -- setup ------------------------------------------------------------------------


class Decisions(Protocol):
    """What players choose; the rules check every choice."""

    def equip(self, table: Table, player: Player) -> tuple[str | None, str | None]: ...
    def repair(self, table: Table, player: Player) -> bool: ...
    def prepare(self, table: Table, player: Player) -> list[str]: ...  # non-combat consumables to play
    def fight_or_run(self, table: Table, player: Player, monster: str) -> str: ...  # fight, run or flee
    def helpers(self, table: Table, player: Player, monster: str) -> list[str]: ...
    def plays(self, table: Table, fighters: list[str], monster: str) -> list["Play"]: ...
    def shares(self, table: Table, winners: list[str], monster: str) -> dict[str, tuple[int, int]]: ...
    def keep(self, table: Table, player: Player) -> str | None: ...


def setup(game, names: list[str], chance, decide: Decisions, log=NULL_LOG) -> Table:
    """Shuffle the decks; each player draws a class and the setup items, then equips."""
    n = numbers(game)
    decks = {deck: tuple(chance.shuffle([c.id for c in game.printed_cards(deck)], deck))
             for deck in ("classes", "items", "monsters")}
    table = Table(tuple(Player(name, level=n.start_level) for name in names),
                  items=decks["items"], monsters=decks["monsters"], classes=decks["classes"])
    for name in names:
        if len(table.classes) < n.class_cards_at_setup:
            raise OpenRuleError(f"the class deck has run out for {name}: it holds one card per class "
                                f"while the number of each is open")
        klass, table = table.classes[0], replace(table, classes=table.classes[1:])
        table = table.with_player(replace(table.player(name), klass=klass))
        table = draw_items(table, name, n.items_at_setup)
        log.add("setup", f"{name} draws the {game.card(klass).name} class and {n.items_at_setup} items",
                player=name, klass=klass)
    for name in names:
        gear, weapon = decide.equip(table, table.player(name))
        table = equip(game, table, name, gear, weapon, log)
    return table


def draw_items(table: Table, name: str, count: int) -> Table:
    """``count`` items from the top of the item deck into a player's hand."""
    if count > len(table.items):
        raise OpenRuleError(f"the item deck holds {len(table.items)} card(s), {name} must draw {count}; "
                            "the source does not say what happens when it runs out")
    player = table.player(name)
    return replace(table, items=table.items[count:]).with_player(replace(player, hand=player.hand + table.items[:count]))


def equip(game, table: Table, name: str, gear: str | None, weapon: str | None, log=NULL_LOG) -> Table:
    """Put gear and a weapon from the hand into the player's one gear slot and one weapon slot."""
    player = table.player(name)
    hand = list(player.hand)
    for card_id, kind in ((gear, "gear"), (weapon, "weapon")):
        if card_id is None:
            continue
        if card_id not in hand:
            raise RuleError(f"{name} has no {card_id} in hand")
        card = game.card(card_id)
        if card.type != kind:
            raise RuleError(f"{card.name} is not a {kind}")
        if getattr(player, kind) is not None:
            raise RuleError(f"{name} already has {kind} equipped (one at a time)")
        if kind == "weapon" and player.klass not in {str(c) for c in _known(card, "classes")}:
            raise RuleError(f"{game.card(player.klass).name}s may not use {card.name}")
        hand.remove(card_id)
        player = replace(player, **{kind: card_id})
        log.add("equip", f"{name} equips {card.name}", player=name, card=card_id)
    return table.with_player(replace(player, hand=tuple(hand)))


# -- a turn, step by step -------------------------------------------------------------


def start_turn(game, table: Table, decide: Decisions, rulings: Rulings = Rulings(), log=NULL_LOG) -> Table:
    """Step 1: repair damaged gear and play non-combat consumables.

    Equipping into an empty slot is offered here only under the ruling
    ``equip_after_setup``: the source says when to equip only for setup.
    """
    player = table.turn_player
    if player.gear_damaged and decide.repair(table, player):
        table = table.with_player(replace(player, gear_damaged=False))
        log.add("repair", f"{player.name} repairs {game.card(player.gear).name}", player=player.name)
    if rulings.equip_after_setup:
        player = table.turn_player
        gear, weapon = decide.equip(table, player)
        table = equip(game, table, player.name, gear if player.gear is None else None,
                      weapon if player.weapon is None else None, log)
    for card_id in decide.prepare(table, table.turn_player):
        table = play_level_card(game, table, table.turn_player.name, card_id, log)
    return table


def play_level_card(game, table: Table, name: str, card_id: str, log=NULL_LOG) -> Table:
    """A non-combat consumable that gives levels (Level Up); it cannot bring anyone to the win level."""
    n = numbers(game)
    player = table.player(name)
    card = game.card(card_id)
    if card_id not in player.hand:
        raise RuleError(f"{name} has no {card.name} in hand")
    levels = _known(card, "levels")
    if not levels:
        raise RuleError(f"{card.name} is not played outside a fight")
    if player.level >= n.win_level - 1:
        raise RuleError(f"{card.name} cannot be played at level {player.level}: "
                        f"level {n.win_level} comes only from defeating a monster")
    level = gain(player.level, levels, n, may_win=False)
    hand = list(player.hand)
    hand.remove(card_id)
    log.add("level", f"{name} plays {card.name}: level {player.level} -> {level}", player=name, level=level)
    table = table.with_player(replace(player, level=level, hand=tuple(hand)))
    return replace(table, item_discard=(card_id,) + table.item_discard)


def draw_monster(table: Table, rulings: Rulings, chance, log=NULL_LOG) -> tuple[Table, str]:
    """Step 2: the turn's monster comes into play."""
    if not table.monsters:
        if not table.monster_discard:
            raise OpenRuleError("the monster deck is empty (the source lists no monsters)")
        rulings.need("reshuffle_empty_decks")
        table = replace(table, monsters=tuple(chance.shuffle(list(table.monster_discard), "monsters")),
                        monster_discard=())
    monster = table.monsters[0]
    return replace(table, monsters=table.monsters[1:]), monster


@dataclass(frozen=True)
class Escape:
    how: str  # "fight" (chose to), "auto-run", "roll", "flee"
    escaped: bool
    roll: int | None = None


def run_away(game, table: Table, name: str, how: str, chance, rulings: Rulings = Rulings(),
             log=NULL_LOG) -> tuple[Table, Escape]:
    """Step 3: ``how`` is "fight", "run" (automatic below the auto-run level, else roll) or "flee" (discard the hand)."""
    n = numbers(game)
    player = table.player(name)
    if how == "fight":
        return table, Escape("fight", False)
    if how == "flee":
        if not player.hand and not rulings.need("flee_with_empty_hand"):
            raise RuleError(f"{name} has no cards to discard and may not flee")
        log.add("flee", f"{name} discards {len(player.hand)} card(s) and flees", player=name)
        table = replace(table, item_discard=player.hand[::-1] + table.item_discard)
        return table.with_player(replace(player, hand=())), Escape("flee", True)
    if how != "run":
        raise RuleError(f"'{how}' is not fight, run or flee")
    if player.level < n.auto_run_below_level:
        log.add("run", f"{name} (level {player.level}, under {n.auto_run_below_level}) runs away freely", player=name)
        return table, Escape("auto-run", True)
    total, _ = n.run_roll.roll(chance, f"{name} runs")
    escaped = total >= player.level
    log.add("run", f"{name} rolls {total} on {n.run_roll} against level {player.level}: "
                   + ("gets away" if escaped else "caught, must fight"), player=name, roll=total, escaped=escaped)
    return table, Escape("roll", escaped, total)


@dataclass(frozen=True)
class Play:
    """A consumable played during a fight by ``by`` on a fighter or on the monster."""

    card: str
    by: str
    on: str  # a player's name or MONSTER


@dataclass(frozen=True)
class Fight:
    monster: str
    fighters: tuple[str, ...]  # the turn's player first, then helpers
    side: int
    monster_side: int
    outcome: str  # "won" or "lost"


def fight(game, table: Table, monster: str, fighters: list[str], plays: list[Play] = (),
          rulings: Rulings = Rulings(), log=NULL_LOG) -> tuple[Table, Fight]:
    """Step 4: both sides' attack points, compared; played cards go to the discard."""
    m = game.card(monster)
    fighters = list(dict.fromkeys(fighters))
    effects: dict[str, list[Fraction]] = {who: [] for who in (*fighters, MONSTER)}
    bonuses: dict[str, int] = {who: 0 for who in fighters}
    for play in plays:
        table = _play_card(game, table, play, fighters, effects, bonuses, log)
    side = 0
    for who in fighters:
        player = table.player(who)
        points = player_attack(game, player, effects[who], bonuses[who])
        side += points
        log.add("attack", f"{who}: {formula_text(player.level, _weapon_bonus(game, player), _standing(player) + tuple(effects[who]), bonuses[who])} AP",
                player=who, points=points)
    monster_side = monster_attack_points(_known(m, "attack"), effects[MONSTER])
    log.add("attack", f"{m.name}: {monster_side} AP", monster=monster, points=monster_side)
    if side == monster_side:
        outcome = "won" if rulings.need("tie") == "player" else "lost"
    else:
        outcome = "won" if side > monster_side else "lost"
    log.add("fight", f"{' and '.join(fighters)} {outcome} against {m.name}, {side} to {monster_side}",
            outcome=outcome, side=side, monster_side=monster_side)
    return table, Fight(monster, tuple(fighters), side, monster_side, outcome)


def _play_card(game, table, play: Play, fighters, effects, bonuses, log) -> Table:
    card = game.card(play.card)
    player = table.player(play.by)
    if play.card not in player.hand:
        raise RuleError(f"{play.by} has no {card.name} in hand")
    if card.type != "consumable":
        raise RuleError(f"{card.name} is not a consumable")
    if play.on != MONSTER and play.on not in fighters:
        raise RuleError(f"{play.on} is not in this fight")
    if play.by not in fighters and not _known(card, "backstab"):
        raise RuleError(f"{card.name} has no backstab mark: only fighters may play it")
    if card.get("levels"):
        raise RuleError(f"{card.name} is played outside fights")
    if card.get("bonus") is not None:
        if play.on == MONSTER or play.by not in fighters:
            raise RuleError(f"{card.name} adds to a fighter's own attack; it is never played against anyone")
        bonuses[play.on] += _known(card, "bonus")
    elif card.get("attack_multiplier") is not None:
        effects[play.on].append(multiplier(_known(card, "attack_multiplier")))
    else:
        _known(card, "effect")
        raise RuleError(f"{card.name} has no effect the rules can play")
    hand = list(player.hand)
    hand.remove(play.card)
    log.add("play", f"{play.by} plays {card.name} on {'the monster' if play.on == MONSTER else play.on}",
            card=play.card, by=play.by, on=play.on)
    table = table.with_player(replace(player, hand=tuple(hand)))
    return replace(table, item_discard=(play.card,) + table.item_discard)


def win(game, table: Table, result: Fight, shares: dict[str, tuple[int, int]] | None = None,
        chance=None, rulings: Rulings = Rulings(), log=NULL_LOG) -> Table:
    """Step 5 after a win: XP and treasure, split between the winners up to the card's numbers.

    A lone fighter takes all; ``shares`` maps each winner to (levels, items).
    Only the turn's player, on their own turn, may reach the win level.
    """
    n = numbers(game)
    m = game.card(result.monster)
    xp, treasure = _known(m, "xp"), _known(m, "treasure")
    if shares is None:
        if len(result.fighters) > 1:
            raise RuleError("winners who fought together must say how they share the reward")
        shares = {result.fighters[0]: (xp, treasure)}
    if set(shares) - set(result.fighters):
        raise RuleError(f"only the fighters share the reward, not {', '.join(sorted(set(shares) - set(result.fighters)))}")
    if sum(s[0] for s in shares.values()) > xp or sum(s[1] for s in shares.values()) > treasure:
        raise RuleError(f"{m.name} gives {xp} XP and {treasure} treasure in all; the shares add up to more")
    for who, (levels, items) in shares.items():
        player = table.player(who)
        own_turn = who == table.turn_player.name
        level = gain(player.level, levels, n, may_win=own_turn)
        table = draw_treasure(table.with_player(replace(player, level=level)), who, items, chance, rulings)
        log.add("reward", f"{who}: level {player.level} -> {level}, draws {items} item(s)",
                player=who, level=level, items=items)
        if own_turn and level >= n.win_level:
            log.add("victory", f"{who} reaches level {level} and wins", player=who)
            table = replace(table, winner=who)
    return table


def draw_treasure(table: Table, name: str, count: int, chance, rulings: Rulings) -> Table:
    if count > len(table.items) and rulings.need("reshuffle_empty_decks"):
        table = replace(table, items=table.items + tuple(chance.shuffle(list(table.item_discard), "items")),
                        item_discard=())
    return draw_items(table, name, min(count, len(table.items)))


def lose(game, table: Table, result: Fight, decide: Decisions | None = None, rulings: Rulings = Rulings(),
         log=NULL_LOG) -> Table:
    """Step 5 after a loss: every fighter takes the monster's full damage and effect."""
    n = numbers(game)
    m = game.card(result.monster)
    damage = _known(m, "damage")
    piercing = bool(_known(m, "armour_piercing", False))
    effect = m.get("effect_multiplier")
    for who in result.fighters:
        player = table.player(who)
        durability = _known(game.card(player.gear), "durability") if player.gear else None
        hit = absorb(damage, durability, player.gear_damaged, piercing, rulings)
        if hit.gear == "broken":
            table = replace(table, item_discard=(player.gear,) + table.item_discard)
            player = replace(player, gear=None, gear_damaged=False)
        elif hit.gear == "damaged":
            player = replace(player, gear_damaged=True)
        level = player.level - hit.to_player
        log.add("damage", f"{who} takes {damage}{' armour-piercing' if piercing else ''}: gear absorbs {hit.absorbed} "
                          f"({hit.gear}), {hit.to_player} to {who}: level {player.level} -> {level}",
                player=who, absorbed=hit.absorbed, to_player=hit.to_player, gear=hit.gear, level=level)
        player = replace(player, level=level)
        if effect is not None:
            player = replace(player, effects=player.effects + (
                Effect(m.name, multiplier(_known(m, "effect_multiplier")), table.round + 1),))
        table = table.with_player(player)
        if is_dead(level, n):
            keep = decide.keep(table, player) if decide is not None and player.hand else None
            table = die(game, table, who, keep, rulings, log)
    return table


def die(game, table: Table, name: str, keep: str | None, rulings: Rulings = Rulings(), log=NULL_LOG) -> Table:
    """Below the minimum attack points: keep one card, discard the rest and the equipment, start again."""
    n = numbers(game)
    player = table.player(name)
    hand = list(player.hand)
    kept: list[str] = []
    if keep is not None:
        if keep not in hand:
            raise RuleError(f"{name} has no {keep} in hand to keep")
        hand.remove(keep)
        kept = [keep]
    if len(kept) < min(n.cards_kept_on_death, len(player.hand)):
        raise RuleError(f"{name} keeps {n.cards_kept_on_death} card; say which")
    gone = tuple(hand) + tuple(c for c in (player.gear, player.weapon) if c)
    effects = () if player.effects and rulings.need("effects_end_on_death") else player.effects
    log.add("death", f"{name} dies (below {n.min_attack_points} AP): keeps {', '.join(kept) or 'nothing'}, discards "
                     f"{len(gone)} card(s), starts again at level {n.start_level} as a {game.card(player.klass).name}",
            player=name, kept=kept, discarded=list(gone))
    table = table.with_player(replace(player, level=n.start_level, hand=tuple(kept), gear=None, gear_damaged=False,
                                      weapon=None, effects=effects))
    return replace(table, item_discard=gone[::-1] + table.item_discard)


def end_turn(table: Table, monster: str | None, log=NULL_LOG) -> Table:
    """The monster leaves play; the next player's turn; a round ends when every player has had one."""
    if monster is not None:
        table = replace(table, monster_discard=(monster,) + table.monster_discard)
    active = (table.active + 1) % len(table.players)
    if active:
        return replace(table, active=active)
    players = tuple(replace(p, effects=tuple(e for e in p.effects if e.until_round > table.round))
                    for p in table.players)
    log.add("round", f"round {table.round} ends", round=table.round)
    return replace(table, players=players, active=0, round=table.round + 1)


def play_turn(game, table: Table, decide: Decisions, chance, rulings: Rulings = Rulings(), log=NULL_LOG) -> Table:
    """One player's whole turn, the five steps in order."""
    table = start_turn(game, table, decide, rulings, log)
    table, monster = draw_monster(table, rulings, chance, log)
    player = table.turn_player
    log.add("monster", f"{player.name} draws {game.card(monster).name}", player=player.name, monster=monster)
    table, escape = run_away(game, table, player.name, decide.fight_or_run(table, player, monster), chance, rulings, log)
    if not escape.escaped:
        fighters = [player.name] + [h for h in decide.helpers(table, player, monster) if h != player.name]
        table, result = fight(game, table, monster, fighters, decide.plays(table, fighters, monster), rulings, log)
        if result.outcome == "won":
            shares = decide.shares(table, fighters, monster) if len(fighters) > 1 else None
            table = win(game, table, result, shares, chance, rulings, log)
        else:
            table = lose(game, table, result, decide, rulings, log)
    return end_turn(table, monster, log)
