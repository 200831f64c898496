"""Fuzzed input (issue 8): hypothesis-generated websocket frames and form posts — malformed JSON, huge
frames, wrong types, unknown actions, other seats' ids, negative or giant amounts, unicode nicknames,
HTML/script injection — never produce a 500, an unhandled exception, a partially applied action or
unescaped HTML. Oversize frames are refused; each connection is rate limited.

After every example the stored game must still be sound: its invariants hold and it equals its replay
from seed and action log (an action applied in part would break one or the other); a refused frame
changes nothing at all.
"""

from __future__ import annotations

import html
import json
import logging
from collections import Counter
from typing import Any

import pytest
import sweep
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from cards.catalog import get_catalog
from tournament.consumers import MAX_FRAME, RATE_BURST
from tournament.models import ActionRecord, Game
from tournament.rules import invariants
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.replays import game_replay
from tournament.services.rooms import room_create, room_join
from tournament.services.store import load_snapshot

pytestmark = pytest.mark.django_db(transaction=True)

INJECTIONS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=a()>",
    '"><svg onload=alert(1)>',
    "</textarea><b>x</b>",
    "{{ 7*7 }} {% debug %}",
    "javascript:alert(1)",
    "' OR 1=1 --",
    "\u202eevil\u202c",
    "Zoë 🏆 ⚽",
    "\x00\x07",
]
NICKNAMES = st.one_of(st.sampled_from(INJECTIONS), st.text(max_size=40), st.text(min_size=20, max_size=30))
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=30),
)
JSON = st.recursive(
    JUNK,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
NUMBERS = st.one_of(
    st.integers(min_value=-3, max_value=12), st.integers(min_value=-(2**64), max_value=2**64), JUNK
)
ACCOUNTS = st.one_of(st.sampled_from(["bank", "bonus", "p1", "p2", "p3", "p4", "p9", "p0", "BANK"]), JUNK)
ACTION_TYPES = [
    "join",
    "add_bot",
    "remove_seat",
    "house_rules",
    "start",
    "roll",
    "answer",
    "force_default",
    "pause",
    "resume",
    "end_game",
    "transfer",
    "seat_bot",
    "teleport",
    "",
    "__class__",
]
# chess football's notation (RULES.md §10): legal-looking, illegal, malformed
CHESS_MOVES = [
    "Lc5-d6",
    "Lg9-f8",
    "Ce7-e9",
    "e7>e9",
    "e7>e14",
    "Ke0-e1",
    "Db3-b4",
    "Df11xe10",
    "concede",
    "forfeit",
    "pass",
    "+L1a5",
    "b13=b3;Lg7-h8",
    "Ke0-d1>e5",
    "Qe0-e1",
    "La5-a15",
    "e7>",
    "Lc5-d6 ",
    "",
]
# grid football's decisions (RULES.md §10): a line-up of squad numbers, a walk, a kick's path, …
GRID_SQUARES = st.one_of(st.sampled_from(["5,8", "0,6", "5,0", "11,16", "12,3", "5,,8", "x,y", ""]), JUNK)
GRID_CHOICES = st.one_of(
    st.fixed_dictionaries(
        {"kind": st.just("lineup")},
        optional={
            "players": st.one_of(st.lists(st.integers(min_value=-2, max_value=25), max_size=14), JUNK),
            "keeper_column": st.one_of(st.integers(min_value=3, max_value=8), JUNK),
            "centre": st.one_of(st.lists(st.integers(min_value=4, max_value=7), max_size=4), JUNK),
        },
    ),
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(
                ["walk", "ball", "kick", "intercept", "let_pass", "save", "roll", "substitute"]
            )
        },
        optional={
            "player": st.one_of(st.integers(min_value=0, max_value=21), JUNK),
            "to": GRID_SQUARES,
            "steps": st.one_of(st.integers(min_value=-1, max_value=7), JUNK),
            "path": st.one_of(st.sampled_from(["5,7>5,8", "5,8>5,9>5,10", "5,8>", ">"]), JUNK),
            "square": GRID_SQUARES,
            "on": JUNK,
            "off": JUNK,
        },
    ),
)
CHOICES = st.one_of(
    JSON,
    GRID_CHOICES,
    st.fixed_dictionaries({"roll": JUNK}),
    st.fixed_dictionaries({"buy": JUNK}),
    st.fixed_dictionaries({"card": st.sampled_from(["F001", "K01", "M01", "G01", "R01", "NED", "F999"])}),
    st.fixed_dictionaries({"kind": st.sampled_from(["pass", "swap", "play", "lineup"]), "card": JUNK}),
    st.fixed_dictionaries({"field": st.lists(st.text(max_size=5), max_size=12), "keeper": JUNK}),
    st.fixed_dictionaries({"keep": st.lists(JUNK, max_size=6)}),
    st.fixed_dictionaries(  # chess football's decisions: a move in notation, a penalty's aim, a cover
        {"kind": st.sampled_from(["move", "penalty", "cover"])},
        optional={
            "move": st.one_of(st.sampled_from(CHESS_MOVES), st.text(max_size=20), JUNK),
            "aim": st.one_of(st.sampled_from(["d0", "e14", "z9", ""]), JUNK),
            "taker": st.one_of(st.sampled_from(["L1", "C", "D1", "K"]), JUNK),
            "square": st.one_of(st.sampled_from(["e0", "f14", "e99"]), JUNK),
        },
    ),
)
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES)},
    optional={
        "nickname": NICKNAMES,
        "strength": st.one_of(st.sampled_from(["easy", "strong", "random", "godlike"]), JUNK),
        "seat": NUMBERS,
        "prompt": NUMBERS,
        "choice": CHOICES,
        "src": ACCOUNTS,
        "dst": ACCOUNTS,
        "amount": st.one_of(st.integers(min_value=-(10**12), max_value=10**12), NUMBERS),
        "memo": st.one_of(st.text(max_size=250), st.sampled_from(INJECTIONS)),
        "bot": JUNK,
        "seats": NUMBERS,
        "mode": st.one_of(st.sampled_from(["world_cup", "euro", "mars"]), JUNK),
        "decision_timer": NUMBERS,
        "host": JUNK,
    },
)
ACTION_IDS = st.one_of(st.from_regex(r"[A-Za-z0-9_.:-]{1,64}", fullmatch=True), st.text(max_size=70), JUNK)
VALID_IDS = st.from_regex(r"[A-Za-z0-9_.:-]{1,64}", fullmatch=True)
# Actions that are often legal, so that accepted actions are fuzzed too (and checked for being whole).
LIKELY = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("transfer"),
            "src": st.sampled_from(["bank", "p1", "p2", "bonus"]),
            "dst": st.sampled_from(["p1", "p2", "p3", "bonus", "bank"]),
            "amount": st.integers(min_value=1, max_value=3_000_000),
            "memo": st.one_of(st.text(min_size=1, max_size=60), st.sampled_from(INJECTIONS)),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("answer"),
            "prompt": st.integers(min_value=1, max_value=40),
            "choice": st.sampled_from(
                [
                    {"roll": True},
                    {"buy": True},
                    {"buy": False},
                    {"contract": True},
                    {"contract": False},
                    {"take": "money"},
                    {"take": "match"},
                    {"kind": "pass"},
                    {"kind": "move", "move": "Lc5-d6"},
                    {"kind": "move", "move": "Lg9-f8"},
                    {"kind": "move", "move": "e7>e9"},
                    {"kind": "lineup", "players": [1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15]},
                    {"kind": "roll"},
                ]
            ),
        }
    ),
    st.fixed_dictionaries(  # a board's button: the number of a listed choice (any game)
        {
            "type": st.just("answer"),
            "prompt": st.integers(min_value=1, max_value=40),
            "pick": st.one_of(st.integers(min_value=-1, max_value=6), JUNK),
        }
    ),
    st.fixed_dictionaries({"type": st.just("join"), "nickname": NICKNAMES}),
    st.fixed_dictionaries({"type": st.sampled_from(["pause", "resume", "add_bot", "roll"])}),
    st.fixed_dictionaries(
        {"type": st.just("force_default"), "prompt": st.integers(min_value=1, max_value=40)}
    ),
)
LIKELY_FRAME = st.fixed_dictionaries({"type": st.just("act"), "action": LIKELY, "action_id": VALID_IDS}).map(
    json.dumps
)
FRAMES = st.one_of(
    LIKELY_FRAME,
    LIKELY_FRAME,
    LIKELY_FRAME,
    LIKELY_FRAME,
    st.fixed_dictionaries(
        {"type": st.just("act"), "action": st.one_of(ACTIONS, JSON), "action_id": ACTION_IDS},
        optional={"version": NUMBERS},
    ).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("sync")}, optional={"since": NUMBERS}).map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.just("hello")}, optional={"token": JUNK, "host_key": JUNK, "spectator": JUNK}
    ).map(json.dumps),
    st.sampled_from(['{"type":"ack"}', '{"type":"ping"}', '{"type":"ack","extra":[1,2]}']),
    st.fixed_dictionaries({"type": JUNK}).map(json.dumps),
    JSON.map(json.dumps),
    st.text(max_size=200),
    st.integers(min_value=MAX_FRAME - 60, max_value=3 * MAX_FRAME).map(
        lambda n: json.dumps(
            {"type": "act", "action": {"type": "join", "nickname": "é" * n}, "action_id": "big"}
        )
    ),
)


def _room(phase: str) -> tuple[Any, dict[int, str]]:
    """A room with the host (seat 1) and two players; ``…-dice`` / ``…-chess`` / ``…-grid``: a dice-, chess-
    or grid-football cup instead."""
    other = {"-dice": "dice-football", "-chess": "chess-football", "-grid": "grid-football"}.get(
        phase[phase.rfind("-") :]
    )
    if other is not None:
        rules = {"seats": 6, "competition": "cup", "options": {"length": "short"}}
        room = room_create(nickname="Hosta", seed=17, house_rules=rules, game=other)
    else:
        room = room_create(nickname="Hosta", seed=17, house_rules={"seats": 6})
    tokens = {1: room.token}
    for name in ("Ben", "Cy"):
        seat, token = room_join(code=room.code, nickname=name)
        tokens[seat] = token
    if phase.startswith("running"):
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=None,
            action_id="start",
        )
    return room, tokens


def _snapshot_rows(code: str) -> tuple[Any, ...]:
    game = Game.objects.get(code=code)
    return (
        game.version,
        game.last_seq,
        ActionRecord.objects.filter(game=game).count(),
        tuple(game.participants.order_by("seat").values_list("seat", "nickname")),
        tuple(game.accounts.order_by("key").values_list("key", "balance")),
    )


def _sound(code: str) -> None:
    game = Game.objects.get(code=code)
    state = load_snapshot(game).state
    assert invariants.check(state, get_catalog()) == []
    report = game_replay(code=code)
    assert report.equal, report.differences


class _Errors(logging.Handler):
    """Collects ERROR records (an unhandled exception is logged by the consumer, the views and Django)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def errors() -> Any:
    handler = _Errors()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)


def _is_ping(text: str) -> bool:
    """A frame the server must answer with a pong."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        return False
    try:
        frame = json.loads(text)
    except ValueError:
        return False
    return isinstance(frame, dict) and frame.get("type") == "ping"


async def _exchange(code: str, hello: dict[str, str] | None, frames: list[str]) -> list[dict[str, Any]]:
    """Send the frames on one socket; return every frame the server answered (then prove it is alive)."""
    from magicfootball.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    if hello:
        await comm.send_to(text_data=json.dumps({"type": "hello", **hello}))
    answers: list[dict[str, Any]] = []
    for text in frames:  # (send_input: the communicator's send_to refuses an empty text frame)
        await comm.send_input({"type": "websocket.receive", "text": text})
    await comm.send_to(text_data='{"type":"ping"}')
    pongs = 1 + sum(1 for text in frames if _is_ping(text))
    while pongs:
        answer = json.loads(await comm.receive_from(timeout=10))
        answers.append(answer)
        pongs -= answer["type"] == "pong"
        if answer["type"] in ("state", "update"):
            await comm.send_to(text_data='{"type":"ack"}')
    await comm.disconnect()
    return answers


FUZZ_EXAMPLES = sweep.examples(150)  # 100 already found the one bug the fuzzer found so far (checked)
# each example talks to a room of the test database: no deadline, and large frames are the point
UNHURRIED: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
}
tally: Counter[str] = Counter()


@pytest.mark.parametrize("phase", ["lobby", "running", "running-dice"])
@hsettings(max_examples=FUZZ_EXAMPLES, **UNHURRIED)
@given(frames=st.lists(FRAMES, min_size=1, max_size=8), seat=st.sampled_from(["host", 1, 2, None, "host"]))
def test_fuzzed_websocket_frames_never_break_the_server_nor_the_game(
    phase: str, frames: list[str], seat: int | str | None, errors: Any
) -> None:
    _fuzz_frames(phase, frames, seat, errors)


# A chess-football cup: its decisions in notation (moves, penalties) besides everything above. Fewer examples:
# the room's machinery is the dice room's, fuzzed in full above.
CHESS_EXAMPLES = sweep.examples(40)


@hsettings(max_examples=CHESS_EXAMPLES, **UNHURRIED)
@given(frames=st.lists(FRAMES, min_size=1, max_size=8), seat=st.sampled_from(["host", 1, 2, None]))
def test_fuzzed_websocket_frames_in_a_chess_room(
    frames: list[str], seat: int | str | None, errors: Any
) -> None:
    _fuzz_frames("running-chess", frames, seat, errors)


# A grid-football cup: its line-ups (squad numbers) and its decisions of squares and paths.
@hsettings(max_examples=CHESS_EXAMPLES, **UNHURRIED)
@given(frames=st.lists(FRAMES, min_size=1, max_size=8), seat=st.sampled_from(["host", 1, 2, None]))
def test_fuzzed_websocket_frames_in_a_grid_room(
    frames: list[str], seat: int | str | None, errors: Any
) -> None:
    _fuzz_frames("running-grid", frames, seat, errors)


def _fuzz_frames(phase: str, frames: list[str], seat: int | str | None, errors: Any) -> None:
    key = f"room-{phase}"
    if key not in ROOMS:
        ROOMS[key] = _room(phase)
    room, tokens = ROOMS[key]
    before = _snapshot_rows(room.code)
    hello = (
        {"token": tokens[seat]} if isinstance(seat, int) else {"host_key": room.host_key} if seat else None
    )
    answers = async_to_sync(_exchange)(room.code, hello, frames)
    tally["frames"] += len(frames)
    tally["accepted"] += len([a for a in answers if a["type"] == "result"])
    if tally["frames"] % 200 < len(frames):
        print(f"fuzzed websocket frames so far: {dict(tally)}")
    codes = [a.get("code") for a in answers if a["type"] == "error"]
    assert "server_error" not in codes
    assert not errors.records, [r.getMessage() for r in errors.records[:3]]
    for text in frames:
        if len(text.encode()) > MAX_FRAME:
            assert "malformed" in codes  # oversize frames are refused
    results = [a for a in answers if a["type"] == "result" and not a.get("duplicate")]
    after = _snapshot_rows(room.code)
    if not results:
        assert after == before, "a refused frame changed the game"
    else:
        assert after[0] == before[0] + len(results)  # each accepted action: exactly one new version
        _sound(room.code)


ROOMS: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _fresh_rooms() -> Any:
    ROOMS.clear()
    yield
    ROOMS.clear()


def test_oversize_frames_are_refused_and_the_socket_lives_on() -> None:
    room, _tokens = _room("lobby")
    exact = json.dumps({"type": "ping", "pad": ""})
    exact = exact.replace('"pad": ""', '"pad": "' + "x" * (MAX_FRAME - len(exact)) + '"')
    assert len(exact.encode()) == MAX_FRAME
    wide = json.dumps(
        {"type": "ping", "pad": "€" * (MAX_FRAME // 3 + 1)}, ensure_ascii=False
    )  # < MAX_FRAME chars
    assert len(wide) < MAX_FRAME < len(wide.encode())
    answers = async_to_sync(_exchange)(room.code, None, [exact, wide, "x" * (MAX_FRAME + 1)])
    kinds = [a["type"] if a["type"] != "error" else a["code"] for a in answers if a["type"] != "state"]
    assert kinds == ["pong", "malformed", "malformed", "pong"]


def test_each_connection_is_rate_limited_and_a_limited_action_is_not_applied() -> None:
    room, _tokens = _room("running")
    frames = [
        json.dumps(
            {
                "type": "act",
                "action": {"type": "transfer", "src": "bank", "dst": "p2", "amount": 1, "memo": "x"},
                "action_id": f"burst-{i}",
            }
        )
        for i in range(40)
    ]
    answers = async_to_sync(_exchange)(room.code, {"host_key": room.host_key}, frames)
    limited = [a["action_id"] for a in answers if a.get("code") == "rate_limited"]
    accepted = [a["action_id"] for a in answers if a["type"] == "result"]
    assert RATE_BURST <= len(accepted) < 40 and len(limited) == 40 - len(accepted)
    stored = set(ActionRecord.objects.filter(game__code=room.code).values_list("action_id", flat=True))
    assert not stored & set(limited) and set(accepted) <= stored


# ------------------------------------------------------------------------------------ form posts
FORM_NAMES = [
    "roll",
    "buy",
    "contract",
    "luck",
    "return_card",
    "discard_match",
    "marker",
    "keep_selection",
    "ac_keep",
    "lineup",
    "window",
    "add_bot",
    "remove_seat",
    "leave",
    "house_rules",
    "start",
    "pause",
    "resume",
    "end_game",
    "transfer",
    "seat_bot",
    "force_default",
    "fly",
    "",
]
FIELD_NAMES = [
    "action",
    "version",
    "action_id",
    "prompt",
    "buy",
    "contract",
    "square",
    "card",
    "take",
    "field",
    "keeper",
    "keep",
    "order",
    "reserve",
    "choice",
    "strength",
    "seat",
    "mode",
    "seats",
    "visit_fee_to",
    "decision_timer",
    "src",
    "dst",
    "amount",
    "memo",
    "bot",
    "nickname",
    "x" * 50,
]
FORM_VALUES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(INJECTIONS),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(["yes", "no", "1.000.000", "p2", "bank", "F001", "K01", "play:M01", "pass", "world_cup"]),
    st.text(min_size=390, max_size=450),
)
FORMS = st.fixed_dictionaries(
    {"action": st.sampled_from(FORM_NAMES), "action_id": st.one_of(st.just("fuzz"), st.text(max_size=70))},
    optional={
        "version": st.one_of(st.integers(min_value=-5, max_value=200).map(str), st.text(max_size=12)),
        **{name: st.one_of(FORM_VALUES, st.lists(FORM_VALUES, max_size=18)) for name in FIELD_NAMES[3:]},
    },
)


def _browser(code: str, creds: dict[str, str] | None, htmx: bool) -> Client:
    client = Client(HTTP_HX_REQUEST="true") if htmx else Client()
    if creds:
        session = client.session
        session["rooms"] = {code: creds}
        session.save()
        client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    return client


def _unescaped(body: str, values: list[str]) -> list[str]:
    """Posted values that contain markup and came back verbatim (not escaped)."""
    return [v for v in values if ("<" in v or '"' in v) and len(v) >= 4 and v in body]


@pytest.mark.parametrize("phase", ["lobby", "running", "running-dice"])
@hsettings(max_examples=FUZZ_EXAMPLES, **UNHURRIED)
@given(form=FORMS, who=st.sampled_from(["anonymous", "seat 2", "host"]), htmx=st.booleans())
def test_fuzzed_form_posts_never_500_nor_break_the_game_nor_echo_markup(
    phase: str, form: dict[str, Any], who: str, htmx: bool, errors: Any
) -> None:
    _fuzz_form(phase, form, who, htmx, errors)


@hsettings(max_examples=CHESS_EXAMPLES, **UNHURRIED)
@given(form=FORMS, who=st.sampled_from(["anonymous", "seat 2", "host"]), htmx=st.booleans())
def test_fuzzed_form_posts_in_a_chess_room(form: dict[str, Any], who: str, htmx: bool, errors: Any) -> None:
    _fuzz_form("running-chess", form, who, htmx, errors)


@hsettings(max_examples=CHESS_EXAMPLES, **UNHURRIED)
@given(form=FORMS, who=st.sampled_from(["anonymous", "seat 2", "host"]), htmx=st.booleans())
def test_fuzzed_form_posts_in_a_grid_room(form: dict[str, Any], who: str, htmx: bool, errors: Any) -> None:
    _fuzz_form("running-grid", form, who, htmx, errors)


def _fuzz_form(phase: str, form: dict[str, Any], who: str, htmx: bool, errors: Any) -> None:
    key = f"room-{phase}"
    if key not in ROOMS:
        ROOMS[key] = _room(phase)
    room, tokens = ROOMS[key]
    creds = (
        {"token": tokens[2]} if who == "seat 2" else {"host_key": room.host_key} if who == "host" else None
    )
    before = _snapshot_rows(room.code)
    data = dict(form)
    if data.get("version") is None:
        data["version"] = str(before[0])
    response = _browser(room.code, creds, htmx).post(f"/r/{room.code}/act", data)
    tally["forms"] += 1
    assert response.status_code < 500
    assert not errors.records, [r.getMessage() for r in errors.records[:3]]
    after = _snapshot_rows(room.code)
    assert after[0] in (before[0], before[0] + 1)
    if after != before:
        _sound(room.code)
    values = [v for v in data.values() if isinstance(v, str)] + [
        x for v in data.values() if isinstance(v, list) for x in v
    ]
    assert not _unescaped(response.content.decode(errors="replace"), values)


@hsettings(
    max_examples=sweep.examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(nickname=NICKNAMES)
def test_any_nickname_is_refused_cleanly_or_shown_escaped_everywhere(nickname: str, errors: Any) -> None:
    """Unicode and HTML in nicknames: joining either fails with a clear error or the name is escaped in
    every page and frame that shows it."""
    room = room_create(nickname=None, seed=5, house_rules={"seats": 8})
    browser = Client()
    response = browser.post(f"/r/{room.code}/join", {"nickname": nickname})
    assert response.status_code in (302, 400), response.status_code
    assert not errors.records
    joined = Game.objects.get(code=room.code).participants.values_list("nickname", flat=True)
    if response.status_code == 400:
        assert not joined
        assert not _unescaped(response.content.decode(), [nickname])
        return
    (stored,) = joined
    pages = [browser.get(f"/r/{room.code}/{page}").content.decode() for page in ("", "watch", "bracket")]
    host = (
        _browser(room.code, {"host_key": room.host_key}, False).get(f"/r/{room.code}/host").content.decode()
    )
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "add_bot", "strength": "easy"},
        expected_version=None,
        action_id="b",
    )
    game_act(
        code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None, action_id="s"
    )
    pages.append(browser.get(f"/r/{room.code}/").content.decode())
    frames_html = async_to_sync(_html_frames)(room.code)
    for text in [*pages, host, *frames_html]:
        assert not _unescaped(text, [stored]), stored
    shows_seats = [pages[0], pages[-1], host, *frames_html]  # lobby, game page, host console, frames
    if any(c in stored for c in "<>&\"'"):
        for text in shows_seats:
            assert html.escape(stored, quote=False) in text or html.escape(stored) in text


async def _html_frames(code: str) -> list[str]:
    from magicfootball.asgi import application

    comm = WebsocketCommunicator(
        application, f"/ws/r/{code}/?format=html", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=10)
    await database_sync_to_async(game_act)(
        code=code, actor=Actor("host"), action={"type": "pause"}, expected_version=None, action_id="p"
    )
    second = await comm.receive_from(timeout=10)
    await comm.disconnect()
    return [first, second]
