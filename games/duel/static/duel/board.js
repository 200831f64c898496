/* The card duel: the board partial's script (duel/board.html).
 *
 * The room page replaces the partial's HTML on every update, so nothing here holds on to a board element:
 * the board kit (static/js/boardkit.js) reports every board that comes in, and this compares it with what
 * this page last showed under the same id (its data attributes, made of public facts only):
 *   - a new data-reveal-home / -away means that side brought a card into action: the card turns over;
 *   - more goals in data-goals: the score pulses and, if the page has it, confetti flies;
 *   - data-goal turning to "disallowed": the pitch shakes back;
 *   - the caption (what happens now) is read out by the kit's live region, which survives the swaps.
 * Under prefers-reduced-motion nothing moves (the caption is still announced).
 * Keyboard: the choices are plain buttons (Tab reaches each); the arrow keys, Home and End also move between
 * the buttons of a decision. A player who answered by keyboard keeps the focus: when his next decision
 * comes in (the old buttons went away with the swap), its first button takes it. The line-up's rows are
 * moved by their ▲/▼ buttons (static/js/room.js, which also keeps an edited line-up through updates).
 * No framework, no build step.
 */
(function () {
  "use strict";

  var kit = window.mfBoardKit; // static/js/boardkit.js: what the games' boards share
  var FLIP_MS = 500, SCORED_MS = 950, REVERSED_MS = 950;
  var seen = {}; // board id -> {home, away, goals, goal, caption}
  var wantsFocus = null; // board id whose decision should take the focus when it arrives
  var byKeyboard = false; // the last input was a key (not a pointer)

  function boardOf(el) { return el && el.closest ? el.closest(".duel-board") : null; }

  function flash(el, cls, ms) {
    if (!el || kit.reduced()) return;
    el.classList.remove(cls);
    void el.getBoundingClientRect();
    el.classList.add(cls);
    setTimeout(function () { el.classList.remove(cls); }, ms);
  }

  function total(goals) {
    return (goals || "").split("-").reduce(function (sum, n) { return sum + (+n || 0); }, 0);
  }

  function celebrate(board) {
    flash(board, "duel-board--scored", SCORED_MS);
    if (kit.reduced() || typeof window.confetti !== "function") return;
    window.confetti({ particleCount: 140, spread: 75, startVelocity: 38, origin: { y: 0.35 },
                      colors: ["#f6c744", "#ffffff", "#2f8f4e", "#0072b2", "#d55e00"], disableForReducedMotion: true });
  }

  // ------------------------------------------------------------------------------ a board comes in
  function check(board) {
    var id = board.id || "duel-board";
    var caption = board.querySelector(".duel-board__caption");
    var now = {
      home: board.getAttribute("data-reveal-home"),
      away: board.getAttribute("data-reveal-away"),
      goals: board.getAttribute("data-goals"),
      goal: board.getAttribute("data-goal"),
      caption: caption ? caption.textContent.replace(/\s+/g, " ").trim() : ""
    };
    var before = seen[id];
    seen[id] = now;
    if (caption) caption.setAttribute("aria-live", "off"); // the board kit's region speaks for it
    focusDecision(board);
    if (!before) return; // the page's first sight of this board: nothing happened in front of the viewer
    if (now.caption && now.caption !== before.caption) kit.announce("duel-live", now.caption);
    ["home", "away"].forEach(function (side) {
      if (now[side] !== before[side]) {
        flash(board.querySelector(".duel-board__side--" + side + " .duel-board__card"), "card--flip", FLIP_MS);
      }
    });
    if (total(now.goals) > total(before.goals)) celebrate(board);
    if (now.goal === "disallowed" && before.goal !== "disallowed") flash(board, "duel-board--reversed", REVERSED_MS);
  }

  function focusDecision(board) {
    if (wantsFocus !== (board.id || "duel-board")) return;
    var active = document.activeElement;
    if (active && active !== document.body && active.isConnected) { wantsFocus = null; return; }
    var first = board.querySelector(".duel-board__decision .duel-choice, .duel-board__decision [data-move]");
    if (!first) return; // not yet: the other side is deciding
    wantsFocus = null;
    first.focus();
  }

  // ------------------------------------------------------------------------------ keyboard
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  // a choice answered from the keyboard (Enter or Space on a button): the next decision takes the focus
  document.addEventListener("submit", function (event) {
    var board = boardOf(event.target);
    var active = document.activeElement;
    if (byKeyboard && board && active && active.matches && active.matches(".duel-choice") && board.contains(active)) {
      wantsFocus = board.id || "duel-board";
    }
  }, true);

  kit.arrows(".duel-choice", ".duel-choices", false);
  kit.watch(".duel-board", check);
})();
