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
 * room on). No framework, no build step.
 */
(function () {
  "use strict";

  var kit = window.mfBoardKit; // static/js/boardkit.js: what the games' boards share
  var SLIDE_MS = 260;
  var seen = {}; // board id -> data-seq last shown
  var openPaths = {}; // board id -> {seq, keys}: the open nodes, to restore after a redraw
  var each = kit.each;

  function boardOf(el) { return el && el.closest ? el.closest(".chess-board") : null; }
  function idOf(board) { return board.id || "chess-board"; }
  function top(board) { return board.querySelector(".chess-level--top"); }
  function items(level) {
    return Array.prototype.filter.call(level.children, function (el) {
      return el.matches(".chess-step, .chess-leaf");
    });
  }
  function keyOf(item) { return item.tagName === "DETAILS" ? item.querySelector(":scope > summary") : item; }
  function squaresOf(item) { return (item.getAttribute("data-squares") || "").split(" ").filter(Boolean); }
  function inner(details) { return details.querySelector(":scope > .chess-level"); }

  function deepest(board) {
    var level = top(board);
    while (level) {
      var open = items(level).filter(function (i) { return i.tagName === "DETAILS" && i.open; })[0];
      if (!open) return level;
      level = inner(open);
    }
    return null;
  }

  function path(board) {
    return Array.prototype.map.call(board.querySelectorAll(".chess-choices details[open]"), function (d) {
      return d.getAttribute("data-key");
    });
  }

  // ------------------------------------------------------------------------------ marking the board
  function mark(board, names, cls) {
    names.forEach(function (name) {
      var sq = board.querySelector('.chess-sq[data-square="' + name + '"]');
      if (sq) sq.classList.add(cls);
    });
  }

  function highlight(board) {
    each(board.querySelectorAll(".chess-sq--choice, .chess-sq--selected, .chess-sq--target"), function (sq) {
      sq.classList.remove("chess-sq--choice", "chess-sq--selected", "chess-sq--target");
    });
    var level = deepest(board);
    if (!level) return;
    each(board.querySelectorAll(".chess-choices details[open]"), function (d) {
      mark(board, squaresOf(d), "chess-sq--selected");
    });
    items(level).forEach(function (item) {
      mark(board, squaresOf(item), item.tagName === "DETAILS" ? "chess-sq--choice" : "chess-sq--target");
    });
    openPaths[idOf(board)] = { seq: board.getAttribute("data-seq"), keys: path(board) };
  }

  function open(details) {
    var level = details.parentElement;
    items(level).forEach(function (item) {
      if (item !== details && item.tagName === "DETAILS") item.open = false;
    });
    details.open = true;
  }

  function closeAll(board) {
    each(board.querySelectorAll(".chess-choices details[open]"), function (d) { d.open = false; });
  }

  function find(level, square) {
    return items(level).filter(function (item) { return squaresOf(item).indexOf(square) >= 0; })[0] || null;
  }

  // ------------------------------------------------------------------------------ choosing on the board
  document.addEventListener("click", function (event) {
    var hit = event.target.closest && event.target.closest(".chess-pitch [data-square]");
    var board = boardOf(hit);
    if (!board || !top(board)) return;
    var square = hit.getAttribute("data-square");
    var level = deepest(board);
    var item = find(level, square);
    if (!item && level !== top(board)) {
      closeAll(board);
      item = find(top(board), square); // another of my pieces: start again from it
    }
    if (!item) {
      closeAll(board);
    } else if (item.tagName === "DETAILS") {
      open(item);
    } else if (!item.disabled) {
      item.click(); // plays: the same button a keyboard user presses
      return;
    }
    highlight(board);
  });

  // a disclosure opened or closed (by a click, a tap or the keyboard): one open per level
  document.addEventListener("toggle", function (event) {
    var d = event.target;
    if (!d.matches || !d.matches(".chess-step")) return;
    if (d.open) open(d);
    var board = boardOf(d);
    if (board) highlight(board);
  }, true);

  // Esc steps back one level, to the node that opened it (also after a tap on the board, which takes no focus)
  document.addEventListener("keydown", function (event) {
    var board = boardOf(event.target) || boardOf(document.querySelector(".chess-choices .chess-step[open]"));
    if (!board || event.key !== "Escape" || event.altKey || event.ctrlKey || event.metaKey) return;
    var level = deepest(board);
    var details = level && level.parentElement.closest(".chess-step");
    if (!details) return;
    event.preventDefault();
    details.open = false;
    keyOf(details).focus();
  });

  // the arrow keys, Home and End move between the nodes of one level
  kit.arrows(".chess-key", ".chess-choices", false, function (key) {
    var item = key.tagName === "SUMMARY" ? key.parentElement : key;
    return items(item.parentElement).map(keyOf);
  });

  // pointing at a node lights its squares; pointing at a square lights its node
  function hover(event, on) {
    var t = event.target;
    var key = t.closest && t.closest(".chess-key");
    var board = boardOf(key);
    if (key && board) {
      var item = key.tagName === "SUMMARY" ? key.parentElement : key;
      squaresOf(item).forEach(function (name) {
        var sq = board.querySelector('.chess-sq[data-square="' + name + '"]');
        if (sq) sq.classList.toggle("chess-sq--hot", on);
      });
      return;
    }
    var hit = t.closest && t.closest(".chess-pitch [data-square]");
    board = boardOf(hit);
    if (!board || !top(board)) return;
    var found = find(deepest(board), hit.getAttribute("data-square"));
    if (found) keyOf(found).classList.toggle("chess-key--hot", on);
  }
  document.addEventListener("mouseover", function (e) { hover(e, true); });
  document.addEventListener("mouseout", function (e) { hover(e, false); });

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

  function restore(board) {
    var kept = openPaths[idOf(board)];
    if (!kept || kept.seq !== board.getAttribute("data-seq")) return;
    var level = top(board);
    kept.keys.forEach(function (key) {
      if (!level) return;
      var d = items(level).filter(function (i) { return i.tagName === "DETAILS" && i.getAttribute("data-key") === key; })[0];
      if (!d) { level = null; return; }
      d.open = true;
      level = inner(d);
    });
  }

  function check(board) {
    var id = idOf(board);
    var seq = board.getAttribute("data-seq");
    var before = seen[id];
    seen[id] = seq;
    each(board.querySelectorAll(".chess-moves__list"), function (list) { list.scrollTop = list.scrollHeight; });
    if (top(board)) {
      restore(board);
      highlight(board);
    }
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
