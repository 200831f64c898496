"""Team and holding limits through the selection pile, R10 firing and waiving, R11, R3 turn order."""

from __future__ import annotations

import pytest
from helpers import (
    CAT,
    HOST,
    act,
    answer,
    countries_of_class,
    fields_by_stars,
    keepers_by_stars,
    kinds,
    land_on,
    lobby,
    make_bc,
    make_trainer_team,
    money,
    move_card,
    of_kind,
    on_top,
    only_prompt,
    selection,
    set_money,
    square,
    started,
    team,
    transfers,
)

from tournament.rules.state import BANK, BONUS, holding_key

START_CAPITAL = 2_440_000
HOME = CAT.board.country_squares[0]


@pytest.fixture
def game():
    return started(4, seed=3)


def _five_match_cards(st):
    return list(st.piles["box2"][:5])


def test_a_sixth_match_card_waits_in_hand_until_the_bc_discards_one(game):
    five = _five_match_cards(game)
    make_bc(game, 1, HOME, countries_of_class(6)[0], match_cards=five)
    sixth = game.piles["box2"][-1]
    st, ev = land_on(game, 1, square("match"))
    prompt = only_prompt(st, "discard_match", 1)
    assert {c["card"] for c in prompt.choices} == {*five, sixth}
    assert prompt.default in prompt.choices
    assert selection(st, 1) == [sixth] and len(st.piles[holding_key(1)]) == 5  # never six, not even now
    st, ev = answer(st, "discard_match", {"card": five[0]})
    assert sorted(st.piles[holding_key(1)]) == sorted([*five[1:], sixth])
    assert st.piles["box6"][-1] == five[0]  # discarded to box 6
    assert of_kind(ev, "match_card_discarded")[0].payload == {"seat": 1, "card": five[0]}
    assert selection(st, 1) == []


def test_the_sixth_card_itself_may_be_discarded(game):
    five = _five_match_cards(game)
    make_bc(game, 1, HOME, countries_of_class(6)[0], match_cards=five)
    sixth = game.piles["box2"][-1]
    st, _ = land_on(game, 1, square("match"))
    st, _ = answer(st, "discard_match", {"card": sixth})
    assert sorted(st.piles[holding_key(1)]) == sorted(five) and st.piles["box6"] == [sixth]


def test_a_second_keeper_forces_a_return_of_one_keeper(game):
    own = keepers_by_stars(3)[0]
    make_trainer_team(game, 2, [own])
    better = keepers_by_stars(5)[0]
    on_top(game, better, "box7")
    st, _ = land_on(game, 2, square("keeper"))
    st, _ = answer(st, "buy", {"buy": True})
    prompt = only_prompt(st, "return_card", 2)
    assert prompt.options["kind"] == "keeper"
    assert {c["card"] for c in prompt.choices} == {own, better} and prompt.default == {"card": own}
    st, _ = answer(st, "return_card")
    assert team(st, 2) == [better] and st.piles["box3"][0] == own


def test_risk_over_the_limit_also_asks_for_a_return(game):
    make_trainer_team(game, 3, fields_by_stars(2)[:11])
    st, _ev = land_on(game, 3, square("risk"))
    prompt = only_prompt(st, "return_card", 3)
    assert len(prompt.choices) == 12
    st, _ = answer(st, "return_card")
    assert len(team(st, 3)) == 11


# ---------------------------------------------------------------------------------- R10 / R11


def test_r10_a_bc_who_cannot_pay_is_fired_compensated_and_then_pays(game):
    match_cards = _five_match_cards(game)[:3]
    country = countries_of_class(6)[0]
    make_bc(game, 1, HOME, country, match_cards=match_cards)
    players = team(game, 1)
    keeper = next(c for c in players if c[0] == "K")
    set_money(game, 1, 50_000)
    st, ev = land_on(game, 1, square("training"))
    assert transfers(ev) == [(BANK, "p1", 1_500_000, "compensation"), ("p1", BONUS, 100_000, "training")]
    fired = of_kind(ev, "bc_fired")[0].payload
    assert fired == {"seat": 1, "country": country, "cause": "training", "compensation": 1_500_000}
    assert money(st, 1) == 50_000 + 1_500_000 - 100_000
    assert st.seats[1].role == "trainer" and team(st, 1) == [] and not st.piles[holding_key(1)]
    # players back to the Official, keeper under box 3, match cards under the match stack (R11)
    assert set(players) - {keeper} <= set(st.piles["official_fields"][: len(players)])
    assert st.piles["box3"][0] == keeper
    assert set(st.piles["box2"][:3]) == set(match_cards)
    # the contract is turned back: the country stays on the board, uncontracted
    assert st.squares[HOME].status == "qualified" and st.squares[HOME].coach is None
    assert st.on_square[HOME] == country


def test_r10_a_bc_fired_over_a_visit_fee_pays_the_fee_to_the_coach(game):
    make_bc(game, 1, HOME, countries_of_class(7)[0])
    make_bc(game, 2, CAT.board.country_squares[1], countries_of_class(6)[0])
    set_money(game, 2, 100_000)
    st, ev = land_on(game, 2, HOME)
    assert transfers(ev) == [(BANK, "p2", 1_500_000, "compensation"), ("p2", "p1", 140_000, "visit_fee")]
    assert st.seats[2].role == "trainer"


def test_r10_a_trainer_pays_what_he_has_and_the_rest_is_waived(game):
    set_money(game, 3, 30_000)
    st, ev = land_on(game, 3, square("training"))
    assert transfers(ev) == [("p3", BONUS, 30_000, "training")]
    assert of_kind(ev, "payment_waived")[0].payload == {"seat": 3, "amount": 70_000, "reason": "training"}
    assert money(st, 3) == 0


def test_r10_a_trainer_with_nothing_pays_nothing(game):
    set_money(game, 3, 0)
    st, ev = land_on(game, 3, square("risk"))
    assert transfers(ev) == []
    assert of_kind(ev, "payment_waived")[0].payload["amount"] == 400_000
    assert len(team(st, 3)) == 1  # he still takes the card


def test_r10_a_bc_paying_every_other_participant_is_fired_at_the_first_payment_he_cannot_make(game):
    make_bc(game, 4, HOME, countries_of_class(5)[0])
    set_money(game, 4, 60_000)
    on_top(game, "G21", "box4")  # pay 50,000 to every other participant
    st, ev = land_on(game, 4, square("money"))
    assert [t[3] for t in transfers(ev)] == [
        "money_card:G21",
        "compensation",
        "money_card:G21",
        "money_card:G21",
    ]
    assert money(st, 4) == 60_000 + 1_500_000 - 150_000 and st.seats[4].role == "trainer"


def test_r11_a_fired_bc_who_becomes_trainer_holds_no_match_cards(game):
    make_bc(game, 1, HOME, countries_of_class(6)[0], match_cards=_five_match_cards(game))
    set_money(game, 1, 0)
    st, _ = land_on(game, 1, square("debet"))
    assert st.piles[holding_key(1)] == [] and len(st.piles["box2"]) == 40


def test_r9c_risk_with_no_field_player_left_costs_nothing(game):
    for card in list(game.piles["official_fields"]) + list(game.piles["box1"]) + game.piles["box5"][:-1]:
        move_card(game, card, "out")
    st, ev = land_on(game, 2, square("risk"))
    assert transfers(ev) == [] and "field_stack_empty" in kinds(ev)
    assert money(st, 2) == START_CAPITAL


# ---------------------------------------------------------------------------------------- R3


def _start(seats, seed):
    st = lobby(seats, seed)
    return act(st, HOST, {"type": "start"})


@pytest.mark.parametrize("seed", range(40))
def test_r3_highest_roll_starts_ties_reroll_among_themselves_then_seat_order(seed):
    seats = 2 + seed % 7
    st, ev = _start(seats, seed)
    rounds = [e.payload for e in of_kind(ev, "order_roll")]
    contenders = list(range(1, seats + 1))
    for r, payload in enumerate(rounds, start=1):
        assert payload["round"] == r
        assert sorted(int(s) for s in payload["rolls"]) == contenders  # only the tied re-roll
        top = max(payload["rolls"].values())
        contenders = [int(s) for s, v in payload["rolls"].items() if v == top]
    assert len(contenders) == 1
    first = contenders[0]
    order = [*range(first, seats + 1), *range(1, first)]
    assert st.turn_order == order
    assert of_kind(ev, "turn_order")[0].payload == {"order": order}
    assert only_prompt(st, "roll").seat == first


def test_r3_some_seed_needs_a_reroll():
    rerolled = [seed for seed in range(40) if len(of_kind(_start(2 + seed % 7, seed)[1], "order_roll")) > 1]
    assert rerolled  # the tie branch is exercised by the test above


def test_start_lays_out_money_decks_and_boxes():
    st, ev = _start(5, 9)
    assert all(money(st, s) == START_CAPITAL for s in range(1, 6))
    assert sum(st.accounts.values()) == 1_000_000_000
    assert len(st.piles["box1"]) + len(st.piles["official_fields"]) + len(st.piles["box5"]) == 103
    assert abs(len(st.piles["box1"]) + 1 - len(st.piles["official_fields"])) <= 1  # "circa de helft"
    assert len(st.piles["box5"]) == 1 and len(st.piles["box7"]) == 1 and len(st.piles["box3"]) == 32
    assert (
        len(st.piles["box2"]) == 40 and len(st.piles["box4"]) == 22 and len(st.piles["official_rivals"]) == 22
    )
    assert len(st.piles["official_countries"]) == 32
    assert st.pawn == 0 and st.phase == "phase1" and st.status == "running"
    assert [e.payload["box"] for e in of_kind(ev, "card_turned_up")] == ["box5", "box7"]
    other, _ = _start(5, 10)
    assert other.piles["box1"] != st.piles["box1"]  # shuffled from the game's seed
    again, _ = _start(5, 9)
    assert again.piles == st.piles  # … and only from it
