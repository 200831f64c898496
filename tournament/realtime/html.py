"""HTML frames for the room pages: htmx out-of-band partials, rendered once per projection and version.

A frame is a small ``#sync`` element (version, first and last event number, what to animate) followed by
the partials of the viewer's page, each swapped by its element id (``hx-swap-oob``), so applying a frame
twice changes nothing. New log lines are prepended by id (``log-<seq>``); the browser skips ids it has.
The same frames answer the pages' htmx POSTs (``tournament/views/act.py``) and the websocket pushes
(``tournament/realtime/hub.py``), and ``static/js/room.js`` applies both the same way.

The room hub renders a version for all its pages at once (``VersionPages``, issue 10): what every viewer
sees alike (the board, the bracket) is prepared once, a region whose inputs did not change since the
previous version (or that another page of this version already rendered with the same inputs) is not
rendered again, and a page that holds the previous version gets only the regions that changed
(``data-base`` on ``#sync``; ``static/js/room.js`` asks for a full render when it does not hold that
base).

Render functions depend only on (snapshot, viewer, events) and the active language — never on a request:
no CSRF token (it sits on ``<body>`` once), no per-socket data. The language is chosen per socket from the
``lang`` query parameter of the websocket URL (``tournament/consumers.py`` folds it into the wire format
``html.<lang>``; the hub renders once per projection, format and language).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from cards.catalog import get_catalog
from games.api import get_game
from tournament.models import LedgerEntry
from tournament.presentation import competition, eventlog, present
from tournament.realtime.wire import Frame
from tournament.rules.projection import SPECTATOR, Viewer
from tournament.rules.setup import match_formats
from tournament.selectors import event_visible, recent_events_for, view_for
from tournament.services import timers
from tournament.services.store import Snapshot

LOG_LINES = 60  # lines a full render shows (older ones are in the log of the host console/admin)


# ------------------------------------------------------------------------------------------ context


def visible(events: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """The events (with audiences, from the hub) this viewer may see."""
    return [e for e in events if event_visible(e.get("audience"), viewer)]


def room_context(
    snap: Snapshot,
    viewer: Viewer,
    events: list[dict[str, Any]],
    first_seq: int,
    *,
    full: bool,
    ledger: list[dict[str, Any]] | None = None,
    view: dict[str, Any] | None = None,
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the room partials draw for one viewer at one version.

    ``events`` are the viewer's visible events: the batch since the last frame for an update, the recent
    log for a full render. ``ledger`` (host viewers only) are the ledger rows to show: all of them for a
    full render, the new ones for an update. ``view`` is the viewer's projection when the caller has it;
    ``shared`` holds what is the same for every viewer of this version (``shared_context``).
    """
    cat = get_catalog()
    if view is None:
        view = view_for(snap, viewer)
    if snap.state.game != "magic-football":
        return competition_context(snap, viewer, events, first_seq, full=full, view=view)
    if shared is None:
        shared = shared_context(view)
    log_ctx = eventlog.LogContext.from_state(snap.state, viewer.seat, cat)
    lines = eventlog.render(events, log_ctx)
    status = view["status"]
    ctx: dict[str, Any] = {
        **_frame_basics(snap, viewer, view, first_seq, full),
        "seats": present.seats(view, cat),
        "log": present.log_items(lines),
        "duel_feed": present.log_items([line for line in lines if line.match is not None])[:12],
        "fx": present.effects(events)
        if not full
        else {"path": [], "src": None, "mover": None, "die": None, "fx": []},
        "banner": present.banner(view, cat),
    }
    if status == "lobby":
        ctx["lobby"] = lobby(view, snap.state.pre_qualified)
    else:
        ctx["board"] = shared["board"]
        ctx["hand"] = present.hand(view, cat)
        ctx["prompts"] = present.prompts(view, cat)
        ctx["held_by_bot"] = present.held_by_bot(view)
        ctx["host_name"] = present.host_name(view) if ctx["held_by_bot"] else ""
        ctx["timer"] = present.decision_timer(view, timers.clock_ms())
        ctx["deciding"] = present.others_deciding(view)
        ctx["duel"] = present.duel(view, cat)
        ctx["bracket"] = shared["bracket"]
    if viewer.host:
        ctx["host"] = host_panel(view, ledger or [])
    return ctx


def _frame_basics(
    snap: Snapshot, viewer: Viewer, view: dict[str, Any], first_seq: int, full: bool
) -> dict[str, Any]:
    """What every room page's context holds, whatever the game: the version, the viewer, the status."""
    status = view["status"]
    return {
        "view": view,
        "code": snap.code,
        "version": snap.version,
        "seq": snap.last_seq,
        "first_seq": first_seq,
        "full": full,
        "status": status,
        "in_lobby": status == "lobby",
        "viewer_kind": view["viewer"],
        "is_host": viewer.host,
        "me_seat": viewer.seat if viewer.seat in {s["seat"] for s in view["seats"]} else None,
    }


def competition_context(
    snap: Snapshot,
    viewer: Viewer,
    events: list[dict[str, Any]],
    first_seq: int,
    *,
    full: bool,
    view: dict[str, Any],
) -> dict[str, Any]:
    """Everything the partials of a room of another game draw for one viewer at one version: the same
    page shape for every game, its board from the game (``presentation/competition.py``)."""
    log_ctx = eventlog.LogContext.from_state(snap.state, viewer.seat)
    status = view["status"]
    ctx: dict[str, Any] = {
        **_frame_basics(snap, viewer, view, first_seq, full),
        "competition_room": True,
        "seats": competition.players(view),
        "log": present.log_items(eventlog.render(events, log_ctx)),
        "fx": {"path": [], "src": None, "mover": None, "die": None, "fx": []},
        "comp_banner": competition.banner(view),
    }
    if status == "lobby":
        ctx["lobby"] = lobby(view)
        ctx["lobby_game"] = competition.lobby(view)
    else:
        ctx["boards"] = competition.boards(view, snap.version)
        ctx["standings"] = competition.standings(view)
        ctx["held_by_bot"] = present.held_by_bot(view)
        ctx["host_name"] = present.host_name(view) if ctx["held_by_bot"] else ""
        ctx["timer"] = present.decision_timer(view, timers.clock_ms())
    if viewer.host:
        ctx["host"] = host_panel(view, [])
    return ctx


def shared_context(view: dict[str, Any]) -> dict[str, Any]:
    """The parts of a room context that are the same for every viewer of a version, from any viewer's
    view (or a spectator's): the board reads only public parts of the view, the bracket the public parts
    and the running match's number and score, which every side of the match sees alike."""
    if view.get("status") == "lobby" or view.get("game", "magic-football") != "magic-football":
        return {}  # (a room of another game shares nothing of Magic Football's board)
    cat = get_catalog()
    return {"board": present.board(view, cat), "bracket": present.bracket(view, cat)}


def lobby(view: dict[str, Any], cup_winner: str = "") -> dict[str, Any]:
    """The lobby: seats (free ones too), house rules, who may start, the country a rematch pre-qualifies
    (``cup_winner``, R18)."""
    rules = view.get("house_rules") or {}
    capacity = int(rules.get("seats") or 6)
    taken = view.get("seats", [])
    timer = rules.get("decision_timer")
    return {
        "capacity": capacity,
        "free": list(range(max(0, capacity - len(taken)))),
        "full": len(taken) >= capacity,
        "can_start": len(taken) >= 2,
        "mode": view.get("mode"),
        "mode_label": gettext("World Cup")
        if view.get("mode") == "world_cup"
        else gettext("European Championship"),
        "visit_fee_to": rules.get("visit_fee_to", "coach"),
        "fee_label": gettext("to the national coach (rulebook)")
        if rules.get("visit_fee_to", "coach") == "coach"
        else gettext("to the Bank (house rule)"),
        "decision_timer": timer or 0,
        "timer_label": gettext("no timer") if not timer else gettext("%(n)s seconds") % {"n": timer},
        "seat_choices": list(range(max(2, len(taken)), 9)),
        "timer_choices": [0, 30, 60, 120, 300],
        "match_format": rules.get("match_format", "duel"),
        "format_label": match_format_label(rules.get("match_format", "duel")),
        "format_choices": [(key, match_format_label(key)) for key in match_formats()],
        "version": view.get("version"),
        "pre_qualified": present.pre_qualified(get_catalog(), cup_winner, str(view.get("mode"))),
    }


def match_format_label(key: str) -> str:
    """How Magic Football's matches are played (R20), in words."""
    if key == "duel":
        return gettext("Card duel (rulebook)")
    return gettext(get_game(key).title)


def reason_label(reason: str) -> str:
    """A ledger entry's reason in words."""
    if reason.startswith("money_card:"):
        name = eventlog.money_card_name(get_catalog(), reason.split(":", 1)[1])
        return gettext("Money card: %(name)s") % {"name": name}
    return {
        "starting_capital": gettext("Starting capital"),
        "bonus_fund": gettext("Bonus Fund won"),
        "training": gettext("Training"),
        "credit": gettext("Credit"),
        "debet": gettext("Debet"),
        "risk": gettext("Risk"),
        "visit_fee": gettext("Visit fee"),
        "purchase": gettext("Purchase"),
        "entry_fee": gettext("Entry fee"),
        "compensation": gettext("Compensation"),
        "host_transfer": gettext("Host transfer"),
        "bank_closes": gettext("The Bank closes"),
        "settlement": gettext("Settlement"),
        "rewind": gettext("Rewind"),
    }.get(reason, reason)


def account_name(key: str, nick: dict[int, str]) -> str:
    """ "Bank", "Bonus Fund" or a participant's nickname."""
    if key == "bank":
        return gettext("Bank")
    if key == "bonus":
        return gettext("Bonus Fund")
    if key.startswith("p") and key[1:].isdigit():
        return nick.get(int(key[1:]), key)
    return key


def ledger_row(
    seq: int,
    event_seq: int | None,
    src: str,
    dst: str,
    amount: int,
    reason: str,
    memo: str,
    nick: dict[int, str],
) -> dict[str, Any]:
    """One ledger line for the host console (and the money chart, which reads its data attributes)."""
    return {
        "seq": seq,
        "event_seq": event_seq,
        "src": src,
        "dst": dst,
        "src_label": account_name(src, nick),
        "dst_label": account_name(dst, nick),
        "amount": amount,
        "amount_text": eventlog.money_text(amount),
        "reason": reason_label(reason),
        "memo": memo,
    }


def ledger_from_db(snap: Snapshot) -> list[dict[str, Any]]:
    """Every ledger entry of the game, newest first (full renders of the host console)."""
    nick = {s: st.nickname for s, st in snap.state.seats.items()}
    rows = (
        LedgerEntry.objects.filter(game_id=snap.game_id)
        .order_by("-seq")
        .values_list("seq", "event_seq", "debit__key", "credit__key", "amount", "reason", "memo")
    )
    return [ledger_row(s, e, src, dst, a, r, m, nick) for s, e, src, dst, a, r, m in rows]


def ledger_from_events(snap: Snapshot, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ledger entries a batch of events wrote, newest first, without reading the database.

    The hub's batch holds every event since the previous frame, so its transfers are exactly the last
    ledger entries and ``snap.ledger_seq`` numbers the newest of them.
    """
    nick = {s: st.nickname for s, st in snap.state.seats.items()}
    transfers = [e for e in events if e.get("kind") == "transfer"]
    rows = []
    seq = snap.ledger_seq - len(transfers)
    for e in transfers:
        seq += 1
        p = e.get("payload") or {}
        rows.append(
            ledger_row(
                seq,
                e.get("seq"),
                str(p.get("src")),
                str(p.get("dst")),
                int(p.get("amount", 0)),
                str(p.get("reason", "")),
                str(p.get("memo", "")),
                nick,
            )
        )
    rows.reverse()
    return rows


def host_panel(view: dict[str, Any], ledger: list[dict[str, Any]]) -> dict[str, Any]:
    """The host console: balances, the Official's piles, open decisions, seats, ledger rows."""
    host = view.get("host") or {}
    nick = present.names(view)
    accounts = host.get("accounts") or {}
    balances = [
        {"key": key, "label": account_name(key, nick), "amount": amount, "text": eventlog.money_text(amount)}
        for key, amount in sorted(accounts.items(), key=lambda kv: _account_order(kv[0]))
    ]
    prompts = [
        {
            "id": p["id"],
            "seat": p["seat"],
            "name": nick.get(p["seat"], gettext("the house bot")),
            "label": present.prompt_label(p["kind"]),
            "kind": p["kind"],
        }
        for p in host.get("open_prompts") or []
    ]
    return {
        "balances": balances,
        "accounts": [(b["key"], b["label"]) for b in balances],
        "official": host.get("official") or {},
        "piles": view.get("piles") or {},
        "prompts": prompts,
        "ledger": ledger,
        "humans": [s for s in view.get("seats", []) if not s.get("bot")],
    }


def _account_order(key: str) -> tuple[int, int]:
    if key == "bank":
        return (0, 0)
    if key == "bonus":
        return (1, 0)
    return (2, int(key[1:]) if key[1:].isdigit() else 0)


# ------------------------------------------------------------------------------------------ frames


@dataclass(frozen=True, slots=True)
class Region:
    """A part of the room pages, swapped by its element id: ``templates/tournament/partials/<name>.html``.

    ``inputs`` returns everything its template reads from the context (the active language aside): two
    contexts with equal inputs render the same HTML, so a region is rendered once per distinct inputs and
    left out of a page's next frame when they did not change (tests/tournament/realtime/
    test_html_regions.py checks the declarations over whole tournaments). None: the region changes with
    every frame (the log's new lines, a prompt's forms carry the version) and is always rendered.
    """

    name: str
    inputs: Callable[[dict[str, Any]], Any] | None = None

    @property
    def template(self) -> str:
        return f"tournament/partials/{self.name}.html"


SYNC = Region("sync")
LOBBY_REGIONS = (Region("lobby_seats"), Region("lobby_side"))
GAME_REGIONS = (
    Region("banner", lambda c: (c["banner"], c["status"])),
    Region("duel", lambda c: c["duel"]),
    Region("board", lambda c: c["board"]),
    Region(
        "board_info",
        lambda c: (
            c["board"]["piles"],
            c["board"]["markers_placed"],
            c["board"]["markers_total"],
            c["view"].get("phase"),
        ),
    ),
    Region("players", lambda c: (c["seats"], c["view"].get("bonus_fund"))),
    Region("prompt"),
    Region("hand", lambda c: c["hand"]),
    Region("log"),
    Region("duel_feed"),
    Region("bracket", lambda c: (c["bracket"], c["status"])),
)
HOST_REGIONS = tuple(
    Region(name)
    for name in ("host_status", "host_balances", "host_official", "host_prompts", "host_seats", "host_ledger")
)


# a room of another game: its own banner, boards and competition panels; the host has no money to keep
COMPETITION_REGIONS = (
    Region("comp_banner", lambda c: (c["comp_banner"], c["status"])),
    Region("comp_boards"),  # a decision's form carries the version
    Region("comp_standings", lambda c: (c["standings"], c["status"])),
    Region("comp_players", lambda c: c["seats"]),
    Region("comp_prompt"),
    Region("log"),
)
COMPETITION_HOST_REGIONS = tuple(Region(name) for name in ("host_status", "host_prompts", "host_seats"))


def regions_of(ctx: dict[str, Any]) -> tuple[Region, ...]:
    """The regions a context's pages show, in page order (after ``#sync`` and any toast)."""
    if ctx.get("competition_room"):
        regions = LOBBY_REGIONS if ctx["in_lobby"] else COMPETITION_REGIONS
        return regions + COMPETITION_HOST_REGIONS if ctx.get("host") else regions
    regions = LOBBY_REGIONS if ctx["in_lobby"] else GAME_REGIONS
    return regions + HOST_REGIONS if ctx.get("host") else regions


def fingerprint(region: Region, ctx: dict[str, Any]) -> bytes | None:
    """A region's inputs as bytes (equal inputs, equal bytes), or None: render it every time.

    A ``str`` subclass (a safe string, which the template does not escape) is refused rather than taken
    for the plain string with the same text.
    """
    if region.inputs is None:
        return None
    try:
        return orjson.dumps(region.inputs(ctx), option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:
        return None


class RegionCache:
    """Rendered regions of the current and the previous version of one room, by region, language and
    inputs: what one page rendered, the others (and the next version) reuse."""

    def __init__(self) -> None:
        self._version: int | None = None
        self._now: dict[tuple[str, str, bytes], str] = {}
        self._before: dict[tuple[str, str, bytes], str] = {}

    def at(self, version: int) -> None:
        """Renders for ``version`` begin: what is older than the previous version is dropped (an older
        version rendered late, a delta's base, changes nothing)."""
        if self._version is None or version > self._version:
            self._before, self._now = self._now, {}
            self._version = version

    def render(self, region: Region, ctx: dict[str, Any]) -> str:
        """The region's HTML for ``ctx`` (in the active language), rendered only if not seen already."""
        inputs = fingerprint(region, ctx)
        if inputs is None:
            return render_to_string(region.template, ctx)
        key = (region.name, translation.get_language() or "", inputs)
        out = self._now.get(key)
        if out is None:
            out = self._before.get(key)
            if out is None:
                out = render_to_string(region.template, ctx)
            self._now[key] = out
        return out


def render_regions(ctx: dict[str, Any], cache: RegionCache | None = None) -> list[tuple[str, str]]:
    """The (name, HTML) of every region a context shows, as out-of-band partials."""
    ctx = dict(ctx, oob=True)
    if cache is None:
        return [(r.name, render_to_string(r.template, ctx)) for r in regions_of(ctx)]
    return [(r.name, cache.render(r, ctx)) for r in regions_of(ctx)]


def render_frame(ctx: dict[str, Any], toast: str | None = None, toast_level: str = "error") -> str:
    """A frame from a room context: ``#sync``, an optional toast, then every region of the page."""
    ctx = dict(ctx, oob=True, toast=toast, toast_level=toast_level)
    parts = [render_to_string(SYNC.template, ctx)]
    if toast:
        parts.append(render_to_string("tournament/partials/toast.html", ctx))
    parts += [html for _name, html in render_regions(ctx)]
    return "\n".join(parts)


def render_update(snap: Snapshot, viewer: Viewer, events: list[dict[str, Any]], first_seq: int) -> str:
    """A new version for one projection: its partials and the events since the previous frame.

    ``events`` come from the hub with their audiences; only those the viewer may see are used. The same
    frame the hub sends to a page that does not hold the previous version (``VersionPages.full``).
    """
    from tournament.realtime.frames import VersionFrames
    from tournament.realtime.hub import viewer_key

    pages = VersionPages(VersionFrames(snap, events, first_seq), RegionCache())
    return pages.full(viewer_key(viewer), viewer)


class VersionPages:
    """Every HTML frame of one version for the room pages (issue 10).

    Contexts are built from the version's JSON parts (``frames.VersionFrames``: the public part once, a
    personal part per viewer), what is the same for every viewer once (``shared_context``), and each
    region through the room's ``RegionCache``. ``full`` frames bring a page up to date from anything;
    ``delta`` frames carry ``#sync`` with ``data-base`` and only the regions whose HTML differs from the
    previous version's, for a page that holds that version.
    """

    def __init__(self, json: Any, cache: RegionCache, previous: VersionPages | None = None) -> None:
        self.json = json  # frames.VersionFrames of this version (its previous is this one's base)
        self.cache = cache
        self.previous = previous if previous is not None and previous.version < self.version else None
        if previous is not None:
            previous.previous = None  # nothing older is needed: the chain is cut here
        self._shared: dict[str, dict[str, Any]] = {}  # by language
        self._contexts: dict[tuple[str, bool], dict[str, Any]] = {}
        self._regions: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._frames: dict[tuple[str, str, bool], Frame] = {}  # by (viewer key, format, delta)

    @property
    def version(self) -> int:
        return self.json.snap.version

    @property
    def base(self) -> int | None:
        """The version this version's deltas apply to."""
        return self.previous.version if self.previous is not None else None

    def full(self, key: str, viewer: Viewer, fmt: str = "") -> Frame:
        """The frame with every region (what ``render_update`` returns); ``fmt`` ``html.<lang>``, by default
        the active language."""
        return self._frame(key, viewer, fmt, delta=False)

    def delta(self, key: str, viewer: Viewer, fmt: str = "") -> Frame:
        """The frame with the regions that changed since ``base`` (there must be one)."""
        assert self.previous is not None, "no base version: send the full frame"
        return self._frame(key, viewer, fmt, delta=True)

    def _frame(self, key: str, viewer: Viewer, fmt: str, delta: bool) -> Frame:
        fmt = fmt or html_format(translation.get_language() or "")
        frame = self._frames.get((key, fmt, delta))
        if frame is None:
            with translation.override(language_of(fmt)):
                ctx = dict(self._context(key, viewer), oob=True)
                regions = self.regions(key, viewer, fmt)
                if delta:
                    assert self.previous is not None
                    before = dict(self.previous.regions(key, viewer, fmt))
                    regions = [(name, out) for name, out in regions if out and before.get(name) != out]
                    ctx["base"] = self.previous.version
                sync = render_to_string(SYNC.template, ctx)
            frame = Frame("\n".join([sync, *(out for _name, out in regions if out)]))
            self._frames[(key, fmt, delta)] = frame
        return frame

    def regions(self, key: str, viewer: Viewer, fmt: str) -> list[tuple[str, str]]:
        """(name, HTML) of every region of this viewer's pages in the language of ``fmt``."""
        found = self._regions.get((key, fmt))
        if found is None:
            with translation.override(language_of(fmt)):
                self.cache.at(self.version)
                found = self._regions[(key, fmt)] = render_regions(self._context(key, viewer), self.cache)
        return found

    def _context(self, key: str, viewer: Viewer) -> dict[str, Any]:
        lang_key = (key, translation.get_language() or "")
        ctx = self._contexts.get(lang_key)
        if ctx is None:
            json = self.json
            snap = json.snap
            shared = self._shared.get(lang_key[1])
            if shared is None:
                shared = self._shared[lang_key[1]] = shared_context(json.view("spectator", SPECTATOR))
            events = json.events
            ledger = ledger_from_events(snap, events) if viewer.host else None
            ctx = room_context(
                snap,
                viewer,
                visible(events, viewer),
                json.first_seq,
                full=False,
                ledger=ledger,
                view=json.view(key, viewer),
                shared=shared,
            )
            self._contexts[lang_key] = ctx
        return ctx


def full_context(snap: Snapshot, viewer: Viewer) -> dict[str, Any]:
    """The context of a full render: the recent log and, for the host, the whole ledger (reads the DB)."""
    recent = recent_events_for(snap.game_id, viewer, LOG_LINES)
    recent = [e for e in recent if e["seq"] <= snap.last_seq]
    ledger = ledger_from_db(snap) if viewer.host else None
    ctx = room_context(snap, viewer, recent, snap.last_seq + 1, full=True, ledger=ledger)
    ctx["last_die"] = next(
        (e["payload"].get("die") for e in reversed(recent) if e["kind"] in ("rolled", "second_roll")), None
    )
    return ctx


def pawn_context(ctx: dict[str, Any]) -> dict[str, Any] | None:
    """Where the page draws the pawn (the socket's frames then move it square by square)."""
    board = ctx.get("board")
    return board["pawn"] if board else None


def render_initial(snap: Snapshot, viewer: Viewer) -> str:
    """Everything a freshly connected (or resyncing) page needs; replaces the log instead of adding to it."""
    return render_frame(full_context(snap, viewer))


def render_alert(message: str) -> str:
    """An invariant alert for the host console (and a toast on the host's other pages)."""
    return render_to_string("tournament/alert_frame.html", {"message": message})


def render_toast(message: str, level: str = "error") -> str:
    """A toast alone (an action refused before it reached the game)."""
    return render_to_string(
        "tournament/partials/toast.html", {"toast": message, "toast_level": level, "oob": True}
    )


# ------------------------------------------------------------------------------------------ languages


def html_format(lang: str) -> str:
    """The wire format of an HTML socket in a language: ``html.nl``; unknown languages get the default."""
    codes = {code for code, _name in settings.LANGUAGES}
    return f"html.{lang if lang in codes else settings.LANGUAGE_CODE}"


def language_of(fmt: str) -> str:
    """The language of an HTML wire format (``html.nl`` → ``nl``)."""
    _html, _dot, lang = fmt.partition(".")
    codes = {code for code, _name in settings.LANGUAGES}
    return lang if lang in codes else settings.LANGUAGE_CODE


def update_renderer(fmt: str) -> Any:
    """``render_update`` in the language of ``fmt`` (same signature; the hub calls it once per projection)."""
    lang = language_of(fmt)

    def render(snap: Snapshot, viewer: Viewer, events: list[dict[str, Any]], first_seq: int) -> str:
        with translation.override(lang):
            return render_update(snap, viewer, events, first_seq)

    return render


def initial_renderer(fmt: str) -> Any:
    """``render_initial`` in the language of ``fmt``."""
    lang = language_of(fmt)

    def render(snap: Snapshot, viewer: Viewer) -> str:
        with translation.override(lang):
            return render_initial(snap, viewer)

    return render


def alert_renderer(fmt: str) -> Any:
    """``render_alert`` in the language of ``fmt``."""
    lang = language_of(fmt)

    def render(message: str) -> str:
        with translation.override(lang):
            return render_alert(message)

    return render
