/* Magic Football Online: the live room page (lobby, game, watch, bracket, host console).
 *
 * One websocket per page (/ws/r/<code>/?format=html&lang=..) brings HTML frames: a #sync element
 * (version, first and last event number, what to animate) and out-of-band partials swapped by id.
 * htmx POST answers of the page's forms are frames too, and both go through applyFrame():
 *   - a frame older than what the page shows is ignored (so the POST answer and the push of the same
 *     version never fight), toasts always show;
 *   - new log lines are prepended by id, ids the page already has are skipped (a frame applied twice
 *     changes nothing);
 *   - a frame may carry only the parts that changed since the version in data-base: it is applied only
 *     on top of that version, else the page asks for a full render;
 *   - a gap in event numbers asks the server for a full render ({"type":"sync"}); every 8 frames the
 *     page acknowledges ({"type":"ack"}, back-pressure); a lost socket reconnects with backoff and the
 *     server answers every new connection with a full render; a page the browser's Back restores from
 *     its back/forward cache opens a new socket (the old one was closed on pagehide);
 *   - a form the player is editing (data-keep + data-dirty) survives a push: it is put back into the
 *     new partial with the new version.
 * Animation: the pawn walks square by square (120 ms a step), the die shows the roll, a goal gets
 * confetti, cards flip in; all of it respects prefers-reduced-motion. No build step, no framework.
 */
(function () {
  "use strict";

  var room = document.getElementById("room");
  if (!room) return;

  var COLS = 13, ROWS = 9, STEP_MS = 120, ACK_EVERY = 8, MAX_LOG = 250;
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var text = function (key) { return room.getAttribute("data-i18n-" + key) || ""; };
  var baseTitle = document.title;

  // frames: how many socket frames arrived (the first one means the server counts this page in the room)
  var state = { version: -1, seq: 0, status: "", match: "0", awaitingSync: false, over: false, frames: 0 };

  // ------------------------------------------------------------------------------------ the socket
  var socket = null, frames = 0, retry = 0, closedForGood = false, reconnectTimer = null, opened = false;

  function connect() {
    var path = room.getAttribute("data-ws");
    if (!path || !window.WebSocket) return;
    // delta=1: this script applies frames of changed parts only (checking their data-base)
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path +
      (path.indexOf("?") < 0 ? "?" : "&") + "delta=1";
    var ws = socket = new WebSocket(url);
    socket.onopen = function () {
      retry = 0; frames = 0; showConn(false);
      document.dispatchEvent(new CustomEvent("mf:open", { detail: { reconnect: opened } })); // gamenight.js
      opened = true;
      pingClock(); // the decision timer's clock
    };
    socket.onmessage = function (event) {
      var data = event.data;
      frames += 1;
      state.frames += 1;
      if (frames % ACK_EVERY === 0) send({ type: "ack" });
      if (typeof data !== "string") return;
      if (data.charAt(0) === "{") { onJson(data); return; }
      applyFrame(data, { socket: true });
    };
    socket.onclose = function (event) {
      if (socket !== ws) return; // a socket let go on pagehide closing late: a newer one is in charge
      socket = null;
      if (event.code === 4404) { closedForGood = true; showConn(true, text("offline")); return; }
      if (closedForGood) return;
      showConn(true, text("reconnecting"));
      var delay = Math.min(10000, 500 * Math.pow(2, retry)) * (0.75 + Math.random() * 0.5);
      retry += 1;
      clearTimeout(reconnectTimer);
      reconnectTimer = setTimeout(connect, delay);
    };
  }

  function send(obj) {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(obj));
  }

  function onJson(data) {
    var msg;
    try { msg = JSON.parse(data); } catch (e) { return; }
    if (msg.type === "error" && msg.message) toast(msg.message, "error");
    if (msg.type === "alert" && msg.message) toast(msg.message, "error");
    if (msg.type === "pong") onPong(msg); // the decision timer's clock
  }

  function showConn(on, label) {
    var badge = document.getElementById("conn");
    if (!badge) return;
    badge.hidden = !on;
    if (label) badge.querySelector(".conn-badge__text").textContent = label;
  }

  window.addEventListener("pagehide", function () {
    closedForGood = true;
    clearTimeout(reconnectTimer);
    if (socket) { var leaving = socket; socket = null; leaving.close(); }
  });
  // Back (or Forward) to a page the browser kept in its back/forward cache: it comes back as it was left,
  // without its socket (closed on pagehide) and maybe with a form still marked busy by a request that was
  // abandoned. Follow the game again (a new socket gets a full render) and make the forms usable.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    abandonRequests(document);
    releaseForms(document);
    closedForGood = false;
    retry = 0;
    if (!socket) connect();
  });
  document.addEventListener("visibilitychange", function () {
    // a phone that slept may have a dead socket: reconnect at once when the page comes back
    if (document.visibilityState === "visible" && !socket && !closedForGood) { retry = 0; connect(); }
  });

  // ------------------------------------------------------------------------------------ frames
  function readSync(el, initial) {
    if (!el) return null;
    var info = {
      version: +el.getAttribute("data-version"),
      seq: +el.getAttribute("data-seq"),
      firstSeq: +el.getAttribute("data-first-seq"),
      base: el.hasAttribute("data-base") ? +el.getAttribute("data-base") : null,
      full: el.getAttribute("data-full") === "1",
      status: el.getAttribute("data-status") || "",
      phase: el.getAttribute("data-phase") || "",
      match: el.getAttribute("data-match") || "0",
      myTurn: el.getAttribute("data-my-turn") === "1",
      pawn: +el.getAttribute("data-pawn"),
      mover: el.getAttribute("data-mover"),
      src: el.getAttribute("data-src"),
      path: (el.getAttribute("data-path") || "").split(",").filter(Boolean).map(Number),
      die: el.getAttribute("data-die"),
      fx: (el.getAttribute("data-fx") || "").split(" ").filter(Boolean),
      active: el.getAttribute("data-active")
    };
    if (initial) {
      state.version = info.version; state.seq = info.seq; state.status = info.status; state.match = info.match;
      afterFrame(info, true);
    }
    return info;
  }

  function applyFrame(html, opts) {
    opts = opts || {};
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var frag = tpl.content;
    // toasts always show, whatever the version
    Array.prototype.slice.call(frag.querySelectorAll('[hx-swap-oob^="beforeend:#toasts"]')).forEach(function (wrap) {
      Array.prototype.slice.call(wrap.children).forEach(function (t) { addToast(t); });
      wrap.remove();
    });
    var syncEl = frag.querySelector("#sync");
    if (!syncEl) { // a chat line or a presence change (no game version): static/js/gamenight.js
      document.dispatchEvent(new CustomEvent("mf:extra", { detail: { fragment: frag } }));
      return false;
    }
    var info = readSync(syncEl, false);
    var newer = info.version > state.version;
    if (!newer && !(info.full && (state.awaitingSync || info.version === state.version && opts.force))) return false;
    // a frame with only the parts that changed since data-base fits only a page showing that version
    if (info.base !== null && info.base !== state.version) {
      if (!state.awaitingSync) requestSync();
      return false;
    }
    var gap = !info.full && info.firstSeq > state.seq + 1;
    prefilter(frag);
    var kept = keepDirtyForms();
    var money = moneyValues();
    var pawnBefore = currentPawn();
    htmx.swap(room, frag, { swapStyle: "none", ignoreTitle: true });
    restoreDirtyForms(kept, info.version);
    flashMoney(money);
    state.version = info.version;
    state.seq = info.full ? info.seq : Math.max(state.seq, info.seq);
    if (info.full) state.awaitingSync = false;
    info.pawnBefore = pawnBefore;
    afterFrame(info, false);
    if (gap) requestSync();
    return true;
  }

  function requestSync() {
    state.awaitingSync = true;
    send({ type: "sync", since: state.seq });
  }

  // The out-of-band parts of a frame: table parts (the host's ledger rows) come inside a <template>,
  // because outside a table the HTML parser drops a bare <tbody> or <tr>; htmx swaps what it holds.
  function oobParts(frag) {
    var parts = Array.prototype.slice.call(frag.querySelectorAll("[hx-swap-oob]"));
    Array.prototype.slice.call(frag.querySelectorAll("template")).forEach(function (tpl) {
      parts = parts.concat(Array.prototype.slice.call(tpl.content.querySelectorAll("[hx-swap-oob]")));
    });
    return parts;
  }

  // drop out-of-band parts this page has no place for, and log lines (ledger rows) it already shows
  function prefilter(frag) {
    oobParts(frag).forEach(function (el) {
      var value = el.getAttribute("hx-swap-oob");
      var colon = value.indexOf(":");
      var selector = colon > 0 ? value.slice(colon + 1) : "#" + el.id;
      var target = selector ? document.querySelector(selector) : null;
      if (!target) { el.remove(); return; }
      if (colon > 0) {
        Array.prototype.slice.call(el.children).forEach(function (child) {
          if (child.id && document.getElementById(child.id)) child.remove();
        });
      }
    });
  }

  // ------------------------------------------------------------------------------------ dirty forms
  document.addEventListener("input", markDirty, true);
  document.addEventListener("change", markDirty, true);
  function markDirty(event) {
    var form = event.target && event.target.closest && event.target.closest("form[data-keep]");
    if (form) form.setAttribute("data-dirty", "1");
  }

  function keepDirtyForms() {
    var kept = {};
    Array.prototype.slice.call(room.querySelectorAll("form[data-keep][data-dirty]")).forEach(function (form) {
      kept[form.getAttribute("data-keep")] = form;
    });
    return kept;
  }

  function restoreDirtyForms(kept, version) {
    Object.keys(kept).forEach(function (key) {
      var old = kept[key];
      if (old.isConnected) return;
      var fresh = room.querySelector('form[data-keep="' + key + '"]');
      if (!fresh) return; // the decision is gone: the edit is moot
      var v = old.querySelector('input[name="version"]');
      if (v) v.value = String(version);
      fresh.replaceWith(old);
    });
  }

  // ------------------------------------------------------------------------------------ after a frame
  function afterFrame(info, initial) {
    var page = room.getAttribute("data-page");
    // the game started: the lobby (or a waiting page) becomes the game page, from its top
    var started = !initial && state.status === "lobby" && info.status !== "lobby";
    if (started || (!initial && page === "lobby" && info.status !== "lobby")) {
      window.scrollTo(0, 0);
      location.reload();
      return;
    }
    state.status = info.status;
    var game = document.getElementById("game");
    if (game) game.classList.toggle("game--match", info.match !== "0");
    if (game) game.classList.toggle("game--finals", info.phase === "phase3" || info.phase === "finished");
    if (info.match !== state.match) {
      var feed = document.getElementById("duel-feed");
      if (feed && !initial) {
        Array.prototype.slice.call(feed.children).forEach(function (li) {
          if (li.getAttribute("data-match") !== info.match) li.remove();
        });
      }
      state.match = info.match;
    }
    document.title = info.myTurn ? "\u25CF " + text("your-turn") + " \u2014 " + baseTitle : baseTitle;
    trimLog();
    if (!initial) {
      animatePawn(info);
      showDie(info.die);
      effects(info.fx);
    } else {
      placePawn(info.pawn, false);
    }
    timers();
    focusPrompt(initial);
    if ((info.status === "finished" || info.status === "abandoned") && !state.over) {
      state.over = true;
      loadRematch();
    }
    document.dispatchEvent(new CustomEvent("mf:frame", { detail: { myTurn: info.myTurn, initial: initial, status: info.status } }));
  }

  function trimLog() {
    ["log-list", "duel-feed"].forEach(function (id) {
      var list = document.getElementById(id);
      if (!list) return;
      while (list.children.length > MAX_LOG) list.lastElementChild.remove();
    });
  }

  function loadRematch() {
    var slot = document.getElementById("rematch");
    var url = room.getAttribute("data-next-url");
    if (slot && url && window.htmx) htmx.ajax("GET", url, { source: slot, target: slot, swap: "outerHTML" });
  }

  var lastPromptFocus = null;
  function focusPrompt(initial) {
    // bring a new decision of mine into view on phones (the prompt is sticky there)
    var form = room.querySelector("#prompt form");
    var key = form ? form.getAttribute("data-keep") : null;
    if (key && key !== lastPromptFocus && !initial) {
      var auto = form.querySelector("[data-autofocus]");
      var active = document.activeElement;
      if (auto && !(active && active.closest && active.closest("form"))) auto.focus({ preventScroll: true });
    }
    lastPromptFocus = key;
  }

  // ------------------------------------------------------------------------------------ the pawn
  var walk = [], pawnAt = null;
  function cell(index) {
    var n = 2 * (COLS + ROWS) - 4, i = ((index % n) + n) % n;
    if (i <= COLS - 1) return [COLS - 1 - i, ROWS - 1];
    if (i <= COLS - 1 + ROWS - 1) return [0, ROWS - 1 - (i - (COLS - 1))];
    if (i <= 2 * (COLS - 1) + ROWS - 1) return [i - (COLS - 1 + ROWS - 1), 0];
    return [COLS - 1, i - (2 * (COLS - 1) + ROWS - 1)];
  }
  function currentPawn() { return pawnAt; }
  function placePawn(index, animated) {
    var pawn = document.getElementById("pawn");
    if (!pawn) return;
    var c = cell(index);
    pawn.classList.toggle("board-pawn--moving", !!animated);
    pawn.style.left = ((c[0] + 0.5) * 100 / COLS).toFixed(3) + "%";
    pawn.style.top = ((c[1] + 0.5) * 100 / ROWS).toFixed(3) + "%";
    pawnAt = index;
  }
  function animatePawn(info) {
    var pawn = document.getElementById("pawn");
    if (!pawn) return;
    pawn.setAttribute("data-square", String(info.pawn));
    if (info.active) {
      pawn.className = pawn.className.replace(/\bseat-\d\b/g, "").trim() + " seat-" + info.active;
    }
    if (info.mover) {
      pawn.className = pawn.className.replace(/\bseat-\d\b/g, "").trim() + " seat-" + info.mover;
    }
    if (!info.path.length) { if (currentPawn() !== info.pawn) placePawn(info.pawn, false); return; }
    walk.forEach(clearTimeout);
    walk = [];
    if (reduced) { placePawn(info.pawn, false); pulse(info.pawn); return; }
    var start = info.src !== null && info.src !== "" ? +info.src : info.pawnBefore;
    if (start !== null && !isNaN(start)) placePawn(start, false);
    info.path.forEach(function (square, i) {
      walk.push(setTimeout(function () {
        placePawn(square, true);
        trail(square, info.mover);
        if (i === info.path.length - 1) setTimeout(function () { pulse(square); }, STEP_MS);
      }, (i + 1) * STEP_MS));
    });
  }
  function squareEl(index) { return document.querySelector('#board-svg .sq[data-index="' + index + '"]'); }
  function pulse(index) {
    var sq = squareEl(index);
    if (!sq) return;
    sq.classList.remove("sq--landed");
    void sq.getBoundingClientRect();
    sq.classList.add("sq--landed");
    setTimeout(function () { sq.classList.remove("sq--landed"); }, 1900);
  }
  function trail(index, seat) {
    var sq = squareEl(index);
    if (!sq || reduced) return;
    sq.classList.add("sq--trail");
    if (seat) sq.style.setProperty("--trail", "var(--p" + seat + ")");
    setTimeout(function () { sq.classList.remove("sq--trail"); }, 700);
  }

  // ------------------------------------------------------------------------------------ die, effects
  function showDie(value) {
    var die = document.getElementById("die");
    if (!die || !value) return;
    var icon = die.querySelector(".icon");
    if (icon) icon.className = "icon icon-dice-" + value;
    die.setAttribute("data-value", value);
    die.setAttribute("aria-label", die.getAttribute("aria-label").replace(/\d/, value));
    die.classList.remove("board-die--idle", "board-die--rolling");
    void die.offsetWidth;
    if (!reduced) die.classList.add("board-die--rolling");
  }

  function effects(fx) {
    fx.forEach(function (item) {
      var parts = item.split(":"), kind = parts[0], side = parts[1];
      if (kind === "goal" || kind === "cup") celebrate(kind === "cup" ? 260 : 140);
      if (kind === "disallowed") flash(".duel", "duel--reversed", 1400);
      if (kind === "shot") flash(".duel", "duel--shot", 900);
      if (kind === "reveal") flash(".duel__side--" + side + " .duel__card", "card--flip", 500);
    });
  }
  function flash(selector, cls, ms) {
    var el = document.querySelector(selector);
    if (!el || reduced) return;
    el.classList.remove(cls);
    void el.getBoundingClientRect();
    el.classList.add(cls);
    setTimeout(function () { el.classList.remove(cls); }, ms);
  }
  function celebrate(count) {
    if (reduced || typeof window.confetti !== "function") return;
    window.confetti({ particleCount: count, spread: 75, startVelocity: 38, origin: { y: 0.35 },
                      colors: ["#f6c744", "#ffffff", "#2f8f4e", "#56b4e9", "#e69f00"], disableForReducedMotion: true });
  }

  // ------------------------------------------------------------------------------------ money
  function moneyValues() {
    var out = {};
    Array.prototype.slice.call(room.querySelectorAll("[data-money-key]")).forEach(function (el) {
      out[el.getAttribute("data-money-key")] = +el.getAttribute("data-value");
    });
    return out;
  }
  function flashMoney(before) {
    Array.prototype.slice.call(room.querySelectorAll("[data-money-key]")).forEach(function (el) {
      var key = el.getAttribute("data-money-key");
      if (!(key in before)) return;
      var now = +el.getAttribute("data-value"), diff = now - before[key];
      if (!diff) return;
      el.classList.add(diff > 0 ? "money--up" : "money--down");
      var delta = document.createElement("span");
      delta.className = "money-delta money-delta--" + (diff > 0 ? "up" : "down");
      delta.setAttribute("aria-hidden", "true");
      delta.textContent = (diff > 0 ? "+" : "−") + Math.abs(diff).toLocaleString(document.documentElement.lang || "en");
      el.after(delta);
      setTimeout(function () { delta.remove(); el.classList.remove("money--up", "money--down"); }, 1600);
    });
  }

  // ------------------------------------------------------------------------------------ decision timer
  // The deadline is the server's (R19b): data-deadline is when the default is taken, in ms of the server's
  // clock, data-left the ms left while the game is paused. Shown: deadline - (now + offset), where offset
  // is the server's clock minus this page's, first read from the page render (data-now on #room), then
  // measured by pings on every connection (a round trip halved; the shortest one wins). So a reload, a
  // second page and the server count to the same moment, and the page shows 0 before the default.
  var clock = { offset: 0, rtt: Infinity, pings: 0 };
  if (+room.getAttribute("data-now")) clock.offset = +room.getAttribute("data-now") - Date.now();
  function pingClock() { clock.rtt = Infinity; clock.pings = 1; send({ type: "ping", t: Date.now() }); }
  function onPong(msg) {
    if (typeof msg.now !== "number" || typeof msg.t !== "number") return;
    var back = Date.now(), rtt = back - msg.t;
    if (rtt >= 0 && rtt < clock.rtt) { clock.rtt = rtt; clock.offset = msg.now - (msg.t + back) / 2; timers(); }
    if (clock.pings < 3) { clock.pings += 1; send({ type: "ping", t: Date.now() }); }
  }
  var tick = null;
  function timers() {
    clearTimeout(tick);
    var el = room.querySelector(".prompt-timer[data-deadline], .prompt-timer[data-left]");
    var out = el && el.querySelector(".prompt-timer__left");
    if (!out) return;
    var paused = el.hasAttribute("data-left");
    var ms = paused ? +el.getAttribute("data-left") : +el.getAttribute("data-deadline") - (Date.now() + clock.offset);
    var left = Math.max(0, Math.ceil(ms / 1000));
    if (out.textContent !== String(left)) out.textContent = String(left);
    el.classList.toggle("prompt-timer--low", !paused && left <= 10);
    // frozen by a pause, or run out; else look again when the shown number changes
    if (!paused && ms > 0) tick = setTimeout(timers, ms - (left - 1) * 1000 + 5);
  }
  // a hidden tab's timeouts are throttled: a phone that wakes up shows the right number at once
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") timers(); });

  // ------------------------------------------------------------------------------------ htmx posts
  document.body.addEventListener("htmx:beforeSend", function (event) {
    var form = event.detail.elt;
    if (!form || form.tagName !== "FORM") return;
    Array.prototype.slice.call(form.querySelectorAll("button")).forEach(function (b) {
      b.disabled = true; b.setAttribute("data-was-enabled", "1");
    });
    form.setAttribute("aria-busy", "true");
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.tagName !== "FORM") return;
    releaseForms(form);
  });
  // htmx's history (the replay's steps) restores a snapshot of the page taken while a form was busy
  document.body.addEventListener("htmx:historyRestore", function () { releaseForms(document); });
  // A request abandoned when the page was left is still htmx's in-flight request of its element: abort it, or
  // htmx queues the next one behind it and, should the old answer still come, applies both (two history
  // entries for one replay step, so Back seemed to do nothing).
  function abandonRequests(root) {
    if (!window.htmx) return;
    Array.prototype.slice.call(root.querySelectorAll(".htmx-request, form[aria-busy]")).forEach(function (el) {
      window.htmx.trigger(el, "htmx:abort");
    });
  }
  function releaseForms(root) {
    Array.prototype.slice.call(root.querySelectorAll("button[data-was-enabled]")).forEach(function (b) {
      b.disabled = false; b.removeAttribute("data-was-enabled");
    });
    if (root.removeAttribute) root.removeAttribute("aria-busy");
    Array.prototype.slice.call(root.querySelectorAll("form[aria-busy]")).forEach(function (form) {
      form.removeAttribute("aria-busy");
    });
  }
  // The forms inherit hx-target="#room" (hx-swap="none"), so their answers arrive here even when a push
  // has already replaced the form that was posted; the answer is a frame like any other.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr;
    if (event.detail.target !== room) return;
    event.detail.shouldSwap = false;
    var body = xhr && typeof xhr.responseText === "string" ? xhr.responseText : "";
    var refused = body.indexOf("toast--error") >= 0;
    if (!refused && elt && elt.hasAttribute && elt.hasAttribute("data-keep")) elt.removeAttribute("data-dirty");
    if (body) applyFrame(body, { response: true, force: body.indexOf('data-full="1"') >= 0 });
    if (xhr && xhr.status >= 400 && !refused) toast(xhr.status === 403 ? text("expired") : text("error"), "error");
  });
  document.body.addEventListener("htmx:sendError", function () { toast(text("offline"), "error"); });

  // ------------------------------------------------------------------------------------ toasts
  function toast(message, level) {
    var el = document.createElement("div");
    el.className = "toast toast--" + (level || "error");
    el.setAttribute("role", "alert");
    var span = document.createElement("span");
    span.textContent = message;
    el.appendChild(span);
    addToast(el);
  }
  function addToast(el) {
    var region = document.getElementById("toasts");
    if (!region) return;
    region.appendChild(el);
    while (region.children.length > 4) region.firstElementChild.remove();
    setTimeout(function () { el.classList.add("toast--out"); setTimeout(function () { el.remove(); }, 300); }, 7000);
  }

  // ------------------------------------------------------------------------------------ small UI
  document.addEventListener("click", function (event) {
    var target = event.target;
    var close = target.closest("[data-dismiss]");
    if (close) { var t = close.closest(".toast"); if (t) t.remove(); return; }
    var copy = target.closest("[data-copy], [data-copy-text]");
    if (copy) { copyText(copy); return; }
    var move = target.closest("[data-move]");
    if (move) { moveRow(move); return; }
    var tab = target.closest("[data-tab]");
    if (tab) { selectTab(tab); }
  });
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "reserve" && target.closest("[data-lineup]")) renumber(target.closest("[data-lineup]"));
    var counted = target.closest("[data-count-field]");
    if (counted) count(counted);
  });

  function copyText(button) {
    var value = button.getAttribute("data-copy-text");
    var source = button.getAttribute("data-copy") ? document.querySelector(button.getAttribute("data-copy")) : null;
    if (source) value = source.value;
    var done = function () { toast(text("copied"), "success"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(value).then(done, function () { fallbackCopy(source, value, done); });
    } else { fallbackCopy(source, value, done); }
  }
  function fallbackCopy(source, value, done) {
    var input = source || document.createElement("textarea");
    if (!source) { input.value = value; document.body.appendChild(input); }
    input.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* the text stays selected for the user */ }
    if (!source) input.remove();
  }

  function moveRow(button) {
    var row = button.closest("li");
    var list = row && row.parentElement;
    if (!list) return;
    if (button.getAttribute("data-move") === "up" && row.previousElementSibling) {
      list.insertBefore(row, row.previousElementSibling);
    } else if (button.getAttribute("data-move") === "down" && row.nextElementSibling) {
      list.insertBefore(row.nextElementSibling, row);
    }
    button.focus();
    var form = row.closest("form");
    if (form) { form.setAttribute("data-dirty", "1"); renumber(form); }
  }
  function renumber(form) {
    var n = 0;
    Array.prototype.slice.call(form.querySelectorAll(".lineup__row")).forEach(function (row) {
      var radio = row.querySelector('input[name="reserve"]');
      var reserve = radio && radio.checked;
      row.classList.toggle("lineup__row--reserve", !!reserve);
      var pos = row.querySelector(".lineup__pos");
      if (!reserve) n += 1;
      if (pos) pos.textContent = reserve ? "R" : String(n);
    });
  }
  function count(form) {
    var need = +form.getAttribute("data-count-field");
    var have = form.querySelectorAll('input[name="field"]:checked').length;
    var out = form.querySelector("[data-counter]");
    if (out) out.textContent = String(have);
    if (out) out.classList.toggle("pick__count--off", have !== need);
  }

  function selectTab(tab) {
    var bar = tab.closest("[role=tablist]");
    if (!bar) return;
    Array.prototype.slice.call(bar.querySelectorAll("[data-tab]")).forEach(function (t) {
      var on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      var panel = document.getElementById(t.getAttribute("aria-controls"));
      if (panel) panel.classList.toggle("tab-panel--active", on);
    });
  }

  // ------------------------------------------------------------------------------------ go
  readSync(document.getElementById("sync"), true);
  if (window.htmx) connect();
  else document.addEventListener("DOMContentLoaded", connect);
  window.mfRoom = { state: state, applyFrame: applyFrame, requestSync: requestSync, clock: clock };
})();
