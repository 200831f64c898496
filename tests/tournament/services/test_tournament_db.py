"""Whole seeded bot tournaments, lobby to Cup, through the real services (``game_act``) on the test database.

Every action is one ``game_act`` call (one transaction; the invariants are checked inside it); the
bots decide from the snapshot the service cached after commit, exactly as a bot seat would. After every
action the test checks the invariants again; at the end it rebuilds the game from its rows
(``load_snapshot``) and compares it with the cached state, and checks that the ledger explains every
balance. In CI 12 tournaments with 2–4 bots (every combination of seat count, bots' strengths and fee
rule) and 4 with 5–8 bots (every seat count); under ``make soak`` 200 and 8 (about 700–1,100 actions
each; see docs/PERFORMANCE.md for the timings).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import sweep
from django.db.models import Sum

from cards.catalog import get_catalog
from games.api import get_format
from games.rng import Rng
from tournament.models import Game, LedgerEntry
from tournament.rules import bots, invariants
from tournament.rules.events import Actor
from tournament.rules.state import BANK_RESERVE, GameState
from tournament.services.actions import current_snapshot, game_act
from tournament.services.rooms import room_create
from tournament.services.store import cache, load_snapshot

pytestmark = pytest.mark.django_db(transaction=True)

STRENGTHS = ("easy", "strong", "random")
# Tournaments with 2–4 bots: the seed picks the seat count (seed % 3), the seats' strengths (rotating from
# seed % 3) and where visit fees go (seed % 4), so twelve seeds in a row meet every combination once: CI
# plays those twelve, the soak 200.
SMALL_CHUNKS = sweep.size(ci=2, soak=20)
SMALL_PER_CHUNK = sweep.size(ci=6, soak=10)
LARGE = sweep.size(ci=4, soak=8)  # tournaments with 5–8 bots
MAX_ACTIONS = 20_000


def _dump(st: GameState) -> dict[str, Any]:
    """Everything the database stores of a state, comparable with ``==``."""
    return {
        "seed": st.seed,
        "rng": st.rng_counter,
        "status": st.status,
        "phase": st.phase,
        "stage": st.stage,
        "mode": st.mode,
        "house_rules": st.house_rules,
        "seats": {k: (v.nickname, v.bot, v.host, v.role, v.out, v.takeover) for k, v in st.seats.items()},
        "accounts": st.accounts,
        "piles": {k: v for k, v in st.piles.items() if v},
        "on_square": st.on_square,
        "finals": st.finals,
        "finals_coaches": st.finals_coaches,
        "squares": {k: (v.status, v.coach) for k, v in st.squares.items()},
        "markers": st.markers,
        "turn_order": st.turn_order,
        "turn": st.turn,
        "pawn": st.pawn,
        "prompts": [(p.id, p.seat, p.kind, p.choices, p.default, p.options, p.context) for p in st.prompts],
        "next_prompt": st.next_prompt,
        "turns": st.turns,
        "winner": st.winner,
        "matches": [
            (
                m.number,
                m.kind,
                m.slot,
                m.home,
                m.away,
                m.status,
                tuple(m.score),
                tuple(m.penalties) if m.penalties else None,
                m.decided_by,
                m.winner_side,
                get_format(m.format).to_dict(m.engine) if m.engine is not None else None,
                copy.deepcopy(m.context),
            )
            for m in st.matches
        ],
    }


def play_tournament(seed: int, seats: int) -> tuple[Game, GameState, int]:
    """Create a room of ``seats`` bots, start it and let the bots play to the Cup through ``game_act``."""
    cat = get_catalog()
    strengths = [STRENGTHS[(seed + i) % 3] for i in range(seats)]
    fee_to = "bank" if seed % 4 == 0 else "coach"
    room = room_create(
        nickname=None, bots=strengths, seed=seed, house_rules={"seats": seats, "visit_fee_to": fee_to}
    )
    game = Game.objects.get(code=room.code)
    result = game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=game.version,
        action_id="start",
    )
    bot_rng = Rng(seed ^ 0xB07)
    phases = ["phase1"]
    actions = 1
    while True:
        snap = cache.get(game.pk, result.version)
        if snap is None:  # the service caches every committed version; fall back to the rows
            game.refresh_from_db()
            snap = current_snapshot(game)
        state = snap.state
        problems = invariants.check(state, cat)
        assert not problems, (seed, seats, actions, problems)
        if state.phase != phases[-1]:
            if phases[-1] == "phase2":  # the eighth marker is placed: eight countries remain
                assert state.markers_placed() == 8
                assert len(state.on_square) + len(state.finals) + len(state.piles.get("cup", [])) == 8
            phases.append(state.phase)
        if state.status != "running":
            break
        prompt = state.prompts[bot_rng.randbelow(len(state.prompts))]
        assert prompt.seat is not None
        choice = bots.decide(state, prompt, state.seats[prompt.seat].bot or "easy", cat, bot_rng)
        result = game_act(
            code=room.code,
            actor=Actor("seat", prompt.seat),
            action={"type": "answer", "prompt": prompt.id, "choice": choice},
            expected_version=result.version,
            action_id=f"a{actions}",
        )
        actions += 1
        assert actions < MAX_ACTIONS, (seed, seats, state.phase, state.turns)
    assert phases in (["phase1", "phase2", "phase3", "finished"], ["phase1", "phase2", "finished"]), phases
    return game, state, actions


def check_rows_equal_state(game: Game, state: GameState) -> None:
    """The database rows rebuild exactly the state the services ended with; the ledger explains it."""
    game.refresh_from_db()
    fresh = load_snapshot(game).state
    assert _dump(fresh) == _dump(state)
    assert game.status == "finished" and game.winner_country == state.winner["country"]
    incoming = dict(
        LedgerEntry.objects.filter(game=game).values_list("credit__key").annotate(s=Sum("amount"))
    )
    outgoing = dict(LedgerEntry.objects.filter(game=game).values_list("debit__key").annotate(s=Sum("amount")))
    for key, balance in state.accounts.items():
        start = BANK_RESERVE if key == "bank" else 0
        assert start + incoming.get(key, 0) - outgoing.get(key, 0) == balance, key
    assert game.actions.count() == game.version  # one record per accepted game_act, lobby included


@pytest.fixture
def no_push(settings):
    """No channel layer: ``notify`` returns at once. The push after commit is tested with the sockets;
    here it would only add asgiref's thread-per-call (~1 ms an action, see docs/PERFORMANCE.md) to a long
    run. Everything inside the transaction stays exactly as in production."""
    settings.CHANNEL_LAYERS = {}


def _check_one(seed: int, seats: int) -> None:
    game, state, _actions = play_tournament(seed, seats)
    assert state.status == "finished"
    finals = [m for m in state.matches if m.kind in ("qf", "sf", "f")]
    assert len(finals) == 7 and all(m.status == "finished" for m in finals)
    assert state.piles["cup"] == [finals[-1].winner_country] == [state.winner["country"]]
    check_rows_equal_state(game, state)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(SMALL_CHUNKS))
def test_bot_tournaments_with_2_to_4_participants(chunk, no_push):
    for i in range(SMALL_PER_CHUNK):
        seed = 10_000 + chunk * SMALL_PER_CHUNK + i
        _check_one(seed, 2 + seed % 3)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(LARGE))
def test_bot_tournaments_with_5_to_8_participants(n, no_push):
    seed = 20_000 + n
    _check_one(seed, 5 + n % 4)


# ------------------------------------------------------------------------------------ bad input


def _rows(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    cache.drop(game.pk)
    return (
        game.version,
        game.last_seq,
        game.events.count(),
        game.ledger.count(),
        game.actions.count(),
        _dump(load_snapshot(game).state),
    )


def test_refused_actions_change_no_row_no_event_and_no_ledger_entry():
    room = room_create(nickname="Anna", bots=["easy", "easy"], seed=77, house_rules={"seats": 3})
    game = Game.objects.get(code=room.code)
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=game.version,
        action_id="start",
    )
    game.refresh_from_db()
    state = current_snapshot(game).state
    roll = state.prompts[0]
    other = next(s for s in state.seats if s != roll.seat)
    before = _rows(game)
    bad = [
        (Actor("seat", other), {"type": "roll"}, "not_your_turn"),  # out of turn
        (
            Actor("seat", other),
            {"type": "answer", "prompt": roll.id, "choice": {"roll": True}},
            "not_your_turn",
        ),
        (
            Actor("seat", roll.seat),
            {"type": "answer", "prompt": roll.id, "choice": {"roll": 1}},
            "illegal_choice",
        ),
        (
            Actor("seat", roll.seat),
            {"type": "answer", "prompt": 999, "choice": {"roll": True}},
            "unknown_prompt",
        ),
        (Actor("seat", roll.seat), {"type": "answer", "prompt": True, "choice": {"roll": True}}, "malformed"),
        (Actor("seat", 7), {"type": "roll"}, "unknown_participant"),
        (Actor("seat", roll.seat), {"type": "pause"}, "forbidden"),
        (
            Actor("host"),
            {"type": "transfer", "src": "p2", "dst": "bank", "amount": 9_000_000, "memo": "x"},
            "insufficient_funds",
        ),
    ]
    from tournament.rules.errors import RulesError

    for i, (actor, action, code) in enumerate(bad):
        with pytest.raises(RulesError) as exc:
            game_act(
                code=room.code, actor=actor, action=action, expected_version=before[0], action_id=f"bad{i}"
            )
        assert exc.value.code == code, (action, exc.value.code)
    with pytest.raises(RulesError) as exc:  # a stale version
        game_act(
            code=room.code,
            actor=Actor("seat", roll.seat),
            action={"type": "roll"},
            expected_version=before[0] - 1,
            action_id="stale",
        )
    assert exc.value.code == "stale_version"
    assert _rows(game) == before
    # and the right action still goes through afterwards
    game_act(
        code=room.code,
        actor=Actor("seat", roll.seat),
        action={"type": "roll"},
        expected_version=before[0],
        action_id="good",
    )
    assert _rows(game)[0] == before[0] + 1
