"""HTML frames for the room pages: htmx out-of-band partials, rendered once per projection and version.

A frame is a small ``#sync`` element (version, first and last event number, what to animate) followed by
the partials of the viewer's page, each swapped by its element id (``hx-swap-oob``), so applying a frame
twice changes nothing. New log lines are prepended by id (``log-<seq>``); the browser skips ids it has.
The same frames answer the pages' htmx POSTs (``tournament/views/act.py``) and the websocket pushes
(``tournament/realtime/hub.py``), and ``static/js/room.js`` applies both the same way.

Render functions depend only on (snapshot, viewer, events) and the active language — never on a request:
no CSRF token (it sits on ``<body>`` once), no per-socket data. The language is chosen per socket from the
``lang`` query parameter of the websocket URL (``tournament/consumers.py`` folds it into the wire format
``html.<lang>``; the hub renders once per projection, format and language).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from cards.catalog import get_catalog
from tournament import eventlog
from tournament.models import LedgerEntry
from tournament.rules.projection import Viewer
from tournament.selectors import event_visible, recent_events_for, view_for
from tournament.services.store import Snapshot
from tournament.views import present

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
) -> dict[str, Any]:
    """Everything the room partials draw for one viewer at one version.

    ``events`` are the viewer's visible events: the batch since the last frame for an update, the recent
    log for a full render. ``ledger`` (host viewers only) are the ledger rows to show: all of them for a
    full render, the new ones for an update.
    """
    cat = get_catalog()
    view = view_for(snap, viewer)
    log_ctx = eventlog.LogContext.from_state(snap.state, viewer.seat, cat)
    lines = eventlog.render(events, log_ctx)
    status = view["status"]
    ctx: dict[str, Any] = {
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
        "seats": present.seats(view, cat),
        "log": present.log_items(lines),
        "duel_feed": present.log_items([line for line in lines if line.match is not None])[:12],
        "fx": present.effects(events)
        if not full
        else {"path": [], "src": None, "mover": None, "die": None, "fx": []},
        "banner": present.banner(view, cat),
    }
    if status == "lobby":
        ctx["lobby"] = lobby(view)
    else:
        ctx["board"] = present.board(view, cat)
        ctx["hand"] = present.hand(view, cat)
        ctx["prompts"] = present.prompts(view, cat)
        ctx["deciding"] = present.others_deciding(view)
        ctx["duel"] = present.duel(view, cat)
        ctx["bracket"] = present.bracket(view, cat)
    if viewer.host:
        ctx["host"] = host_panel(view, ledger or [])
    return ctx


def lobby(view: dict[str, Any]) -> dict[str, Any]:
    """The lobby: seats (free ones too), house rules, who may start."""
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
        "version": view.get("version"),
    }


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


def render_frame(ctx: dict[str, Any], toast: str | None = None, toast_level: str = "error") -> str:
    """A frame from a room context (optionally with a toast)."""
    ctx = dict(ctx, oob=True, toast=toast, toast_level=toast_level)
    return render_to_string("tournament/frame.html", ctx)


def render_update(snap: Snapshot, viewer: Viewer, events: list[dict[str, Any]], first_seq: int) -> str:
    """A new version for one projection: its partials and the events since the previous frame.

    ``events`` come from the hub with their audiences; only those the viewer may see are used.
    """
    mine = visible(events, viewer)
    ledger = ledger_from_events(snap, events) if viewer.host else None
    return render_frame(room_context(snap, viewer, mine, first_seq, full=False, ledger=ledger))


render_update.needs_db = False  # type: ignore[attr-defined]  # everything comes from the snapshot and events


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

    render.needs_db = render_update.needs_db  # type: ignore[attr-defined]
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
