"""The strict form → action mapping: every field checked, unknown fields refused, actions built exactly."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from tournament.rules.errors import MalformedAction
from tournament.views.forms import clean_code, parse, parse_create


def form(**fields) -> QueryDict:
    q = QueryDict(mutable=True)
    q.update({"version": "3", "action_id": "abc"})
    for key, value in fields.items():
        if isinstance(value, list):
            q.setlist(key, value)
        else:
            q[key] = value
    return q


@pytest.mark.parametrize(
    ("fields", "action"),
    [
        ({"action": "roll"}, {"type": "roll"}),
        ({"action": "pick", "prompt": "4", "pick": "2"}, {"type": "answer", "prompt": 4, "pick": 2}),
        (
            {"action": "buy", "prompt": "7", "buy": "yes"},
            {"type": "answer", "prompt": 7, "choice": {"buy": True}},
        ),
        (
            {"action": "contract", "prompt": "7", "contract": "no"},
            {"type": "answer", "prompt": 7, "choice": {"contract": False}},
        ),
        (
            {"action": "luck", "prompt": "2", "square": "39"},
            {"type": "answer", "prompt": 2, "choice": {"square": 39}},
        ),
        (
            {"action": "return_card", "prompt": "2", "card": "F012"},
            {"type": "answer", "prompt": 2, "choice": {"card": "F012"}},
        ),
        (
            {"action": "marker", "prompt": "2", "take": "keeper"},
            {"type": "answer", "prompt": 2, "choice": {"take": "keeper"}},
        ),
        (
            {"action": "keep_selection", "prompt": "4", "field": ["F001", "F002"], "keeper": "K03"},
            {"type": "answer", "prompt": 4, "choice": {"field": ["F001", "F002"], "keeper": "K03"}},
        ),
        (
            {"action": "keep_selection", "prompt": "4", "field": ["F001"]},
            {"type": "answer", "prompt": 4, "choice": {"field": ["F001"], "keeper": None}},
        ),
        ({"action": "ac_keep", "prompt": "4"}, {"type": "answer", "prompt": 4, "choice": {"keep": []}}),
        (
            {"action": "lineup", "prompt": "9", "order": ["R01", "R02", "R03"], "reserve": "R02"},
            {
                "type": "answer",
                "prompt": 9,
                "choice": {"kind": "lineup", "order": ["R01", "R03"], "reserve": "R02"},
            },
        ),
        (
            {"action": "lineup", "prompt": "9", "order": ["R01", "R03"], "reserve": ""},
            {
                "type": "answer",
                "prompt": 9,
                "choice": {"kind": "lineup", "order": ["R01", "R03"], "reserve": None},
            },
        ),
        (
            {"action": "window", "prompt": "9", "choice": "pass"},
            {"type": "answer", "prompt": 9, "choice": {"kind": "pass"}},
        ),
        (
            {"action": "window", "prompt": "9", "choice": "play:M12"},
            {"type": "answer", "prompt": 9, "choice": {"kind": "play", "card": "M12"}},
        ),
        ({"action": "add_bot", "strength": "strong"}, {"type": "add_bot", "strength": "strong"}),
        ({"action": "remove_seat", "seat": "3"}, {"type": "remove_seat", "seat": 3}),
        (
            {
                "action": "house_rules",
                "mode": "euro",
                "seats": "5",
                "visit_fee_to": "bank",
                "decision_timer": "0",
            },
            {
                "type": "house_rules",
                "mode": "euro",
                "seats": 5,
                "visit_fee_to": "bank",
                "decision_timer": None,
            },
        ),
        (
            {"action": "transfer", "src": "bonus", "dst": "p4", "amount": "1.250.000", "memo": "  a  fix "},
            {"type": "transfer", "src": "bonus", "dst": "p4", "amount": 1_250_000, "memo": "a fix"},
        ),
        ({"action": "seat_bot", "seat": "2", "bot": "no"}, {"type": "seat_bot", "seat": 2, "bot": False}),
        ({"action": "force_default", "prompt": "11"}, {"type": "force_default", "prompt": 11}),
        ({"action": "pause"}, {"type": "pause"}),
    ],
)
def test_forms_build_exact_actions(fields, action):
    parsed = parse(form(**fields))
    assert parsed.action == action
    # a pick, a line-up or a default names its open decision: the prompt, not the room's version, guards it;
    # the host's hand-over names its seat and direction
    unguarded = ("pick", "force_default", "lineup", "seat_bot")
    assert parsed.version == (None if fields["action"] in unguarded else 3)
    assert parsed.action_id == "abc"


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "roll", "extra": "1"},
        {"action": "pick", "prompt": "4"},
        {"action": "pick", "prompt": "4", "pick": "-1"},
        {"action": "pick", "prompt": "4", "pick": "two"},
        {"action": "nope"},
        {},
        {"action": "buy", "prompt": "7"},
        {"action": "buy", "prompt": "7", "buy": "maybe"},
        {"action": "buy", "prompt": "x", "buy": "yes"},
        {"action": "buy", "prompt": "0", "buy": "yes"},
        {"action": "luck", "prompt": "1", "square": "40"},
        {"action": "return_card", "prompt": "1", "card": "f012"},
        {"action": "return_card", "prompt": "1", "card": "F012; DROP"},
        {"action": "window", "prompt": "1", "choice": "play:"},
        {"action": "lineup", "prompt": "1", "order": ["R01"], "reserve": "R02"},
        {"action": "lineup", "prompt": "1", "order": ["R01", "R01"], "reserve": ""},
        {
            "action": "house_rules",
            "mode": "euro",
            "seats": "9",
            "visit_fee_to": "bank",
            "decision_timer": "0",
        },
        {
            "action": "house_rules",
            "mode": "euro",
            "seats": "4",
            "visit_fee_to": "bank",
            "decision_timer": "5",
        },
        {"action": "transfer", "src": "p9", "dst": "p1", "amount": "5", "memo": "x"},
        {"action": "transfer", "src": "bank", "dst": "p1", "amount": "0", "memo": "x"},
        {"action": "transfer", "src": "bank", "dst": "p1", "amount": "100000001", "memo": "x"},
        {"action": "transfer", "src": "bank", "dst": "p1", "amount": "5", "memo": "x" * 201},
        {"action": "seat_bot", "seat": "2", "bot": "true"},
        {"action": ["roll", "pause"]},
    ],
)
def test_bad_forms_are_malformed(fields):
    with pytest.raises(MalformedAction):
        parse(form(**fields))


def test_version_and_action_id_are_checked():
    with pytest.raises(MalformedAction):
        parse(QueryDict("action=roll&version=abc&action_id=x"))
    with pytest.raises(MalformedAction):
        parse(QueryDict("action=roll&version=1&action_id=has space"))
    with pytest.raises(MalformedAction):
        parse(QueryDict("action=roll&action_id=x"))


def test_create_form():
    created, errors = parse_create(
        QueryDict("nickname=Anna&mode=euro&seats=3&bots=2&visit_fee_to=bank&decision_timer=30")
    )
    assert errors == {}
    assert (
        created.nickname,
        created.mode,
        created.seats,
        created.bots,
        created.visit_fee_to,
        created.decision_timer,
    ) == ("Anna", "euro", 3, 2, "bank", 30)
    _, errors = parse_create(QueryDict("nickname=&seats=1&bots=x&mode=z&visit_fee_to=q&decision_timer=9"))
    assert set(errors) == {"nickname", "seats", "bots", "mode", "visit_fee_to", "decision_timer"}


def test_room_codes_as_people_type_them():
    assert clean_code(" ABCDE-fghjk ") == "abcdefghjk"
    assert clean_code("ab cd_ef.gh") == "abcdefgh"
    assert clean_code(None) == ""
