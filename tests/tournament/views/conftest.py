"""Fixtures of the room-view tests (helpers in roomkit.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client
from roomkit import Room, find_seed, login, play_defaults, start, wants

from tournament.services.rooms import room_create


@pytest.fixture
def make_room(db: Any) -> Callable[..., Room]:
    """``make_room(bots=2, seed=7)``: a lobby with Anna (host, seat 1) and bots; her browser is logged in."""

    def make(
        bots: int = 2,
        seed: int = 7,
        nickname: str = "Anna",
        seats: int = 6,
        strength: str = "easy",
        **house_rules: Any,
    ) -> Room:
        created = room_create(
            nickname=nickname, bots=[strength] * bots, seed=seed, house_rules={"seats": seats, **house_rules}
        )
        client = Client()
        login(client, created.code, token=created.token, host_key=created.host_key)
        return Room(created.code, client, created.token, created.host_key)

    return make


@pytest.fixture
def room_at(make_room: Callable[..., Room]) -> Callable[..., tuple[Room, Any]]:
    """``room_at("buy")``: a started room where Anna (seat 1) must now take a decision of that kind."""

    def at(
        kind: str, bots: int = 3, choice: Callable[[dict[str, Any]], bool] | None = None
    ) -> tuple[Room, Any]:
        seed = find_seed(kind, bots=bots, choice=choice)
        room = make_room(bots=bots, seed=seed)
        start(room)
        st = play_defaults(room.code, wants(kind, 1, choice))
        prompt = next(p for p in st.prompts if p.seat == 1 and p.kind == kind)
        return room, prompt

    return at


@pytest.fixture(autouse=True)
def _fresh_snapshot_cache() -> Iterator[None]:
    """Each test's database is rolled back, so a new game may reuse an old game's id and version: the
    process-wide snapshot cache must not hand it another test's state (before and after each test)."""
    from tournament.services.store import cache

    cache.clear()
    yield
    cache.clear()
