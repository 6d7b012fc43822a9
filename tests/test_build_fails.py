"""``deckwright build`` fails like a test suite (issue 14): whenever ``check`` would fail, and when text cannot fit
even at its smallest size or a picture is missing or unreadable, it exits 1 and leaves the output folder as it
was; ``--force`` builds anyway and the site lists the failures. A card type without a layout is drawn with the
default layout, with one warning per type. Art under 200 dpi at its printed size is a warning."""
from __future__ import annotations

import hashlib
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from deckwright.generator import BUNDLED_GAMES, cli
from deckwright.generator.layout.displaylist import texts
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fitcheck import layout_warnings
from deckwright.rules.load import load_game

from conftest import need_tools

OVERFLOW = ("boxes:\n  rules: {kind: text, left: 5, top: 5, width: 20, height: 6, size: 9, min_size: 5, "
            "text: '" + "a long rule " * 60 + "', field: rules FIT}\n")
ART = "boxes:\n  art: {kind: image, src: 'art/{{ card.id }}.png', left: 6, top: 20, width: 51, height: 35}\n"


def png(width: int, height: int) -> bytes:
    from PIL import Image

    data = io.BytesIO()
    Image.new("RGB", (width, height), (180, 90, 60)).save(data, "PNG")
    return data.getvalue()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with a digest of its bytes."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def build(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(["build", *args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.out, captured.err


@pytest.fixture
def built_before(tiny, tmp_path, capsys):
    """The tiny game, an output folder holding a good build of it, and that folder's files' digests."""
    game = tiny()
    out = tmp_path / "out"
    status, _, err = build(capsys, str(game), "--out", str(out), "--target", "home")
    assert status == 0, err
    return game, out, snapshot(out)


def write(game: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")


# -- the default layout -----------------------------------------------------------------------------------------


CRITTERS = """title: Critters
slug: critters
players: 1-2
summary: A made-up game with no layouts at all.
card_types:
  critter:
    name: Critter
    fields:
      health: {type: int, min: 0}
      speed: {type: int, min: 0}
  beast:
    name: Beast
    fields:
      health: {type: int, min: 0}
      attack: {type: dice}
      armor: {type: int}
      speed: {type: int}
      fast: {type: bool}
      habitat: {type: text}
      ability: {type: text}
      lore: {type: text, label: Lore of old}
decks:
  critters: {name: Critters, size: poker, color: "#2f6b4f", back: {title: Critters}}
  beasts: {name: Beasts, size: poker, color: "#7a3b2e", back: {title: Critters, subtitle: Beasts}}
"""
CRITTER_CARDS = {
    "critters.yaml": "type: critter\ndeck: critters\ncards:\n  - {id: mole, name: Mole, health: 2, speed: 1}\n"
                     "  - {id: vole, name: Vole, health: 1, speed: 3}\n",
    "beasts.yaml": "type: beast\ndeck: beasts\ncards:\n  - id: marsh-troll\n    name: Marsh Troll\n    health: 9\n"
                   "    attack: 2D6+1\n    armor: 2\n    speed: 3\n    fast: false\n    habitat: Swamps\n"
                   "    ability: \"When it enters play, each other player discards a card. **Regenerate:** heal 2 "
                   "at the start of your turn.\"\n    lore: It was here before the fen.\n",
}


@pytest.fixture
def critters(tmp_path):
    game = tmp_path / "critters"
    game.mkdir()
    (game / "game.yaml").write_text(CRITTERS, encoding="utf-8")
    for name, text in CRITTER_CARDS.items():
        (game / name).write_text(text, encoding="utf-8")
    return game


def test_a_type_without_a_layout_gets_the_default_one_and_one_warning(critters):
    problems = layout_warnings(load_game(critters))
    assert [p for p in problems if p.severity == "error"] == []
    lines = [str(p) for p in problems]
    assert [line for line in lines if "no layout" in line] == [
        f"{critters}/game.yaml:6:3: warning: card type 'critter' has no layout; using the default layout (write "
        "layouts/critter.yaml in the game folder to give it a face of its own; default-card.yaml in deckwright's "
        "templates/layouts/ is one to start from)",
        f"{critters}/game.yaml:11:3: warning: card type 'beast' has no layout; using the default layout (write "
        "layouts/beast.yaml in the game folder to give it a face of its own; default-card.yaml in deckwright's "
        "templates/layouts/ is one to start from)"]
    assert lines == [line for line in lines if "no layout" in line]  # nothing printed small, nothing overflowing


def test_the_default_layout_shows_name_type_and_every_field(critters):
    faces = Faces(load_game(critters))
    troll = " ".join(texts(faces.front(faces.game.card("marsh-troll"))))
    for words in ("Marsh Troll", "BEAST", "HEALTH", "9", "ATTACK", "2D6+1", "ARMOR", "FAST", "no", "HABITAT",
                  "Swamps", "Ability:", "Regenerate:", "Lore of old:", "fen.", "Beasts"):
        assert words in troll, words
    mole = texts(faces.front(faces.game.card("mole")))
    assert mole == ["Mole", "CRITTER", "HEALTH", "2", "SPEED", "1", "Critters"]


@pytest.mark.parametrize("size", ["mini", "tarot", "square"])
def test_the_default_layout_fits_other_card_sizes(critters, size):
    game = critters / "game.yaml"
    game.write_text(game.read_text().replace("size: poker", f"size: {size}"), encoding="utf-8")
    faces = Faces(load_game(critters))
    assert [str(p) for p in layout_warnings(faces.game, faces=faces) if "no layout" not in p.message] == []
    troll = " ".join(texts(faces.front(faces.game.card("marsh-troll"))))
    assert "Swamps" in troll and "2D6+1" in troll and "fen." in troll


def test_the_default_layout_on_the_printed_page(critters, tmp_path, capsys):
    need_tools("pdftotext", package="poppler-utils")
    out = tmp_path / "out"
    status, _, err = build(capsys, str(critters), "--out", str(out), "--target", "printshop")
    assert status == 0, err
    assert err.count("has no layout") == 2  # once per type, not once per card
    beasts = subprocess.run(["pdftotext", "-layout", "-f", "1", "-l", "1",
                             str(out / "critters" / "print" / "printshop" / "deck-beasts.pdf"), "-"],
                            capture_output=True, text=True, check=True).stdout
    for words in ("Marsh Troll", "BEAST", "HEALTH", "2D6+1", "HABITAT", "Swamps", "Lore of old:"):
        assert words in beasts, beasts
    critter = subprocess.run(["pdftotext", "-layout", "-f", "1", "-l", "1",
                              str(out / "critters" / "print" / "printshop" / "deck-critters.pdf"), "-"],
                             capture_output=True, text=True, check=True).stdout
    assert re.search(r"Mole\s+CRITTER\s+HEALTH +2 +SPEED +1\s+Critters", critter), critter  # a stat per cell


def test_a_layout_named_explicitly_is_still_required(critters):
    game = critters / "game.yaml"
    game.write_text(game.read_text().replace("    name: Critter\n", "    name: Critter\n    layout: critter-face\n"))
    lines = [str(p) for p in layout_warnings(load_game(critters)) if p.severity == "error"]
    assert len(lines) == 1, lines  # once, where the type names it, however many critters use it
    where, message = lines[0].split(": ", 1)
    assert where.split(":")[0].endswith("critters/game.yaml") and message.startswith("no layout 'critter-face'")
    # at the name as written, on its `layout:` line, not at the card type's key above it
    line = next(number for number, text in enumerate(game.read_text().splitlines(), 1) if "layout: critter-face" in text)
    assert where.split(":")[1:] == [str(line), str(len("    layout: ") + 1)], lines


def test_a_missing_back_or_sheet_layout_is_located_at_its_layout_line(tiny):
    game = tiny()
    text = (game / "game.yaml").read_text()
    assert "back: {" in text or "back:\n" in text, text
    text = text.replace("back: {", "back: {layout: bakc, ", 1)
    (game / "game.yaml").write_text(text)
    [line] = [str(p) for p in layout_warnings(load_game(game)) if "bakc" in p.message]
    number = next(n for n, row in enumerate(text.splitlines(), 1) if "layout: bakc" in row)
    column = text.splitlines()[number - 1].index("bakc") + 1
    assert f"game.yaml:{number}:{column}: no layout 'bakc'; did you mean 'back'?" in line, line


# -- a failing build writes nothing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("files, expected", [
    ({"layouts/hero.yaml": OVERFLOW.replace(" FIT", "")},
     r"tiny/heroes\.yaml:\d+:\d+: hero '\w+': field 'rules' \(box 'rules'\) does not fit even at 5 pt"),
    ({"layouts/monster.yaml": ART},
     r"layouts/monster\.yaml:2:\d+: boxes\.art\.src: no image 'art/goblin\.png' in the game folder"),
    ({"layouts/monster.yaml": ART, "art/goblin.png": b"\x89PNG\r\n\x1a\nnot really"},
     r"boxes\.art\.src: 'art/goblin\.png' is not a PNG or JPEG image deckwright can read"),
    ({"layouts/hero.yaml": "boxes:\n  name: {kind: text, text: '{{ card.nmae }}'}\n"},
     r"layouts/hero\.yaml:2:\d+: boxes\.name\.text: no field 'nmae' in this card's type; did you mean 'name'\?"),
    ({"layouts/hero.yaml": "boxes:\n  name: {kind: text, text: '{{ card.name }}', fit: squeeze}\n"},
     r"layouts/hero\.yaml:2:\d+: boxes\.name\.fit: expected one of shrink, none, overflow-ok, got 'squeeze'"),
], ids=["text-overflows", "image-missing", "image-unreadable", "layout-error", "unknown-fit"])
def test_a_failing_build_exits_1_and_leaves_the_output_as_it_was(built_before, tiny, capsys, files, expected):
    game, out, before = built_before
    write(game, files)  # the same game, broken: its earlier output must survive
    status, stdout, stderr = build(capsys, str(game), "--out", str(out))
    assert status == 1
    assert re.search(expected, stderr), stderr
    assert "tiny: not built: " in stdout and "nothing written: earlier output left as it was" in stdout
    assert snapshot(out) == before


def test_text_that_may_overflow_says_so_and_builds(tiny, tmp_path, capsys):
    game = tiny({"layouts/hero.yaml": OVERFLOW.replace(" FIT", ", fit: overflow-ok")})
    status, _, stderr = build(capsys, str(game), "--out", str(tmp_path / "out"), "--target", "home")
    assert status == 0, stderr
    assert "rules" not in stderr
    assert (tmp_path / "out" / "tiny" / "print" / "deck-heroes.pdf").is_file()


def test_check_fails_on_text_that_cannot_fit(tiny, tmp_path, capsys):
    game = tiny({"layouts/hero.yaml": OVERFLOW.replace(" FIT", "")})
    assert cli.main(["check", str(game)]) == 1
    captured = capsys.readouterr()
    assert "does not fit even at 5 pt" in captured.err and "invalid: 3 layout errors" in captured.out  # one per hero


def test_art_below_200_dpi_is_a_warning_naming_card_box_and_dpi(tiny, tmp_path, capsys):
    game = tiny({"layouts/monster.yaml": ART, "art/goblin.png": png(40, 30)})
    status, _, stderr = build(capsys, str(game), "--out", str(tmp_path / "out"), "--target", "home")
    assert status == 0, stderr
    # 40 px over 51 mm is 20 dpi across; 30 px over 35 mm is 22 dpi down: the lower one is what prints
    assert (f"{game}/monsters.yaml:4:5: warning: monster 'goblin': art 'art/goblin.png' prints at 20 dpi in box "
            "'art' (51 x 35 mm); 200 dpi or more prints sharp") in stderr.splitlines()
    sharp = tiny({"layouts/monster.yaml": ART, "art/goblin.png": png(410, 290)}, name="sharp")
    assert not [p for p in layout_warnings(load_game(sharp)) if "dpi" in p.message]


# -- --force --------------------------------------------------------------------------------------------------------


def test_force_says_it_cannot_build_past_an_error_in_the_data(tiny, tmp_path, capsys):
    game = tiny()
    heroes = game / "heroes.yaml"
    text = heroes.read_text()
    assert "  - id:" in text
    heroes.write_text(text.replace("  - id:", "  - bogus: 1\n    id:", 1))
    status, stdout, _ = build(capsys, str(game), "--out", str(tmp_path / "out"), "--force")
    assert status == 1 and not (tmp_path / "out").exists()
    assert "tiny: not built: 1 error(s); earlier output left as it was (--force builds past failing examples and " \
           "layouts, not errors in the game's data)" in stdout


def test_force_builds_and_the_site_lists_the_failures(tiny, tmp_path, capsys):
    game = tiny({"layouts/hero.yaml": OVERFLOW.replace(" FIT", ""), "layouts/monster.yaml": ART})
    out = tmp_path / "out"
    status, stdout, stderr = build(capsys, str(game), "--out", str(out), "--target", "home", "--force")
    assert status == 1  # built, and still failing
    assert "tiny: built into" in stdout and "--force: 3 failure(s) marked on its site pages" in stdout
    assert (out / "tiny" / "print" / "deck-monsters.pdf").is_file()
    for page in ("index.html", "cards.html", "rules/intro.html"):
        html = (out / "site" / "tiny" / page).read_text(encoding="utf-8")
        assert "This build failed its checks" in html and "3 failures:" in html, page
        assert "monsters.yaml:4:5" not in html or "goblin" in html
        assert "layouts/monster.yaml:2:" in html and "no image &#39;art/goblin.png&#39; in the game folder" in html
        assert str(tmp_path) not in html  # the builder's own paths stay out of the site
    index = (out / "site" / "index.html").read_text(encoding="utf-8")
    assert "3 build failures" in index
    need_tools("pdftotext", package="poppler-utils")
    monsters = subprocess.run(["pdftotext", str(out / "tiny" / "print" / "deck-monsters.pdf"), "-"],
                              capture_output=True, text=True, check=True).stdout
    assert re.search(r"monster goblin\s+not drawn: see the build's\s+errors", monsters), monsters  # the face it could not draw


def test_a_failing_example_fails_the_build_and_is_marked_with_force(tmp_path, capsys, monkeypatch):
    game = tmp_path / "gloombah"
    shutil.copytree(BUNDLED_GAMES / "gloombah", game)
    out = tmp_path / "out"
    page = game / "rulebook" / "turn.md"
    text = page.read_text(encoding="utf-8")
    broken = text.replace("run: {how: roll, roll: 4, escaped: false}", "run: {how: roll, roll: 7, escaped: false}")
    assert broken != text
    page.write_text(broken, encoding="utf-8")
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")  # not deckwright's: a failed build leaves it be
    before = snapshot(out)
    status, stdout, stderr = build(capsys, str(game), "--out", str(out), "--target", "proof")
    assert status == 1
    [failing] = [line for line in stderr.splitlines() if ": failing: " in line]
    assert re.match(rf"{re.escape(str(game))}/rulebook/turn\.md:\d+:\d+: ", failing), failing
    assert "nothing written" in stdout and snapshot(out) == before
    from deckwright.rules.ci import check

    replays = []
    replay = check.replay_game_examples
    monkeypatch.setattr(check, "replay_game_examples", lambda *a, **k: replays.append(1) or replay(*a, **k))
    status, stdout, stderr = build(capsys, str(game), "--out", str(out / "site-out"), "--target", "proof", "--force")
    assert status == 1
    assert len(replays) == 1  # one check run, reused by the build, the rulebook and the site
    html = (out / "site-out" / "site" / "gloombah" / "index.html").read_text(encoding="utf-8")
    link = re.search(r'<li><span class="where">rulebook/turn\.md:\d+:\d+</span> <a href="(rules/turn\.html#[^"]+)">',
                     html)
    assert link, html[:3000]
    anchor = link.group(1).split("#")[1]
    turn = (out / "site-out" / "site" / "gloombah" / "rules" / "turn.html").read_text(encoding="utf-8")
    assert f'<section class="example example-failing" id="{anchor}"' in turn


def test_force_builds_past_a_layout_that_cannot_be_read(tiny, tmp_path, capsys):
    game = tiny({"layouts/hero.yaml": "boxes:\n  name: {kind: text, text: '{{ card.name }}', colour: red}\n"})
    out = tmp_path / "out"
    assert build(capsys, str(game), "--out", str(out), "--target", "home")[0] == 1
    assert not out.exists() or snapshot(out) == {}
    status, stdout, stderr = build(capsys, str(game), "--out", str(out), "--target", "home", "--force")
    assert status == 1 and "tiny: built into" in stdout
    assert re.search(r"layouts/hero\.yaml:2:\d+: boxes\.name: unknown key 'colour'; did you mean 'color'\?", stderr)
    assert (out / "tiny" / "print" / "deck-heroes.pdf").is_file()
    assert "unknown key &#39;colour&#39;" in (out / "site" / "tiny" / "cards.html").read_text(encoding="utf-8")
