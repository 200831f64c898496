"""Phase 2, the road to the finals (seed "FASE 2 DE AANLOOP TOT DE FINALES"; R12, R13, R14, R11)."""

from __future__ import annotations

import random

import pytest
from helpers import (
    CAT,
    HOST,
    answer,
    catalog_with_classes,
    countries_of_class,
    fields_by_stars,
    finish_match_with,
    holding,
    kinds,
    land_on,
    make_bc,
    money,
    move_card,
    of_kind,
    on_top,
    only_prompt,
    phase2,
    play_running_match,
    qualify,
    refused,
    rivals,
    seat,
    set_money,
    started,
    team,
    transfers,
    turn_to,
)

from tournament.rules import finals
from tournament.rules.events import Ctx
from tournament.rules.state import BANK, holding_key, team_key

SQ = CAT.board.country_squares


def _match_cards(st, n):
    return list(st.piles["box2"][:n])


# -------------------------------------------------------------------------------- preparation


def test_preparation_pawn_to_start_fills_every_empty_square_and_eliminates_class3_r12():
    st = started(3, seed=21)
    class3 = countries_of_class(3)
    make_bc(st, 1, SQ[0], class3[0])  # a contracted class-3 country stays
    make_bc(st, 2, SQ[1], countries_of_class(6)[0])
    make_bc(st, 3, SQ[2], countries_of_class(5)[0])
    st.pawn = 17
    ctx = Ctx(st, CAT, HOST)
    finals.begin_phase2(ctx)
    assert st.phase == "phase2" and st.pawn == 0
    assert all(sq.status != "empty" for sq in st.squares.values())  # 16 qualified
    eliminated = [e.payload for e in of_kind(ctx.events, "country_eliminated")]
    assert all(CAT.countries[e["country"]].klass == 3 for e in eliminated)
    assert st.squares[SQ[0]].status == "contracted" and st.on_square[SQ[0]] == class3[0]
    for idx, sq in st.squares.items():
        if idx in st.on_square:
            country = st.on_square[idx]
            assert not (sq.status == "qualified" and CAT.countries[country].klass == 3)
    placed = [e.payload for e in of_kind(ctx.events, "marker_placed")]
    assert [p["marker"] for p in placed] == list(range(1, len(placed) + 1))
    assert [p["square"] for p in placed] == sorted(p["square"] for p in placed)  # track order from Start
    assert {e["country"] for e in eliminated} <= set(st.piles["out"])
    assert len(st.on_square) + st.markers_placed() == 16


def test_r12_more_than_eight_class3_countries_only_eight_markers_then_the_finals():
    """With nine or more uncontracted class-3 countries the eight markers go on the first ones in track
    order; the others stay as rivals and phase 2 is over at once (8 countries remain)."""
    cat = catalog_with_classes({c: 3 for c in CAT.countries if c not in ("BRA", "FRA")})
    st = started(2, seed=4, cat=cat)
    make_bc(st, 1, SQ[0], "BRA")
    qualify(st, SQ[1], "FRA")
    st, _ = land_on(st, 2, SQ[1], cat=cat)
    st, ev = answer(st, "contract", {"contract": True}, cat=cat)
    st, ev = answer(st, "keep_selection", cat=cat)
    placed = [e.payload["square"] for e in of_kind(ev, "marker_placed")]
    assert len(placed) == 8
    class3_squares = [idx for idx in SQ if idx not in (SQ[0], SQ[1])]
    assert placed == class3_squares[:8]
    assert [e.payload for e in of_kind(ev, "phase_over")] == [{"phase": "phase1"}, {"phase": "phase2"}]
    assert st.phase == "phase3" and st.stage == "settlement"
    while st.stage == "settlement":  # both BCs turn their money into players (R15)
        st, _more = answer(st, "keep_selection", seat_no=st.prompts[0].seat, cat=cat)
    assert len(st.finals) == 8
    assert {st.finals[1], st.finals[2]} == {"BRA", "FRA"}  # contracted first (R16)
    qualified = {e.payload["square"]: e.payload["country"] for e in of_kind(ev, "country_qualified")}
    assert [st.finals[b] for b in range(3, 9)] == [qualified[s] for s in class3_squares[8:]]  # track order


def test_r12_exactly_eight_countries_remain_after_an_oversupply_of_class3():
    cat = catalog_with_classes({c: 3 for c in CAT.countries if c not in ("BRA",)})
    st = started(2, seed=8, cat=cat)
    make_bc(st, 1, SQ[0], "BRA")
    make_bc(st, 2, SQ[1], countries_of_class(3, cat)[0])
    ctx = Ctx(st, cat, HOST)
    finals.begin_phase2(ctx)
    assert st.markers_placed() == 8 and len(st.on_square) == 8
    rivals_left = [st.on_square[i] for i in rivals(st)]
    assert len(rivals_left) == 6 and all(cat.countries[c].klass == 3 for c in rivals_left)


# ------------------------------------------------------------------------------------ markers


@pytest.fixture
def p2():
    return phase2(4, seed=12)


def _marker_square(st):
    return next(idx for idx, sq in sorted(st.squares.items()) if sq.status == "marker")


def test_a_marker_square_offers_four_choices_to_a_bc(p2):
    idx = _marker_square(p2)
    st, _ev = land_on(p2, 1, idx)
    prompt = only_prompt(st, "marker", 1)
    assert prompt.choices == [{"take": "field"}, {"take": "keeper"}, {"take": "match"}, {"take": "money"}]
    assert (
        prompt.options["field"] == st.piles["box5"][-1] and prompt.options["keeper"] == st.piles["box7"][-1]
    )


@pytest.mark.parametrize("take", ["field", "keeper", "match", "money"])
def test_each_marker_choice_does_what_it_says(p2, take):
    idx = _marker_square(p2)
    on_top(p2, "G03", "box4")
    st, _ = land_on(p2, 1, idx)
    open_card = st.piles["box5" if take == "field" else "box7"][-1]
    match_top = st.piles["box2"][-1]
    before = money(st, 1)
    st, ev = answer(st, "marker", {"take": take})
    if take in ("field", "keeper"):
        price = CAT.player(open_card).stars * 100_000
        assert transfers(ev)[0] == ("p1", BANK, price, "purchase")
        assert open_card in team(st, 1) + st.piles.get("selection:1", [])
        assert of_kind(ev, "card_turned_up")  # the next card is turned up
    elif take == "match":
        assert holding(st, 1) == [match_top] and transfers(ev) == []
    else:
        assert of_kind(ev, "money_card")[0].payload["card"] == "G03" and money(st, 1) == before + 100_000


def test_a_trainer_on_a_marker_cannot_take_a_match_card_and_without_money_cannot_buy():
    st = phase2(4, seed=12, bcs=[1, 2, 3])
    idx = _marker_square(st)
    st, _ = land_on(st, 4, idx)
    assert [c["take"] for c in only_prompt(st, "marker", 4).choices] == ["field", "keeper", "money"]
    poor = phase2(4, seed=12, bcs=[1, 2, 3])
    set_money(poor, 4, 0)
    poor, _ = land_on(poor, 4, idx)
    assert only_prompt(poor, "marker", 4).choices == [{"take": "money"}]


# --------------------------------------------------------------------------------- challenges


def test_r13_a_bc_landing_on_a_rival_must_challenge_it_and_r14_an_other_bc_is_ac(p2):
    rival_sq = rivals(p2)[0]
    rival = p2.on_square[rival_sq]
    cards = _match_cards(p2, 3)
    for c in cards:
        move_card(p2, c, holding_key(1))
    ac_team_before = {s: (team(p2, s), holding(p2, s)) for s in (2, 3, 4)}
    st, ev = land_on(p2, 1, rival_sq)
    ch = of_kind(ev, "challenge")[0].payload
    assert ch["seat"] == 1 and ch["rival"] == rival and ch["square"] == rival_sq
    rolls = of_kind(ev, "ac_roll")
    assert rolls and set(rolls[0].payload["rolls"]) == {"2", "3", "4"}  # the other BCs roll
    last = rolls[-1].payload["rolls"]
    assert ch["ac"] == int(max(last, key=lambda s: last[s]))
    record = st.running_match
    assert record.kind == "challenge"
    assert (record.home.country, record.home.seat, record.home.role) == (st.country_of(1), 1, "bc")
    assert (record.away.country, record.away.seat, record.away.role) == (rival, ch["ac"], "ac")
    dealt = record.context["dealt"]["away"]
    assert len(dealt["rivals"]) == 11 and all(c[0] == "R" for c in dealt["rivals"])
    assert len(dealt["ac_cards"]) == 2  # one fewer than the challenger holds
    assert {p.seat for p in st.prompts if p.kind == "lineup"} == {1, ch["ac"]}
    # the AC's own team and holding are untouched ("staat geheel los van je eigen land")
    assert {s: (team(st, s), holding(st, s)) for s in (2, 3, 4)} == ac_team_before


def test_a_bc_without_match_cards_faces_an_ac_without_match_cards(p2):
    st, _ev = land_on(p2, 1, rivals(p2)[0])
    assert st.running_match.context["dealt"]["away"]["ac_cards"] == []


def test_bc_wins_the_rival_is_removed_and_a_marker_placed(p2):
    rival_sq = rivals(p2)[0]
    rival = p2.on_square[rival_sq]
    markers = p2.markers_placed()
    st, _ = land_on(p2, 1, rival_sq)
    st, ev = finish_match_with(st, "home")
    assert of_kind(ev, "rival_eliminated")[0].payload == {"country": rival, "square": rival_sq, "by": 1}
    assert st.squares[rival_sq].status == "marker" and rival in st.piles["out"]
    assert st.markers_placed() == markers + 1
    assert st.seats[1].role == "bc" and len(team(st, 1)) == 12
    assert sorted(st.piles["official_rivals"]) == sorted(CAT.rivals)  # rival cards back with the Official
    assert [p.kind for p in st.prompts] == ["roll"] and st.active_seat != 1  # the turn is over


def test_bc_loses_he_resigns_and_may_contract_again_later_even_the_rival_that_beat_him(p2):
    rival_sq = rivals(p2)[0]
    rival = p2.on_square[rival_sq]
    own = p2.country_of(1)
    own_sq = p2.square_of_country(own)
    cards = _match_cards(p2, 2)
    for c in cards:
        move_card(p2, c, holding_key(1))
    players = team(p2, 1)
    st, _ = land_on(p2, 1, rival_sq)
    ac = st.running_match.away.seat
    st, ev = finish_match_with(st, "away")
    assert of_kind(ev, "bc_resigned")[0].payload == {"seat": 1, "country": own}
    assert st.seats[1].role == "trainer" and team(st, 1) == [] and holding(st, 1) == []
    assert own in st.piles["out"] and st.squares[own_sq].status == "marker"
    assert set(cards) <= set(st.piles["box2"][:2] + st.piles["box2"][:5])  # under the match stack (R11)
    keepers = [c for c in players if c[0] == "K"]
    assert set(players) - set(keepers) <= set(st.piles["official_fields"])
    assert st.squares[rival_sq].status == "qualified" and st.on_square[rival_sq] == rival
    assert ac is not None
    # later he lands on the rival that beat him and contracts it (R13: a trainer may contract)
    turn_to(st, 1)
    st, _ = land_on(st, 1, rival_sq)
    prompt = only_prompt(st, "contract", 1)
    assert prompt.options["country"] == rival
    st, ev = answer(st, "contract", {"contract": True})
    st, _ = answer(st, "keep_selection")
    assert st.seats[1].role == "bc" and st.country_of(1) == rival and len(team(st, 1)) == 12


def test_a_trainer_on_a_rival_may_decline_and_takes_a_money_card():
    st = phase2(4, seed=12, bcs=[1, 2, 3])
    on_top(st, "G13", "box4")
    st, _ = land_on(st, 4, rivals(st)[0])
    st, ev = answer(st, "contract", {"contract": False})
    assert of_kind(ev, "money_card")[0].payload["card"] == "G13"
    assert st.running_match is None


def test_the_winning_ac_adds_his_unused_cards_to_his_holding_when_they_fit(p2):
    for c in _match_cards(p2, 3):
        move_card(p2, c, holding_key(1))
    st, _ = land_on(p2, 1, rivals(p2)[0])
    ac = st.running_match.away.seat
    dealt = list(st.running_match.context["dealt"]["away"]["ac_cards"])
    st, ev = finish_match_with(st, "away")
    assert sorted(holding(st, ac)) == sorted(dealt)
    assert of_kind(ev, "ac_kept_cards")[0].payload == {"seat": ac, "count": 2}


def test_the_winning_ac_chooses_which_cards_to_keep_when_they_do_not_fit(p2):
    for c in _match_cards(p2, 5):
        move_card(p2, c, holding_key(1))
    st, _ = land_on(p2, 1, rivals(p2)[0])
    ac = st.running_match.away.seat
    own = st.piles["box2"][:3]
    for c in own:
        move_card(st, c, holding_key(ac))
    dealt = list(st.running_match.context["dealt"]["away"]["ac_cards"])
    assert len(dealt) == 4
    st, _ = finish_match_with(st, "away")
    prompt = only_prompt(st, "ac_keep", ac)
    assert prompt.options == {"cards": dealt, "room": 2}
    assert len(prompt.default["keep"]) == 2 and set(prompt.default["keep"]) <= set(dealt)
    pid = prompt.id
    assert (
        refused(st, seat(ac), {"type": "answer", "prompt": pid, "choice": {"keep": dealt[:3]}}).code
        == "illegal_choice"
    )
    assert (
        refused(st, seat(ac), {"type": "answer", "prompt": pid, "choice": {"keep": ["M99"]}}).code
        == "illegal_choice"
    )
    assert (
        refused(st, seat(ac), {"type": "answer", "prompt": pid, "choice": {"keep": "M01"}}).code
        == "malformed"
    )
    assert (
        refused(st, seat(ac), {"type": "answer", "prompt": pid, "choice": {"keep": [], "also": 1}}).code
        == "malformed"
    )
    st, _ev = answer(st, "ac_keep", {"keep": [dealt[3]]})
    assert sorted(holding(st, ac)) == sorted([*own, dealt[3]])
    assert set(dealt[:3]) <= set(st.piles["box2"][:3])  # the rest under the match stack
    assert st.piles["match"] == []


def test_r14_with_no_other_bc_any_other_participant_is_ac_and_a_trainer_ac_keeps_nothing():
    st = phase2(3, seed=30, bcs=[1])
    for c in _match_cards(st, 3):
        move_card(st, c, holding_key(1))
    st, ev = land_on(st, 1, rivals(st)[0])
    rolls = of_kind(ev, "ac_roll")
    assert set(rolls[0].payload["rolls"]) == {"2", "3"}  # trainers roll when no other BC is left
    ac = st.running_match.away.seat
    assert ac in (2, 3) and st.running_match.away.role == "ac"
    dealt = st.running_match.context["dealt"]["away"]["ac_cards"]
    st, ev = finish_match_with(st, "away")
    assert holding(st, ac) == [] and set(dealt) <= set(st.piles["box2"][:5])  # R11: trainers hold none
    assert st.seats[1].role == "trainer"


def test_r14_with_nobody_else_the_house_bot_plays_the_rival():
    st = phase2(3, seed=30, bcs=[1])
    for s in (2, 3):
        st.seats[s].out = True  # nobody else can coach (only reachable in set-ups like this one)
    st, ev = land_on(st, 1, rivals(st)[0])
    record = st.running_match
    assert record.away.seat is None and record.away.role == "bot"
    assert not [e for e in ev if e.kind == "ac_roll"]
    assert {p.seat for p in st.prompts} == {1}  # the house bot decided its line-up at once
    st, _ = play_running_match(st)
    assert st.matches[-1].status == "finished"


def test_a_full_challenge_played_out_puts_every_card_back(p2):
    for c in _match_cards(p2, 4):
        move_card(p2, c, holding_key(1))
    st, _ = land_on(p2, 1, rivals(p2)[0])
    st, ev = play_running_match(st, random.Random(5))
    record = st.matches[-1]
    assert record.status == "finished" and record.winner_side in ("home", "away")
    assert of_kind(ev, "match_over")[0].payload["winner"] == record.winner_country
    assert st.piles["match"] == [] or [p.kind for p in st.prompts] == ["ac_keep"]
    assert st.piles["official_rivals"] and len(st.piles["official_rivals"]) == 22


# ---------------------------------------------------------------------------- firing, fees, end


def test_firing_in_phase2_the_country_stays_as_a_rival(p2):
    own = p2.country_of(2)
    own_sq = p2.square_of_country(own)
    for c in _match_cards(p2, 2):
        move_card(p2, c, holding_key(2))
    set_money(p2, 2, 10_000)
    st, ev = land_on(p2, 2, p2.square_of_country(p2.country_of(1)))
    assert [t[3] for t in transfers(ev)] == ["compensation", "visit_fee"]
    assert of_kind(ev, "bc_fired")[0].payload["country"] == own
    assert st.squares[own_sq].status == "qualified" and st.on_square[own_sq] == own  # a rival now
    assert team(st, 2) == [] and holding(st, 2) == [] and st.seats[2].role == "trainer"
    # a BC landing there now must challenge it
    turn_to(st, 3)
    st, ev = land_on(st, 3, own_sq)
    assert of_kind(ev, "challenge")[0].payload["rival"] == own


def test_visit_fees_still_apply_in_phase2(p2):
    _st, ev = land_on(p2, 3, p2.square_of_country(p2.country_of(1)))
    klass = CAT.countries[p2.country_of(1)].klass
    assert transfers(ev) == [("p3", "p1", CAT.classes[klass].visit_fee, "visit_fee")]


def test_phase2_ends_when_the_eighth_marker_is_placed(p2):
    free = [n for n, sq in p2.markers.items() if sq is None]
    spare = [idx for idx in rivals(p2)]
    target = spare[0]
    for n, idx in zip(free[:-1], spare[1:], strict=False):  # place all but one marker by hand
        country = p2.on_square.pop(idx)
        p2.pile("out").append(country)
        p2.squares[idx].status = "marker"
        p2.markers[n] = idx
    assert p2.markers_placed() == 7
    st, _ = land_on(p2, 1, target)
    st, ev = finish_match_with(st, "home")
    assert of_kind(ev, "phase_over")[0].payload == {"phase": "phase2"}
    assert st.phase == "phase3" and not [p for p in st.prompts if p.kind == "roll"]
    while st.stage == "settlement":
        st, _ = answer(st, "keep_selection", seat_no=st.prompts[0].seat)
    assert len(st.finals) == 8 and st.stage == "finals"


def test_a_trainer_when_phase3_begins_is_out_and_can_still_watch():
    st = phase2(4, seed=12, bcs=[1, 2, 3])
    for c in fields_by_stars(2)[:2]:
        move_card(st, c, team_key(4))
    ctx = Ctx(st, CAT, HOST)
    finals.begin_phase3(ctx)
    assert st.seats[4].out and money(st, 4) == 0 and team(st, 4) == []
    assert "participant_out" in kinds(ctx.events)
    assert refused(st, seat(4), {"type": "roll"}).code == "out_of_game"


def test_a_luck_jump_onto_a_rival_makes_a_bc_challenge_it(p2):
    target = rivals(p2)[0]
    st, _ = land_on(p2, 2, next(s.index for s in CAT.board.squares if s.kind.value == "luck"))
    st, ev = answer(st, "luck", {"square": target})
    assert of_kind(ev, "challenge")[0].payload["square"] == target
    assert st.running_match is not None and st.running_match.home.seat == 2
