"""Gloombah!'s setup and the five steps of a turn, as pure functions on a Table.

1. repair damaged gear, play non-combat consumables; 2. draw a monster;
3. fight, run or flee; 4. the fight, with helpers and backstabbers;
5. the reward or the damage. Then the next player's turn; a round ends when
every player has had one.

Readings we take where the source is unclear are in the game's ``open_questions``:
a helper's attack points add to the fighting side, several multipliers
multiply, breaking gear absorbs its durability, a monster's attack under
effects rounds up, and level gains other than an own-turn win stop one short
of the win level. Rules with no reading at all are ``Rulings``.
"""
from __future__ import annotations

from fractions import Fraction

from deckwright.rules.engine.errors import RuleError
from deckwright.rules.engine.frozen import replace
from deckwright.rules.engine.log import NULL_LOG
from deckwright.rules.engine.openvalues import OpenRuleError, known

from .cards import card_value, effect_of, player_attack, standing, weapon_bonus, worn_from_card
from .formula import AtLeast, absorb, gain, is_dead, monster_attack_points, multiplier
from .numbers import Rules
from .rulings import Rulings
from .state import MONSTER, Escape, Fight, Monster, Play, Player, Table, monster_from_card


def _fraction(value: Fraction) -> list[int]:
    """A multiplier as event data: [numerator, denominator]."""
    return [value.numerator, value.denominator]


# -- setup -------------------------------------------------------------------------------


def deal(rules: Rules, names: list[str], chance, log=NULL_LOG) -> Table:
    """Shuffle the decks; each player draws a class card, then the setup items."""
    game = rules.game
    decks = {deck: chance.shuffle(list(game.deck_cards(deck)), deck) for deck in ("classes", "items", "monsters")}
    table = Table(tuple(Player(name, level=rules.start_level) for name in names), items=tuple(decks["items"]),
                  monsters=tuple(monster_from_card(game.card(m)) for m in decks["monsters"]),
                  classes=tuple(decks["classes"]))
    for name in names:
        if len(table.classes) < rules.class_cards_at_setup:
            raise OpenRuleError(f"the class deck has run out for {name}: how many of each class it holds is open")
        klass, table = table.classes[0], replace(table, classes=table.classes[1:])
        table = draw_items(table.with_player(replace(table.player(name), klass=klass)), name, rules.items_at_setup)
        log.add("setup", player=name, klass=klass, items=rules.items_at_setup)
    return table


def draw_items(table: Table, name: str, count: int) -> Table:
    """``count`` items from the top of the item deck into a player's hand."""
    if count > len(table.items):
        raise OpenRuleError(f"the item deck holds {len(table.items)} card(s) and {name} must draw {count}; "
                            "the source does not say what happens when it runs out")
    player = table.player(name)
    return replace(table, items=table.items[count:]).with_player(replace(player, hand=player.hand + table.items[:count]))


def equip(rules: Rules, table: Table, name: str, card_id: str, log=NULL_LOG) -> Table:
    """Gear or a weapon from the hand into the player's (single) empty slot for it."""
    player = table.player(name)
    card = rules.card(card_id)
    worn = worn_from_card(card)
    slot = card.type
    if getattr(player, slot) is not None:
        raise RuleError(f"{name} already has {getattr(player, slot).name} equipped (one {slot} at a time)")
    if slot == "weapon" and player.klass not in worn.classes:
        klass = rules.name(player.klass) if player.klass else "a player without a class"
        raise RuleError(f"{card.name} is not for {klass} (allowed: {', '.join(worn.classes)})")
    log.add("equip", player=name, card=card_id)
    return table.with_player(replace(player.without(card_id), **{slot: worn}))


# -- step 1 --------------------------------------------------------------------------------


def repair(table: Table, name: str, log=NULL_LOG) -> Table:
    player = table.player(name)
    if player.gear is None or not player.gear.damaged:
        raise RuleError(f"{name} has no damaged gear to repair")
    log.add("repair", player=name, gear=player.gear.name)
    return table.with_player(replace(player, gear=replace(player.gear, damaged=False)))


def play_level_card(rules: Rules, table: Table, name: str, card_id: str, log=NULL_LOG) -> Table:
    """A non-combat consumable that gives levels (Level Up); it cannot bring anyone to the win level."""
    card = rules.card(card_id)
    player = table.player(name).without(card_id)
    levels = card_value(card, "levels")
    if not levels:
        raise RuleError(f"{card.name} is not played outside a fight")
    if player.level >= rules.win_level - 1:
        raise RuleError(f"{card.name} cannot be played at level {player.level}: "
                        f"level {rules.win_level} comes only from defeating a monster")
    level = gain(player.level, levels, rules, may_win=False)
    log.add("level", player=name, card=card_id, before=player.level, level=level)
    return table.with_player(replace(player, level=level)).discard(card_id)


# -- step 2 --------------------------------------------------------------------------------


def draw_monster(table: Table, rulings: Rulings, chance, log=NULL_LOG) -> tuple[Table, Monster]:
    if not table.monsters:
        if not table.monster_discard:
            raise OpenRuleError("the monster deck is empty (the source lists no monsters)")
        rulings.need("reshuffle_empty_decks")
        order = chance.shuffle(list(table.monster_discard), "monsters")
        table = replace(table, monsters=tuple(order), monster_discard=())
    monster = table.monsters[0]
    log.add("monster", player=table.turn_player.name, monster=monster.id, name=monster.name)
    return replace(table, monsters=table.monsters[1:], fighting=monster), monster


# -- step 3 --------------------------------------------------------------------------------


def run_away(rules: Rules, table: Table, name: str, how: str, chance, rulings: Rulings = Rulings(),
             log=NULL_LOG) -> tuple[Table, Escape]:
    """``how``: "fight", "run" (free below the auto-run level, else a roll) or "flee" (discard the hand)."""
    player = table.player(name)
    if how == "fight":
        log.add("fights", player=name)
        return table, Escape("fight", False)
    if how == "flee":
        if not player.hand and not rulings.need("flee_with_empty_hand"):
            raise RuleError(f"{name} has no cards to discard and may not flee")
        log.add("flee", player=name, cards=len(player.hand))
        return table.with_player(replace(player, hand=())).discard(*player.hand), Escape("flee", True)
    if how != "run":
        raise RuleError(f"'{how}' is not fight, run or flee")
    if player.level < rules.auto_run_below_level:
        log.add("runs-free", player=name, level=player.level)
        return table, Escape("auto-run", True)
    total, _ = rules.run_roll.roll(chance, f"{name} runs")
    escaped = total >= player.level
    log.add("run", player=name, roll=total, level=player.level, escaped=escaped)
    return table, Escape("roll", escaped, total)


# -- step 4 --------------------------------------------------------------------------------


def play_in_fight(rules: Rules, table: Table, play: Play, fighters: tuple[str, ...], log=NULL_LOG) -> Table:
    """A consumable from a hand into the fight, checked against the backstab rule."""
    card = rules.card(play.card)
    player = table.player(play.by).without(play.card)
    if card.type != "consumable":
        raise RuleError(f"{card.name} is not a consumable")
    if play.on != MONSTER and play.on not in fighters:
        raise RuleError(f"{play.on} is not in this fight")
    if play.by not in fighters and not card_value(card, "backstab"):
        raise RuleError(f"{card.name} has no backstab mark: only the fighters may play it")
    if card.get("levels"):
        raise RuleError(f"{card.name} is played outside fights")
    if card.get("bonus") is not None and (play.on == MONSTER or play.by not in fighters):
        raise RuleError(f"{card.name} adds to a fighter's attack; it is never played against anyone")
    if card.get("bonus") is None and card.get("attack_multiplier") is None:
        card_value(card, "effect")  # an open effect stops here with its note
        raise RuleError(f"{card.name} has no effect the rules can play")
    card_value(card, "bonus" if card.get("bonus") is not None else "attack_multiplier")
    log.add("play", card=play.card, by=play.by, on=play.on)
    return replace(table.with_player(player), in_play=table.in_play + (play.card,))


def fight(rules: Rules, table: Table, monster: Monster, fighters: tuple[str, ...], plays: tuple[Play, ...] = (),
          rulings: Rulings = Rulings(), log=NULL_LOG) -> Fight:
    """Both sides' attack points, compared. The fighters' points add up."""
    effects: dict[str, list[Fraction]] = {who: [] for who in (*fighters, MONSTER)}
    bonuses: dict[str, int] = {who: 0 for who in fighters}
    for play in plays:
        card = rules.card(play.card)
        if card.get("bonus") is not None:
            bonuses[play.on] += card_value(card, "bonus")
        else:
            effects[play.on].append(multiplier(card_value(card, "attack_multiplier")))
    side = 0
    for who in fighters:
        player = table.player(who)
        points = player_attack(player, effects[who], bonuses[who])
        side += points
        log.add("attack", player=who, level=player.level, weapon=weapon_bonus(player),
                multipliers=[_fraction(m) for m in standing(player) + tuple(effects[who])], bonus=bonuses[who],
                points=points)
    monster_side = monster_attack_points(known(monster.attack, f"{monster.name}'s attack"), effects[MONSTER])
    log.add("monster-attack", monster=monster.id, name=monster.name, points=monster_side)
    outcome = fight_outcome(side, monster_side, rulings)
    log.add("fight", fighters=list(fighters), outcome=outcome, name=monster.name, side=side, monster_side=monster_side)
    return Fight(monster.name, fighters, side, monster_side, outcome)


def fight_outcome(side: int, monster_side: int, rulings: Rulings = Rulings()) -> str:
    """"won" or "lost": the higher attack points win; a tie needs the ruling the source leaves open."""
    if side == monster_side:
        return "won" if rulings.need("tie") == "player" else "lost"
    return "won" if side > monster_side else "lost"


# -- step 5 --------------------------------------------------------------------------------


def win(rules: Rules, table: Table, monster: Monster, result: Fight, shares: dict[str, tuple[int, int]] | None = None,
        chance=None, rulings: Rulings = Rulings(), log=NULL_LOG) -> Table:
    """XP and treasure, split between the winners up to the monster's numbers.

    A lone fighter takes all; ``shares`` maps each winner to (levels, items).
    Only the turn's player, on their own turn, may reach the win level.
    """
    xp, treasure = known(monster.xp, f"{monster.name}'s XP"), known(monster.treasure, f"{monster.name}'s treasure")
    if shares is None:
        if len(result.fighters) > 1:
            raise RuleError("winners who fought together say how they share the reward")
        shares = {result.fighters[0]: (xp, treasure)}
    strangers = sorted(set(shares) - set(result.fighters))
    if strangers:
        raise RuleError(f"only the fighters share the reward, not {', '.join(strangers)}")
    if sum(s[0] for s in shares.values()) > xp or sum(s[1] for s in shares.values()) > treasure:
        raise RuleError(f"{monster.name} gives {xp} XP and {treasure} treasure in all; the shares add up to more")
    for who, (levels, _) in sorted(shares.items()):
        before = table.player(who).level
        if who != table.turn_player.name and before + levels >= rules.win_level:
            # readings.yaml, level-12-by-helping: the exchange cannot be agreed (not capped at 11)
            raise RuleError(f"level {rules.win_level} only on one's own turn: {who} at level {before} cannot take "
                            f"{levels} level(s) as a share; agree a smaller one")
    for who in result.fighters:
        levels, items = shares.get(who, (0, 0))
        player = table.player(who)
        own_turn = who == table.turn_player.name
        level = gain(player.level, levels, rules, may_win=own_turn)
        table = draw_treasure(table.with_player(replace(player, level=level)), who, items, chance, rulings)
        log.add("reward", player=who, xp=levels, before=player.level, level=level, items=items,
                capped=level < player.level + levels)
        if own_turn and level >= rules.win_level:
            log.add("victory", player=who, level=level)
            table = replace(table, winner=who)
    return table


def draw_treasure(table: Table, name: str, count: int, chance, rulings: Rulings) -> Table:
    if count > len(table.items) and rulings.need("reshuffle_empty_decks"):
        order = chance.shuffle(list(table.item_discard), "items")
        table = replace(table, items=table.items + tuple(order), item_discard=())
    return draw_items(table, name, min(count, len(table.items)))


def lose(rules: Rules, table: Table, monster: Monster, result: Fight, rulings: Rulings = Rulings(),
         log=NULL_LOG) -> tuple[Table, dict]:
    """Every fighter takes the monster's full damage and effect; returns the table and each one's Hit.

    Players who fall below the minimum attack points are left at that level
    for ``die`` (they choose the card they keep).
    """
    damage = known(monster.damage, f"{monster.name}'s damage")
    effect = effect_of(monster, table.round)
    hits = {}
    for who in result.fighters:
        player = table.player(who)
        gear = player.gear
        hit = absorb(damage, gear.value if gear else None, gear.damaged if gear else False, monster.armour_piercing, rulings)
        hits[who] = hit
        if hit.gear == "broken":
            table = table.discard(gear.card)
            player = replace(player, gear=None)
        elif hit.gear == "damaged":
            player = replace(player, gear=replace(gear, damaged=True))
        level = player.level - hit.to_player
        log.add("damage", player=who, damage=damage, armour_piercing=monster.armour_piercing,
                gear=gear.name if gear else None,
                at_least=gear.value.low if gear and isinstance(gear.value, AtLeast) else None,
                absorbed=hit.absorbed, to_player=hit.to_player, outcome=hit.gear, before=player.level, level=level)
        player = replace(player, level=level)
        if effect is not None:
            player = replace(player, effects=player.effects + (effect,))
            log.add("effect", player=who, effect=effect.name, multiplier=_fraction(effect.multiplier),
                    until_round=effect.until_round)
        table = table.with_player(player)
    return table, hits


def dying(rules: Rules, table: Table, names) -> list[str]:
    return [who for who in names if is_dead(table.player(who).level, rules)]


def die(rules: Rules, table: Table, name: str, keep: str | None, rulings: Rulings = Rulings(), log=NULL_LOG) -> Table:
    """Below the minimum attack points: keep one card, discard the rest and the equipment, start again."""
    player = table.player(name)
    rest = player.without(keep).hand if keep is not None else player.hand
    kept = (keep,) if keep is not None else ()
    if len(kept) < min(rules.cards_kept_on_death, len(player.hand)):
        raise RuleError(f"{name} keeps {rules.cards_kept_on_death} card; say which")
    effects = () if player.effects and rulings.need("effects_end_on_death") else player.effects
    gone = rest + tuple(w.card for w in player.worn if w.card)
    log.add("death", player=name, kept=list(kept), discarded=[*rest, *(w.card or w.name for w in player.worn)],
            klass=player.klass)
    table = table.with_player(replace(player, level=rules.start_level, hand=kept, gear=None, weapon=None,
                                      effects=effects))
    return table.discard(*gone)


def end_turn(table: Table, log=NULL_LOG) -> Table:
    """Played cards and the monster leave play; the next player's turn; the round ends after the last player."""
    table = replace(table, item_discard=table.in_play[::-1] + table.item_discard, in_play=(), fighting=None,
                    monster_discard=(table.fighting,) * bool(table.fighting) + table.monster_discard)
    active = (table.active + 1) % len(table.players)
    if active:
        return replace(table, active=active)
    players = tuple(replace(p, effects=tuple(e for e in p.effects if e.until_round > table.round)) for p in table.players)
    log.add("round", round=table.round)
    return replace(table, players=players, active=0, round=table.round + 1)
