"""``deckwright serve``: the site rebuilt as files change, pages brought up to date in the browser, errors shown
over the last good build, and a clean stop.

The browser test drives the system Chromium through Playwright on a copy of the
spreadsheet test game: it edits the CSV deck and sees the gallery change, breaks
a cell and sees the overlay with the cell's location, fixes it and sees the
overlay go. Without Chromium it is skipped, unless the ``CI`` variable is set:
then it fails.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import default_sigint

from deckwright.generator.serve import serve
from deckwright.generator.serve.live import LiveSite
from deckwright.generator.serve.patches import patch
from deckwright.generator.serve.watch import CONTENT, LAYOUTS, kind_of_change

FIXTURE = Path(__file__).parent / "fixtures" / "spreadsheets"
GALLERY = "spreadsheet-sample/cards.html"


@pytest.fixture
def game(tmp_path) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(FIXTURE, folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# -- the rebuild, without a browser ------------------------------------------------------------


def test_an_edit_redraws_only_its_card_and_rewrites_only_the_pages_that_show_it(game, tmp_path):
    site = LiveSite(game, tmp_path / "site")
    first = site.rebuild(examples=True)
    assert first.errors == () and first.redrawn == 9  # 7 different cards, 2 backs
    gallery = tmp_path / "site" / GALLERY
    assert ">Old Stump<" in gallery.read_text()

    edit(game / "monsters.csv", "that never moves", "that never walks")
    update = site.rebuild(layouts_changed=False, urgent={GALLERY})
    assert update.redrawn == 1  # the edited card; no other card shows its text
    assert update.changed == (GALLERY,)  # the page a browser shows comes first ...
    assert "never walks" in gallery.read_text()
    units = update.patches[GALLERY]["units"]  # ... with the elements that changed, nothing else
    assert sorted(units) == ["card-old-stump", "face-old-stump"]
    later = site.finish()  # ... then the rest of the site: the printables (its rule page's table shows no text)
    assert set(later.changed) == {"spreadsheet-sample/print-a4.html", "spreadsheet-sample/print-letter.html"}
    assert site.pages["spreadsheet-sample/index.html"] == (tmp_path / "site/spreadsheet-sample/index.html").read_text()
    assert site.finish() is None


def test_a_broken_edit_keeps_the_last_good_build_and_its_fix_brings_it_back(game, tmp_path):
    site = LiveSite(game, tmp_path / "site")
    site.rebuild(examples=True)
    before = {p: p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    edit(game / "monsters.csv", "Mire Hag,1,5,3", "Mire Hag,1,5,lots")
    broken = site.rebuild(layouts_changed=False)
    assert broken.changed == ()
    assert broken.shown_errors == (  # the browser's lines name files in the game folder
        'monsters.csv:3:power: monster.mire-hag.power: expected a whole number >= 0, got "lots"',)
    assert broken.errors[0].endswith("game/" + broken.shown_errors[0])  # the terminal's, as `check` prints them
    assert {p: p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()} == before
    edit(game / "monsters.csv", "Mire Hag,1,5,lots", "Mire Hag,1,5,4")
    fixed = site.rebuild(layouts_changed=False)
    assert fixed.errors == () and site.errors == ()
    assert fixed.redrawn == 2  # the card, and the Sage: its rival, and its layout looks the rival's name up
    assert GALLERY in fixed.changed


def test_an_edit_that_makes_an_example_fail_is_said_in_the_terminal(tmp_path, capsys):
    """The build goes on (the example's page shows the failure), but the terminal names the failing example as
    `deckwright check` does, where a designer watching only the terminal sees it."""
    from deckwright.generator.new import write_new_game
    from deckwright.generator.serve import _report

    game = write_new_game(tmp_path / "duel").folder
    site = LiveSite(game, tmp_path / "site")
    assert site.rebuild(examples=True).failing == ()
    edit(game / "heroes.yaml", "defense: 5", "defense: 6")
    update = site.rebuild(layouts_changed=False, examples=True)
    assert update.errors == () and update.changed  # built
    [line] = update.failing
    assert re.search(r"duel/rulebook/rules\.md:\d+:\d+: .*: failing", line), line
    _report(update)
    out, err = capsys.readouterr()
    assert line in err.splitlines() and "1 worked example failing" in out
    [shown] = update.shown_failing  # for the browser's panel: the page's path in the game folder
    assert shown.startswith("rulebook/rules.md:") and shown.split(": ", 1)[1] in line
    again = site.rebuild(layouts_changed=False)
    assert again.failing == ()  # not replayed: nothing new to say in the terminal ...
    assert again.shown_failing == (shown,)  # ... but the browser still shows the last replay's
    edit(game / "heroes.yaml", "defense: 6", "defense: 5")
    assert site.rebuild(layouts_changed=False, examples=True).shown_failing == ()


def test_a_link_that_points_nowhere_stops_the_rebuild_as_it_fails_check(tmp_path):
    from deckwright.generator.new import write_new_game

    game = write_new_game(tmp_path / "duel").folder
    site = LiveSite(game, tmp_path / "site")
    assert site.rebuild().errors == ()
    page = game / "rulebook" / "rules.md"
    page.write_text(page.read_text() + "\nSee [the rest](rest.md).\n")
    broken = site.rebuild(layouts_changed=False)
    assert broken.changed == () and len(broken.shown_errors) == 1
    assert re.fullmatch(r"rulebook/rules\.md:\d+:5: link: no page 'rest\.md' in the rulebook.*", broken.shown_errors[0])


def test_cards_that_look_another_card_up_follow_in_a_second_pass(game, tmp_path):
    edit(game / "monsters.csv", "name,", "id,name,")  # ids written out, so a card can be renamed
    for name in ("Bog Rat", "Mire Hag", "Lantern Eel", "Old Stump"):
        edit(game / "monsters.csv", f"\n{name},", f"\n{name.lower().replace(' ', '-')},{name},")
    site = LiveSite(game, tmp_path / "site")
    site.rebuild(examples=True)
    edit(game / "monsters.csv", ",Mire Hag,", ",Mire Witch,")  # the Sage's rival: the Sage's card names it
    first = site.rebuild(layouts_changed=False, urgent={GALLERY})
    assert first.redrawn == 1  # the renamed card's picture; the Sage's figure has its new alt text already
    assert sorted(first.patches[GALLERY]["units"]) == ["card-mire-hag", "card-sage", "face-mire-hag"]
    second = site.finish()  # then the pictures of the cards that show it
    assert second.redrawn == 1 and sorted(second.patches[GALLERY]["units"]) == ["face-sage"]
    assert "Rival: Mire Witch" in second.patches[GALLERY]["units"]["face-sage"]


def test_a_layout_edit_compiles_layouts_again_and_redraws_their_cards(game, tmp_path):
    site = LiveSite(game, tmp_path / "site")
    site.rebuild(examples=True)
    edit(game / "layouts" / "hero.yaml", "size: 9", "size: 10")
    update = site.rebuild(layouts_changed=True)
    assert update.errors == () and update.redrawn == 9  # compiled afresh: every picture drawn again


def test_a_broken_layout_stays_broken_through_data_edits_until_fixed(game, tmp_path):
    site = LiveSite(game, tmp_path / "site")
    site.rebuild(examples=True)
    edit(game / "layouts" / "hero.yaml", "text: \"{{ fmt('motto') }}\"", "text: \"{{ fmt('motto' }}\"")
    assert site.rebuild(layouts_changed=True).errors
    edit(game / "monsters.csv", "that never moves", "that never walks")  # a data edit: layouts not re-read ...
    assert site.rebuild(layouts_changed=False).errors  # ... but the broken one is still the one in force
    edit(game / "layouts" / "hero.yaml", "text: \"{{ fmt('motto' }}\"", "text: \"{{ fmt('motto') }}\"")
    assert site.rebuild(layouts_changed=True).errors == ()


def test_which_changes_matter(game):
    slug = "spreadsheet-sample"
    assert kind_of_change(game / "monsters.csv", game, slug) == CONTENT
    assert kind_of_change(game / "layouts" / "hero.yaml", game, slug) == LAYOUTS
    assert kind_of_change(game / ".monsters.csv.swp", game, slug) is None
    from deckwright.generator.layout.files import LAYOUT_DIR

    assert kind_of_change(LAYOUT_DIR.resolve() / "back.yaml", game, slug) == LAYOUTS
    assert kind_of_change(LAYOUT_DIR.resolve() / "gloombah" / "class.yaml", game, slug) is None


def test_patches_name_the_elements_that_changed_or_nothing():
    old = '<main><figure id="card-a">A</figure><figure id="card-b">B</figure></main><svg><symbol id="face-a">1</symbol></svg>'
    assert patch(old, old.replace(">B<", ">C<")) == {"card-b": '<figure id="card-b">C</figure>'}
    assert patch(old, old.replace(">1<", ">2<")) == {"face-a": '<symbol id="face-a">2</symbol>'}
    assert patch(old, old.replace("<main>", "<main><h1>new</h1>")) is None  # outside the figures


# -- the server --------------------------------------------------------------------------------


@pytest.fixture
def served(game):
    """``serve`` running in a thread on a free port; yields (game folder, the game's URL)."""
    ready: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(game, 0, stop, ready.append), daemon=True)
    thread.start()
    for _ in range(600):
        if ready or not thread.is_alive():
            break
        time.sleep(0.1)
    assert ready, "serve did not start"
    yield game, ready[0]
    stop.set()
    thread.join(timeout=20)
    assert not thread.is_alive(), "serve did not stop"


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_serve_answers_on_localhost_only_and_stays_in_the_site(served):
    game, url = served
    assert url.startswith("http://127.0.0.1:") and url.endswith("/spreadsheet-sample/")
    status, page = get(url + "cards.html")
    assert status == 200 and '<script src="/__deckwright/live.js" data-page="spreadsheet-sample/cards.html"' in page
    root = url.rsplit("/", 2)[0]
    assert get(root + "/__deckwright/live.js")[0] == 200
    for outside in ("/../game/monsters.csv", "/%2e%2e/%2e%2e/etc/passwd", "/__deckwright/../../game.yaml"):
        assert get(root + outside)[0] == 404, outside


def test_serve_answers_only_to_its_own_names_and_to_head(served):
    """A request naming another host (a web page that pointed its own name at 127.0.0.1) is refused, so that it
    cannot read the pages and errors; HEAD gets a GET's headers without the body (link checkers use it)."""
    game, url = served
    page = url + "cards.html"
    port = url.split(":")[2].split("/")[0]
    for host, status in (("evil.example", 403), (f"evil.example:{port}", 403), (f"localhost:{port}", 200),
                         (f"127.0.0.1:{port}", 200)):
        request = urllib.request.Request(page, headers={"Host": host})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                got = response.status
        except urllib.error.HTTPError as exc:
            got = exc.code
        assert got == status, host
    events = urllib.request.Request(url.rsplit("/", 2)[0] + "/__deckwright/events", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(events, timeout=10)
    assert refused.value.code == 403
    with urllib.request.urlopen(urllib.request.Request(page, method="HEAD"), timeout=10) as response:
        assert response.status == 200 and response.read() == b""
        assert int(response.headers["Content-Length"]) > 1000 and response.headers["Content-Type"].startswith("text/html")


def test_a_connection_the_browser_resets_prints_no_traceback(served, capfd):
    """A keep-alive connection closed with a reset (a tab closed, a page left mid-request) made the server print
    the standard library's traceback of the ConnectionResetError in the terminal."""
    game, url = served
    port = int(url.split(":")[2].split("/")[0])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"GET /__deckwright/live.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert connection.recv(100).startswith(b"HTTP/1.1 200")  # the server now waits for the next request
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = reset
    time.sleep(0.5)
    assert get(url + "cards.html")[0] == 200
    assert "Traceback" not in capfd.readouterr().err


def test_ctrl_c_stops_serve_cleanly(game, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    process = subprocess.Popen([sys.executable, "-m", "deckwright.generator.cli", "serve", str(game), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "TMPDIR": str(scratch)}, preexec_fn=default_sigint)
    line = process.stdout.readline()
    assert re.search(r"spreadsheet-sample: serving http://127\.0\.0\.1:\d+/spreadsheet-sample/", line), line
    assert any(scratch.iterdir())  # the site being served
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0
    assert "Traceback" not in err and out.strip().endswith("stopped")
    assert list(scratch.iterdir()) == []  # its temporary site removed


def test_a_link_to_folders_it_may_not_read_keeps_the_watch_going(game, tmp_path):
    """watchfiles follows links: one in the game folder to a tree holding a folder this user may not read (here
    /proc/1/task, whose fdinfo a container's root may not list) killed the watcher with a traceback at start,
    and the site was never rebuilt again. Such folders are passed over and the game's own edits still count."""
    (game / "elsewhere").symlink_to("/proc/1/task")
    process = subprocess.Popen([sys.executable, "-m", "deckwright.generator.cli", "serve", str(game), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    assert "serving http://127.0.0.1:" in process.stdout.readline()
    process.stdout.readline()  # the first build
    time.sleep(1)  # the watch set up
    edit(game / "monsters.csv", "that never moves", "that never walks")
    rebuilt = process.stdout.readline()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert "built in" in rebuilt and "page(s) written: spreadsheet-sample/cards.html" in rebuilt, rebuilt + err
    assert "Traceback" not in err and out.strip().endswith("stopped")


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"),
                                     RuntimeError("error in underlying watcher: too many watches")])
def test_a_watch_that_fails_says_so_in_one_line_and_the_site_no_longer_rebuilds(tmp_path, capsys, monkeypatch, failure):
    import queue
    import threading

    import watchfiles

    from deckwright.generator.serve import watch

    def failing(*folders, **options):
        raise failure
        yield  # (a generator, as watchfiles.watch is)

    monkeypatch.setattr(watchfiles, "watch", failing)
    watch._watch([tmp_path / "game", tmp_path / "layouts"], threading.Event(), queue.Queue())
    err = capsys.readouterr().err
    assert err == (f"deckwright: cannot watch {tmp_path / 'game'}, {tmp_path / 'layouts'} for edits ({failure}); "
                   f"the site is no longer rebuilt as you edit: restart deckwright serve\n")


# -- in the browser ------------------------------------------------------------------------------


def test_the_browser_follows_edits_errors_and_fixes(served, browser):
    game, url = served
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url + "cards.html")
    name = page.locator("#card-old-stump .card-name")
    assert name.text_content() == "Old Stump"
    page.wait_for_timeout(500)  # the page keeps a copy of itself as served, fetched once it has loaded
    page.evaluate("window.keptAcrossEdits = true")  # gone if the page reloads instead of patching itself

    edit(game / "monsters.csv", "that never moves", "that never walks")  # the card's picture is swapped
    page.wait_for_function("() => document.getElementById('face-old-stump').textContent.includes('never walks')",
                           timeout=30000)
    edit(game / "monsters.csv", "Old Stump", "Old Oak")  # a new id (made from the name): a new figure
    page.wait_for_selector("#card-old-oak .card-name", timeout=30000)
    assert page.locator("#card-old-oak .card-name").text_content() == "Old Oak"
    assert page.locator("#card-old-stump").count() == 0

    edit(game / "monsters.csv", "Mire Hag,1,5,3", "Mire Hag,1,5,lots")
    overlay = page.locator("#deckwright-overlay")
    overlay.wait_for(timeout=30000)
    assert "The last edit has 1 error" in overlay.text_content()
    assert overlay.locator("li").all_text_contents() == [
        'monsters.csv:3:power: monster.mire-hag.power: expected a whole number >= 0, got "lots"']
    assert page.locator("#card-old-oak .card-name").text_content() == "Old Oak"  # the last good build beneath

    edit(game / "monsters.csv", "Mire Hag,1,5,lots", "Mire Hag,1,5,3")
    overlay.wait_for(state="detached", timeout=30000)
    assert page.locator("#card-old-oak .card-name").text_content() == "Old Oak"
    assert page.evaluate("window.keptAcrossEdits") is True
    assert errors == []


def test_a_game_broken_from_the_start_shows_its_errors_above_an_empty_page(game, browser):
    """No good build to show beneath: the panel says so and sits in the page, not over its heading."""
    edit(game / "monsters.csv", "Mire Hag,1,5,3", "Mire Hag,1,5,lots")
    with serving(game) as url:
        page = browser.new_page()
        page.goto(url + "cards.html")
        overlay = page.locator("#deckwright-overlay")
        overlay.wait_for(timeout=30000)
        assert "Nothing has been built yet" in overlay.text_content() and "last good build" not in overlay.text_content()
        assert overlay.locator("h2").text_content() == "The game has 1 error"  # no edit made yet
        panel, heading = overlay.bounding_box(), page.locator("h1").bounding_box()
        assert panel["y"] + panel["height"] <= heading["y"]  # above the heading, not over it


@contextlib.contextmanager
def serving(game: Path):
    """``deckwright serve`` of ``game`` in a thread while the block runs; the game's address."""
    ready: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(game, 0, stop, ready.append), daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if ready or not thread.is_alive():
                break
            time.sleep(0.1)
        assert ready, "serve did not start"
        yield ready[0]
    finally:
        stop.set()
        thread.join(timeout=20)


def test_a_failing_example_shows_in_a_panel_that_can_be_hidden_and_goes_when_fixed(tmp_path, browser):
    """The site is still built, so the panel keeps to a corner and says the pages are up to date."""
    from deckwright.generator.new import write_new_game

    game = write_new_game(tmp_path / "duel").folder
    with serving(game) as url:
        page = browser.new_page()
        page.goto(url + "index.html")
        page.wait_for_timeout(500)
        overlay = page.locator("#deckwright-overlay")
        assert overlay.count() == 0
        edit(game / "heroes.yaml", "defense: 5", "defense: 6")
        overlay.wait_for(timeout=60000)
        assert overlay.get_attribute("class") == "dw-live-overlay dw-live-failing"
        assert overlay.locator("h2").text_content() == "1 worked example fails"
        [line] = overlay.locator("li").all_text_contents()
        assert line.startswith("rulebook/rules.md:") and "The Knight hits the Rogue" in line, line
        panel, viewport = overlay.bounding_box(), page.viewport_size
        assert panel["y"] > viewport["height"] / 2  # in the bottom corner, not over the page's heading
        overlay.locator("button", has_text="Hide").click()
        assert overlay.count() == 0
        edit(game / "heroes.yaml", "defense: 6", "defense: 7")  # still failing: shown again with the next update
        overlay.wait_for(timeout=60000)
        edit(game / "heroes.yaml", "defense: 7", "defense: 5")
        overlay.wait_for(state="detached", timeout=60000)
