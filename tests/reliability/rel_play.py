"""Playing a live game through protocol clients, and checking that every client converged.

Helpers of the reliability tests that run real daphne processes: the test process creates the room in
the same PostgreSQL database the servers use, then drives the game only through the websocket protocol.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from rel_client import ActionRefused, ProtocolClient

from tournament.rules.projection import Viewer

RETRY_CODES = {"stale_version", "unknown_prompt", "not_your_prompt", "not_your_turn", "wrong_phase"}


async def play(
    players: Sequence[ProtocolClient],
    actions: int,
    watchers: Sequence[ProtocolClient] = (),
    settle: bool = True,
    timeout: float = 60.0,
) -> list[int]:
    """Answer open prompts with their defaults ``actions`` times, each by the seat that owns it.

    With ``settle`` every client (players and ``watchers``) must have seen a version before the next
    action is chosen. Returns the versions the accepted actions produced.
    """
    versions: list[int] = []
    everyone = [*players, *watchers]
    deadline = time.monotonic() + timeout
    while len(versions) < actions:
        if time.monotonic() > deadline:
            raise TimeoutError(f"played {len(versions)} of {actions} actions in {timeout} s")
        mover = next((c for c in players if c.my_prompts()), None)
        if mover is None:  # a bot seat or the house bot is deciding: wait for the next version
            # (as long as the whole play may take: a server just restarted after a kill -9 on a loaded
            # machine took longer than 10 s to get its bots going again, in one of five runs)
            newest = max(c.version for c in players)
            left = max(1.0, deadline - time.monotonic())
            await asyncio.gather(*(c.wait_for(lambda c, v=newest: c.version > v, left) for c in players[:1]))
            continue
        prompt = mover.my_prompts()[0]
        sent = mover.version
        try:
            result = await mover.act({"type": "answer", "prompt": prompt["id"], "choice": prompt["default"]})
        except ActionRefused as exc:
            if exc.code not in RETRY_CODES:
                raise
            try:
                await mover.wait_for(lambda c, v=sent: c.version > v, 5)
            except TimeoutError:
                raise AssertionError(
                    f"{mover.name}: {exc.code} for {prompt} at version {mover.version}, "
                    f"and the game did not move on"
                ) from exc
            continue
        versions.append(result["version"])
        if settle:
            await asyncio.gather(*(c.wait_version(result["version"], timeout=20) for c in everyone))
    return versions


def expected_log(code: str, viewer: Viewer) -> tuple[int, int, list[dict[str, Any]]]:
    """The game's version, last event number and the events ``viewer`` may see (from the database)."""
    from tournament.models import Game
    from tournament.selectors import events_for

    game = Game.objects.get(code=code)
    return game.version, game.last_seq, events_for(game.pk, viewer, 0, game.last_seq, 1_000_000)


async def assert_converged(code: str, clients: dict[ProtocolClient, Viewer], timeout: float = 10.0) -> int:
    """Every client reaches the database's version and holds exactly the events its viewer may see:
    none lost, none twice, in order. Returns the version.

    Bots may still be playing: the check is repeated until the game held still while it ran.
    """
    from asgiref.sync import sync_to_async

    read = sync_to_async(expected_log, thread_sensitive=False)
    for _attempt in range(20):
        version, last_seq, _ = await read(code, Viewer())
        await asyncio.gather(*(c.wait_version(version, timeout) for c in clients))
        logs = {client: await read(code, viewer) for client, viewer in clients.items()}
        if any(v != version for v, _seq, _events in logs.values()) or any(
            c.version != version for c in clients
        ):
            continue  # the game moved on meanwhile (a bot): look again
        for client, (_v, seq, events) in logs.items():
            assert client.seq == seq == last_seq, (client.name, client.seq, seq)
            if client.fmt == "json":
                got = client.events()
                assert [e["seq"] for e in got] == [e["seq"] for e in events], f"{client.name}: events differ"
                assert got == events, f"{client.name}: event contents differ"
                assert not client.stats.conflicting_events, client.stats.conflicting_events[:2]
            assert client.stats.overlaps == 0, f"{client.name} received an update twice"
        return version
    raise AssertionError("the game never held still long enough to compare")
