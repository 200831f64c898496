/* What the games' boards share (games/<game>/static/<game>/board.js; a game lists this file first in its
 * Game.board_assets): the room page replaces a board's HTML on every update, so a board's script holds on to
 * no element and is told instead of every board that comes in.
 *
 *   mfBoardKit.watch(selector, check, attributes)  check(board) for every board on the page now and for every
 *       one an update brings in (or whose listed attributes change);
 *   mfBoardKit.announce(name, text)  reads text out in a polite live region of that class, which survives the
 *       swaps (a swapped-in region is often silent);
 *   mfBoardKit.arrows(button, group, roving, among)  the arrow keys, Home and End move the focus between the
 *       buttons of a group (roving: one tab stop for the group, the focused button's); among(button), when
 *       given, lists the buttons to move between instead (a level of a tree of choices);
 *   mfBoardKit.reduced()  whether the reader asked for reduced motion;
 *   mfBoardKit.tree(prefix)  a board whose decider's choices are a tree of disclosures in its panel (chess and
 *       grid football): the classes are the game's own, named by its prefix (<p>-board, <p>-pitch with its
 *       <p>-sq squares, <p>-choices, <p>-level(--top), <p>-step, <p>-leaf, <p>-key), every node naming its
 *       squares (data-squares). A click or tap on the pitch finds the node of that square at the open level
 *       (or starts again from the top): an inner node opens, a leaf plays (its button submits). The pitch
 *       marks what can be chosen now (<p>-sq--choice, --selected, --target, --hot; bk-key--hot the node); Esc
 *       steps back; the arrow keys, Home and End move between the nodes of a level. Returns refresh(board),
 *       for the game's check: what was open is opened again after a redraw of the same position (data-seq),
 *       and the pitch marked; false when the board offers no choices.
 * No framework, no build step.
 */
(function () {
  "use strict";

  var regions = {};

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function reduced() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function announce(name, text) {
    var live = regions[name];
    if (!live || !live.isConnected) {
      live = regions[name] = document.createElement("div");
      live.className = "visually-hidden " + name; // .visually-hidden: static/css/app.css
      live.setAttribute("role", "status");
      live.setAttribute("aria-live", "polite");
      document.body.appendChild(live);
    }
    live.textContent = text;
  }

  function watch(selector, check, attributes) {
    function scan(root) {
      if (root.nodeType !== 1) return [];
      var found = root.matches(selector) ? [root] : [];
      return found.concat(Array.prototype.slice.call(root.querySelectorAll(selector)));
    }
    function start() {
      each(document.querySelectorAll(selector), check);
      var options = { childList: true, subtree: true };
      if (attributes) options.attributeFilter = attributes;
      new MutationObserver(function (records) {
        var boards = [];
        records.forEach(function (r) {
          var found = r.type === "attributes" ? [r.target] : [];
          if (r.type === "childList") each(r.addedNodes, function (n) { found = found.concat(scan(n)); });
          found.forEach(function (b) {
            if (b.isConnected && b.matches(selector) && boards.indexOf(b) < 0) boards.push(b);
          });
        });
        boards.forEach(check);
      }).observe(document.documentElement, options);
    }
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }

  function arrows(button, group, roving, among) {
    document.addEventListener("keydown", function (event) {
      var current = event.target.closest && event.target.closest(button);
      var box = current && current.closest(group);
      if (!box || event.altKey || event.ctrlKey || event.metaKey) return;
      var list = among ? among(current) : Array.prototype.slice.call(box.querySelectorAll(button));
      var i = list.indexOf(current), next = -1;
      if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (i + 1) % list.length;
      else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (i - 1 + list.length) % list.length;
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = list.length - 1;
      if (next < 0) return;
      event.preventDefault();
      if (roving) list.forEach(function (b, k) { b.tabIndex = k === next ? 0 : -1; });
      list[next].focus();
    });
  }

  function tree(prefix) {
    var P = prefix + "-";
    var openPaths = {}; // board id -> {seq, keys}: the open nodes, to restore after a redraw

    function boardOf(el) { return el && el.closest ? el.closest("." + P + "board") : null; }
    function idOf(board) { return board.id || P + "board"; }
    function top(board) { return board.querySelector("." + P + "level--top"); }
    function items(level) {
      return Array.prototype.filter.call(level.children, function (el) {
        return el.matches("." + P + "step, ." + P + "leaf");
      });
    }
    function keyOf(item) { return item.tagName === "DETAILS" ? item.querySelector(":scope > summary") : item; }
    function squaresOf(item) { return (item.getAttribute("data-squares") || "").split(" ").filter(Boolean); }
    function inner(details) { return details.querySelector(":scope > ." + P + "level"); }

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
      return Array.prototype.map.call(board.querySelectorAll("." + P + "choices details[open]"), function (d) {
        return d.getAttribute("data-key");
      });
    }

    // ------------------------------------------------------------------------------ marking the board
    function mark(board, names, cls) {
      names.forEach(function (name) {
        var sq = board.querySelector("." + P + 'sq[data-square="' + name + '"]');
        if (sq) sq.classList.add(cls);
      });
    }

    function highlight(board) {
      each(board.querySelectorAll("." + P + "sq--choice, ." + P + "sq--selected, ." + P + "sq--target"), function (sq) {
        sq.classList.remove(P + "sq--choice", P + "sq--selected", P + "sq--target");
      });
      var level = deepest(board);
      if (!level) return;
      each(board.querySelectorAll("." + P + "choices details[open]"), function (d) {
        mark(board, squaresOf(d), P + "sq--selected");
      });
      items(level).forEach(function (item) {
        mark(board, squaresOf(item), item.tagName === "DETAILS" ? P + "sq--choice" : P + "sq--target");
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
      each(board.querySelectorAll("." + P + "choices details[open]"), function (d) { d.open = false; });
    }

    function find(level, square) {
      return items(level).filter(function (item) { return squaresOf(item).indexOf(square) >= 0; })[0] || null;
    }

    // ------------------------------------------------------------------------------ choosing on the board
    document.addEventListener("click", function (event) {
      var hit = event.target.closest && event.target.closest("." + P + "pitch [data-square]");
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
      if (!d.matches || !d.matches("." + P + "step")) return;
      if (d.open) open(d);
      var board = boardOf(d);
      if (board) highlight(board);
    }, true);

    // Esc steps back one level, to the node that opened it (also after a tap on the board, which takes no focus)
    document.addEventListener("keydown", function (event) {
      var board = boardOf(event.target) || boardOf(document.querySelector("." + P + "choices ." + P + "step[open]"));
      if (!board || event.key !== "Escape" || event.altKey || event.ctrlKey || event.metaKey) return;
      var level = deepest(board);
      var details = level && level.parentElement.closest("." + P + "step");
      if (!details) return;
      event.preventDefault();
      details.open = false;
      keyOf(details).focus();
    });

    // the arrow keys, Home and End move between the nodes of one level
    arrows("." + P + "key", "." + P + "choices", false, function (key) {
      var item = key.tagName === "SUMMARY" ? key.parentElement : key;
      return items(item.parentElement).map(keyOf);
    });

    // pointing at a node lights its squares; pointing at a square lights its node
    function hover(event, on) {
      var t = event.target;
      var key = t.closest && t.closest("." + P + "key");
      var board = boardOf(key);
      if (key && board) {
        var item = key.tagName === "SUMMARY" ? key.parentElement : key;
        squaresOf(item).forEach(function (name) {
          var sq = board.querySelector("." + P + 'sq[data-square="' + name + '"]');
          if (sq) sq.classList.toggle(P + "sq--hot", on);
        });
        return;
      }
      var hit = t.closest && t.closest("." + P + "pitch [data-square]");
      board = boardOf(hit);
      if (!board || !top(board)) return;
      var found = find(deepest(board), hit.getAttribute("data-square"));
      if (found) keyOf(found).classList.toggle("bk-key--hot", on);
    }
    document.addEventListener("mouseover", function (e) { hover(e, true); });
    document.addEventListener("mouseout", function (e) { hover(e, false); });

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

    return function refresh(board) {
      if (!top(board)) return false;
      restore(board);
      highlight(board);
      return true;
    };
  }

  window.mfBoardKit = { each: each, reduced: reduced, announce: announce, watch: watch, arrows: arrows, tree: tree };
})();
