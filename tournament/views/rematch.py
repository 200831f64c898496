"""Play again (R18): a one-click "join the rematch" for the humans of a finished room.

The host's "Play again" (``tournament.views.rooms.rematch``) opens the next room with the same mode, house
rules and bots, the Cup winner pre-qualified. Each human of the old room then joins it in one click with
his nickname, and his browser's seat credentials move from the old room to the new one.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournament.messages import error_text
from tournament.rules.errors import RulesError
from tournament.selectors import SESSION_ROOMS, game_by_code, identify_session
from tournament.services.rooms import room_join
from tournament.views.rooms import remember, room_missing, room_url


def forget_seat(request: HttpRequest, code: str) -> None:
    """Drop a room's seat token from the session (a host key stays: the old console remains his)."""
    rooms = dict(request.session.get(SESSION_ROOMS) or {})
    entry = dict(rooms.get(code) or {})
    entry.pop("token", None)
    if entry:
        rooms[code] = entry
    else:
        rooms.pop(code, None)
    request.session[SESSION_ROOMS] = rooms


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    """``POST /r/<code>/rematch/join``: take a seat in the room that follows this one, same nickname."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    following = game.next_games.order_by("created_at").first()
    if following is None:
        messages.error(request, gettext("The host has not opened the new game yet."))
        return HttpResponseRedirect(room_url(code))
    identity = identify_session(game, request.session)
    if identity.seat is None or identify_session(following, request.session).seat is not None:
        return HttpResponseRedirect(room_url(following.code))  # nothing to carry over, or done already
    try:
        _seat, token = room_join(code=following.code, nickname=identity.nickname)
    except RulesError as exc:
        messages.error(request, error_text(exc))
        return HttpResponseRedirect(
            room_url(following.code) + "?" + urlencode({"nickname": identity.nickname})
        )
    remember(request, following.code, token=token)
    forget_seat(request, code)
    return HttpResponseRedirect(room_url(following.code))
