"""Room chat: the players' table chat and the spectators' chat, stored with the game (issue 9).

Chat is not a game action: it bumps no version and is not replayed, but it is stored (``ChatMessage``) so
it survives a reload or a reconnect, and pushed after commit through the room's channel group as its own
message type (``chat.message``) that the hubs forward only to sockets allowed to read the channel.

Who reads and writes (rulings G1–G4 in ``docs/RULES.md``, "Game night"):

- ``players``: the seated participants and the host read and write it; spectators never see it.
- ``spectators`` (the stands): everyone in the room reads it; spectators and the host write it. A browser
  holding a seat reads along but does not write there (table talk stays at the table).

Every line is length-limited and rate-limited per author (checked in the database, so it holds across
server processes), escaped when rendered, and refused with a clear message when the host muted its author.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournament.models import ChatMessage, ChatMute, Game, Participant
from tournament.rules.errors import Forbidden, MalformedAction, RulesError
from tournament.rules.setup import clean_nickname
from tournament.services import notify

PLAYERS = ChatMessage.Channel.PLAYERS.value
SPECTATORS = ChatMessage.Channel.SPECTATORS.value
CHANNELS = (PLAYERS, SPECTATORS)
MAX_LENGTH = 300  # a chat line, not a letter
HISTORY = 50  # lines a page shows (and a reconnect re-reads)
RATE_WINDOW = timedelta(seconds=10)
RATE_MAX = 5  # lines per author per window
HOST_KEY = "host"
SPECTATOR_PREFIX = "spectator:"
SESSION_CHAT = "chat"  # a browser's signed session: {"id": <random>, "name": <its name in the stands>}


@dataclass(frozen=True, slots=True)
class ChatAuthor:
    """Who writes: a seat (``seat:3``), the host without a seat (``host``) or a spectator's browser."""

    key: str
    name: str
    seat: int | None = None
    host: bool = False
    participant_id: int | None = None

    @property
    def spectator(self) -> bool:
        """A spectator (no seat, not the host)."""
        return self.seat is None and not self.host


def seat_key(seat: int) -> str:
    """The author key of a seat."""
    return f"seat:{seat}"


def may_read(channel: str, *, seat: int | None, host: bool) -> bool:
    """Whether a viewer (a seat, the host, or a spectator when both are empty) may read a channel."""
    if channel == PLAYERS:
        return seat is not None or host
    return channel == SPECTATORS


def may_write(channel: str, author: ChatAuthor) -> bool:
    """Players and the host at the table; spectators and the host in the stands."""
    if channel == PLAYERS:
        return author.seat is not None or author.host
    if channel == SPECTATORS:
        return author.spectator or author.host
    return False


def session_spectator(session: Mapping[str, Any] | None) -> tuple[str, str]:
    """The stands identity a browser's signed session holds: its author key and its name ("" when unset).

    The page, the chat form and every socket of one browser send the same session cookie, so they all
    write under this one key and a mute holds on each of them (ruling G4). A session without a chat id
    (a protocol client without cookies) yields ``("", "")``.
    """
    data = (session or {}).get(SESSION_CHAT) or {}
    if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not data["id"]:
        return "", ""
    name = data.get("name")
    return SPECTATOR_PREFIX + data["id"], name if isinstance(name, str) else ""


def clean_spectator_name(raw: Any, game: Game | None = None) -> str:
    """A spectator's display name: a nickname's rules, and never a seated participant's name.

    :raises RulesError: ``bad_nickname`` or ``nickname_taken``.
    """
    name = clean_nickname(raw)
    if game is not None and Participant.objects.filter(game=game, nickname__iexact=name).exists():
        raise RulesError("nickname_taken", nickname=name)
    return name


def clean_text(raw: Any) -> str:
    """One line of text: no control characters, runs of white space folded, 1–300 characters.

    :raises MalformedAction:
    """
    if not isinstance(raw, str):
        raise MalformedAction(detail=gettext_noop("a chat message is text"))
    text = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in raw)
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if not text:
        raise MalformedAction(detail=gettext_noop("the chat message is empty"))
    if len(text) > MAX_LENGTH:
        raise MalformedAction(detail=gettext_noop("a chat message has at most 300 characters"))
    return text


def is_muted(game: Game, key: str) -> bool:
    """Whether the host muted this author in the room."""
    return ChatMute.objects.filter(game=game, key=key).exists()


def chat_post(*, game: Game, channel: Any, author: ChatAuthor, text: Any) -> ChatMessage:
    """Store a chat line and push it to the room after commit.

    :raises RulesError: ``malformed`` (channel or text), ``forbidden`` (not this author's channel),
        ``chat_muted``, ``chat_too_fast``; nothing is stored then.
    """
    if channel not in CHANNELS:
        raise MalformedAction(detail=gettext_noop("unknown chat"))
    if not may_write(channel, author):
        raise Forbidden(detail=gettext_noop("you cannot write in that chat"))
    line = clean_text(text)
    with transaction.atomic():
        if is_muted(game, author.key):
            raise RulesError("chat_muted")
        since = timezone.now() - RATE_WINDOW
        recent = ChatMessage.objects.filter(
            game=game, author_key=author.key, kind=ChatMessage.Kind.TEXT, created_at__gte=since
        ).count()
        if recent >= RATE_MAX:
            raise RulesError("chat_too_fast")
        message = ChatMessage.objects.create(
            game=game,
            channel=channel,
            kind=ChatMessage.Kind.TEXT,
            author_id=author.participant_id,
            author_key=author.key,
            author_name=author.name[:24],
            text=line,
        )
        _push_on_commit(game.code, message)
    return message


def chat_mute(*, game: Game, key: str, muted: bool) -> ChatMessage | None:
    """The host mutes (or unmutes) a seat or a spectator; a notice line tells the channel it writes in.

    Returns the notice, or None when nothing changed (already muted, or not muted).

    :raises RulesError: ``unknown_participant`` for a key that never wrote and is no seat of the room,
        ``forbidden`` for the host's own seat (only the host mutes, and never himself).
    """
    label, channel = _mute_target(game, key)
    with transaction.atomic():
        if muted:
            try:
                with transaction.atomic():
                    ChatMute.objects.create(game=game, key=key, label=label)
            except IntegrityError:
                return None
        elif not ChatMute.objects.filter(game=game, key=key).delete()[0]:
            return None
        notice = ChatMessage.objects.create(
            game=game,
            channel=channel,
            kind=ChatMessage.Kind.MUTED if muted else ChatMessage.Kind.UNMUTED,
            author_key=HOST_KEY,
            author_name="",
            text=label,
        )
        _push_on_commit(game.code, notice, target=key)
    return notice


def _mute_target(game: Game, key: str) -> tuple[str, str]:
    """The name and the channel of a mute's target."""
    if isinstance(key, str) and key.startswith("seat:") and key[5:].isdigit():
        row = (
            Participant.objects.filter(game=game, seat=int(key[5:]))
            .values_list("nickname", "kind", "is_host")
            .first()
        )
        if row is not None and row[2]:
            raise Forbidden(detail=gettext_noop("you cannot mute yourself"))
        if row is not None and row[1] == Participant.Kind.HUMAN:
            return row[0], PLAYERS
    elif isinstance(key, str) and key.startswith(SPECTATOR_PREFIX):
        name = (
            ChatMessage.objects.filter(game=game, author_key=key)
            .order_by("-id")
            .values_list("author_name", flat=True)
            .first()
        )
        if name is not None:
            return name, SPECTATORS
    raise RulesError("unknown_participant", who=str(key)[:40])


def _push_on_commit(code: str, message: ChatMessage, target: str = "") -> None:
    """Tell the room's hubs about a stored line after commit; ``target`` is the author key a mute notice
    is about (the hubs tell that author's open sockets that he may, or may no longer, write)."""
    payload: dict[str, Any] = {"type": "chat.message", "id": message.pk, "channel": message.channel}
    if target:
        payload["target"] = target
    transaction.on_commit(lambda: notify.room_message(code, payload))


def chat_history(game: Game, channel: str, limit: int = HISTORY, after: int = 0) -> list[ChatMessage]:
    """The newest ``limit`` lines of a channel (after line ``after``), oldest first."""
    qs = ChatMessage.objects.filter(game=game, channel=channel, hidden=False, id__gt=after).order_by("-id")
    return list(reversed(qs[:limit]))


def chat_line(message_id: int) -> ChatMessage | None:
    """One line by id, with its game (the hubs render it once per language)."""
    return ChatMessage.objects.select_related("game").filter(pk=message_id, hidden=False).first()


@dataclass(frozen=True, slots=True)
class ChatVoice:
    """Someone the host may mute: a human seat or a spectator who wrote in the stands."""

    key: str
    name: str
    seat: int | None
    muted: bool


def chat_voices(game: Game) -> list[ChatVoice]:
    """The human seats but the host's own, then the spectators who wrote (latest name), each with whether
    they are muted (the host cannot mute himself, ruling G4)."""
    muted = set(ChatMute.objects.filter(game=game).values_list("key", flat=True))
    voices = [
        ChatVoice(seat_key(seat), name, seat, seat_key(seat) in muted)
        for seat, name in Participant.objects.filter(game=game, kind=Participant.Kind.HUMAN, is_host=False)
        .order_by("seat")
        .values_list("seat", "nickname")
    ]
    seen: dict[str, str] = {}
    for key, name in (
        ChatMessage.objects.filter(game=game, author_key__startswith=SPECTATOR_PREFIX)
        .filter(kind=ChatMessage.Kind.TEXT)
        .order_by("id")
        .values_list("author_key", "author_name")
    ):
        seen[key] = name
    voices += [ChatVoice(key, name, None, key in muted) for key, name in seen.items()]
    return voices
