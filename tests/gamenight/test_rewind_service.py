"""The host's rewind through the real pipeline: one ``game_act`` (version bump, events, ledger, action
record), the stored game equal to its replay, hidden piles reshuffled and never shown in any frame."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.core.management import call_command
from nightkit import hidden_cards, new_room, play, post, start, state_of, version_of

from cards.models import Match
from tournament.models import ActionRecord, Event, Game, LedgerEntry
from tournament.realtime import frames, html
from tournament.rules.events import Actor
from tournament.rules.projection import Viewer
from tournament.rules.state import BANK, BANK_RESERVE
from tournament.services.actions import game_act
from tournament.services.replays import game_replay
from tournament.services.rewind import rewind_choices
from tournament.services.store import load_snapshot
from tournament.services.timeline import game_timeline

pytestmark = pytest.mark.django_db


def a_game(actions: int = 140, seed: int = 7):
    room = new_room(bots=3, seed=seed)
    start(room.code)
    play(room.code, until=lambda st: version_of(room.code) >= actions)
    return room


def ledger_balances(game: Game) -> Counter:
    totals: Counter = Counter({BANK: BANK_RESERVE})
    for debit, credit, amount in LedgerEntry.objects.filter(game=game).values_list(
        "debit__key", "credit__key", "amount"
    ):
        totals[debit] -= amount
        totals[credit] += amount
    return totals


def test_the_host_rewinds_through_the_console_form_and_everyone_sees_it():
    room = a_game()
    game = Game.objects.get(code=room.code)
    choice = rewind_choices(game, host_seat=1)[5]
    target = game_timeline(game).state_at(choice.to_version)
    before = game.version
    response = post(room.host, room.code, action="rewind", to_version=str(choice.to_version))
    assert response.status_code == 200 and "toast--error" not in response.content.decode()
    game.refresh_from_db()
    assert game.version == before + 1  # the version keeps increasing
    event = Event.objects.get(game=game, kind="rewound")
    assert event.audience is None and event.actor == "host"
    assert event.payload["to_version"] == choice.to_version
    assert event.payload["undone"] == before - choice.to_version
    assert "turns the game back by" in response.content.decode()  # the host's own page logs it at once
    stored = state_of(room.code)
    assert stored.pawn == target.pawn and stored.accounts == target.accounts
    assert {k: v for k, v in stored.squares.items()} == target.squares
    record = ActionRecord.objects.get(game=game, version_before=before)
    assert record.action["type"] == "rewind" and isinstance(record.action["salt"], int)


def test_the_stored_game_equals_its_replay_and_manage_py_replay_passes(capsys):
    room = a_game(seed=8)
    game = Game.objects.get(code=room.code)
    for nth in (3, 0):
        choice = rewind_choices(game, host_seat=1)[nth]
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "rewind", "to_version": choice.to_version},
            expected_version=None,
            action_id=f"rw-{nth}",
        )
        rewound_at = version_of(room.code)
        play(room.code, until=lambda st, v=rewound_at: version_of(room.code) >= v + 30)
    report = game_replay(code=room.code)
    assert report.equal, report.differences
    call_command("replay", room.code)
    assert "OK" in capsys.readouterr().out
    # the money still adds up: balances = the ledger's entries (the rewind booked its difference)
    game.refresh_from_db()
    assert ledger_balances(game) == Counter(state_of(room.code).accounts)


def test_a_client_cannot_choose_the_salt():
    room = a_game(seed=9)
    game = Game.objects.get(code=room.code)
    choice = rewind_choices(game, host_seat=1)[0]
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "rewind", "to_version": choice.to_version, "salt": 1},
        expected_version=None,
        action_id="rw",
    )
    salt = ActionRecord.objects.get(game=game, action_id="rw").action["salt"]
    assert salt != 1


def test_only_the_host_may_rewind():
    room = a_game(actions=60, seed=10)
    game = Game.objects.get(code=room.code)
    choice = rewind_choices(game, host_seat=1)[0]
    with pytest.raises(Exception) as info:
        game_act(
            code=room.code,
            actor=Actor("seat", 1),
            action={"type": "rewind", "to_version": choice.to_version},
            expected_version=None,
            action_id="x",
        )
    assert getattr(info.value, "code", "") == "forbidden"
    assert not Event.objects.filter(game=game, kind="rewound").exists()


def test_matches_created_after_the_moment_disappear():
    room = new_room(bots=3, seed=7)
    start(room.code)
    play(
        room.code,
        until=lambda st: len([m for m in st.matches if m.status == "finished"]) >= 1 and not st.running_match,
    )
    game = Game.objects.get(code=room.code)
    timeline = game_timeline(game)
    before_match = next(
        v
        for v in range(len(timeline), 0, -1)
        if not timeline.state_at(v).matches and timeline.state_at(v).status == "running"
    )
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "rewind", "to_version": before_match},
        expected_version=None,
        action_id="rw",
    )
    assert Match.objects.filter(game=game).count() == 0 == len(state_of(room.code).matches)
    assert game_replay(code=room.code).equal


def test_the_reshuffled_piles_are_stored_and_no_hidden_card_reaches_a_frame():
    room = a_game(seed=11)
    game = Game.objects.get(code=room.code)
    choice = rewind_choices(game, host_seat=1)[2]
    target = game_timeline(game).state_at(choice.to_version)
    result = game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "rewind", "to_version": choice.to_version},
        expected_version=None,
        action_id="rw",
    )
    game.refresh_from_db()
    snap = load_snapshot(game)
    after = snap.state
    assert after.piles["box2"] != target.piles["box2"] and after.piles["box3"] != target.piles["box3"]
    # cards of the blind piles that no public event ever showed (an undone branch may have shown some:
    # those are known to everybody already, only their new place in the pile is not)
    rows = Event.objects.filter(game=game, audience__isnull=True).values_list("payload", flat=True)
    public = " ".join(str(p) for p in rows)
    # (country cards are left out of the text search: a player card names its country, e.g. "POR")
    blind = {c for c in hidden_cards(after) | hidden_cards(target) if any(ch.isdigit() for ch in c)}
    hidden = {c for c in blind if not re.search(rf"\b{c}\b", public)}
    assert len(hidden) > 100
    events = [
        {"seq": s, "kind": k, "payload": p, "audience": a, "actor": ac}
        for s, k, p, a, ac in Event.objects.filter(game=game, seq__gte=result.first_seq)
        .order_by("seq")
        .values_list("seq", "kind", "payload", "audience", "actor")
    ]
    viewers = [Viewer(), Viewer(host=True, seat=1), *(Viewer(seat=s) for s in after.seats)]
    for viewer in viewers:
        for fmt in ("json", "html.en"):
            update = frames.json_update if fmt == "json" else html.update_renderer(fmt)
            texts = [
                frames.initial_frame(snap, viewer, fmt),
                update(snap, viewer, events, result.first_seq),
            ]
            private = (
                Event.objects.filter(game=game)
                .exclude(audience__isnull=True)
                .values_list("payload", "audience")
            )
            mine = " ".join(str(p) for p, a in private if viewer.seat in (a or []))
            own = {c for c in hidden if re.search(rf"\b{c}\b", mine)}
            for text in texts:
                words = set(re.findall(r"[A-Z]{1,3}\d{0,3}", text))
                leaked = sorted((hidden - own) & words)
                where = [
                    text[max(0, m.start() - 300) : m.end() + 60] for c in leaked for m in re.finditer(c, text)
                ][:2]
                assert not leaked, (viewer, fmt, leaked[:5], where)


def test_the_console_offers_only_moments_the_rules_accept():
    room = new_room(bots=3, seed=12)
    start(room.code)
    play(room.code, until=lambda st: st.running_match is not None)
    play(room.code, until=lambda st: st.running_match is None and version_of(room.code) > 0)
    game = Game.objects.get(code=room.code)
    timeline = game_timeline(game)
    choices = rewind_choices(game, host_seat=1)
    assert choices and [c.to_version for c in choices] == sorted(
        (c.to_version for c in choices), reverse=True
    )
    for c in choices:
        state = timeline.state_at(c.to_version)
        assert state.status == "running" and state.running_match is None
        assert c.label  # every moment is named by what happened next
    page = room.host.get(f"/r/{room.code}/rewind").content.decode()
    assert 'name="to_version"' in page and f'value="{choices[0].to_version}"' in page
    assert room.host.get(f"/r/{room.code}/host").status_code == 200
    from django.test import Client

    assert Client().get(f"/r/{room.code}/rewind").status_code == 403
