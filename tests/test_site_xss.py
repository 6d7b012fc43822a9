"""A rulebook page cannot run script on the site (issue 13, D3), checked in headless Chromium.

The made-up ``site-demo`` game gets a page holding the usual ways to smuggle
script through Markdown: ``javascript:`` and ``data:`` links (inline, reference,
hidden behind an entity, a backslash escape or a space), a picture with a
``javascript:`` source, ``attr_list`` attributes (``onmouseover``, ``onfocus``,
``style``, ``autofocus``), raw ``<script>`` and ``<img onerror>``. Each sets a
``window`` flag if it ever runs. The page is opened, hovered, focused and every
link clicked; the flag must stay unset and no such attribute or URL be in the DOM.
The Content-Security-Policy is tested on its own: an inline handler or a foreign
script added to the page is refused.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from deckwright.generator.book.sanitize import safe_url
from deckwright.generator.site import build_site
from deckwright.rules.load import load_game
from deckwright.rules.problems import InvalidGame

FIXTURE = Path(__file__).parent / "fixtures" / "site-demo"
HOSTILE_PAGE = """# Hostile

[inline](javascript:window.__xss=1) [entity](jav&#x61;script:window.__xss=2) [escaped](javascript\\:window.__xss=3)
[reference][evil] [data](data:text/html,<script>parent.__xss=4</script>) [spaced]( javascript:window.__xss=5)
[tab](java	script:window.__xss=12) [upper](JAVASCRIPT:window.__xss=13) [vb](vbscript:msgbox)

![picture](javascript:window.__xss=6)

A paragraph to hover over.
{: onmouseover="window.__xss=7" style="position:fixed;inset:0;z-index:99" id="hover-me" class="trap" }

[focus me](#top){: onfocus="window.__xss=8" autofocus tabindex="1" }

<script>window.__xss=9</script> <img src=x onerror="window.__xss=10">

[Fine](https://example.com/rules) [also fine](play.md#setup) [mail](mailto:designer@example.com) [top](#hostile)

[evil]: javascript:window.__xss=11
"""
HOSTILE_PICTURE = "![picture](javascript:window.__xss=6)"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    game = tmp_path_factory.mktemp("game") / "site-demo"
    shutil.copytree(FIXTURE, game)
    (game / "rulebook" / "hostile.md").write_text(HOSTILE_PAGE.replace(HOSTILE_PICTURE, ""), encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("rulebook:\n", "rulebook:\n  - rulebook/hostile.md\n", 1),
                                    encoding="utf-8")
    target = tmp_path_factory.mktemp("out") / "site"
    # ``check`` refuses the javascript: picture (rules.book.pictures); the site must be safe without relying on
    # it, so the page is given its hostile text back after loading
    loaded = load_game(game)
    pages = tuple(replace(page, text=HOSTILE_PAGE) if page.id == "hostile" else page for page in loaded.pages)
    build_site([replace(loaded, pages=pages)], target, reports={})
    return target


def test_check_refuses_the_hostile_picture(tmp_path):
    game = tmp_path / "site-demo"
    shutil.copytree(FIXTURE, game)
    (game / "rulebook" / "hostile.md").write_text(HOSTILE_PAGE, encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("rulebook:\n", "rulebook:\n  - rulebook/hostile.md\n", 1),
                                    encoding="utf-8")
    with pytest.raises(InvalidGame) as failed:
        load_game(game)
    assert [(p.loc.line, p.loc.col, p.message) for p in failed.value.problems] == [
        (7, 1, "picture: 'javascript:window.__xss=6' is not a file; a rulebook picture names a PNG or JPEG file "
               "relative to the page")]


def test_the_page_is_built(hostile_site):
    assert (hostile_site / "site-demo" / "rules" / "hostile.html").is_file()


@pytest.mark.parametrize("url, safe", [
    ("javascript:alert(1)", False), (" JaVaScRiPt:alert(1)", False), ("jav&#x61;script:alert(1)", False),
    ("jav&amp;#x61;script:x", False), ("java\tscript:x", False), ("data:text/html,x", False), ("vbscript:x", False),
    ("https://example.com", True), ("mailto:a@example.com", True), ("turn.md#setup", True), ("#top", True),
    ("../cards.html", True), ("a/b:c", True),
])
def test_safe_url(url, safe):
    assert safe_url(url) is safe


class _Attributes(HTMLParser):
    """Every tag's attributes inside the page's <article>, and the text of every <script> anywhere."""

    def __init__(self):
        super().__init__()
        self.inside = 0
        self.attributes: list[tuple[str, str, str]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.inside += tag == "article"
        self._in_script = tag == "script"
        if self.inside:
            self.attributes += [(tag, name, value or "") for name, value in attrs]

    def handle_endtag(self, tag):
        self.inside -= tag == "article"
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.scripts.append(data)


def test_nothing_in_the_html_can_run(hostile_site):
    html = (hostile_site / "site-demo" / "rules" / "hostile.html").read_text(encoding="utf-8")
    parsed = _Attributes()
    parsed.feed(html)
    assert parsed.scripts == []
    bad = [(tag, name, value) for tag, name, value in parsed.attributes
           if name.startswith("on") or name in ("autofocus", "tabindex")
           or name == "style" and not value.startswith("text-align")
           or name in ("href", "src") and not safe_url(value)]
    assert bad == []
    assert ("a", "href", "https://example.com/rules") in parsed.attributes
    assert ("a", "href", "play.html#setup") in parsed.attributes
    assert ("p", "id", "hover-me") in parsed.attributes and ("p", "class", "trap") in parsed.attributes
    removed = [a for a in parsed.attributes if a == ("span", "class", "link-removed")]
    assert len(removed) == 10  # nine links and the picture, shown as their text
    assert "&lt;script&gt;window.__xss=9&lt;/script&gt;" in html  # raw HTML shows as text


@pytest.mark.usefixtures("chromium")
def test_no_script_runs_in_a_browser(browser, hostile_site):
    page = browser.new_page()
    violations: list[str] = []
    page.on("console", lambda m: "Content Security Policy" in m.text and violations.append(m.text))
    page.goto((hostile_site / "site-demo" / "rules" / "hostile.html").as_uri())
    page.wait_for_load_state("load")
    page.hover("#hover-me")
    page.keyboard.press("Tab")
    for index in range(page.locator("main a").count()):
        link = page.locator("main a").nth(index)
        if link.get_attribute("href") in (None, "") or link.get_attribute("href").startswith("#"):
            link.click()
    page.wait_for_timeout(200)
    assert page.evaluate("window.__xss") is None
    found = page.evaluate("""() => [...document.querySelectorAll('main *')].flatMap(e => [...e.attributes]
        .filter(a => a.name.startsWith('on') || a.name === 'autofocus'
                     || a.name === 'style' && !/^text-align/.test(a.value) && e.closest('.prose')
                     || ['href', 'src'].includes(a.name) && /^\\s*(javascript|data|vbscript):/i.test(a.value))
        .map(a => `${e.tagName} ${a.name}=${a.value}`))""")
    assert found == []
    trap = page.locator("#hover-me")
    assert trap.get_attribute("class") == "trap" and trap.get_attribute("style") is None
    page.close()


@pytest.mark.usefixtures("chromium")
def test_the_content_security_policy_refuses_inline_handlers_and_foreign_scripts(browser, hostile_site):
    page = browser.new_page()
    page.goto((hostile_site / "index.html").as_uri())
    page.wait_for_load_state("load")
    page.evaluate("""() => {
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective));
        const button = document.createElement('button');
        button.id = 'injected';
        button.setAttribute('onclick', 'window.__xss = "inline handler"');
        document.body.append(button);
        const script = document.createElement('script');
        script.src = 'https://example.com/evil.js';
        document.head.append(script);
        const inline = document.createElement('script');
        inline.textContent = 'window.__xss = "inline script"';
        document.head.append(inline);
    }""")
    page.click("#injected")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__xss") is None
    violations = page.evaluate("window.__violations")
    assert any(v.startswith("script-src") for v in violations), violations
    page.close()


def test_a_picture_is_copied_under_its_formats_name_never_the_one_the_game_folder_gave_it(tmp_path):
    """A PNG named ``board.html`` (or ``.svg``, ``.js``) passes the picture check, as it is a PNG; copied into the
    site under its own name it would be a page with a script of the game's. Its copy is named ``.png``."""
    game = tmp_path / "site-demo"
    shutil.copytree(FIXTURE, game)
    (game / "art" / "lantern.png").rename(game / "art" / "lantern.html")
    layout = game / "layouts" / "item.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("~ '.png'", "~ '.html'"), encoding="utf-8")
    shutil.copyfile(game / "art" / "lantern.html", game / "art" / "board.svg")
    intro = game / "rulebook" / "intro.md"
    intro.write_text(intro.read_text(encoding="utf-8") + "\n![The board](../art/board.svg)\n", encoding="utf-8")
    target = tmp_path / "out" / "site"
    build_site([load_game(game)], target, reports={})
    copied = sorted(path.name for path in (target / "site-demo" / "images").iterdir())
    assert len(copied) == 2 and all(name.endswith(".png") for name in copied), copied
    pages = "".join(path.read_text(encoding="utf-8") for path in target.rglob("*.html"))
    linked = set(re.findall(r"images/([^\"']+)", pages))
    assert linked == set(copied)  # the pages show the copies
