"""Game records: export a finished game as JSON, import one as a new room (verified by replaying it).

A record holds what rebuilds the game — the seed, the creation settings, the pre-qualified country, every
accepted action with its actor — plus the events they produced and a digest of the final position. The
format is documented in ``docs/PROTOCOL.md`` ("Game records").

Export waits for the end of the game: the seed and the private events would otherwise show every hidden
card (ruling G6). Import trusts nothing: it replays the actions from the seed through the pure rules,
requires the recorded events to be exactly the ones the actions produce and the final position to match
the digest, and only then writes the new room (one transaction, the same rows ``game_act`` writes).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from cards.catalog import get_catalog
from tournament.models import ActionRecord, Event, Game, LedgerEntry
from tournament.rules.errors import Forbidden, RulesError
from tournament.rules.events import Ev
from tournament.rules.replay import dump, replay
from tournament.rules.setup import from_setup
from tournament.rules.state import GameState
from tournament.services import sql
from tournament.services.rooms import RoomCreated, new_code
from tournament.services.store import Snapshot, flow_to_json, load_snapshot, write_changes

FORMAT = "magic-football-record"
FORMAT_VERSION = 1
MAX_ACTIONS = 20_000
MAX_BYTES = 20 * 1024 * 1024  # a whole tournament is about 1 MB
ACTOR_RE = re.compile(r"^(host|guest|system|seat:[1-8])$")


class RecordError(RulesError):
    """A record that cannot be imported; ``detail`` says why (translatable)."""

    code = "bad_record"


def digest(state: GameState) -> str:
    """A fingerprint of everything the rules know about a position (``sha256:`` + hex)."""
    canonical = json.loads(json.dumps(dump(state), default=list))  # tuples → lists, int keys → strings
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _event_json(seq: int, version: int, ev: Ev, actor: str) -> dict[str, Any]:
    return {
        "seq": seq,
        "version": version,
        "kind": ev.kind,
        "payload": ev.payload,
        "audience": list(ev.audience) if ev.audience is not None else None,
        "actor": actor,
    }


def _normalise(value: Any) -> Any:
    """What a value looks like after a trip through JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value, default=list))


# ------------------------------------------------------------------------------------------ export


def record_export(game: Game) -> dict[str, Any]:
    """The record of a finished (or ended) game.

    :raises RulesError: ``forbidden`` while the game is still being played.
    """
    if game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED):
        raise Forbidden(detail=gettext_noop("a game's record is available once the game is over"))
    actions = [
        {"actor": actor, "action": action}
        for actor, action in ActionRecord.objects.filter(game=game)
        .order_by("version_before")
        .values_list("actor", "action")
    ]
    events = [
        {
            "seq": seq,
            "version": version,
            "kind": kind,
            "payload": payload,
            "audience": audience,
            "actor": actor,
        }
        for seq, version, kind, payload, audience, actor in Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "version", "kind", "payload", "audience", "actor")
    ]
    state = load_snapshot(game).state
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "room": game.code,
        "catalog": get_catalog().version,
        "seed": game.seed,
        "setup": game.setup,
        "pre_qualified": game.pre_qualified,
        "actions": actions,
        "events": events,
        "status": state.status,
        "winner": state.winner,
        "digest": digest(state),
        "exported_at": timezone.now().isoformat(),
    }


# ------------------------------------------------------------------------------------------ import


def _bad(detail: str, **params: Any) -> RecordError:
    return RecordError(detail=detail % params if params else detail)


def parse_record(raw: bytes | str) -> dict[str, Any]:
    """Decode a record file.

    :raises RecordError: too large or not JSON.
    """
    if len(raw) > MAX_BYTES:
        raise _bad(gettext_noop("the file is larger than 20 MB"))
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise _bad(gettext_noop("it is not a JSON file")) from None
    if not isinstance(data, dict):
        raise _bad(gettext_noop("it is not a Magic Football game record"))
    return data


def _check_shape(record: dict[str, Any]) -> tuple[int, dict[str, Any], str, list[tuple[str, Any]]]:
    if record.get("format") != FORMAT:
        raise _bad(gettext_noop("it is not a Magic Football game record"))
    if record.get("format_version") != FORMAT_VERSION:
        raise _bad(gettext_noop("it was written in a record format this server does not know"))
    if record.get("catalog") != get_catalog().version:
        raise _bad(gettext_noop("it was played with another edition of the cards"))
    seed, setup, pre = record.get("seed"), record.get("setup"), record.get("pre_qualified", "")
    if not isinstance(seed, int) or isinstance(seed, bool) or not -(1 << 126) < seed < 1 << 126:
        raise _bad(gettext_noop("its seed is missing or not a whole number"))
    if not isinstance(setup, dict) or not isinstance(pre, str) or len(pre) > 3:
        raise _bad(gettext_noop("its set-up is damaged"))
    try:
        from_setup(seed, setup)
    except RulesError:
        raise _bad(gettext_noop("its set-up is damaged")) from None
    items = record.get("actions")
    if not isinstance(items, list) or not items or len(items) > MAX_ACTIONS:
        raise _bad(gettext_noop("it has no list of actions"))
    actions: list[tuple[str, Any]] = []
    for item in items:
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("actor"), str)
            or not ACTOR_RE.match(item["actor"])
        ):
            raise _bad(gettext_noop("an action has no valid actor"))
        if not isinstance(item.get("action"), dict):
            raise _bad(gettext_noop("an action is not a JSON object"))
        actions.append((item["actor"], item["action"]))
    if not isinstance(record.get("events"), list) or not isinstance(record.get("digest"), str):
        raise _bad(gettext_noop("its events or its digest are missing"))
    return seed, setup, pre, actions


def verify_record(record: dict[str, Any]) -> tuple[GameState, list[list[Ev]]]:
    """Replay a record and check it: every action legal, the events exactly the recorded ones, the final
    position equal to the digest. Returns the final state and each action's events.

    :raises RecordError: with what is wrong (a tampered record is refused, never imported).
    """
    seed, setup, pre, actions = _check_shape(record)
    steps: list[list[Ev]] = []
    try:
        final = replay(
            seed, setup, pre, actions, get_catalog(), on_step=lambda _i, _st, evs: steps.append(evs)
        )
    except RulesError as exc:
        raise _bad(
            gettext_noop("action %(n)s is refused by the rules (%(why)s): the record was changed"),
            n=len(steps) + 1,
            why=exc.code,
        ) from None
    produced = []
    seq = 0
    for index, events in enumerate(steps):
        for ev in events:
            seq += 1
            produced.append(_event_json(seq, index + 1, ev, actions[index][0]))
    recorded = record["events"]
    if len(recorded) != len(produced):
        raise _bad(gettext_noop("its events do not follow from its actions: the record was changed"))
    for mine, theirs in zip(_normalise(produced), recorded, strict=True):
        if not isinstance(theirs, dict) or {k: theirs.get(k) for k in mine} != mine:
            raise _bad(
                gettext_noop("event %(seq)s does not follow from the actions: the record was changed"),
                seq=mine["seq"],
            )
    if digest(final) != record["digest"]:
        raise _bad(gettext_noop("the final position does not match its digest: the record was changed"))
    return final, steps


def record_import(*, record: dict[str, Any]) -> RoomCreated:
    """Create a new room holding the recorded game, after ``verify_record``.

    Who imports a record watches it (ruling G15): the room's seats and its host are the recorded game's,
    so nobody receives its host key (it would also prove the original host's seat, ``selectors.identify``)
    and the returned ``host_key`` is empty.

    :raises RecordError:
    """
    final, steps = verify_record(record)
    seed, setup, pre, actions = _check_shape(record)
    initial = from_setup(seed, setup)
    initial.pre_qualified = pre
    now = timezone.now()
    last_seq = sum(len(events) for events in steps)
    ledger_seq = sum(1 for events in steps for ev in events if ev.kind == "transfer")
    with transaction.atomic():
        for _ in range(5):
            code = new_code()
            if not Game.objects.filter(code=code).exists():
                break
        game = Game.objects.create(
            code=code,
            host_key=secrets.token_urlsafe(24),
            kind=final.game,
            mode=final.mode,
            status=final.status,
            phase=final.phase,
            seed=seed,
            rng_counter=final.rng_counter,
            version=len(actions),
            last_seq=last_seq,
            house_rules=final.house_rules,
            setup=setup,
            flow=flow_to_json(final, ledger_seq),
            pre_qualified=pre,
            winner_country=(final.winner or {}).get("country", "") or "",
            started_at=now if final.status != "lobby" else None,
            finished_at=now if final.status in ("finished", "abandoned") else None,
        )
        snap = Snapshot(game_id=game.pk, code=code, version=0, last_seq=0, ledger_seq=0, state=initial)
        write_changes(snap, initial, final)
        _write_log(snap, actions, steps, now)
        if digest(load_snapshot(game).state) != record["digest"]:  # what was written reads back the same
            raise _bad(gettext_noop("the final position does not match its digest: the record was changed"))
    return RoomCreated(code=code, host_key="", token=None, seat=None)


def _write_log(snap: Snapshot, actions: list[tuple[str, Any]], steps: list[list[Ev]], now: Any) -> None:
    """Events, ledger entries and action records exactly as ``game_act`` would have written them."""
    events, entries, records = [], [], []
    seq = ledger = 0
    for index, ((actor, action), produced) in enumerate(zip(actions, steps, strict=True)):
        first = seq + 1
        for ev in produced:
            seq += 1
            audience = list(ev.audience) if ev.audience is not None else None
            events.append((snap.game_id, seq, index + 1, ev.kind, ev.payload, audience, actor, now))
            if ev.kind == "transfer":
                ledger += 1
                p = ev.payload
                entries.append(
                    (
                        snap.game_id,
                        ledger,
                        snap.account_pk[p["src"]],
                        snap.account_pk[p["dst"]],
                        p["amount"],
                        str(p["reason"])[:48],
                        str(p.get("memo", ""))[:200],
                        seq,
                        now,
                    )
                )
        records.append((snap.game_id, actor, f"import-{index}", action, index, index + 1, first, seq, now))
    sql.insert_rows(Event, sql.EVENT_COLUMNS, events)
    sql.insert_rows(
        LedgerEntry,
        sql.LEDGER_COLUMNS,
        entries,
    )
    sql.insert_rows(
        ActionRecord,
        sql.ACTION_RECORD_COLUMNS,
        records,
    )
