"""``game_act``: the one transactional write path of a game.

Check the actor, the expected version and the client's action id; apply the pure rules; check the
invariants; bump the version by compare-and-swap; write the changed rows, the ledger entries, the events
and the action record; after commit, publish the new version to the room's channel group.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from cards.catalog import get_catalog
from tournament.models import ActionRecord, Event, Game, LedgerEntry
from tournament.rules import invariants
from tournament.rules.engine import apply_action
from tournament.rules.errors import InvariantBroken, MalformedAction, RulesError, StaleVersion
from tournament.rules.events import Actor, Ev
from tournament.services import notify, sql, timers
from tournament.services.store import (
    Snapshot,
    cache,
    flow_to_json,
    load_snapshot,
    recent_events,
    write_changes,
)

log = logging.getLogger(__name__)

ACTION_ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class UnknownRoom(RulesError):
    """No room has this code."""

    code = "unknown_room"


@dataclass(frozen=True, slots=True)
class ActResult:
    """What an accepted (or already accepted) action produced."""

    version: int
    first_seq: int
    last_seq: int
    duplicate: bool = False
    events: tuple[Ev, ...] = ()


def current_snapshot(game: Game) -> Snapshot:
    """The snapshot of ``game`` at its (just read) version, from the cache or the database."""
    snap = cache.get(game.pk, game.version)
    if snap is None:
        snap = load_snapshot(game)
        cache.put(snap)
    return snap


def _locked_game(code: str) -> tuple[int, int]:
    """The room's id and version, locked for this transaction (row lock on PostgreSQL; on SQLite the
    IMMEDIATE transaction already holds the write lock)."""
    if not isinstance(code, str) or len(code) > 16:
        raise UnknownRoom()
    row = sql.select_one(Game, ("id", "version"), {"code": code}, for_update=True)
    if row is None:
        raise UnknownRoom()
    return row[0], row[1]


def game_act(
    *,
    code: str,
    actor: Actor,
    action: Any,
    expected_version: int | None,
    action_id: str,
) -> ActResult:
    """Apply one action to the game in room ``code`` exactly once.

    :raises RulesError: ``unknown_room``, ``stale_version``, ``malformed``, any rules error, or
        ``invariant_broken`` (the host console is alerted); nothing is written then.
    """
    if not isinstance(action_id, str) or not ACTION_ID_RE.match(action_id):
        raise MalformedAction(detail="action_id must be 1–64 letters, digits or _.:-")
    if expected_version is not None and (
        not isinstance(expected_version, int) or isinstance(expected_version, bool) or expected_version < 0
    ):
        raise MalformedAction(detail="version must be a whole number")
    try:
        return _act(code, actor, action, expected_version, action_id)
    except InvariantBroken as exc:
        _alert_host(code, str(exc))
        raise


def _act(code: str, actor: Actor, action: Any, expected_version: int | None, action_id: str) -> ActResult:
    with transaction.atomic():
        game_id, current = _locked_game(code)
        previous = sql.select_one(
            ActionRecord,
            ("version_after", "first_seq", "last_seq"),
            {"game_id": game_id, "actor": actor.label, "action_id": action_id},
        )
        if previous is not None:
            return ActResult(version=previous[0], first_seq=previous[1], last_seq=previous[2], duplicate=True)
        if expected_version is not None and expected_version != current:
            raise StaleVersion(expected=expected_version, current=current)
        snap = cache.get(game_id, current)
        if snap is None:
            snap = load_snapshot(Game.objects.get(pk=game_id))
        timers.check_due(snap.state, actor, action, timers.clock_ms())
        cat = get_catalog()
        history = None
        if isinstance(action, dict) and action.get("type") == "rewind":  # the host's rewind: salt + history
            from tournament.services.rewind import rewind_prepare

            action, history = rewind_prepare(game_id=game_id, version=current, action=action)
        new_state, events = apply_action(snap.state, actor, action, cat, history)
        timers.arm(new_state, timers.clock_ms())  # the decision timer runs in server time (R19a–c)
        problems = invariants.check(new_state, cat)
        if problems:
            log.error("invariant broken in %s by %s %r: %s", code, actor.label, action, problems)
            raise InvariantBroken(detail="; ".join(problems[:3]))
        version = current + 1
        first_seq = snap.last_seq + 1
        last_seq = snap.last_seq + len(events)
        ledger_seq = snap.ledger_seq + sum(1 for e in events if e.kind == "transfer")
        now = timezone.now()
        fields: dict[str, Any] = {
            "version": version,
            "last_seq": last_seq,
            "rng_counter": new_state.rng_counter,
            "status": new_state.status,
            "phase": new_state.phase,
            "flow": flow_to_json(new_state, ledger_seq),
            "updated_at": now,
        }
        if new_state.house_rules != snap.state.house_rules or new_state.mode != snap.state.mode:
            fields["house_rules"] = new_state.house_rules
            fields["mode"] = new_state.mode
        if snap.state.status == "lobby" and new_state.status == "running":
            fields["started_at"] = now
        if new_state.status in ("finished", "abandoned") and snap.state.status != new_state.status:
            fields["finished_at"] = now
            if new_state.winner:
                fields["winner_country"] = new_state.winner.get("country", "")
        if sql.update_where(Game, fields, {"id": game_id, "version": current}) != 1:
            raise StaleVersion(expected=current, current=current + 1)
        new_snap = replace(
            snap,
            version=version,
            last_seq=last_seq,
            ledger_seq=ledger_seq,
            state=new_state,
            seat_pk=dict(snap.seat_pk),
            account_pk=dict(snap.account_pk),
            card_pk=dict(snap.card_pk),
            square_pk=dict(snap.square_pk),
            marker_pk=dict(snap.marker_pk),
            match_pk=dict(snap.match_pk),
        )
        write_changes(new_snap, snap.state, new_state)
        _write_events(new_snap, game_id, version, first_seq, snap.ledger_seq, events, actor, now)
        sql.insert_rows(
            ActionRecord,
            sql.ACTION_RECORD_COLUMNS,
            [(game_id, actor.label, action_id, action, current, version, first_seq, last_seq, now)],
        )
        pushed = pushed_events(events, first_seq, actor.label)
        transaction.on_commit(lambda: _after_commit(new_snap, pushed))
    return ActResult(version=version, first_seq=first_seq, last_seq=last_seq, events=tuple(events))


def _write_events(
    snap: Snapshot,
    game_id: int,
    version: int,
    first_seq: int,
    ledger_seq: int,
    events: list[Ev],
    actor: Actor,
    now: Any,
) -> None:
    rows = []
    entries = []
    for offset, ev in enumerate(events):
        seq = first_seq + offset
        audience = list(ev.audience) if ev.audience is not None else None
        rows.append((game_id, seq, version, ev.kind, ev.payload, audience, actor.label, now))
        if ev.kind == "transfer":
            ledger_seq += 1
            p = ev.payload
            entries.append(
                (
                    game_id,
                    ledger_seq,
                    snap.account_pk[p["src"]],
                    snap.account_pk[p["dst"]],
                    p["amount"],
                    str(p["reason"])[:48],
                    str(p.get("memo", ""))[:200],
                    seq,
                    now,
                )
            )
    sql.insert_rows(Event, sql.EVENT_COLUMNS, rows)
    sql.insert_rows(
        LedgerEntry,
        sql.LEDGER_COLUMNS,
        entries,
    )


def pushed_events(events: Sequence[Ev], first_seq: int, actor: str) -> list[dict[str, Any]]:
    """The events of one version as the fan-out reads them: numbered, with their audience."""
    return [
        {
            "seq": first_seq + i,
            "kind": ev.kind,
            "payload": ev.payload,
            "audience": list(ev.audience) if ev.audience is not None else None,
            "actor": actor,
        }
        for i, ev in enumerate(events)
    ]


def _after_commit(snap: Snapshot, pushed: list[dict[str, Any]]) -> None:
    cache.put(snap)
    recent_events.add(snap.game_id, pushed)
    notify.game_changed(snap.code, snap.version, snap.last_seq, snap, pushed)


def _alert_host(code: str, message: str) -> None:
    """Record an aborted action's invariant breach where the host console shows it."""
    with transaction.atomic():
        Game.objects.filter(code=code).update(invariant_alert=f"{timezone.now():%H:%M:%S} {message}"[:2000])
    notify.host_alert(code, message)
