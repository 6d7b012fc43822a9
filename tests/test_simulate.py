"""deckwright simulate: seeded chunks whose figures do not depend on where they ran, the Wilson interval, sweep
grids, Ctrl-C, open content, and the Balance page's numbers against the JSON."""
from __future__ import annotations

import importlib.util
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import default_sigint, need_package

from deckwright.generator.cli import main
from deckwright.rules.sim import session
from deckwright.rules.sim.plan import (
    CHUNK_GAMES,
    GameSource,
    Simulation,
    Sweep,
    chunk_seed,
    chunks,
    pieces,
)
from deckwright.rules.sim.stats import histogram_quantile, wilson

ROOT = Path(__file__).resolve().parent.parent
NH = ROOT / "cards" / "nightmare-hunt"
FIXTURES = ROOT / "tests" / "fixtures"


def simulate(tmp_path, *args: str, name: str = "out.json") -> tuple[int, dict | None]:
    target = tmp_path / name
    status = main(["simulate", *args, "--json", str(target), "--out", str(tmp_path / "output")])
    return status, json.loads(target.read_text()) if target.exists() else None


# -- the figures ------------------------------------------------------------------------------------


def test_wilson_interval_against_hand_computed_values():
    # 0 wins in 10: low 0, high z^2 / (n + z^2) = 3.841459 / 13.841459 = 0.277533
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.277533, abs=1e-6)
    # 50 of 100: centred on 0.5, half-width z * sqrt(0.0025 + z^2/40000) / (1 + z^2/100)
    #   = 1.959964 * 0.0509514 / 1.0384146 = 0.096169
    low, high = wilson(50, 100)
    assert (low, high) == (pytest.approx(0.403831, abs=1e-6), pytest.approx(0.596169, abs=1e-6))
    # 3 of 20 (p = 0.15, z^2/n = 0.192073): centre (0.15 + 0.096037) / 1.192073 = 0.206395,
    #   half 1.959964 * sqrt(0.006375 + 0.0024009) / 1.192073 = 0.154025
    low, high = wilson(3, 20)
    assert (low, high) == (pytest.approx(0.052370, abs=2e-6), pytest.approx(0.360420, abs=2e-6))
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("values", [[5], [1, 2], [3, 1, 2, 9], [7, 7, 7, 1, 30, 2, 2, 8, 11]])
def test_quartiles_of_a_histogram_match_the_statistics_module(values):
    histogram = {v: values.count(v) for v in set(values)}
    expected = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
    assert [histogram_quantile(histogram, q) for q in (0.25, 0.5, 0.75)] == pytest.approx(expected)


def test_chunk_seeds_depend_on_the_seed_and_the_chunk_number_only():
    plan = Simulation(GameSource(str(NH)), 250, 7, "heuristic", sweeps=(Sweep("level", (1, 2)),))
    work = chunks(plan)
    assert [(c.cell, c.number, c.games) for c in work] == [(0, 0, 100), (1, 0, 100), (0, 1, 100),
                                                            (1, 1, 100), (0, 2, 50), (1, 2, 50)]
    assert [c.seed for c in work[::2]] == [c.seed for c in work[1::2]] == [chunk_seed(7, n) for n in range(3)]
    assert chunk_seed(7, 0) != chunk_seed(8, 0) and CHUNK_GAMES == 100


def test_chunks_cut_into_pieces_play_the_same_games():
    """The work is cut finer towards its end (the last piece a single game), so that no worker idles while another
    plays a long last piece; a piece keeps its games' seeds, so the merged figures are the chunks' own."""
    from deckwright.rules.sim.tally import summary
    from deckwright.rules.sim.worker import prepared, run_chunk
    plan = Simulation(GameSource(str(NH)), 130, 5, "heuristic", sweeps=(Sweep("level", (1, 2)),))
    work = chunks(plan)
    cut = pieces(work, 2)
    assert len(work) == 4 and len(cut) > 2 * 4 and cut[0].games > cut[-1].games == 1
    seeds = {(c.cell, c.seed + i) for c in work for i in range(c.games)}
    assert sorted((p.cell, p.seed + i) for p in cut for i in range(p.games)) == sorted(seeds)
    many = chunks(Simulation(GameSource(str(NH)), 2_000, 5, "heuristic"))
    assert pieces(many, 2)[:12] == many[:12]  # while much work is left, whole chunks
    game = prepared(plan.source).game
    assert summary(plan, game, [run_chunk(p) for p in reversed(cut)]) == summary(plan, game, map(run_chunk, work))


def test_a_sweep_grid_has_a_cell_for_every_combination_in_order(tmp_path):
    status, data = simulate(tmp_path, "nightmare-hunt", "--games", "20", "--scheduler", "serial",
                            "--sweep", "armour=robes,plate", "--sweep", "level=1,2,3")
    assert status == 0
    assert data["sweeps"] == [{"key": "armor", "name": "Armour", "values": ["robes", "plate"]},
                              {"key": "level", "name": "Level", "values": [1, 2, 3]}]
    assert [cell["sweep"] for cell in data["cells"]] == [{"armor": a, "level": n} for a in ("robes", "plate")
                                                         for n in (1, 2, 3)]
    for cell in data["cells"]:
        assert cell["games"] == 20 and sum(cell["outcomes"].values()) == 20
        assert set(cell["outcomes"]) <= {"won", "died", "unfinished"}
        assert cell["win"]["wins"] == cell["outcomes"].get("won", 0)
        low, high = wilson(cell["win"]["wins"], 20)
        assert (cell["win"]["low"], cell["win"]["high"]) == (round(low, 6), round(high, 6))
        assert cell["length"]["q1"] <= cell["length"]["median"] <= cell["length"]["q3"]
    punch = data["cells"][0]["cards"]["punch"]
    assert punch["played"] >= punch["games_played"] > 0 and punch["drawn"] == 0  # instinctual: never drawn
    assert data["cells"][0]["cards"]["slash"]["drawn"] > 0


def test_a_sweep_of_a_constant_plays_the_game_with_each_value_instead_of_game_yamls(tmp_path, capsys):
    """``body`` is a constant of Nightmare Hunt (game.yaml), not an option: each cell plays the game with its
    value, on the same seeds, so the cell of game.yaml's own value plays the games a run without the sweep does."""
    args = ["nightmare-hunt", "--games", "60", "--seed", "2", "--scheduler", "serial"]
    status, plain = simulate(tmp_path, *args, name="plain.json")
    assert status == 0
    status, swept = simulate(tmp_path, *args, "--sweep", "body=4,1", name="swept.json")
    assert status == 0
    own, weak = swept["cells"]
    assert own["sweep"] == {"body": 4} and weak["sweep"] == {"body": 1}
    assert {key: own[key] for key in ("outcomes", "length", "win")} == \
        {key: plain["cells"][0][key] for key in ("outcomes", "length", "win")}
    assert weak["outcomes"] != own["outcomes"]  # a hunter of one body dies sooner
    assert "passed to new_game unchecked" not in capsys.readouterr().out  # a constant is checked as game.yaml's


@pytest.mark.parametrize("args, message", [
    (["--sweep", "body=4,0"], "body=0: expected a whole number >= 1, got 0 (a constant of nightmare-hunt, as game.yaml "
                              "would give it)"),
    (["--option", "mind=[1, 2]"], "mind=[1, 2]: a constant is given one plain value (a number, a word, true/false)"),
    (["--sweep", "body=4,5"], "body=5: game.constants.body: Body 5 is above Mind 4; Body can never be higher than "
                              "Mind (the game's own checks, as deckwright check runs them)"),
])
def test_a_constant_given_a_value_game_yaml_would_refuse_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    assert simulate(tmp_path, "nightmare-hunt", "--games", "5", *args) == (2, None)
    assert capsys.readouterr().err.splitlines() == [f"deckwright: {message}"]


def test_the_same_seed_gives_the_same_figures_on_one_core_and_on_a_process_pool(tmp_path):
    args = ["nightmare-hunt", "--games", "150", "--seed", "3", "--sweep", "level=1,2"]
    assert simulate(tmp_path, *args, "--scheduler", "serial", name="serial.json")[0] == 0
    assert simulate(tmp_path, *args, "--scheduler", "pool:2", name="pool.json")[0] == 0
    assert (tmp_path / "serial.json").read_bytes() == (tmp_path / "pool.json").read_bytes()
    assert (tmp_path / "output" / "simulate" / "nightmare-hunt" / "balance.json").read_bytes() == \
        (tmp_path / "pool.json").read_bytes()


def test_a_dask_local_cluster_gives_byte_identical_json(tmp_path):
    need_package("distributed", "cluster")
    args = ["nightmare-hunt", "--games", "120", "--seed", "1", "--sweep", "armour=robes,leather,plate",
            "--sweep", "level=1,2,3"]
    assert simulate(tmp_path, *args, name="pool.json")[0] == 0
    assert simulate(tmp_path, *args, "--scheduler", "local:2", name="dask.json")[0] == 0  # TCP on 127.0.0.1
    assert (tmp_path / "pool.json").read_bytes() == (tmp_path / "dask.json").read_bytes()


# -- what the command says ----------------------------------------------------------------------------


def test_a_wrong_option_is_one_line_and_exit_2(tmp_path, capsys):
    assert simulate(tmp_path, "nightmare-hunt", "--option", "armor=robe")[0] == 2
    assert simulate(tmp_path, "nightmare-hunt", "--option", "colour=red")[0] == 2
    assert simulate(tmp_path, "nightmare-hunt", "--strategy", "genius")[0] == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["deckwright: --option armor: no card with id 'robe'; did you mean 'robes'? "
                   "(armor: robes, leather, plate)",
                   "deckwright: unknown option 'colour'; nightmare-hunt takes: armor, level, stop_at_death; or one "
                   "of its constants: mind, body, action_copies",
                   "deckwright: --strategy genius: nightmare-hunt offers heuristic, random"]


@pytest.mark.parametrize("args, message", [
    (["--option", "level=9"], "option level: no level 9 (levels: 1, 2, 3)"),
    (["--sweep", "level=1,4"], "option level: no level 4 (levels: 1, 2, 3)"),
    (["--sweep", "level=1,1"], "--sweep level=1,1: 1 is given twice"),
    (["--option", "level=1", "--sweep", "level=2,3"], "--option and --sweep both set 'level': the sweep plays each of "
                                                      "its values"),
    (["--max-actions", "0"], "--max-actions 0: a game needs at least one action"),
    (["--sweep", "a=" + ",".join(map(str, range(40))), "--sweep", "b=" + ",".join(map(str, range(30)))],
     "--sweep: a grid of 1,200 cells (40 x 30 values); deckwright plays at most 1,000: sweep fewer values, or run "
     "the sweeps apart"),
    (["--games", "0"], "--games 0: play from 1 to 100,000,000 games"),
    (["--games", "9" * 23], f"--games {'9' * 23}: play from 1 to 100,000,000 games"),
    (["--option", "armor=plate", "--option", "armour=robes"], "--option armour: 'armor' is given twice; give it once"),
    (["--option", "level=[1,2"], "--option level=[1,2: not a YAML value (while parsing a flow sequence)"),
    (["--scheduler", "pool:0"], "--scheduler pool:0: expected a number of workers from 1 to 1024 after ':' (pool:2)"),
    (["--scheduler", "pool:\u00b2"], "--scheduler pool:\u00b2: expected a number of workers from 1 to 1024 after ':' "
                                     "(pool:2)"),
    (["--scheduler", "local:99999"], "--scheduler local:99999: expected a number of workers from 1 to 1024 after ':' "
                                     "(local:2)"),
    (["--scheduler", "tcp://127.0.0.1:\u00b2"], "--scheduler tcp://127.0.0.1:\u00b2: expected tcp://HOST:PORT, a port "
                                                "from 0 to 65535"),
    (["--scheduler", "tcp://127.0.0.1:99999"], "--scheduler tcp://127.0.0.1:99999: expected tcp://HOST:PORT, a port "
                                               "from 0 to 65535"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler tcp://127.0.0.1:1: no Dask scheduler answers there "
                                           "(Connection refused)"),
])
def test_a_command_mistake_is_one_line_and_exit_2_before_the_games(tmp_path, capsys, monkeypatch, args, message):
    if importlib.util.find_spec("distributed") is not None:  # a refused port is said before Dask's client retries
        import distributed

        def no_client(*args, **kwargs):
            raise AssertionError("a Dask client was started for a scheduler that cannot answer")

        monkeypatch.setattr(distributed, "Client", no_client)
    assert simulate(tmp_path, "nightmare-hunt", "--games", "100", *args) == (2, None)
    assert capsys.readouterr().err.splitlines() == [f"deckwright: {message}"]


def test_a_json_file_that_cannot_be_written_is_said_before_the_games(tmp_path, capsys):
    assert main(["simulate", "nightmare-hunt", "--json", str(tmp_path / "none" / "x.json"),
                 "--out", str(tmp_path / "output")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"deckwright: --json {tmp_path / 'none' / 'x.json'}: cannot write it there (no folder {tmp_path / 'none'})"]
    assert not (tmp_path / "output").exists()




def test_the_json_replaces_its_own_file_but_never_a_file_or_link_it_did_not_write(tmp_path, capsys, monkeypatch):
    assert simulate(tmp_path, "nightmare-hunt", "--games", "20", "--scheduler", "serial")[0] == 0
    assert simulate(tmp_path, "nightmare-hunt", "--games", "20", "--scheduler", "serial")[0] == 0  # replaced
    capsys.readouterr()
    monkeypatch.setattr(session, "run", no_games)
    (tmp_path / "notes.json").write_text("mine\n")
    (tmp_path / "link.json").symlink_to(tmp_path / "out.json")
    for name, kind in (("notes.json", "a file deckwright did not write, left as it is"), ("link.json", "a link")):
        assert main(["simulate", "nightmare-hunt", "--json", str(tmp_path / name), "--out", str(tmp_path)]) == 2
        assert capsys.readouterr().err.splitlines() == [
            f"deckwright: --json {tmp_path / name}: cannot write it there ({kind})"]
    assert (tmp_path / "notes.json").read_text() == "mine\n" and (tmp_path / "link.json").is_symlink()


def no_games(*args, **kwargs):
    raise AssertionError("the games were played before the output folder was found unwritable")


def test_a_json_that_is_a_pipe_or_too_long_a_name_is_refused_before_the_games(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(session, "run", no_games)
    os.mkfifo(tmp_path / "pipe.json")  # opened to be read, it would wait for a writer forever
    for name, kind in (("pipe.json", "not a regular file"), ("e" * 300 + ".json", "File name too long")):
        assert main(["simulate", "nightmare-hunt", "--json", str(tmp_path / name), "--out", str(tmp_path)]) == 2
        said = capsys.readouterr().err
        assert said.startswith(f"deckwright: --json {tmp_path / name}: cannot write it there ({kind}") and \
            said.count("\n") == 1, said


def test_the_json_is_written_through_a_file_of_its_own_never_through_one_left_in_the_way(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    (tmp_path / ".out.json.tmp").symlink_to(victim)  # the name the figures were once written to first
    assert simulate(tmp_path, "nightmare-hunt", "--games", "20", "--scheduler", "serial")[0] == 0
    assert victim.read_text() == "mine\n" and not (tmp_path / "out.json").is_symlink()
    assert (tmp_path / "out.json").read_bytes().startswith(b'{\n  "game": "nightmare-hunt"')


@pytest.mark.parametrize("kind", ["link", "file"])
def test_a_link_or_file_inside_the_output_folder_is_refused_before_the_games(tmp_path, capsys, monkeypatch, kind):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "output").mkdir()
    if kind == "link":
        (tmp_path / "output" / "simulate").symlink_to(elsewhere)  # written through, the figures would land there
    else:
        (tmp_path / "output" / "simulate").write_text("mine\n")
    monkeypatch.setattr(session, "run", no_games)
    assert simulate(tmp_path, "nightmare-hunt", "--games", "100") == (2, None)
    assert capsys.readouterr().err.splitlines() == [
        f"deckwright: {tmp_path / 'output' / 'simulate'} is a {kind}, not a folder deckwright made; deckwright "
        "replaces only folders it made: move it away or choose another --out"]
    assert list(elsewhere.iterdir()) == []


def test_a_folder_of_the_users_where_the_figures_go_is_refused_before_the_games(tmp_path, capsys, monkeypatch):
    mine = tmp_path / "output" / "simulate" / "nightmare-hunt"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("mine\n")
    monkeypatch.setattr(session, "run", no_games)
    assert simulate(tmp_path, "nightmare-hunt", "--games", "100") == (2, None)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"deckwright: {mine} was not made by deckwright")
    assert (mine / "notes.txt").read_text() == "mine\n"


def test_the_json_is_written_when_the_table_goes_to_a_reader_that_leaves_early(tmp_path):
    target = tmp_path / "piped.json"
    command = [sys.executable, "-m", "deckwright.generator.cli", "simulate", "nightmare-hunt", "--games", "200",
               "--scheduler", "serial", "--json", str(target), "--out", str(tmp_path / "output")]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert child.stdout.readline().startswith(b"nightmare-hunt: 200 games")
    child.stdout.close()  # `| head -1`
    assert child.wait(timeout=120) == 0 and b"Traceback" not in child.stderr.read()
    assert json.loads(target.read_text())["games_played"] == 200


def test_open_content_says_what_blocks_play_and_a_fixture_supplies_it(tmp_path, capsys):
    status, data = simulate(tmp_path, "rt0-combat", "--games", "5")
    assert status == 1 and data is None
    err = capsys.readouterr().err
    assert "rt0-combat cannot be played with its content as it is: random play needs adversaries" in err
    assert "--fixture FOLDER" in err and "Traceback" not in err
    options = ["--option", "players=[Ana, {name: Bo, speed: slow}, {name: Cy, speed: fast}]",
               "--option", "card_effect=1", "--option", "intent_damage=4"]
    status, data = simulate(tmp_path, "rt0-combat", "--games", "30", "--fixture", str(FIXTURES / "rt0-combat"),
                            "--scheduler", "serial", *options)
    assert status == 0 and data["cells"][0]["games"] == 30 and sum(data["cells"][0]["outcomes"].values()) == 30
    # what the report lacks for want of a protocol name is said, with where to read about it
    assert "note: no per-card figures: CARD_FACTS names the events that draw and play a card; see OPTIONS, outcome " \
           "and CARD_FACTS in rules/README.md" in capsys.readouterr().out.splitlines()


def test_a_mistake_in_a_fixture_is_named_where_the_fixture_keeps_it(tmp_path, capsys, monkeypatch):
    import shutil

    fixture = tmp_path / "my-foes"
    shutil.copytree(FIXTURES / "rt0-combat", fixture)
    [cards] = [path for path in fixture.glob("*.yaml") if "hp: 30" in path.read_text()]
    cards.write_text(cards.read_text().replace("hp: 30", "hp: thirty", 1))
    (fixture / "outside.yaml").symlink_to(ROOT / "cards" / "rt0-combat" / "game.yaml")
    monkeypatch.chdir(tmp_path)
    status, _ = simulate(tmp_path, "rt0-combat", "--games", "5", "--fixture", "my-foes", "--scheduler", "serial")
    err = capsys.readouterr().err.splitlines()
    assert status == 1 and "Traceback" not in "\n".join(err)
    assert any(line.startswith(f"my-foes/{cards.name}:") and 'got "thirty"' in line for line in err), err
    assert any(line.startswith("my-foes/outside.yaml:") for line in err), err  # a link is not followed out
    assert err[-1] == "rt0-combat: not simulated: the game with the fixture my-foes has errors, listed above"


def test_a_game_without_a_rules_module_is_refused_in_one_line(tmp_path, capsys):
    game = tmp_path / "g"
    assert main(["new", str(game)]) == 0
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("mechanics: rules.py", "", 1))
    capsys.readouterr()
    assert simulate(tmp_path, str(game), "--games", "5")[0] == 1
    assert capsys.readouterr().err == "deckwright: g has no rules module (mechanics:), so it cannot be played\n"


def new_game_with_rules(tmp_path, capsys, before: str = "", added: str = "") -> tuple[Path, Path]:
    """``deckwright new``'s game, its rules module given ``before`` at the start of ``prepare`` and ``added`` at its
    end; the game folder and the module's file."""
    game = tmp_path / "g"
    assert main(["new", str(game)]) == 0
    rules = game / "rules.py"
    rules.write_text(rules.read_text().replace("    heroes = {card.id", before + "    heroes = {card.id", 1) + added)
    capsys.readouterr()
    return game, rules


def test_a_prepare_that_raises_is_one_line_at_its_place(tmp_path, capsys):
    """It ended the command in a traceback: ``prepare(game)`` runs while the simulation is planned."""
    game, rules = new_game_with_rules(tmp_path, capsys, before="    raise KeyError('heroes')\n")
    line = next(n for n, text in enumerate(rules.read_text().splitlines(), start=1) if "raise KeyError" in text)
    assert simulate(tmp_path, str(game), "--games", "5", "--scheduler", "serial") == (1, None)
    assert capsys.readouterr().err == (f"deckwright: the rules module's prepare(game) raised KeyError: 'heroes' "
                                       f"({rules}:{line})\n")


@pytest.mark.parametrize("added, message", [
    ("STRATEGIES = ['first']", "STRATEGIES: expected a mapping of names to functions (state, actions, chance) -> action"),
    ("STRATEGIES = {1: random_choice}", "STRATEGIES[1]: expected a name and a function (state, actions, chance) -> "
                                        "action"),
    ("OPTIONS = {'level': 1}", "OPTIONS: expected a record field definition"),
    ("CARD_FACTS = {'attack': 'drawn'}", "CARD_FACTS['attack']: expected ('drawn' or 'played', a data key), got "
                                         "'drawn'"),
])
def test_a_misshapen_name_simulate_reads_is_one_line_at_its_assignment(tmp_path, capsys, added, message):
    """STRATEGIES or OPTIONS of the wrong shape ended the command in a traceback, CARD_FACTS in a line without a
    place, after the games."""
    game, rules = new_game_with_rules(tmp_path, capsys, added="\nfrom deckwright.rules.engine.randomplay import "
                                                              "random_choice\n" + added + "\n")
    line = len(rules.read_text().splitlines())
    assert simulate(tmp_path, str(game), "--games", "5", "--scheduler", "serial", "--option", "level=1") == (1, None)
    assert capsys.readouterr().err.splitlines() == [f"{rules}:{line}:1: {message}",
                                                    "g: not simulated: the game has errors, listed above"]


@pytest.mark.parametrize("body, message", [
    ("raise ValueError('no winner')", "the rules raised ValueError: no winner ({rules}:{line})"),
    ("return 5", "outcome() gave 5, not (name, True/False/None) ({rules}:{line})"),
    ("return ['won'], True", "outcome() gave (['won'], True), not (name, True/False/None) ({rules}:{line})"),
])
def test_an_outcome_that_fails_in_the_games_is_one_line_at_its_place(tmp_path, capsys, body, message):
    """outcome() runs in the games only, not in the trial game: its failure was a line without a place, "a game
    failed in the rules code: TypeError: cannot unpack non-iterable int object"."""
    game, rules = new_game_with_rules(tmp_path, capsys, added=f"\n\ndef outcome(state: State) -> tuple:\n    {body}\n")
    line = len(rules.read_text().splitlines()) - (0 if body.startswith("raise") else 1)  # the raise, else the def
    assert simulate(tmp_path, str(game), "--games", "5", "--scheduler", "serial") == (1, None)
    err = capsys.readouterr().err
    assert err.startswith("deckwright: g: a game stopped: game seed ") and err.count("\n") == 1, err
    assert err.endswith(": " + message.format(rules=rules, line=line) + "\n"), err


def test_simulate_run_in_a_game_folder_plays_that_game(tmp_path, capsys, monkeypatch):
    game = tmp_path / "g"
    assert main(["new", str(game)]) == 0
    monkeypatch.chdir(game)
    capsys.readouterr()
    assert main(["simulate", "--games", "5", "--scheduler", "serial", "--out", str(tmp_path / "output")]) == 0
    assert capsys.readouterr().out.startswith("g: 5 games, strategy random, seed 1")
    monkeypatch.chdir(tmp_path)  # no game here, and simulate plays one game: it must be named
    assert main(["simulate", "--games", "5"]) == 2
    assert "name a game" in capsys.readouterr().err


def test_a_game_without_its_options_names_the_options_and_their_meaning(tmp_path, capsys):
    status, _ = simulate(tmp_path, "micahs-game", "--games", "5", "--fixture", str(FIXTURES / "micahs-game"),
                         "--scheduler", "serial")
    err = capsys.readouterr().err.splitlines()
    assert status == 1 and len(err) == 1, err
    assert "a game stalls with no legal action" in err[0]
    assert "the game's options: players (the seats, each [name, class id]; by default one per class), decks (the " \
           "cards dealt by deck id" in err[0] and "(given: none)" in err[0]


def test_every_open_value_and_empty_deck_that_blocks_play_is_named_at_once(tmp_path, capsys):
    import shutil

    fixture = tmp_path / "some"  # counts of counters and special rooms, but no rooms or enemies
    fixture.mkdir()
    for name in ("counters.yaml", "special-rooms.yaml"):
        shutil.copy(FIXTURES / "parousia" / name, fixture / name)
    assert simulate(tmp_path, "parousia", "--games", "5", "--option", "floors=2", "--fixture", str(fixture))[0] == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "the source names decks but lists no cards of them: rooms (room cards), " in err[0]
    assert "enemies (enemy cards), bosses (boss cards) (lay them over the game: --fixture FOLDER)" in err[0]
    assert simulate(tmp_path, "micahs-game", "--games", "5")[0] == 1  # two deals, two different open values
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "Grumpy Goose's attack is open" in err[0] and "a game stalls" in err[0]


@pytest.mark.parametrize("game, option, message", [
    ("parousia", "flors=3", "unknown option 'flors'; parousia takes: floors, players; or one of its constants: "
                            "counter_cap, die_sides, hand_size, soul_hearts_per_container, devil_die_per_fight, "
                            "devil_die_per_boss_fight, devil_die_divisor, charge_per_fight, pickups_per_fight, "
                            "hearts_per_hit, division_rounding, first_floor"),
    ("rt0-combat", "room=nowhere", "--option room: no card with id 'nowhere' (room: cramped, common, large)"),
    ("gloombah", "players=0", "--option players: expected a whole number >= 1, got 0"),
    ("micahs-game", "decks={treasure: [no-such-card]}", "--option decks.treasure.1: no card with id "
                                                         "'no-such-card'"),
])
def test_every_bundled_game_checks_its_options(tmp_path, capsys, game, option, message):
    assert simulate(tmp_path, game, "--games", "5", "--fixture", str(FIXTURES / game), "--option", option) == (2, None)
    assert capsys.readouterr().err.splitlines() == [f"deckwright: {message}"]


@pytest.mark.parametrize("scheduler", ["pool:2", "local:2"])
def test_ctrl_c_reports_the_games_finished_so_far(tmp_path, scheduler):
    if scheduler.startswith("local"):
        need_package("distributed", "cluster")
    target = tmp_path / "stopped.json"
    command = [sys.executable, "-m", "deckwright.generator.cli", "simulate", "nightmare-hunt", "--games", "1000000",
               "--scheduler", scheduler, "--json", str(target), "--out", str(tmp_path / "output")]
    # a terminal's Ctrl-C reaches the whole process group, the workers too: so does this one
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                             start_new_session=True, preexec_fn=default_sigint)
    time.sleep((8 if os.environ.get("CI") else 12) + (10 if scheduler.startswith("local") else 0))  # the first chunks
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(target.read_text())
    assert data["interrupted"] is True and 0 < data["games_played"] < 1_000_000
    assert data["games_played"] % CHUNK_GAMES == 0  # whole chunks only
    assert f"nightmare-hunt: {data['games_played']:,} games" in out and "INTERRUPTED" in out


def _processes() -> dict[int, tuple[int, int, str, bool]]:
    """Every live process (Linux /proc): its parent, its session, its state, and whether it runs the
    ``local:N`` cluster's process (``python -m deckwright.rules.sim.local_cluster``)."""
    found = {}
    for folder in Path("/proc").iterdir():
        if not folder.name.isdigit():
            continue
        try:
            stat = (folder / "stat").read_text()
            command = (folder / "cmdline").read_bytes()
        except OSError:
            continue
        state, parent, _, session = stat.rpartition(")")[2].split()[:4]
        if state != "Z":
            found[int(folder.name)] = (int(parent), int(session), state, b"rules.sim.local_cluster" in command)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from Linux's /proc")
def test_ctrl_c_while_the_local_cluster_starts_stops_it_and_its_workers(tmp_path):
    need_package("distributed", "cluster")
    target = tmp_path / "stopped.json"
    command = [sys.executable, "-m", "deckwright.generator.cli", "simulate", "nightmare-hunt", "--games", "100000",
               "--scheduler", "local:2", "--json", str(target), "--out", str(tmp_path / "output")]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                             start_new_session=True, preexec_fn=default_sigint)
    deadline, hosts = time.monotonic() + 60, set()
    while not hosts and time.monotonic() < deadline:
        hosts = {pid for pid, (parent, _, _, host) in _processes().items() if host and parent == child.pid}
        time.sleep(0.05)
    assert hosts, "the cluster's process never started"
    time.sleep(0.5)  # its LocalCluster under way (it takes a few seconds), some of its workers too
    os.killpg(child.pid, signal.SIGINT)  # the terminal's Ctrl-C: the command's group, not the cluster's session
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "Traceback" not in err
    assert json.loads(target.read_text())["games_played"] == 0 and "INTERRUPTED" in out
    # the cluster's process is its session's leader: nothing of its session is left running
    assert [pid for pid, (_, session, _, _) in _processes().items() if session in hosts] == []


# -- the Balance page ---------------------------------------------------------------------------------


def test_the_balance_page_shows_the_numbers_of_the_json(tmp_path, browser):
    need_package("matplotlib", "charts")
    from deckwright.generator.site import build_site
    from deckwright.generator.site.balance import balance_file, read_balance
    from deckwright.rules.load import load_game

    status, data = simulate(tmp_path, "nightmare-hunt", "--games", "40", "--scheduler", "serial",
                            "--sweep", "armour=robes,plate", "--sweep", "level=1,2")
    assert status == 0
    game = load_game(NH)
    balance = read_balance(balance_file(tmp_path / "output", game.slug), game.slug)
    assert balance == data
    build_site([game], tmp_path / "site", reports={}, balances={game.slug: balance})
    page = browser.new_page()
    try:
        page.goto((tmp_path / "site" / "nightmare-hunt" / "balance.html").as_uri())
        rows = page.locator("#balance-cells tbody tr").all_inner_texts()
        assert len(rows) == 4
        for row, cell in zip(rows, data["cells"]):
            cells_text = [c.strip() for c in row.split("\t")]
            win, length = cell["win"], cell["length"]
            assert cells_text[:3] == [cell["sweep"]["armor"], str(cell["sweep"]["level"]), f"{cell['games']:,}"]
            # the win rate with its interval under it
            assert cells_text[3].split() == [f"{win['rate']:.1%}", f"{win['low']:.1%}", "\u2013", f"{win['high']:.1%}"]
            assert cells_text[4] == f"{length['mean']:.1f}"
        assert page.locator("#chart-win svg text").count() > 4  # text, in the page's font
        assert page.locator("#chart-win").inner_text().count("%") >= 4
        nav = page.locator("nav.topnav a[aria-current=page]").inner_text()
        assert nav == "Balance"
        # a table a figure, a column a cell: the win rate when played (its interval under it), drawn, played
        assert page.locator("#balance-cards thead th").all_text_contents()[1:] == \
            ["robes · 1", "robes · 2", "plate · 1", "plate · 2"]
        for table, figure in (("#balance-cards", "win"), ("#balance-drawn", "drawn"), ("#balance-played", "played")):
            swipe = page.locator(f"{table} tbody tr", has_text="Swipe").inner_text().split("\t")
            for text, cell in zip(swipe[1:], data["cells"]):
                card = cell["cards"]["swipe"]
                win = card["win_when_played"]
                expected = {"drawn": f"{card['drawn'] / 40:.2f}", "played": f"{card['played'] / 40:.2f}",
                            "win": f"{win['rate']:.1%}\n{win['low']:.1%} \u2013 {win['high']:.1%}"}[figure]
                assert text.strip() == expected, (table, cell["sweep"])
    finally:
        page.close()


def test_a_build_without_a_simulation_has_no_balance_page(tmp_path):
    from deckwright.generator.site import build_site
    from deckwright.rules.load import load_game

    game = load_game(NH)
    build_site([game], tmp_path / "site", reports={})
    assert not (tmp_path / "site" / "nightmare-hunt" / "balance.html").exists()
    assert "balance.html" not in (tmp_path / "site" / "nightmare-hunt" / "readings.html").read_text()


def test_the_balance_page_says_when_the_cards_changed_since_or_the_content_was_made_up(tmp_path, capsys, monkeypatch):
    """A simulation keeps a digest of the cards it played and the fixture it laid over them: a build after the
    cards changed says so (a line and the page), and a fixture's figures are never shown as the game's own."""
    import shutil

    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")  # no ./output of an earlier simulate where the tests are run

    game = tmp_path / "nh"
    shutil.copytree(NH, game)
    out = tmp_path / "output"
    assert main(["simulate", str(game), "--games", "20", "--scheduler", "serial", "--out", str(out)]) == 0
    assert main(["build", str(game), "--target", "home", "--out", str(out)]) == 0
    page = out / "site" / "nightmare-hunt" / "balance.html"
    assert "changed since" not in page.read_text() and "note:" not in capsys.readouterr().out
    armour = game / "armor.yaml"
    armour.write_text(armour.read_text().replace("slow: 4", "slow: 0", 1))
    assert main(["build", str(game), "--target", "home", "--out", str(out)]) == 0
    assert ("nightmare-hunt: note: the Balance page shows a simulation of earlier cards (they have changed since): "
            "run deckwright simulate again") in capsys.readouterr().out
    assert "The cards have changed since this simulation" in page.read_text()
    # a simulation kept under another output folder is said, not silently left out
    assert main(["build", str(game), "--target", "home", "--out", str(tmp_path / "site-only")]) == 0
    assert "no Balance page: the last simulation is under output/" not in capsys.readouterr().out  # not ./output

    rt0 = ["rt0-combat", "--games", "10", "--scheduler", "serial", "--fixture", str(FIXTURES / "rt0-combat"),
           "--option", "card_effect=1", "--option", "intent_damage=4",
           "--option", "players=[Ana, {name: Bo, speed: slow}, {name: Cy, speed: fast}]"]
    status, data = simulate(tmp_path, *rt0)
    assert status == 0 and data["fixture"] == "rt0-combat"
    assert "with the made-up content of fixture rt0-combat" in capsys.readouterr().out.splitlines()[0]
    from deckwright.generator.build import _balances
    from deckwright.generator.site import build_site
    from deckwright.generator.site.balance import balance_file, read_balance
    from deckwright.rules.load import load_game

    bundled = load_game(ROOT / "cards" / "rt0-combat")
    capsys.readouterr()
    # the digest kept is the game's own cards', not the fixture's: a build of the unchanged game calls it current
    assert "stale" not in _balances([bundled], tmp_path / "output")["rt0-combat"]
    assert capsys.readouterr().out == ""
    balance = read_balance(balance_file(tmp_path / "output", "rt0-combat"), "rt0-combat")
    build_site([bundled], tmp_path / "site", reports={}, balances={"rt0-combat": balance})
    text = (tmp_path / "site" / "rt0-combat" / "balance.html").read_text()
    assert "made-up content" in text and "these figures are not the game's own balance" in text


def test_the_progress_bar_shows_rate_and_time_left_on_a_terminal_only():
    import io
    import time

    from deckwright.rules.sim.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    shown = Progress(2_000, terminal, every=0)
    time.sleep(0.05)  # a rate needs time to pass
    shown.add(1_000)
    shown.add(500)
    shown.close()
    drawn = terminal.getvalue().split("\r")
    assert any(" 75% |" in line and "1,500/2,000 games" in line and "games/s" in line and " left" in line
               for line in drawn), drawn
    assert drawn[-1] == "" and not drawn[-2].strip()  # closed: the line is blanked for the table
    pipe = io.StringIO()
    quiet = Progress(200, pipe)
    quiet.add(200)
    quiet.close()
    assert pipe.getvalue() == ""


def test_a_bundled_game_is_named_so_that_a_worker_finds_it_in_its_own_installation():
    from deckwright.generator import BUNDLED_GAMES
    from deckwright.rules.sim.plan import bundled_games

    assert bundled_games() == BUNDLED_GAMES
    simulation = session.plan(NH, None, 10, 1, None, [], [], 5_000)
    assert (simulation.source.folder, simulation.source.bundled) == ("nightmare-hunt", True)
    assert simulation.source.path() == BUNDLED_GAMES / "nightmare-hunt" and simulation.strategy == "heuristic"


def test_an_open_value_reached_in_the_middle_of_a_run_says_what_to_do(tmp_path, capsys, monkeypatch):
    import pickle

    from deckwright.rules.sim.worker import PlayStopped

    stopped = pickle.loads(pickle.dumps(PlayStopped("Silly Goose's defense is open (Not given.)", open_value=True)))
    assert stopped.open_value and str(stopped) == "Silly Goose's defense is open (Not given.)"  # crosses processes

    def reaches_an_open_value(*args, **kwargs):
        raise stopped

    monkeypatch.setattr(session, "run", reaches_an_open_value)
    assert simulate(tmp_path, "nightmare-hunt", "--games", "5") == (1, None)
    assert capsys.readouterr().err.splitlines() == [
        "deckwright: nightmare-hunt cannot be played with its content as it is: a game reached Silly Goose's defense "
        "is open (Not given.). Supply what is missing with --option key=value or --fixture FOLDER (YAML card files "
        "laid over a copy of the game's); deckwright check nightmare-hunt lists its 3 open questions"]
