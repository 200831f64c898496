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
 * the same position. The line-up sheet counts the ticked players by line. No framework, no build step.
 */
(function () {
  "use strict";

  var kit = window.mfBoardKit; // static/js/boardkit.js: what the games' boards share
  var SLIDE_MS = 260;
  var seen = {}; // board id -> data-seq last shown
  var openPaths = {}; // board id -> {seq, keys}: the open nodes, to restore after a redraw
  var each = kit.each;

  function boardOf(el) { return el && el.closest ? el.closest(".grid-board") : null; }
  function idOf(board) { return board.id || "grid-board"; }
  function top(board) { return board.querySelector(".grid-level--top"); }
  function items(level) {
    return Array.prototype.filter.call(level.children, function (el) {
      return el.matches(".grid-step, .grid-leaf");
    });
  }
  function keyOf(item) { return item.tagName === "DETAILS" ? item.querySelector(":scope > summary") : item; }
  function squaresOf(item) { return (item.getAttribute("data-squares") || "").split(" ").filter(Boolean); }
  function inner(details) { return details.querySelector(":scope > .grid-level"); }

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
    return Array.prototype.map.call(board.querySelectorAll(".grid-choices details[open]"), function (d) {
      return d.getAttribute("data-key");
    });
  }

  // ------------------------------------------------------------------------------ marking the board
  function mark(board, names, cls) {
    names.forEach(function (name) {
      var sq = board.querySelector('.grid-sq[data-square="' + name + '"]');
      if (sq) sq.classList.add(cls);
    });
  }

  function highlight(board) {
    each(board.querySelectorAll(".grid-sq--choice, .grid-sq--selected, .grid-sq--target"), function (sq) {
      sq.classList.remove("grid-sq--choice", "grid-sq--selected", "grid-sq--target");
    });
    var level = deepest(board);
    if (!level) return;
    each(board.querySelectorAll(".grid-choices details[open]"), function (d) {
      mark(board, squaresOf(d), "grid-sq--selected");
    });
    items(level).forEach(function (item) {
      mark(board, squaresOf(item), item.tagName === "DETAILS" ? "grid-sq--choice" : "grid-sq--target");
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
    each(board.querySelectorAll(".grid-choices details[open]"), function (d) { d.open = false; });
  }

  function find(level, square) {
    return items(level).filter(function (item) { return squaresOf(item).indexOf(square) >= 0; })[0] || null;
  }

  // ------------------------------------------------------------------------------ choosing on the board
  document.addEventListener("click", function (event) {
    var hit = event.target.closest && event.target.closest(".grid-pitch [data-square]");
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
    if (!d.matches || !d.matches(".grid-step")) return;
    if (d.open) open(d);
    var board = boardOf(d);
    if (board) highlight(board);
  }, true);

  // Esc steps back one level, to the node that opened it (also after a tap on the board, which takes no focus)
  document.addEventListener("keydown", function (event) {
    var board = boardOf(event.target) || boardOf(document.querySelector(".grid-choices .grid-step[open]"));
    if (!board || event.key !== "Escape" || event.altKey || event.ctrlKey || event.metaKey) return;
    var level = deepest(board);
    var details = level && level.parentElement.closest(".grid-step");
    if (!details) return;
    event.preventDefault();
    details.open = false;
    keyOf(details).focus();
  });

  // the arrow keys, Home and End move between the nodes of one level
  kit.arrows(".grid-key", ".grid-choices", false, function (key) {
    var item = key.tagName === "SUMMARY" ? key.parentElement : key;
    return items(item.parentElement).map(keyOf);
  });

  // pointing at a node lights its squares; pointing at a square lights its node
  function hover(event, on) {
    var t = event.target;
    var key = t.closest && t.closest(".grid-key");
    var board = boardOf(key);
    if (key && board) {
      var item = key.tagName === "SUMMARY" ? key.parentElement : key;
      squaresOf(item).forEach(function (name) {
        var sq = board.querySelector('.grid-sq[data-square="' + name + '"]');
        if (sq) sq.classList.toggle("grid-sq--hot", on);
      });
      return;
    }
    var hit = t.closest && t.closest(".grid-pitch [data-square]");
    board = boardOf(hit);
    if (!board || !top(board)) return;
    var found = find(deepest(board), hit.getAttribute("data-square"));
    if (found) keyOf(found).classList.toggle("grid-key--hot", on);
  }
  document.addEventListener("mouseover", function (e) { hover(e, true); });
  document.addEventListener("mouseout", function (e) { hover(e, false); });

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
        if (top(board)) {
      restore(board);
      highlight(board);
    }
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
