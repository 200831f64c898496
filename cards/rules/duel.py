"""Magic Football's card duel as a pure, deterministic match format (digest §4, D1–D7).

The rulebook's five steps ("EEN OEFENWEDSTRIJD SPELEN IN VIJF STAPPEN"): each side stacks ten field
players face down with its keeper at the bottom and a reserve apart; both turn up their top card; the
side with fewer stars brings in its next card (equal: both do) until a keeper comes into action; that
side can no longer score and the other side keeps bringing in cards until one beats the keeper: goal.
Match cards (D4/D5), reserve swaps (D3), half time (D1), extra time and the penalty series (D6) are
layered on top. Every ruling is written out in docs/RULES.md.

Design for speed (bench/duel.py): the state is one ``__slots__`` object of small ints and lists, sides
are 0 (home) and 1 (away), cards are indexes into a side's ``ids``/``stars`` lists (field players
first, the keeper last), and ``apply`` mutates in place after validating. Windows in which a side has
no legal choice are passed automatically without a decision, and passing creates no event, so a
decision taken by default and an automatic pass give the same event stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cards.catalog import get_catalog
from cards.catalog.types import MatchCard
from cards.rules.duel_cards import (
    E_CANCEL,
    E_CORNER,
    E_DISALLOW,
    E_FORCE_NEXT,
    E_FREE_SWAP,
    E_PENALTY,
    E_SET,
    EFFECT_NAMES,
    T_FIELD,
    T_KEEPER,
    CardRule,
    apply_mods,
    compile_table,
)
from cards.rules.duel_state import (
    HOW_NAMES,
    LINEUP,
    LINEUP_SIZE,
    LOC_MOMENT,
    M_CORNER,
    M_NONE,
    M_PENALTY,
    MAX_FIELD,
    MAX_SWAPS,
    OVER,
    P_EXTRA,
    P_FIRST,
    P_SECOND,
    P_SHOOTOUT,
    REGULATION_KICKS,
    W_GOAL,
    W_MAIN,
    W_MOMENT,
    WINDOW,
    WINDOW_NAMES,
    DuelState,
    copy_data,
    keeper_stars_in_moment,
    side_index,
)
from cards.rules.duel_view import project
from games.api import (
    SIDES,
    Decision,
    IllegalDecision,
    MalformedDecision,
    MatchError,
    MatchEvent,
    MatchResult,
    MatchSetup,
    NotYourDecision,
    Side,
    TeamCard,
    TeamEntry,
    register,
)
from games.rng import Rng

_NAMES: tuple[Side, Side] = SIDES

__all__ = ["FORMAT", "MAX_SWAPS", "DuelFormat", "DuelState", "InvalidSetup", "practice_setup"]


class InvalidSetup(MatchError):
    """The two teams or holdings handed to the duel are not a legal match (a tournament bug)."""

    code = "invalid_setup"


class DuelFormat:
    """The card duel (key ``"duel"``) behind the ``MatchFormat`` protocol (D7).

    Construct it with the match-card table; ``None`` loads the real catalog on first use, which is
    what ``games.api.get_format("duel")`` does.
    """

    key = "duel"

    def __init__(self, cards: Mapping[str, MatchCard] | None = None) -> None:
        self._cards: Mapping[str, MatchCard] | None = cards
        self._rules: dict[str, CardRule] | None = None
        self._needs: dict[str, int] = {}
        if cards is not None:
            self._compile(cards)

    def _compile(self, cards: Mapping[str, MatchCard]) -> None:
        self._cards = cards
        self._rules = compile_table(cards)
        self._needs = {cid: _main_need(r) for cid, r in self._rules.items()}

    # ------------------------------------------------------------------ catalog
    @property
    def rules(self) -> dict[str, CardRule]:
        """The compiled match-card table (loads the catalog on first use)."""
        if self._rules is None:
            self._compile(get_catalog().match_cards)  # validated cards/data/match_cards.json
            assert self._rules is not None
        return self._rules

    @property
    def cards(self) -> Mapping[str, MatchCard]:
        """The match-card table this format plays with."""
        self.rules  # noqa: B018  (loads it)
        assert self._cards is not None
        return self._cards

    # ------------------------------------------------------------------ protocol
    def start(self, setup: MatchSetup, rng: Rng) -> DuelState:
        """A new match waiting for both line-ups; raises ``InvalidSetup`` for an illegal setup."""
        rules = self.rules
        teams = (setup.home, setup.away)
        seen_cards: set[str] = set()
        for team in teams:
            _check_team(team)
            for cid in team.holding:
                if cid not in rules:
                    raise InvalidSetup(f"{team.label}: unknown match card {cid!r}", card=cid)
                if cid in seen_cards:
                    raise InvalidSetup(f"match card {cid} is held twice", card=cid)
                seen_cards.add(cid)
        for cid in setup.extra_time_cards:
            if cid not in rules or cid in seen_cards:
                raise InvalidSetup(f"extra-time card {cid!r} is unknown or already held", card=cid)
            seen_cards.add(cid)
        if len(setup.extra_time_cards) > 4:
            raise InvalidSetup("at most four extra-time cards (two per side)")
        player_ids = [c.id for t in teams for c in (*t.field, t.keeper)]
        if len(set(player_ids)) != len(player_ids):
            raise InvalidSetup("a player card is in both teams")

        st = DuelState()
        st._legal = None
        st.labels = [setup.home.label, setup.away.label]
        st.ids = [[c.id for c in t.field] + [t.keeper.id] for t in teams]
        st.stars = [[c.stars for c in t.field] + [t.keeper.stars] for t in teams]
        st.nfield = [len(t.field) for t in teams]
        st.knockout = bool(setup.knockout)
        st.holding = [list(t.holding) for t in teams]
        st.et_cards = list(setup.extra_time_cards)
        st.period = P_FIRST
        st.phase = LINEUP
        st.pending = [True, True]
        st.order = [[], []]
        st.lineup_reserve = [-1, -1]
        st.stack = [[], []]
        st.reserve = [-1, -1]
        st.active = [-1, -1]
        st.mods = [[], []]
        st.eff = [-1, -1]
        st.kfirst = -1
        st.spent = [[], []]
        st.score = [0, 0]
        st.swaps = [0, 0]
        st.hold = [list(t.holding) for t in teams]
        st.et_hold = [[], []]
        st.used = [[], []]
        st.et_dealt = []
        st.et_played = [[], []]
        st.serial = 0
        st.wkind = W_MAIN
        st.turn = 0
        st.passes = 0
        st.plays = []
        st.outer = None
        st.moment = None
        st.goal = None
        st.pens = None
        st.kicks = []
        st.winner = -1
        st.decided_by = ""
        st.half_goals = []
        return st

    def decisions(self, state: DuelState) -> list[Decision]:
        """Pending decisions: both line-ups at a period start, else the one side in a window."""
        st = state
        if st.phase == WINDOW:
            legal = st._legal
            if legal is None:
                legal = st._legal = self._legal(st, st.turn)
            choices: list[dict[str, Any]] = [{"kind": "pass"}]
            for token in legal:
                choices.append({"kind": "swap"} if token == "swap" else {"kind": "play", "card": token})
            return [
                Decision(
                    side=_NAMES[st.turn],
                    kind="window",
                    choices=tuple(choices),
                    default={"kind": "pass"},
                    options={"window": WINDOW_NAMES[st.wkind], "period": st.period},
                )
            ]
        if st.phase == LINEUP:
            return [self._lineup_decision(st, s) for s in (0, 1) if st.pending[s]]
        return []

    def apply(self, state: DuelState, side: Side, choice: dict[str, Any], rng: Rng) -> list[MatchEvent]:
        """Apply one decision of ``side`` and run the match to the next decision.

        :raises MalformedDecision: the choice is not a decision dict of a known shape.
        :raises NotYourDecision: ``side`` has no decision pending (the match is over, the other
            side is to act, or its line-up is already set).
        :raises IllegalDecision: the choice is not legal now.

        Nothing is changed when an error is raised: the choice is validated in full first.
        """
        st = state
        ev: list[MatchEvent] = []
        s, action = self._validate(st, side, choice)
        st._legal = None
        self._act(st, s, action, ev)
        if st.phase == LINEUP:
            if st.pending[0] or st.pending[1]:
                return ev
            self._kickoff(st, ev, rng)
        self._drive(st, ev, rng, 0)
        return ev

    def preview(self, state: DuelState, side: Side, choice: dict[str, Any]) -> DuelState:
        """A copy of the state right after ``choice`` took effect, before anyone answers.

        Lets a bot (or a UI hint) see what a swap or a match card would change without playing it;
        the given state is not touched. Raises the same errors as ``apply``.
        """
        s, action = self._validate(state, side, choice)
        copy = self.clone(state)
        self._act(copy, s, action, [])
        return copy

    def clone(self, state: DuelState) -> DuelState:
        """An independent copy of a state."""
        st = DuelState()
        for name in DuelState.FIELDS:
            setattr(st, name, copy_data(getattr(state, name)))
        st._legal = None
        return st

    def _validate(self, st: DuelState, side: Any, choice: Any) -> tuple[int, tuple[Any, ...]]:
        """Check a decision completely; returns the side index and a normalised action."""
        s = side_index(side)
        if not isinstance(choice, dict) or not isinstance(choice.get("kind"), str):
            raise MalformedDecision("a decision is a dict with a string 'kind'", choice=repr(choice)[:200])
        kind = choice["kind"]
        if kind not in ("lineup", "pass", "swap", "play"):
            raise MalformedDecision(f"unknown decision kind {kind!r}", kind=kind)
        if st.phase == OVER:
            raise NotYourDecision("the match is over: no decision can be taken", side=side)
        if st.phase == LINEUP:
            if not st.pending[s]:
                raise NotYourDecision(
                    f"{side} has already set its line-up for this period; waiting for the other side",
                    side=side,
                )
            if kind != "lineup":
                raise IllegalDecision(
                    f"{side} must set its line-up before kick-off, not {kind!r}", side=side, kind=kind
                )
            order, reserve = self._check_lineup(st, s, choice)
            return s, ("lineup", order, reserve)
        # a window is open
        if st.turn != s:
            raise NotYourDecision(f"it is {_NAMES[st.turn]}'s turn in this window, not {side}'s", side=side)
        if kind == "pass":
            return s, ("pass",)
        if kind == "lineup":
            raise IllegalDecision("line-ups are chosen only before a kick-off", side=side)
        legal = st._legal
        if legal is None:
            legal = self._legal(st, s)
        if kind == "swap":
            if "swap" not in legal:
                raise IllegalDecision(self._why_no_swap(st, s), side=side, reason="swap_not_allowed")
            return s, ("swap",)
        card = choice.get("card")
        if not isinstance(card, str):
            raise MalformedDecision("a play needs the match card id in 'card'", choice=repr(choice)[:200])
        if card not in legal:
            if card not in st.hold[s] and card not in st.et_hold[s]:
                raise IllegalDecision(
                    f"{side} does not hold match card {card!r} (or has already played it)",
                    side=side,
                    card=card,
                    reason="card_not_held",
                )
            raise IllegalDecision(
                f"match card {card} cannot be played now: {self._why_not_playable(st, s, card)}",
                side=side,
                card=card,
                reason="not_playable_now",
            )
        return s, ("play", card)

    def _act(self, st: DuelState, s: int, action: tuple[Any, ...], ev: list[MatchEvent]) -> None:
        """The immediate effect of a validated decision (the match is run forward by ``_drive``)."""
        kind = action[0]
        if kind == "pass":
            st.passes += 1
            st.turn = 1 - s
        elif kind == "play":
            self._play(st, s, action[1], ev)
        elif kind == "swap":
            self._swap(st, s, ev, free=False)
            st.passes = 0
            st.turn = 1 - s
        else:
            self._set_lineup(st, s, action[1], action[2], ev)

    def result(self, state: DuelState) -> MatchResult | None:
        """The result once the match is over; ``used``/``unused`` partition each side's holding."""
        st = state
        if st.phase != OVER:
            return None
        return MatchResult(
            score=(st.score[0], st.score[1]),
            winner=_NAMES[st.winner] if st.winner >= 0 else None,
            decided_by=st.decided_by,
            penalties=(st.pens[0], st.pens[1]) if st.pens is not None else None,
            used={"home": tuple(st.used[0]), "away": tuple(st.used[1])},
            unused={"home": tuple(st.hold[0]), "away": tuple(st.hold[1])},
            extra_time_dealt=tuple(st.et_dealt),
        )

    def to_dict(self, state: DuelState) -> dict[str, Any]:
        """The full state as JSON-safe data (lists, ints, strings, bools, None)."""
        data = {name: copy_data(getattr(state, name)) for name in DuelState.FIELDS}
        data["format"] = self.key
        return data

    def from_dict(self, data: dict[str, Any]) -> DuelState:
        """Rebuild a state stored by ``to_dict``."""
        if not isinstance(data, dict) or data.get("format") != self.key:
            raise MalformedDecision("not a stored duel state")
        missing = [name for name in DuelState.FIELDS if name not in data]
        if missing:
            raise MalformedDecision(f"stored duel state lacks {', '.join(missing)}")
        st = DuelState()
        for name in DuelState.FIELDS:
            setattr(st, name, copy_data(data[name]))
        st._legal = None
        return st

    # ------------------------------------------------------------------ defaults and driving
    def advance_defaults(self, state: DuelState, rng: Rng, sides: Sequence[Side] = SIDES) -> list[MatchEvent]:
        """Take the default decision for ``sides`` until another side must decide or the match ends.

        Used for bot seats with the plain policy, an expired decision timer (R19) and the benchmark.
        A default window decision is a pass, which needs no legal-choice list, so this is the fast path;
        its events are exactly those of applying each ``Decision.default`` through ``apply``.
        """
        st = state
        auto = 0
        for side in sides:
            auto |= 1 << side_index(side)
        ev: list[MatchEvent] = []
        st._legal = None
        self._drive(st, ev, rng, auto)
        return ev

    def _drive(self, st: DuelState, ev: list[MatchEvent], rng: Rng, auto: int) -> None:
        """Run forward until a decision of a side not in ``auto`` is pending, or the match is over."""
        while True:
            phase = st.phase
            if phase == WINDOW:
                if st.passes >= 2:
                    self._close(st, ev, rng)
                    continue
                t = st.turn
                if not (auto >> t) & 1:
                    legal = self._legal(st, t)
                    if legal:
                        st._legal = legal
                        return
                st.passes += 1
                st.turn = 1 - t
            elif phase == LINEUP:
                if not auto:
                    return
                for s in (0, 1):
                    if st.pending[s] and (auto >> s) & 1:
                        order, reserve = self._default_lineup(st, s)
                        self._set_lineup(st, s, order, reserve, ev)
                if st.pending[0] or st.pending[1]:
                    return
                self._kickoff(st, ev, rng)
            else:
                return

    # ------------------------------------------------------------------ line-ups
    def _default_lineup(self, st: DuelState, s: int) -> tuple[list[int], int]:
        """Previous line-up if there is one (D1 "may" change it), else strongest first, weakest reserve.

        Strongest first is the plain order a newcomer lays down; ``cards.rules.bots`` does better.
        """
        if st.order[s] or st.lineup_reserve[s] >= 0:
            return list(st.order[s]), st.lineup_reserve[s]
        n = st.nfield[s]
        stars = st.stars[s]
        by_strength = sorted(range(n), key=lambda i: (-stars[i], i))
        if n > LINEUP_SIZE:
            return by_strength[:LINEUP_SIZE], by_strength[LINEUP_SIZE]
        return by_strength, -1

    def _lineup_choice(self, st: DuelState, s: int, order: list[int], reserve: int) -> dict[str, Any]:
        ids = st.ids[s]
        return {
            "kind": "lineup",
            "order": [ids[i] for i in order],
            "reserve": ids[reserve] if reserve >= 0 else None,
        }

    def _lineup_decision(self, st: DuelState, s: int) -> Decision:
        ids, stars, n = st.ids[s], st.stars[s], st.nfield[s]
        order, reserve = self._default_lineup(st, s)
        return Decision(
            side=_NAMES[s],
            kind="lineup",
            choices=(),
            default=self._lineup_choice(st, s, order, reserve),
            options={
                "period": st.period,
                "field": [{"id": ids[i], "stars": stars[i]} for i in range(n)],
                "keeper": {"id": ids[n], "stars": stars[n]},
                "order_size": min(n, LINEUP_SIZE),
                "reserve_required": n > LINEUP_SIZE,
            },
        )

    def _check_lineup(self, st: DuelState, s: int, choice: dict[str, Any]) -> tuple[list[int], int]:
        side = _NAMES[s]
        order = choice.get("order")
        reserve = choice.get("reserve")
        if not isinstance(order, list | tuple) or not all(isinstance(c, str) for c in order):
            raise MalformedDecision("a line-up needs 'order': a list of field-player ids", side=side)
        if reserve is not None and not isinstance(reserve, str):
            raise MalformedDecision("a line-up's 'reserve' is a field-player id or null", side=side)
        n = st.nfield[s]
        index = {cid: i for i, cid in enumerate(st.ids[s][:n])}
        keeper = st.ids[s][n]
        named = [*order, reserve] if reserve is not None else list(order)
        if keeper in named:
            raise IllegalDecision(
                f"the keeper {keeper} always lies at the bottom of the stack; leave it out of the line-up",
                side=side,
                reason="keeper_in_lineup",
            )
        unknown = [c for c in named if c not in index]
        if unknown:
            raise IllegalDecision(
                f"{side}'s line-up names cards not in its team: {', '.join(unknown)}",
                side=side,
                reason="not_in_team",
                cards=unknown,
            )
        if len(set(named)) != len(named):
            raise IllegalDecision(f"{side}'s line-up names a card twice", side=side, reason="duplicate")
        if n > LINEUP_SIZE and reserve is None:
            raise IllegalDecision(
                f"{side} has {n} field players: ten go in the stack and one is the reserve",
                side=side,
                reason="reserve_required",
            )
        if n <= LINEUP_SIZE and reserve is not None:
            raise IllegalDecision(
                f"{side} has only {n} field players: all of them play, there is no reserve",
                side=side,
                reason="no_reserve_possible",
            )
        if len(named) != n:
            raise IllegalDecision(
                f"{side}'s line-up must place all {n} field players (order plus reserve), got {len(named)}",
                side=side,
                reason="not_a_permutation",
            )
        return [index[c] for c in order], (index[reserve] if reserve is not None else -1)

    def _set_lineup(
        self, st: DuelState, s: int, order: list[int], reserve: int, ev: list[MatchEvent]
    ) -> None:
        st.order[s] = order
        st.lineup_reserve[s] = reserve
        st.pending[s] = False
        ids = st.ids[s]
        ev.append(
            MatchEvent(
                "lineup_set",
                {
                    "side": _NAMES[s],
                    "period": st.period,
                    "order": [ids[i] for i in order],
                    "reserve": ids[reserve] if reserve >= 0 else None,
                },
                _NAMES[s],
            )
        )

    # ------------------------------------------------------------------ the duel (steps 3–5)
    def _kickoff(self, st: DuelState, ev: list[MatchEvent], rng: Rng) -> None:
        """Step 3: the eleven face down, keeper at the bottom; both turn up their top card."""
        st.phase = WINDOW
        for s in (0, 1):
            st.stack[s] = [st.nfield[s], *reversed(st.order[s])]
            st.reserve[s] = st.lineup_reserve[s]
            st.spent[s] = []
            st.mods[s] = []
            st.active[s] = -1
        st.kfirst = -1
        st.moment = None
        st.goal = None
        st.outer = None
        ev.append(MatchEvent("kickoff", {"period": st.period}))
        self._bring(st, ev, 2, "kickoff", rng)

    def _reveal(self, st: DuelState, s: int, ev: list[MatchEvent], reason: str) -> int:
        card = st.stack[s].pop()
        st.active[s] = card
        st.eff[s] = st.stars[s][card]
        keeper = card == st.nfield[s]
        ev.append(
            MatchEvent(
                "card_revealed",
                {
                    "side": _NAMES[s],
                    "card": st.ids[s][card],
                    "stars": st.stars[s][card],
                    "keeper": keeper,
                    "reason": reason,
                },
            )
        )
        return keeper

    def _end_mods(self, st: DuelState, s: int, ev: list[MatchEvent]) -> None:
        """D4: a modifier lasts while its target stays in action."""
        target = st.ids[s][st.active[s]]
        for m in st.mods[s]:
            ev.append(MatchEvent("modifier_ended", {"side": _NAMES[s], "card": m[1], "target": target}))
        st.mods[s] = []

    def _leave(self, st: DuelState, s: int, ev: list[MatchEvent]) -> None:
        if st.mods[s]:
            self._end_mods(st, s, ev)
        st.spent[s].append(st.active[s])
        st.active[s] = -1

    def _bring(self, st: DuelState, ev: list[MatchEvent], which: int, reason: str, rng: Rng) -> None:
        """Step 4: ``which`` (0, 1, or 2 = both) brings in its next card; then a window opens.

        D2: both keepers coming into action at the same moment ends the half without a goal. A keeper
        coming in alone makes its side unable to score (step 5); the other side's keeper coming in
        later may still score ("zelfs een doelpunt ... van eigen keeper").
        """
        if which == 2:
            if st.active[0] >= 0:
                self._leave(st, 0, ev)
                self._leave(st, 1, ev)
            k0 = self._reveal(st, 0, ev, reason)
            k1 = self._reveal(st, 1, ev, reason)
            if st.kfirst < 0:
                if k0 and k1:
                    self._half_over(st, ev, -1, "both_keepers", rng)
                    return
                if k0:
                    st.kfirst = 0
                elif k1:
                    st.kfirst = 1
        else:
            self._leave(st, which, ev)
            if self._reveal(st, which, ev, reason) and st.kfirst < 0:
                st.kfirst = which
        self._open_main(st)

    def _open_main(self, st: DuelState) -> None:
        """D4 ruling: the side behind acts first (fewer stars in action, else behind in score, else away)."""
        st.wkind = W_MAIN
        st.plays = []
        st.passes = 0
        e0, e1 = st.eff
        if e0 != e1:
            st.turn = 0 if e0 < e1 else 1
        elif st.score[0] != st.score[1]:
            st.turn = 0 if st.score[0] < st.score[1] else 1
        else:
            st.turn = 1

    def _close(self, st: DuelState, ev: list[MatchEvent], rng: Rng) -> None:
        """Both sides passed in a row: the window closes and the duel goes on."""
        wk = st.wkind
        if wk == W_MAIN:
            e0, e1 = st.eff
            kf = st.kfirst
            if kf < 0:
                # step 4: equal stars → both bring in; otherwise the side with fewer stars
                self._bring(st, ev, 2 if e0 == e1 else (0 if e0 < e1 else 1), "duel", rng)
            else:
                # step 5: the keeper side cannot score; the other side scores with more stars
                a = 1 - kf
                if st.eff[a] > st.eff[kf]:
                    self._goal(st, ev, a, M_NONE, st.active[a], st.eff[a], st.eff[kf])
                elif not st.stack[a]:
                    self._half_over(st, ev, -1, "no_cards", rng)
                else:
                    self._bring(st, ev, a, "duel", rng)
        elif wk == W_MOMENT:
            self._resolve_moment(st, ev)
        else:
            self._resolve_goal(st, ev, rng)

    # ------------------------------------------------------------------ goals
    def _goal(
        self, st: DuelState, ev: list[MatchEvent], scorer: int, how: int, card: int, stars: int, against: int
    ) -> None:
        """A provisional goal: the conceding side may still disallow it in the window that opens.

        ``how`` is M_NONE (the duel), M_PENALTY or M_CORNER; a goal from a moment keeps that
        moment's P/C restriction in the goal window (D5 ruling).
        """
        st.goal = [scorer, how, card, -1]
        ev.append(
            MatchEvent(
                "goal",
                {
                    "side": _NAMES[scorer],
                    "card": st.ids[scorer][card],
                    "stars": stars,
                    "against_stars": against,
                    "how": HOW_NAMES[how],
                    "provisional": True,
                },
            )
        )
        st.wkind = W_GOAL
        st.plays = []
        st.passes = 0
        st.turn = 1 - scorer

    def _resolve_goal(self, st: DuelState, ev: list[MatchEvent], rng: Rng) -> None:
        assert st.goal is not None
        scorer, _how, card, disallowed_by = st.goal
        st.goal = None
        st.outer = None
        if disallowed_by < 0:
            st.score[scorer] += 1
            ev.append(
                MatchEvent(
                    "goal_confirmed",
                    {"side": _NAMES[scorer], "card": st.ids[scorer][card], "score": list(st.score)},
                )
            )
            self._half_over(st, ev, scorer, "goal", rng)
            return
        # the seed's "Doelpunt afgekeurd": the scorer brings in his next field player
        ev.append(MatchEvent("goal_disallowed", {"side": _NAMES[scorer], "card": st.ids[scorer][card]}))
        self._leave(st, scorer, ev)  # the scorer (or, at a corner, the card that stood in action)
        stack = st.stack[scorer]
        if stack and stack[-1] != st.nfield[scorer]:
            self._reveal(st, scorer, ev, "disallowed")
            self._open_main(st)
        else:
            self._half_over(st, ev, -1, "disallowed_no_field_player", rng)

    # ------------------------------------------------------------------ moments (D5)
    def _resolve_moment(self, st: DuelState, ev: list[MatchEvent]) -> None:
        """Both passed inside the moment: the shot or header is taken."""
        assert st.moment is not None
        kind, s, _serial, header, mods = st.moment
        o = 1 - s
        if kind == M_PENALTY:
            mine = st.eff[s]
            card = st.active[s]
            theirs = apply_mods(keeper_stars_in_moment(st, o), mods)
        else:
            mine = apply_mods(st.stars[s][header], mods)
            card = header
            theirs = st.eff[o]
            st.spent[s].append(header)  # the header taker is spent for this half, goal or not
        self._end_moment_mods(st, ev)
        st.moment = None
        if mine > theirs:
            self._goal(st, ev, s, kind, card, mine, theirs)
            return
        ev.append(
            MatchEvent(
                "penalty_saved" if kind == M_PENALTY else "corner_cleared",
                {"side": _NAMES[s], "card": st.ids[s][card], "stars": mine, "against_stars": theirs},
            )
        )
        self._restore_outer(st, o)

    def _end_moment_mods(self, st: DuelState, ev: list[MatchEvent]) -> None:
        """Modifiers placed on the moment's keeper (penalty) or header taker (corner) end with it."""
        assert st.moment is not None
        kind, s, _serial, header, mods = st.moment
        if mods:
            t = 1 - s if kind == M_PENALTY else s
            target = st.ids[t][st.nfield[t] if kind == M_PENALTY else header]
            for m in mods:
                ev.append(MatchEvent("modifier_ended", {"side": _NAMES[t], "card": m[1], "target": target}))
            st.moment[4] = []

    def _stars_at(self, st: DuelState, loc: int) -> int:
        """Effective stars where a modifier sits: a card in action, or the moment's keeper/header."""
        if loc != LOC_MOMENT:
            return st.eff[loc]
        assert st.moment is not None
        kind, ms, _serial, header, mods = st.moment
        if kind == M_PENALTY:
            return apply_mods(keeper_stars_in_moment(st, 1 - ms), mods)
        return apply_mods(st.stars[ms][header], mods)

    def _restore_outer(self, st: DuelState, turn: int) -> None:
        """Back to the main window the moment was started from; ``turn`` answers first."""
        assert st.outer is not None
        st.plays = st.outer[2]
        st.outer = None
        st.wkind = W_MAIN
        st.turn = turn
        st.passes = 0

    # ------------------------------------------------------------------ swaps (D3)
    def _swap(self, st: DuelState, s: int, ev: list[MatchEvent], free: bool) -> None:
        out, came = st.active[s], st.reserve[s]
        if st.mods[s]:
            self._end_mods(st, s, ev)
        st.active[s] = came
        st.reserve[s] = out
        st.eff[s] = st.stars[s][came]
        if not free:
            st.swaps[s] += 1
        ev.append(
            MatchEvent(
                "swap",
                {
                    "side": _NAMES[s],
                    "out": st.ids[s][out],
                    "in": st.ids[s][came],
                    "stars": st.stars[s][came],
                    "free": free,
                    "swaps_left": MAX_SWAPS - st.swaps[s],
                },
            )
        )

    def _why_no_swap(self, st: DuelState, s: int) -> str:
        if st.wkind != W_MAIN:
            return "no swap during a penalty or corner moment or right after a goal"
        if st.reserve[s] < 0:
            return "there is no reserve to swap in"
        if st.active[s] < 0 or st.active[s] == st.nfield[s]:
            return "only a field player in action can be swapped (the keeper never is, D3)"
        return f"all {MAX_SWAPS} swaps of this match are used (D3)"

    # ------------------------------------------------------------------ match cards (D4, D5)
    def _legal(self, st: DuelState, s: int) -> list[str]:
        """Legal window choices of ``s`` besides passing: ``"swap"`` and/or playable card ids.

        This runs after every reveal for both sides, so the main window (by far the most common) is
        evaluated inline; moments and goal windows go through ``_target``/``_cancel_target``.
        """
        out: list[str] = []
        wk = st.wkind
        hand = st.hold[s]
        if st.period == P_EXTRA and st.et_hold[s]:
            hand = [*hand, *st.et_hold[s]]
        rules = self._rules if self._rules is not None else self.rules
        if wk != W_MAIN:
            for cid in hand:
                r = rules[cid]
                k = r.kind
                if k <= E_SET:
                    ok = self._target(st, s, r) is not None
                elif k == E_CANCEL:
                    ok = (self._moment_ok(st, r) if wk == W_MOMENT else self._goal_flag_ok(st, r)) and (
                        self._cancel_target(st, s) is not None
                    )
                elif k == E_DISALLOW:
                    g = st.goal
                    ok = (
                        wk == W_GOAL
                        and g is not None
                        and g[0] != s
                        and g[3] < 0
                        and self._goal_flag_ok(st, r)
                    )
                else:
                    ok = False  # moments, swaps and force_next belong to the main window only
                if ok:
                    out.append(cid)
            return out
        # main window: each card needs one condition (see _MAIN_NEEDS); evaluate the conditions once
        o = 1 - s
        own, opp = st.active[s], st.active[o]
        own_keeper = own == st.nfield[s]
        opp_keeper = opp == st.nfield[o]
        own_field = own >= 0 and not own_keeper
        opp_field = opp >= 0 and not opp_keeper
        has_reserve = st.reserve[s] >= 0
        if own_field and has_reserve and st.swaps[s] < MAX_SWAPS:
            out.append("swap")
        if not hand:
            return out
        stack = st.stack[s]
        ok = (
            own_field,  # N_OWN_FIELD: green field cards, penalty (own keeper not in action, step 5)
            own_keeper,  # N_OWN_KEEPER
            opp_field,  # N_OPP_FIELD: red field cards, force_next
            opp_keeper,  # N_OPP_KEEPER
            own_field and bool(stack) and stack[-1] != st.nfield[s],  # N_CORNER: a next field player
            own_field and has_reserve,  # N_FREE_SWAP
            bool(st.plays) and self._cancel_target(st, s) is not None,  # N_CANCEL
            False,  # N_NEVER: disallow_goal outside the goal window
        )
        needs = self._needs
        out += [cid for cid in hand if ok[needs[cid]]]
        return out

    def _moment_ok(self, st: DuelState, r: CardRule) -> bool:
        assert st.moment is not None
        return r.penalty_ok if st.moment[0] == M_PENALTY else r.corner_ok

    def _goal_flag_ok(self, st: DuelState, r: CardRule) -> bool:
        """The window after a Penalty or Corner goal is still that moment: the P/C letter applies."""
        g = st.goal
        if g is None or g[1] == M_NONE:
            return True
        return r.penalty_ok if g[1] == M_PENALTY else r.corner_ok

    def _target(self, st: DuelState, s: int, r: CardRule) -> tuple[int, int, int] | None:
        """Where a stars/set_stars card of ``s`` would go: (loc, target side, target card) or None.

        Green goes beside an own card in action, red beside the opponent's; a *keeper* card only
        targets a keeper (D4). Inside a moment the moment's own cards are the targets (D5 ruling).
        """
        wk = st.wkind
        o = 1 - s
        if wk == W_MAIN:
            t = s if r.green else o
            card = st.active[t]
            if card < 0:
                return None
            is_keeper = card == st.nfield[t]
            if is_keeper != (r.target == T_KEEPER):
                return None
            return (t, t, card)
        if wk != W_MOMENT:
            return None
        assert st.moment is not None
        kind, ms, _serial, header, _mods = st.moment
        if kind == M_PENALTY:
            if not r.penalty_ok:
                return None
            shooter_side = (s == ms) == r.green  # green of the shooter, red of the keeper's side
            if r.target == T_FIELD:
                return (ms, ms, st.active[ms]) if shooter_side else None
            # keeper cards: green of the keeper's side, red of the shooter's side
            k = 1 - ms
            if (s == k) == r.green:
                return (LOC_MOMENT, k, st.nfield[k])
            return None
        if not r.corner_ok:
            return None
        d = 1 - ms
        t = s if r.green else o
        if t == ms:
            # the corner side's card in the moment is its header taker (field cards only)
            return (LOC_MOMENT, ms, header) if r.target == T_FIELD else None
        card = st.active[d]
        if card < 0 or (card == st.nfield[d]) != (r.target == T_KEEPER):
            return None
        return (d, d, card)

    def _live(self, st: DuelState, rec: list[Any]) -> bool:
        """Can this play still be undone by a cancel card?"""
        serial, _side, _card, kind, loc = rec
        if kind <= E_SET:
            mods = st.mods[loc] if loc != LOC_MOMENT else (st.moment[4] if st.moment is not None else ())
            return any(m[0] == serial for m in mods)
        if kind in (E_PENALTY, E_CORNER):
            return st.wkind == W_MOMENT and st.moment is not None and st.moment[2] == serial
        if kind == E_DISALLOW:
            return st.wkind == W_GOAL and st.goal is not None and st.goal[3] == serial
        return False  # cancel, free swap and force_next act at once and cannot be undone

    def _cancel_target(self, st: DuelState, s: int) -> list[Any] | None:
        """The opponent's last play in this window, if a cancel card can still undo it."""
        o = 1 - s
        for rec in reversed(st.plays):
            if rec[1] == o:
                return rec if self._live(st, rec) else None
        return None

    def _why_not_playable(self, st: DuelState, s: int, card: str) -> str:
        r = self.rules[card]
        if st.wkind == W_MOMENT and not self._moment_ok(st, r):
            letter = "P" if st.moment is not None and st.moment[0] == M_PENALTY else "C"
            return f"its {letter} is crossed out (D5)"
        if r.kind == E_DISALLOW:
            return "it is only played by the side that just conceded a goal"
        if r.kind == E_CANCEL:
            return "the opponent has no match card in this window that can still be undone"
        if st.wkind == W_GOAL:
            return "right after a goal only the goal itself can be disputed"
        if r.kind in (E_PENALTY, E_CORNER):
            return "a moment needs your own field player in action, and for a corner a next field player"
        return "there is no card in action it can be placed beside"

    def _play(self, st: DuelState, s: int, cid: str, ev: list[MatchEvent]) -> None:
        """Play a legal card: read aloud (public event), then its effect."""
        r = self.rules[cid]
        if cid in st.hold[s]:
            st.hold[s].remove(cid)
            st.used[s].append(cid)
        else:
            st.et_hold[s].remove(cid)
            st.et_played[s].append(cid)
        serial = st.serial
        st.serial += 1
        o = 1 - s
        k = r.kind
        rec: list[Any] = [serial, s, cid, k, -1]
        data: dict[str, Any] = {
            "side": _NAMES[s],
            "card": cid,
            "effect": EFFECT_NAMES[k],
            "window": WINDOW_NAMES[st.wkind],
        }
        ev.append(MatchEvent("match_card_played", data))
        if k <= E_SET:
            loc, t, card = self._target(st, s, r)  # type: ignore[misc]
            rec[4] = loc
            data["target"] = {"side": _NAMES[t], "card": st.ids[t][card]}
            mod = [serial, cid, 1 if k == E_SET else 0, r.value]
            if loc == LOC_MOMENT:
                assert st.moment is not None
                st.moment[4].append(mod)
            else:
                st.mods[loc].append(mod)
                st.eff[loc] = apply_mods(st.stars[loc][st.active[loc]], st.mods[loc])
            data["stars"] = self._stars_at(st, loc)
            st.plays.append(rec)
        elif k in (E_PENALTY, E_CORNER):
            data["target"] = {"side": _NAMES[s], "card": st.ids[s][st.active[s]]}
            st.plays.append(rec)
            st.outer = [st.turn, st.passes, st.plays]
            st.plays = [rec]
            keeper = st.nfield[o]
            if k == E_PENALTY:
                st.moment = [M_PENALTY, s, serial, -1, []]
                ev.append(
                    MatchEvent(
                        "penalty_moment",
                        {
                            "side": _NAMES[s],
                            "card": st.ids[s][st.active[s]],
                            "stars": st.eff[s],
                            "keeper": st.ids[o][keeper],
                            "keeper_stars": keeper_stars_in_moment(st, o),
                        },
                    )
                )
            else:
                header = st.stack[s].pop()
                st.moment = [M_CORNER, s, serial, header, []]
                ev.append(
                    MatchEvent(
                        "corner_moment",
                        {
                            "side": _NAMES[s],
                            "card": st.ids[s][header],
                            "stars": st.stars[s][header],
                            "against": st.ids[o][st.active[o]],
                            "against_stars": st.eff[o],
                        },
                    )
                )
            st.wkind = W_MOMENT
            st.turn = o
            st.passes = 0
            return
        elif k == E_CANCEL:
            target = self._cancel_target(st, s)
            assert target is not None
            data["target"] = {"side": _NAMES[o], "card": target[2]}
            self._undo(st, target, ev)
            cancelled: dict[str, Any] = {"side": _NAMES[o], "card": target[2], "by": cid}
            if target[3] <= E_SET:
                cancelled["stars"] = self._stars_at(st, target[4])
            ev.append(MatchEvent("card_cancelled", cancelled))
            st.plays.append(rec)
            if target[3] in (E_PENALTY, E_CORNER):
                # the moment never happened: back to the main window, the moment's side answers
                assert st.outer is not None
                st.outer[2].append(rec)
                self._restore_outer(st, o)
                return
        elif k == E_FREE_SWAP:
            data["target"] = {"side": _NAMES[s], "card": st.ids[s][st.active[s]]}
            self._swap(st, s, ev, free=True)
            st.plays.append(rec)
        elif k == E_FORCE_NEXT:
            data["target"] = {"side": _NAMES[o], "card": st.ids[o][st.active[o]]}
            self._leave(st, o, ev)
            if self._reveal(st, o, ev, "force_next") and st.kfirst < 0:
                st.kfirst = o
            st.plays.append(rec)
        else:  # E_DISALLOW
            assert st.goal is not None
            data["target"] = {"side": _NAMES[o], "card": st.ids[o][st.goal[2]]}
            st.goal[3] = serial
            st.plays.append(rec)
        st.passes = 0
        st.turn = o

    def _undo(self, st: DuelState, rec: list[Any], ev: list[MatchEvent]) -> None:
        serial, _side, _card, kind, loc = rec
        if kind <= E_SET:
            if loc == LOC_MOMENT:
                assert st.moment is not None
                st.moment[4] = [m for m in st.moment[4] if m[0] != serial]
            else:
                st.mods[loc] = [m for m in st.mods[loc] if m[0] != serial]
                st.eff[loc] = apply_mods(st.stars[loc][st.active[loc]], st.mods[loc])
        elif kind in (E_PENALTY, E_CORNER):
            assert st.moment is not None
            self._end_moment_mods(st, ev)
            if st.moment[0] == M_CORNER:
                st.stack[st.moment[1]].append(st.moment[3])  # the header taker goes back on top
            st.moment = None
        else:  # E_DISALLOW: the goal stands again
            assert st.goal is not None
            st.goal[3] = -1

    # ------------------------------------------------------------------ halves, extra time, penalties
    def _half_over(self, st: DuelState, ev: list[MatchEvent], scorer: int, reason: str, rng: Rng) -> None:
        ev.append(
            MatchEvent(
                "half_over",
                {
                    "period": st.period,
                    "goal": _NAMES[scorer] if scorer >= 0 else None,
                    "reason": reason,
                    "score": list(st.score),
                },
            )
        )
        st.half_goals.append(scorer)
        for s in (0, 1):
            st.active[s] = -1
            st.mods[s] = []
            st.eff[s] = -1
        st.kfirst = -1
        st.moment = None
        st.goal = None
        st.outer = None
        st.plays = []
        st.passes = 0
        p = st.period
        if p == P_FIRST:
            self._open_lineups(st, P_SECOND)
        elif p == P_SECOND:
            if st.knockout and st.score[0] == st.score[1]:
                self._extra_time(st, ev)
            else:
                self._finish(st, ev, "regular")
        elif scorer >= 0:
            self._finish(st, ev, "extra_time")  # sudden death: the first goal of extra time wins
        else:
            self._shootout(st, ev, rng)

    def _open_lineups(self, st: DuelState, period: int) -> None:
        """D1: each period starts again from the full eleven with a new (hidden) line-up decision."""
        st.period = period
        st.phase = LINEUP
        st.pending = [True, True]

    def _extra_time(self, st: DuelState, ev: list[MatchEvent]) -> None:
        """Two extra match cards per side, only for extra time, discarded afterwards (box 6)."""
        home, away = st.et_cards[0:2], st.et_cards[2:4]
        st.et_hold = [list(home), list(away)]
        st.et_dealt = [*home, *away]
        ev.append(MatchEvent("extra_time", {"cards_dealt": {"home": len(home), "away": len(away)}}))
        for s, cards in ((0, home), (1, away)):
            if cards:
                ev.append(MatchEvent("cards_dealt", {"side": _NAMES[s], "cards": list(cards)}, _NAMES[s]))
        self._open_lineups(st, P_EXTRA)

    def _shootout(self, st: DuelState, ev: list[MatchEvent], rng: Rng) -> None:
        """D6: five rounds (early end when one side cannot catch up), then sudden death, then the die.

        Kickers follow each side's last chosen order (reserve excluded) against the opposing keeper's
        printed stars; no match cards and no swaps in the series (ruling in the draft).
        """
        st.period = P_SHOOTOUT
        pens = st.pens = [0, 0]
        st.kicks = []
        ev.append(MatchEvent("shootout_start", {}))
        orders = st.order
        keeper_stars = [st.stars[0][st.nfield[0]], st.stars[1][st.nfield[1]]]
        cap = [min(REGULATION_KICKS, len(orders[0])), min(REGULATION_KICKS, len(orders[1]))]
        taken = [0, 0]
        rnd = 0
        decided = False
        while not decided and rnd < len(orders[0]) and rnd < len(orders[1]):
            for s in (0, 1):
                card = orders[s][rnd]
                stars = st.stars[s][card]
                scored = stars > keeper_stars[1 - s]
                taken[s] += 1
                pens[s] += scored
                st.kicks.append([s, card, int(scored)])
                ev.append(
                    MatchEvent(
                        "shootout_kick",
                        {
                            "round": rnd + 1,
                            "side": _NAMES[s],
                            "card": st.ids[s][card],
                            "stars": stars,
                            "keeper_stars": keeper_stars[1 - s],
                            "scored": scored,
                            "score": list(pens),
                        },
                    )
                )
                if rnd < REGULATION_KICKS and (
                    pens[0] + cap[0] - taken[0] < pens[1] or pens[1] + cap[1] - taken[1] < pens[0]
                ):
                    decided = True
                    break
            rnd += 1
            if rnd >= REGULATION_KICKS and pens[0] != pens[1]:
                decided = True
        if pens[0] != pens[1]:
            self._finish(st, ev, "penalties", 0 if pens[0] > pens[1] else 1)
            return
        while True:  # field players ran out: the ball die decides, highest roll, ties re-rolled
            h, a = rng.d6(), rng.d6()
            ev.append(MatchEvent("die_roll", {"home": h, "away": a}))
            if h != a:
                self._finish(st, ev, "die", 0 if h > a else 1)
                return

    def _finish(self, st: DuelState, ev: list[MatchEvent], how: str, winner: int | None = None) -> None:
        st.phase = OVER
        st.pending = [False, False]
        if winner is None:
            winner = -1 if st.score[0] == st.score[1] else (0 if st.score[0] > st.score[1] else 1)
        st.winner = winner
        st.decided_by = how
        ev.append(
            MatchEvent(
                "match_over",
                {
                    "score": list(st.score),
                    "winner": _NAMES[winner] if winner >= 0 else None,
                    "decided_by": how,
                    "penalties": list(st.pens) if st.pens is not None else None,
                },
            )
        )

    # ------------------------------------------------------------------ projection
    def view(self, state: DuelState, side: Side | None, reveal_all: bool = False) -> dict[str, Any]:
        """What ``side`` may see (``None``: spectators and other participants); see ``duel_view``."""
        return project(self, state, side, reveal_all)


# What a card needs to be playable in the main window (index into the conditions of ``_legal``).
N_OWN_FIELD, N_OWN_KEEPER, N_OPP_FIELD, N_OPP_KEEPER, N_CORNER, N_FREE_SWAP, N_CANCEL, N_NEVER = range(8)


def _main_need(r: CardRule) -> int:
    """D4: green goes beside an own card in action, red beside the opponent's; field or keeper."""
    if r.kind <= E_SET:
        if r.green:
            return N_OWN_FIELD if r.target == T_FIELD else N_OWN_KEEPER
        return N_OPP_FIELD if r.target == T_FIELD else N_OPP_KEEPER
    return {
        E_PENALTY: N_OWN_FIELD,
        E_CORNER: N_CORNER,
        E_FREE_SWAP: N_FREE_SWAP,
        E_FORCE_NEXT: N_OPP_FIELD,
        E_CANCEL: N_CANCEL,
    }.get(r.kind, N_NEVER)


def _check_team(team: TeamEntry) -> None:
    if not 0 <= len(team.field) <= MAX_FIELD:
        raise InvalidSetup(f"{team.label}: {len(team.field)} field players; a team has at most {MAX_FIELD}")
    if not team.keeper.keeper:
        raise InvalidSetup(f"{team.label}: {team.keeper.id} is not a keeper")
    for c in team.field:
        if c.keeper:
            raise InvalidSetup(f"{team.label}: keeper {c.id} cannot play as a field player")
    for c in (*team.field, team.keeper):
        if not 0 <= c.stars <= 7:
            raise InvalidSetup(f"{team.label}: {c.id} has {c.stars} stars")


def practice_setup(
    rivals: Sequence[TeamCard],
    keeper_stack: Sequence[TeamCard],
    rng: Rng,
    holdings: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    labels: tuple[str, str] = ("practice-home", "practice-away"),
) -> tuple[MatchSetup, tuple[TeamCard, TeamCard]]:
    """A practice match (§4): the Official shuffles the 22 rival cards and deals 11 to each side,
    plus one keeper each from the top of the keeper stack. Returns the setup and the two keepers
    taken (the caller puts them back where the rules say). A practice match may end level.
    """
    cards = list(rivals)
    if len(cards) < 2 * MAX_FIELD:
        raise InvalidSetup(f"a practice match needs {2 * MAX_FIELD} rival cards, got {len(cards)}")
    if len(keeper_stack) < 2:
        raise InvalidSetup("a practice match needs two keepers from the keeper stack")
    rng.shuffle(cards)
    home_keeper, away_keeper = keeper_stack[0], keeper_stack[1]
    setup = MatchSetup(
        home=TeamEntry(labels[0], tuple(cards[:MAX_FIELD]), home_keeper, holdings[0]),
        away=TeamEntry(labels[1], tuple(cards[MAX_FIELD : 2 * MAX_FIELD]), away_keeper, holdings[1]),
        knockout=False,
    )
    return setup, (home_keeper, away_keeper)


FORMAT = register(DuelFormat())
