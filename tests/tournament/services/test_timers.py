"""The decision timer in server time (R19, R19a–c): ``game_act`` stores each human decision's deadline with
the game, a pause freezes it into the time left and the resume re-arms it, a seat a bot holds has none,
and the timer's own default is refused before the deadline. The clock is a hand-moved stand-in for
``timers.clock_ms``, so minutes of play take no time."""

from __future__ import annotations

import pytest

from tournament.models import Event, Game
from tournament.rules.errors import RulesError
from tournament.rules.events import Actor
from tournament.rules.projection import SPECTATOR, Viewer
from tournament.selectors import view_for
from tournament.services import timers
from tournament.services.actions import current_snapshot, game_act
from tournament.services.replays import game_replay
from tournament.services.rooms import new_action_id, room_create
from tournament.services.store import cache, load_snapshot

pytestmark = pytest.mark.django_db

TIMER = 60


class HandClock:
    """``timers.clock_ms`` that moves only when the test says so."""

    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> HandClock:
    hand = HandClock()
    monkeypatch.setattr(timers, "clock_ms", hand)
    return hand


def _act(code: str, actor: Actor, action: dict) -> None:
    game_act(code=code, actor=actor, action=action, expected_version=None, action_id=new_action_id())


def _state(code: str):
    return current_snapshot(Game.objects.get(code=code)).state


def _room_at_annas_decision() -> tuple[str, int]:
    """Anna (seat 1, human) and an easy bot (seat 2), a 60 s timer; the bot's decisions are answered
    here (no driver runs) until one of Anna's is open."""
    room = room_create(
        nickname="Anna", bots=["easy"], seed=31, house_rules={"seats": 2, "decision_timer": 60}
    )
    _act(room.code, Actor("host"), {"type": "start"})
    for _ in range(200):
        st = _state(room.code)
        mine = [p for p in st.prompts if p.seat == 1]
        if mine:
            return room.code, mine[0].id
        p = st.prompts[0]
        _act(room.code, Actor("seat", p.seat), {"type": "answer", "prompt": p.id, "choice": p.default})
    raise AssertionError("Anna never got a decision")


def _timer_default(code: str, prompt_id: int) -> None:
    game_act(
        code=code,
        actor=Actor("system"),
        action={"type": "force_default", "prompt": prompt_id},
        expected_version=None,
        action_id=f"timer-{prompt_id}",
    )


def _defaults(code: str) -> list[dict]:
    return list(
        Event.objects.filter(game__code=code, kind="decided_by_default").values_list("payload", flat=True)
    )


def test_a_pause_freezes_the_deadline_and_the_resume_gives_back_exactly_what_was_left(
    clock: HandClock,
) -> None:
    opened = clock.ms
    code, prompt_id = _room_at_annas_decision()
    assert _state(code).prompt(prompt_id).deadline == opened + TIMER * 1000  # stored in server time

    clock.advance(51)  # 9 s left
    with pytest.raises(RulesError) as early:
        _timer_default(code, prompt_id)
    assert early.value.code == "timer_running" and early.value.params["seconds"] == 9

    _act(code, Actor("host"), {"type": "pause"})
    frozen = _state(code).prompt(prompt_id)
    assert frozen.deadline is None and frozen.left == 9000
    clock.advance(40)  # a 40 s pause: longer than what was left
    with pytest.raises(RulesError) as paused:
        _timer_default(code, prompt_id)
    assert paused.value.code == "game_paused"

    _act(code, Actor("host"), {"type": "resume"})
    resumed = _state(code).prompt(prompt_id)
    assert resumed.left is None and resumed.deadline == clock.ms + 9000  # the 9 s that were left
    clock.advance(8.9)
    with pytest.raises(RulesError):
        _timer_default(code, prompt_id)
    assert _defaults(code) == []
    clock.advance(0.1)
    _timer_default(code, prompt_id)
    assert _defaults(code) == [{"seat": 1, "prompt": prompt_id, "by": "system"}]


def test_every_viewer_and_a_restarted_server_read_the_same_deadline(clock: HandClock) -> None:
    code, prompt_id = _room_at_annas_decision()
    game = Game.objects.get(code=code)
    snap = current_snapshot(game)
    deadline = snap.state.prompt(prompt_id).deadline
    clock.advance(16)  # later readers (a reload) see the same deadline, not a fresh 60 s
    cache.clear()  # another process, or this one after a restart: the deadline comes from the database
    fresh = load_snapshot(Game.objects.get(code=code))
    for viewer in (Viewer(seat=1), Viewer(seat=2), SPECTATOR, Viewer(host=True)):
        prompts = {p["id"]: p for p in view_for(fresh, viewer)["prompts"]}
        assert prompts[prompt_id]["deadline"] == deadline and prompts[prompt_id]["left"] is None
    assert timers.seconds_left(prompts[prompt_id], clock.ms) == TIMER - 16


def test_a_seat_a_bot_holds_has_no_timer_and_the_human_gets_a_full_one_back(clock: HandClock) -> None:
    code, prompt_id = _room_at_annas_decision()
    clock.advance(50)
    _act(code, Actor("host"), {"type": "seat_bot", "seat": 1, "bot": True})
    held = _state(code).prompt(prompt_id)
    assert held.deadline is None and held.left is None  # the bot decides, no clock runs for it
    _act(code, Actor("host"), {"type": "seat_bot", "seat": 1, "bot": False})
    back = _state(code).prompt(prompt_id)
    assert back.deadline == clock.ms + TIMER * 1000


def test_the_host_may_decide_by_default_before_the_deadline(clock: HandClock) -> None:
    code, prompt_id = _room_at_annas_decision()
    _act(code, Actor("host"), {"type": "force_default", "prompt": prompt_id})
    assert _defaults(code) == [{"seat": 1, "prompt": prompt_id, "by": "host"}]


def test_a_game_with_a_timer_pauses_and_a_bot_held_seat_replays_to_the_stored_state(clock: HandClock) -> None:
    """The deadlines live beside the rules: replaying the recorded actions (the timer's defaults, pauses,
    a seat handed to a bot and back) from the seed rebuilds the same game (``manage.py replay``)."""
    code, prompt_id = _room_at_annas_decision()
    clock.advance(TIMER)
    _timer_default(code, prompt_id)
    for step in range(60):
        if step == 10:
            _act(code, Actor("host"), {"type": "seat_bot", "seat": 1, "bot": True})
        if step == 30:
            _act(code, Actor("host"), {"type": "seat_bot", "seat": 1, "bot": False})
        if step % 7 == 0:
            _act(code, Actor("host"), {"type": "pause"})
            clock.advance(5)
            _act(code, Actor("host"), {"type": "resume"})
        st = _state(code)
        if st.status != "running" or not st.prompts:
            break
        p = st.prompts[0]
        if p.deadline is not None:  # Anna never answers: the timer decides for her
            clock.ms = p.deadline
            _timer_default(code, p.id)
        else:
            _act(code, Actor("seat", p.seat), {"type": "answer", "prompt": p.id, "choice": p.default})
    report = game_replay(code=code)
    assert report.equal, report.differences
    assert len(_defaults(code)) >= 5
