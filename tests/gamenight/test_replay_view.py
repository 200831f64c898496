"""The replay (/r/<code>/replay): each step is the game as it stood after that action; while the game runs
it shows only what the viewer could see then, once it is over it shows everything (ruling G5)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from nightkit import login, new_room, play, post, start, state_of, version_of

from cards.catalog import get_catalog
from tournament.models import Event, Game
from tournament.rules.events import Actor
from tournament.rules.replay import dump
from tournament.services.actions import game_act
from tournament.services.rooms import room_join
from tournament.services.store import load_snapshot
from tournament.services.timeline import game_timeline

pytestmark = pytest.mark.django_db


def test_every_step_equals_the_live_game_at_that_version():
    room = new_room(bots=3, seed=21)
    live = {version_of(room.code): dump(state_of(room.code))}
    start(room.code)
    for _ in range(150):
        st = state_of(room.code)
        live[version_of(room.code)] = dump(st)
        if not st.prompts:
            break
        p = st.prompts[0]
        game_act(
            code=room.code,
            actor=Actor("seat", p.seat),
            action={"type": "answer", "prompt": p.id, "choice": p.default},
            expected_version=None,
            action_id=f"a{_}",
        )
    game = Game.objects.get(code=room.code)
    timeline = game_timeline(game)
    assert len(timeline) == game.version
    for version, expected in live.items():
        assert dump(timeline.state_at(version)) == expected, version


def names_of(cards: list[str]) -> set[str]:
    cat = get_catalog()
    return {cat.player(c).name for c in cards if not c.startswith("M")}


def test_while_the_game_runs_a_replay_hides_what_the_viewer_could_not_see():
    room = new_room(bots=2, seed=22)
    _seat, ben_token = room_join(code=room.code, nickname="Ben")
    ben = Client()
    login(ben, room.code, token=ben_token)
    start(room.code)
    play(
        room.code,
        until=lambda st: all(st.seats[s].is_bc and not st.piles.get(f"selection:{s}") for s in (1, 4)),
    )
    st = state_of(room.code)
    rows = Event.objects.filter(game__code=room.code, audience__isnull=True).values_list("payload", flat=True)
    public = " ".join(str(p) for p in rows)
    ben_cards = names_of(st.piles["team:4"])
    anna_secret = names_of([c for c in st.piles["team:1"] if c not in public])  # dealt to her privately
    never_public = names_of([c for c in st.piles["box1"] + st.piles["official_fields"] if c not in public])
    assert anna_secret and never_public
    rows = Event.objects.filter(game__code=room.code, audience__isnull=False).values_list(
        "payload", "audience"
    )
    private = " ".join(str(p) for p, audience in rows if 4 in audience)  # what Ben alone was shown
    ben_saw = names_of([c for c in st.piles["box1"] + st.piles["official_fields"] if c in private])
    last = version_of(room.code)
    for step in (last // 2, last):
        spectator = Client().get(f"/r/{room.code}/replay?step={step}").content.decode()
        mine = ben.get(f"/r/{room.code}/replay?step={step}").content.decode()
        assert "every spectator saw" in spectator and "your own cards" in mine
        for html, saw in ((spectator, set()), (mine, ben_saw)):
            assert not [n for n in never_public - saw if n in html]
            assert not [n for n in anna_secret if n in html]
        if step == last:
            assert any(n in mine for n in ben_cards)  # a seated player sees his own past cards
            assert not [n for n in ben_cards if n in spectator and n not in public]
    assert "record.json" not in Client().get(f"/r/{room.code}/replay").content.decode()
    assert Client().get(f"/r/{room.code}/record.json").status_code == 403  # the seed would tell every card


def test_a_finished_game_replays_with_every_card_shown():
    room = new_room(bots=3, seed=23)
    start(room.code)
    play(room.code, until=lambda st: st.phase == "phase2")
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "end_game"},
        expected_version=None,
        action_id="end",
    )
    st = load_snapshot(Game.objects.get(code=room.code)).state
    step = version_of(room.code) - 2
    html = Client().get(f"/r/{room.code}/replay?step={step}").content.decode()
    assert "every card is shown" in html and "Every team at this step" in html
    at_step = game_timeline(Game.objects.get(code=room.code)).state_at(step)
    shown = html.replace("\u00ad", "")  # the cards' long names carry soft hyphens
    for seat in st.seats:
        for name in names_of(at_step.piles.get(f"team:{seat}", [])):
            assert name in shown
    assert "record.json" in html


def test_stepping_jumping_and_the_bounds():
    room = new_room(bots=3, seed=24)
    start(room.code)
    play(room.code, until=lambda st: st.running_match is not None)
    play(room.code, until=lambda st: st.running_match is None)
    last = version_of(room.code)
    client = Client()
    first = client.get(f"/r/{room.code}/replay?step=0").content.decode()
    assert "Step 0 of" in first and "has not started yet at this step" in first
    html = client.get(f"/r/{room.code}/replay?step=9999").content.decode()
    assert f"Step {last} of {last}" in html  # clamped to the latest step
    assert f"Step {last} of {last}" in client.get(f"/r/{room.code}/replay?step=abc").content.decode()
    middle = client.get(f"/r/{room.code}/replay?step=12").content.decode()
    assert (
        f'href="/r/{room.code}/replay?step=11"' in middle
        and f'href="/r/{room.code}/replay?step=13"' in middle
    )
    assert 'data-replay-key="ArrowRight"' in middle and 'id="board-svg"' in middle
    match_step = int(re.search(r'<option value="(\d+)"[^>]*>Challenge', html).group(1))
    at_match = client.get(f"/r/{room.code}/replay?step={match_step}").content.decode()
    assert (
        'id="duel"' in at_match
        and 'id="duel" class="panel duel"' in at_match
        and " hidden" not in re.search(r'<section id="duel"[^>]*>', at_match).group(0)
    )
    assert client.get("/r/nosuchroom/replay").status_code == 404


def test_the_log_of_a_step_names_what_happened_in_it():
    room = new_room(bots=3, seed=25)
    start(room.code)
    play(room.code, until=lambda st: version_of(room.code) >= 12)
    html = Client().get(f"/r/{room.code}/replay?step=5").content.decode()
    assert "Step 5 of" in html and "starting capital" in html  # step 5 is the start of the game


def test_jump_to_a_match_marks_the_matches_a_rewind_undid():
    room = new_room(bots=3, seed=24)
    start(room.code)
    play(room.code, until=lambda st: st.running_match is not None)
    started_at = version_of(room.code)  # the action that started the match made this version
    play(room.code, until=lambda st: st.running_match is None)
    response = post(room.host, room.code, action="rewind", to_version=str(started_at - 1))
    assert "toast--error" not in response.content.decode()
    play(room.code, until=lambda st: st.running_match is not None)  # a match is played after the rewind

    def jumps(lang: str) -> list[tuple[int, str]]:
        page = Client().get(f"/r/{room.code}/replay", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        select = re.search(r'<select[^>]*id="replay-match".*?</select>', page, re.S).group(0)
        return [
            (int(v), " ".join(t.split()))
            for v, t in re.findall(r'<option value="(\d+)"[^>]*>(.*?)</option>', select, re.S)
        ]

    options = jumps("en")
    assert len(options) == 2
    (undone_step, undone), (again_step, again) = options
    assert undone_step == started_at and undone.endswith("(undone by a rewind)")
    assert again_step > started_at and "undone" not in again
    assert jumps("nl")[0][1].endswith("(ongedaan gemaakt door terugdraaien)")
