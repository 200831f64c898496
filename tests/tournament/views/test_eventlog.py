"""The event log in words: every kind the rules emit reads as a sentence, in English and in Dutch."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from cards.catalog import get_catalog
from tournament.presentation import eventlog
from tournament.rules.engine import apply_action
from tournament.rules.events import Actor
from tournament.rules.setup import new_game

ROOT = Path(__file__).resolve().parents[3]


def emitted_kinds() -> set[str]:
    """Every event kind in the sources of the rules and the match format (as the brief asks: grep them)."""
    kinds: set[str] = set()
    for path in [*(ROOT / "tournament" / "rules").glob("*.py"), *(ROOT / "cards" / "rules").glob("*.py")]:
        text = path.read_text()
        kinds.update(re.findall(r"ctx\.emit\(\s*\"([a-z_]+)\"", text))
        kinds.update(re.findall(r"ctx\.private\(\s*[^,]+,\s*\"([a-z_]+)\"", text))
        kinds.update(re.findall(r"\"seat_to_bot\" if on else \"([a-z_]+)\"", text))
        kinds.update(f"m.{k}" for k in re.findall(r"MatchEvent\(\s*\"([a-z_]+)\"", text))
    return kinds


def test_every_emitted_kind_has_a_sentence_or_is_deliberately_quiet():
    kinds = emitted_kinds()
    assert {"rolled", "transfer", "m.goal_confirmed", "cup_won", "seat_to_human"} <= kinds
    missing = sorted(k for k in kinds if k not in eventlog.HANDLERS and k not in eventlog.QUIET)
    assert not missing, f"event kinds without a log sentence: {missing}"


def play(seed: int, players: int = 4, **room: Any) -> tuple[object, list[dict]]:
    """A room (``new_game``'s keywords) of the host and random bots, played to its end on the defaults."""
    cat = get_catalog()
    st = new_game(seed, **room)
    events = []
    st, ev = apply_action(st, Actor("host"), {"type": "join", "nickname": "Anna", "host": True}, cat)
    events += ev
    for _ in range(players - 1):
        st, ev = apply_action(st, Actor("host"), {"type": "add_bot", "strength": "random"}, cat)
        events += ev
    st, ev = apply_action(st, Actor("host"), {"type": "start"}, cat)
    events += ev
    while st.status == "running":
        p = st.prompts[0]
        st, ev = apply_action(
            st, Actor("seat", p.seat), {"type": "answer", "prompt": p.id, "choice": p.default}, cat
        )
        events += ev
    return st, [{"seq": i + 1, "kind": e.kind, "payload": e.payload} for i, e in enumerate(events)]


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_whole_game_reads_without_fallbacks(lang):
    st, events = play(5)
    with translation.override(lang):
        ctx = eventlog.LogContext.from_state(st, reader_seat=1)
        lines = eventlog.render(events, ctx)
    text = "\n".join(str(line.html) for line in lines)
    assert len(lines) > 200
    assert "Event:" not in text and "Gebeurtenis:" not in text
    assert "%(" not in text and "{" not in text  # every placeholder was filled
    if lang == "nl":
        assert "wint de beker" in text and "gooide" in text
        assert not re.search(r"\b(rolled|lands on|pays|receives|wins the Cup)\b", text)
    else:
        assert "wins the Cup" in text


def test_roll_move_and_landing_are_one_line_and_the_visit_fee_names_the_coach():
    ctx = eventlog.LogContext(names={1: "Anna", 2: "Ben"}, on_square={1: "BRA"})
    events = [
        {"seq": 10, "kind": "rolled", "payload": {"seat": 1, "die": 1}},
        {"seq": 11, "kind": "pawn_moved", "payload": {"seat": 1, "src": 0, "dst": 1, "path": [1], "die": 1}},
        {"seq": 12, "kind": "landed", "payload": {"seat": 1, "square": 1, "square_kind": "country"}},
        {
            "seq": 13,
            "kind": "transfer",
            "payload": {"src": "p1", "dst": "p2", "amount": 120000, "reason": "visit_fee", "country": "BRA"},
        },
    ]
    with translation.override("en"):
        lines = eventlog.render(events, ctx)
        texts = [re.sub(r"<[^>]+>", "", str(line.html)) for line in lines]
    assert texts == [
        "Anna rolled 1 and lands on Brazil.",
        "Anna pays 120,000\u00a0M visit fee for Brazil to Ben.",
    ]
    with translation.override("nl"):
        texts = [re.sub(r"<[^>]+>", "", str(line.html)) for line in eventlog.render(events, ctx)]
    assert texts == [
        "Anna gooide 1 en komt op Brazilië.",
        "Anna betaalt 120.000\u00a0M bezoekgeld voor Brazilië aan Ben.",
    ]


def test_names_are_coloured_and_escaped():
    ctx = eventlog.LogContext(names={3: "<b>Eve</b>"})
    line = eventlog.describe({"seq": 1, "kind": "joined", "payload": {"seat": 3, "nickname": "x"}}, ctx)
    assert str(line.html) == '<b class="who seat-3">&lt;b&gt;Eve&lt;/b&gt;</b> joins the room.'


def test_private_events_speak_to_their_reader():
    ctx = eventlog.LogContext(names={1: "Anna"})
    line = eventlog.describe(
        {"seq": 1, "kind": "card_received", "payload": {"seat": 1, "card": "F001", "source": "box1"}}, ctx
    )
    assert line.private and str(line.html) == "You receive Tiago Mourão (6★)."


def test_an_unknown_kind_still_reads_sensibly():
    ctx = eventlog.LogContext(names={2: "Ben"})
    line = eventlog.describe({"seq": 1, "kind": "m.var_check", "payload": {"seat": 2}}, ctx)
    assert re.sub(r"<[^>]+>", "", str(line.html)) == "Ben: var check."
    line = eventlog.describe({"seq": 2, "kind": "meteor_strike", "payload": {}}, ctx)
    assert str(line.html) == "Event: meteor strike."


def test_quiet_kinds_make_no_line():
    ctx = eventlog.LogContext()
    assert eventlog.describe({"seq": 1, "kind": "deciding", "payload": {"seat": 1, "prompt": 3}}, ctx) is None


@pytest.mark.parametrize(("lang", "text"), [("en", "1,250,000\u00a0M"), ("nl", "1.250.000\u00a0M")])
def test_money_in_the_readers_locale(lang, text):
    with translation.override(lang):
        assert eventlog.money_text(1_250_000) == text


# ------------------------------------------------------------------------------------------ capitals

LOWER_START_VALUES = {  # the words a sentence may begin with that read in lower case mid-sentence
    "seat": None,  # "the house bot" / "de huisbot"
    "src": "bank",  # "the Bank pays …" / "de Bank betaalt …"
    "dst": "bonus",
    "coach": None,
    "side": None,  # "a side" / "een kant"
    "square": 10**6,  # "?" (an unknown square), or a square's label
}


def payload_variants(kind: str, seen: dict[str, list[dict]]) -> list[dict]:
    """The payloads a kind was emitted with in whole games (an empty one for the kinds games do not
    bring: the host's interventions), and each with the fields that put a lower-case word first (the
    house bot, the Bank, …)."""
    base = seen.get(kind, [])[:25] or [{}]
    out = list(base)
    for payload in base:
        for key, value in LOWER_START_VALUES.items():
            out.append({**payload, key: value})
    return out


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_every_log_line_of_every_kind_starts_with_a_capital_or_a_digit(lang):
    seen: dict[str, list[dict]] = {}
    states = []
    for seed in (5, 6, 7):
        st, events = play(seed)
        states.append(st)
        for e in events:
            seen.setdefault(e["kind"], []).append(e["payload"])
    assert len(seen) >= 55  # whole games brought most kinds with real payloads
    checked = 0
    bad = set()
    with translation.override(lang):
        ctx = eventlog.LogContext.from_state(states[0], reader_seat=1)
        for kind in sorted(set(eventlog.HANDLERS) | set(seen)):
            for payload in payload_variants(kind, seen):
                line = eventlog.describe({"seq": 1, "kind": kind, "payload": payload}, ctx)
                if line is None:
                    continue
                text = re.sub(r"<[^>]+>", "", str(line.html))
                checked += 1
                first = re.search(r"\w", text)  # a quoted card name may open the line: “Shines” is …
                if not (first and (first.group().isupper() or first.group().isdigit())):
                    bad.add(f"{kind}: {text}")
        for events in ([{"seq": 1, "kind": "rolled", "payload": {"die": 3}}],):  # the merged roll lines
            for line in eventlog.render(events, ctx):
                text = re.sub(r"<[^>]+>", "", str(line.html))
                if not text[:1].isupper():
                    bad.add(f"merged: {text}")
    assert checked > 1000
    assert sorted(bad) == []


def test_a_nickname_first_in_a_line_is_written_as_its_owner_typed_it():
    ctx = eventlog.LogContext(names={2: "iPhone Joe"})
    line = eventlog.describe({"seq": 1, "kind": "joined", "payload": {"seat": 2}}, ctx)
    assert str(line.html) == '<b class="who seat-2">iPhone Joe</b> joins the room.'
    pay = {"src": "bank", "dst": "p2", "amount": 5, "reason": ""}
    with translation.override("nl"):
        line = eventlog.describe({"seq": 2, "kind": "transfer", "payload": pay}, ctx)
    assert re.sub(r"<[^>]+>", "", str(line.html)).startswith("De Bank ")


@pytest.mark.parametrize(
    ("game", "kind", "players"), [("duel", "single", 2), ("dice-football", "cup", 5), ("duel", "league", 3)]
)
def test_a_competition_room_reads_round_by_round_with_the_seats_names(game, kind, players):
    """Rooms of the other games: the draw, every round, every match event in its game's own words with the
    seats' names for its sides, every result and the winner."""
    options = {"length": "short"} if game == "dice-football" else {}
    rules = {"seats": players, "competition": kind, "options": options}
    st, rows = play(3, players, game=game, house_rules=rules)
    names = {s.nickname for s in st.seats.values()}
    for lang in ("en", "nl"):
        with translation.override(lang):
            ctx = eventlog.LogContext.from_state(st, reader_seat=None)
            lines = eventlog.render(rows, ctx)
        text = "\n".join(str(line.html) for line in lines)
        assert "Event:" not in text and "Gebeurtenis:" not in text and "%(" not in text
        assert "house bot" not in text and "huisbot" not in text
        assert not re.search(r"(?:^|[\s(])\?(?:[\s).,:;]|$)", text)  # no name or card left unknown
        match_lines = [str(line.html) for line in lines if line.kind.startswith("m.")]
        assert len(match_lines) > 10
        assert all(any(name in line for name in names) for line in match_lines if "who" in line)
        assert sum('class="who' in line for line in match_lines) > len(match_lines) // 3
        if lang == "en":
            assert "The draw is made" in text or kind == "single"
            assert text.count("Full time:") >= {"single": 1, "cup": players - 1, "league": 3}[kind]
            assert ("wins the " + kind) in text or kind == "single"
            if game == "dice-football":
                assert "rolls the" in text and "kicks off" in text
        else:
            assert "Full time:" not in text and "wins the" not in text


@pytest.mark.parametrize(
    ("lang", "phrase"), [("en", "no cards left to bring in"), ("nl", "geen kaarten meer om in te brengen")]
)
def test_why_a_duel_half_ended_is_a_phrase_in_the_readers_language(lang, phrase):
    """A room of the card duel: a half that ends without a goal says why in words, not as program text."""
    ctx = eventlog.LogContext(names={1: "Anna", 2: "Ben"}, competition=True, formats={1: "duel"})
    payload = {"match": 1, "period": 2, "goal": None, "reason": "no_cards", "score": [0, 0]}
    with translation.override(lang):
        line = eventlog.describe({"seq": 5, "kind": "m.half_over", "payload": payload}, ctx)
    text = re.sub(r"<[^>]+>", "", str(line.html))
    assert f"({phrase}): 0–0." in text and "Line(" not in text
