"""Every square kind of the track in phase 1 (digest §3, seed "WE GAAN HET VELD VERKENNEN"), R4, R5, R7, R8.

Each test puts a game in a chosen position, lets one participant land on one square through
``board.land`` and checks balances, where the cards went and the events.
"""

from __future__ import annotations

import pytest
from helpers import (
    CAT,
    answer,
    countries_of_class,
    fields_by_stars,
    keepers_by_stars,
    kinds,
    land_on,
    make_bc,
    make_trainer_team,
    money,
    of_kind,
    on_top,
    only_prompt,
    qualify,
    set_bonus,
    set_money,
    square,
    started,
    team,
    transfers,
)

from cards.catalog import SquareKind
from tournament.rules import board
from tournament.rules.events import Actor, Ctx
from tournament.rules.state import BANK, BONUS, holding_key

START_CAPITAL = 2_440_000


@pytest.fixture
def game():
    """Four participants, phase 1, nobody has moved yet."""
    return started(4, seed=7)


def test_the_track_has_every_square_kind_and_sixteen_country_squares():
    kinds_on_track = {s.kind for s in CAT.board.squares}
    assert kinds_on_track == set(SquareKind)
    assert len(CAT.board.country_squares) == 16
    assert CAT.board.squares[0].kind is SquareKind.START


# ------------------------------------------------------------------------------ Start & Bonus


def test_landing_exactly_on_start_takes_the_whole_bonus_fund(game):
    set_bonus(game, 350_000)
    st, ev = land_on(game, 1, 0)
    assert transfers(ev) == [(BONUS, "p1", 350_000, "bonus_fund")]
    assert money(st, 1) == START_CAPITAL + 350_000
    assert st.accounts[BONUS] == 0


def test_start_with_an_empty_bonus_fund_pays_nothing(game):
    _st, ev = land_on(game, 1, 0)
    assert transfers(ev) == []
    assert "bonus_fund_empty" in kinds(ev)


def test_r4_passing_start_pays_nothing(game):
    set_bonus(game, 350_000)
    st = game.clone()
    st.prompts = []
    st.stage = "resolving"
    st.pawn = 37
    ctx = Ctx(st, CAT, Actor("seat", 1))
    board.move_pawn(ctx, 1, 5)  # 38, 39, 0, 1, 2: over Start onto a field-player square
    assert st.pawn == 2
    moved = of_kind(ctx.events, "pawn_moved")[0].payload
    assert moved["path"] == [38, 39, 0, 1, 2]
    assert not [t for t in transfers(ctx.events) if t[3] == "bonus_fund"]
    assert st.accounts[BONUS] == 350_000


# ---------------------------------------------------------------------------- money squares


def test_training_pays_100000_into_the_bonus_fund(game):
    st, ev = land_on(game, 2, square("training"))
    assert transfers(ev) == [("p2", BONUS, 100_000, "training")]
    assert money(st, 2) == START_CAPITAL - 100_000 and st.accounts[BONUS] == 100_000


def test_credit_rolls_again_and_the_bank_pays_the_roll_times_50000(game):
    for counter in range(6):  # several second rolls: the amount always follows the die
        st, ev = land_on(game, 2, square("credit"), rng_counter=game.rng_counter + counter)
        die = of_kind(ev, "second_roll")[0].payload["die"]
        assert 1 <= die <= 6
        assert transfers(ev) == [(BANK, "p2", die * 50_000, "credit")]
        assert money(st, 2) == START_CAPITAL + die * 50_000


def test_debet_rolls_again_and_pays_the_roll_times_50000_into_the_bonus_fund(game):
    seen = set()
    for counter in range(12):
        st, ev = land_on(game, 3, square("debet"), rng_counter=game.rng_counter + counter)
        die = of_kind(ev, "second_roll")[0].payload["die"]
        seen.add(die)
        assert transfers(ev) == [("p3", BONUS, die * 50_000, "debet")]
        assert st.accounts[BONUS] == die * 50_000
    assert len(seen) > 1  # the second roll really is a roll


# ----------------------------------------------------------------------- field player / keeper


def test_field_square_buy_the_open_card_and_the_next_one_is_turned_up(game):
    card = fields_by_stars(4)[0]
    on_top(game, card, "box5")
    next_blind = game.piles["box1"][-1]
    st, ev = land_on(game, 1, square("field"))
    prompt = only_prompt(st, "buy", 1)
    assert prompt.options == {"card": card, "price": 400_000, "kind": "field"}
    assert prompt.choices == [{"buy": True}, {"buy": False}]
    st, ev = answer(st, "buy", {"buy": True})
    assert transfers(ev) == [("p1", BANK, 400_000, "purchase")]
    assert team(st, 1) == [card]  # even a trainer may buy (seed 6: "ook al is hij nog geen BC")
    assert st.piles["box5"][-1] == next_blind  # "Leg altijd de volgende Veldspelers-kaart open"
    assert of_kind(ev, "card_turned_up")[0].payload == {"box": "box5", "card": next_blind}
    assert money(st, 1) == START_CAPITAL - 400_000


def test_field_square_declined_the_next_card_is_turned_up_anyway(game):
    card = game.piles["box5"][-1]
    next_blind = game.piles["box1"][-1]
    st, _ = land_on(game, 1, square("field"))
    st, ev = answer(st, "buy", {"buy": False})
    assert team(st, 1) == []
    assert st.piles["box5"][-2:] == [card, next_blind]
    assert "declined" in kinds(ev) and transfers(ev) == []


def test_field_square_without_the_money_offers_nothing_but_turns_up_the_next_card(game):
    card = fields_by_stars(6)[0]
    on_top(game, card, "box5")
    set_money(game, 1, 500_000)
    st, ev = land_on(game, 1, square("field"))
    assert not [p for p in st.prompts if p.kind == "buy"]  # R10: an optional purchase needs the money
    assert of_kind(ev, "cannot_afford")[0].payload["amount"] == 600_000
    assert st.piles["box5"][-2] == card and money(st, 1) == 500_000


def test_keeper_square_buy_the_open_keeper_and_the_next_one_is_turned_up(game):
    keeper = keepers_by_stars(5)[0]
    on_top(game, keeper, "box7")
    next_blind = game.piles["box3"][-1]
    st, _ = land_on(game, 4, square("keeper"))
    assert only_prompt(st, "buy", 4).options == {"card": keeper, "price": 500_000, "kind": "keeper"}
    st, ev = answer(st, "buy", {"buy": True})
    assert team(st, 4) == [keeper]
    assert st.piles["box7"][-1] == next_blind
    assert transfers(ev) == [("p4", BANK, 500_000, "purchase")]


def test_keeper_square_declined(game):
    keeper = game.piles["box7"][-1]
    st, _ = land_on(game, 4, square("keeper"))
    st, ev = answer(st, "buy", {"buy": False})
    assert team(st, 4) == [] and st.piles["box7"][-2] == keeper
    assert of_kind(ev, "card_turned_up")[0].payload["box"] == "box7"


# ------------------------------------------------------------------------------------- risk


def test_risk_pays_400000_to_the_bank_and_takes_the_top_blind_card(game):
    top = game.piles["box1"][-1]
    st, ev = land_on(game, 2, square("risk"))
    assert transfers(ev) == [("p2", BANK, 400_000, "risk")]
    assert team(st, 2) == [top]
    private = of_kind(ev, "card_received")[0]
    assert private.audience == (2,) and private.payload["card"] == top  # only he sees which card
    public = of_kind(ev, "blind_card_taken")[0]
    assert public.audience is None and "card" not in public.payload


# ------------------------------------------------------------------------------------- luck


def test_luck_offers_every_square_except_luck_squares_r5a(game):
    st, _ = land_on(game, 1, square("luck"))
    prompt = only_prompt(st, "luck", 1)
    offered = {c["square"] for c in prompt.choices}
    luck = {s.index for s in CAT.board.squares if s.kind is SquareKind.LUCK}
    assert offered == set(range(len(CAT.board.squares))) - luck
    assert prompt.default in prompt.choices


def test_luck_the_chosen_square_then_acts_r5(game):
    st, _ = land_on(game, 1, square("luck"))
    st, ev = answer(st, "luck", {"square": square("training")})
    assert st.pawn == square("training")
    assert of_kind(ev, "pawn_moved")[0].payload["jump"] is True
    assert transfers(ev) == [("p1", BONUS, 100_000, "training")]


def test_luck_onto_start_takes_the_bonus_fund_r5(game):
    set_bonus(game, 200_000)
    st, _ = land_on(game, 1, square("luck"))
    st, ev = answer(st, "luck", {"square": 0})
    assert transfers(ev) == [(BONUS, "p1", 200_000, "bonus_fund")]


def test_luck_onto_a_qualified_country_offers_the_contract(game):
    idx = CAT.board.country_squares[2]
    country = countries_of_class(5)[0]
    qualify(game, idx, country)
    st, _ = land_on(game, 1, square("luck"))
    st, _ = answer(st, "luck", {"square": idx})
    prompt = only_prompt(st, "contract", 1)
    assert prompt.options == {"country": country, "cost": 500_000, "square": idx}


# ------------------------------------------------------------------------------------ match


def test_match_square_a_bc_takes_the_top_match_card(game):
    make_bc(game, 1, CAT.board.country_squares[0], countries_of_class(6)[0])
    top = game.piles["box2"][-1]
    st, ev = land_on(game, 1, square("match"))
    assert st.piles[holding_key(1)] == [top]
    assert of_kind(ev, "card_received")[0].audience == (1,)
    assert of_kind(ev, "match_card_taken")[0].audience is None


def test_match_square_a_trainer_gets_nothing(game):
    box2 = list(game.piles["box2"])
    st, ev = land_on(game, 1, square("match"))
    assert st.piles["box2"] == box2 and not st.piles.get(holding_key(1))
    assert of_kind(ev, "nothing_happens")[0].payload["reason"] == "trainer_match_square"


# ------------------------------------------------------------------------------------ money


def test_money_square_takes_the_top_money_card_executes_it_and_puts_it_under_the_stack_r6(game):
    on_top(game, "G01", "box4")
    st, ev = land_on(game, 3, square("money"))
    assert of_kind(ev, "money_card")[0].payload == {"seat": 3, "card": "G01"}
    assert of_kind(ev, "money_card")[0].audience is None  # shown to all
    assert st.piles["box4"][0] == "G01"
    assert money(st, 3) == START_CAPITAL + 200_000


# ---------------------------------------------------------------------------------- country


def test_empty_country_square_is_qualified_and_cannot_be_contracted_on_this_visit(game):
    idx = CAT.board.country_squares[3]
    top = game.piles["official_countries"][-1]
    st, ev = land_on(game, 2, idx)
    assert st.on_square[idx] == top and st.squares[idx].status == "qualified"
    assert of_kind(ev, "country_qualified")[0].payload == {"seat": 2, "square": idx, "country": top}
    assert not [p for p in st.prompts if p.kind == "contract"]  # "Je mag (nog) geen BC worden"
    assert transfers(ev) == []


def test_qualified_country_declined_takes_a_money_card(game):
    idx = CAT.board.country_squares[3]
    qualify(game, idx, countries_of_class(4)[0])
    on_top(game, "G13", "box4")
    st, _ = land_on(game, 2, idx)
    st, ev = answer(st, "contract", {"contract": False})
    assert st.squares[idx].status == "qualified" and st.seats[2].role == "trainer"
    assert of_kind(ev, "money_card")[0].payload["card"] == "G13"
    assert money(st, 2) == START_CAPITAL - 100_000


def test_a_trainer_who_cannot_pay_the_entry_takes_a_money_card(game):
    idx = CAT.board.country_squares[3]
    qualify(game, idx, countries_of_class(7)[0])
    set_money(game, 2, 650_000)
    on_top(game, "G03", "box4")
    st, ev = land_on(game, 2, idx)
    assert not [p for p in st.prompts if p.kind == "contract"]
    assert of_kind(ev, "cannot_afford")[0].payload["amount"] == 700_000
    assert of_kind(ev, "money_card")[0].payload["card"] == "G03"


def test_r7_a_bc_landing_on_an_uncontracted_country_takes_a_money_card(game):
    make_bc(game, 1, CAT.board.country_squares[0], countries_of_class(6)[0])
    idx = CAT.board.country_squares[5]
    qualify(game, idx, countries_of_class(5)[0])
    on_top(game, "G02", "box4")
    st, ev = land_on(game, 1, idx)
    assert "already_coach" in kinds(ev)
    assert of_kind(ev, "money_card")[0].payload["card"] == "G02"
    assert st.squares[idx].status == "qualified"
    assert [p.kind for p in st.prompts] == ["roll"]  # no contract offered, the turn is over


def test_own_country_takes_a_money_card(game):
    idx = CAT.board.country_squares[0]
    make_bc(game, 1, idx, countries_of_class(6)[0])
    on_top(game, "G05", "box4")
    _st, ev = land_on(game, 1, idx)
    assert "own_country" in kinds(ev)
    assert transfers(ev) == [(BANK, "p1", 300_000, "money_card:G05")]


@pytest.mark.parametrize("klass,fee", [(7, 140_000), (6, 120_000), (5, 100_000), (4, 80_000), (3, 60_000)])
def test_r8_visit_fee_goes_to_the_bc_holding_the_contract(klass, fee):
    game = started(4, seed=7)
    idx = CAT.board.country_squares[1]
    make_bc(game, 1, idx, countries_of_class(klass)[0])
    st, ev = land_on(game, 3, idx)
    assert transfers(ev) == [("p3", "p1", fee, "visit_fee")]
    assert money(st, 1) == START_CAPITAL + fee and money(st, 3) == START_CAPITAL - fee


def test_r8_house_rule_visit_fee_goes_to_the_bank():
    game = started(4, seed=7, visit_fee_to="bank")
    idx = CAT.board.country_squares[1]
    make_bc(game, 1, idx, countries_of_class(7)[0])
    st, ev = land_on(game, 3, idx)
    assert transfers(ev) == [("p3", BANK, 140_000, "visit_fee")]
    assert money(st, 1) == START_CAPITAL


def test_a_bc_visiting_another_bc_pays_the_fee_too(game):
    make_bc(game, 1, CAT.board.country_squares[1], countries_of_class(7)[0])
    make_bc(game, 2, CAT.board.country_squares[2], countries_of_class(6)[0])
    _st, ev = land_on(game, 2, CAT.board.country_squares[1])
    assert transfers(ev) == [("p2", "p1", 140_000, "visit_fee")]


def test_a_purchase_over_the_team_limit_asks_which_card_to_give_back(game):
    eleven = fields_by_stars(2)[:6] + fields_by_stars(3)[:5]
    make_trainer_team(game, 1, eleven)
    star6 = fields_by_stars(6)[0]
    on_top(game, star6, "box5")
    st, _ = land_on(game, 1, square("field"))
    st, _ = answer(st, "buy", {"buy": True})
    prompt = only_prompt(st, "return_card", 1)
    assert {c["card"] for c in prompt.choices} == {*eleven, star6}
    assert CAT.player(prompt.default["card"]).stars == 2  # default: the weakest
    assert st.piles["selection:1"] == [star6] and len(team(st, 1)) == 11
    giving_back = fields_by_stars(3)[0]
    st, ev = answer(st, "return_card", {"card": giving_back})
    assert len(team(st, 1)) == 11 and star6 in team(st, 1) and giving_back not in team(st, 1)
    assert st.piles["official_fields"][0] == giving_back  # R9a: under the Official's stack
    assert of_kind(ev, "card_returned")[0].payload == {"seat": 1, "card": giving_back}
