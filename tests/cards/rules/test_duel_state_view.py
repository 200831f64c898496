"""State round-trip (stored as JSON between actions) and what each viewer may see."""

from __future__ import annotations

import json

from duel_helpers import Match, fmt, leaks, lineup, team

from cards.rules.duel import DuelState

ELEVEN = [4, 5, 3, 6, 2, 4, 5, 3, 4, 2, 3]


def started() -> Match:
    m = Match(
        team("H", ELEVEN, 4, ("M01", "M28", "M04")),
        team("A", ELEVEN, 5, ("M02", "M34", "M40")),
        et=("M03", "M05", "M13", "M25"),
    )
    m.lineups(
        lineup([f"H{i}" for i in (4, 2, 7, 1, 6, 9, 3, 8, 11, 5)], "H10"),
        lineup([f"A{i}" for i in (2, 4, 1, 7, 6, 9, 3, 8, 11, 5)], "A10"),
    )
    return m


def roundtrip(m: Match) -> DuelState:
    stored = json.loads(json.dumps(m.f.to_dict(m.st)))
    back = m.f.from_dict(stored)
    assert m.f.to_dict(back) == m.f.to_dict(m.st)
    return back


def test_to_dict_is_json_and_round_trips_exactly_at_every_step():
    m = started()
    seen = set()
    while m.pending():
        back = roundtrip(m)
        seen.add((m.st.phase, m.st.wkind) if m.st.phase == 1 else (m.st.phase,))
        d = m.f.decisions(m.st)[0]
        plays = sorted((c for c in d.choices if c["kind"] == "play"), key=lambda c: c["card"] != "M28")
        choice = plays[0] if plays else d.default
        # the restored state continues exactly like the original
        twin_events = m.f.apply(back, d.side, choice, type(m.rng)(*m.rng.state()))
        assert twin_events == m.act(d.side, choice)
        assert m.f.to_dict(back) == m.f.to_dict(m.st)
    roundtrip(m)
    assert {(1, 0), (1, 1), (1, 2), (0,)} <= seen  # main, moment and goal windows, line-ups
    assert m.f.result(m.st) is not None


def test_the_public_view_shows_no_unrevealed_card_no_reserve_no_holding():
    m = started()
    view = m.f.view(m.st, None)
    text = json.dumps(view)
    assert not leaks(view, m.secrets()[None])
    for side in ("home", "away"):
        sv = view["sides"][side]
        assert not {"reserve", "stack", "holding", "lineup", "team", "extra_time_holding"} & set(sv)
        assert sv["holding_count"] == 3 and sv["stack_count"] == 10
    assert '"H10"' not in text and '"A10"' not in text  # the reserves
    assert view["decision"] is None


def test_a_side_sees_its_own_secrets_but_not_the_others():
    m = started()
    own = m.f.view(m.st, "home")
    assert not leaks(own, m.secrets()["home"])
    home = own["sides"]["home"]
    assert home["reserve"] == "H10"
    assert home["stack"] == ["H2", "H7", "H1", "H6", "H9", "H3", "H8", "H11", "H5", "HK"]
    assert home["holding"] == ["M01", "M28", "M04"]
    assert "reserve" not in own["sides"]["away"]
    away_view = m.f.view(m.st, "away")
    assert not leaks(away_view, m.secrets()["away"])
    assert '"H10"' not in json.dumps(away_view)


def test_only_the_side_to_decide_gets_its_legal_choices():
    m = started()
    (d,) = m.f.decisions(m.st)
    mine = m.f.view(m.st, d.side)
    theirs = m.f.view(m.st, "home" if d.side == "away" else "away")
    assert mine["decision"]["choices"] == [dict(c) for c in d.choices]
    assert mine["decision"]["default"] == {"kind": "pass"}
    assert theirs["decision"] is None
    assert theirs["to_decide"] == [d.side] == mine["to_decide"]


def test_line_up_events_and_dealt_cards_reach_only_their_side():
    m = started()
    audiences = {(e.kind, e.audience) for e in m.events if e.kind == "lineup_set"}
    assert audiences == {("lineup_set", "home"), ("lineup_set", "away")}
    m.public_ids_ok()


def test_a_finished_match_can_be_replayed_with_everything_revealed():
    m = started()
    m.pass_until(lambda m: not m.pending())
    full = json.dumps(m.f.view(m.st, None, reveal_all=True))
    for cid in ("H10", "A10", "HK", "AK", "M28", "M40"):
        assert f'"{cid}"' in full
    assert m.f.view(m.st, None)["result"]["winner"] in ("home", "away")


def test_from_dict_refuses_something_else():
    import pytest

    from games.api import MalformedDecision

    with pytest.raises(MalformedDecision):
        fmt().from_dict({"format": "chess"})
    data = fmt().to_dict(started().st)
    del data["stack"]
    with pytest.raises(MalformedDecision):
        fmt().from_dict(data)
