"""Gloombah!'s mechanics: attack points, gear and damage, death, running away, fights with helpers,
rewards, turns and rounds, the level-12 victory.

Pure functions over frozen dataclasses. Every number comes from the game data
(the constants in game.yaml and the cards); every roll and shuffle goes
through the chance object passed in; every step is narrated to the event log.

Readings we take where the source is unclear are listed in the game's
``open_questions`` and implemented here: a helper's attack points add to the
fighting side, several multipliers multiply, breaking gear absorbs its
durability, a monster's attack under effects rounds up, and level gains other
than an own-turn win stop one short of the win level. Rules with no reading
at all are ``Rulings``: play that needs one that was not given stops with an
``OpenRuleError`` quoting the open question, so nothing is guessed silently.

- ``numbers``: the constants and the rulings;
- ``formula``: attack points, run chances, gear against damage, levels;
- ``table``: the state values (players, worn items, monsters, piles);
- ``turn``: setup and the five steps of a turn;
- ``play``: the decision-by-decision protocol for examples and random play.
"""
from .formula import (
                    AtLeast,
                    Hit,
                    absorb,
                    attack_points,
                    formula_text,
                    gain,
                    is_dead,
                    layout_data,
                    monster_attack_points,
                    multiplier,
                    run_chance,
                    run_table,
)
from .numbers import Numbers, OpenRuleError, Rulings, consistency, numbers, rulings_from
from .play import State, apply, is_over, legal_actions, new_game, observe, setup, zones
from .table import (
                    MONSTER,
                    Effect,
                    Escape,
                    Fight,
                    Monster,
                    Play,
                    Player,
                    Table,
                    Worn,
                    cards_on_table,
                    monster_from_card,
                    player_attack,
                    worn_from_card,
)
from .turn import (
                    deal,
                    die,
                    draw_items,
                    draw_monster,
                    end_turn,
                    equip,
                    fight,
                    lose,
                    play_in_fight,
                    play_level_card,
                    repair,
                    run_away,
                    win,
)
