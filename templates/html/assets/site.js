// deckwright site: optional enhancements. Every page works without this file;
// the gallery then shows every card, grouped by deck, with links to each deck.
(function () {
  "use strict";
  document.documentElement.classList.replace("no-js", "js");

  function setUpGallery() {
    var form = document.querySelector("[data-filters]");
    if (!form) return;
    var search = form.querySelector("[data-filter-search]");
    var deck = form.querySelector("[data-filter-deck]");
    var type = form.querySelector("[data-filter-type]");
    var count = form.querySelector("[data-filter-count]");
    var empty = document.querySelector("[data-filter-empty]");
    // Cards and sheets filter alike; the count names each kind (a game without sheets shows only cards).
    var kinds = [["data-card", "cards"], ["data-sheet", "sheets"]].map(function (kind) {
      return {items: Array.prototype.slice.call(document.querySelectorAll("[" + kind[0] + "]")), noun: kind[1]};
    });
    var sections = Array.prototype.slice.call(document.querySelectorAll("[data-deck-section]"));
    // A paged gallery's pager says which cards its page holds ("Cards 1-120 of 5,002"): while a search or a
    // filter is on, only where the page is in the whole gallery.
    var pagerLines = Array.prototype.slice.call(document.querySelectorAll("[data-while-filtering]")).map(
      function (line) { return {line: line, unfiltered: line.textContent}; });
    // A big game's gallery has several pages, each holding only its own cards; every card's page, deck, type
    // and search text then come from cards-index.js, so the search and the count cover all the pages. The
    // index grows with the game (3 MB at 20,000 cards), so it is loaded when the filters are first used, not
    // with the page.
    var indexFile = form.getAttribute("data-filter-index");
    var index = null;
    var loading = false;
    var here = "";
    function loadIndex() {
      if (!indexFile || index || loading) return;
      loading = true;
      var script = document.createElement("script");
      script.src = indexFile;
      script.onload = function () {
        index = window.deckwrightGallery || null;
        if (!index) return giveUp();
        here = window.location.pathname.split("/").pop() || index.pages[0];
        apply();
      };
      script.onerror = giveUp;
      document.head.append(script);
    }
    function giveUp() {  // no index: no filters, every card of this page shown, as without this script
      indexFile = null;
      search.value = deck.value = type.value = "";
      apply();
      form.hidden = true;
    }

    function matches(words, deckId, typeId, text) {
      return (!deck.value || deckId === deck.value) && (!type.value || typeId === type.value) &&
        words.every(function (word) { return text.indexOf(word) !== -1; });
    }

    function apply() {
      var waiting = Boolean(indexFile && !index);  // this page's cards filter now; the count waits for the index
      if (waiting) loadIndex();
      var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      var parts = [];
      var shownAll = 0;
      kinds.forEach(function (kind, position) {
        var shown = 0;
        kind.items.forEach(function (item) {
          var visible = matches(words, item.getAttribute("data-deck"), item.getAttribute("data-type"),
                                item.getAttribute("data-search"));
          item.hidden = !visible;
          if (visible) shown += 1;
        });
        var total = kind.items.length;
        if (index) {
          var rows = position === 0 ? index.cards : index.sheets;
          total = rows.length;
          shown = rows.filter(function (row) { return matches(words, row[2], row[3], row[6]); }).length;
        }
        var noun = total === 1 ? kind.noun.slice(0, -1) : kind.noun;
        var all = total.toLocaleString("en-US");  // 20,000, as the page writes it
        if (total || position === 0) parts.push(shown === total ? all + " " + noun : shown.toLocaleString("en-US") + " of " + all + " " + noun);
        shownAll += shown;
      });
      var filtering = words.length || deck.value || type.value;
      pagerLines.forEach(function (pager) {
        pager.line.textContent = filtering ? pager.line.getAttribute("data-while-filtering") : pager.unfiltered;
      });
      sections.forEach(function (section) {
        section.hidden = filtering && !section.querySelector("[data-card]:not([hidden]), [data-sheet]:not([hidden])");
      });
      if (index) showOtherPages(words);
      count.textContent = waiting ? "Searching every page\u2026" : parts.join(" \u00b7 ");
      empty.hidden = waiting || shownAll !== 0;
    }

    // What a search finds on the gallery's other pages, as links that open the page with the same search.
    var LISTED = 200;
    var listedFor = null;
    function showOtherPages(words) {
      var wanted = JSON.stringify([words, deck.value, type.value]);
      if (wanted === listedFor) return;  // a "change" after "input": the links stay (one may be under the pointer)
      listedFor = wanted;
      var box = document.querySelector("[data-other-matches]");
      var list = box.querySelector("[data-other-matches-list]");
      var more = box.querySelector("[data-other-matches-more]");
      var filtering = words.length || deck.value || type.value;
      var found = !filtering ? [] : index.cards.concat(index.sheets).filter(function (row) {
        return index.pages[row[0] - 1] !== here && matches(words, row[2], row[3], row[6]);
      });
      var query = "?" + new URLSearchParams({q: search.value, deck: deck.value, type: type.value}).toString();
      list.textContent = "";
      found.slice(0, LISTED).forEach(function (row) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = index.pages[row[0] - 1] + query + "#" + row[1];
        link.textContent = row[4];
        var meta = document.createElement("span");
        meta.textContent = row[5] + " \u00b7 page " + row[0];
        item.append(link, meta);
        list.append(item);
      });
      more.hidden = found.length <= LISTED;
      more.textContent = "and " + (found.length - LISTED) + " more: narrow the search to see them.";
      box.hidden = found.length === 0;
    }

    form.hidden = false;
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("focusin", loadIndex);  // a search is coming: start loading the index now
    [search, deck, type].forEach(function (control) {
      control.addEventListener("input", apply);
      control.addEventListener("change", apply);
    });
    var query = new URLSearchParams(window.location.search);
    if (query.get("q")) search.value = query.get("q");
    [[deck, "deck"], [type, "type"]].forEach(function (pair) {
      var wanted = query.get(pair[1]);
      if (wanted && Array.prototype.some.call(pair[0].options, function (o) { return o.value === wanted; })) {
        pair[0].value = wanted;
      }
    });
    if (!indexFile || search.value || deck.value || type.value) apply();  // (unfiltered, a paged one's count is right)
  }

  // Card previews open above their link; this keeps them inside the window.
  function placePreview(event) {
    var link = event.target.closest && event.target.closest(".cardref");
    if (!link) return;
    var preview = link.querySelector(".cardref-preview");
    var box = link.getBoundingClientRect();
    var height = preview.offsetHeight || 280;
    var width = preview.offsetWidth || 190;
    link.classList.toggle("cardref-below", box.top < height + 16);
    var centre = box.left + box.width / 2;
    var shift = Math.max(8 + width / 2 - centre, Math.min(0, window.innerWidth - 8 - width / 2 - centre));
    preview.style.setProperty("--shift", shift + "px");
  }

  function setUp() {
    setUpGallery();
    document.addEventListener("mouseover", placePreview);
    document.addEventListener("focusin", placePreview);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
