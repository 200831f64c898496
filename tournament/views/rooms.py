"""Room pages and actions: create and join a room, the lobby and game page, watch, bracket, host console.

Views are thin: identify the browser from its signed session (``request.session["rooms"][code]`` holds the
seat token and/or the host key), parse the form strictly (``tournament.views.forms``), call ONE service
(``room_create``, ``room_join`` or ``game_act``), and render the viewer's projection with the same partials
the websocket pushes (``tournament.realtime.html``). Refusals are answered with the translated message in
the page (a toast for htmx posts), never a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.encoding import iri_to_uri
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.catalog import get_catalog
from tournament.consumers import actor_for
from tournament.messages import error_text
from tournament.models import Game
from tournament.presentation import competition, present
from tournament.realtime import frames, html
from tournament.rules.competition import MAGIC_FOOTBALL
from tournament.rules.errors import Forbidden, RulesError, StaleVersion
from tournament.rules.projection import Viewer
from tournament.rules.setup import rematch_house_rules
from tournament.selectors import SESSION_ROOMS, Identity, game_by_code, identify_session
from tournament.services import timers
from tournament.services.actions import current_snapshot, game_act
from tournament.services.presence import presence_of
from tournament.services.rooms import room_create, room_join
from tournament.views import chat as chat_views
from tournament.views import forms
from tournament.views.landing import (
    BOT_CHOICES,
    DECISION_TIMER_CHOICES,
    DEFAULT_SEATS,
    MODE_DETAILS,
    NICKNAME_MAX_LENGTH,
    SEAT_CHOICES,
    VISIT_FEE_CHOICES,
    game_choices,
)

log = logging.getLogger(__name__)

MAX_ROOMS_IN_SESSION = 12  # the signed-cookie session stays small: the most recent rooms only
BOT_STRENGTH_FROM_LANDING = "easy"


# ------------------------------------------------------------------------------------------ session


def remember(
    request: HttpRequest, code: str, *, token: str | None = None, host_key: str | None = None
) -> None:
    """Store a room's credentials in the signed session (most recent last; old rooms fall out)."""
    rooms = dict(request.session.get(SESSION_ROOMS) or {})
    entry = dict(rooms.pop(code, None) or {})
    if token:
        entry["token"] = token
    if host_key:
        entry["host_key"] = host_key
    rooms[code] = entry
    while len(rooms) > MAX_ROOMS_IN_SESSION:
        rooms.pop(next(iter(rooms)))
    request.session[SESSION_ROOMS] = rooms


def room_url(code: str) -> str:
    """The room's page."""
    return reverse("room", args=[code])


def ws_path(code: str, spectator: bool = False) -> str:
    """The room socket for a page: HTML frames in the page's language (the hub renders once per language)."""
    query = {"format": "html", "lang": (get_language() or "en").split("-")[0]}
    if spectator:
        query["as"] = "spectator"
    return f"/ws/r/{code}/?{urlencode(query)}"


def canonical(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A room page asked for with its code in capitals (typed, read aloud, pasted) is sent, query and all,
    to its canonical lower-case address, so every link, bookmark and socket of the page uses that one.

    The ``<room:code>`` converter already hands the view the lower-case code (posts and sockets simply
    accept any case); only pages that people see in the address bar redirect.
    """

    @wraps(view)
    def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method in ("GET", "HEAD") and request.path_info != request.path_info.lower():
            prefix = request.path[: len(request.path) - len(request.path_info)]
            query = request.META.get("QUERY_STRING", "")
            target = prefix + iri_to_uri(request.path_info.lower()) + (f"?{query}" if query else "")
            return HttpResponsePermanentRedirect(target)
        return view(request, *args, **kwargs)

    return page


# ------------------------------------------------------------------------------------------ errors


def room_missing(request: HttpRequest, code: str = "") -> HttpResponse:
    """The friendly 404 of an unknown room code."""
    return render(request, "tournament/room_missing.html", {"code": code}, status=404)


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    """A 403 page in the site's style."""
    return render(request, "tournament/forbidden.html", {"message": message}, status=403)


# ------------------------------------------------------------------------------------------ create, join


def _forms_context(**extra: Any) -> dict[str, Any]:
    context = {
        "modes": [(value, label, MODE_DETAILS.get(value, "")) for value, label in Game.Mode.choices],
        "seat_choices": SEAT_CHOICES,
        "bot_choices": BOT_CHOICES,
        "visit_fee_choices": VISIT_FEE_CHOICES,
        "decision_timer_choices": DECISION_TIMER_CHOICES,
        "nickname_max_length": NICKNAME_MAX_LENGTH,
        "games": game_choices(),
        "values": {
            "mode": "world_cup",
            "seats": str(DEFAULT_SEATS),
            "bots": "0",
            "visit_fee_to": "coach",
            "decision_timer": "0",
        },
        "errors": {},
        "join_values": {},
        "join_error": "",
    }
    context.update(extra)
    return context


@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    """Create a room (the creator is its host and takes seat 1), then go to its lobby."""
    if request.method == "GET":
        return render(request, "tournament/room_forms.html", _forms_context())
    form, errors = forms.parse_create(request.POST)
    names = ("nickname", "mode", "seats", "bots", "visit_fee_to", "decision_timer", "game", "competition")
    values = {k: request.POST.get(k, "")[:64] for k in names}
    if form is None:
        return render(
            request,
            "tournament/room_forms.html",
            _forms_context(values=values, errors={k: gettext(v) for k, v in errors.items()}),
            status=400,
        )
    if form.game == MAGIC_FOOTBALL:
        rules: dict[str, Any] = {
            "seats": form.seats,
            "visit_fee_to": form.visit_fee_to,
            "decision_timer": form.decision_timer,
        }
    else:
        rules = {
            "seats": form.seats,
            "competition": form.competition,
            "decision_timer": form.decision_timer,
            "options": form.options,
        }
    try:
        room = room_create(
            nickname=form.nickname,
            mode=form.mode,
            house_rules=rules,
            bots=[BOT_STRENGTH_FROM_LANDING] * form.bots,
            game=form.game,
        )
    except RulesError as exc:
        field = "nickname" if exc.code in ("bad_nickname", "reserved_nickname") else "form"
        return render(
            request,
            "tournament/room_forms.html",
            _forms_context(values=values, errors={field: error_text(exc)}),
            status=400,
        )
    remember(request, room.code, token=room.token, host_key=room.host_key)
    return HttpResponseRedirect(room_url(room.code))


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    """Join a room by code and nickname (the landing page's form)."""
    if request.method == "GET":
        return render(
            request,
            "tournament/room_forms.html",
            _forms_context(join_values={"code": request.GET.get("code", "")[:32]}),
        )
    code = forms.clean_code(request.POST.get("code"))
    nickname = request.POST.get("nickname", "")
    values = {"code": (request.POST.get("code") or "")[:32], "nickname": nickname[:64]}
    try:
        game = game_by_code(code)
    except RulesError as exc:
        return render(
            request,
            "tournament/room_forms.html",
            _forms_context(join_values=values, join_error=error_text(exc)),
            status=404,
        )
    return _join(request, game, nickname, values, on_error="forms")


@require_http_methods(["GET", "POST"])
def join_here(request: HttpRequest, code: str) -> HttpResponse:
    """Join from the room's own lobby page; a GET (the address a refused join leaves in the address bar,
    reloaded) goes back to the room with a word on how to take a seat."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    if request.method == "GET":
        if identify_session(game, request.session).seat is None:
            if game.status == Game.Status.LOBBY:
                messages.info(request, gettext("To take a seat, enter a nickname and press “Join room”."))
            else:
                messages.info(request, error_text(RulesError("already_started")))
        return HttpResponseRedirect(room_url(game.code))
    nickname = request.POST.get("nickname", "")
    return _join(request, game, nickname, {"code": code, "nickname": nickname[:64]}, on_error="lobby")


def _join(
    request: HttpRequest, game: Game, nickname: Any, values: dict[str, str], on_error: str
) -> HttpResponse:
    identity = identify_session(game, request.session)
    if identity.seat is not None:
        return HttpResponseRedirect(room_url(game.code))  # already seated: back to the seat
    try:
        if not isinstance(nickname, str) or len(nickname) > forms.NICKNAME_FIELD_MAX:
            raise RulesError("bad_nickname")
        _seat, token = room_join(code=game.code, nickname=nickname)
    except RulesError as exc:
        game.refresh_from_db()
        if on_error == "forms" or game.status != Game.Status.LOBBY:
            return render(
                request,
                "tournament/room_forms.html",
                _forms_context(join_values=values, join_error=error_text(exc)),
                status=400,
            )
        return _room_page(
            request, game, identity, join_error=error_text(exc), join_nickname=values["nickname"], status=400
        )
    remember(request, game.code, token=token)
    return HttpResponseRedirect(room_url(game.code))


# ------------------------------------------------------------------------------------------ pages


def _page_context(
    request: HttpRequest, game: Game, identity: Identity, page: str, spectator: bool = False
) -> dict[str, Any]:
    snap = current_snapshot(game)
    viewer = identity.viewer(as_spectator=spectator)
    ctx = html.full_context(snap, viewer)
    ctx.update(
        page=page,
        identity=identity,
        ws_path=ws_path(game.code, spectator),
        room_link=request.build_absolute_uri(room_url(game.code)),
        watch_url=reverse("room-watch", args=[game.code]),
        bracket_url=reverse("room-bracket", args=[game.code]),
        host_url=reverse("room-host", args=[game.code]),
        is_seated=identity.seat is not None,
        spectating=spectator or (identity.seat is None and not identity.host),
        nickname_max_length=forms.NICKNAME_FIELD_MAX,
        invariant_alert=game.invariant_alert if identity.host else "",
        pawn=html.pawn_context(ctx),
        can_play=identity.seat is not None or identity.host,
        replay_url=reverse("room-replay", args=[game.code]),
        present_seats=presence_of(code=game.code),
        server_now=timers.clock_ms(),  # the page's first guess of the server's clock (decision timer)
        chat=chat_views.chat_context(request, game, identity, page),
    )
    if identity.host and page == "host":
        ctx["voices"] = chat_views.voices_context(game, game.code)["voices"]
    ctx["board_assets"] = competition.board_assets(game.kind)  # its boards' styles and scripts
    if game.kind == MAGIC_FOOTBALL and identity.host and page == "host":
        ctx["chart_series"] = [
            {"key": f"p{seat}", "label": st.nickname, "seat": seat}
            for seat, st in sorted(snap.state.seats.items())
        ] + [{"key": "bonus", "label": gettext("Bonus Fund"), "seat": None}]
    return ctx


def _room_page(
    request: HttpRequest, game: Game, identity: Identity, status: int = 200, **extra: Any
) -> HttpResponse:
    if game.status == Game.Status.LOBBY:
        ctx = _page_context(request, game, identity, "lobby")
        ctx["join_nickname"] = extra.get("join_nickname") or request.GET.get("nickname", "")[:24]
        ctx["join_error"] = extra.get("join_error", "")
        return render(request, "tournament/lobby.html", ctx, status=status)
    if identity.seat is None and not identity.host:
        return HttpResponseRedirect(reverse("room-watch", args=[game.code]))
    return render(
        request, _template(game, "game"), _page_context(request, game, identity, "game"), status=status
    )


def _template(game: Game, page: str) -> str:
    """The template of a room page: Magic Football's own, or the one page shape of the other games."""
    if game.kind == MAGIC_FOOTBALL or page == "host":
        return f"tournament/{page}.html"
    return "tournament/competition_tv.html" if page == "bracket" else "tournament/competition.html"


@require_GET
@canonical
def room(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>/``: the lobby before the start, the game after (spectators are sent to the watch page)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    return _room_page(request, game, identify_session(game, request.session))


@require_GET
@canonical
def watch(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>/watch``: read-only, live, no private information (the spectator's projection)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    identity = identify_session(game, request.session)
    return render(
        request, _template(game, "watch"), _page_context(request, game, identity, "watch", spectator=True)
    )


@require_GET
@canonical
def bracket(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>/bracket``: the countries still in, then the knock-out bracket, live; TV-friendly."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    identity = identify_session(game, request.session)
    return render(
        request, _template(game, "bracket"), _page_context(request, game, identity, "bracket", spectator=True)
    )


@require_GET
@canonical
def host(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>/host``: the Bank/Official console (host only)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    identity = identify_session(game, request.session)
    if not identity.host:
        return forbidden(request, gettext("Only the host of this room can open the host console."))
    return render(request, "tournament/host.html", _page_context(request, game, identity, "host"))


# ------------------------------------------------------------------------------------------ actions


@require_POST
def act(request: HttpRequest, code: str) -> HttpResponse:
    """Every action of a room page: parse the form, call ``game_act``, answer with this viewer's frame."""
    try:
        game = game_by_code(code)
    except RulesError as exc:
        return _refused(request, code, error_text(exc), status=404)
    identity = identify_session(game, request.session)
    viewer = identity.viewer()
    try:
        parsed = forms.parse(request.POST)
        action = parsed.action
        if parsed.form == "leave":
            if identity.seat is None:
                raise Forbidden(detail=gettext_noop("you have no seat in this room"))
            action = {"type": "remove_seat", "seat": identity.seat}
        elif identity.seat is None and not identity.host:
            raise Forbidden(detail=gettext_noop("you are watching this room; join it to play"))
        result = game_act(
            code=game.code,
            actor=actor_for(identity, action),
            action=action,
            expected_version=parsed.version,
            action_id=parsed.action_id,
        )
    except StaleVersion as exc:
        return _answer(request, game, viewer, None, toast=error_text(exc))
    except RulesError as exc:
        return _refused(request, game.code, error_text(exc))
    except Exception:  # a bug must not become a 500 page in the middle of a game
        log.exception("action failed in room %s", game.code)
        return _refused(request, game.code, error_text(RulesError("server_error")))
    if parsed.form == "leave":
        return _redirect(request, room_url(game.code))
    return _answer(request, game, viewer, result.first_seq)


def _answer(
    request: HttpRequest, game: Game, viewer: Viewer, first_seq: int | None, toast: str | None = None
) -> HttpResponse:
    """The viewer's frame after an action (``first_seq``) or a full one (``None``: stale version)."""
    if not request.htmx:
        if toast:
            messages.error(request, toast)
        return HttpResponseRedirect(_back(request, game.code))
    game.refresh_from_db()
    snap = current_snapshot(game)
    if first_seq is None:
        ctx = html.full_context(snap, viewer)
    else:
        events = frames.raw_events(snap.game_id, first_seq - 1, snap.last_seq)
        ledger = html.ledger_from_events(snap, events) if viewer.host else None
        ctx = html.room_context(
            snap, viewer, html.visible(events, viewer), first_seq, full=False, ledger=ledger
        )
    return HttpResponse(html.render_frame(ctx, toast=toast))


def _refused(request: HttpRequest, code: str, message: str, status: int = 200) -> HttpResponse:
    """A refusal: the game is unchanged; the page shows why."""
    if request.htmx:
        return HttpResponse(html.render_toast(message), status=status)
    messages.error(request, message)
    return HttpResponseRedirect(_back(request, code))


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)


def _back(request: HttpRequest, code: str) -> str:
    referer = request.headers.get("Referer", "")
    for name in ("room-host", "room-watch", "room-bracket"):
        if reverse(name, args=[code]) in referer:
            return reverse(name, args=[code])
    return room_url(code)


# ------------------------------------------------------------------------------------------ play again


@require_POST
def rematch(request: HttpRequest, code: str) -> HttpResponse:
    """Play again (R18): the host opens a new room with the same bots; the Cup winner is pre-qualified."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    identity = identify_session(game, request.session)
    if not identity.host:
        return forbidden(request, gettext("Only the host of this room can start a new game."))
    if game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED):
        return _refused(request, code, gettext("The game is still being played."))
    following = game.next_games.order_by("created_at").first()
    if following is not None:
        remember(request, following.code, host_key=following.host_key)
        return _redirect(request, room_url(following.code))
    state = current_snapshot(game).state
    bots = [s.bot for _, s in sorted(state.seats.items()) if s.bot]
    try:
        room_new = room_create(
            nickname=identity.nickname or None,
            mode=game.mode,
            house_rules=rematch_house_rules(state),
            bots=bots,
            previous=game,
            game=state.game,
        )
    except RulesError as exc:
        return _refused(request, code, error_text(exc))
    remember(request, room_new.code, token=room_new.token, host_key=room_new.host_key)
    return _redirect(request, room_url(room_new.code))


@require_GET
def next_room(request: HttpRequest, code: str) -> HttpResponse:
    """The "play again" banner of a finished room (polled until the host has opened the next room)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    identity = identify_session(game, request.session)
    following = game.next_games.order_by("created_at").first()
    join_url = ""
    if following is not None:
        join_url = room_url(following.code)
        if identity.nickname:
            join_url += "?" + urlencode({"nickname": identity.nickname})
    over = game.status in (Game.Status.FINISHED, Game.Status.ABANDONED)
    joined = following is not None and identify_session(following, request.session).seat is not None
    return render(
        request,
        "tournament/partials/rematch.html",
        {
            "code": game.code,
            "over": over,
            "following": following,
            "join_url": join_url,
            "is_host": identity.host,
            "nickname": identity.nickname,
            "can_rejoin": identity.seat is not None and not joined,  # one click: same nickname, seat moves
            "replay_url": reverse("room-replay", args=[game.code]),
            "record_url": reverse("room-record", args=[game.code]),
            "cup_winner": present.country(get_catalog(), game.winner_country),  # pre-qualified next (R18)
        },
    )
