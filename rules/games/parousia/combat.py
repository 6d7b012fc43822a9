"""The combat phase: turn order, players' D20 volleys, enemies' attacks, bosses' HP,
and what happens when a fight ends."""
from __future__ import annotations

from typing import Sequence

from deckwright.rules.engine.errors import RuleError

from .chances import accuracy_hits, shot_hits
from .pickups import clamp_hearts, drop_deck_card, hurt, item_charge, raise_counter
from .state import Fight, Foe, Player, State, Thing

# -- starting and ordering -------------------------------------------------------------


def start_fight(state: State, foes: Sequence[tuple[Thing, str]], boss: bool, log, drawn: bool = False) -> None:
    """Puts enemies (or a boss) in the combat area; each comes with the deck it returns to. A foe ``drawn``
    from its deck already is out of it; another one's card is taken out of its deck when the deck holds it."""
    if state.fight is not None:
        raise RuleError("a combat phase is already going on")
    fight = Fight([], boss)
    taken: set[str] = set()
    for thing, deck in foes:
        pile = state.piles.get(deck, [])
        if drawn:
            pass
        elif thing.id in pile:  # the room names the enemy; its card comes out of the enemy deck when it is there
            pile.remove(thing.id)
        else:  # an enemy no deck holds (an example's own): it comes into play from outside the counted piles
            state.created += (thing.id,)
        key, n = thing.id, 2
        while key in taken:
            key, n = f"{thing.id}-{n}", n + 1
        taken.add(key)
        fight.foes.append(Foe(key, thing, thing.type == "boss", hp=thing.get("hp", 0) if thing.type == "boss" else 0,
                              deck=deck, origin=thing.id))
    state.fight = fight
    if log:
        log.add("fight", boss=boss, foes=[f.key for f in fight.foes], names=[f.thing.name for f in fight.foes],
                order=turn_order(state))


def turn_order(state: State) -> list[str]:
    """Decreasing speed, every character with charge after every one without; on equal terms
    players go before enemies, each side in the order it was listed."""
    entries = [(p.charges_attack, -p.stat("speed"), 0, i, p.name) for i, p in enumerate(state.players)]
    if state.fight is not None:
        entries += [(f.charges_attack, -f.speed, 1, i, f.key) for i, f in enumerate(state.fight.foes) if f.alive]
    return [entry[-1] for entry in sorted(entries)]


def foe(state: State, key: str) -> Foe:
    fight = need_fight(state)
    for f in fight.foes:
        if f.key == key:
            return f
    raise RuleError(f"no enemy '{key}' in this fight (there are: {', '.join(f.key for f in fight.foes)})")


def need_fight(state: State) -> Fight:
    if state.fight is None:
        raise RuleError("there is no combat phase going on")
    return state.fight


def foes_left(state: State) -> list[Foe]:
    return [f for f in state.fight.foes if f.alive] if state.fight else []


# -- players ---------------------------------------------------------------------------


def player_roll(state: State, player: Player, target: Foe, chance, log) -> tuple[int, bool]:
    """One D20 at one target: a hit when roll + damage meets the resilience (or the boss's evasiveness)."""
    damage = player.stat("damage")
    roll = chance.roll(state.rules.die, f"{player.name} shoots at {target.key}")
    hit = shot_hits(roll, damage, target.defense)
    word = "evasiveness" if target.boss else "resilience"
    if log:
        log.add("shot", player=player.name, target=target.key, roll=roll, damage=damage, against=word,
                defense=target.defense, hit=hit)
    if hit:
        wound(state, target, damage, log)
    return roll, hit


def wound(state: State, target: Foe, damage: int, log) -> None:
    """A hit: a boss loses HP equal to the damage; an enemy takes its next form or dies."""
    if target.boss:
        target.hp = max(target.hp - damage, 0)
        if target.hp == 0:
            target.alive = False
        if log:
            log.add("boss", foe=target.key, name=target.thing.name, damage=damage, hp=target.hp,
                    defeated=not target.alive)
        return
    nxt = target.thing.get("next_form")
    if nxt:
        target.thing = state.thing(str(nxt))
        if log:
            log.add("form", foe=target.key, form=target.thing.id, name=target.thing.name)
    else:
        target.alive = False
        if log:
            log.add("kill", foe=target.key)


def end_turn(state: State, player: Player, log) -> None:
    """Counts down effects that last a number of the player's turns."""
    for effect in list(player.effects):
        if effect.lasts == "turns":
            effect.turns_left -= 1
            if effect.turns_left <= 0:
                player.effects.remove(effect)
                clamp_hearts(state, player, log)
                if log:
                    log.add("wears-off", player=player.name, card=effect.source)


def skip(state: State, player: Player, log) -> None:
    need_fight(state)
    if log:
        log.add("no-shot", player=player.name)
    state.last = {"rolls": [], "hits": 0, "misses": 0}
    end_turn(state, player, log)


# -- enemies ---------------------------------------------------------------------------


def slowest_player(state: State) -> Player:
    """Enemies go for the slowest character (the first listed on equal speed), not the last to act."""
    return min(state.players, key=lambda p: p.stat("speed"))


def foe_turn(state: State, attacker: Foe, chance, log) -> None:
    """An enemy's turn: an accuracy shot if it has accuracy, then contact damage if it is faster
    than its target and has not hurt that target this turn."""
    if not attacker.alive:
        raise RuleError(f"{attacker.key} is dead")
    target = slowest_player(state)
    speed = target.stat("speed")
    damaged = False
    record = {"foe": attacker.key, "target": target.name, "accuracy_hit": False, "contact": False}
    if attacker.accuracy is not None:
        roll = chance.roll(state.rules.die, f"{attacker.key}'s accuracy against {target.name}")
        hit = accuracy_hits(roll, attacker.accuracy, speed)
        record.update(roll=roll, accuracy_hit=hit)
        if log:
            log.add("foe-shot", foe=attacker.key, target=target.name, accuracy=attacker.accuracy, roll=roll,
                    speed=speed, hit=hit)
        if hit:
            damaged = hurt_and_tell(state, target, log, contact=False)
    if attacker.speed > speed and not damaged:
        record["contact"] = True
        if log:
            log.add("contact", foe=attacker.key, speed=attacker.speed, target=target.name, target_speed=speed)
        hurt_and_tell(state, target, log, contact=True)
    state.last = record


def hurt_and_tell(state: State, player: Player, log, contact: bool) -> bool:
    """A hit of damage; True when the player actually lost a heart."""
    before = (player.soul_hearts, player.black_hearts, player.counters["hearts"])
    hurt(state, player, 1, log, contact=contact)
    return before != (player.soul_hearts, player.black_hearts, player.counters["hearts"])


# -- a whole round ---------------------------------------------------------------------


def play_round(state: State, targets: dict[str, Sequence[str]], chance, log) -> None:
    """Every character in turn order; players shoot at the targets given for them (a player given none, or
    who cannot shoot, lets the turn pass). A round is a script of many turns, so a player's roll goes to the
    first listed target still standing: one that fell earlier in the round is passed over."""
    need_fight(state)
    unknown = set(targets) - {p.name for p in state.players}
    if unknown:
        raise RuleError(f"no player named {', '.join(sorted(unknown))}")
    turns = {}
    for name in turn_order(state):
        if not foes_left(state):
            break
        if any(p.name == name for p in state.players):
            player = state.player(name)
            standing = [key for key in targets.get(name, ()) if foe(state, key).alive]
            if standing and not player.has("no-shooting"):
                _volley(state, player, standing, chance, log)
            else:
                skip(state, player, log)
        else:
            attacker = foe(state, name)
            if not attacker.alive:
                continue
            foe_turn(state, attacker, chance, log)
        turns[name] = state.last
    state.last = turns


def shoot(state: State, player: Player, targets: Sequence[str], chance, log) -> None:
    """One turn of a player: a D20 per point of tears, each at a chosen target; the last target
    named keeps being shot at while rolls remain."""
    need_fight(state)
    if player.has("no-shooting"):
        raise RuleError(f"{player.name} cannot shoot now")
    rolls = player.stat("tears")
    if not targets:
        raise RuleError(f"{player.name} names no target")
    if len(targets) > rolls:
        raise RuleError(f"{player.name} has {rolls} roll(s) (tears), the action names {len(targets)} targets")
    faces, hits = [], 0
    for number in range(rolls):
        if not foes_left(state):
            break
        key = targets[number] if number < len(targets) else targets[-1]
        target = foe(state, key)
        if not target.alive:
            if number >= len(targets):
                raise RuleError(f"{player.name} has {rolls - number} roll(s) left and {key} is dead; name the next targets")
            raise RuleError(f"{key} is already dead")
        face, hit = player_roll(state, player, target, chance, log)
        faces.append(face)
        hits += hit
    state.last = {"rolls": faces, "hits": hits, "misses": len(faces) - hits}
    end_turn(state, player, log)


def _volley(state: State, player: Player, targets: Sequence[str], chance, log) -> None:
    """A player's turn in a round: each roll at the first of ``targets`` still standing."""
    faces, hits = [], 0
    for _ in range(player.stat("tears")):
        standing = [foe(state, key) for key in targets if foe(state, key).alive]
        if not standing:
            break
        face, hit = player_roll(state, player, standing[0], chance, log)
        faces.append(face)
        hits += hit
    state.last = {"rolls": faces, "hits": hits, "misses": len(faces) - hits}
    end_turn(state, player, log)


# -- the end of a fight ----------------------------------------------------------------


def end_fight(state: State, log) -> None:
    """A random pickup drops, every activated item gains charge, fight-long effects end,
    and the enemies go to the bottom of their decks."""
    fight = need_fight(state)
    if foes_left(state):
        raise RuleError(f"the fight is not over: {', '.join(f.key for f in foes_left(state))} still stand")
    for f in fight.foes:
        if f.deck:
            state.piles.setdefault(f.deck, []).append(f.origin)
    state.fight = None
    if log:
        log.add("fight-over")
    for _ in range(state.rules.pickups_per_fight):
        drop_deck_card(state, log, "end of the fight")
    for player in state.players:
        if player.activated and item_charge(state, player) is None:
            if log:
                log.add("charge-open", player=player.name)
        elif player.activated:
            added = raise_counter(state, player, "item-charge", state.rules.charge_per_fight, None)
            if log:
                log.add("charge", player=player.name, added=added, charge=player.counters["item-charge"],
                        of=item_charge(state, player))
        kept = [e for e in player.effects if e.lasts != "combat"]
        if len(kept) != len(player.effects):
            player.effects = kept
            clamp_hearts(state, player, log)
    state.boss_beaten = fight.boss
