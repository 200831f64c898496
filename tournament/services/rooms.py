"""Rooms: create one (you are its host), join it with a nickname, and everything the lobby does."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from tournament.models import Game, Participant
from tournament.rules.competition import MAGIC_FOOTBALL
from tournament.rules.events import Actor
from tournament.rules.setup import new_game, setup_of
from tournament.services.actions import ActResult, UnknownRoom, game_act

# Room codes: 10 characters of an unambiguous alphabet (~50 bits): unguessable, easy to read aloud.
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 10


@dataclass(frozen=True, slots=True)
class RoomCreated:
    """A new room: its code, the host's secret key and, when the host plays, his seat token."""

    code: str
    host_key: str
    token: str | None
    seat: int | None


def new_code() -> str:
    """An unguessable room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_action_id() -> str:
    """A fresh action id for commands the server itself originates."""
    return uuid.uuid4().hex


def room_create(
    *,
    nickname: str | None,
    mode: str = "world_cup",
    house_rules: dict[str, Any] | None = None,
    bots: list[str] | None = None,
    seed: int | None = None,
    previous: Game | None = None,
    game: str = MAGIC_FOOTBALL,
) -> RoomCreated:
    """Open a room of ``game`` (Magic Football or a registered game's key); the creator is its host and,
    with a nickname, also takes seat 1.

    ``previous`` is the finished game this one follows: its Cup winner is pre-qualified (R18).
    :raises RulesError: for a bad nickname, an unknown game or bad house rules (nothing is created then).
    """
    state = new_game(seed if seed is not None else secrets.randbits(62), mode, house_rules, game=game)
    pre_qualified = previous.winner_country if previous is not None and game == MAGIC_FOOTBALL else ""
    for _ in range(5):
        try:
            with transaction.atomic():
                game = Game.objects.create(
                    code=new_code(),
                    host_key=secrets.token_urlsafe(24),
                    kind=state.game,
                    mode=state.mode,
                    seed=state.seed,
                    house_rules=state.house_rules,
                    setup=setup_of(state),
                    pre_qualified=pre_qualified,
                    previous=previous,
                )
                break
        except IntegrityError:  # a code collision: astronomically rare, try another
            continue
    else:
        raise RuntimeError("could not allocate a room code")
    token = seat = None
    try:
        if nickname is not None:
            result = game_act(
                code=game.code,
                actor=Actor("host"),
                action={"type": "join", "nickname": nickname, "host": True},
                expected_version=0,
                action_id=new_action_id(),
            )
            seat = _joined_seat(result)
            token = Participant.objects.get(game=game, seat=seat).token
        for strength in bots or []:
            game_act(
                code=game.code,
                actor=Actor("host"),
                action={"type": "add_bot", "strength": strength},
                expected_version=None,
                action_id=new_action_id(),
            )
    except Exception:
        game.delete()
        raise
    return RoomCreated(code=game.code, host_key=game.host_key, token=token, seat=seat)


def _joined_seat(result: ActResult) -> int:
    for ev in result.events:
        if ev.kind == "joined":
            return int(ev.payload["seat"])
    raise AssertionError("join produced no seat")


def room_join(
    *, code: str, nickname: Any, expected_version: int | None = None, action_id: str | None = None
) -> tuple[int, str]:
    """Take a seat in a room's lobby; returns the seat and the secret token identifying it.

    :raises RulesError: unknown room, started game, full room, nickname taken or invalid.
    """
    result = game_act(
        code=code,
        actor=Actor("guest"),
        action={"type": "join", "nickname": nickname},
        expected_version=expected_version,
        action_id=action_id or new_action_id(),
    )
    if result.duplicate:  # a retried join: the seat it took the first time
        from tournament.models import Event

        payload = (
            Event.objects.filter(
                game__code=code, kind="joined", seq__gte=result.first_seq, seq__lte=result.last_seq
            )
            .values_list("payload", flat=True)
            .first()
        )
        if payload is None:
            raise UnknownRoom()
        seat = int(payload["seat"])
    else:
        seat = _joined_seat(result)
    return seat, Participant.objects.get(game__code=code, seat=seat).token


def room_get(code: str) -> Game:
    """A room by code.

    :raises UnknownRoom:
    """
    try:
        return Game.objects.get(code=code)
    except Game.DoesNotExist:
        raise UnknownRoom() from None
