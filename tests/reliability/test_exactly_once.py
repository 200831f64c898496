"""Exactly once, against PostgreSQL with real concurrent connections (issue 8, "Exactly once").

Fifty threads, each with its own database connection, fire conflicting actions at one game at the
same instant, all expecting the same version. Exactly one is applied; every other one is told
``stale_version`` and nothing of it is written. Fifty retries of one action id apply it once and all
return the original result. A retry after the game moved on still returns the original result.
"""

from __future__ import annotations

import contextlib
import fcntl
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from cards.catalog import get_catalog
from tournament.models import ActionRecord, Event, Game, LedgerEntry
from tournament.rules import invariants
from tournament.rules.errors import RulesError
from tournament.rules.events import Actor
from tournament.services.actions import ActResult, game_act
from tournament.services.replays import game_replay
from tournament.services.store import cache, load_snapshot

THREADS = 50
ROUNDS = 4


@contextlib.contextmanager
def _one_hammer_at_a_time() -> Iterator[None]:
    """Fifty threads open fifty PostgreSQL connections: two such tests at once in two test processes (or two
    suites on one machine) pass the server's 100 (max_connections) and fail with "too many clients already"
    (make flaky, 2026-11-27). A lock file every process on the machine shares lets one hammer at a time."""
    with open(Path(tempfile.gettempdir()) / "mft-fifty-connections.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _hammer(calls: list[Callable[[], ActResult]]) -> list[ActResult | RulesError | BaseException]:
    """Run every call in its own thread, all released at the same moment; return results in order."""
    barrier = threading.Barrier(len(calls))
    out: list[ActResult | RulesError | BaseException] = [RuntimeError("not run")] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            out[i] = calls[i]()
        except BaseException as exc:
            out[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    with _one_hammer_at_a_time():
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return out


def _rows(code: str) -> dict[str, Any]:
    """What the database holds of a game (to prove refused actions wrote nothing)."""
    game = Game.objects.get(code=code)
    return {
        "version": game.version,
        "last_seq": game.last_seq,
        "events": Event.objects.filter(game=game).count(),
        "ledger": LedgerEntry.objects.filter(game=game).count(),
        "actions": ActionRecord.objects.filter(game=game).count(),
        "balances": dict(game.accounts.values_list("key", "balance")),
        "cards": sorted(game.cards.values_list("card_id", "location", "owner_id", "position")),
    }


def _conflicting_calls(code: str, version: int, round_no: int) -> list[Callable[[], ActResult]]:
    """Fifty different actions that are each legal at ``version`` — only one can be the next one."""
    game = Game.objects.get(code=code)
    state = load_snapshot(game).state
    prompt = state.prompts[0]
    calls: list[Callable[[], ActResult]] = []
    for i in range(THREADS):
        kind = i % 5
        if state.game != "magic-football" and kind in (2, 4):  # no money there: another of the listed choices
            answer = (  # a line-up (grid football's first decision) lists none: its default again
                {"pick": i % len(prompt.choices)} if prompt.choices else {"choice": prompt.default}
            )
            actor, action = Actor("seat", prompt.seat), {"type": "answer", "prompt": prompt.id, **answer}
        elif kind == 0:
            actor, action = (
                Actor("seat", prompt.seat),
                {"type": "answer", "prompt": prompt.id, "choice": prompt.default},
            )
        elif kind == 1:
            actor, action = Actor("host"), {"type": "force_default", "prompt": prompt.id}
        elif kind == 2:
            actor, action = (
                Actor("host"),
                {"type": "transfer", "src": "bank", "dst": "p1", "amount": 1000 + i, "memo": f"race {i}"},
            )
        elif kind == 3:
            actor, action = Actor("host"), {"type": "pause"}
        else:
            actor, action = (
                Actor("host"),
                {"type": "transfer", "src": "bank", "dst": "bonus", "amount": 5 + i, "memo": f"race {i}"},
            )

        def call(
            actor: Actor = actor, action: dict[str, Any] = action, aid: str = f"r{round_no}-t{i}"
        ) -> ActResult:
            return game_act(code=code, actor=actor, action=action, expected_version=version, action_id=aid)

        calls.append(call)
    return calls


ROOMS = {
    "magic-football": {"humans": 3, "bots": 1},
    "dice-football": {"humans": 2, "game": "dice-football", "seats": 2, "competition": "single"},
    "chess-football": {"humans": 2, "game": "chess-football", "seats": 2, "competition": "single"},
    "grid-football": {"humans": 2, "game": "grid-football", "seats": 2, "competition": "single"},
}


@pytest.mark.parametrize("game", list(ROOMS))
def test_fifty_concurrent_conflicting_actions_apply_exactly_one(
    pg_catalog_default: str, game_room, game: str
) -> None:
    room = game_room(**ROOMS[game])
    tried = 0
    for round_no in range(ROUNDS):
        before = _rows(room.code)
        version = before["version"]
        cache.clear()  # every thread loads the snapshot itself, like separate server processes
        outcomes = _hammer(_conflicting_calls(room.code, version, round_no))
        tried += len(outcomes)

        applied = [o for o in outcomes if isinstance(o, ActResult)]
        refused = [o for o in outcomes if isinstance(o, RulesError)]
        crashed = [o for o in outcomes if not isinstance(o, ActResult | RulesError)]
        assert not crashed, crashed[:3]
        assert len(applied) == 1, f"round {round_no}: {len(applied)} actions applied"
        assert Counter(e.code for e in refused) == {"stale_version": THREADS - 1}
        winner = applied[0]
        assert not winner.duplicate and winner.version == version + 1

        after = _rows(room.code)
        assert after["version"] == version + 1
        assert after["actions"] == before["actions"] + 1
        assert after["events"] == before["events"] + len(winner.events) == winner.last_seq
        record = ActionRecord.objects.get(game__code=room.code, version_before=version)
        assert (record.version_after, record.first_seq, record.last_seq) == (
            winner.version,
            winner.first_seq,
            winner.last_seq,
        )
        # nothing of any refused action reached the database: the money matches the ledger
        game = Game.objects.get(code=room.code)
        state = load_snapshot(game).state
        assert invariants.check(state, get_catalog()) == []
        if state.status == "paused":  # the host's pause won this round: resume for the next one
            game_act(
                code=room.code,
                actor=Actor("host"),
                action={"type": "resume"},
                expected_version=None,
                action_id=f"resume-{round_no}",
            )
    assert tried == THREADS * ROUNDS
    report = game_replay(code=room.code)
    assert report.equal, report.differences


def test_fifty_concurrent_retries_of_one_action_id_apply_it_once(pg_catalog_default: str, game_room) -> None:
    room = game_room(humans=2, bots=2)
    before = _rows(room.code)
    game = Game.objects.get(code=room.code)
    prompt = load_snapshot(game).state.prompts[0]
    action = {"type": "answer", "prompt": prompt.id, "choice": prompt.default}
    cache.clear()

    def call() -> ActResult:
        return game_act(
            code=room.code,
            actor=Actor("seat", prompt.seat),
            action=action,
            expected_version=before["version"],
            action_id="the-same-click",
        )

    outcomes = _hammer([call] * THREADS)
    assert all(isinstance(o, ActResult) for o in outcomes), [
        o for o in outcomes if not isinstance(o, ActResult)
    ]
    results: list[ActResult] = [o for o in outcomes if isinstance(o, ActResult)]
    originals = [r for r in results if not r.duplicate]
    assert len(originals) == 1
    first = originals[0]
    assert all(
        (r.version, r.first_seq, r.last_seq) == (first.version, first.first_seq, first.last_seq)
        for r in results
    )
    after = _rows(room.code)
    assert after["version"] == before["version"] + 1
    assert after["actions"] == before["actions"] + 1
    assert ActionRecord.objects.filter(game__code=room.code, action_id="the-same-click").count() == 1


def test_a_retry_after_the_game_moved_on_returns_the_original_result(
    pg_catalog_default: str, game_room
) -> None:
    room = game_room(humans=2, bots=1)
    game = Game.objects.get(code=room.code)
    prompt = load_snapshot(game).state.prompts[0]
    action = {"type": "answer", "prompt": prompt.id, "choice": prompt.default}
    first = game_act(
        code=room.code,
        actor=Actor("seat", prompt.seat),
        action=action,
        expected_version=game.version,
        action_id="lost-answer",
    )
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "transfer", "src": "bank", "dst": "p1", "amount": 10, "memo": "moves the game on"},
        expected_version=None,
        action_id="other",
    )
    before = _rows(room.code)
    again = game_act(
        code=room.code,
        actor=Actor("seat", prompt.seat),
        action=action,
        expected_version=game.version,
        action_id="lost-answer",
    )
    assert again.duplicate
    assert (again.version, again.first_seq, again.last_seq) == (
        first.version,
        first.first_seq,
        first.last_seq,
    )
    assert _rows(room.code) == before
    # the same id from another actor is another action (ids are per actor): it is judged on its own
    with pytest.raises(RulesError) as exc:
        game_act(
            code=room.code,
            actor=Actor("host"),
            action=action,
            expected_version=game.version,
            action_id="lost-answer",
        )
    assert exc.value.code == "stale_version"
    assert _rows(room.code) == before
