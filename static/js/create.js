/* "Create a room": show the settings of the chosen game only. Without this script every game's settings
 * are shown and the server reads the chosen game's; with it, the other games' fields are hidden and
 * disabled, so they are neither seen nor sent. */
(function () {
  "use strict";
  var choice = document.querySelector("[data-game-choice]");
  if (!choice) return;
  var form = choice.closest("form");
  function show() {
    var picked = form.querySelector('input[name="game"]:checked');
    var game = picked ? picked.value : "magic-football";
    form.querySelectorAll("[data-game]").forEach(function (block) {
      var on = block.getAttribute("data-game") === game;
      block.hidden = !on;
      block.querySelectorAll("input, select").forEach(function (field) { field.disabled = !on; });
    });
  }
  choice.addEventListener("change", show);
  show();
})();
