"""Carried versions on two real servers (issue 22): a room of bots driven by server A, watched by a spectator
on A and one on B. Every push A sends through Redis is read here, off the room's channel, as any other
process would receive it: it carries the version's spectators' data and nothing else (the public events
exactly as the database gives a spectator, the view exactly as A's own spectator got it), and B's
spectator sees every version in order, with the same view as A's and every event once. With the carried
data over its size limit nothing is carried and B reads the database: the same outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgpack
import orjson
import pytest
from asgiref.sync import sync_to_async
from rel_client import ActionRefused, ProtocolClient
from rel_play import assert_converged

from tournament.realtime import frames, gamenight
from tournament.rules.projection import Viewer

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

VERSIONS = 40  # versions the bots play while both spectators watch


def _spectator_events(code: str, after: int, upto: int) -> list[dict[str, Any]]:
    """The events of ``(after, upto]`` a spectator may see, from the database."""
    from tournament.models import Game
    from tournament.selectors import events_for

    return events_for(Game.objects.get(code=code).pk, Viewer(), after, upto, 10_000)


def _spectator_view(code: str) -> dict[str, Any]:
    """A spectator's view of the room's current version, read from the database (the cache emptied)."""
    from tournament.selectors import snapshot_by_code, view_for
    from tournament.services.store import cache

    cache.clear()
    return orjson.loads(orjson.dumps(view_for(snapshot_by_code(code), Viewer())))


def _version(code: str) -> int:
    from tournament.models import Game

    return Game.objects.get(code=code).version


def _views(client: ProtocolClient) -> dict[int, dict[str, Any]]:
    """The view of every full ``update``/``state`` frame the client received, by version."""
    out: dict[int, dict[str, Any]] = {}
    for text in client.frames:
        if text.startswith('{"type":"update"') or text.startswith('{"type":"state"'):
            frame = orjson.loads(text)
            if "view" in frame:
                out[frame["version"]] = frame["view"]
    return out


@pytest.mark.parametrize("limit", ["default", "too small"])
def test_pushes_carry_only_what_spectators_see_and_the_other_server_shows_every_version(
    limit: str, pg_catalog_default: str, session_redis: Any, daphne_live: Any, game_room: Any
) -> None:
    import redis.asyncio

    room = game_room(humans=0, bots=4, host_plays=False)
    env = {"BOT_DELAY": "0.2", **({"CARRY_MAX_BYTES": "64"} if limit == "too small" else {})}
    a = daphne_live(database_url=pg_catalog_default, redis_url=session_redis.url, env=env)
    b = daphne_live(database_url=pg_catalog_default, redis_url=session_redis.url, env=env)
    version_of = sync_to_async(_version, thread_sensitive=False)
    messages: list[dict[str, Any]] = []
    played = VERSIONS if limit == "default" else VERSIONS // 2  # the fallback's case needs fewer

    async def scenario() -> dict[str, Any]:
        client = redis.asyncio.Redis.from_url(session_redis.url)
        pubsub = client.pubsub()
        await pubsub.psubscribe(f"*__group__room.{room.code}")

        async def listen() -> None:
            async for item in pubsub.listen():
                if item["type"] == "pmessage":
                    messages.append(msgpack.unpackb(item["data"]))

        listener = asyncio.create_task(listen())
        on_a = ProtocolClient(a.url, room.code, name="spectator @A")
        await on_a.connect()  # A's hub opens the room first: A takes its driver lease
        on_b = ProtocolClient(b.url, room.code, name="spectator @B")
        await on_b.connect()
        target = await version_of(room.code) + played
        await on_b.wait_for(lambda c: c.version >= target, 60)
        clients = {on_a: Viewer(), on_b: Viewer()}
        # the host pauses through A (so B gets that version carried too): the game holds still from here
        host = ProtocolClient(a.url, room.code, host_key=room.host_key, name="host @A")
        await host.connect()
        for _attempt in range(100):  # the bots move the version on meanwhile: try again on the newest
            try:
                await host.act({"type": "pause"})
                break
            except ActionRefused as exc:
                assert exc.code == "stale_version", exc.frame
                await asyncio.sleep(0.05)
        await host.close()
        await assert_converged(room.code, clients, timeout=30)
        # B's view of the last version is the one a spectator's frame read from the database gives
        assert on_b.view == await sync_to_async(_spectator_view, thread_sensitive=False)(room.code)
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listener
        await pubsub.aclose()
        await client.aclose()
        seen = {"a": _views(on_a), "b": _views(on_b), "b_stats": on_b.stats}
        for c in clients:
            await c.close()
        return seen

    seen = asyncio.run(scenario())
    spectator_events = sync_to_async(_spectator_events, thread_sensitive=False)

    # every message on the room's channel: a version pushed (with only spectators' data), or chat/presence
    pushes = [m for m in messages if m.get("type") == "game.changed"]
    assert all(m.get("type") in gamenight.MESSAGES for m in messages if m not in pushes)
    assert all(set(m) <= {"type", "version", "seq", "carry"} for m in pushes)
    carried = [c for m in pushes if (c := frames.Carried.of(room.code, m)) is not None]
    if limit == "too small":
        assert pushes and not any("carry" in m for m in pushes)
    else:
        assert len(carried) >= VERSIONS // 2, (len(carried), len(pushes))
        assert len(carried) == sum(1 for m in pushes if "carry" in m)  # every carried message is well-formed

    async def compare() -> int:
        compared = 0
        for c in carried:
            # the events: exactly the spectators' events of the version, from the database
            events = await spectator_events(room.code, c.first_seq - 1, c.last_seq)
            assert frames.visible(c.events, Viewer()) == events
            # the view: exactly what A's spectator (A's own snapshot, not the push) got for the version
            view = seen["a"].get(c.version)
            if view is not None:
                assert {
                    **c.public,
                    **c.spectator,
                    "version": c.version,
                    "seq": c.last_seq,
                    "code": room.code,
                } == view
                compared += 1
        return compared

    compared = asyncio.run(compare())
    if limit == "default":
        assert compared >= VERSIONS // 4, (
            compared
        )  # most versions reached A's spectator as a frame of their own
    # B: every version in order (never an older frame after a newer one), the same view as A's for each
    stats = seen["b_stats"]
    assert stats.stale_frames == stats.overlaps == stats.gaps == 0, stats
    versions_b = sorted(seen["b"])
    assert list(seen["b"]) == versions_b
    common = [v for v in versions_b if v in seen["a"]]
    assert len(common) >= played // 4
    for v in common:
        assert seen["b"][v] == seen["a"][v], v
    for server in (a, b):
        assert "Traceback" not in server.log(), server.log()[-3000:]
