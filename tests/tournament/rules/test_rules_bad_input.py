"""Bad input for every action type: a typed error with a stable code, and the state passed in unchanged.

``refused`` (helpers) applies the action, expects a ``RulesError`` and compares a full dump of the
state before and after.
"""

from __future__ import annotations

import pytest
from helpers import (
    CAT,
    GUEST,
    HOST,
    SYSTEM,
    act,
    answer,
    countries_of_class,
    fields_by_stars,
    land_on,
    lobby,
    make_bc,
    on_top,
    only_prompt,
    phase2,
    play_defaults,
    qualify,
    refused,
    rivals,
    seat,
    square,
    started,
)

from tournament.rules.engine import apply_action
from tournament.rules.errors import MESSAGES, RulesError
from tournament.rules.events import Actor


@pytest.fixture
def game():
    return started(4, seed=2)


@pytest.fixture
def buying(game):
    """Seat 1 is asked whether he buys the open 4-star field player."""
    on_top(game, fields_by_stars(4)[0], "box5")
    st, _ = land_on(game, 1, square("field"))
    return st


def _answer(prompt_id, choice):
    return {"type": "answer", "prompt": prompt_id, "choice": choice}


def test_every_error_code_has_a_message():
    for code in (
        "malformed",
        "unknown_action",
        "not_your_turn",
        "not_your_prompt",
        "unknown_prompt",
        "illegal_choice",
        "insufficient_funds",
        "wrong_phase",
        "game_paused",
        "game_over",
        "forbidden",
        "unknown_participant",
        "out_of_game",
        "room_full",
        "nickname_taken",
        "bad_nickname",
        "already_started",
        "not_enough_players",
    ):
        assert code in MESSAGES
    err = RulesError("insufficient_funds", amount=400_000, balance=100)
    assert err.code == "insufficient_funds" and "400000" in err.message and err.params["balance"] == 100


# ---------------------------------------------------------------------------------------- shape


@pytest.mark.parametrize(
    "action,code",
    [
        (None, "malformed"),
        ([], "malformed"),
        ("roll", "malformed"),
        ({}, "malformed"),
        ({"type": 5}, "malformed"),
        ({"type": "fly"}, "unknown_action"),
    ],
)
def test_actions_of_the_wrong_shape(game, action, code):
    assert refused(game, seat(game.active_seat), action).code == code


def test_an_unknown_participant_is_refused(game):
    assert refused(game, Actor("seat", 9), {"type": "roll"}).code == "unknown_participant"
    assert (
        refused(game, Actor("seat", 9), _answer(game.prompts[0].id, {"roll": True})).code
        == "unknown_participant"
    )


# ----------------------------------------------------------------------------------- roll/answer


def test_out_of_turn_roll(game):
    other = next(s for s in game.seats if s != game.active_seat)
    err = refused(game, seat(other), {"type": "roll"})
    assert err.code == "not_your_turn" and game.seats[game.active_seat].nickname in err.message
    assert refused(game, HOST, {"type": "roll"}).code == "not_your_turn"
    assert refused(game, seat(other), _answer(game.prompts[0].id, {"roll": True})).code == "not_your_turn"


def test_rolling_while_a_decision_is_open_is_refused(buying):
    assert refused(buying, seat(1), {"type": "roll"}).code == "wrong_phase"


def test_answering_someone_elses_prompt(buying):
    prompt = only_prompt(buying, "buy")
    err = refused(buying, seat(2), _answer(prompt.id, {"buy": True}))
    assert err.code == "not_your_prompt" and "Anna" in err.message
    assert refused(buying, HOST, _answer(prompt.id, {"buy": True})).code == "not_your_prompt"


def test_unknown_or_already_answered_prompt(buying):
    assert refused(buying, seat(1), _answer(999, {"buy": True})).code == "unknown_prompt"
    prompt = only_prompt(buying, "buy")
    after, _ = answer(buying, "buy", {"buy": False})
    assert refused(after, seat(1), _answer(prompt.id, {"buy": True})).code == "unknown_prompt"


@pytest.mark.parametrize(
    "choice",
    [
        {"buy": 1},  # 1 is not true
        {"buy": "yes"},
        {"buy": None},
        {"buy": True, "extra": 1},
        {},
        {"Buy": True},
    ],
)
def test_a_choice_not_among_the_legal_ones(buying, choice):
    prompt = only_prompt(buying, "buy")
    err = refused(buying, seat(1), _answer(prompt.id, choice))
    assert err.code == "illegal_choice"


@pytest.mark.parametrize(
    "prompt_id,choice",
    [
        (True, {"buy": True}),  # True is not prompt 1
        ("1", {"buy": True}),
        (1.0, {"buy": True}),
        (None, {"buy": True}),
        ("P", {"buy": True}),
    ],
)
def test_json_type_tricks_in_the_prompt_id(buying, prompt_id, choice):
    assert refused(buying, seat(1), _answer(prompt_id, choice)).code == "malformed"


@pytest.mark.parametrize("choice", [None, [True], "buy", 1, True])
def test_the_choice_must_be_an_object(buying, choice):
    prompt = only_prompt(buying, "buy")
    assert refused(buying, seat(1), _answer(prompt.id, choice)).code == "malformed"


def test_luck_square_must_be_a_whole_square_number(game):
    st, _ = land_on(game, 1, square("luck"))
    prompt = only_prompt(st, "luck")
    for choice in (
        {"square": 5.0},
        {"square": "5"},
        {"square": square("luck")},
        {"square": 40},
        {"square": True},
        {"square": 5, "again": True},
    ):
        assert refused(st, seat(1), _answer(prompt.id, choice)).code == "illegal_choice", choice


def test_roll_answer_must_be_exactly_roll_true(game):
    prompt = only_prompt(game, "roll")
    for choice in ({"roll": 1}, {"roll": False}, {"roll": True, "die": 6}, {"die": 6}):
        assert refused(game, seat(prompt.seat), _answer(prompt.id, choice)).code == "illegal_choice"


# ----------------------------------------------------------------------------- buying without money


def test_buying_without_the_money_is_refused(buying):
    """The host (as Bank) moved the money away while the choice was open."""
    st, _ = act(
        buying,
        HOST,
        {"type": "transfer", "src": "p1", "dst": "bank", "amount": 2_200_000, "memo": "correction"},
    )
    prompt = only_prompt(st, "buy")
    err = refused(st, seat(1), _answer(prompt.id, {"buy": True}))
    assert err.code == "insufficient_funds" and err.params == {"amount": 400_000, "balance": 240_000}
    # the timer's default then declines instead of failing (a default is always legal)
    after, ev = act(st, SYSTEM, {"type": "force_default", "prompt": prompt.id})
    assert "declined" in [e.kind for e in ev] and not after.piles.get("team:1")


def test_contracting_without_the_money_is_refused(game):
    idx = CAT.board.country_squares[3]
    qualify(game, idx, countries_of_class(7)[0])
    st, _ = land_on(game, 1, idx)
    st, _ = act(st, HOST, {"type": "transfer", "src": "p1", "dst": "bank", "amount": 2_000_000, "memo": "x"})
    prompt = only_prompt(st, "contract")
    assert refused(st, seat(1), _answer(prompt.id, {"contract": True})).code == "insufficient_funds"
    after, _ = act(st, HOST, {"type": "force_default", "prompt": prompt.id})
    assert after.seats[1].role == "trainer"


def test_a_marker_purchase_without_the_money_is_refused():
    st = phase2(4, seed=12)
    idx = next(i for i, sq in st.squares.items() if sq.status == "marker")
    st, _ = land_on(st, 1, idx)
    st, _ = act(
        st, HOST, {"type": "transfer", "src": "p1", "dst": "bank", "amount": st.accounts["p1"], "memo": "x"}
    )
    prompt = only_prompt(st, "marker")
    assert refused(st, seat(1), _answer(prompt.id, {"take": "field"})).code == "insufficient_funds"
    assert refused(st, seat(1), _answer(prompt.id, {"take": "keeper"})).code == "insufficient_funds"


# ------------------------------------------------------------------------------------ match input


def test_match_decisions_are_checked_too():
    st = phase2(4, seed=12)
    st, _ = land_on(st, 1, rivals(st)[0])
    lineup = only_prompt(st, "lineup", 1)
    pid = lineup.id
    field = [c["id"] for c in lineup.options["decision"]["field"]]
    assert refused(st, seat(1), _answer(pid, {"kind": "lineup", "order": field[:10]})).code in (
        "illegal_choice",
        "malformed",
    )
    assert (
        refused(st, seat(1), _answer(pid, {"kind": "lineup", "order": "F001", "reserve": None})).code
        == "malformed"
    )
    assert refused(st, seat(1), _answer(pid, {"kind": "dance"})).code == "malformed"
    assert (
        refused(
            st, seat(1), _answer(pid, {"kind": "lineup", "order": [*field[:10], "K01"], "reserve": field[10]})
        ).code
        == "illegal_choice"
    )
    ac = st.running_match.away.seat
    assert refused(st, seat(ac), _answer(pid, lineup.default)).code == "not_your_prompt"


# -------------------------------------------------------------------------------------- host only


@pytest.mark.parametrize(
    "action",
    [
        {"type": "pause"},
        {"type": "resume"},
        {"type": "end_game"},
        {"type": "transfer", "src": "bank", "dst": "p1", "amount": 5, "memo": "gift"},
        {"type": "seat_bot", "seat": 2},
        {"type": "force_default", "prompt": 1},
    ],
)
def test_host_only_actions_from_a_seat_are_forbidden(game, action):
    if action["type"] == "force_default":
        action = {**action, "prompt": game.prompts[0].id}
    assert refused(game, seat(1), action).code == "forbidden"
    assert refused(game, GUEST, action).code in ("forbidden", "wrong_phase")


@pytest.mark.parametrize(
    "action",
    [
        {"type": "add_bot"},
        {"type": "house_rules", "seats": 5},
        {"type": "start"},
    ],
)
def test_host_only_lobby_actions_from_a_seat_are_forbidden(action):
    st = lobby(3, seed=2)
    assert refused(st, seat(1), action).code == "forbidden"


@pytest.mark.parametrize(
    "change,code",
    [
        ({"amount": 0}, "malformed"),
        ({"amount": -5}, "malformed"),
        ({"amount": True}, "malformed"),
        ({"amount": 5.0}, "malformed"),
        ({"amount": "5"}, "malformed"),
        ({"amount": 100_000_001}, "malformed"),
        ({"dst": "p1", "src": "p1"}, "malformed"),
        ({"dst": "p9"}, "malformed"),
        ({"dst": ["p1"]}, "malformed"),
        ({"src": {"a": 1}}, "malformed"),
        ({"memo": ""}, "malformed"),
        ({"memo": "   "}, "malformed"),
        ({"memo": "x" * 201}, "malformed"),
        ({"memo": 5}, "malformed"),
        ({"src": "p2", "amount": 9_000_000}, "insufficient_funds"),
    ],
)
def test_host_transfer_validation(game, change, code):
    action = {"type": "transfer", "src": "bank", "dst": "p1", "amount": 5_000, "memo": "correction", **change}
    assert refused(game, HOST, action).code == code


def test_a_host_transfer_is_an_audited_event(game):
    _st, ev = act(
        game, HOST, {"type": "transfer", "src": "bank", "dst": "p1", "amount": 5_000, "memo": " oops "}
    )
    assert [(e.kind, e.payload) for e in ev] == [
        ("transfer", {"src": "bank", "dst": "p1", "amount": 5_000, "reason": "host_transfer", "memo": "oops"})
    ]


@pytest.mark.parametrize(
    "action,code",
    [
        ({"type": "seat_bot", "seat": True}, "unknown_participant"),  # True is not seat 1
        ({"type": "seat_bot", "seat": 9}, "unknown_participant"),
        ({"type": "seat_bot", "seat": "1"}, "unknown_participant"),
        ({"type": "seat_bot", "seat": 1, "bot": "yes"}, "malformed"),
        ({"type": "seat_bot", "seat": 1, "bot": 1}, "malformed"),
    ],
)
def test_seat_bot_validation(game, action, code):
    assert refused(game, HOST, action).code == code


def test_seat_bot_refuses_a_bot_seat():
    st = new_lobby_with_bot()
    st, _ = act(st, HOST, {"type": "start"})
    bot_seat = next(s for s, v in st.seats.items() if v.bot)
    assert refused(st, HOST, {"type": "seat_bot", "seat": bot_seat}).code == "illegal_choice"


def new_lobby_with_bot():
    st = lobby(2, seed=3)
    st, _ = act(st, HOST, {"type": "add_bot", "strength": "strong"})
    return st


def test_force_default_of_an_unknown_prompt(game):
    assert refused(game, HOST, {"type": "force_default", "prompt": 99}).code == "unknown_prompt"
    assert refused(game, HOST, {"type": "force_default", "prompt": True}).code == "malformed"


# ------------------------------------------------------------------------------- paused / finished


def test_nothing_but_host_actions_while_paused(game):
    st, _ev = act(game, HOST, {"type": "pause"})
    prompt = st.prompts[0]
    assert refused(st, seat(prompt.seat), {"type": "roll"}).code == "game_paused"
    assert refused(st, seat(prompt.seat), _answer(prompt.id, {"roll": True})).code == "game_paused"
    assert refused(st, SYSTEM, {"type": "force_default", "prompt": prompt.id}).code == "game_paused"
    assert refused(st, HOST, {"type": "pause"}).code == "wrong_phase"
    st, _ = act(st, HOST, {"type": "transfer", "src": "bank", "dst": "p1", "amount": 5_000, "memo": "ok"})
    st, _ = act(st, HOST, {"type": "resume"})
    assert refused(st, HOST, {"type": "resume"}).code == "wrong_phase"
    act(st, seat(prompt.seat), {"type": "roll"})


def test_nothing_after_the_end():
    st = started(2, seed=5)
    st = play_defaults(st)
    assert st.status == "finished"
    assert refused(st, seat(1), {"type": "roll"}).code == "game_over"
    assert refused(st, seat(1), _answer(1, {"roll": True})).code == "game_over"
    assert refused(st, HOST, {"type": "end_game"}).code == "game_over"
    assert refused(st, HOST, {"type": "pause"}).code == "wrong_phase"
    assert refused(st, SYSTEM, {"type": "force_default", "prompt": 1}).code == "game_over"
    assert (
        refused(st, HOST, {"type": "transfer", "src": "bank", "dst": "p1", "amount": 5, "memo": "late"}).code
        == "wrong_phase"
    )


def test_ended_by_the_host():
    st = started(3, seed=5)
    st, ev = act(st, HOST, {"type": "end_game"})
    assert st.status == "abandoned" and st.prompts == [] and "game_ended_by_host" in [e.kind for e in ev]
    assert refused(st, seat(1), {"type": "roll"}).code == "game_over"


def test_acting_when_out():
    from helpers import phase3

    st, _ = phase3(4, seed=62, bcs=[1, 2, 3])
    assert refused(st, seat(4), {"type": "roll"}).code == "out_of_game"
    assert refused(st, seat(4), _answer(st.prompts[0].id, st.prompts[0].default)).code == "out_of_game"


# ----------------------------------------------------------------------------------------- lobby


def test_lobby_bad_input():
    st = lobby(3, seed=2)
    assert refused(st, GUEST, {"type": "join", "nickname": "anna"}).code == "nickname_taken"
    for bad in ("", "   ", "x" * 25, 5, None, "a\u0000b", ["Eve"]):
        assert refused(st, GUEST, {"type": "join", "nickname": bad}).code == "bad_nickname", bad
    assert refused(st, seat(1), {"type": "join", "nickname": "Zed"}).code == "forbidden"
    assert refused(st, HOST, {"type": "add_bot", "strength": "godlike"}).code == "malformed"
    assert refused(st, HOST, {"type": "remove_seat", "seat": True}).code == "unknown_participant"
    assert refused(st, HOST, {"type": "remove_seat", "seat": 7}).code == "unknown_participant"
    assert refused(st, seat(1), {"type": "remove_seat", "seat": 2}).code == "forbidden"
    for rules in (
        {"seats": True},
        {"seats": 1},
        {"seats": 9},
        {"seats": "4"},
        {"seats": 2},
        {"visit_fee_to": "me"},
        {"decision_timer": 5},
        {"decision_timer": True},
        {"mode": "mars"},
    ):
        err = refused(st, HOST, {"type": "house_rules", **rules})
        assert err.code in ("malformed", "illegal_choice"), rules
    small = lobby(1, seed=2)
    assert refused(small, HOST, {"type": "start"}).code == "not_enough_players"
    full = lobby(2, seed=2)
    full, _ = act(full, HOST, {"type": "house_rules", "seats": 2})
    assert refused(full, GUEST, {"type": "join", "nickname": "Zed"}).code == "room_full"


def test_nobody_takes_the_name_of_the_host_the_bank_or_the_official():
    st = lobby(3, seed=2)
    for name in (
        "Host",
        "  host ",
        "HOST",
        "The Host",
        "Gastheer",
        "de gastheer",
        "Bank",
        "the bank",
        "De Bank",
        "Official",
        "The  Official",
        "Bank and Official",
        "Bank en Official",
        "Bonus Fund",
        "bonus fonds",
        "H.o.s.t",
        "Bank!",
        "Der Gastgeber",
        "Funktionär",
        "Anfitrión",
        "La Banca",
        "el delegado",
        "Caja de Primas",
    ):
        err = refused(st, GUEST, {"type": "join", "nickname": name})
        assert err.code == "reserved_nickname", name
        assert "reserved for the host, the Bank and the Official" in err.message
    for fine in ("Hostess", "Bankier", "Officially Ben", "Ghost", "Anna the host's sister", "Bancario"):
        act(st, GUEST, {"type": "join", "nickname": fine})  # a name that only contains one is fine


def test_lobby_actions_after_the_start(game):
    for action in (
        {"type": "join", "nickname": "Late"},
        {"type": "add_bot"},
        {"type": "start"},
        {"type": "house_rules", "seats": 5},
        {"type": "remove_seat", "seat": 2},
    ):
        actor = GUEST if action["type"] == "join" else HOST
        assert refused(game, actor, action).code == "already_started"


def test_a_participant_leaves_his_own_seat_in_the_lobby():
    st = lobby(3, seed=2)
    st, ev = act(st, seat(2), {"type": "remove_seat", "seat": 2})
    assert sorted(st.seats) == [1, 3]
    st, ev = act(st, GUEST, {"type": "join", "nickname": "Zoë"})
    assert ev[0].payload["seat"] == 2  # the lowest free seat


def test_a_refused_action_never_touches_the_callers_state_even_deep_inside(game):
    """A refusal raised after the action started changing the copy (the buy's insufficient funds)."""
    make_bc(game, 1, CAT.board.country_squares[0], countries_of_class(6)[0])
    on_top(game, fields_by_stars(6)[0], "box5")
    st, _ = land_on(game, 1, square("field"))
    st, _ = act(
        st, HOST, {"type": "transfer", "src": "p1", "dst": "bank", "amount": st.accounts["p1"], "memo": "x"}
    )
    prompt = only_prompt(st, "buy")
    with pytest.raises(RulesError):
        apply_action(st, seat(1), _answer(prompt.id, {"buy": True}), CAT)
    assert only_prompt(st, "buy").id == prompt.id and st.piles["box5"][-1] == fields_by_stars(6)[0]
