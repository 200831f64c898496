/* Chess football: the board partial's script (chess_football/board.html).
 *
 * The room page replaces the partial's HTML on every update, so nothing here holds on to a board element:
 * the board kit (static/js/boardkit.js) reports every board that comes in, and this compares it with what
 * this page last showed under the same id: a new data-seq means a move was played, so the caption is read
 * out (a live region that survives the swaps) and, unless the reader asked for reduced motion, the moved
 * piece and the ball slide from where they were.
 *
 * Choosing: the decider's choices are a tree of disclosures in the panel (a piece, then its targets; an
 * offender, its new square, then a move), every node naming its squares (data-squares). A click or tap on
 * the board finds the node of that square at the open level (or starts again from the top): a piece opens,
 * a target plays. The board marks what can be chosen now; Esc steps back; the arrow keys, Home and End move
 * between the nodes of a level, Enter or Space opens or plays (the panel works by keyboard alone, and
 * without this script). What was open survives a redraw of the same position (another match moving the
 * room on). The choosing is the board kit's tree of choices (static/js/boardkit.js), shared with grid
 * football. No framework, no build step.
 */
(function () {
  "use strict";

  var kit = window.mfBoardKit; // static/js/boardkit.js: what the games' boards share
  var SLIDE_MS = 260;
  var seen = {}; // board id -> data-seq last shown
  var each = kit.each;

  var refresh = kit.tree("chess"); // choosing on the board and in the panel: static/js/boardkit.js
  function idOf(board) { return board.id || "chess-board"; }

  // ------------------------------------------------------------------------------ a move comes in
  function centreOf(board, name) {
    var sq = board.querySelector('.chess-sq[data-square="' + name + '"]');
    if (!sq) return null;
    return { x: +sq.getAttribute("x") + 20, y: +sq.getAttribute("y") + 20 };
  }

  function slide(board, el, from, to) {
    var a = centreOf(board, from), b = centreOf(board, to);
    if (!el || !el.animate || !a || !b) return;
    el.animate(
      [{ transform: "translate(" + (a.x - b.x) + "px, " + (a.y - b.y) + "px)" }, { transform: "translate(0, 0)" }],
      { duration: SLIDE_MS, easing: "ease-out" }
    );
  }

  function animate(board) {
    var last = board.getAttribute("data-last") || "";
    var reloc = /^([a-i]\d+)=([a-i]\d+);(.+)$/.exec(last);
    if (reloc) last = reloc[3];
    var piece = /^[KCDL]([a-i]\d+)[-x]([a-i]\d+)$/.exec(last);
    var ball = /^([a-i]\d+)>([a-i]\d+)$/.exec(last);
    var clear = /^K([a-i]\d+)-([a-i]\d+)>([a-i]\d+)$/.exec(last);
    if (piece) slide(board, board.querySelector('.chess-piece[data-square="' + piece[2] + '"]'), piece[1], piece[2]);
    if (ball) slide(board, board.querySelector('.chess-ball[data-square="' + ball[2] + '"]'), ball[1], ball[2]);
    if (clear) {
      slide(board, board.querySelector('.chess-piece[data-square="' + clear[2] + '"]'), clear[1], clear[2]);
      slide(board, board.querySelector('.chess-ball[data-square="' + clear[3] + '"]'), clear[2], clear[3]);
    }
  }

  function check(board) {
    var id = idOf(board);
    var seq = board.getAttribute("data-seq");
    var before = seen[id];
    seen[id] = seq;
    each(board.querySelectorAll(".chess-moves__list"), function (list) { list.scrollTop = list.scrollHeight; });
    refresh(board);
    if (before === undefined || before === seq) return; // first sight, or the same position redrawn
    var caption = board.querySelector(".chess-caption");
    if (caption) {
      caption.setAttribute("aria-live", "off"); // the board kit's region speaks for it
      kit.announce("chess-live", caption.textContent.replace(/\s+/g, " ").trim());
    }
    if (!kit.reduced()) animate(board);
  }

  kit.watch(".chess-board", check, ["data-seq"]);
})();
