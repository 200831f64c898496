"""Phase 3, the finals (seed "FASE 3 DE FINALES"; R15, R16, R17, R18) and the Cup."""

from __future__ import annotations

import pytest
from helpers import (
    CAT,
    HOST,
    answer,
    finish_match_with,
    holding,
    kinds,
    money,
    move_card,
    of_kind,
    only_prompt,
    phase2,
    phase3,
    play_defaults,
    refused,
    seat,
    set_money,
    started,
    team,
    to_eight,
    transfers,
)

from tournament.rules import finals
from tournament.rules.events import Ctx
from tournament.rules.projection import Viewer, project
from tournament.rules.state import BANK, BONUS, holding_key

SQ = CAT.board.country_squares


# --------------------------------------------------------------------------------- settlement


def test_settlement_one_blind_field_player_per_full_500000_and_the_rest_to_the_bank_r15():
    st = phase2(3, seed=40, bcs=[1, 2])
    set_money(st, 1, 2_740_000)  # five cards, 240,000 left over
    set_money(st, 2, 499_999)  # no card
    st.accounts[BONUS] = 0
    to_eight(st)
    st.prompts = []
    top5 = st.piles["box1"][-5:]
    ctx = Ctx(st, CAT, HOST)
    finals.begin_phase3(ctx)
    ev = ctx.events
    settled = {e.payload["seat"]: e.payload for e in of_kind(ev, "settled")}
    assert settled[1] == {"seat": 1, "money": 2_740_000, "cards": 5}
    assert settled[2] == {"seat": 2, "money": 499_999, "cards": 0}
    assert ("p1", BANK, 2_740_000, "settlement") in transfers(ev)
    assert money(st, 1) == 0 and money(st, 2) == 0
    dealt = of_kind(ev, "cards_dealt")[0]
    assert dealt.audience == (1,) and sorted(dealt.payload["cards"]) == sorted(top5)
    # trainers are out, the Bank closes
    assert st.seats[3].out and "participant_out" in kinds(ev) and "bank_closed" in kinds(ev)
    assert st.accounts[BONUS] == 0 and sum(v for k, v in st.accounts.items() if k != BANK) == 0
    # R15: 16 field players now: keep 11 (default strongest), the surplus leaves the game
    prompt = only_prompt(st, "keep_selection", 1)
    assert prompt.options["reason"] == "settlement" and len(prompt.options["field"]) == 16
    st, _ev2 = answer(st, "keep_selection", seat_no=1)
    kept = [c for c in team(st, 1) if c[0] == "F"]
    returned = [c for c in prompt.options["field"] if c not in kept]
    assert len(kept) == 11 and len(returned) == 5 and set(returned) <= set(st.piles["out"])
    assert min(CAT.player(c).stars for c in kept) >= max(CAT.player(c).stars for c in returned)


def test_after_settlement_nobody_pays_anything_the_bank_is_closed():
    st, ev = phase3(4, seed=41, bcs=[1, 2, 3])
    closed = kinds(ev).index("bank_closed")
    st = play_defaults(st)
    assert st.status == "finished"
    assert all(e.kind != "transfer" for e in ev[closed + 1 :])
    assert sum(v for k, v in st.accounts.items() if k != BANK) == 0


# -------------------------------------------------------------------------------- placement


def test_r16_contracted_countries_first_in_an_order_drawn_by_lot_then_rivals_in_track_order():
    orders = set()
    for s in range(6):
        st, ev = phase3(4, seed=50 + s, bcs=[1, 2, 3])
        contracted = {st.finals[b] for b in (1, 2, 3)}
        assert contracted == {CAT.countries[c].id for c in contracted}
        assert {st.finals_coaches[b] for b in (1, 2, 3)} == {1, 2, 3}
        assert all(b not in st.finals_coaches for b in range(4, 9))
        placed = [e.payload for e in of_kind(ev, "finals_placed")]
        assert [p["box"] for p in placed] == list(range(1, 9))
        orders.add(tuple(st.finals_coaches[b] for b in (1, 2, 3)))
    assert len(orders) > 1  # drawn by lot with the game seed


def test_the_bracket_quarter_finals_1_5_2_6_3_7_4_8_then_ab_cd_and_the_final():
    st, _ = phase3(4, seed=42, bcs=[1, 2, 3])
    qf = {m.slot: (m.home.country, m.away.country) for m in st.matches if m.kind == "qf"}
    assert qf == {
        "A": (st.finals[1], st.finals[5]),
        "B": (st.finals[2], st.finals[6]),
        "C": (st.finals[3], st.finals[7]),
        "D": (st.finals[4], st.finals[8]),
    }
    later = [(m.kind, m.slot, m.home, m.away) for m in st.matches if m.kind in ("sf", "f")]
    assert later == [("sf", "AB", None, None), ("sf", "CD", None, None), ("f", "F", None, None)]


def _play_round_order(st, winners=None):
    """Finish every finals match (home wins unless ``winners`` says otherwise for a slot); return the
    slots in the order they were played."""
    played = []
    while st.status == "running":
        record = st.running_match
        if record is None:
            st, _ = answer(st, seat_no=st.prompts[0].seat)  # an AC choosing what to keep
            continue
        played.append((record.slot, record.home.role, record.away.role))
        st, _ = finish_match_with(st, (winners or {}).get(record.slot, "home"))
    return st, played


def test_rival_vs_rival_first_bc_vs_bc_last_in_every_round():
    st, _ = phase3(6, seed=43)  # six BCs: A and B are BC vs BC, C and D BC vs rival
    st, played = _play_round_order(st, winners={"C": "away"})
    assert [p[0] for p in played] == ["C", "D", "A", "B", "CD", "AB", "F"]
    assert played[4][1:] in (("ac", "bc"), ("bc", "ac"))  # the rival that won C plays before AB (BC vs BC)
    st2, _ = phase3(3, seed=44, bcs=[1, 2, 3])  # boxes 4-8 rivals: D is rival vs rival
    st2, played2 = _play_round_order(st2)
    assert played2[0][0] == "D" and played2[0][1:] != ("bc", "bc")


def test_r17_acs_by_highest_roll_among_bcs_not_playing_and_three_cards_each_for_rival_vs_rival():
    st, ev = phase3(4, seed=45, bcs=[1, 2, 3])
    record = st.running_match
    assert record.slot == "D" and record.home.role == "ac" and record.away.role == "ac"
    assert {record.home.seat, record.away.seat} <= {1, 2, 3}
    assert record.home.seat != record.away.seat  # two different ACs
    dealt = record.context["dealt"]
    assert len(dealt["home"]["ac_cards"]) == 3 and len(dealt["away"]["ac_cards"]) == 3
    rolls = [e.payload for e in of_kind(ev, "ac_roll")]
    assert rolls and set(rolls[0]["rolls"]) == {"1", "2", "3"}


def test_r17_bc_vs_rival_the_ac_gets_one_match_card_fewer_than_the_bc():
    st = phase2(4, seed=46, bcs=[1, 2, 3, 4])
    for c in st.piles["box2"][:4]:
        move_card(st, c, holding_key(1))
    to_eight(st)
    st.prompts = []
    ctx = Ctx(st, CAT, HOST)
    finals.begin_phase3(ctx)
    from tournament.rules.engine import advance

    advance(ctx)
    while st.stage == "settlement":
        st, _ = answer(st, seat_no=st.prompts[0].seat)
    # play until BC 1's match starts
    while not (
        st.running_match
        and 1 in (st.running_match.home.seat, st.running_match.away.seat)
        and st.running_match.home.role == "bc"
        and st.running_match.home.seat == 1
    ):
        st, _ = finish_match_with(st, "home") if st.running_match else answer(st, seat_no=st.prompts[0].seat)
    record = st.running_match
    assert record.away.role == "ac" and record.away.seat in (2, 3, 4)
    assert len(record.context["dealt"]["away"]["ac_cards"]) == 3


def test_a_winning_ac_in_the_finals_keeps_his_unused_match_cards():
    st, _ = phase3(4, seed=45, bcs=[1, 2, 3])
    record = st.running_match
    ac = record.home.seat
    before = holding(st, ac)
    dealt = list(record.context["dealt"]["home"]["ac_cards"])
    st, _ev = finish_match_with(st, "home")
    assert sorted(holding(st, ac)) == sorted(before + dealt)


@pytest.mark.parametrize("bcs", [[1], [1, 2, 3, 4], list(range(1, 9))])
def test_finals_with_1_4_and_8_bcs_end_with_exactly_one_cup_winner(bcs):
    seats = max(len(bcs), 2)
    st, _ = phase3(seats, seed=47 + len(bcs), bcs=bcs)
    assert len(st.finals) == 8 and len(st.finals_coaches) == len(bcs)
    st = play_defaults(st)
    assert st.status == "finished" and st.phase == "finished"
    finished = [m for m in st.matches if m.kind in ("qf", "sf", "f")]
    assert [m.status for m in finished] == ["finished"] * 7
    final = finished[-1]
    assert st.piles["cup"] == [final.winner_country]
    assert st.winner["country"] == final.winner_country
    side = final.home if final.winner_side == "home" else final.away
    assert st.winner["coach"] == side.seat and st.winner["coach_kind"] == side.role
    assert st.prompts == []  # R17a: nothing left to decide once the Cup is won
    qf_winners = {m.winner_country for m in finished if m.kind == "qf"}
    assert len(qf_winners) == 4
    sf_teams = {c for m in finished if m.kind == "sf" for c in (m.home.country, m.away.country)}
    assert sf_teams == qf_winners
    assert {final.home.country, final.away.country} == {m.winner_country for m in finished if m.kind == "sf"}


def test_with_one_bc_the_house_bot_coaches_what_nobody_else_can():
    st, _ = phase3(2, seed=60, bcs=[1])
    roles = set()
    while st.status == "running":
        record = st.running_match
        if record is None:
            st, _ = answer(st, seat_no=st.prompts[0].seat)
            continue
        roles.add((record.home.role, record.home.seat, record.away.role, record.away.seat))
        st, _ = finish_match_with(st, "home")
    assert any("bot" in (r[0], r[2]) for r in roles)
    for home_role, home_seat, away_role, away_seat in roles:
        assert home_seat != away_seat or home_seat is None
        if home_role == "bc":
            assert away_role == "bot"  # no other BC to be AC (R17)


def test_bracket_winners_move_on_to_the_right_slots():
    st, _ = phase3(4, seed=61, bcs=[1, 2])
    while st.status == "running":
        if st.running_match is None:
            st, _ = answer(st, seat_no=st.prompts[0].seat)
            continue
        st, _ = finish_match_with(st, "away")
    by_slot = {m.slot: m for m in st.matches if m.kind in ("qf", "sf", "f")}
    assert by_slot["AB"].home.country == by_slot["A"].winner_country
    assert by_slot["AB"].away.country == by_slot["B"].winner_country
    assert by_slot["CD"].home.country == by_slot["C"].winner_country
    assert by_slot["CD"].away.country == by_slot["D"].winner_country
    assert by_slot["F"].home.country == by_slot["AB"].winner_country
    assert by_slot["F"].away.country == by_slot["CD"].winner_country
    assert st.winner["country"] == by_slot["F"].away.country == st.piles["cup"][0]


def test_an_out_participant_can_watch_but_not_act():
    st, _ = phase3(4, seed=62, bcs=[1, 2, 3])
    assert st.seats[4].out
    view = project(st, Viewer(seat=4), CAT)
    assert view["seats"][3]["out"] is True and view["phase"] == "phase3"
    assert view["my_prompts"] == []
    for action in (
        {"type": "roll"},
        {"type": "answer", "prompt": st.prompts[0].id, "choice": st.prompts[0].default},
    ):
        assert refused(st, seat(4), action).code == "out_of_game"


# ----------------------------------------------------------------------------------- R18 / Cup


def test_r18_the_cup_winner_is_pre_qualified_on_the_last_country_square_before_start():
    st = started(3, seed=70, pre_qualified="ARG")
    last = SQ[-1]
    assert all(s.kind.value != "country" for s in CAT.board.squares[last + 1 :])  # "het laatste Landen-vak"
    assert st.on_square == {last: "ARG"} and st.squares[last].status == "qualified"
    assert "ARG" not in st.piles["official_countries"] and len(st.piles["official_countries"]) == 31


def test_r18_in_a_european_championship_a_non_european_winner_is_not_pre_qualified():
    st = started(3, seed=70, mode="euro", pre_qualified="ARG")
    assert st.on_square == {} and "ARG" in st.piles["out"]
    euro = started(3, seed=70, mode="euro", pre_qualified="NED")
    assert euro.on_square == {SQ[-1]: "NED"} and len(euro.piles["official_countries"]) == 19


def test_r18_a_whole_tournament_puts_its_winner_on_the_cup_and_the_next_game_starts_with_it():
    st = started(3, seed=71)
    st = play_defaults(st)
    assert st.status == "finished"
    winner = st.winner["country"]
    assert st.piles["cup"] == [winner]
    nxt = started(3, seed=72, pre_qualified=winner)
    assert nxt.on_square[SQ[-1]] == winner
