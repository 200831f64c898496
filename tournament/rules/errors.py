"""Typed errors of the rules and the action pipeline.

Every error has a stable ``code`` (clients and tests match on it), an English message that names the
situation, and ``params`` from which the Django layer renders the translated text
(``tournament/messages.py`` holds the translatable templates for every code).
"""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:
    """Mark a literal ``detail`` text for translation without translating it here (the rules are pure).

    ``manage.py makemessages`` extracts ``N_("...")`` (``--keyword=N_``, see
    ``tournament/management/commands/makemessages.py``) and ``tournament.messages.error_text`` translates
    ``params["detail"]`` when it renders the message for a reader.
    """
    return text


# English templates; tournament/messages.py has the same keys wrapped in gettext for translation.
MESSAGES: dict[str, str] = {
    "malformed": "That request is not understood: {detail}.",
    "unknown_action": "Unknown action “{action}”.",
    "not_your_turn": "It is not your turn: {active} is to roll.",
    "not_your_prompt": "That decision belongs to {owner}.",
    "unknown_prompt": "There is no open decision #{prompt} (it may have been answered already).",
    "illegal_choice": "That choice is not allowed here: {detail}.",
    "insufficient_funds": "Not enough money: {amount} needed, {balance} available.",
    "wrong_phase": "That is not possible now ({phase}).",
    "game_paused": "The game is paused by the host.",
    "timer_running": "The decision timer has not run out: {seconds} s left.",
    "game_over": "The game is over.",
    "forbidden": "You may not do that: {detail}.",
    "unknown_participant": "There is no participant {who} in this room.",
    "out_of_game": "You are out of the tournament: you can still watch, but no longer act.",
    "room_full": "The room is full ({seats} seats).",
    "nickname_taken": "The nickname “{nickname}” is already taken in this room.",
    "bad_nickname": "A nickname needs 1 to 24 visible characters.",
    "reserved_nickname": "“{nickname}” is reserved for the host, the Bank and the Official: "
    "choose another nickname.",
    "already_started": "The game has already started.",
    "not_enough_players": "At least {minimum} participants are needed to start.",
    "stale_version": "The game has moved on (you saw version {expected}, it is now at {current}); "
    "your screen is being refreshed.",
    "invariant_broken": "The action was refused because it would break a rule of the game: {detail}.",
    "unknown_room": "There is no room with that code.",
    "rate_limited": "Slow down: too many actions at once.",
    "server_error": "Something went wrong on our side; the game is unchanged.",
    "chat_muted": "The host has muted you in this room's chat.",
    "chat_too_fast": "Slow down: wait a few seconds before your next chat message.",
    "bad_record": "That game record cannot be imported: {detail}.",
    "unknown_game": "There is no game “{game}” here.",
}


class RulesError(ValueError):
    """A request the game refuses; nothing is changed when it is raised."""

    code = "illegal_choice"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        if code is not None:
            self.code = code
        self.params = params
        template = MESSAGES.get(self.code, self.code)
        try:
            message = template.format(**params)
        except (KeyError, IndexError):
            message = template
        super().__init__(message)

    @property
    def message(self) -> str:
        """The English message (the Django layer translates by ``code``)."""
        return str(self)


class MalformedAction(RulesError):
    """The action is not of a shape the rules understand (wrong types, missing fields)."""

    code = "malformed"


class IllegalAction(RulesError):
    """The action is well-formed but not legal for this actor now."""

    code = "illegal_choice"


class Forbidden(RulesError):
    """The actor may never do this (a spectator acting, a player using host powers)."""

    code = "forbidden"


class StaleVersion(RulesError):
    """The client acted on an older version of the game."""

    code = "stale_version"


class InvariantBroken(RulesError):
    """Applying the action would break money or card conservation; the transaction is aborted."""

    code = "invariant_broken"
