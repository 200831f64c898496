"""The host console's rewind picker: the moments the game may be turned back to, newest first.

Choosing one posts ``action=rewind`` with its ``to_version`` to the room's action view, like every host
intervention (``tournament/services/rewind.py``, ``tournament/rules/rewind.py``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.rules.errors import RulesError
from tournament.selectors import game_by_code, identify_session
from tournament.services.rewind import rewind_choices


@require_GET
def picker(request: HttpRequest, code: str) -> HttpResponse:
    """``GET /r/<code>/rewind``: the picker (host only; 403 for anyone else)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return HttpResponse(status=404)
    identity = identify_session(game, request.session)
    if not identity.host:
        return HttpResponse(status=403)
    playing = game.status in ("running", "paused")
    choices = rewind_choices(game, identity.seat) if playing else []
    return render(
        request,
        "tournament/partials/rewind_picker.html",
        {"code": game.code, "version": game.version, "choices": choices, "playing": playing},
    )
