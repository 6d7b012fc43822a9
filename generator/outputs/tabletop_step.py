"""The build step for online play: Tabletop Simulator saved objects and plain sprite sheets.

    tts/<game>.json, <game>.png        every deck and sheet on the table (and its picture)
    tts/deck-<deck>.json, .png         one deck
    tts/sheet-<sheet>.json, .png       one mat or play aid, as a tile
    tts/images/deck-<deck>-N.png       the deck's faces, at most 10 x 7 a sheet (the last slot: its back)
    tts/images/deck-<deck>-back.png    the deck's back
    tts/images/sheet-<sheet>.png
    tts/README.txt                     how to load them, and the sizes the cards are drawn at
    sprites/manifest.json              where each card is on which image (see ``sprites``)
    sprites/images/...                 the same images

Both targets share one drawing of the images. Image URLs in the saved objects are ``file:///`` paths
to the built images, or under ``--base-url`` (``URL/<game>/tts/images/<file>``) for images put online.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from deckwright.generator.layout.cardtext import card_description
from deckwright.generator.layout.faces import Faces
from deckwright.generator.output import link_or_copy, write_json

from . import sprites, tts
from .deck_sheets import DeckImages, SheetImage, plan_decks, plan_sheets
from .sheet_images import EXTENSIONS, draw_images, image_jobs

TARGETS = ("tts", "sprites")


def step_tabletop(game, folder: Path, options, faces: Faces, report=None) -> None:
    targets = TARGETS if options.target == "all" else tuple(t for t in TARGETS if t == options.target)
    if not targets:
        return
    decks = plan_decks(game, EXTENSIONS[options.image_format])
    sheets = plan_sheets(game, EXTENSIONS[options.image_format])
    images = folder / targets[0] / sprites.IMAGES
    pictures = draw_images(image_jobs(faces, decks, sheets), images, options.image_format, faces.fonts)
    if "tts" in targets:
        _write_tts(game, folder / "tts", options, faces, decks, sheets, pictures)
    if "sprites" in targets:
        if targets[0] != "sprites":
            shutil.copytree(images, folder / "sprites" / sprites.IMAGES, copy_function=link_or_copy)
        write_json(folder / "sprites" / "manifest.json", sprites.manifest(game, decks, sheets))
    print(f"{game.slug}: {' and '.join(targets)}: {_summary(decks, sheets)}")
    if "tts" in targets and not options.base_url and (decks or sheets):
        print(f"{game.slug}: the Tabletop Simulator files load their images from this computer (file:///...); "
              f"for playtesters elsewhere, build with --base-url and upload {game.slug}/tts/images/ there")


def image_url(options, slug: str, name: str) -> str:
    """Where Tabletop Simulator finds an image: under ``--base-url``, or the built file on this machine."""
    if options.base_url:
        return f"{options.base_url.rstrip('/')}/{slug}/tts/{sprites.IMAGES}/{name}"
    return Path(os.path.abspath(options.out / slug / "tts" / sprites.IMAGES / name)).as_uri()


def _write_tts(game, out: Path, options, faces: Faces, decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...],
               pictures: dict[str, object]) -> None:
    """The saved objects, each with its picture (a deck's: its first card; the whole table's: the first back)."""
    def url(name: str) -> str:
        return image_url(options, game.slug, name)

    texts: dict[str, tts.CardText] = {}

    def text(card) -> tts.CardText:
        if card.id not in texts:
            texts[card.id] = tts.CardText(card.name, card_description(faces, card))
        return texts[card.id]

    saved = []  # (file name without .json, what it holds, its objects, the image its picture is made from)
    if decks or sheets:
        everything = tts.table(game, decks, sheets, url, text)
        saved.append((game.slug, "every deck and sheet, laid out on the table", everything,
                      decks[0].back_file if decks else sheets[0].file))
    saved += [(f"deck-{plan.deck.id}", plan.deck.name, [tts.deck_object(game, plan, url, text)], plan.sheets[0].file)
              for plan in decks]
    saved += [(f"sheet-{item.sheet.id}", item.sheet.name, [tts.tile_object(item, url)], item.file) for item in sheets]
    for name, holds, objects, picture in saved:
        save_name = game.title if name == game.slug else f"{game.title}: {holds}"
        write_json(out / f"{name}.json", tts.saved_object(save_name, objects))
        pictures[picture].save(out / f"{name}.png", "PNG")
    files = [(f"{name}.json", holds) for name, holds, _, _ in saved]
    (out / "README.txt").write_text(_readme(game, files, decks, sheets, options), encoding="utf-8")


def _summary(decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...]) -> str:
    sizes = {f"{plan.deck.size.name} cards {plan.card}" for plan in decks}
    pages = sum(len(plan.sheets) for plan in decks)
    return (f"{len(decks)} deck(s) on {pages} sheet image(s) ({', '.join(sorted(sizes)) or 'no cards'}), "
            f"{len(sheets)} sheet(s) as tiles")


def _readme(game, files: list[tuple[str, str]], decks: tuple[DeckImages, ...], sheets: tuple[SheetImage, ...],
            options) -> str:
    where = (f"{options.base_url.rstrip('/')}/{game.slug}/tts/images/ (upload the images/ folder there)"
             if options.base_url else "this folder's images/, by file:/// paths on the machine that built them")
    lines = [
        f"{game.title}: Tabletop Simulator saved objects, written by deckwright.",
        "",
        "To load them: copy the .json and .png files (or this whole folder) into Tabletop Simulator's",
        "Saves/Saved Objects folder:",
        "  Windows  Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects",
        "  macOS    ~/Library/Tabletop Simulator/Saves/Saved Objects",
        "  Linux    ~/.local/share/Tabletop Simulator/Saves/Saved Objects",
        "then, in a game, choose Objects > Saved Objects (or open the Chest, Saved Objects) and click one.",
        "",
    ]
    width = max((len(name) for name, _ in files), default=0)
    lines += [f"  {name:<{width}}  {holds}" for name, holds in files]
    lines += ["", f"The images are loaded from {where}.", "",
              "Sizes (10 x 7 cards at most per image, 4096 px at most each way):"]
    for plan in decks:
        grids = ", ".join(f"{sheet.columns} x {sheet.rows}" for sheet in plan.sheets)
        lines.append(f"  {plan.deck.name}: {plan.deck.size.name} cards drawn at {plan.card}, "
                     f"{len(plan.sheets)} sheet(s) of {grids}")
    lines += [f"  {item.sheet.name}: {item.pixels}" for item in sheets]
    return "\n".join(lines) + "\n"
