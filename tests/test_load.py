"""The loader below the CLI: YAML read with locations, PyYAML's errors explained, odd but valid folders."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deckwright.rules.data.yamlsrc import MAX_DEPTH, parse_yaml
from deckwright.rules.load import load_game, load_game_with_warnings
from deckwright.rules.numbers import whole_number
from deckwright.rules.problems import InvalidGame, Loc, Problem, Problems, display_path, reading_order

BASE = Path(__file__).parent / "bad_inputs" / "base"


def messages(text: str) -> list[str]:
    """What parsing ``text`` reports, as the user reads it."""
    _, problems = parse_yaml(text, "f.yaml")
    return [str(p) for p in problems]


# -- YAML syntax errors, one clear line each -----------------------------------


@pytest.mark.parametrize("text, expected", [
    ("a: [x, y\nb: 1\n",
     "f.yaml:2:2: YAML syntax error: found ':' where ',' or ']' belongs in the [...] list opened at line 1, column 4; "
     "is a comma or the closing ']' missing?"),
    ("a: [x, y\n", "f.yaml:1:4: YAML syntax error: this [...] list is never closed; add ']'"),
    ("a: {x: 1\n", "f.yaml:1:4: YAML syntax error: this {...} mapping is never closed; add '}'"),
    ("a: 1\nb\nc: 2\n", "f.yaml:2:1: YAML syntax error: expected 'key: value' on this line; is the ':' missing?"),
    ("a: 1\n---\na: 2\n",
     "f.yaml:2:1: YAML syntax error: a second document starts here; a deckwright file holds one document (remove the '---')"),
    ("a: *nowhere\n", "f.yaml:1:4: YAML syntax error: alias *nowhere names no anchor &nowhere defined above it"),
    ("a: @home\n", "f.yaml:1:4: YAML syntax error: a plain value cannot start with '@'; put the value in quotes"),
    ("a: `x`\n", "f.yaml:1:4: YAML syntax error: a plain value cannot start with '`'; put the value in quotes"),
    ("a: *bold* text\n",
     "f.yaml:1:4: YAML syntax error: a value starting with '*' or '&' is read as an alias or anchor; put the value in quotes"),
    ("a: &x 1\nb: &x 2\n", "f.yaml:2:4: YAML syntax error: found duplicate anchor 'x' (first at line 1, column 4)"),
    ("a: 'open\n", "f.yaml:1:4: YAML syntax error: this quoted value is never closed; add the closing quote"),
    ("a:\n  b: 1\n c: 2\n",
     "f.yaml:3:2: YAML syntax error: this line's indentation does not fit the block started at line 1, column 1; "
     "keys of one mapping, and items of one list, start in the same column"),
    ("a:\n\tb: 1\n", "f.yaml:2:1: tab character in indentation; YAML indents with spaces only"),
    ("a: [\n", "f.yaml:2:1: YAML syntax error: the file ends before the value above is complete; "
                "is a closing ']', '}' or quote missing?"),
    ('a: "\\ud800"\n', "f.yaml:1:4: text holds half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF escape); "
                       "write the character itself"),
    ("a: Knight: the brave\n", "f.yaml:1:10: YAML syntax error: unexpected ':' here; put a value that contains ': ' in quotes"),
    ("- id: x\n  name: X\n   health: 4\n",
     "f.yaml:3:4: YAML syntax error: this line is indented deeper than the line above, so YAML reads it as more of "
     "that line's value; line it up with the key above"),
    ("a: 'x\x07'\n", "f.yaml:1:6: character U+0007 is not allowed in a YAML file; remove it"),
])
def test_yaml_syntax_errors_are_explained(text, expected):
    assert messages(text) == [expected]


# -- what parsing keeps and what it refuses ------------------------------------


def test_values_keep_their_place():
    tree, problems = parse_yaml("cards:\n  - id: knight\n    health: 6\n", "f.yaml")
    assert problems == []
    card = tree.get("cards").value[0]
    assert card.loc == Loc("f.yaml", 2, 5)
    assert card.get("health").loc == Loc("f.yaml", 3, 13)
    assert card.get("health").value == 6 and card.get("health").scalar_type == "int"


def test_duplicate_keys_name_the_first():
    assert messages("a: 1\nb: 2\na: 3\n") == ["f.yaml:3:1: duplicate key 'a' (first at line 1)"]
    assert messages("1: x\n'1': y\n") == ["f.yaml:2:1: duplicate key '1' (first at line 1)"]


def test_merge_keys_work_and_explicit_keys_win():
    tree, problems = parse_yaml("base: &b {x: 1, y: 2}\nthis:\n  <<: *b\n  y: 3\n", "f.yaml")
    assert problems == []
    assert tree.get("this").plain() == {"y": 3, "x": 1}


def test_a_merge_of_a_list_item_that_is_not_a_mapping():
    assert messages("a: &a 1\nb:\n  <<: *a\n") == ["f.yaml:3:7: '<<' merges a mapping, not 1"]  # at the merge


def test_alias_loop_is_reported_not_followed():
    assert messages("a: &a [1, *a]\n") == ["f.yaml:1:11: this alias refers to a value that contains it (a loop)"]


@pytest.mark.parametrize("text", ["a: !!python/object/apply:os.system [ls]\n", "a: !!binary aGk=\n", "a: !mine {x: 1}\n",
                                  "a: !!set {x, y}\n"])
def test_tags_are_refused_and_the_file_is_not_used(text):
    tree, problems = parse_yaml(text, "f.yaml")
    assert tree is None
    assert len(problems) == 1 and "unsupported YAML tag" in problems[0].message


def test_an_alias_bomb_stops_early():
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]" for p, c in zip("abcdefgh", "bcdefghi")]
    tree, problems = parse_yaml("\n".join(levels) + "\n", "f.yaml")
    assert tree is None
    assert [str(p) for p in problems] == [  # at the first *e that goes past the limit
        "f.yaml:6:8: with this alias, the file's YAML aliases expand to more than 200,000 values (an alias bomb?); "
        "write the values out"]


def test_an_alias_to_a_long_text_counts_its_characters_at_each_use():
    """10 MB of text used 1,000 times is 10 GB once expanded: refused at the use that passes 64 million characters
    (the 7th), without the text being read again at each use."""
    text = f'motto: &a "{"x" * 10_000_000}"\ntags: [{", ".join(["*a"] * 1000)}]\n'
    tree, problems = parse_yaml(text, "f.yaml")
    assert tree is None
    assert [str(p) for p in problems] == [
        f"f.yaml:2:{8 + 4 * 6}: with this alias, the file's YAML aliases expand to more than 64,000,000 characters "
        "(an alias bomb?); write the values out"]


def test_aliases_count_the_characters_inside_what_they_stand_for():
    """Keys and texts inside an aliased mapping, and aliases inside it, count at each use."""
    inner = f'inner: &i {{key: "{"x" * 1_000_000}"}}\n'
    outer = f"outer: &o [{', '.join(['*i'] * 10)}]\n"  # 10 million characters
    uses = f"uses: [{', '.join(['*o'] * 10)}]\n"  # the 6th *o passes 64 million
    tree, problems = parse_yaml(inner + outer + uses, "f.yaml")
    assert [str(p) for p in problems] == [
        f"f.yaml:3:{8 + 4 * 5}: with this alias, the file's YAML aliases expand to more than 64,000,000 characters "
        "(an alias bomb?); write the values out"]


def test_many_uses_of_a_short_text_and_a_long_text_within_the_limits_load():
    short = f"short: &s Draw a card.\nuses: [{', '.join(['*s'] * 150_000)}]\n"
    tree, problems = parse_yaml(short, "f.yaml")
    assert problems == [] and tree.plain()["uses"] == ["Draw a card."] * 150_000
    assert tree.get("uses").value[-1].loc == Loc("f.yaml", 2, 8 + 4 * 149_999)
    long = f'long: &l "{"x" * 100_000}"\nuses: [{", ".join(["*l"] * 600)}]\n'  # 60 million characters
    tree, problems = parse_yaml(long, "f.yaml")
    assert problems == [] and tree.plain()["uses"] == ["x" * 100_000] * 600


def test_an_aliased_value_is_checked_once_at_its_anchor():
    """Half a surrogate pair, or a loop, inside an anchored value is one problem, not one per alias."""
    assert messages('a: &a "\\ud800"\nb: [*a, *a]\n') == [
        "f.yaml:1:4: text holds half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF escape); write the character itself"]
    assert messages("a: &a [1, {b: *a}]\nc: [*a, *a]\n") == [
        "f.yaml:1:15: this alias refers to a value that contains it (a loop)"]


def test_nesting_through_aliases_is_limited():
    """An alias counts the levels of what it stands for: 30 levels around an alias to 41 are too many."""
    text = "a: &a " + "[" * 40 + "x" + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n"
    assert messages(text) == [f"f.yaml:1:40: values nested more than {MAX_DEPTH} levels deep; "
                              "a deckwright file needs only a few"]


def test_nesting_is_limited():
    deep = "a: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n"
    assert messages(deep) == [f"f.yaml:1:{3 + MAX_DEPTH}: values nested more than {MAX_DEPTH} levels deep; "
                              "a deckwright file needs only a few"]
    fine = "a: " + "[" * 20 + "]" * 20 + "\n"
    assert messages(fine) == []


def test_special_scalars():
    tree, _ = parse_yaml("big: " + "9" * 5000 + "\nnan: .nan\ninf: .inf\nday: 2024-01-02\nno: null\n", "f.yaml")
    assert tree.get("big").scalar_type == "str"  # too long for a number: a number field rejects it
    assert tree.get("nan").scalar_type == "str" and tree.get("nan").value == ".nan"
    assert tree.get("inf").scalar_type == "float"
    assert tree.get("day").value == "2024-01-02"  # dates stay text
    assert tree.get("no").describe() == "nothing"
    assert tree.get("big").describe() == '"' + "9" * 30 + '... (5000 characters)"'


def test_empty_documents():
    assert parse_yaml("", "f.yaml") == (None, [])
    assert parse_yaml("# only a comment\n", "f.yaml") == (None, [])


# -- problems ------------------------------------------------------------------


def test_problems_sort_by_file_line_and_column_and_drop_repeats():
    problems = Problems()
    problems.error(Loc("b.yaml", 2, 1), "second file")
    problems.error(Loc("a.yaml", 10, 5), "later line")
    problems.error(Loc("a.yaml", 2, 9), "earlier line")
    problems.error(Loc("a.yaml", 2, 9), "earlier line")
    problems.warning(Loc("a.yaml", 1, 1), "only a warning")
    assert [str(p) for p in problems.sorted()] == [
        "a.yaml:1:1: warning: only a warning", "a.yaml:2:9: earlier line", "a.yaml:10:5: later line",
        "b.yaml:2:1: second file"]
    assert problems.error_count == 4 and len(problems.errors) == 3 and bool(problems)
    assert not Problems([Problem(Loc("a"), "w", "warning")])


def test_load_game_raises_with_every_problem(tmp_path):
    game = tmp_path / "tiny"
    shutil.copytree(BASE, game)
    (game / "heroes.yaml").write_text((BASE / "heroes.yaml").read_text().replace("health: 4", "health: four")
                                      .replace("health: 6", "helth: 6"))
    with pytest.raises(InvalidGame) as caught:
        load_game(game)
    assert [p.message for p in caught.value.problems] == [
        "hero.knight.helth: unknown field; did you mean 'health'?",
        'hero.archer.health: expected a whole number >= 0, got "four"',
    ]


# -- odd but valid game folders ------------------------------------------------


@pytest.fixture
def game(tmp_path) -> Path:
    folder = tmp_path / "tiny"
    shutil.copytree(BASE, folder)
    return folder


def loads_cleanly(folder: Path):
    loaded, problems = load_game_with_warnings(folder)
    assert [str(p) for p in problems.sorted()] == []
    return loaded


def test_byte_order_mark_and_windows_line_ends(game):
    text = (game / "heroes.yaml").read_text()
    (game / "heroes.yaml").write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    loaded = loads_cleanly(game)
    assert loaded.card("archer").loc.line == 10


def test_folders_and_files_that_are_not_card_files(game):
    (game / "notes.yaml").mkdir()  # a folder, whatever its name
    (game / "layouts" / "broken.yaml").write_text("not: [a card file\n")  # layouts are not card files
    (game / ".hidden.yaml").write_text("{{{\n")
    (game / "drafts" / ".old").mkdir(parents=True)
    (game / "drafts" / ".old" / "x.yaml").write_text("{{{\n")
    assert len(loads_cleanly(game).cards) == 3


def test_card_files_in_subfolders_and_files_without_cards_yet(game):
    (game / "more").mkdir()
    (game / "more" / "trolls.yaml").write_text("type: monster\ndeck: monsters\ncards:\n"
                                                "  - {id: troll, name: Troll, health: 9, die: D12}\n")
    (game / "later.yaml").write_text("type: monster\ncards:\n")
    loaded = loads_cleanly(game)
    assert loaded.card("troll").loc == Loc(str(game / "more" / "trolls.yaml"), 4, 5)


def test_open_values_become_open_questions(game):
    (game / "monsters.yaml").write_text((BASE / "monsters.yaml").read_text()
                                        .replace("health: 3", 'health: {open: "the source gives no health"}'))
    loaded = loads_cleanly(game)
    [question] = loaded.open_questions
    assert (question.subject, question.note, question.loc.line, question.loc.col) == (
        "monster.goblin.health", "the source gives no health", 6, 13)
    assert str(loaded.card("goblin")["health"]) == "?"


def test_a_value_used_through_an_alias_is_located_where_it_is_used(game):
    """An open value shared with an anchor is an open question of each card that uses it, at that card's line."""
    (game / "monsters.yaml").write_text(
        "type: monster\ndeck: monsters\ncards:\n"
        '  - {id: goblin, name: Goblin, die: D8, health: &unknown {open: "the source gives no health"}}\n'
        "  - {id: orc, name: Orc, die: D8, health: *unknown}\n")
    loaded = loads_cleanly(game)
    where = {q.subject: (q.loc.line, q.loc.col) for q in loaded.open_questions}
    assert where == {"monster.goblin.health": (4, 49), "monster.orc.health": (5, 43)}


def test_an_alias_is_located_at_the_alias_and_its_insides_at_the_anchor():
    node, _ = parse_yaml("base: &b {k: 1}\nuse: *b\n", "f.yaml")
    assert node.get("use").loc == Loc("f.yaml", 2, 6) and node.get("use").get("k").loc == Loc("f.yaml", 1, 14)


def test_a_yaml_directive_with_a_huge_number_is_a_located_problem():
    """Found by tests/fuzz: PyYAML's int() of a 5000-digit %YAML version raised ValueError."""
    node, problems = parse_yaml("%YAML 1." + "9" * 5000 + "\n---\na: 1\n", "f.yaml")
    assert node is None and [str(p) for p in problems] == ["f.yaml:1:1: YAML error: a number with too many digits to read"]


def test_a_range_of_thousands_of_digits_is_refused_at_its_value(game):
    """Found by tests/fuzz: int() of a 5001-digit bound raised ValueError out of the validator."""
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("players: 1-2", "players: 2-" + "9" * 5001, 1))
    with pytest.raises(InvalidGame) as caught:
        load_game(game)
    assert [p.message for p in caught.value.problems][0].startswith(
        "game.players: expected a number or a range such as 2-6, each >= 1, got \"2-999")


@pytest.mark.parametrize("players, shown", [("0", "0"), ("-3", "-3"), ("0-4", '"0-4"')])
def test_a_game_for_no_players_is_refused(game, players, shown):
    """A range field keeps its bounds as a number field does: 0 and -3 players loaded."""
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("players: 1-2", f"players: {players}", 1))
    with pytest.raises(InvalidGame) as caught:
        load_game(game)
    assert [p.message for p in caught.value.problems] == [
        f"game.players: expected a number or a range such as 2-6, each >= 1, got {shown}"]


@pytest.mark.parametrize("value", [".inf", "-.inf", "1.0e+999", "9" * 400])
def test_a_number_field_refuses_infinity_and_keeps_a_long_whole_number(game, value):
    """PyYAML reads .inf, and a float beyond the largest double, as infinity: no number a card can print."""
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("      die: {type: die}", "      die: {type: die}\n      weight: {type: number}"))
    (game / "monsters.yaml").write_text((game / "monsters.yaml").read_text().replace("    die: D8", f"    die: D8\n    weight: {value}", 1))
    if value.isdigit():  # a whole number of any length is a number
        assert load_game(game).card("goblin")["weight"] == int(value)
        return
    with pytest.raises(InvalidGame) as caught:
        load_game(game)
    assert [p.message for p in caught.value.problems] == [
        f'monster.goblin.weight: expected a finite number, got {value}']


@pytest.mark.parametrize("line, empty, message", [
    ("type: hero", "type:", "tiny/heroes.yaml:1:6: file.type: empty; name a card type (hero, monster) or remove the line"),
    ("deck: heroes", "deck: null", "tiny/heroes.yaml:2:7: file.deck: empty; name a deck (heroes, monsters) or remove "
                                   "the line"),
])
def test_an_empty_type_or_deck_line_is_an_error_not_a_file_of_lost_cards(game, line, empty, message, monkeypatch):
    """Found by a helper's hunt: the file's cards were dropped without a word, and check said valid."""
    monkeypatch.chdir(game.parent)
    (game / "heroes.yaml").write_text((game / "heroes.yaml").read_text().replace(line, empty, 1))
    with pytest.raises(InvalidGame) as caught:
        load_game(Path("tiny"))
    assert [str(p) for p in caught.value.problems] == [message]


@pytest.mark.parametrize("text, number", [("12", 12), (" -3 ", -3), ("+4", 4), ("\u0663", 3), ("\u00b2", None),
                                          ("", None), ("-", None), ("1e3", None), ("9" * 4300, int("9" * 4300)),
                                          ("9" * 4301, None)])
def test_whole_number_reads_what_int_reads_and_no_more(text, number):
    assert whole_number(text) == number


def test_reading_order_sorts_numbers_of_any_length_by_value():
    names = ["Relic 10", "Relic " + "9" * 5000, "Relic 2", "Relic 02b"]
    assert sorted(names, key=reading_order) == ["Relic 2", "Relic 02b", "Relic 10", "Relic " + "9" * 5000]


# -- decks as the rules deal them ------------------------------------------------------------


def test_deck_cards_repeat_copies_and_refuse_an_open_count():
    from deckwright.rules.engine.openvalues import OpenRuleError

    root = Path(__file__).resolve().parent.parent / "cards"
    hunt = load_game(root / "nightmare-hunt")
    deck = hunt.deck_cards("level-1")
    assert len(deck) == sum(card.copies for card in hunt.cards_in("level-1"))
    assert all(deck.count(card.id) == card.copies for card in hunt.cards_in("level-1"))

    gloombah = load_game(root / "gloombah")
    warrior = gloombah.card("warrior")
    assert not isinstance(warrior.copies, int) and warrior.count == 1  # printed once, so the card can be seen
    with pytest.raises(OpenRuleError, match=r"the number of Warrior cards in the deck 'Class deck' is open"):
        gloombah.deck_cards(warrior.deck)


def test_a_quote_left_open_is_blamed_where_it_opens_not_where_yaml_gives_up():
    text = 'cards:\n  - id: a\n    text: "Cheap and cheerful.\n    cost: 2\n  - id: b\n    text: "Dear."\n    cost: 3\n'
    _, problems = parse_yaml(text, "f.yaml")
    assert [str(p) for p in problems] == [
        "f.yaml:3:11: YAML syntax error: this quoted value runs on over 4 lines, to line 6, where the file stops "
        "making sense; is its closing quote missing?"]


@pytest.mark.parametrize("value, column, advice", [
    ('"Steel "first", questions after."', 19, 'write \\" for a quote inside a "..." value'),
    ("'It's mine'", 15, "write '' for a quote inside a '...' value"),
])
def test_a_quote_inside_a_quoted_value_is_blamed_on_that_quote_with_the_way_to_write_it(value, column, advice):
    """The quote ends the value early and YAML stops at the text after it; its message spoke of indentation."""
    text = f"cards:\n  - id: a\n    motto: {value}\n    cost: 2\n"
    _, problems = parse_yaml(text, "f.yaml")
    assert [str(p) for p in problems] == [
        f"f.yaml:3:{column}: YAML syntax error: this quote ends the quoted value, and the line goes on after it; "
        f"{advice}, or quote the whole value with the other kind of quote"]


def test_a_value_quoted_over_lines_on_purpose_is_not_blamed_for_an_error_further_down():
    text = 'a: "one\n  two"\nb: 1\nc: 2\nd: 3\n  e: 4\n'
    _, problems = parse_yaml(text, "f.yaml")
    assert len(problems) == 1 and "quoted value" not in problems[0].message


def test_a_yml_card_file_is_not_read_and_a_warning_says_so(game):
    """Silently skipped before: a designer who names a file heroes.yml lost its cards without a word. A .yml file
    that holds no cards (a tool's settings) is none of deckwright's business."""
    (game / "more").mkdir()
    (game / "more" / "extra.yml").write_text((game / "monsters.yaml").read_text())
    (game / "readings.yml").write_text("readings: []\n")
    (game / "mkdocs.yml").write_text("site_name: tiny\n")
    loaded, problems = load_game_with_warnings(game)
    assert loaded is not None and sorted(str(problem) for problem in problems.items) == [
        f"{display_path(game / 'more' / 'extra.yml')}:1:1: warning: not read: deckwright reads *.yaml files; "
        "rename it extra.yaml",
        f"{display_path(game / 'readings.yml')}:1:1: warning: not read: deckwright reads *.yaml files; rename it "
        "readings.yaml"]
