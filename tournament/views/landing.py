"""The landing page: what the game is, a picture of the board, and the forms to create or join a room.

The forms post to ``/rooms/new`` and ``/rooms/join`` (``tournament.views.rooms``, which validates them). Field
names:

- create: ``nickname`` (1–24 characters), ``mode`` (``Game.Mode``), ``seats`` (2–8), ``bots`` (0–7, at most
  seats − 1), ``visit_fee_to`` (``coach`` = rulebook R8, ``bank`` = house rule), ``decision_timer``
  (seconds per decision, ``0`` = no timer, R19);
- for another game than Magic Football (offered once its board exists, ``forms.playable_games``): ``game``
  (its key), ``competition`` (``single`` for 2 seats, ``cup`` or ``league`` for 3–8) and ``opt_<key>``
  (the number of the chosen value of each of the game's room options);
- join: ``code`` (the room code) and ``nickname``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from tournament.models import Game, Participant

SEAT_CHOICES = tuple(range(2, 9))
DEFAULT_SEATS = 4
BOT_CHOICES = tuple(range(0, 8))
NICKNAME_MAX_LENGTH = Participant._meta.get_field("nickname").max_length
VISIT_FEE_CHOICES = (
    ("coach", _("to the country's national coach (rulebook)")),
    ("bank", _("to the Bank (house rule)")),
)
DECISION_TIMER_CHOICES = (
    (0, _("No timer")),
    (30, _("30 seconds")),
    (60, _("1 minute")),
    (120, _("2 minutes")),
    (300, _("5 minutes")),
)
MODE_DETAILS = {
    Game.Mode.WORLD_CUP: _("32 countries from every continent"),
    Game.Mode.EURO: _("the 20 European countries"),
}


def game_choices() -> list[dict[str, Any]]:
    """The games a room can be opened for, Magic Football first, each with its room options."""
    from tournament.views.forms import playable_games

    out: list[dict[str, Any]] = [
        {
            "key": "magic-football",
            "title": _("Magic Football"),
            "summary": _("The World Cup board game: money, contracts, card duels and the Cup."),
            "options": [],
        }
    ]
    for game in playable_games():
        out.append(
            {
                "key": game.key,
                "title": _(game.title),
                "summary": _(game.summary),
                "competitions": game.competitions,
                "options": [
                    {
                        "key": o.key,
                        "label": _(o.label),
                        "choices": [(i, _(label)) for i, (_value, label) in enumerate(o.choices)],
                    }
                    for o in game.options
                ],
            }
        )
    return out


@require_GET
def landing(request: HttpRequest) -> HttpResponse:
    """Render the landing page; a room code in ``?code=`` pre-fills the join form (shared links)."""
    context = {
        "modes": [(value, label, MODE_DETAILS.get(value, "")) for value, label in Game.Mode.choices],
        "default_mode": Game.Mode.WORLD_CUP,
        "seat_choices": SEAT_CHOICES,
        "default_seats": DEFAULT_SEATS,
        "bot_choices": BOT_CHOICES,
        "visit_fee_choices": VISIT_FEE_CHOICES,
        "decision_timer_choices": DECISION_TIMER_CHOICES,
        "nickname_max_length": NICKNAME_MAX_LENGTH,
        "join_code": request.GET.get("code", "").strip().upper()[:16],
        "games": game_choices(),
    }
    return render(request, "tournament/landing.html", context)
