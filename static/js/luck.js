/* Magic Football Online: the Luck square's choice on the board itself (the game page, /r/<code>/).
 *
 * Luck lets the player go to any other square (rule R5). The prompt's form keeps a select of every legal
 * square: the accessible fallback, and what is posted. This script makes the same squares of the board
 * targets: highlighted, clickable, and focusable (Tab, then Enter or Space); choosing one sets the select
 * and submits the same form. The board is the same for every viewer (rendered once per version), so the
 * targets are marked here, on this page only, and again after every frame (static/js/room.js tells it
 * with mf:frame); when the decision is gone, the squares are plain pictures again.
 */
(function () {
  "use strict";

  var marked = [];

  function luckForm() { return document.querySelector("#prompt form[data-luck]"); }
  function squareOf(target) { return target && target.closest ? target.closest("#board-svg .sq--target") : null; }

  function clear() {
    marked.forEach(function (sq) {
      sq.classList.remove("sq--target", "sq--chosen");
      sq.setAttribute("role", "img");
      sq.removeAttribute("tabindex");
      sq.removeAttribute("aria-describedby");
      if (sq.hasAttribute("data-aria")) sq.setAttribute("aria-label", sq.getAttribute("data-aria"));
      sq.removeAttribute("data-aria");
    });
    marked = [];
  }

  function mark() {
    clear();
    var form = luckForm(), board = document.getElementById("board-svg");
    var select = form && form.querySelector('select[name="square"]');
    if (!select || !board || select.disabled || select.matches(":disabled")) return; // none while paused
    var hint = form.querySelector("[data-luck-hint]");
    Array.prototype.forEach.call(select.options, function (option) {
      var sq = board.querySelector('.sq[data-index="' + option.value + '"]');
      if (!sq) return;
      // a button is named by what it shows: the square's <title> ("12 · Brazil"), the hint describes it
      sq.setAttribute("data-aria", sq.getAttribute("aria-label") || "");
      sq.removeAttribute("aria-label");
      if (hint) sq.setAttribute("aria-describedby", hint.id);
      sq.setAttribute("role", "button");
      sq.setAttribute("tabindex", "0");
      sq.classList.add("sq--target");
      marked.push(sq);
    });
    showChosen(select);
  }

  function showChosen(select) {
    marked.forEach(function (sq) { sq.classList.toggle("sq--chosen", sq.getAttribute("data-index") === select.value); });
  }

  function choose(sq) {
    var form = luckForm();
    var select = form && form.querySelector('select[name="square"]');
    if (!select || form.getAttribute("aria-busy") === "true") return; // already sent: one choice
    select.value = sq.getAttribute("data-index");
    showChosen(select);
    if (form.requestSubmit) form.requestSubmit(); else form.querySelector('button[type="submit"]').click();
  }

  document.addEventListener("click", function (event) {
    var sq = squareOf(event.target);
    if (sq) choose(sq);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var sq = squareOf(event.target);
    if (!sq) return;
    event.preventDefault(); // Space would scroll the page
    choose(sq);
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches('#prompt form[data-luck] select[name="square"]')) showChosen(event.target);
  });
  document.addEventListener("mf:frame", mark);
  mark();
})();
