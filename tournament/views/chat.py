"""The room chats on the pages: post a line, re-read a channel after a reconnect, the host's mute button.

Thin: identify the browser (its seat or host key from the signed session; a spectator's chat name and
chat id are kept in the session too), call one service of ``tournament.services.chat``, answer with the
same frame the sockets receive (``tournament.realtime.gamenight``), or with a toast saying why not.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_GET, require_POST

from tournament.messages import error_text
from tournament.models import Game, Participant
from tournament.realtime import gamenight
from tournament.realtime.html import render_toast
from tournament.rules.errors import Forbidden, MalformedAction, RulesError
from tournament.selectors import Identity, game_by_code, identify_session
from tournament.services import chat

SESSION_CHAT = chat.SESSION_CHAT
PAGE_CHANNELS = {
    "lobby": (chat.PLAYERS, chat.SPECTATORS),
    "game": (chat.PLAYERS, chat.SPECTATORS),
    "host": (chat.PLAYERS, chat.SPECTATORS),
    "watch": (chat.SPECTATORS,),
}


def session_chat(request: HttpRequest) -> dict[str, str]:
    """This browser's chat identity in the stands (created on first use, kept in the signed session: the
    sockets of the browser read it from there, ``tournament.services.chat.session_spectator``)."""
    data = dict(request.session.get(SESSION_CHAT) or {})
    if not isinstance(data.get("id"), str) or not data["id"]:
        data["id"] = secrets.token_hex(8)
        request.session[SESSION_CHAT] = data
    return data


def request_author(request: HttpRequest, game: Game, identity: Identity) -> chat.ChatAuthor | None:
    """Who this browser writes as (None: a spectator who has not chosen a name yet)."""
    if identity.seat is not None:
        pk = Participant.objects.filter(game=game, seat=identity.seat).values_list("pk", flat=True).first()
        return chat.ChatAuthor(
            chat.seat_key(identity.seat), identity.nickname, identity.seat, identity.host, pk
        )
    if identity.host:
        return chat.ChatAuthor(chat.HOST_KEY, "", None, True)
    data = session_chat(request)
    if not data.get("name"):
        return None
    return chat.ChatAuthor(chat.SPECTATOR_PREFIX + data["id"], data["name"])


def chat_context(request: HttpRequest, game: Game, identity: Identity, page: str) -> dict[str, Any] | None:
    """The chat panel of a page: its channels (history, whether this browser may write, muted?)."""
    spectator = identity.seat is None and not identity.host
    if spectator:
        session_chat(request)  # before the page's socket opens: it writes under the same identity
    names = PAGE_CHANNELS.get(page)
    if not names:
        return None
    author = request_author(request, game, identity)
    key = author.key if author else chat.SPECTATOR_PREFIX + session_chat(request)["id"]
    muted = chat.is_muted(game, key)
    stub = author or chat.ChatAuthor(key, "")
    channels = []
    for name in names:
        if not chat.may_read(name, seat=identity.seat, host=identity.host):
            continue
        channels.append(
            {
                "name": name,
                "title": gettext("At the table") if name == chat.PLAYERS else gettext("The stands"),
                "lines": [gamenight.chat_item(m) for m in chat.chat_history(game, name)],
                "can_write": chat.may_write(name, stub),
                "needs_name": spectator and name == chat.SPECTATORS,
            }
        )
    return {
        "channels": channels,
        "muted": muted,
        "name": (session_chat(request).get("name") or "") if spectator else identity.nickname,
        "max_length": chat.MAX_LENGTH,
    }


def _toast(message: str) -> HttpResponse:
    return HttpResponse(render_toast(message))


@require_POST
def post(request: HttpRequest, code: str) -> HttpResponse:
    """``POST /r/<code>/chat``: ``channel``, ``text`` (and ``name`` for a spectator)."""
    try:
        game = game_by_code(code)
    except RulesError as exc:
        return HttpResponse(render_toast(error_text(exc)), status=404)
    identity = identify_session(game, request.session)
    try:
        author = request_author(request, game, identity)
        name = request.POST.get("name")
        if identity.seat is None and not identity.host and (name is not None or author is None):
            if name is None:
                raise MalformedAction(detail=gettext_noop("choose a name for the stands first"))
            if len(name) > 64:
                raise RulesError("bad_nickname")
            data = session_chat(request)
            data["name"] = chat.clean_spectator_name(name, game)
            request.session[SESSION_CHAT] = data
            author = request_author(request, game, identity)
        if author is None:
            raise Forbidden(detail=gettext_noop("you cannot write in that chat"))
        text = request.POST.get("text", "")
        if len(text) > 2000:
            raise MalformedAction(detail=gettext_noop("a chat message has at most 300 characters"))
        message = chat.chat_post(game=game, channel=request.POST.get("channel"), author=author, text=text)
    except RulesError as exc:
        return _toast(error_text(exc))
    return HttpResponse(gamenight.chat_frame(message, _fmt(request)))


def _fmt(request: HttpRequest) -> str:
    from django.utils.translation import get_language

    from tournament.realtime.html import html_format

    return html_format((get_language() or "en").split("-")[0])


@require_GET
def channel(request: HttpRequest, code: str, name: str) -> HttpResponse:
    """``GET /r/<code>/chat/<channel>``: the channel's recent lines (a page re-reads it after a reconnect)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return HttpResponse(status=404)
    identity = identify_session(game, request.session)
    if name not in chat.CHANNELS or not chat.may_read(name, seat=identity.seat, host=identity.host):
        return HttpResponse(status=403)
    lines = [gamenight.chat_item(m) for m in chat.chat_history(game, name)]
    return render(request, "tournament/partials/chat_list.html", {"ch": {"name": name, "lines": lines}})


@require_POST
def mute(request: HttpRequest, code: str) -> HttpResponse:
    """``POST /r/<code>/chat/mute``: the host mutes (``muted=yes``) or unmutes (``no``) a voice ``key``."""
    try:
        game = game_by_code(code)
    except RulesError:
        return HttpResponse(status=404)
    identity = identify_session(game, request.session)
    if not identity.host:
        return HttpResponse(
            render_toast(error_text(Forbidden(detail=gettext_noop("only the host can mute")))), status=403
        )
    key = request.POST.get("key", "")
    muted = request.POST.get("muted") == "yes"
    try:
        chat.chat_mute(game=game, key=key[:64], muted=muted)
    except RulesError as exc:
        return _toast(error_text(exc))
    return render(request, "tournament/partials/chat_voices.html", voices_context(game, code))


def voices_context(game: Game, code: str) -> dict[str, Any]:
    """The host console's list of voices with mute buttons."""
    return {"voices": chat.chat_voices(game), "code": code}


@require_GET
def presence(request: HttpRequest, code: str) -> HttpResponse:
    """``GET /r/<code>/presence``: who is connected now, as the sockets' presence frame (a page re-reads it
    after a reconnect: changes made while it was away were not pushed to it)."""
    from tournament.services.presence import presence_of

    try:
        game_by_code(code)
    except RulesError:
        return HttpResponse(status=404)
    return HttpResponse(gamenight.presence_frame(presence_of(code=code), "html"))
