/* Magic Football Online: keyboard steps on the replay page (/r/<code>/replay).
 *
 * ← and → step back and forward, Home and End jump to the start and the latest step, unless the focus is
 * in a form field. The controls are ordinary links (they work without JavaScript); htmx swaps #replay and
 * pushes the URL, and the focus goes back to the control that was used, so a keyboard user keeps his place.
 */
(function () {
  "use strict";

  var lastKey = null;

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var link = document.querySelector('[data-replay-key="' + event.key + '"]');
    if (!link) return;
    event.preventDefault();
    lastKey = event.key;
    link.click();
  });

  document.addEventListener("submit", function () { lastKey = null; }, true);

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-replay-key]");
    if (link) lastKey = link.getAttribute("data-replay-key");
  }, true);

  document.body.addEventListener("htmx:afterSettle", function () {
    if (!lastKey) return;
    var again = document.querySelector('#replay [data-replay-key="' + lastKey + '"]');
    if (again && document.activeElement !== again) again.focus({ preventScroll: true });
  });
})();
