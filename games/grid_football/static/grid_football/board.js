/* Grid football: the board partial's script (grid_football/board.html).
 *
 * The room page replaces the partial's HTML on every update, so nothing here holds on to a board element:
 * the board kit (static/js/boardkit.js) reports every board that comes in, and this compares it with what
 * this page last showed under the same id: a new data-seq means the match moved on, so the caption is read
 * out (a live region that survives the swaps) and, unless the reader asked for reduced motion, the ball's
 * path is drawn in.
 *
 * Choosing: the decider's choices are a tree of disclosures in the panel (a pawn, then the squares its roll
 * reaches; a target square, then the route when the ball has two; who comes on, for whom, where), every node
 * naming its squares (data-squares). A click or tap on the pitch finds the node of that square at the open
 * level (or starts again from the top): a pawn opens, a target plays. The pitch marks what can be chosen
 * now; Esc steps back; the arrow keys, Home and End move between the nodes of a level, Enter or Space opens
 * or plays (the panel works by keyboard alone, and without this script). What was open survives a redraw of
 * the same position (the board kit's tree of choices, static/js/boardkit.js, shared with chess football).
 * The line-up sheet counts the ticked players by line. No framework, no build step.
 */
(function () {
  "use strict";

  var kit = window.mfBoardKit; // static/js/boardkit.js: what the games' boards share
  var SLIDE_MS = 260;
  var seen = {}; // board id -> data-seq last shown
  var each = kit.each;

  var refresh = kit.tree("grid"); // choosing on the pitch and in the panel: static/js/boardkit.js
  function idOf(board) { return board.id || "grid-board"; }

  // ------------------------------------------------------------------------------ a move comes in
  function animate(board) {
    var path = board.querySelector(".grid-path");
    if (path && path.animate && path.getTotalLength) {
      var length = path.getTotalLength();
      path.animate(
        [{ strokeDashoffset: length, strokeDasharray: length + " " + length }, { strokeDashoffset: 0, strokeDasharray: length + " " + length }],
        { duration: SLIDE_MS * 2, easing: "ease-out" }
      );
    }
    var ball = board.querySelector(".grid-ball");
    if (ball && ball.animate) ball.animate([{ opacity: 0.2 }, { opacity: 1 }], { duration: SLIDE_MS, easing: "ease-out" });
  }

  // ------------------------------------------------------------------------------ the line-up sheet
  // Counts the ticked players by line while the coach chooses (the rules check the line-up when it is sent).
  function count(form) {
    var out = form.querySelector("[data-count]");
    if (!out) return;
    var n = { keeper: 0, defender: 0, midfielder: 0, attacker: 0 }, total = 0;
    each(form.querySelectorAll('input[name="players"]:checked'), function (box) {
      n[box.getAttribute("data-kind")] += 1;
      total += 1;
    });
    out.textContent = total + " \u2713 \u00b7 " + n.keeper + " + " + n.defender + "-" + n.midfielder + "-" + n.attacker;
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest(".grid-lineup");
    if (form) count(form);
  });

  function check(board) {
    var id = idOf(board);
    var seq = board.getAttribute("data-seq");
    var before = seen[id];
    seen[id] = seq;
        refresh(board);
    each(board.querySelectorAll(".grid-lineup"), count);
    if (before === undefined || before === seq) return; // first sight, or the same position redrawn
    var caption = board.querySelector(".grid-caption");
    if (caption) {
      caption.setAttribute("aria-live", "off"); // the board kit's region speaks for it
      kit.announce("grid-live", caption.textContent.replace(/\s+/g, " ").trim());
    }
    if (!kit.reduced()) animate(board);
  }

  kit.watch(".grid-board", check, ["data-seq"]);
})();
