"""Whole bot tournaments through the real services and database (``manage.py simulate``, benches, tests).

A simulated game is an ordinary room: created by ``room_create`` with bot seats, started by the host,
and played to the Cup by answering the open prompts with ``tournament.rules.bots.decide`` **through
``game_act``** as the prompt's seat — exactly the path a live bot's decision takes (bots never write
models). Afterwards the stored game is checked: the invariants on the state loaded back from the
database, and a replay from seed and action log (``game_replay``) must equal it.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cards.catalog import get_catalog
from tournament.models import Game, LedgerEntry
from tournament.rules import bots
from tournament.rules import competition as competition_rules
from tournament.rules.competition import MAGIC_FOOTBALL
from tournament.rules.errors import RulesError
from tournament.rules.events import Actor
from tournament.rules.invariants import check as check_invariants
from tournament.rules.state import BONUS
from tournament.services.actions import current_snapshot, game_act
from tournament.services.replays import game_replay
from tournament.services.rooms import room_create
from tournament.services.store import cache, load_snapshot

MAX_ACTIONS = 20_000  # a tournament takes about 1,000; anything near this is a bug, not a long game
MAX_SECONDS = 600.0  # per game
ROUNDS = {"qf": "QF", "sf": "SF", "f": "F"}
MIXED = ("strong", "easy", "random")


@dataclass
class GameReport:
    """One simulated game, as ``--json`` prints it (``as_json``) plus what the summary needs."""

    seed: int
    code: str
    participants: list[dict[str, Any]]
    turns: dict[str, int]
    winner: dict[str, Any] | None
    bracket: list[dict[str, Any]]
    events: int
    invariants_ok: bool
    problems: list[str]
    actions: int
    seconds: float
    status: str
    game: str = MAGIC_FOOTBALL
    table: list[dict[str, Any]] = field(default_factory=list)  # a league's final table
    money: dict[str, int] = field(default_factory=dict)  # total moved per ledger reason
    goals: list[int] = field(default_factory=list)  # goals per match (challenges and finals)
    winner_class: int | None = None

    def as_json(self) -> dict[str, Any]:
        """The JSON line of this game (docs/PROTOCOL.md, "Simulator output")."""
        out: dict[str, Any] = {
            "seed": self.seed,
            "room": self.code,
            "status": self.status,
            "participants": self.participants,
            "turns": self.turns,
            "winner": self.winner,
            "bracket": self.bracket,
            "events": self.events,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "money": self.money,
            "invariants_ok": self.invariants_ok,
            "problems": self.problems,
        }
        if self.game != MAGIC_FOOTBALL:  # another game's room: no money; a league adds its table
            out = {"game": self.game, **out, "table": self.table}
            del out["money"]
        return out


def seat_strengths(players: int, strength: str, game_index: int) -> list[str]:
    """The bots of one game: all of ``strength``, or for ``mixed`` strong/easy/random in turn, rotating
    by game so every strength sits in every seat."""
    if strength != "mixed":
        return [strength] * players
    return [MIXED[(i + game_index) % len(MIXED)] for i in range(players)]


def play_game(
    *,
    seed: int,
    players: int,
    strengths: list[str],
    mode: str = "world_cup",
    game: str = MAGIC_FOOTBALL,
    competition: str = "",
    options: dict[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
    max_seconds: float = MAX_SECONDS,
    on_action: Callable[[int], None] | None = None,
) -> GameReport:
    """Create a room of bots, start it and play it to its end (the Cup, or the competition of another
    game: ``competition`` single, cup or league, by default one match for 2 players and a cup for more,
    with the game's room ``options``) through ``game_act``; check and report.

    ``on_action(n)`` is called after every accepted action (progress bars).
    """
    cat = get_catalog()
    rules: dict[str, Any] = {"seats": players}
    if game != MAGIC_FOOTBALL:
        rules["competition"] = competition or ("single" if players == 2 else "cup")
        rules["options"] = dict(options or {})
    room = room_create(nickname=None, mode=mode, bots=strengths, seed=seed, house_rules=rules, game=game)
    game = Game.objects.get(code=room.code)
    t0 = time.perf_counter()
    result = game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=game.version,
        action_id="sim-start",
    )
    actions = 1
    version = result.version
    refused: list[str] = []
    while actions < max_actions and time.perf_counter() - t0 < max_seconds:
        snap = cache.get(game.pk, version)
        if snap is None:  # another process wrote, or the cache evicted it: read the database
            game.refresh_from_db()
            snap = current_snapshot(game)
        state = snap.state
        if state.status != "running":
            break
        prompt = state.prompts[0]
        seat = prompt.seat
        assert seat is not None, "house-bot prompts are answered inside the rules"
        strength = state.seats[seat].bot or "easy"
        choice = bots.decide(state, prompt, strength, cat, bots.bot_rng(state, snap.version))
        try:
            result = game_act(
                code=room.code,
                actor=Actor("seat", seat),
                action={"type": "answer", "prompt": prompt.id, "choice": choice},
                expected_version=snap.version,
                action_id=f"sim-{snap.version}",
            )
        except RulesError as exc:  # a bot's choice refused (an invariant, a bug): report it, stop this game
            refused.append(
                f"{prompt.kind} answer of seat {seat} refused at version {snap.version}: {exc.code} {exc}"
            )
            break
        version = result.version
        actions += 1
        if on_action is not None:
            on_action(actions)
    seconds = time.perf_counter() - t0
    return _report(game.pk, seed, actions, seconds, refused)


def _report(game_id: int, seed: int, actions: int, seconds: float, refused: list[str]) -> GameReport:
    """Read the stored game back and check it: invariants, a finished game, replay equality."""
    cat = get_catalog()
    game = Game.objects.get(pk=game_id)
    state = load_snapshot(game).state  # from the rows, not the cache: what the database really holds
    problems = [*refused, *check_invariants(state, cat)]
    if state.status != "finished":
        problems.append(f"the game did not finish: {state.status} in {state.phase} after {actions} actions")
    replay = game_replay(code=game.code)
    if not replay.equal:
        problems += [f"replay differs: {d}" for d in replay.differences[:5]]
    if state.game != MAGIC_FOOTBALL:
        return _competition_report(game, state, seed, actions, seconds, problems)

    countries: dict[int, str] = {}
    goals: list[int] = []
    bracket: list[dict[str, Any]] = []
    for m in state.matches:
        if m.status == "finished":
            goals.append(m.score[0] + m.score[1])
        for side in (m.home, m.away):
            if side is not None and side.role == "bc" and side.seat is not None and m.kind == "qf":
                countries[side.seat] = side.country
        if m.kind in ROUNDS and m.status == "finished" and m.home and m.away:
            bracket.append(
                {
                    "round": ROUNDS[m.kind],
                    "slot": m.slot,
                    "home": m.home.country,
                    "away": m.away.country,
                    "home_coach": _coach(state, m.home.seat, m.home.role),
                    "away_coach": _coach(state, m.away.seat, m.away.role),
                    "score": [m.score[0], m.score[1]],
                    "penalties": list(m.penalties) if m.penalties else None,
                    "decided_by": "penalties" if m.decided_by == "die" else m.decided_by,
                    "winner": m.winner_country,
                }
            )
    participants = []
    for seat, s in sorted(state.seats.items()):
        participants.append(
            {
                "seat": seat,
                "nickname": s.nickname,
                "strength": s.bot or "human",
                "role": "out" if s.out else s.role,
                "country": countries.get(seat) or state.country_of(seat),
            }
        )
    winner = None
    winner_class = None
    if state.winner:
        coach = state.winner.get("coach")
        winner = {
            "country": state.winner["country"],
            "coach": state.seats[coach].nickname if coach is not None else None,
            "seat": coach,
            "coach_kind": state.winner.get("coach_kind"),
            "strength": (state.seats[coach].bot or "human") if coach is not None else "house",
        }
        winner_class = cat.countries[state.winner["country"]].klass
    turns = {
        "phase1": state.turns.get("phase1", 0),
        "phase2": state.turns.get("phase2", 0),
        "phase3": sum(1 for m in state.matches if m.kind in ROUNDS and m.status == "finished"),
    }
    money: dict[str, int] = defaultdict(int)
    for reason, amount in LedgerEntry.objects.filter(game_id=game_id).values_list("reason", "amount"):
        money[_reason_group(reason)] += amount
    return GameReport(
        seed=seed,
        code=game.code,
        participants=participants,
        turns=turns,
        winner=winner,
        bracket=bracket,
        events=game.last_seq,
        invariants_ok=not problems,
        problems=problems,
        actions=actions,
        seconds=seconds,
        status=state.status,
        money=dict(sorted(money.items())),
        goals=goals,
        winner_class=winner_class,
    )


def _competition_report(
    game: Game, state: Any, seed: int, actions: int, seconds: float, problems: list[str]
) -> GameReport:
    """A room of another game: seats instead of countries, its matches by round, a league's table."""

    def who(seat: int | None) -> dict[str, Any]:
        s = state.seats.get(seat) if seat is not None else None
        return {
            "seat": seat,
            "nickname": s.nickname if s else None,
            "strength": (s.bot or "human") if s else None,
        }

    bracket = [
        {
            "round": m.context.get("round"),
            "slot": m.slot,
            "home": who(m.home.seat),
            "away": who(m.away.seat),
            "score": [m.score[0], m.score[1]],
            "penalties": list(m.penalties) if m.penalties else None,
            "decided_by": m.decided_by,
            "winner": competition_rules.match_summary(m)["winner"],
        }
        # a game's own points and who could not play (rulings CP6, CP7), where its game has them
        | {key: m.context[key] for key in ("points", "absent") if key in m.context}
        for m in state.matches
        if m.home is not None and m.away is not None
    ]
    winner = None
    if state.winner and state.winner.get("seat") is not None:
        winner = {**who(state.winner["seat"]), "competition": state.winner.get("competition")}
    participants = [
        {"seat": seat, "nickname": s.nickname, "strength": s.bot or "human"}
        for seat, s in sorted(state.seats.items())
    ]
    return GameReport(
        seed=seed,
        code=game.code,
        participants=participants,
        turns={"matches": sum(1 for m in state.matches if m.status == "finished")},
        winner=winner,
        bracket=bracket,
        events=game.last_seq,
        invariants_ok=not problems,
        problems=problems,
        actions=actions,
        seconds=seconds,
        status=state.status,
        game=state.game,
        table=competition_rules.standings(state),
        goals=[m.score[0] + m.score[1] for m in state.matches if m.status == "finished"],
    )


def _coach(state: Any, seat: int | None, role: str) -> dict[str, Any]:
    return {"seat": seat, "nickname": state.seats[seat].nickname if seat is not None else None, "role": role}


def _reason_group(reason: str) -> str:
    """Money cards are recorded per card (``money_card:G05``); the summary groups them."""
    return "money_card" if reason.startswith("money_card:") else reason


def money_series(code: str) -> tuple[list[int], dict[str, list[int]]]:
    """Balances of every participant and of the Bonus Fund after each ledger entry of a game.

    :returns: the event sequence numbers (x axis) and one balance list per account label.
    """
    game = Game.objects.get(code=code)
    accounts = {a.pk: a for a in game.accounts.select_related("participant")}
    labels = {}
    for pk, acc in accounts.items():
        if acc.key == BONUS:
            labels[pk] = "Bonus Fund"
        elif acc.participant_id is not None:
            labels[pk] = acc.participant.nickname
    balance: dict[int, int] = dict.fromkeys(accounts, 0)
    xs: list[int] = []
    series: dict[str, list[int]] = {label: [] for label in labels.values()}
    rows = (
        LedgerEntry.objects.filter(game=game)
        .order_by("seq")
        .values_list("event_seq", "debit_id", "credit_id", "amount")
    )
    for event_seq, debit, credit, amount in rows:
        balance[debit] -= amount
        balance[credit] += amount
        xs.append(event_seq or (xs[-1] if xs else 0))
        for pk, label in labels.items():
            series[label].append(balance[pk])
    return xs, series


def plot_money(code: str, path: str, title: str = "") -> None:
    """Write a PNG or SVG (by the file's extension) of money over the game's events."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs, series = money_series(code)
    fig, ax = plt.subplots(figsize=(10, 5), dpi=110)
    for label, ys in series.items():
        style = {"color": "#b8860b", "linestyle": "--", "linewidth": 2} if label == "Bonus Fund" else {}
        ax.step(xs, [y / 1_000_000 for y in ys], where="post", label=label, **style)
    ax.set_xlabel("game event (seq)")
    ax.set_ylabel("money (millions of magic)")
    ax.set_title(title or f"Money over the game, room {code}")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    fmt = "svg" if str(path).lower().endswith(".svg") else "png"
    fig.savefig(path, format=fmt)
    plt.close(fig)


# ------------------------------------------------------------------------------------------ summary


def summarize(reports: list[GameReport]) -> dict[str, Any]:
    """Figures over many games: winners by country class and by coach, goals, phase lengths, money."""
    n = len(reports)
    by_class: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    by_strength: Counter[str] = Counter()
    seats_of: Counter[str] = Counter()
    for r in reports:
        for p in r.participants:
            seats_of[p["strength"]] += 1
        if r.winner is None:
            continue
        if r.winner_class is not None:
            by_class[f"class {r.winner_class}"] += 1
            by_kind[str(r.winner.get("coach_kind"))] += 1
        by_strength[str(r.winner.get("strength"))] += 1
    goals = [g for r in reports for g in r.goals]
    money: dict[str, float] = defaultdict(float)
    for r in reports:
        for reason, amount in r.money.items():
            money[reason] += amount / max(1, n)

    def mean(values: list[float]) -> float:
        return statistics.mean(values) if values else 0.0

    return {
        "games": n,
        "broken": sum(1 for r in reports if not r.invariants_ok),
        "winners_by_class": dict(sorted(by_class.items())),
        "winners_by_coach_kind": dict(sorted(by_kind.items())),
        "winners_by_strength": dict(sorted(by_strength.items())),
        "seats_by_strength": dict(sorted(seats_of.items())),
        "goals_per_match": mean([float(g) for g in goals]),
        "matches_per_game": len(goals) / max(1, n),
        "turns": {
            ph: mean([float(r.turns.get(ph, 0)) for r in reports]) for ph in ("phase1", "phase2", "phase3")
        },
        "actions_per_game": mean([float(r.actions) for r in reports]),
        "events_per_game": mean([float(r.events) for r in reports]),
        "seconds_per_game": mean([r.seconds for r in reports]),
        "money_per_game": dict(sorted(money.items(), key=lambda kv: -kv[1])),
    }
