"""Replays and game records: step through a game's events, download its record, import a record.

``/r/<code>/replay?step=N`` shows the game as it was after its N-th accepted action (one step = one action
with all its events), with the same partials as the live pages: board, money, players, the duel, the
bracket and the log. States come from the game's ``Timeline`` (seed + action log, cached per process with
a checkpoint every 32 steps), so a step costs one action and a jump at most 32.

Who sees what (ruling G5): while the game runs a replay shows what a spectator saw, plus a seated
player's own cards and private lines; once the game is over it shows everything (every team, every
hand, the stacks of each match, every private line) to everyone.
"""

from __future__ import annotations

import bisect
import json
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from cards.catalog import get_catalog
from games.api import get_format
from tournament.messages import error_text
from tournament.models import ActionRecord, Event, Game
from tournament.presentation import competition, eventlog, present
from tournament.rules.competition import MAGIC_FOOTBALL
from tournament.rules.errors import RulesError
from tournament.rules.projection import SPECTATOR, Viewer, project
from tournament.rules.replay import Timeline
from tournament.rules.state import GameState, holding_key, team_key
from tournament.selectors import event_visible, game_by_code, identify_session
from tournament.services.records import RecordError, parse_record, record_export, record_import
from tournament.services.timeline import game_timeline
from tournament.views.rooms import canonical, forbidden, room_missing, room_url

LOG_LINES = 60


def replay_view(state: GameState, viewer: Viewer, over: bool) -> dict[str, Any]:
    """The projection a replay shows: the viewer's own while the game runs, everything once it is over.

    ``project`` reveals only a finished *state*; a replayed step of a finished game is a running state, so
    the revealed parts (every team and hand, the running match seen from above) are added here.
    """
    cat = get_catalog()
    if not over:
        return project(state, viewer, cat)
    view = project(state, SPECTATOR, cat)
    view["teams"] = {str(s): list(state.piles.get(team_key(s), [])) for s in state.seats}
    view["holdings"] = {str(s): list(state.piles.get(holding_key(s), [])) for s in state.seats}
    running = state.running_match
    if running is not None and view.get("match"):
        view["match"] = dict(view["match"])
        view["match"]["engine"] = get_format(running.format).view(running.engine, None, reveal_all=True)
    return view


def _steps(game: Game) -> list[tuple[int, int, int]]:
    """(version_before, first_seq, last_seq) of every action, in order."""
    return list(
        ActionRecord.objects.filter(game=game)
        .order_by("version_before")
        .values_list("version_before", "first_seq", "last_seq")
    )


def _events(game: Game, viewer: Viewer, over: bool, after: int, upto: int) -> list[dict[str, Any]]:
    rows = (
        Event.objects.filter(game=game, seq__gt=after, seq__lte=upto)
        .order_by("seq")
        .values_list("seq", "kind", "payload", "audience", "actor")
    )
    return [
        {"seq": seq, "kind": kind, "payload": payload, "actor": actor}
        for seq, kind, payload, audience, actor in rows
        if event_visible(audience, viewer, finished=over)
    ]


def _match_starts(game: Game, steps: list[tuple[int, int, int]], timeline: Timeline) -> list[dict[str, Any]]:
    """Every match of the game with the step at which it started (``match_started``), and whether a
    later rewind of the host undid it (the replay still shows it, marked: the game went another way)."""
    firsts = [first for _v, first, _l in steps]
    out = []
    cat = get_catalog()
    rows = Event.objects.filter(game=game, kind="match_started").order_by("seq").values_list("seq", "payload")
    game_names = dict(game.participants.values_list("seat", "nickname"))
    for seq, payload in rows:
        index = bisect.bisect_right(firsts, seq) - 1
        if index < 0:
            continue
        home = present.country(cat, payload.get("home"))
        away = present.country(cat, payload.get("away"))
        if payload.get("home_role") == "seat":  # a room of another game: seat against seat
            home = {"name": game_names.get(payload.get("home_coach"), "?")}
            away = {"name": game_names.get(payload.get("away_coach"), "?")}
        step = steps[index][0] + 1
        kind = present.match_kind_label(payload.get("match_kind", ""), payload.get("slot", ""))
        if payload.get("home_role") == "seat":
            kind = eventlog.round_label(f"round_{payload.get('round')}")
        out.append(
            {
                "step": step,
                "undone": timeline.undone(step, len(timeline)),
                "label": "{kind}: {home} – {away}".format(
                    kind=kind,
                    home=home["name"] if home else "?",
                    away=away["name"] if away else "?",
                ),
            }
        )
    return out


def _revealed_teams(view: dict[str, Any]) -> list[dict[str, Any]]:
    cat = get_catalog()
    nick = present.names(view)
    out = []
    for seat, cards in sorted((view.get("teams") or {}).items(), key=lambda kv: int(kv[0])):
        holding = (view.get("holdings") or {}).get(seat) or []
        players = sorted((present.card(cat, c) for c in cards), key=lambda c: (not c["keeper"], -c["stars"]))
        out.append(
            {
                "seat": int(seat),
                "name": nick.get(int(seat), "?"),
                "cards": players,
                "holding": [present.match_card(cat, m) for m in holding],
            }
        )
    return out


@require_GET
@canonical
def replay(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>/replay``: step through the game (``?step=N``; default: the latest step)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    identity = identify_session(game, request.session)
    over = game.status in (Game.Status.FINISHED, Game.Status.ABANDONED)
    timeline = game_timeline(game)
    last = len(timeline)
    raw = request.GET.get("step", "")
    step = int(raw) if raw.isdigit() and len(raw) < 9 else last
    step = max(0, min(step, last))
    state = timeline.state_at(step)
    if over:
        viewer = Viewer(reveal_all=True)
    elif identity.seat is not None:
        viewer = Viewer(seat=identity.seat)
    else:
        viewer = SPECTATOR
    steps = _steps(game)
    last_seq = steps[step - 1][2] if step else 0
    first_seq = steps[step - 1][1] if step else 1
    view = replay_view(state, viewer, over)
    view.update(version=step, seq=last_seq, code=game.code)
    cat = get_catalog()
    log_ctx = eventlog.LogContext.from_state(state, viewer.seat, cat)
    recent = _events(game, viewer, over, max(0, last_seq - 5 * LOG_LINES), last_seq)[-LOG_LINES:]
    now_lines = eventlog.render(_events(game, viewer, over, first_seq - 1, last_seq), log_ctx) if step else []
    if state.game != MAGIC_FOOTBALL:  # a room of another game: its own page shape (no money, no cards)
        board = None
        game_parts: dict[str, Any] = {
            "competition_room": True,
            "seats": competition.players(view),
            "comp_banner": competition.banner(view),
            "boards": competition.boards(view, None) if state.status != "lobby" else [],
            "standings": competition.standings(view),
        }
    else:
        board = present.board(view, cat) if state.status != "lobby" else None
        game_parts = {
            "seats": present.seats(view, cat),
            "banner": present.banner(view, cat),
            "hand": present.hand(view, cat) if viewer.seat is not None and not over else None,
            "duel": present.duel(view, cat),
            "bracket": present.bracket(view, cat),
            "revealed": _revealed_teams(view) if over else [],
        }
    ctx: dict[str, Any] = {
        "page": "replay",
        "code": game.code,
        "view": view,
        "version": step,
        "seq": last_seq,
        "first_seq": last_seq + 1,
        "full": True,
        "status": state.status,
        "in_lobby": state.status == "lobby",
        "viewer_kind": view["viewer"],
        "is_host": False,
        "me_seat": viewer.seat,
        "log": present.log_items(eventlog.render(recent, log_ctx)),
        "duel_feed": [],
        "fx": {"path": [], "src": None, "mover": None, "die": None, "fx": []},
        "board": board,
        "pawn": board["pawn"] if board else None,
        "identity": identity,
        "ws_path": "",
        "watch_url": reverse("room-watch", args=[game.code]),
        "bracket_url": reverse("room-bracket", args=[game.code]),
        "host_url": reverse("room-host", args=[game.code]),
        "can_play": identity.seat is not None or identity.host,
        "over": over,
        "step": step,
        "last": last,
        "prev_step": max(0, step - 1),
        "next_step": min(last, step + 1),
        "step_lines": now_lines,
        "step_actor": timeline.actions[step - 1][0] if step else "",
        "matches": _match_starts(game, steps, timeline),
        "spectator_replay": viewer == SPECTATOR,
        "replay_base": reverse("room-replay", args=[game.code]),
        "last_die": None,
        "board_assets": competition.board_assets(state.game),
        **game_parts,
    }
    return render(request, "tournament/replay.html", ctx)


@require_GET
@canonical
def record(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>/record.json``: the game record (once the game is over)."""
    try:
        game = game_by_code(code)
    except RulesError:
        return room_missing(request, code)
    try:
        data = record_export(game)
    except RulesError as exc:
        return forbidden(request, error_text(exc))
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="magic-football-{game.code}.json"'
    return response


@require_http_methods(["GET", "POST"])
def import_record(request: HttpRequest) -> HttpResponse:
    """``/rooms/import``: upload a game record; a verified record becomes a new room to watch and replay."""
    if request.method == "GET":
        return render(request, "tournament/import.html", {"error": ""})
    upload = request.FILES.get("record")
    try:
        if upload is None:
            raise RecordError(detail=gettext("choose a record file"))
        if upload.size > 20 * 1024 * 1024:
            raise RecordError(detail=gettext("the file is larger than 20 MB"))
        room = record_import(record=parse_record(upload.read()))
    except RulesError as exc:
        return render(request, "tournament/import.html", {"error": error_text(exc)}, status=400)
    return HttpResponseRedirect(reverse("room-replay", args=[room.code]))  # he watches it (G15)


__all__ = ["import_record", "record", "replay", "replay_view", "room_url"]
