// deckwright serve: brings this page up to date when a rebuild rewrites it, and shows an edit's errors over it.
// Served only by `deckwright serve`; the built site never contains it.
//
// A rewritten page is not reloaded: its new version is fetched and compared with the version this page was
// served as (a parsed copy kept for that, since site.js changes the live page), and only the elements that
// differ are swapped in, each the nearest element with an id around a difference (a card's figure, a card's
// picture symbol, a rulebook page's main text). A gallery of a thousand cards takes seconds to load and
// milliseconds to patch. Anything that cannot be patched that way reloads the page.
(function () {
  "use strict";
  var me = document.currentScript;
  var page = me.getAttribute("data-page");
  var version = parseInt(me.getAttribute("data-version"), 10) || 0;
  var overlay = null;
  var served = null;  // this page as the server sent it, parsed
  var queue = Promise.resolve();

  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/__deckwright/live.css";
  document.head.appendChild(style);

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // errors stop the build: the panel says so over the last good build. Failing worked examples do not: the site
  // is up to date and marks them on their pages, and a quieter panel lists them.
  function showPanel(errors, failing) {
    if (!errors.length && !(failing || []).length) {
      if (overlay) overlay.remove();
      overlay = null;
      return;
    }
    if (!errors.length) return showFailing(failing);
    // a page never built (the game had errors from the start) has no last good build to show under the panel:
    // the panel then sits in the page, above its "Nothing to show yet", and says so
    var unbuilt = document.body.hasAttribute("data-deckwright-unbuilt");
    if (!overlay) {
      overlay = element("aside", unbuilt ? "dw-live-overlay dw-live-inline" : "dw-live-overlay");
      overlay.id = "deckwright-overlay";
      overlay.setAttribute("role", "alert");
      document.body.insertBefore(overlay, document.body.firstChild);
    }
    var noun = errors.length === 1 ? "error" : "errors";
    var list = element("ol", "dw-live-errors");
    errors.forEach(function (line) { list.appendChild(element("li", "", line)); });
    overlay.className = unbuilt ? "dw-live-overlay dw-live-inline" : "dw-live-overlay";
    overlay.setAttribute("role", "alert");
    overlay.replaceChildren(
      element("h2", "dw-live-title", (unbuilt ? "The game has " : "The last edit has ") + errors.length + " " + noun),
      element("p", "dw-live-note", unbuilt
        ? "Nothing has been built yet. Fix the file and save: the site appears here."
        : "The page below is the last good build. Fix the file and save: this goes away."),
      list);
  }

  function showFailing(failing) {
    if (!overlay) {
      overlay = element("aside", "");
      overlay.id = "deckwright-overlay";
      document.body.insertBefore(overlay, document.body.firstChild);
    }
    overlay.className = "dw-live-overlay dw-live-failing";
    overlay.setAttribute("role", "status");
    var list = element("ol", "dw-live-errors");
    failing.forEach(function (line) { list.appendChild(element("li", "", line)); });
    var noun = failing.length === 1 ? " worked example fails" : " worked examples fail";
    var hide = element("button", "dw-live-hide", "Hide");
    hide.type = "button";
    hide.addEventListener("click", function () { if (overlay) overlay.remove(); overlay = null; });
    overlay.replaceChildren(
      hide,
      element("h2", "dw-live-title", failing.length + noun),
      element("p", "dw-live-note", "The site below is up to date: its rulebook pages show the engine's numbers "
        + "beside the example's. Fix the example or the rules and save: this goes away."),
      list);
  }

  function fetchPage() {
    return fetch(window.location.pathname, {cache: "no-store"})
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (text) { return new DOMParser().parseFromString(text, "text/html"); });
  }

  function versionOf(doc) {
    var script = doc.querySelector("script[data-page]");
    return script ? parseInt(script.getAttribute("data-version"), 10) || 0 : 0;
  }

  function headWithoutLiveScript(doc) {
    var head = doc.head.cloneNode(true);
    head.querySelectorAll("script[data-page], title").forEach(function (node) { node.remove(); });
    return head;
  }

  // The ids of the elements to swap so that `oldBody` becomes `newBody`: around each difference, the nearest
  // element with an id that both versions have there. null when a difference has none inside the body (then
  // only a reload will do).
  function changedIds(oldBody, newBody) {
    var ids = [];
    function idsAbove(node, body) {
      var found = [];
      for (var n = node; n && n !== body; n = n.parentNode) {
        if (n.nodeType === 1 && n.id) found.push(n.id);
      }
      return found;
    }
    function sameShell(a, b) {
      if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName || a.childNodes.length !== b.childNodes.length) {
        return false;
      }
      if (a.nodeType !== 1) return false;  // text or comment that differs
      if (a.attributes.length !== b.attributes.length) return false;
      for (var i = 0; i < a.attributes.length; i++) {
        if (b.getAttribute(a.attributes[i].name) !== a.attributes[i].value) return false;
      }
      return true;
    }
    function walk(a, b) {
      if (a.isEqualNode(b)) return true;
      if (sameShell(a, b)) {
        for (var i = 0; i < a.childNodes.length; i++) {
          if (!walk(a.childNodes[i], b.childNodes[i])) return false;
        }
        return true;
      }
      var theirs = idsAbove(b, newBody);
      var shared = idsAbove(a, oldBody).filter(function (id) { return theirs.indexOf(id) !== -1; })[0];
      if (!shared) return false;
      if (ids.indexOf(shared) === -1) ids.push(shared);
      return true;
    }
    return walk(oldBody, newBody) ? ids : null;
  }

  function fetchAndPatch() {
    return fetchPage().then(function (doc) {
      var ids = served && headWithoutLiveScript(served).isEqualNode(headWithoutLiveScript(doc)) ?
        changedIds(served.body, doc.body) : null;
      if (ids === null) { console.info("deckwright serve: reloading (no patch)"); return window.location.reload(); }
      // outermost first; an element inside one already swapped comes with it
      var swapped = [];
      ids.forEach(function (id) {
        var live = document.getElementById(id), fresh = doc.getElementById(id);
        if (!fresh || (live === null && !swapped.some(function (s) { return s.querySelector("#" + CSS.escape(id)); }))) {
          throw new Error("no element " + id);
        }
        if (live === null || swapped.some(function (s) { return s.contains(live); })) return;
        var copy = document.importNode(fresh, true);
        live.replaceWith(copy);
        swapped.push(copy);
      });
      document.title = doc.title;
      served = doc;
      swappedIn(versionOf(doc));
    }).catch(function (error) { console.info("deckwright serve: reloading (" + error + ")"); window.location.reload(); });
  }

  function swappedIn(newVersion) {
    version = newVersion;
    var search = document.querySelector("[data-filter-search]");
    if (search) search.dispatchEvent(new Event("input"));  // the gallery's filters apply to new figures too
    document.documentElement.setAttribute("data-live-version", String(version));
  }

  // Swap elements whose new HTML the server sent, in the page and in the served copy alike.
  function swapUnits(units) {
    [document, served].forEach(function (doc) {
      if (!doc) return;
      Object.keys(units).forEach(function (id) {
        var old = doc.getElementById(id);
        if (!old) throw new Error("no element " + id);
        var range = doc.createRange();
        range.selectNode(old);  // parsed where the old one stands: an SVG symbol stays SVG
        old.replaceWith(range.createContextualFragment(units[id]));
      });
    });
  }

  function bringUpToDate(event) {
    var change = event.patches && event.patches[page];
    if (change && change.from === version) {
      try {
        swapUnits(change.units);
        swappedIn(event.version);
        return Promise.resolve();
      } catch (error) {
        return fetchAndPatch();
      }
    }
    return fetchAndPatch();
  }

  fetchPage().then(function (doc) {
    if (versionOf(doc) !== version) return window.location.reload();  // rebuilt while this page loaded
    served = doc;
  }).catch(function () {});

  var events = new EventSource("/__deckwright/events?page=" + encodeURIComponent(page));
  events.addEventListener("state", function (event) {
    var state = JSON.parse(event.data);
    showPanel(state.errors, state.failing);
    if ((state.versions[page] || 0) > version) queue = queue.then(fetchAndPatch);
  });
  events.addEventListener("update", function (event) {
    var update = JSON.parse(event.data);
    showPanel(update.errors, update.failing);
    if (update.changed.indexOf(page) !== -1) queue = queue.then(function () { return bringUpToDate(update); });
  });
})();
