"""Every one of the 22 money cards executes its effect (digest §3 Money, R6; catalog effect vocabulary).

Each card is put on top of box 4, seat 2 lands on a Money square; the test checks the balances of
everybody involved, where the pawn and the cards went, and that the card went under the stack (R6).
"""

from __future__ import annotations

import pytest
from helpers import (
    CAT,
    answer,
    fields_by_stars,
    keepers_by_stars,
    land_on,
    make_bc,
    money,
    of_kind,
    on_top,
    only_prompt,
    set_bonus,
    set_money,
    square,
    started,
    transfers,
)

from tournament.rules.state import BANK, BONUS

START_CAPITAL = 2_440_000
ME = 2
OTHERS = (1, 3, 4)
TEAM_FIELD = fields_by_stars(5)[:3] + fields_by_stars(3)[:2]  # 21 stars
TEAM_KEEPER = keepers_by_stars(4)[0]  # 4 stars
BONUS_FUND = 314_000  # half is 157,000: rounded down to 155,000


def _cards_of(kind: str) -> list[str]:
    return [cid for cid, c in CAT.money_cards.items() if c.effect.kind == kind]


def test_the_catalog_has_22_money_cards_and_every_effect_is_tested_here():
    assert len(CAT.money_cards) == 22
    tested = {
        "bank_pays",
        "pay_bank",
        "pay_bonus",
        "collect_from_each",
        "pay_each",
        "pay_per_player",
        "bank_pays_per_star",
        "bonus_share",
        "goto",
    }
    assert {c.effect.kind for c in CAT.money_cards.values()} <= tested


@pytest.fixture
def game():
    st = started(4, seed=11)
    make_bc(st, ME, CAT.board.country_squares[0], "NED", field_cards=TEAM_FIELD, keeper=TEAM_KEEPER)
    set_bonus(st, BONUS_FUND)
    return st


def _draw(game, card):
    on_top(game, card, "box4")
    before = dict(game.accounts)
    st, ev = land_on(game, ME, square("money"))
    shown = of_kind(ev, "money_card")
    assert [e.payload for e in shown][:1] == [{"seat": ME, "card": card}]
    assert shown[0].audience is None  # "leest deze hardop voor"
    assert st.piles["box4"][0] == card  # R6: under the money stack
    assert len(st.piles["box4"]) == 22
    return before, st, ev


def _delta(before, st, key):
    return st.accounts[key] - before[key]


@pytest.mark.parametrize("card", _cards_of("bank_pays"))
def test_bank_pays(game, card):
    amount = CAT.money_cards[card].effect.params["amount"]
    before, st, ev = _draw(game, card)
    assert transfers(ev) == [(BANK, "p2", amount, f"money_card:{card}")]
    assert _delta(before, st, "p2") == amount


@pytest.mark.parametrize("card", _cards_of("pay_bank"))
def test_pay_bank(game, card):
    amount = CAT.money_cards[card].effect.params["amount"]
    before, st, ev = _draw(game, card)
    assert transfers(ev) == [("p2", BANK, amount, f"money_card:{card}")]
    assert _delta(before, st, BANK) == amount


@pytest.mark.parametrize("card", _cards_of("pay_bonus"))
def test_pay_bonus(game, card):
    amount = CAT.money_cards[card].effect.params["amount"]
    _before, st, ev = _draw(game, card)
    assert transfers(ev) == [("p2", BONUS, amount, f"money_card:{card}")]
    assert st.accounts[BONUS] == BONUS_FUND + amount


@pytest.mark.parametrize("card", _cards_of("collect_from_each"))
def test_collect_from_each(game, card):
    amount = CAT.money_cards[card].effect.params["amount"]
    before, st, ev = _draw(game, card)
    assert sorted(transfers(ev)) == sorted((f"p{o}", "p2", amount, f"money_card:{card}") for o in OTHERS)
    assert _delta(before, st, "p2") == 3 * amount
    assert all(_delta(before, st, f"p{o}") == -amount for o in OTHERS)


@pytest.mark.parametrize("card", _cards_of("pay_each"))
def test_pay_each(game, card):
    amount = CAT.money_cards[card].effect.params["amount"]
    before, st, ev = _draw(game, card)
    assert sorted(transfers(ev)) == sorted(("p2", f"p{o}", amount, f"money_card:{card}") for o in OTHERS)
    assert _delta(before, st, "p2") == -3 * amount
    assert all(_delta(before, st, f"p{o}") == amount for o in OTHERS)


@pytest.mark.parametrize("card", _cards_of("pay_per_player"))
def test_pay_per_player_counts_field_players_and_the_keeper(game, card):
    amount = CAT.money_cards[card].effect.params["amount"]
    _before, _st, ev = _draw(game, card)
    assert transfers(ev) == [("p2", BANK, 6 * amount, f"money_card:{card}")]


@pytest.mark.parametrize("card", _cards_of("bank_pays_per_star"))
def test_bank_pays_per_star_of_the_team(game, card):
    amount = CAT.money_cards[card].effect.params["amount"]
    _before, _st, ev = _draw(game, card)
    assert transfers(ev) == [(BANK, "p2", 25 * amount, f"money_card:{card}")]


@pytest.mark.parametrize("card", _cards_of("bonus_share"))
def test_bonus_share_rounds_down_to_5000(game, card):
    percent = CAT.money_cards[card].effect.params["percent"]
    share = BONUS_FUND * percent // 100 // 5_000 * 5_000
    _before, st, ev = _draw(game, card)
    assert transfers(ev) == [(BONUS, "p2", share, f"money_card:{card}")]
    assert st.accounts[BONUS] == BONUS_FUND - share


@pytest.mark.parametrize("card", _cards_of("goto"))
def test_goto_moves_forward_to_the_next_square_of_its_kind_which_then_acts(game, card):
    target = CAT.money_cards[card].effect.params["square"]
    money_square = square("money")
    _before, st, ev = _draw(game, card)
    n = len(CAT.board.squares)
    dst = next(
        (money_square + k) % n
        for k in range(1, n + 1)
        if CAT.board.squares[(money_square + k) % n].kind.value == target
    )
    moved = [e.payload for e in of_kind(ev, "pawn_moved")]
    assert moved[-1]["src"] == money_square and moved[-1]["dst"] == dst
    assert of_kind(ev, "landed")[-1].payload["square"] == dst
    if target == "start":
        assert transfers(ev) == [(BONUS, "p2", BONUS_FUND, "bonus_fund")]
    elif target == "training":
        assert transfers(ev) == [("p2", BONUS, 100_000, "training")]
    elif target == "field":
        prompt = only_prompt(st, "buy", ME)
        assert prompt.options["card"] == st.piles["box5"][-1]
        st, _ = answer(st, "buy", {"buy": False})
    else:
        raise AssertionError(f"no expectation for goto {target}")


def test_a_trainer_who_cannot_pay_a_money_card_pays_what_he_has_r10(game):
    set_money(game, 3, 40_000)
    on_top(game, "G12", "box4")  # pay 200,000 to the Bank
    st, ev = land_on(game, 3, square("money"))
    assert transfers(ev) == [("p3", BANK, 40_000, "money_card:G12")]
    assert of_kind(ev, "payment_waived")[0].payload == {
        "seat": 3,
        "amount": 160_000,
        "reason": "money_card:G12",
    }
    assert money(st, 3) == 0 and st.seats[3].role == "trainer"


def test_collect_from_a_trainer_who_cannot_pay_waives_the_rest(game):
    set_money(game, 4, 10_000)
    on_top(game, "G06", "box4")  # every other participant pays 50,000
    before, st, ev = dict(game.accounts), *land_on(game, ME, square("money"))
    assert ("p4", "p2", 10_000, "money_card:G06") in transfers(ev)
    assert money(st, 4) == 0 and st.accounts["p2"] - before["p2"] == 110_000


def test_a_goto_chain_is_stopped_after_eight_moves():
    """The catalog vocabulary allows "goto money"; a stack of such cards would chain for ever, so the
    rules stop after MAX_CHAIN moves (the real catalog has no such card)."""
    from dataclasses import replace

    from cards.catalog import Effect
    from tournament.rules.board import MAX_CHAIN

    cards = {
        cid: replace(c, effect=Effect("goto", {"square": "money"})) for cid, c in CAT.money_cards.items()
    }
    cat = replace(CAT, money_cards=cards)
    st = started(3, seed=5, cat=cat)
    st, ev = land_on(st, 1, square("money"), cat=cat)
    assert len(of_kind(ev, "money_card")) == MAX_CHAIN + 1
    assert [e.kind for e in ev].count("chain_stopped") == 1
    assert transfers(ev) == []  # nothing was paid
    money_squares = [sq.index for sq in CAT.board.squares if sq.kind.value == "money"]
    assert all(e.payload["dst"] in money_squares for e in of_kind(ev, "pawn_moved"))
