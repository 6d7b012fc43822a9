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
    var cards = Array.prototype.slice.call(document.querySelectorAll("[data-card]"));
    var sections = Array.prototype.slice.call(document.querySelectorAll("[data-deck-section]"));

    function apply() {
      var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      cards.forEach(function (card) {
        var text = card.getAttribute("data-search");
        var visible = (!deck.value || card.getAttribute("data-deck") === deck.value) &&
          (!type.value || card.getAttribute("data-type") === type.value) &&
          words.every(function (word) { return text.indexOf(word) !== -1; });
        card.hidden = !visible;
        if (visible) shown += 1;
      });
      sections.forEach(function (section) {
        var filtering = words.length || deck.value || type.value;
        section.hidden = filtering && !section.querySelector("[data-card]:not([hidden])");
      });
      count.textContent = shown === cards.length ? cards.length + " cards" : shown + " of " + cards.length + " cards";
      empty.hidden = shown !== 0;
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
