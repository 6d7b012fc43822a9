"""A hostile rulebook page (a game folder is untrusted) is one located error from ``check``, and ``build`` refuses it
the same way, leaving the earlier output as it was: quotes and lists nested past ``NESTING_LIMIT`` (the printed
rulebook exhausted memory), a page Python-Markdown does not read in time (a run of ``[`` is quadratic), and
attributes a page's ``{: ...}`` sets that the outputs drop (the sanitizer crashed on them). Each hostile page is
only just big enough: should a fix regress, the test fails in seconds rather than hanging."""
from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from deckwright.generator import cli
from deckwright.generator.book import markdown as book_markdown
from deckwright.generator.book.sanitize import clean_tree
from deckwright.rules.book.pages import NESTING_LIMIT, nesting_depth, skipped_fences
from deckwright.rules.book.pictures import page_links

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"


def game_with(tmp_path: Path, added: str) -> tuple[Path, Path, int]:
    """The site-demo game with ``added`` at the end of its play.md page: the game, the page, and the line
    ``added`` starts on."""
    game = tmp_path / "site-demo"
    shutil.copytree(FIXTURE, game)
    play = game / "rulebook" / "play.md"
    text = play.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    play.write_text(text + added + "\n", encoding="utf-8")
    return game, play, text.count("\n") + 1


def errors_of(capsys, *args: str) -> tuple[int, list[str]]:
    """The exit status of a deckwright command and its error lines (those naming a file)."""
    status = cli.main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    return status, [line for line in captured.err.splitlines() if ".md:" in line]


def refused_keeping_output(capsys, game: Path, tmp_path: Path) -> list[str]:
    """``build`` into a folder holding an earlier build's file: it must refuse and leave the file; its errors but
    the fixture's own (its worked example, which the game has no rules module to replay, fails a build)."""
    out = tmp_path / "out"
    (out / "site").mkdir(parents=True)
    earlier = out / "site" / "index.html"
    earlier.write_text("the earlier build", encoding="utf-8")
    status, errors = errors_of(capsys, "build", str(game), "--out", str(out), "--target", "home")
    assert status == 1
    assert earlier.read_text(encoding="utf-8") == "the earlier build"
    assert sorted(path.name for path in out.rglob("*")) == ["index.html", "site"]
    return [error for error in errors if ": failing: the game has no rules module" not in error]


def test_a_quote_nested_past_the_limit_is_one_error_at_the_mark_that_passes_it(tmp_path, capsys):
    game, play, line = game_with(tmp_path, ">" * (NESTING_LIMIT + 1) + " deep")
    status, errors = errors_of(capsys, "check", str(game))
    expected = [f"{play}:{line}:{NESTING_LIMIT + 1}: quotes and lists nest {NESTING_LIMIT + 1} deep here; a rulebook "
                f"page may nest them at most {NESTING_LIMIT} deep (the printed rulebook cannot lay out more)"]
    assert (status, errors) == (1, expected)
    assert refused_keeping_output(capsys, game, tmp_path) == expected


def test_lists_nested_past_the_limit_are_one_error_and_at_the_limit_none(tmp_path, capsys):
    items = ["    " * level + f"- level {level + 1}" for level in range(NESTING_LIMIT + 1)]
    game, play, line = game_with(tmp_path, "\n".join(items))
    status, errors = errors_of(capsys, "check", str(game))
    assert status == 1
    assert errors == [f"{play}:{line + NESTING_LIMIT}:{4 * NESTING_LIMIT + 1}: quotes and lists nest "
                      f"{NESTING_LIMIT + 1} deep here; a rulebook page may nest them at most {NESTING_LIMIT} deep "
                      "(the printed rulebook cannot lay out more)"]
    play.write_text(play.read_text(encoding="utf-8").replace(items[-1] + "\n", ""), encoding="utf-8")
    assert errors_of(capsys, "check", str(game))[1] == []


def test_the_nesting_counted_is_what_opens_quotes_list_items_and_admonitions():
    assert nesting_depth("> > - 1. x") == (4, 0)
    assert nesting_depth("        - x") == (3, 0)  # two levels of indentation, and the item
    assert nesting_depth("    !!! note") == (2, 0)
    assert nesting_depth(" " * 200 + "plain words") == (0, 0)  # opens nothing: a code block, or a lazy line
    assert nesting_depth("- - - - - - - - - - - - - - - - - - - -") == (0, 0)  # a horizontal rule
    assert nesting_depth("- " * 300 + "x") == (NESTING_LIMIT + 1, 2 * NESTING_LIMIT + 1)


def test_a_page_markdown_does_not_read_in_time_is_one_error_at_the_page(tmp_path, capsys, monkeypatch):
    # Python-Markdown takes seconds over this run of "[" (quadratic in its length); the limit is made short
    monkeypatch.setattr(book_markdown, "PAGE_SECONDS", 0.3)
    game, play, _ = game_with(tmp_path, "[" * 2500 + "x](#fighting)")
    status, errors = errors_of(capsys, "check", str(game))
    expected = [f"{play}:1:1: Markdown did not finish reading this page within 0.3 s; look for a long run of "
                "brackets, asterisks or other punctuation, or split the page"]
    assert (status, errors) == (1, expected)
    assert refused_keeping_output(capsys, game, tmp_path) == expected


def test_markdown_nesting_past_pythons_recursion_limit_is_a_page_error_not_a_traceback():
    page = type("PageLike", (), {"shown": "rulebook/deep.md"})()
    with pytest.raises(book_markdown.PageUnreadable) as raised:
        with book_markdown.reading(page):
            raise RecursionError
    assert str(raised.value.problem).startswith("rulebook/deep.md:1:1: Markdown could not read this page")


def test_a_run_of_brackets_is_scanned_once_and_its_link_found():
    text = "[" * 3000 + "x](a) and [b](c)\n\n[d](e)"
    assert [(link.loc.line, link.loc.col, link.src) for link in page_links(text, "p.md")] == [
        (1, 3000, "a"), (1, 3011, "c"), (3, 1, "e")]


def test_a_run_of_backticks_is_scanned_once_and_a_fence_beside_it_found():
    """A line of 100,000 backticks took 207 s to scan for fences a page does not open (quadratic); 20,000, 7 s."""
    text = "`" * 20_000 + "\n> ```example\n" + "~" * 20_000 + "cards\n"
    assert [(loc.line, loc.col) for loc in skipped_fences(text, "p.md", "example")] == [(2, 3)]
    assert [(loc.line, loc.col) for loc in skipped_fences(text, "p.md", "cards")] == [(3, 1)]


def test_the_sanitizer_drops_a_bad_address_and_every_attribute_beside_it():
    for tag, url in (("img", "src"), ("a", "href")):
        element = ET.Element(tag, {url: "javascript:x", "onerror": "y", "alt": "pic"})
        root = ET.Element("p")
        root.append(element)
        removed = clean_tree(root)  # raised KeyError: as_text had cleared the attributes it went on deleting
        assert sorted(removed) == sorted([(url, "javascript:x"), ("onerror", "y")])
        assert element.tag == "span" and "onerror" not in element.attrib and url not in element.attrib


ATTRIBUTES_PAGE = ('![pic](../art/lantern.png){: src="javascript:x" onerror="y" }\n\n'
                   '[a](https://ok.example){: href="javascript:x" onclick="y" }\n\n'
                   '![other](../art/lantern.png){: src="../art/elsewhere.png" }\n\n'
                   '![third](../art/lantern.png){: SRC="../art/elsewhere.png" }\n\n'
                   'Fine: [b](https://ok.example){: #here .note }\n')


def test_check_reports_each_attribute_a_page_sets_that_the_outputs_drop_and_build_refuses(tmp_path, capsys):
    game, play, line = game_with(tmp_path, ATTRIBUTES_PAGE)
    status, errors = errors_of(capsys, "check", str(game))
    picture = ("sets a picture's file where deckwright check does not read it: write it in the parentheses, "
               "![what it shows](../art/map.png) or [words](turn.md)")
    link = picture.replace("a picture's file", "a link's address")
    dropped = ("the site and the printed rulebook leave this attribute out; a page's {: ...} may set only id, class "
               "and title")
    assert status == 1
    lines = ATTRIBUTES_PAGE.splitlines()

    def at(row: int, name: str) -> str:
        return f"{play}:{line + row}:{lines[row].index(name + '=') + 1}"

    assert errors == [f"{at(0, 'src')}: {{: src=... }} {picture}",
                      f"{at(0, 'onerror')}: {{: onerror=... }}: {dropped}",
                      f"{at(2, 'href')}: {{: href=... }} {link}",
                      f"{at(2, 'onclick')}: {{: onclick=... }}: {dropped}",
                      f"{at(4, 'src')}: {{: src=... }} {picture}",
                      f"{at(6, 'SRC')}: {{: SRC=... }} {picture}"]
    assert refused_keeping_output(capsys, game, tmp_path) == errors


def test_with_force_the_site_and_printed_rulebook_show_why_a_page_is_missing(tmp_path, monkeypatch):
    from deckwright.generator.layout.faces import Faces
    from deckwright.generator.outputs.rulebook.parsed import ParsedBook
    from deckwright.generator.site import build_site
    from deckwright.rules.load import load_game

    monkeypatch.setattr(book_markdown, "PAGE_SECONDS", 0.3)
    game, _, _ = game_with(tmp_path, "[" * 2500 + "x](#fighting)")
    loaded = load_game(game)
    why = "deckwright could not read this page: Markdown did not finish reading this page within 0.3 s"
    book = ParsedBook(loaded, Faces(loaded), [])
    play = next(parsed for parsed in book.pages if parsed.page.id == "play")
    assert "".join(play.tree.itertext()).startswith(why) and not play.examples
    build_site([loaded], tmp_path / "site", reports={})
    html = next((tmp_path / "site").rglob("play.html")).read_text(encoding="utf-8")
    assert why in html and "[[[" not in html


def test_the_tables_an_output_makes_of_a_pages_blocks_do_not_count_against_its_time_limit(tmp_path, monkeypatch):
    """A table of 20,000 cards takes the site seconds to make (more on a busy machine): that is not Markdown's
    reading, which the check timed, so the page the check passed is never an error page in the site."""
    import time

    from deckwright.generator.site import build_site
    from deckwright.generator.site import pages as site_pages
    from deckwright.rules.load import load_game

    made = site_pages._Renderer.block

    def slow_block(self, kind, line, body):
        end = time.process_time() + 0.6
        while time.process_time() < end:
            pass
        return made(self, kind, line, body)

    monkeypatch.setattr(site_pages._Renderer, "block", slow_block)
    monkeypatch.setattr(book_markdown, "PAGE_SECONDS", 0.3)
    loaded = load_game(shutil.copytree(FIXTURE, tmp_path / "site-demo"))
    build_site([loaded], tmp_path / "site", reports={})
    html = next((tmp_path / "site").rglob("play.html")).read_text(encoding="utf-8")
    assert "could not read this page" not in html and 'class="cards-table"' in html
