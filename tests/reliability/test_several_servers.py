"""Several servers (issue 8): two server processes on different ports share PostgreSQL and Redis; a
client on one sees, in order, every action made through the other.

This is what ``docker compose up --scale web=N`` runs behind the proxy (README, "Deployment"): every
replica reads games from the same database and publishes "version v exists" through the same Redis.
The replicas are daphne (``make run``) or uvicorn (docker-compose.yml), also mixed: each one's direct
frame writer (tournament/realtime/wire.py) serves protocol clients, the host console and a room page.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from rel_client import ProtocolClient
from rel_play import assert_converged, play

from tournament.rules.projection import Viewer

ACTIONS = 40


def _action_ranges(code: str) -> list[tuple[str, int, int]]:
    from tournament.models import ActionRecord

    return list(
        ActionRecord.objects.filter(game__code=code)
        .order_by("version_before")
        .values_list("actor", "first_seq", "last_seq")
    )


@pytest.mark.parametrize(
    ("watching", "acting"), [("daphne", "daphne"), ("uvicorn", "daphne"), ("daphne", "uvicorn")]
)
def test_a_client_on_one_server_sees_every_action_made_through_the_other_in_order(
    watching: str, acting: str, pg_catalog_default: str, session_redis: Any, daphne_live: Any, game_room: Any
) -> None:
    room = game_room(humans=3, bots=2)  # bots: both servers' drivers decide for them (harmless twice)
    a = daphne_live(database_url=pg_catalog_default, redis_url=session_redis.url, server=watching)
    b = daphne_live(database_url=pg_catalog_default, redis_url=session_redis.url, server=acting)
    assert a.port != b.port

    async def scenario() -> None:
        # every player acts through server B ...
        players = [
            ProtocolClient(b.url, room.code, token=t, name=f"seat {s} @B") for s, t in room.tokens.items()
        ]
        # ... and these watch through server A: a spectator, a seat, the host console and a room page
        watchers: dict[ProtocolClient, Viewer] = {
            ProtocolClient(a.url, room.code, name="spectator @A"): Viewer(),
            ProtocolClient(a.url, room.code, token=room.tokens[2], name="seat 2 @A"): Viewer(seat=2),
            ProtocolClient(
                a.url, room.code, host_key=room.host_key, token=room.tokens[1], name="host @A"
            ): Viewer(seat=1, host=True),
            ProtocolClient(a.url, room.code, fmt="html", name="room page @A"): Viewer(),
        }
        for client in [*players, *watchers]:
            await client.connect()
        versions = await play(players, ACTIONS, watchers=list(watchers), settle=False)
        assert versions == sorted(versions)
        clients = {**watchers, **{p: Viewer(seat=s) for p, s in zip(players, room.tokens, strict=True)}}
        await assert_converged(room.code, clients, timeout=20)

        # in order: the spectator on A received every public event of every action, action by action
        spectator = next(iter(watchers))
        seen = [e["seq"] for e in spectator.events()]
        assert seen == sorted(seen) and len(seen) == len(set(seen))
        ranges = await sync_to_async(_action_ranges, thread_sensitive=False)(room.code)
        through_b = [r for r in ranges if r[0].startswith("seat:")]
        assert len(through_b) >= ACTIONS
        # every version A's sockets were told about came in increasing order (no update went back)
        for client in watchers:
            assert client.stats.stale_frames == 0 and client.stats.overlaps == 0, client.name
        for client in [*players, *watchers]:
            await client.close()

    asyncio.run(scenario())
    # nobody's decision was applied twice although both servers drive the bots
    for server in (a, b):
        assert "Traceback" not in server.log(), server.log()[-3000:]
