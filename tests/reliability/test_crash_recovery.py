"""Crash recovery (issue 8): daphne is a real process; play, ``kill -9`` it in the middle of a match (and
in the middle of an action), start it again on the same port: every client reconnects, resumes from its
last event, and the game continues from exactly the committed state; no event lost or duplicated.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import sync_to_async
from rel_client import ProtocolClient
from rel_play import assert_converged, play

from cards.catalog import get_catalog
from tournament.rules import invariants
from tournament.rules.events import Actor
from tournament.rules.projection import Viewer
from tournament.services.actions import game_act
from tournament.services.replays import game_replay
from tournament.services.store import load_snapshot

CRASHES = 3


def _advance_until_a_match(code: str, limit: int = 3000) -> int:
    """Fast-forward through the services (defaults for everybody) until a match is being played."""
    from tournament.models import Game

    for _ in range(limit):
        game = Game.objects.get(code=code)
        state = load_snapshot(game).state
        if state.running_match is not None:
            return game.version
        prompt = state.prompts[0]
        game_act(
            code=code,
            actor=Actor("seat", prompt.seat),
            action={"type": "answer", "prompt": prompt.id, "choice": prompt.default},
            expected_version=game.version,
            action_id=f"ff-{game.version}",
        )
    raise AssertionError("no match started")


def _one_move(code: str) -> None:
    """One default decision through the services (another server would have taken it)."""
    from tournament.models import Game

    game = Game.objects.get(code=code)
    prompt = load_snapshot(game).state.prompts[0]
    game_act(
        code=code,
        actor=Actor("seat", prompt.seat),
        action={"type": "answer", "prompt": prompt.id, "choice": prompt.default},
        expected_version=game.version,
        action_id=f"down-{game.version}",
    )


def _committed(code: str) -> tuple[int, int, bool]:
    """The committed version and last event number, and whether a match is being played."""
    from tournament.models import Game

    game = Game.objects.get(code=code)
    return game.version, game.last_seq, load_snapshot(game).state.running_match is not None


def _action_count(code: str, action_id: str) -> int:
    from tournament.models import ActionRecord

    return ActionRecord.objects.filter(game__code=code, action_id=action_id).count()


def _check_game(code: str) -> list[str]:
    from tournament.models import Game

    state = load_snapshot(Game.objects.get(code=code)).state
    report = game_replay(code=code)
    return [*invariants.check(state, get_catalog()), *report.differences]


def test_kill_9_mid_match_and_mid_action_loses_and_duplicates_nothing(
    pg_catalog_default: str, session_redis: Any, daphne_live: Any, game_room: Any
) -> None:
    room = game_room(humans=3, bots=1, seed=21)
    _advance_until_a_match(room.code)
    server = daphne_live(database_url=pg_catalog_default, redis_url=session_redis.url)
    survived = []

    async def scenario() -> None:
        clients: dict[ProtocolClient, Viewer] = {}
        for seat, token in room.tokens.items():
            clients[ProtocolClient(server.url, room.code, token=token, name=f"seat {seat}")] = Viewer(
                seat=seat
            )
        clients[
            ProtocolClient(server.url, room.code, host_key=room.host_key, token=room.tokens[1], name="host")
        ] = Viewer(seat=1, host=True)
        clients[ProtocolClient(server.url, room.code, name="spectator")] = Viewer()
        clients[ProtocolClient(server.url, room.code, fmt="html", name="room page")] = Viewer()
        players = [c for c in clients if c.name.startswith("seat")]
        for client in clients:
            await client.connect()
        await play(players, 5, watchers=list(clients))

        for crash in range(CRASHES):
            in_flight = None
            if crash == CRASHES - 1:  # the last crash hits an action on its way: sent, not yet answered
                mover = next(c for c in players if c.my_prompts())
                prompt = mover.my_prompts()[0]
                in_flight = (mover, {"type": "answer", "prompt": prompt["id"], "choice": prompt["default"]})
                await mover.send(
                    {
                        "type": "act",
                        "action": in_flight[1],
                        "version": mover.version,
                        "action_id": "in-flight",
                    }
                )
            await sync_to_async(server.kill9)()
            version, last_seq, in_match = await sync_to_async(_committed, thread_sensitive=False)(room.code)
            assert in_match or crash == CRASHES - 1, "the crash must hit a match"
            await sync_to_async(server.restart)()
            for client in clients:
                await client.reconnect()
            # the game resumes from exactly the committed state: the first frames after the restart
            # carry the version that was committed when the process died (or a later one, if a bot or
            # the in-flight action moved it on), never an earlier one
            for client in clients:
                assert client.version >= version and client.seq >= last_seq, (
                    client.name,
                    client.version,
                    version,
                )
            if in_flight is not None:  # the client retries with the same id: applied exactly once
                mover, action = in_flight
                result = await mover.act(action, version=mover.version, action_id="in-flight")
                assert result["action_id"] == "in-flight"
                assert await sync_to_async(_action_count, thread_sensitive=False)(room.code, "in-flight") == 1
            await play(players, 6, watchers=list(clients))
            await assert_converged(room.code, clients, timeout=20)
            survived.append(version)
        for client in clients:
            assert client.stats.reconnects == CRASHES
            await client.close()

    asyncio.run(scenario())
    assert len(survived) == CRASHES
    assert _check_game(room.code) == []


# ---------------------------------------------------------------------------------- real browsers
def _in_thread(fn: Any, *args: Any) -> Any:
    """Run ``fn`` in a thread of its own: Playwright's sync API keeps an event loop in this one, where
    Django refuses ORM calls and asyncio cannot start another loop."""
    import threading

    out: dict[str, Any] = {}

    def run() -> None:
        from django.db import connections

        try:
            out["value"] = fn(*args)
        except BaseException as exc:
            out["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=300)
    if "error" in out:
        raise out["error"]
    return out.get("value")


def test_browser_pages_reconnect_after_kill_9_and_show_the_committed_game(
    pg_catalog_default: str, session_redis: Any, daphne_live: Any, game_room: Any, browser: Any
) -> None:
    """Chromium runs the room page's own script (static/js/room.js): after the server is killed and
    restarted it reconnects by itself and shows exactly the committed version, then follows the game."""
    from django.contrib.sessions.backends.signed_cookies import SessionStore

    room = _in_thread(lambda: game_room(humans=2, bots=1, seed=23))
    _in_thread(_advance_until_a_match, room.code)
    server = daphne_live(database_url=pg_catalog_default, redis_url=session_redis.url)
    session = SessionStore()
    session["rooms"] = {room.code: {"token": room.tokens[2]}}
    session.save()
    context = browser.new_context()
    context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": server.url}])
    player = context.new_page()
    player.goto(f"{server.url}/r/{room.code}/")
    watcher = browser.new_page()
    watcher.goto(f"{server.url}/r/{room.code}/watch")

    def shows(page: Any, version: int, timeout: float = 20_000) -> None:
        page.wait_for_function(
            "v => { const s = document.getElementById('sync'); return s && +s.dataset.version >= v; }",
            arg=version,
            timeout=timeout,
        )

    def version_now() -> int:
        return _committed(room.code)[0]

    for page in (player, watcher):
        shows(page, _in_thread(version_now))
    for crash in range(2):
        server.kill9()
        _in_thread(_one_move, room.code)  # the game moves on while the pages' server is down
        committed = _in_thread(version_now)
        server.restart()
        for page in (player, watcher):  # the pages reconnect on their own, to the committed version
            shows(page, committed, timeout=30_000)

        async def more_moves() -> int:
            seats = [
                ProtocolClient(server.url, room.code, token=t, name=f"seat {s}")
                for s, t in room.tokens.items()
            ]
            for client in seats:
                await client.connect()
            versions = await play(seats, 4, settle=False)
            for client in seats:
                await client.close()
            return versions[-1]

        latest = _in_thread(asyncio.run, more_moves())
        for page in (player, watcher):  # ... and follow the game again
            shows(page, latest, timeout=30_000)
        assert player.locator("#conn").is_hidden() and watcher.locator("#conn").is_hidden(), crash
    context.close()
