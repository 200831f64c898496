"""game_act end to end on the test database: versions, idempotency, stale versions, writes = state."""

from __future__ import annotations

import pytest

from tournament.models import ActionRecord, Event, Game, LedgerEntry
from tournament.rules.errors import RulesError, StaleVersion
from tournament.rules.events import Actor
from tournament.rules.state import BANK_RESERVE
from tournament.services.actions import UnknownRoom, game_act
from tournament.services.rooms import new_action_id, room_create, room_join
from tournament.services.store import cache, load_snapshot

pytestmark = pytest.mark.django_db


def _state_dump(st):
    return {
        "accounts": st.accounts,
        "piles": {k: v for k, v in st.piles.items() if v},
        "on_square": st.on_square,
        "squares": {k: (v.status, v.coach) for k, v in st.squares.items()},
        "markers": st.markers,
        "seats": {k: (v.role, v.out, v.nickname) for k, v in st.seats.items()},
        "prompts": [(p.id, p.seat, p.kind, p.default) for p in st.prompts],
        "pawn": st.pawn,
        "turn": st.turn,
        "phase": st.phase,
        "rng": st.rng_counter,
    }


def _started_room(bots: int = 3):
    room = room_create(nickname="Anna", bots=["easy"] * bots, seed=1234)
    game = Game.objects.get(code=room.code)
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=game.version,
        action_id="start-1",
    )
    return room


def _play_defaults(code: str, n: int) -> None:
    for _ in range(n):
        game = Game.objects.get(code=code)
        st = load_snapshot(game).state
        if not st.prompts:
            return
        p = st.prompts[0]
        game_act(
            code=code,
            actor=Actor("seat", p.seat),
            action={"type": "answer", "prompt": p.id, "choice": p.default},
            expected_version=game.version,
            action_id=new_action_id(),
        )


def test_start_lays_out_the_game_and_writes_money_as_ledger_entries():
    room = _started_room()
    game = Game.objects.get(code=room.code)
    assert game.status == "running" and game.phase == "phase1"
    assert game.accounts.get(key="p1").balance == 2_440_000
    assert sum(a.balance for a in game.accounts.all()) == BANK_RESERVE
    assert LedgerEntry.objects.filter(game=game, reason="starting_capital").count() == 4
    assert game.cards.count() == 32 + 103 + 33 + 22 + 40 + 22
    assert game.country_squares.count() == 16


@pytest.mark.django_db(transaction=True)
def test_database_rows_rebuild_exactly_the_cached_state():
    room = _started_room()
    _play_defaults(room.code, 60)
    game = Game.objects.get(code=room.code)
    cached = cache.get(game.pk, game.version)
    assert cached is not None
    fresh = load_snapshot(game)
    assert _state_dump(fresh.state) == _state_dump(cached.state)
    # ledger entries explain every balance
    for acc in game.accounts.all():
        incoming = sum(e.amount for e in acc.incoming.all())
        outgoing = sum(e.amount for e in acc.outgoing.all())
        start = BANK_RESERVE if acc.key == "bank" else 0
        assert start + incoming - outgoing == acc.balance


def test_stale_version_is_refused_and_changes_nothing():
    room = _started_room()
    game = Game.objects.get(code=room.code)
    st = load_snapshot(game).state
    p = st.prompts[0]
    events_before = Event.objects.filter(game=game).count()
    with pytest.raises(StaleVersion) as exc:
        game_act(
            code=room.code,
            actor=Actor("seat", p.seat),
            action={"type": "roll"},
            expected_version=game.version - 1,
            action_id="x1",
        )
    assert exc.value.code == "stale_version"
    game.refresh_from_db()
    assert Event.objects.filter(game=game).count() == events_before


def test_a_retried_action_id_returns_the_first_result_without_applying_twice():
    room = _started_room()
    game = Game.objects.get(code=room.code)
    st = load_snapshot(game).state
    p = st.prompts[0]
    first = game_act(
        code=room.code,
        actor=Actor("seat", p.seat),
        action={"type": "roll"},
        expected_version=game.version,
        action_id="roll-once",
    )
    again = game_act(
        code=room.code,
        actor=Actor("seat", p.seat),
        action={"type": "roll"},
        expected_version=game.version,
        action_id="roll-once",
    )
    assert again.duplicate and again.version == first.version and again.last_seq == first.last_seq
    assert ActionRecord.objects.filter(game__code=room.code, action_id="roll-once").count() == 1


def test_rolling_out_of_turn_is_refused():
    room = _started_room()
    game = Game.objects.get(code=room.code)
    st = load_snapshot(game).state
    other = next(s for s in st.seats if s != st.active_seat)
    with pytest.raises(RulesError) as exc:
        game_act(
            code=room.code,
            actor=Actor("seat", other),
            action={"type": "roll"},
            expected_version=game.version,
            action_id="oops",
        )
    assert exc.value.code == "not_your_turn"
    assert Game.objects.get(code=room.code).version == game.version


def test_unknown_room():
    with pytest.raises(UnknownRoom):
        game_act(
            code="nope", actor=Actor("host"), action={"type": "start"}, expected_version=0, action_id="a"
        )


def test_join_takes_a_seat_and_refuses_a_duplicate_nickname():
    room = room_create(nickname="Anna", seed=1)
    seat, token = room_join(code=room.code, nickname="Ben")
    assert seat == 2 and token
    with pytest.raises(RulesError) as exc:
        room_join(code=room.code, nickname="ben")
    assert exc.value.code == "nickname_taken"


@pytest.mark.django_db(transaction=True)
def test_replay_rebuilds_the_stored_game():
    from tournament.services.replays import game_replay

    room = _started_room()
    _play_defaults(room.code, 120)
    report = game_replay(code=room.code)
    assert report.equal, report.differences
    assert report.actions > 100
