"""Becoming BC (seed FASE 1 step 3, R9, R9a, R9b) and the end of phase 1."""

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
    move_card,
    of_kind,
    only_prompt,
    qualify,
    refused,
    seat,
    started,
    team,
    transfers,
)

from tournament.rules.state import BANK, team_key

START_CAPITAL = 2_440_000
IDX = CAT.board.country_squares[4]


def _offer(st, seat_no, country):
    qualify(st, IDX, country)
    st, _ = land_on(st, seat_no, IDX)
    return st


@pytest.mark.parametrize("klass", [7, 6, 5, 4, 3])
def test_contracting_pays_class_times_100000_and_the_official_deals_the_class_selection(klass):
    row = CAT.classes[klass]
    game = started(3, seed=5)
    country = countries_of_class(klass)[0]
    official_top = game.piles["official_fields"][-row.field_dealt :]
    keeper_top = game.piles["box3"][-1]
    st = _offer(game, 2, country)
    prompt = only_prompt(st, "contract", 2)
    assert prompt.default == {"contract": True}
    st, ev = answer(st, "contract", {"contract": True})
    assert transfers(ev)[0] == ("p2", BANK, klass * 100_000, "entry_fee")
    assert st.squares[IDX].status == "contracted" and st.squares[IDX].coach == 2
    assert st.seats[2].role == "bc" and st.country_of(2) == country
    came = of_kind(ev, "became_coach")[0]
    assert came.audience is None and came.payload["dealt"] == row.selection  # e.g. class 6: 15 + 1 = 16
    dealt = of_kind(ev, "cards_dealt")[0]
    assert dealt.audience == (2,)  # only the new BC sees his cards
    assert sorted(dealt.payload["cards"]) == sorted([*official_top, keeper_top])
    sel = only_prompt(st, "keep_selection", 2)
    assert sel.options["keep_field"] == 11 and len(sel.options["field"]) == row.field_dealt
    assert sel.options["keepers"] == [keeper_top]
    # default: the strongest 11 and the keeper (R9 "de 11 beste Veldspelers")
    st, ev = answer(st, "keep_selection")
    kept = [c for c in team(st, 2) if c[0] == "F"]
    returned = [c for c in official_top if c not in kept]
    assert len(kept) == 11 and len(returned) == row.field_returned
    assert min(CAT.player(c).stars for c in kept) >= max((CAT.player(c).stars for c in returned), default=0)
    assert keeper_top in team(st, 2)
    # R9a: the surplus goes under the Official's stack
    assert sorted(st.piles["official_fields"][: len(returned)]) == sorted(returned)
    assert of_kind(ev, "selection_kept")[0].payload == {"seat": 2, "returned": row.field_returned}
    assert money(st, 2) == START_CAPITAL - klass * 100_000
    assert not st.piles.get("selection:2")


def test_the_new_bc_may_keep_weaker_players_of_his_choice():
    game = started(3, seed=5)
    st = _offer(game, 1, "NED")
    st, _ = answer(st, "contract", {"contract": True})
    sel = only_prompt(st, "keep_selection", 1)
    weakest_first = sorted(sel.options["field"], key=lambda c: (CAT.player(c).stars, c))[:11]
    st, _ = answer(st, "keep_selection", {"field": weakest_first, "keeper": sel.options["keepers"][0]})
    assert sorted(c for c in team(st, 1) if c[0] == "F") == sorted(weakest_first)


def test_players_bought_as_trainer_join_the_selection():
    game = started(3, seed=5)
    bought = fields_by_stars(6)[:2] + keepers_by_stars(5)[:1]
    make_trainer_team(game, 1, bought)
    st = _offer(game, 1, countries_of_class(4)[0])
    st, _ = answer(st, "contract", {"contract": True})
    sel = only_prompt(st, "keep_selection", 1)
    assert set(bought[:2]) <= set(sel.options["field"]) and len(sel.options["field"]) == 13 + 2
    assert bought[2] in sel.options["keepers"] and len(sel.options["keepers"]) == 2
    assert sel.default["keeper"] == bought[2]  # the 5-star keeper he bought beats a dealt one or ties
    st, _ = answer(st, "keep_selection")
    assert set(bought) <= set(team(st, 1))
    returned_keeper = next(k for k in sel.options["keepers"] if k != bought[2])
    assert st.piles["box3"][0] == returned_keeper  # keepers go under box 3


def test_keep_selection_refuses_a_wrong_selection_and_nothing_changes():
    game = started(3, seed=5)
    st = _offer(game, 1, "NED")
    st, _ = answer(st, "contract", {"contract": True})
    sel = only_prompt(st, "keep_selection", 1)
    field, keeper = sel.options["field"], sel.options["keepers"][0]

    def bad(choice):
        return refused(st, seat(1), {"type": "answer", "prompt": sel.id, "choice": choice})

    assert bad({"field": field[:10], "keeper": keeper}).code == "illegal_choice"  # 10, not 11
    assert bad({"field": [*field[:10], field[0]], "keeper": keeper}).code == "illegal_choice"  # twice
    assert bad({"field": [*field[:10], "F999"], "keeper": keeper}).code == "illegal_choice"  # not offered
    assert bad({"field": field[:11], "keeper": "K99"}).code == "illegal_choice"
    assert bad({"field": field[:11]}).code == "illegal_choice"  # a keeper must be kept
    assert bad({"field": "F001", "keeper": keeper}).code == "malformed"
    assert bad({"field": [1, 2], "keeper": keeper}).code == "malformed"
    assert bad({"field": field[:11], "keeper": keeper, "extra": 1}).code == "malformed"


def test_r9a_the_official_deals_from_box1_when_his_half_runs_out():
    game = started(3, seed=5)
    official = list(game.piles["official_fields"])
    for card in official[:-4]:  # leave him four cards
        move_card(game, card, "box1", bottom=True)
    box1_top = game.piles["box1"][-12:]
    st = _offer(game, 1, countries_of_class(7)[0])
    st, ev = answer(st, "contract", {"contract": True})
    dealt = of_kind(ev, "cards_dealt")[0].payload["cards"]
    assert set(official[-4:]) <= set(dealt) and set(box1_top) <= set(dealt)
    assert len(dealt) == 17


def test_r9b_when_the_official_and_box1_are_empty_box5_is_reshuffled_into_box1():
    game = started(3, seed=5)
    for card in list(game.piles["official_fields"]) + list(game.piles["box1"]):
        move_card(game, card, "box5", bottom=True)
    open_top = game.piles["box5"][-1]
    st = _offer(game, 1, countries_of_class(7)[0])
    st, ev = answer(st, "contract", {"contract": True})
    reshuffled = of_kind(ev, "open_pile_reshuffled")[0].payload
    assert reshuffled["box"] == "box1" and reshuffled["source"] == "box5" and reshuffled["count"] == 102
    assert of_kind(ev, "became_coach")[0].payload["dealt"] == 17
    assert st.piles["box5"] == [open_top]  # the face-up card stays where it is


def test_when_no_field_player_is_left_anywhere_the_bc_gets_what_there_is():
    game = started(3, seed=5)
    spare = list(game.piles["official_fields"][-5:])
    for card in list(game.piles["official_fields"]) + list(game.piles["box1"]) + game.piles["box5"][:-1]:
        if card not in spare:
            move_card(game, card, "out")
    st = _offer(game, 1, countries_of_class(7)[0])
    st, ev = answer(st, "contract", {"contract": True})
    assert of_kind(ev, "became_coach")[0].payload["dealt"] == 6  # five field players and a keeper
    assert not [p for p in st.prompts if p.kind == "keep_selection"]  # nothing to choose from
    assert sorted(c for c in team(st, 1) if c[0] == "F") == sorted(spare)


def test_an_empty_keeper_stack_is_refilled_from_box7_r9b():
    game = started(3, seed=5)
    for card in list(game.piles["box3"]):
        move_card(game, card, "box7", bottom=True)
    st = _offer(game, 1, "NED")
    st, ev = answer(st, "contract", {"contract": True})
    assert of_kind(ev, "open_pile_reshuffled")[0].payload["box"] == "box3"
    sel = only_prompt(st, "keep_selection", 1)
    assert len(sel.options["keepers"]) == 1


def test_with_no_keeper_left_at_all_the_bc_is_dealt_field_players_only():
    game = started(3, seed=5)
    for card in list(game.piles["box3"]) + game.piles["box7"][:-1]:
        move_card(game, card, "out")
    st = _offer(game, 1, "NED")
    st, ev = answer(st, "contract", {"contract": True})
    assert of_kind(ev, "became_coach")[0].payload["dealt"] == 15
    sel = only_prompt(st, "keep_selection", 1)
    assert sel.options["keepers"] == [] and sel.default["keeper"] is None
    st, _ = answer(st, "keep_selection")
    assert len(team(st, 1)) == 11


def test_phase1_ends_at_the_end_of_the_turn_in_which_the_last_trainer_becomes_bc():
    game = started(2, seed=5)
    make_bc(game, 1, CAT.board.country_squares[0], countries_of_class(6)[0])
    st = _offer(game, 2, countries_of_class(5)[0])
    assert st.phase == "phase1"
    st, ev = answer(st, "contract", {"contract": True})
    assert st.phase == "phase1"  # still choosing his players: the turn is not over
    st, ev = answer(st, "keep_selection")
    assert "phase_over" in kinds(ev) and st.phase == "phase2"
    assert of_kind(ev, "phase_over")[0].payload == {"phase": "phase1"}
    assert st.pawn == 0  # phase 2 preparation: the pawn back on Start


def test_a_trainer_may_contract_only_one_country():
    game = started(3, seed=5)
    make_bc(game, 1, CAT.board.country_squares[0], countries_of_class(6)[0])
    st = _offer(game, 1, countries_of_class(5)[0])
    assert not [p for p in st.prompts if p.kind == "contract"]
    assert len(st.pile(team_key(1))) == 12


def test_eight_high_class_contracts_with_box1_turned_up_everyone_gets_a_full_team():
    """Box 1 emptied onto the open pile (a long phase 1), then 5 class-7 and 3 class-6 contracts: 125 field
    players dealt from a box of 103. The surplus goes back under the Official's stack (R9a) and box 5 is
    recycled (R9b), so every BC still chooses from a full class selection."""
    st = started(8, seed=9)
    for card in list(st.piles["box1"]):
        move_card(st, card, "box5", bottom=True)
    countries = countries_of_class(7) + countries_of_class(6)[:3]
    short = []
    for s, country in enumerate(countries, start=1):
        idx = CAT.board.country_squares[s]
        qualify(st, idx, country)
        st, _ = land_on(st, s, idx)
        st, ev = answer(st, "contract", {"contract": True})
        klass = CAT.countries[country].klass
        if of_kind(ev, "became_coach")[0].payload["dealt"] != CAT.classes[klass].selection:
            short.append(s)
        st, _ = answer(st, "keep_selection")
    assert short == []
    assert all(len([c for c in team(st, s) if c[0] == "F"]) == 11 for s in range(1, 9))
    assert all(len([c for c in team(st, s) if c[0] == "K"]) == 1 for s in range(1, 9))
    assert st.phase == "phase2"
