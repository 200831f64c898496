"""Crash recovery (issue 8): daphne is a real process; play, ``kill -9`` it in the middle of a match (and
once right after it committed an action whose answer the client has not taken), start it again on the same
port: every client reconnects, resumes from its last event, and the game continues from exactly the
committed state; no event lost or duplicated, the action applied once.

The same in a Magic Football room (one match at a time) and in a dice-football cup, whose round plays its
matches side by side, one of them against a bot, so the server dies while several matches are open.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
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

# The rooms killed under their players: the fixture's arguments, and how many matches the first crash hits.
ROOMS: dict[str, tuple[dict[str, Any], int]] = {
    "magic-football": ({"humans": 3, "bots": 1, "seed": 21}, 1),
    # a cup of four (short halves, as a game night plays it): both semi-finals, one of them against the
    # bot, are played at once
    "dice-football": (
        {
            "humans": 3,
            "bots": 1,
            "seed": 21,
            "game": "dice-football",
            "seats": 4,
            "competition": "cup",
            "options": {"length": "short"},
        },
        2,
    ),
    # a chess-football cup of three: one match, its moves and hidden penalty choices through the crashes
    "chess-football": (
        {
            "humans": 3,
            "seed": 21,
            "game": "chess-football",
            "seats": 3,
            "competition": "cup",
            "options": {"length": "short"},
        },
        1,
    ),
    # a grid-football match: its line-ups, hidden until both are in, and its pawns through the crashes
    "grid-football": (
        {
            "humans": 2,
            "seed": 21,
            "game": "grid-football",
            "seats": 2,
            "competition": "single",
            "options": {"length": "short"},
        },
        1,
    ),
}


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


def _committed(code: str) -> tuple[int, int, int]:
    """The committed version and last event number, and how many matches are being played."""
    from tournament.models import Game

    game = Game.objects.get(code=code)
    return game.version, game.last_seq, len(load_snapshot(game).state.playing_matches())


def _action_count(code: str, action_id: str) -> int:
    from tournament.models import ActionRecord

    return ActionRecord.objects.filter(game__code=code, action_id=action_id).count()


def _check_game(code: str) -> list[str]:
    from tournament.models import Game

    state = load_snapshot(Game.objects.get(code=code)).state
    report = game_replay(code=code)
    return [*invariants.check(state, get_catalog()), *report.differences]


def _bot_prompts(code: str) -> list[int]:
    """The open decisions of bot seats."""
    from tournament.models import Game

    state = load_snapshot(Game.objects.get(code=code)).state
    return [p.id for p in state.prompts if p.seat is not None and state.seats[p.seat].automated]


async def _bots_decided(code: str, timeout: float = 60.0) -> None:
    """Wait until no bot has a decision open: the restarted server plays the bots' side again. (In a
    cup the other match keeps the humans busy, so a bot's match that stalled would go unnoticed.)"""
    read = sync_to_async(_bot_prompts, thread_sensitive=False)
    deadline = time.monotonic() + timeout
    while waiting := await read(code):
        assert time.monotonic() < deadline, f"the bots never took decisions {waiting} after the restart"
        await asyncio.sleep(0.05)


async def _a_mover(players: list[ProtocolClient], timeout: float = 60.0) -> ProtocolClient:
    """A player with a decision to take, once there is one (a bot may be deciding in the meantime)."""
    while True:
        mover = next((c for c in players if c.my_prompts()), None)
        if mover is not None:
            return mover
        newest = max(c.version for c in players)
        await players[0].wait_for(lambda c, v=newest: c.version > v, timeout)


async def _send_until_committed(client: ProtocolClient, action: dict[str, Any], action_id: str) -> None:
    """Send an action and return as soon as the database holds it, without taking its answer: for the
    client the ``kill -9`` that follows loses it. Refused as ``stale_version`` (nothing was written: a
    bot's match moved the room on) it goes again, under the same id, on top of the newer version."""
    count = sync_to_async(_action_count, thread_sensitive=False)
    while True:
        sent, errors = client.version, len(client.errors)
        await client.send({"type": "act", "action": action, "version": sent, "action_id": action_id})
        deadline = time.monotonic() + 30
        refused = None
        while not await count(client.code, action_id):
            refused = next((e for e in client.errors[errors:] if e.get("action_id") == action_id), None)
            if refused is not None:
                break
            assert time.monotonic() < deadline, f"{action_id} neither committed nor refused"
            await asyncio.sleep(0.01)
        if refused is None:
            return
        assert refused["code"] == "stale_version", refused
        await client.wait_for(lambda c, v=sent: c.version > v, 20)


@pytest.mark.parametrize("game", list(ROOMS))
def test_kill_9_mid_match_and_mid_action_loses_and_duplicates_nothing(
    pg_catalog_default: str, session_redis: Any, daphne_live: Any, game_room: Any, game: str
) -> None:
    spec, at_once = ROOMS[game]
    room = game_room(**spec)
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
            if crash == CRASHES - 1:  # the last crash follows an action committed, not yet answered
                mover = await _a_mover(players)
                prompt = mover.my_prompts()[0]
                in_flight = (mover, {"type": "answer", "prompt": prompt["id"], "choice": prompt["default"]})
                await _send_until_committed(mover, in_flight[1], "in-flight")
            await sync_to_async(server.kill9)()
            version, last_seq, playing = await sync_to_async(_committed, thread_sensitive=False)(room.code)
            assert playing or crash == CRASHES - 1, "the crash must hit a match"
            assert playing >= at_once or crash > 0, f"the first crash must hit {at_once} matches at once"
            await sync_to_async(server.restart)()
            for client in clients:
                await client.reconnect()
            # the game resumes from exactly the committed state: the first frames after the restart
            # carry the version that was committed when the process died (or a later one, if a bot
            # moved it on), never an earlier one
            for client in clients:
                assert client.version >= version and client.seq >= last_seq, (
                    client.name,
                    client.version,
                    version,
                )
            if in_flight is not None:  # the client retries with the same id: applied exactly once
                mover, action = in_flight
                result = await mover.act(action, version=mover.version, action_id="in-flight")
                assert result["action_id"] == "in-flight" and result["duplicate"], result
                assert await sync_to_async(_action_count, thread_sensitive=False)(room.code, "in-flight") == 1
            await play(players, 6, watchers=list(clients))
            await _bots_decided(room.code)
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


BROWSER_ROOMS: dict[str, dict[str, Any]] = {
    "magic-football": {"humans": 2, "bots": 1, "seed": 23},
    # a cup of three (one match and a bye) without a bot: nothing moves after a restart but what the test
    # plays, so the board a page shows must be exactly the committed one
    "dice-football": {
        "humans": 3,
        "seed": 23,
        "game": "dice-football",
        "seats": 3,
        "competition": "cup",
        "options": {"length": "short"},
    },
}


def _dice_boards(code: str) -> list[str]:
    """What each live dice-football board shows as its roll key (``data-roll-seq``); none in other rooms."""
    from games.api import get_game
    from games.dice_football.board import roll_seq
    from tournament.models import Game

    state = load_snapshot(Game.objects.get(code=code)).state
    return [roll_seq(get_game(m.format).format.view(m.engine, None)) for m in state.playing_matches()]


@pytest.mark.parametrize("game", list(BROWSER_ROOMS))
def test_browser_pages_reconnect_after_kill_9_and_show_the_committed_game(
    pg_catalog_default: str, session_redis: Any, daphne_live: Any, game_room: Any, browser: Any, game: str
) -> None:
    """Chromium runs the room page's own script (static/js/room.js): after the server is killed and
    restarted it reconnects by itself and shows exactly the committed version (in a dice room, the
    committed board), then follows the game."""
    from django.contrib.sessions.backends.signed_cookies import SessionStore

    room = _in_thread(lambda: game_room(**BROWSER_ROOMS[game]))
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

    def shows_the_boards(page: Any) -> None:
        if game == "dice-football":
            page.wait_for_function(
                "keys => JSON.stringify([...document.querySelectorAll('#comp-boards .dice-board')]"
                ".map(b => b.dataset.rollSeq)) === JSON.stringify(keys)",
                arg=_in_thread(_dice_boards, room.code),
                timeout=10_000,
            )

    for page in (player, watcher):
        shows(page, _in_thread(version_now))
    for crash in range(2):
        server.kill9()
        _in_thread(_one_move, room.code)  # the game moves on while the pages' server is down
        committed = _in_thread(version_now)
        server.restart()
        for page in (player, watcher):  # the pages reconnect on their own, to the committed version
            shows(page, committed, timeout=30_000)
            shows_the_boards(page)

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
            shows_the_boards(page)
        assert player.locator("#conn").is_hidden() and watcher.locator("#conn").is_hidden(), crash
    context.close()
