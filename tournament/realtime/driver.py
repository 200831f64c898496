"""Keeps live games moving: bot seats decide after a short, readable delay; the decision timer (R19)
takes the default for a human who lets it run out.

One process drives a room: the one holding its lease (``tournament/realtime/lease.py``; every process
without Redis). Bot actions still carry an action id derived from the version and the prompt, and timer
actions expect the prompt still to be open, so should two processes ever take the same decision (Redis
unreachable, a lease handed over mid-decision) the second is refused and changes nothing. Right before
a decision is written the driver looks again whether it still holds the lease, on the database thread
(``_act_if_driving``): a lease that moved while the bot thought, or while the call waited behind others
on that thread, stops the decision before it reaches the database. Each decision submitted is logged at
DEBUG ("decision … submitted"), each one stopped ("… not submitted: the lease moved") and each one the
database refused as a duplicate of its action id ("… refused as a duplicate"), and counted in
``counts``: the scale benchmark reads them per process (issue 22: 0 duplicates reaching the database).

The timer waits for the deadline stored with the prompt (``tournament/services/timers.py``: server
time, the same for every process and after a restart), and ``game_act`` refuses its default before that
deadline. A pause stops every task of the room; the resume's version carries the re-armed deadlines and
schedules them again (R19a). What a pending task was scheduled for (a bot, a deadline, an absence) is
kept beside it, so a new version that changes it (a seat handed to a bot and back, a rewind) replaces it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from cards.catalog import get_catalog
from tournament.models import Event
from tournament.realtime.db import db
from tournament.realtime.lease import leases
from tournament.rules import bots
from tournament.rules.errors import RulesError, StaleVersion
from tournament.rules.events import Actor
from tournament.selectors import snapshot_by_code
from tournament.services import timers
from tournament.services.actions import ActResult, game_act
from tournament.services.presence import absent_since
from tournament.services.store import Snapshot

log = logging.getLogger(__name__)

BOT_RETRIES = 5  # a bot's decision is retried on a newer version this often
TIMER_POLL = 1.0  # seconds: a waiting timer looks at the clock at least this often (a clock that jumps)
TIMER_GRACE = 0.25  # seconds after the deadline: every page has shown "0 s" before the default is taken


def bot_delay(kind: str, all_bots: bool) -> float:
    """Seconds a bot "thinks" before acting: long enough to follow, short enough not to bore. A bot
    that really thinks (a search) spends part of it doing so: that time counts toward the pause."""
    base = float(getattr(settings, "BOT_DELAY", 0.9))
    if kind == "window":
        base *= 0.5
    if all_bots:
        base *= 0.4
    return base


@dataclass
class DecisionCounts:
    """What this process's driver did with its decisions (the scale benchmark and the tests read them)."""

    attempts: int = 0  # decisions handed to the database (a bot's retry on a newer version counts again)
    lease_moved: int = 0  # decisions stopped right before the database: another process drives the room now
    duplicates: int = 0  # decisions the database refused as a duplicate of one already written


counts = DecisionCounts()


Plan = tuple[Any, ...]  # what a pending task does: ("bot",), ("timer", deadline) or ("absent",)


class Driver:
    """Schedules bot decisions and decision-timer defaults for the rooms this process serves.

    ``clock`` (seconds, monotonic) and ``sleep`` time a bot's pause; tests hand in their own.
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._pending: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._plans: dict[tuple[str, int], Plan] = {}
        # prompts this process decided: the version its decision made. A snapshot older than that (the
        # hub has not read the new version yet, and a poll or a lease round shows it the old one) must
        # not schedule the same decision again: it would reach the database as a duplicate.
        self._written: dict[tuple[str, int], int] = {}
        self._clock = clock
        self._sleep = sleep

    def poke(self, snap: Snapshot) -> None:
        """Look at a new version of a room and schedule whatever must happen without a human (only in
        the process that drives the room)."""
        if not leases.holds(snap.code):
            self.forget(snap.code)
            return
        st = snap.state
        open_ids = {p.id for p in st.prompts} if st.status == "running" else set()
        for key in [k for k in self._pending if k[0] == snap.code and k[1] not in open_ids]:
            self._cancel(key)  # answered, or the game is paused or over: nothing of it may be decided
        for key in [k for k, v in self._written.items() if k[0] == snap.code and snap.version >= v]:
            del self._written[key]  # this snapshot shows the decision made
        if st.status != "running":
            return
        humans_in_play = any(not s.automated for s in st.seats.values() if not s.out)
        for prompt in st.prompts:
            if prompt.seat is None:
                continue
            seat = st.seats.get(prompt.seat)
            if seat is None:
                continue
            key = (snap.code, prompt.id)
            if key in self._written:
                continue  # decided here already; this snapshot is older than the decision
            if seat.automated:
                plan: Plan = ("bot",)
            elif st.house_rules.get("decision_timer"):
                plan = ("timer", prompt.deadline)
            else:  # no timer: the default is taken only once the human has left (issue 9, ruling G12)
                plan = ("absent",)
            if key in self._pending:
                if self._plans.get(key) == plan:
                    continue
                self._cancel(key)  # a seat handed to a bot or back, a deadline that moved
            if plan[0] == "bot":
                delay = bot_delay(prompt.kind, not humans_in_play)
                strength = seat.bot or "strong"
                task = asyncio.ensure_future(self._bot(snap, prompt.id, prompt.seat, strength, delay))
            elif plan[0] == "timer":
                seconds = int(st.house_rules["decision_timer"])
                task = asyncio.ensure_future(self._timer(snap, prompt.id, prompt.deadline, seconds))
            else:
                task = asyncio.ensure_future(self._absent(snap, prompt.id, prompt.seat))
            self._pending[key] = task
            self._plans[key] = plan
            task.add_done_callback(lambda t, k=key: self._done(k, t))

    def forget(self, code: str) -> None:
        """Drop every pending decision of a room: another process drives it now."""
        for key in [k for k in self._pending if k[0] == code]:
            self._cancel(key)
        for key in [k for k in self._written if k[0] == code]:
            del self._written[key]

    def _cancel(self, key: tuple[str, int]) -> None:
        self._plans.pop(key, None)
        self._pending.pop(key).cancel()

    def _done(self, key: tuple[str, int], task: asyncio.Task[None]) -> None:
        if self._pending.get(key) is task:  # not when a newer task replaced it
            self._pending.pop(key, None)
            self._plans.pop(key, None)

    async def _bot(self, snap: Snapshot, prompt_id: int, seat: int, strength: str, delay: float) -> None:
        """Decide, and act once ``delay`` seconds have passed since the decision was scheduled; when the
        version moved on meanwhile, decide again on the newest one.

        The bot thinks first, in a worker thread (a strong bot's search must not hold up the sockets),
        and only the rest of the delay is waited: its thinking time replaces the pause instead of adding
        to it. Two bots may hold prompts at once (both line-ups of a match): the one that answers second
        finds the version moved on. If it gave up there, no new version might come to schedule it again
        and the room would stall, so it reloads the room (one read) and retries.
        """
        started = self._clock()
        current = snap
        paused = False
        for _ in range(BOT_RETRIES):
            st = current.state
            prompt = st.prompt(prompt_id)
            if st.status != "running" or prompt is None or prompt.seat != seat:
                return
            if not st.seats[seat].automated:  # the host gave the seat back to its human meanwhile
                return
            rng = bots.bot_rng(st, current.version)
            choice = await asyncio.to_thread(bots.decide, st, prompt, strength, get_catalog(), rng)
            if not paused:
                paused = True
                await self._sleep(max(0.0, delay - (self._clock() - started)))
            action = {"type": "answer", "prompt": prompt_id, "choice": choice}
            try:
                result = await db(
                    _act_if_driving,
                    "bot",
                    prompt_id,
                    code=snap.code,
                    actor=Actor("seat", seat),
                    action=action,
                    expected_version=current.version,
                    action_id=f"bot-{current.version}-{prompt_id}",
                )
                self._wrote(snap.code, prompt_id, result)
                return
            except StaleVersion:  # another decision landed first: look again at the newest version
                current = await db(snapshot_by_code, snap.code)
            except RulesError as exc:  # overtaken by a human, the host or another process
                log.debug("bot action in %s not applied: %s", snap.code, exc.code)
                return
            except Exception:  # unexpected (a lost database connection…): look again shortly, never stall
                log.exception("bot action in %s failed", snap.code)
                await asyncio.sleep(1.0)
                current = await db(snapshot_by_code, snap.code)
        log.warning(
            "bot of seat %s in %s gave up on prompt %s; the room's poll schedules it again",
            seat,
            snap.code,
            prompt_id,
        )

    async def _timer(self, snap: Snapshot, prompt_id: int, deadline: int | None, seconds: int) -> None:
        """Take the default once the prompt's stored deadline (server time) has passed.

        The clock is read again at least every ``TIMER_POLL`` seconds, so a clock that moved meanwhile
        is followed. A prompt without a stored deadline (a game saved before deadlines were stored) counts
        from its ``deciding`` event, as the timer did then.
        """
        if deadline is None:
            opened = await db(_opened_at, snap.game_id, prompt_id)
            deadline = int(((opened or time.time()) + seconds) * 1000)
        due = deadline + int(TIMER_GRACE * 1000)
        while True:
            while (wait := (due - timers.clock_ms()) / 1000) > 0:
                await asyncio.sleep(min(wait, TIMER_POLL))
            try:
                await self._force_default(snap.code, "timer", prompt_id)
                return
            except RulesError as exc:
                if exc.code != "timer_running":  # answered, paused, over: nothing to do
                    log.debug("timer action in %s not applied: %s", snap.code, exc.code)
                    return
            except Exception:
                log.exception("timer action in %s failed", snap.code)
            # refused as early (the clock went back) or failed: look again shortly, since no new version
            # may come to schedule this timer again
            due = timers.clock_ms() + int(TIMER_POLL * 1000)

    async def _force_default(self, code: str, kind: str, prompt_id: int) -> None:
        """The default of an open prompt, taken by the system for a timer that ran out or a player away."""
        result = await db(
            _act_if_driving,
            kind,
            prompt_id,
            code=code,
            actor=Actor("system"),
            action={"type": "force_default", "prompt": prompt_id},
            expected_version=None,
            action_id=f"{kind}-{prompt_id}",
        )
        self._wrote(code, prompt_id, result)

    def _wrote(self, code: str, prompt_id: int, result: ActResult | None) -> None:
        if result is not None:
            self._written[(code, prompt_id)] = result.version

    async def _absent(self, snap: Snapshot, prompt_id: int, seat: int) -> None:
        """A room without a decision timer: when the prompt's owner has had no open socket for
        ``ABSENT_PLAYER_TIMEOUT`` seconds while the prompt was open, his default is taken (logged as
        ``decided_by_default``), so a player who left never stalls the game. Coming back in time stops it.
        The clock stands still while the game is paused (R19a): a pause cancels this task, and the one the
        resume starts adds the paused time back."""
        timeout = absence_timeout()
        poll = max(0.2, min(5.0, timeout / 4))
        opened: float | None = None
        pauses: list[tuple[float, float]] = []
        wait = poll  # the first look waits too: most decisions are taken long before it (no query then)
        while True:
            await asyncio.sleep(wait)
            wait = poll
            since = await db(absent_since, game_id=snap.game_id, seat=seat)
            if since is not None:
                if opened is None:
                    opened = await db(_opened_at, snap.game_id, prompt_id) or time.time()
                    pauses = await db(_pauses, snap.game_id, opened)
                start = max(since, opened)
                due = start + timeout + sum(max(0.0, end - max(begin, start)) for begin, end in pauses)
                if time.time() >= due:
                    break
                wait = min(poll, max(0.05, due - time.time()))
        try:
            await self._force_default(snap.code, "absent", prompt_id)
        except RulesError as exc:  # overtaken by another process or a human: nothing to do
            log.debug("driver action in %s not applied: %s", snap.code, exc.code)
        except Exception:
            log.exception("driver action in %s failed", snap.code)


def _act_if_driving(kind: str, prompt_id: int, *, code: str, **act: Any) -> ActResult | None:
    """``game_act`` for one of the driver's decisions, on the database thread, if this process still
    drives the room right now; None (nothing written) when the lease moved meanwhile.

    The look at the lease is local while the lease is fresh (a holder stops believing in it
    ``SAFETY_SECONDS`` before Redis lets another process take it, so a decision that passes here reaches
    the database before any other process may decide for the room); once the local belief ran out it asks
    Redis (``Leases.confirm``). Should a decision still come second (a database that made it wait longer
    than that), the action id refuses it as a duplicate.
    """
    version = act.get("expected_version")
    if not leases.confirm(code):
        counts.lease_moved += 1
        log.debug(
            "room %s: decision for prompt %s not submitted: the lease moved (%s, version %s)",
            code,
            prompt_id,
            kind,
            version,
        )
        return None
    counts.attempts += 1
    log.debug("room %s: decision for prompt %s submitted (%s, version %s)", code, prompt_id, kind, version)
    result = game_act(code=code, **act)
    if result.duplicate:
        counts.duplicates += 1
        log.debug("room %s: decision for prompt %s refused as a duplicate (%s)", code, prompt_id, kind)
    return result


def absence_timeout() -> float:
    """Seconds a player may be away before the default decides for him (no decision timer)."""
    return float(getattr(settings, "ABSENT_PLAYER_TIMEOUT", 45.0))


def _pauses(game_id: int, after: float) -> list[tuple[float, float]]:
    """The game's pauses that ended after ``after`` (epoch seconds), as (paused, resumed) times."""
    rows = Event.objects.filter(game_id=game_id, kind__in=("paused", "resumed")).order_by("seq")
    found: list[tuple[float, float]] = []
    began: float | None = None
    for kind, at in rows.values_list("kind", "created_at"):
        if kind == "paused":
            began = at.timestamp()
        elif began is not None:
            if at.timestamp() > after:
                found.append((began, at.timestamp()))
            began = None
    return found


def _opened_at(game_id: int, prompt_id: int) -> float | None:
    """When a prompt was opened: the time of its ``deciding`` event."""
    row = (
        Event.objects.filter(game_id=game_id, kind="deciding", payload__prompt=prompt_id)
        .order_by("-seq")
        .values_list("created_at", flat=True)
        .first()
    )
    return row.timestamp() if row else None


driver = Driver()
