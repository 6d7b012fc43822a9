"""Online play exports (``build --target tts`` and ``--target sprites``), checked in the files themselves:
the saved objects against a JSON Schema of Tabletop Simulator's format, ids and copies against the game,
sheet sizes against the grid, and each slot's pixels against the card drawn on its own."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from conftest import output_contents
from jsonschema import Draft202012Validator
from PIL import Image, ImageChops, ImageStat

from deckwright.generator import BUNDLED_GAMES, cli
from deckwright.generator.layout.faces import Faces
from deckwright.generator.layout.fonts import shipped_fonts
from deckwright.generator.outputs.deck_sheets import FACES_PER_SHEET, MAX_PIXELS, card_pixels, grid_for, sheet_pixels
from deckwright.generator.outputs.sheet_images import edge_bleed, face_image
from deckwright.generator.outputs.tts import CARD_UNITS, POKER_WIDTH_MM
from deckwright.generator.render.raster import Rasterizer
from deckwright.rules.data.units import CARD_SIZES
from deckwright.rules.load import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "print" / "sample"

# -- the format, as JSON Schema ------------------------------------------------------------------

_NUMBER, _STRING, _BOOL = {"type": "number"}, {"type": "string"}, {"type": "boolean"}
_URL = {"type": "string", "pattern": r"^(file:///|https?://)\S+$"}
_TRANSFORM = {"type": "object", "additionalProperties": False,
              "required": ["posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"],
              "properties": {key: _NUMBER for key in ("posX", "posY", "posZ", "rotX", "rotY", "rotZ",
                                                      "scaleX", "scaleY", "scaleZ")}}
_SHEET = {"type": "object", "additionalProperties": False,
          "required": ["FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"],
          "properties": {"FaceURL": _URL, "BackURL": _URL,
                         "NumWidth": {"type": "integer", "minimum": 1, "maximum": 10},
                         "NumHeight": {"type": "integer", "minimum": 1, "maximum": 7},
                         "BackIsHidden": _BOOL, "UniqueBack": _BOOL, "Type": {"type": "integer", "minimum": 0, "maximum": 5}}}
_CUSTOM_DECK = {"type": "object", "minProperties": 1, "patternProperties": {"^[1-9][0-9]*$": _SHEET},
                "additionalProperties": False}
_CARD = {"type": "object", "additionalProperties": False,
         "required": ["Name", "Transform", "Nickname", "Description", "CardID", "CustomDeck"],
         "properties": {"Name": {"enum": ["Card", "CardCustom"]}, "Transform": _TRANSFORM, "Nickname": _STRING,
                        "Description": _STRING, "GMNotes": _STRING, "CardID": {"type": "integer", "minimum": 100},
                        "CustomDeck": dict(_CUSTOM_DECK, maxProperties=1)}}
_DECK = {"type": "object", "additionalProperties": False,
         "required": ["Name", "Transform", "Nickname", "Description", "DeckIDs", "CustomDeck", "ContainedObjects"],
         "properties": {"Name": {"const": "DeckCustom"}, "Transform": _TRANSFORM, "Nickname": _STRING,
                        "Description": _STRING, "GMNotes": _STRING,
                        "DeckIDs": {"type": "array", "minItems": 2, "items": {"type": "integer", "minimum": 100}},
                        "CustomDeck": _CUSTOM_DECK,
                        "ContainedObjects": {"type": "array", "minItems": 2, "items": _CARD}}}
_TILE = {"type": "object", "additionalProperties": False,
         "required": ["Name", "Transform", "Nickname", "Description", "CustomImage"],
         "properties": {"Name": {"const": "Custom_Tile"}, "Transform": _TRANSFORM, "Nickname": _STRING,
                        "Description": _STRING, "GMNotes": _STRING,
                        "CustomImage": {"type": "object", "additionalProperties": False,
                                        "required": ["ImageURL", "ImageSecondaryURL", "ImageScalar", "WidthScale",
                                                     "CustomTile"],
                                        "properties": {"ImageURL": _URL, "ImageSecondaryURL": _STRING,
                                                       "ImageScalar": _NUMBER, "WidthScale": _NUMBER,
                                                       "CustomTile": {"type": "object", "additionalProperties": False,
                                                                      "required": ["Type", "Thickness", "Stackable",
                                                                                   "Stretch"],
                                                                      "properties": {"Type": {"type": "integer"},
                                                                                     "Thickness": _NUMBER,
                                                                                     "Stackable": _BOOL,
                                                                                     "Stretch": _BOOL}}}}}}
SAVED_OBJECT = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "required": ["SaveName", "ObjectStates"],
                "properties": {"SaveName": _STRING,
                               "ObjectStates": {"type": "array", "minItems": 1,
                                                "items": {"oneOf": [_DECK, _CARD, _TILE]}}}}
_BOX = {"type": "object", "additionalProperties": False, "required": ["x", "y", "width", "height"],
        "properties": {key: {"type": "integer", "minimum": 0} for key in ("x", "y", "width", "height")}}
_INT = {"type": "integer", "minimum": 0}
_IMAGE = {"type": "string", "pattern": r"^images/[a-z0-9-]+\.(png|jpg)$"}


def _record(**properties) -> dict:
    return {"type": "object", "additionalProperties": False, "required": sorted(k for k in properties if k != "copies_open"),
            "properties": properties}


MANIFEST = {"$schema": "https://json-schema.org/draft/2020-12/schema", **_record(
    game=_STRING, title=_STRING,
    images={"type": "array", "items": _record(file=_IMAGE, deck=_STRING, width=_INT, height=_INT, columns=_INT, rows=_INT,
                                              card_width=_INT, card_height=_INT, dpi=_NUMBER)},
    cards={"type": "array", "items": _record(id=_STRING, name=_STRING, type=_STRING, deck=_STRING,
                                             copies={"type": "integer", "minimum": 1}, copies_open=_STRING,
                                             image=_IMAGE, row=_INT, column=_INT, box=_BOX)},
    backs={"type": "array", "items": _record(deck=_STRING, image=_IMAGE, box=_BOX)},
    sheets={"type": "array", "items": _record(id=_STRING, name=_STRING, image=_IMAGE, width=_INT, height=_INT,
                                              width_mm=_NUMBER, height_mm=_NUMBER)})}


def test_the_schemas_are_valid_json_schema():
    Draft202012Validator.check_schema(SAVED_OBJECT)
    Draft202012Validator.check_schema(MANIFEST)


# -- geometry ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_card_pixels_fill_a_ten_by_seven_sheet_within_4096_px_and_are_what_the_painter_draws(size):
    width_mm, height_mm = CARD_SIZES[size]
    pixels = card_pixels(width_mm, height_mm)
    assert 10 * pixels.width <= MAX_PIXELS and 7 * pixels.height <= MAX_PIXELS
    assert 10 * pixels.width > MAX_PIXELS - 10 or 7 * pixels.height > MAX_PIXELS - 7  # as large as the limit allows
    assert abs(pixels.width / pixels.height - width_mm / height_mm) < 0.005
    from deckwright.generator.layout import displaylist as dl

    raster = Rasterizer(shipped_fonts())
    blank = dl.DisplayList("blank", width_mm, height_mm, 0.0, ())
    assert raster.image(blank, pixels.dpi, bleed=False).size == (pixels.width, pixels.height)
    # drawn with a sliver of bleed and cut at the trim: the face's colour reaches the last row and column
    bleed = edge_bleed(pixels)
    filled = dl.DisplayList("filled", width_mm, height_mm, bleed,
                            (dl.Rect(-bleed, -bleed, width_mm + 2 * bleed, height_mm + 2 * bleed, "#203040"),))
    image = face_image(raster, filled, pixels)
    assert image.size == (pixels.width, pixels.height)
    assert image.getextrema() == ((0x20, 0x20), (0x30, 0x30), (0x40, 0x40))


def test_poker_and_tarot_card_sizes():
    assert (card_pixels(63.5, 88.9).width, card_pixels(63.5, 88.9).height) == (409, 573)
    assert (card_pixels(70, 120).width, card_pixels(70, 120).height) == (341, 585)


def test_sheets_are_150_dpi_unless_that_passes_4096_px():
    mat = sheet_pixels(297, 210)
    assert (mat.width, mat.height, mat.dpi) == (1754, 1240, 150)
    board = sheet_pixels(1000, 500)
    assert board.width == MAX_PIXELS and board.height == 2048 and board.dpi < 150


def test_grids_keep_the_last_slot_free_and_waste_little():
    for faces in range(1, FACES_PER_SHEET + 1):
        columns, rows = grid_for(faces)
        assert columns <= 10 and rows <= 7
        assert columns * rows >= faces + 1
        assert rows == -(-(faces + 1) // 10)  # no more rows than 10 columns need
        assert (columns - 1) * rows < faces + 1  # and no column more than those rows need
    assert grid_for(FACES_PER_SHEET) == (10, 7)
    assert grid_for(22) == (8, 3)
    with pytest.raises(ValueError):
        grid_for(70)


# -- the export of two bundled games ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """RT:0 and Nightmare Hunt built for tts, then for sprites into the same output folder."""
    out = tmp_path_factory.mktemp("tabletop")
    assert cli.main(["build", "rt0-combat", "nightmare-hunt", "--out", str(out), "--target", "tts"]) == 0
    assert cli.main(["build", "rt0-combat", "nightmare-hunt", "--out", str(out), "--target", "sprites"]) == 0
    return out


@pytest.fixture(scope="module")
def games():
    return {slug: load_game(BUNDLED_GAMES / slug) for slug in ("rt0-combat", "nightmare-hunt")}


@pytest.fixture(scope="module")
def faces(games):
    return {slug: Faces(game) for slug, game in games.items()}


def saved_objects(out: Path, slug: str) -> dict[str, dict]:
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in sorted((out / slug / "tts").glob("*.json"))}


def local(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


def decks_in(saved: dict) -> list[dict]:
    return [state for state in saved["ObjectStates"] if state["Name"] in ("DeckCustom", "Card")]


def cards_of(state: dict) -> list[dict]:
    return state["ContainedObjects"] if state["Name"] == "DeckCustom" else [state]


def sheets_of(state: dict) -> dict[str, dict]:
    return state["CustomDeck"]


@pytest.mark.parametrize("slug", ["rt0-combat", "nightmare-hunt"])
def test_every_saved_object_validates_against_the_schema(exported, slug):
    validator = Draft202012Validator(SAVED_OBJECT)
    files = saved_objects(exported, slug)
    assert f"{slug}.json" in files
    for name, saved in files.items():
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(saved)]
        assert errors == [], name
        assert (exported / slug / "tts" / name).with_suffix(".png").is_file(), f"{name} has no picture"


@pytest.mark.parametrize("slug", ["rt0-combat", "nightmare-hunt"])
def test_deck_ids_and_card_ids_agree(exported, slug):
    table = saved_objects(exported, slug)[f"{slug}.json"]
    urls_by_id: dict[str, str] = {}
    for state in decks_in(table):
        sheets = sheets_of(state)
        cards = cards_of(state)
        if state["Name"] == "DeckCustom":
            assert state["DeckIDs"] == [card["CardID"] for card in cards]
        for card in cards:
            sheet_id, slot = divmod(card["CardID"], 100)
            assert list(card["CustomDeck"]) == [str(sheet_id)]
            assert card["CustomDeck"][str(sheet_id)] == sheets[str(sheet_id)]
            sheet = sheets[str(sheet_id)]
            assert slot < sheet["NumWidth"] * sheet["NumHeight"] - 1  # never the hidden card's slot
        for sheet_id, sheet in sheets.items():
            assert urls_by_id.setdefault(sheet_id, sheet["FaceURL"]) == sheet["FaceURL"]  # one id, one image
        assert {str(card["CardID"] // 100) for card in cards} == set(sheets)  # every sheet used
    assert len(set(urls_by_id.values())) == len(urls_by_id)


@pytest.mark.parametrize("slug", ["rt0-combat", "nightmare-hunt"])
def test_every_deck_is_there_with_its_copies_and_texts(exported, games, slug):
    game = games[slug]
    files = saved_objects(exported, slug)
    decks = [deck for deck in game.decks.values() if game.cards_in(deck.id)]
    table = decks_in(files[f"{slug}.json"])
    assert len(table) == len(decks)
    for deck, state in zip(decks, table):
        assert files[f"deck-{deck.id}.json"]["ObjectStates"][0]["CustomDeck"] == state["CustomDeck"]
        cards = cards_of(state)
        assert len(cards) == game.deck_total(deck.id)
        assert Counter(card["GMNotes"] for card in cards) == Counter(
            {card.id: card.count for card in game.cards_in(deck.id)})
        if state["Name"] == "DeckCustom":
            assert state["Nickname"] == deck.name
            assert state["Transform"]["rotZ"] == 180.0  # face down
        for card in cards:
            assert "**" not in card["Description"] and ":" in card["Description"]


def test_the_tarot_deck_is_78_cards_on_two_sheets(exported, games):
    (state,) = saved_objects(exported, "rt0-combat")["deck-tarot.json"]["ObjectStates"]
    assert state["Name"] == "DeckCustom" and len(state["ContainedObjects"]) == 78
    assert {key: (s["NumWidth"], s["NumHeight"]) for key, s in state["CustomDeck"].items()} == {"1": (10, 7), "2": (10, 1)}
    assert state["DeckIDs"] == list(range(100, 169)) + list(range(200, 209))
    fool = state["ContainedObjects"][0]
    assert fool["Nickname"] == "The Fool"
    assert "Value: 0" in fool["Description"].splitlines()


def test_a_deck_of_one_card_is_that_card_alone(exported):
    (wound,) = saved_objects(exported, "nightmare-hunt")["deck-wounds.json"]["ObjectStates"]
    assert wound["Name"] == "Card" and wound["Nickname"] == "Wound" and wound["CardID"] == 200
    assert wound["Description"].startswith("Wound\n")


@pytest.mark.parametrize("slug", ["rt0-combat", "nightmare-hunt"])
def test_sheet_images_are_the_grid_of_card_sized_slots_and_never_over_4096_px(exported, games, slug):
    game = games[slug]
    for state in decks_in(saved_objects(exported, slug)[f"{slug}.json"]):
        deck = game.decks[game.card(cards_of(state)[0]["GMNotes"]).deck]
        card = card_pixels(deck.size.width, deck.size.height)
        for sheet in sheets_of(state).values():
            with Image.open(local(sheet["FaceURL"])) as image:
                assert image.size == (sheet["NumWidth"] * card.width, sheet["NumHeight"] * card.height)
            with Image.open(local(sheet["BackURL"])) as back:
                assert back.size == (card.width, card.height)
    for target in ("tts", "sprites"):
        for path in (exported / slug / target / "images").iterdir():
            with Image.open(path) as image:
                assert max(image.size) <= MAX_PIXELS, path.name


def _drawn_alone(faces: Faces, card, pixels):
    return face_image(Rasterizer(faces.fonts), faces.front(card, edge_bleed(pixels)), pixels)


def _same(a, b) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("slug", ["rt0-combat", "nightmare-hunt"])
def test_the_card_at_each_row_and_column_is_the_card_the_json_names(exported, games, faces, slug):
    """Every card's slot holds exactly the pixels of that card drawn on its own (and not its neighbour's)."""
    game = games[slug]
    checked = 0
    opened: dict[str, Image.Image] = {}
    for state in decks_in(saved_objects(exported, slug)[f"{slug}.json"]):
        sheets = sheets_of(state)
        for entry in {card["CardID"]: card for card in cards_of(state)}.values():
            sheet_id, slot = divmod(entry["CardID"], 100)
            sheet = sheets[str(sheet_id)]
            card = game.card(entry["GMNotes"])
            assert entry["Nickname"] == card.name
            deck = game.decks[card.deck]
            pixels = card_pixels(deck.size.width, deck.size.height)
            row, column = divmod(slot, sheet["NumWidth"])
            if sheet["FaceURL"] not in opened:
                with Image.open(local(sheet["FaceURL"])) as image:
                    opened[sheet["FaceURL"]] = image.convert("RGB")
            image = opened[sheet["FaceURL"]]
            region = image.crop((column * pixels.width, row * pixels.height,
                                 (column + 1) * pixels.width, (row + 1) * pixels.height))
            alone = _drawn_alone(faces[slug], card, pixels)
            assert _same(region, alone), f"{card.id}: sheet {sheet_id} row {row} column {column}"
            if column + 1 < sheet["NumWidth"]:
                neighbour = image.crop(((column + 1) * pixels.width, row * pixels.height,
                                        (column + 2) * pixels.width, (row + 1) * pixels.height))
                assert not _same(neighbour, alone)
            checked += 1
    assert checked == len([card for card in game.cards if card.deck and game.cards_in(card.deck)])


def test_sheets_are_tiles_with_their_own_images(exported, games):
    game = games["rt0-combat"]
    tiles = [state for state in saved_objects(exported, "rt0-combat")["rt0-combat.json"]["ObjectStates"]
             if state["Name"] == "Custom_Tile"]
    assert [tile["Nickname"] for tile in tiles] == [sheet.name for sheet in game.sheets.values()]
    mat = tiles[0]
    with Image.open(local(mat["CustomImage"]["ImageURL"])) as image:
        assert image.size == (1754, 1240)  # 297 x 210 mm at 150 dpi
    assert mat["Transform"]["scaleX"] == round(297 / 63.5, 4)


@pytest.mark.parametrize("slug", ["rt0-combat", "nightmare-hunt"])
def test_objects_on_the_table_do_not_overlap(exported, games, slug):
    game = games[slug]
    boxes = []
    for state in saved_objects(exported, slug)[f"{slug}.json"]["ObjectStates"]:
        ident = state["GMNotes"]
        size = game.sheets[ident].size if state["Name"] == "Custom_Tile" else game.decks[
            ident if state["Name"] == "DeckCustom" else game.card(ident).deck].size
        units = CARD_UNITS / POKER_WIDTH_MM  # table units per millimetre
        t = state["Transform"]
        assert t["scaleX"] == round(size.width / POKER_WIDTH_MM, 4)  # real sizes in proportion
        boxes.append((t["posX"] - size.width * units / 2, t["posZ"] - size.height * units / 2,
                      t["posX"] + size.width * units / 2, t["posZ"] + size.height * units / 2))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize("slug", ["rt0-combat", "nightmare-hunt"])
def test_the_sprite_manifest_places_every_card(exported, games, faces, slug):
    game = games[slug]
    manifest = json.loads((exported / slug / "sprites" / "manifest.json").read_text(encoding="utf-8"))
    errors = [e.message for e in Draft202012Validator(MANIFEST).iter_errors(manifest)]
    assert errors == []
    printed = [card for card in game.cards if card.deck and game.cards_in(card.deck)]
    assert [entry["id"] for entry in manifest["cards"]] == [card.id for card in sorted(
        printed, key=lambda card: list(game.decks).index(card.deck))]
    images = {image["file"]: image for image in manifest["images"]}
    for entry in manifest["cards"]:
        image = images[entry["image"]]
        box = entry["box"]
        assert (box["x"], box["y"]) == (entry["column"] * image["card_width"], entry["row"] * image["card_height"])
        assert box["x"] + box["width"] <= image["width"] and box["y"] + box["height"] <= image["height"]
    last = manifest["cards"][-1]
    card = game.card(last["id"])
    deck = game.decks[card.deck]
    with Image.open(exported / slug / "sprites" / last["image"]) as sheet:
        b = last["box"]
        region = sheet.crop((b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]))
        assert _same(region, _drawn_alone(faces[slug], card, card_pixels(deck.size.width, deck.size.height)))


def test_building_sprites_kept_the_tts_files_and_both_share_the_images(exported):
    tts, sprites = exported / "rt0-combat" / "tts" / "images", exported / "rt0-combat" / "sprites" / "images"
    assert sorted(p.name for p in tts.iterdir()) == sorted(p.name for p in sprites.iterdir())
    for path in tts.iterdir():
        assert path.read_bytes() == (sprites / path.name).read_bytes()


def test_the_site_print_page_links_the_export(exported, games):
    import re

    game = games["rt0-combat"]
    site = exported / "site" / "rt0-combat"
    html = (site / "print-a4.html").read_text(encoding="utf-8")
    assert "Objects &rsaquo; Saved Objects" in html and "Chest" in html
    links = re.findall(r'<a href="(tts/[^"]+)"', html)
    assert links == ["tts/README.txt", "tts/rt0-combat.json", "tts/deck-tarot.json",
                     *(f"tts/sheet-{sheet}.json" for sheet in game.sheets)]  # the game's order
    assert '<a href="tts/deck-tarot.json" download>Tarot deck</a>' in html
    for link in links:
        assert (site / link).is_file(), link
    assert (site / "tts" / "images" / "deck-tarot-1.png").is_file()


# -- options, targets and bytes, on a small made-up game -------------------------------------------------------


def test_one_target_never_deletes_another_targetsoutput_contents(tmp_path):
    out = tmp_path / "out"
    game = out / "print-sample"
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "home"]) == 0
    home = output_contents(game / "print")
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "tts"]) == 0
    tts = output_contents(game / "tts")
    assert output_contents(game / "print") == home
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "printshop"]) == 0
    assert output_contents(game / "tts") == tts
    assert {k: v for k, v in output_contents(game / "print").items() if "/" not in k} == home
    assert (game / "print" / "printshop" / "cards.csv").is_file()
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "sprites"]) == 0
    assert output_contents(game / "tts") == tts and (game / "sprites" / "manifest.json").is_file()
    assert (game / "print" / "printshop" / "cards.csv").is_file()


def test_the_same_build_gives_the_sameoutput_contents(tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "tts"]) == 0
    # without --base-url the files only work on this computer, and the build says so (the site offers them)
    assert "print-sample: the Tabletop Simulator files load their images from this computer (file:///...); " \
           "for playtesters elsewhere, build with --base-url" in capsys.readouterr().out
    first = output_contents(out / "print-sample" / "tts")
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "tts"]) == 0
    assert output_contents(out / "print-sample" / "tts") == first


def test_base_url_jpeg_and_plain_descriptions(tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["build", str(FIXTURE), "--out", str(out), "--target", "tts", "--image-format", "jpeg",
                     "--base-url", "https://example.org/my-game/"]) == 0
    assert "load their images from this computer" not in capsys.readouterr().out
    folder = out / "print-sample" / "tts"
    (units,) = json.loads((folder / "deck-units.json").read_text(encoding="utf-8"))["ObjectStates"]
    sheet = units["CustomDeck"]["1"]
    assert sheet["FaceURL"] == "https://example.org/my-game/print-sample/tts/images/deck-units-1.jpg"
    assert sheet["BackURL"] == "https://example.org/my-game/print-sample/tts/images/deck-units-back.jpg"
    archer = units["ContainedObjects"][0]
    assert archer["Nickname"] == "Archer"
    # worded as the layout words it, markup stripped: **Power~1** is "Power 1", the :star: icon reads as its name
    assert archer["Description"] == "Unit\nCost: 2\nPower: 3\nEffect: Shoots first. star Gains Power 1 when an ally is near.\nTags: RANGED"
    healer = next(card for card in units["ContainedObjects"] if card["Nickname"] == "Healer")
    assert "Effect: ?" in healer["Description"]  # left open by the source, shown as on the card
    game = load_game(FIXTURE)
    pixels = card_pixels(63.5, 88.9)
    with Image.open(folder / "images" / "deck-units-1.jpg") as image:
        assert image.format == "JPEG" and image.size == (6 * pixels.width, 1 * pixels.height)
        region = image.crop((0, 0, pixels.width, pixels.height)).convert("RGB")
    alone = _drawn_alone(Faces(game), game.card("archer"), pixels)
    assert max(ImageStat.Stat(ImageChops.difference(region, alone)).mean) < 2.0  # high quality: close to the PNG


def test_a_bad_base_url_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["build", str(FIXTURE), "--target", "tts", "--base-url", "my-server/cards"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a URL starting with https://" in err and "Traceback" not in err
