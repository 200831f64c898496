/* Dice football: the board partial's script (dice_football/board.html).
 *
 * The room page replaces the partial's HTML on every update, so nothing here holds on to a board element:
 * the board kit (static/js/boardkit.js) reports every board that comes in (or whose attributes htmx settles)
 * and this compares it with what this page last showed under the same id:
 *   - a new data-roll-seq means a die was rolled: the rolled die tumbles for ~600 ms, its faces flickering,
 *     then shows its face, and the caption is read out by a live region that survives the swaps;
 *   - a new ball square: the ball walks there, one square per step, after the die has landed.
 * Under prefers-reduced-motion nothing moves (the caption is still announced).
 * Choices: a highlighted square submits the choice it belongs to (the same button a keyboard user presses);
 * hovering or focusing a button lights its squares; the arrow keys, Home and End move between the buttons
 * (one tab stop for the group) and Enter submits. No framework, no build step.
 */
(function () {
  "use strict";

  var kit = window.mfBoardKit; // static/js/boardkit.js: what the games' boards share
  var ROLL_MS = 600, STEP_MS = 120, CELL = 40, MAX_STEPS = 6;
  var seen = {}; // board id -> {seq, cx, cy}
  var lastFocus = null; // {id, value} of the choice button that had the focus
  var reduced = kit.reduced, each = kit.each;

  function boardOf(el) { return el && el.closest ? el.closest(".dice-board") : null; }

  // ------------------------------------------------------------------------------ the live region
  function announce(board) {
    var caption = board.querySelector(".dice-caption");
    if (!caption) return;
    caption.setAttribute("aria-live", "off"); // the board kit's region speaks for it
    kit.announce("dice-live", caption.textContent.replace(/\s+/g, " ").trim());
  }

  // ------------------------------------------------------------------------------ motion
  function tumble(board) {
    var die = board.querySelector(".dice-die--last");
    if (!die || !die.animate) return;
    var use = die.querySelector("use");
    var face = die.getAttribute("data-face");
    var faces = (die.getAttribute("data-faces") || "").split(" ").filter(Boolean);
    var anim = die.animate([
      { transform: "translate(0, 0) rotate(0deg) scale(1)" },
      { transform: "translate(-3px, -7px) rotate(-110deg) scale(1.15)", offset: 0.3 },
      { transform: "translate(4px, -3px) rotate(-230deg) scale(1.1)", offset: 0.55 },
      { transform: "translate(-2px, 0) rotate(-320deg) scale(1.04)", offset: 0.8 },
      { transform: "translate(0, 0) rotate(-360deg) scale(1)" }
    ], { duration: ROLL_MS, easing: "cubic-bezier(.2, .8, .3, 1)" });
    var i = Math.floor(Math.random() * Math.max(1, faces.length));
    var flicker = use && faces.length ? setInterval(function () {
      use.setAttribute("href", "#" + faces[i++ % faces.length]);
    }, 90) : null;
    var land = function () {
      if (flicker) clearInterval(flicker);
      if (use && face) use.setAttribute("href", "#" + face);
    };
    anim.onfinish = land;
    anim.oncancel = land;
  }

  function walk(board, fromX, fromY, delay) {
    var ball = board.querySelector(".dice-ball");
    var cx = +board.getAttribute("data-ball-cx"), cy = +board.getAttribute("data-ball-cy");
    if (!ball || !ball.animate || isNaN(fromX) || isNaN(fromY)) return;
    var dx = fromX - cx, dy = fromY - cy;
    var steps = Math.max(1, Math.min(MAX_STEPS, Math.round(Math.max(Math.abs(dx), Math.abs(dy)) / CELL)));
    var frames = [];
    for (var k = 0; k <= steps; k++) {
      var left = 1 - k / steps;
      frames.push({ transform: "translate(" + dx * left + "px, " + dy * left + "px)" });
    }
    ball.animate(frames, { duration: steps * STEP_MS, delay: delay, easing: "ease-in-out", fill: "backwards" });
  }

  // ------------------------------------------------------------------------------ a board comes in
  function check(board) {
    var id = board.id || "dice-board";
    var now = {
      seq: board.getAttribute("data-roll-seq"),
      cx: +board.getAttribute("data-ball-cx"),
      cy: +board.getAttribute("data-ball-cy")
    };
    var before = seen[id];
    seen[id] = now;
    prepare(board);
    if (!before) return; // the page's first sight of this board: nothing happened in front of the viewer
    var rolled = before.seq !== now.seq;
    var moved = before.cx !== now.cx || before.cy !== now.cy;
    if (rolled) announce(board);
    if (reduced()) return;
    if (rolled) tumble(board);
    if (moved) walk(board, before.cx, before.cy, rolled ? ROLL_MS : 0);
  }

  // one tab stop for the choice group; give the focus back after a swap took the focused button away
  function prepare(board) {
    var buttons = board.querySelectorAll(".dice-choice");
    if (!buttons.length) return;
    var current = null;
    if (lastFocus && lastFocus.id === (board.id || "dice-board") &&
        (!document.activeElement || document.activeElement === document.body)) {
      current = board.querySelector('.dice-choice[value="' + lastFocus.value + '"]') || buttons[0];
    }
    each(buttons, function (b, i) {
      b.tabIndex = (current ? b === current : i === 0) ? 0 : -1;
    });
    if (current) current.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------------------ choosing
  function buttonFor(board, index) {
    return board.querySelector('.dice-choice[value="' + index + '"]');
  }

  document.addEventListener("click", function (event) {
    var square = event.target.closest && event.target.closest(".dice-sq[data-pick]");
    var board = boardOf(square);
    if (!board) return;
    var button = buttonFor(board, square.getAttribute("data-pick"));
    if (button && !button.disabled) button.click();
  });

  function light(button, on) {
    var board = boardOf(button);
    var names = (button.getAttribute("data-squares") || "").split(" ");
    if (!board) return;
    names.forEach(function (name) {
      if (!name) return;
      var sq = board.querySelector('.dice-sq[data-square="' + name + '"]');
      if (sq) sq.classList.toggle("dice-sq--hot", on);
    });
  }
  function hover(event, on) {
    var t = event.target;
    var button = t.closest && t.closest(".dice-choice");
    if (button) { light(button, on); return; }
    var square = t.closest && t.closest(".dice-sq[data-pick]");
    var board = boardOf(square);
    var match = board && buttonFor(board, square.getAttribute("data-pick"));
    if (match) match.classList.toggle("dice-choice--hot", on);
  }
  document.addEventListener("mouseover", function (e) { hover(e, true); });
  document.addEventListener("mouseout", function (e) { hover(e, false); });
  document.addEventListener("focusin", function (e) {
    var button = e.target.closest && e.target.closest(".dice-choice");
    lastFocus = button ? { id: boardOf(button).id || "dice-board", value: button.value } : null;
    if (button) light(button, true);
  });
  document.addEventListener("focusout", function (e) {
    var button = e.target.closest && e.target.closest(".dice-choice");
    if (button) light(button, false);
  });

  kit.arrows(".dice-choice", ".dice-board", true);
  kit.watch(".dice-board", check, ["data-roll-seq", "data-ball-cx", "data-ball-cy"]);
})();
