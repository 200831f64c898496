"""Translatable texts of every error code (the pure rules carry only codes, params and English)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournament.rules.errors import RulesError

# gettext_noop marks the templates for makemessages; error_text translates them at render time.
TEMPLATES: dict[str, str] = {
    "malformed": gettext_noop("That request is not understood: {detail}."),
    "unknown_action": gettext_noop("Unknown action “{action}”."),
    "not_your_turn": gettext_noop("It is not your turn: {active} is to roll."),
    "not_your_prompt": gettext_noop("That decision belongs to {owner}."),
    "unknown_prompt": gettext_noop(
        "There is no open decision #{prompt} (it may have been answered already)."
    ),
    "illegal_choice": gettext_noop("That choice is not allowed here: {detail}."),
    "insufficient_funds": gettext_noop("Not enough money: {amount} needed, {balance} available."),
    "wrong_phase": gettext_noop("That is not possible now ({phase})."),
    "game_paused": gettext_noop("The game is paused by the host."),
    "timer_running": gettext_noop("The decision timer has not run out: {seconds} s left."),
    "game_over": gettext_noop("The game is over."),
    "forbidden": gettext_noop("You may not do that: {detail}."),
    "unknown_participant": gettext_noop("There is no participant {who} in this room."),
    "out_of_game": gettext_noop("You are out of the tournament: you can still watch, but no longer act."),
    "room_full": gettext_noop("The room is full ({seats} seats)."),
    "nickname_taken": gettext_noop("The nickname “{nickname}” is already taken in this room."),
    "bad_nickname": gettext_noop("A nickname needs 1 to 24 visible characters."),
    "reserved_nickname": gettext_noop(
        "“{nickname}” is reserved for the host, the Bank and the Official: choose another nickname."
    ),
    "already_started": gettext_noop("The game has already started."),
    "not_enough_players": gettext_noop("At least {minimum} participants are needed to start."),
    "stale_version": gettext_noop(
        "The game has moved on (you saw version {expected}, it is now at {current}); "
        "your screen is being refreshed."
    ),
    "invariant_broken": gettext_noop(
        "The action was refused because it would break a rule of the game: {detail}."
    ),
    "unknown_room": gettext_noop("There is no room with that code."),
    "rate_limited": gettext_noop("Slow down: too many actions at once."),
    "server_error": gettext_noop("Something went wrong on our side; the game is unchanged."),
    "chat_muted": gettext_noop("The host has muted you in this room's chat."),
    "chat_too_fast": gettext_noop("Slow down: wait a few seconds before your next chat message."),
    "bad_record": gettext_noop("That game record cannot be imported: {detail}."),
    "unknown_game": gettext_noop("There is no game “{game}” here."),
}


def error_text(exc: RulesError) -> str:
    """The error's message in the active language."""
    template = TEMPLATES.get(exc.code)
    if template is None:
        return str(exc)
    params = dict(exc.params)
    detail = params.get("detail")
    msgid, words = params.get("detail_msgid"), params.get("detail_words")
    if isinstance(msgid, str) and msgid and isinstance(words, dict) and words:
        # a match format's refusal with values (games.api.MatchError): translate the msgid, then fill it
        try:
            params["detail"] = _(msgid) % words
        except (KeyError, TypeError, ValueError):
            params["detail"] = detail
    elif isinstance(detail, str) and detail:
        # the rules mark their literal details with N_ (extracted by our makemessages); others stay English
        params["detail"] = _(detail)
    try:
        return _(template).format(**params)
    except (KeyError, IndexError):
        return _(template)
