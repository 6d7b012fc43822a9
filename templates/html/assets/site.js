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

    function apply() {
      var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      var parts = [];
      var shownAll = 0;
      kinds.forEach(function (kind, index) {
        var shown = 0;
        kind.items.forEach(function (item) {
          var text = item.getAttribute("data-search");
          var visible = (!deck.value || item.getAttribute("data-deck") === deck.value) &&
            (!type.value || item.getAttribute("data-type") === type.value) &&
            words.every(function (word) { return text.indexOf(word) !== -1; });
          item.hidden = !visible;
          if (visible) shown += 1;
        });
        var total = kind.items.length;
        var noun = total === 1 ? kind.noun.slice(0, -1) : kind.noun;
        if (total || index === 0) parts.push(shown === total ? total + " " + noun : shown + " of " + total + " " + noun);
        shownAll += shown;
      });
      sections.forEach(function (section) {
        var filtering = words.length || deck.value || type.value;
        section.hidden = filtering && !section.querySelector("[data-card]:not([hidden]), [data-sheet]:not([hidden])");
      });
      count.textContent = parts.join(" \u00b7 ");
      empty.hidden = shownAll !== 0;
    }

    form.hidden = false;
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    [search, deck, type].forEach(function (control) {
      control.addEventListener("input", apply);
      control.addEventListener("change", apply);
    });
    var query = new URLSearchParams(window.location.search);
    if (query.get("q")) search.value = query.get("q");
    apply();
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
