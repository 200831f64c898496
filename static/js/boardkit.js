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
 *   mfBoardKit.reduced()  whether the reader asked for reduced motion.
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

  window.mfBoardKit = { each: each, reduced: reduced, announce: announce, watch: watch, arrows: arrows };
})();
