"""Rooms of our seeds' other games: one match, a cup or a league of a registered game, seat against seat.

A room's ``GameState.game`` names its game: ``magic-football`` (the rest of ``tournament/rules``) or the key
of a game registered under ``games/`` (the card duel's practice match, dice football, …). For those, the
lobby, the seats, the host's powers, the decision timer and the prompts are the room's as always; what
happens after the start is here: the competition's shape comes from ``games/competition.py``, each match is
the game's format, its decisions mirrored as prompts of the seats that coach its sides by
``matches.sync_prompts`` (as Magic Football's duels are), its events forwarded as ``m.*`` events. The
matches of a round run side by side (ruling CP5); when the last one ends the next round starts.

A game with its own points scheme (``Game.league_points``, CP6) has its cup and league matches scored by it
(``MatchRecord.context["points"]``, home then away) and its league matches played as knock-out matches. A
game that carries players' suspensions and injuries (``Game.carry``, CP7) keeps each seat's book in
``competition["books"]``; each match records who could not play it and why (``context["absent"]``).
"""

from __future__ import annotations

from typing import Any

from games.api import Game, MatchResult, get_game
from games.competition import (
    KINDS,
    MAX_SEATS,
    MIN_SEATS,
    CompetitionError,
    Pairing,
    Result,
    carry_absent,
    carry_after,
    carry_into,
    carry_start,
    check,
    cup_entries,
    cup_next_entries,
    cup_round,
    cup_rounds,
    knockout,
    league_rounds,
    round_name,
    table,
)
from tournament.rules.errors import N_, IllegalAction, MalformedAction, RulesError
from tournament.rules.events import Ctx
from tournament.rules.state import GameState, MatchRecord, MatchSide

MAGIC_FOOTBALL = "magic-football"
SEAT_ROLE = "seat"  # a side coached by the seat that plays it (Match.home_role / away_role)

DEFAULT_HOUSE_RULES: dict[str, Any] = {
    "seats": 2,  # room size 2..8
    "competition": "single",  # "single" (2 seats) | "cup" | "league" (3–8 seats), rulings CP1–CP3
    "decision_timer": None,  # R19: seconds per decision, None = no timer
    "options": {},  # the game's own room options (games.api.Option), defaults filled in
}


def is_competition(state: GameState) -> bool:
    """True for a room of another game than Magic Football."""
    return state.game != MAGIC_FOOTBALL


def game_of(state: GameState) -> Game:
    """The registered game of a competition room."""
    return get_game(state.game)


def known_game(key: Any) -> bool:
    """Whether a room can be opened for this game key."""
    if key == MAGIC_FOOTBALL:
        return True
    try:
        get_game(key)
    except (KeyError, TypeError):
        return False
    return True


def validate_house_rules(rules: dict[str, Any], game_key: str) -> dict[str, Any]:
    """A competition room's house rules, the game's options completed with their defaults.

    :raises MalformedAction: an unknown key, a room size outside 2–8, a competition the game or the room
        size does not allow, a timer outside 10–600 s, an option the game does not offer.
    """
    unknown = set(rules) - set(DEFAULT_HOUSE_RULES)
    if unknown:
        raise MalformedAction(detail=f"unknown house rule {sorted(unknown)[0]!r}")
    out = {**DEFAULT_HOUSE_RULES, **rules}
    seats, kind, timer = out["seats"], out["competition"], out["decision_timer"]
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 8:
        raise MalformedAction(detail=N_("seats must be a whole number from 2 to 8"))
    game = get_game(game_key)
    if kind not in KINDS or kind not in game.competitions:
        raise MalformedAction(detail=N_("choose one match, a cup or a league"))
    if not MIN_SEATS[kind] <= seats <= MAX_SEATS[kind]:
        raise MalformedAction(detail=N_("one match is for 2 players; a cup or a league for 3 to 8"))
    if timer is not None and (
        not isinstance(timer, int) or isinstance(timer, bool) or not 10 <= timer <= 600
    ):
        raise MalformedAction(detail=N_("decision_timer must be empty or 10 to 600 seconds"))
    options = out["options"]
    if not isinstance(options, dict):
        raise MalformedAction(detail=N_("options must be an object"))
    try:
        out["options"] = game.clean_options(options)
    except ValueError as exc:
        raise MalformedAction(detail=str(exc)) from exc
    return out


# ------------------------------------------------------------------------------------------ start


def start(ctx: Ctx) -> None:
    """The draw (seeded), then the first round's matches."""
    st = ctx.state
    kind = st.house_rules["competition"]
    seats = sorted(st.seats)
    try:
        check(kind, len(seats))
    except CompetitionError as exc:
        raise RulesError("not_enough_players", minimum=MIN_SEATS[kind]) from exc
    draw = list(seats)
    ctx.rng.shuffle(draw)
    rounds = {"single": 1, "cup": cup_rounds(len(draw)), "league": len(league_rounds(draw))}[kind]
    st.status = "running"
    st.phase = "competition"
    st.competition = {"kind": kind, "draw": draw, "round": 0, "rounds": rounds}
    if kind == "cup":
        st.competition["entries"] = cup_entries(draw)
    carry = game_of(st).carry
    if carry is not None:
        st.competition["books"] = carry_start(carry, draw)
    ctx.emit("competition_started", game=st.game, competition=kind, draw=draw, rounds=rounds)
    _next_round(ctx)


def _pairings(st: GameState, number: int) -> tuple[list[Pairing], dict[int, int], list[int]]:
    """The matches of round ``number``, the cup's byes (slot -> seat) and the league's resting seats."""
    comp = st.competition
    kind, draw = comp["kind"], comp["draw"]
    if kind == "single":
        return [Pairing(1, draw[0], draw[1])], {}, []
    if kind == "cup":
        pairings, byes = cup_round(comp["entries"], number)
        return pairings, byes, []
    pairings = league_rounds(draw)[number - 1]
    playing = {s for p in pairings for s in (p.home, p.away)}
    return pairings, {}, [s for s in draw if s not in playing]


def _next_round(ctx: Ctx) -> None:
    st = ctx.state
    comp = st.competition
    comp["round"] += 1
    number = comp["round"]
    pairings, byes, resting = _pairings(st, number)
    comp["byes"] = {str(slot): seat for slot, seat in byes.items()}
    ctx.emit(
        "round_started",
        round=number,
        name=round_name(comp["kind"], number, comp["rounds"]),
        matches=[[p.home, p.away] for p in pairings],
        byes=sorted(byes.values()),
        resting=resting,
    )
    for p in pairings:
        _start_match(ctx, p, number)


def _start_match(ctx: Ctx, pairing: Pairing, round_number: int) -> None:
    from tournament.rules.matches import forward_events, sync_prompts

    st = ctx.state
    game = game_of(st)
    comp = st.competition
    record = MatchRecord(
        number=len(st.matches) + 1,
        kind=comp["kind"],
        slot=str(pairing.slot),
        home=MatchSide("", pairing.home, SEAT_ROLE),
        away=MatchSide("", pairing.away, SEAT_ROLE),
        format=game.key,
        context={"round": round_number},
    )
    st.matches.append(record)
    setup = game.room_setup(
        (f"p{pairing.home}", f"p{pairing.away}"),
        knockout(comp["kind"], game.league_points is not None),
        st.house_rules["options"],
        ctx.rng,
    )
    if game.carry is not None:  # CP7: the suspended and injured of both seats may not play
        absent = carry_absent(game.carry, comp.get("books", {}), pairing.home, pairing.away)
        setup = carry_into(game.carry, setup, absent)
        record.context["absent"] = absent
    fmt = game.format
    begin = getattr(fmt, "start_with_events", None)  # a format may tell what happens at the kick-off
    if begin is not None:
        record.engine, events = begin(setup, ctx.rng)
    else:
        record.engine, events = fmt.start(setup, ctx.rng), []
    record.status = "playing"
    ctx.emit(
        "match_started",
        match=record.number,
        match_kind=record.kind,
        slot=record.slot,
        round=round_number,
        round_name=round_name(comp["kind"], round_number, comp["rounds"]),
        home="",
        away="",
        home_coach=pairing.home,
        away_coach=pairing.away,
        home_role=SEAT_ROLE,
        away_role=SEAT_ROLE,
        **({"absent": record.context["absent"]} if "absent" in record.context else {}),  # CP7
    )
    forward_events(ctx, record, list(events))
    if fmt.result(record.engine) is None:
        sync_prompts(ctx, record)


# ------------------------------------------------------------------------------------ the matches


def finish_match(ctx: Ctx, record: MatchRecord, result: MatchResult) -> None:
    """Record a finished match; its prompts close. The round moves on in ``step``."""
    st = ctx.state
    record.status = "finished"
    record.score = result.score
    record.penalties = result.penalties
    record.decided_by = result.decided_by
    record.winner_side = result.winner or ""
    st.prompts = [p for p in st.prompts if p.context.get("match") != record.number]
    assert record.home is not None and record.away is not None
    winner = record.home.seat if result.winner == "home" else record.away.seat if result.winner else None
    game = game_of(st)
    comp = st.competition
    if game.league_points is not None and comp.get("kind") in ("cup", "league") and result.winner:  # CP6
        points = game.league_points(result)
        record.context["points"] = [points["home"], points["away"]]
    if game.carry is not None:  # CP7: the two seats' books move on
        comp["books"] = carry_after(
            game.carry, comp.get("books", {}), record.home.seat, record.away.seat, record.engine
        )
    ctx.emit(
        "match_over",
        match=record.number,
        match_kind=record.kind,
        round=record.context.get("round"),
        home="",
        away="",
        home_coach=record.home.seat,
        away_coach=record.away.seat,
        score=list(result.score),
        penalties=list(result.penalties) if result.penalties else None,
        decided_by=result.decided_by,
        winner=None,
        winner_seat=winner,
    )


def step(ctx: Ctx) -> bool:
    """Move the competition on when the round's last match has ended; True when something happened."""
    st = ctx.state
    comp = st.competition
    if st.status != "running" or any(m.status == "playing" for m in st.matches) or st.prompts:
        return False
    if comp["kind"] == "cup":
        winners = {int(slot): seat for slot, seat in comp.get("byes", {}).items()}
        for m in round_matches(st, comp["round"]):
            winners[int(m.slot)] = _winner_seat(m)  # type: ignore[assignment]
        comp["entries"] = cup_next_entries(comp["entries"], winners)
    if comp["round"] < comp["rounds"]:
        _next_round(ctx)
        return True
    _finish(ctx)
    return True


def _winner_seat(m: MatchRecord) -> int | None:
    if m.winner_side == "home" and m.home is not None:
        return m.home.seat
    if m.winner_side == "away" and m.away is not None:
        return m.away.seat
    return None


def round_matches(st: GameState, number: int) -> list[MatchRecord]:
    """The matches of one round."""
    return [m for m in st.matches if m.context.get("round") == number]


def results(st: GameState) -> list[Result]:
    """The finished matches as the competition counts them, in the order they were played."""
    out = []
    for m in st.matches:
        if m.status == "finished" and m.home is not None and m.away is not None:
            points = m.context.get("points")
            out.append(
                Result(
                    m.home.seat,
                    m.away.seat,
                    m.score,  # type: ignore[arg-type]
                    _winner_seat(m),
                    decided_by=m.decided_by or "regular",
                    points=(points[0], points[1]) if points else None,
                )
            )
    return out


def standings(st: GameState) -> list[dict[str, Any]]:
    """The league table (CP3, CP4), as JSON rows; [] for a cup or a single match."""
    if not st.competition or st.competition.get("kind") != "league":
        return []
    return [row.to_dict() for row in table(st.competition["draw"], results(st))]


def _finish(ctx: Ctx) -> None:
    st = ctx.state
    comp = st.competition
    kind = comp["kind"]
    if kind == "cup":
        (champion,) = comp["entries"]
    elif kind == "league":
        champion = table(comp["draw"], results(st))[0].seat
    else:
        champion = _winner_seat(st.matches[-1])
    st.status = "finished"
    st.phase = "finished"
    st.prompts = []
    st.winner = {"seat": champion, "competition": kind}
    ctx.emit(
        "competition_won" if champion is not None else "competition_drawn", seat=champion, competition=kind
    )


def invariants(state: GameState) -> list[str]:
    """What must hold in a competition room after every action (the card and money checks are Magic
    Football's): prompts belong to playing matches and their coaches, a seat plays one match at a time."""
    problems = []
    if state.phase == "lobby":
        return problems
    playing = [m for m in state.matches if m.status == "playing"]
    seats = [s for m in playing for s in (m.home.seat if m.home else None, m.away.seat if m.away else None)]
    if len(seats) != len(set(seats)):
        problems.append("a seat plays two matches at once")
    numbers = {m.number for m in playing}
    for p in state.prompts:
        match = p.context.get("match")
        if match not in numbers:
            problems.append(f"prompt {p.id} belongs to no playing match")
            continue
        record = next(m for m in playing if m.number == match)
        side = record.home if p.context.get("side") == "home" else record.away
        if side is None or side.seat != p.seat:
            problems.append(f"prompt {p.id} is not its coach's")
    if state.status == "finished" and (playing or state.winner is None):
        problems.append("a finished competition still plays, or has no result")
    return problems


def refuse_money(ctx: Ctx) -> None:
    """Money belongs to Magic Football: a transfer in another game's room is refused."""
    raise IllegalAction(detail=N_("there is no money in this game"))


# ------------------------------------------------------------------------------------ projections


def _seats(state: GameState) -> list[dict[str, Any]]:
    return [
        {
            "seat": s,
            "nickname": st.nickname,
            "bot": st.bot,
            "host": st.host,
            "takeover": st.takeover,
            "out": st.out,
        }
        for s, st in sorted(state.seats.items())
    ]


def match_summary(m: MatchRecord) -> dict[str, Any]:
    """A match as everybody may know it: who plays whom, in which round, the score."""
    return {
        "number": m.number,
        "kind": m.kind,
        "round": m.context.get("round"),
        "slot": m.slot,
        "format": m.format,
        "status": m.status,
        "home": m.home.seat if m.home else None,
        "away": m.away.seat if m.away else None,
        "score": list(m.score),
        "penalties": list(m.penalties) if m.penalties else None,
        "decided_by": m.decided_by,
        "winner_side": m.winner_side,
        "winner": _winner_seat(m),
        "points": m.context.get("points"),  # CP6: the game's own points, [home, away], once finished
        "absent": m.context.get("absent"),  # CP7: who could not play it and why, by side
    }


def bracket(state: GameState) -> list[dict[str, Any]]:
    """A cup's rounds for the TV page: each round's matches (and byes) as far as they are known."""
    comp = state.competition
    if comp.get("kind") != "cup":
        return []
    rounds = []
    for number in range(1, comp["rounds"] + 1):
        played = [match_summary(m) for m in round_matches(state, number)]
        rounds.append(
            {
                "round": number,
                "name": round_name("cup", number, comp["rounds"]),
                "matches": sorted(played, key=lambda m: int(m["slot"] or 0)),
                "byes": sorted(comp.get("byes", {}).values()) if number == comp["round"] else [],
            }
        )
    return rounds


def _live_scores(items: list[dict[str, Any]], live: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Summaries (or bracket rounds of them) with the running matches' score as it stands: a match's
    record keeps its score only from the final whistle, its format's view has it all along."""
    out = []
    for item in items:
        if "matches" in item:  # a bracket round
            out.append(dict(item, matches=_live_scores(item["matches"], live)))
            continue
        view = live.get(str(item["number"])) if item["status"] == "playing" else None
        out.append(dict(item, score=list(view["score"])) if view and "score" in view else item)
    return out


def public_part(state: GameState) -> dict[str, Any]:
    """Everything of a competition room that is the same for every viewer."""
    comp = state.competition
    live = {}
    for m in state.playing_matches():
        live[str(m.number)] = get_game(m.format).format.view(m.engine, None)
    return {
        "game": state.game,
        "status": state.status,
        "phase": state.phase,
        "house_rules": dict(state.house_rules),
        "seats": _seats(state),
        "competition": (
            {
                "kind": comp["kind"],
                "round": comp["round"],
                "rounds": comp["rounds"],
                "round_name": round_name(comp["kind"], comp["round"], comp["rounds"]),
                "draw": list(comp["draw"]),
            }
            if comp
            else None
        ),
        "table": standings(state),
        "points_scheme": game_of(state).league_points
        is not None,  # CP6: the table shows how matches were won
        "bracket": _live_scores(bracket(state), live),
        "matches": _live_scores([match_summary(m) for m in state.matches], live),
        "live": live,
        # who decides what (their match's number), and the decision timer's deadline or time left (R19)
        "prompts": [
            {
                "id": p.id,
                "seat": p.seat,
                "kind": p.kind,
                "match": p.context.get("match"),
                "deadline": p.deadline,
                "left": p.left,
            }
            for p in state.prompts
        ],
        "winner": dict(state.winner) if state.winner else None,
    }


def side_of(m: MatchRecord, seat: int | None) -> str | None:
    """The side of a match a seat plays, if any."""
    if seat is None:
        return None
    if m.home is not None and m.home.seat == seat:
        return "home"
    if m.away is not None and m.away.seat == seat:
        return "away"
    return None


def personal_part(
    state: GameState, viewer: Any, match_views: dict[tuple[Any, ...], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """What depends on who looks: his own match from his side, his decisions; after the end, a replay's
    viewer (``reveal_all``) sees every match as it was."""
    reveal = viewer.reveal_all and state.status in ("finished", "abandoned")
    part: dict[str, Any] = {"viewer": viewer.kind, "seat": viewer.seat, "match": None, "my_prompts": []}
    mine = next((m for m in state.playing_matches() if side_of(m, viewer.seat)), None)
    if mine is None and viewer.seat is not None:  # between rounds: the last match he played
        mine = next((m for m in reversed(state.matches) if side_of(m, viewer.seat)), None)
    if mine is not None:
        side = side_of(mine, viewer.seat)
        key = (mine.number, side, reveal)
        view = match_views.get(key) if match_views is not None else None
        if view is None:
            view = dict(match_summary(mine), my_side=side)
            if mine.engine is not None:
                view["engine"] = get_game(mine.format).format.view(mine.engine, side, reveal_all=reveal)
                if mine.status == "playing" and "score" in view["engine"]:
                    view["score"] = list(view["engine"]["score"])
            if match_views is not None:
                match_views[key] = view
        part["match"] = view
    if viewer.seat is not None:
        part["my_prompts"] = [
            {"id": p.id, "kind": p.kind, "choices": p.choices, "default": p.default, "options": p.options}
            for p in state.prompts
            if p.seat == viewer.seat
        ]
    if reveal:
        part["revealed"] = {
            str(m.number): get_game(m.format).format.view(m.engine, None, reveal_all=True)
            for m in state.matches
            if m.engine is not None
        }
    if viewer.host:
        part["host"] = {"open_prompts": [{"id": p.id, "seat": p.seat, "kind": p.kind} for p in state.prompts]}
    return part
