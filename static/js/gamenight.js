/* Magic Football Online: the game-night extras of the room pages — chat, presence dots, your-turn alerts.
 *
 * static/js/room.js owns the socket and the game frames; it tells this file about the rest with events:
 *   mf:extra  a frame without a game version: a chat line (data-frame="chat"), who is connected
 *             (data-frame="presence") or that the host muted or un-muted me (data-frame="chat-mute");
 *             chat lines are appended by id, so a line received twice shows once;
 *   mf:frame  a game frame was applied (the players' panel was redrawn: put the presence dots back;
 *             a decision of mine may have opened: alert me when the tab is hidden and I asked for it);
 *   mf:open   the socket (re)connected: re-read the chats, lines may have been missed meanwhile.
 * Chat forms post with htmx; their answer is the same chat frame the sockets get (or a toast saying why
 * not). Notifications are opt-in, asked for only on a click (browsers require a user gesture).
 */
(function () {
  "use strict";

  var room = document.getElementById("room");
  if (!room) return;
  var text = function (key) { return room.getAttribute("data-i18n-" + key) || ""; };
  var MAX_LINES = 150;
  var STORE_KEY = "mf-turn-alerts";

  // ------------------------------------------------------------------------------------ presence
  var present = words(room.getAttribute("data-present"));

  function words(value) {
    var out = {};
    (value || "").split(/\s+/).filter(Boolean).forEach(function (w) { out[w] = true; });
    return out;
  }

  function applyPresence() {
    Array.prototype.slice.call(document.querySelectorAll("[data-presence-seat]")).forEach(function (dot) {
      var on = !!present[dot.getAttribute("data-presence-seat")];
      dot.classList.toggle("presence--on", on);
      dot.classList.toggle("presence--off", !on);
      dot.setAttribute("title", on ? text("present") : text("away"));
      var label = dot.querySelector(".presence__text");
      if (label) label.textContent = on ? text("present") : text("away");
    });
  }

  // ------------------------------------------------------------------------------------ extra frames
  document.addEventListener("mf:extra", function (event) {
    var frag = event.detail && event.detail.fragment;
    if (frag) handle(frag);
  });

  function handle(frag) {
    Array.prototype.slice.call(frag.querySelectorAll("[data-frame]")).forEach(function (el) {
      var kind = el.getAttribute("data-frame");
      if (kind === "presence") {
        present = words(el.getAttribute("data-present"));
        applyPresence();
      } else if (kind === "chat") {
        addLines(el.getAttribute("data-channel"), Array.prototype.slice.call(el.children));
      } else if (kind === "chat-mute") {
        showMuted(el.getAttribute("data-muted") === "true");
      }
    });
  }

  // ------------------------------------------------------------------------------------ chat
  function addLines(channel, lines) {
    var list = document.getElementById("chat-" + channel + "-list");
    if (!list) return;
    var atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    lines.forEach(function (li) {
      if (!li.id || document.getElementById(li.id)) return;
      var empty = list.querySelector(".chat__empty");
      if (empty) empty.remove();
      localTime(li);
      list.appendChild(li);
    });
    while (list.children.length > MAX_LINES) list.firstElementChild.remove();
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  // The host muted (or un-muted) this browser: the notice replaces the chat box, and back.
  function showMuted(muted) {
    Array.prototype.slice.call(document.querySelectorAll("[data-chat-muted]")).forEach(function (note) {
      note.hidden = !muted;
    });
    Array.prototype.slice.call(document.querySelectorAll("[data-chat-form]")).forEach(function (form) {
      form.hidden = muted;
    });
  }

  function localTime(root) {
    Array.prototype.slice.call(root.querySelectorAll ? root.querySelectorAll("time[datetime]") : []).forEach(function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (!isNaN(when)) {
        t.textContent = when.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
      }
    });
  }

  function scrollChats() {
    Array.prototype.slice.call(document.querySelectorAll("[data-chat-list]")).forEach(function (list) {
      localTime(list);
      list.scrollTop = list.scrollHeight;
    });
  }

  function refreshChats() {
    Array.prototype.slice.call(document.querySelectorAll("[data-chat-refresh]")).forEach(function (box) {
      var url = box.getAttribute("data-chat-refresh");
      fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          var tpl = document.createElement("template");
          tpl.innerHTML = html;
          var fresh = tpl.content.querySelector("[data-chat-list]");
          if (!fresh) return;
          var channel = fresh.getAttribute("data-chat-list");
          addLines(channel, Array.prototype.slice.call(fresh.querySelectorAll("li[id]")));
        })
        .catch(function () { /* the next reconnect tries again */ });
    });
  }

  function refreshPresence() {
    var url = room.getAttribute("data-presence-url");
    if (!url) return;
    fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var tpl = document.createElement("template");
        tpl.innerHTML = html;
        handle(tpl.content);
      })
      .catch(function () { /* the next change is pushed anyway */ });
  }

  document.addEventListener("mf:open", function (event) {
    if (event.detail && event.detail.reconnect) { refreshChats(); refreshPresence(); }
  });

  // A chat post's answer (the chat frame, or a toast) is applied here, never swapped into the form.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.closest || !(elt.closest("[data-chat-form]") || elt.closest("#chat-voices"))) return;
    var body = event.detail.xhr && typeof event.detail.xhr.responseText === "string" ? event.detail.xhr.responseText : "";
    var isToast = body.indexOf("toast--") >= 0;
    if (!elt.closest("[data-chat-form]") && !isToast) return; // the host's mute list swaps normally
    event.detail.shouldSwap = false;
    if (window.mfRoom && body) window.mfRoom.applyFrame(body);
    var form = elt.closest("[data-chat-form]");
    if (form && !isToast && event.detail.xhr.status < 300) {
      var input = form.querySelector('input[name="text"]');
      if (input) { input.value = ""; input.focus(); }
    }
  });

  // ------------------------------------------------------------------------------------ your turn
  var canNotify = "Notification" in window;
  var openPrompts = myPrompts(); // the decisions of mine the page shows (each form is keyed by its prompt id)

  function myPrompts() {
    var ids = {};
    Array.prototype.slice.call(document.querySelectorAll('#prompt form[data-keep^="prompt-"]')).forEach(function (form) {
      ids[form.getAttribute("data-keep")] = true;
    });
    return ids;
  }
  var button = document.querySelector("[data-notify]");

  function alertsOn() {
    try { return canNotify && Notification.permission === "granted" && localStorage.getItem(STORE_KEY) === "1"; }
    catch (e) { return false; }
  }

  function showButton() {
    if (!button) return;
    button.hidden = !canNotify;
    var on = alertsOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    var icon = button.querySelector(".icon");
    if (icon) icon.className = "icon icon-" + (on ? "bell-off" : "bell");
    var label = button.querySelector(".room-nav__notify-text");
    if (label) label.textContent = on ? text("notify-off") : text("notify-on");
  }

  if (button) {
    button.addEventListener("click", function () {
      if (alertsOn()) {
        try { localStorage.setItem(STORE_KEY, "0"); } catch (e) { /* private mode: nothing kept */ }
        showButton();
        return;
      }
      var ask = Notification.permission === "granted" ? Promise.resolve("granted") : Notification.requestPermission();
      Promise.resolve(ask).then(function (answer) {
        if (answer === "granted") {
          try { localStorage.setItem(STORE_KEY, "1"); } catch (e) { /* kept for this page only */ }
        } else {
          var t = document.createElement("div");
          t.className = "toast toast--error";
          t.setAttribute("role", "alert");
          t.textContent = text("notify-denied");
          var region = document.getElementById("toasts");
          if (region) { region.appendChild(t); setTimeout(function () { t.remove(); }, 7000); }
        }
        showButton();
      });
    });
  }

  function turnAlert() {
    if (!alertsOn() || document.visibilityState !== "hidden") return;
    var banner = document.querySelector("#banner .turn-banner__main");
    try {
      var note = new Notification(text("notify-title"), {
        body: banner ? banner.textContent.replace(/\s+/g, " ").trim() : "",
        tag: "mf-turn-" + room.getAttribute("data-code"),
        icon: (document.querySelector('link[rel="icon"]') || {}).href
      });
      note.onclick = function () { window.focus(); note.close(); };
    } catch (e) { /* some browsers only notify from a service worker: the tab title still says it */ }
  }

  document.addEventListener("mf:frame", function (event) {
    applyPresence();
    var detail = event.detail || {};
    var now = myPrompts();
    var opened = Object.keys(now).some(function (id) { return !openPrompts[id]; });
    if (opened && detail.myTurn && !detail.initial) turnAlert(); // a new decision of mine opened
    openPrompts = now;
  });

  // ------------------------------------------------------------------------------------ go
  applyPresence();
  scrollChats();
  showButton();
  window.mfGameNight = { presence: function () { return Object.keys(present); }, refreshChats: refreshChats };
})();
