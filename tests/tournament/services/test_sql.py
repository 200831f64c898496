"""The hot-path statements (tournament/services/sql.py) store exactly what the ORM would read back, report
errors as Django's, and stay visible to whatever watches the connection's statements."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from tournament.models import ActionRecord, Event, Game
from tournament.services import sql
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


def _game() -> Game:
    return Game.objects.get(code=room_create(nickname="Anna", bots=["easy"], seed=7).code)


def _event(game: Game, seq: int, payload: object, audience: object = None) -> tuple:
    return (game.pk, seq, 1, "note", payload, audience, "host", timezone.now())


def test_json_columns_read_back_as_the_orm_stored_them():
    game = _game()
    start = game.last_seq + 1
    payloads = [
        {"seat": 3, "path": [4, 5, 6], "nested": {"a": [None, True, False, 1.5]}},
        {"name": "Zoë Müller ⚽", 7: "integer keys become strings, as json.dumps does"},
        {"big": 2**70},  # beyond orjson's 64 bits: the field's own encoding takes over
    ]
    sql.insert_rows(
        Event,
        sql.EVENT_COLUMNS,
        [_event(game, start + i, p, [1, 2] if i == 0 else None) for i, p in enumerate(payloads)],
    )
    rows = list(Event.objects.filter(game=game, seq__gte=start).order_by("seq"))
    assert [r.payload for r in rows] == [
        payloads[0],
        {"name": "Zoë Müller ⚽", "7": "integer keys become strings, as json.dumps does"},
        {"big": 2**70},
    ]
    assert rows[0].audience == [1, 2]
    # ``None`` is SQL NULL (a public event), not the JSON document ``null``
    assert Event.objects.filter(game=game, seq__gte=start, audience__isnull=True).count() == 2
    assert Event.objects.filter(game=game, seq__gte=start, payload__seat=3).count() == 1


def test_a_broken_constraint_is_djangos_integrity_error_and_writes_nothing():
    game = _game()
    seq = game.last_seq + 1
    sql.insert_rows(Event, sql.EVENT_COLUMNS, [_event(game, seq, {"first": True})])
    with pytest.raises(IntegrityError), transaction.atomic():
        sql.insert_rows(Event, sql.EVENT_COLUMNS, [_event(game, seq + 1, {}), _event(game, seq, {})])
    assert list(Event.objects.filter(game=game, seq__gte=seq).values_list("seq", "payload")) == [
        (seq, {"first": True})
    ]


def test_updates_and_selects_see_their_rows():
    game = _game()
    changed = sql.update_where(
        Game, {"flow": {"stage": "x", "turns": {1: 2}}}, {"id": game.pk, "version": game.version}
    )
    assert changed == 1
    assert sql.update_where(Game, {"phase": "phase2"}, {"id": game.pk, "version": game.version + 5}) == 0
    game.refresh_from_db()
    assert game.flow == {"stage": "x", "turns": {"1": 2}}
    assert sql.select_one(Game, ("id", "version"), {"code": game.code}, for_update=True) == (
        game.pk,
        game.version,
    )
    assert sql.select_one(Game, ("id",), {"code": "NOPE"}) is None


def test_statement_watchers_see_every_statement():
    game = _game()
    seen: list[str] = []

    def watch(execute, statement, params, many, context):
        seen.append(statement)
        return execute(statement, params, many, context)

    with connection.execute_wrapper(watch):
        sql.insert_rows(
            ActionRecord,
            sql.ACTION_RECORD_COLUMNS,
            [
                (
                    game.pk,
                    "host",
                    "a-1",
                    {"type": "pause"},
                    game.version,
                    game.version + 1,
                    1,
                    1,
                    timezone.now(),
                )
            ],
        )
        sql.select_one(ActionRecord, ("version_after",), {"game_id": game.pk, "action_id": "a-1"})
    assert [s.split()[0] for s in seen] == ["INSERT", "SELECT"]
