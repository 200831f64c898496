"""Bot coaches for the card duel: every match decision (line-up, swaps, match cards).

A policy is a pure function ``(format, state, decision, rng) -> choice`` returning one of the
decision's legal choices; randomness only from the given ``Rng``, so a bot match replays exactly.

- ``default``: the decision's own default (previous line-up, else strongest first; pass in windows).
- ``random``: a random line-up and a random legal choice, for comparison.
- ``easy``: the default plus a little sense: it disallows a goal against it and, when the other side
  is about to score past its keeper, plays the first card it finds that stops it.
- ``strong``: reads the half (who scores if nobody plays another card?), spends match cards and
  swaps only when that changes the answer: to stop a goal, to make a 7★ card nothing can beat, to
  score past a keeper; takes penalties and corners that score, disallows and cancels.

Bots play fair: they read only what their side may see (their own stack, reserve and holding, both
cards in action, revealed cards and counts), never the opponent's hidden cards. Effects that would
reveal a hidden card (the opponent's next card after "force next", an unrevealed keeper) are
estimated, not looked up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cards.rules.duel import DuelFormat
from cards.rules.duel_cards import (
    E_CANCEL,
    E_CORNER,
    E_DISALLOW,
    E_FORCE_NEXT,
    E_FREE_SWAP,
    E_PENALTY,
    E_SET,
    E_STARS,
    MAX_STARS,
    T_KEEPER,
    apply_mods,
)
from cards.rules.duel_state import M_PENALTY, MAX_SWAPS, P_EXTRA, W_GOAL, W_MAIN, W_MOMENT, DuelState
from games.api import Decision, MatchEvent, MatchFormat, MatchSetup, Side
from games.rng import Rng

Policy = Callable[[MatchFormat, Any, Decision, Rng], dict[str, Any]]

# Keepers in the catalog have 3–5 stars: an unseen keeper is assumed to be a strong one.
ASSUMED_KEEPER = 5
# The unknown next card of the opponent (after "force next"): about an average field player.
ASSUMED_NEXT = 4


def default_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """The decision's default (also what an expired decision timer does, R19)."""
    return decision.default


def random_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly random legal choice; a random order and reserve for a line-up."""
    if decision.kind == "lineup":
        ids = [c["id"] for c in decision.options["field"]]
        rng.shuffle(ids)
        if decision.options["reserve_required"]:
            return {"kind": "lineup", "order": ids[:-1], "reserve": ids[-1]}
        return {"kind": "lineup", "order": ids, "reserve": None}
    return rng.choice(decision.choices)


# ---------------------------------------------------------------------- reading the state
def _side_index(side: Side) -> int:
    return 0 if side == "home" else 1


def _outlook(st: DuelState, s: int) -> int:
    """+1: a goal for ``s`` when everyone passes now; −1: a goal against ``s``; 0: neither.

    Inside a moment the keeper or header taker is already revealed, so this reads nothing hidden.
    """
    o = 1 - s
    if st.wkind == W_GOAL:
        g = st.goal
        if g is None or g[3] >= 0:
            return 0
        return 1 if g[0] == s else -1
    if st.wkind == W_MOMENT and st.moment is not None:
        kind, ms, _serial, header, mods = st.moment
        mo = 1 - ms
        if kind == M_PENALTY:
            keeper = st.nfield[mo]
            base = st.eff[mo] if st.active[mo] == keeper else st.stars[mo][keeper]
            scores = st.eff[ms] > apply_mods(base, mods)
        else:
            scores = apply_mods(st.stars[ms][header], mods) > st.eff[mo]
        if not scores:
            return 0
        return 1 if ms == s else -1
    if st.kfirst == o:
        return 1 if st.eff[s] > st.eff[o] else 0
    if st.kfirst == s:
        return -1 if st.eff[o] > st.eff[s] else 0
    return 0


def _best_to_come(st: DuelState, s: int, can_swap: bool) -> int:
    """The strongest field player ``s`` can still bring into action (its own stack and reserve)."""
    stars, keeper = st.stars[s], st.nfield[s]
    best = max((stars[c] for c in st.stack[s] if c != keeper), default=-1)
    if can_swap and st.reserve[s] >= 0:
        best = max(best, stars[st.reserve[s]])
    return best


def _judge(kfirst: int, s: int, own: int, opp: int, best: int) -> int:
    """Who scores this half if nobody plays another card: +1 ``s``, −1 the opponent, 0 open.

    Step 5: with the opponent's keeper in action we score as soon as a card of ours beats it. With
    our keeper in action the attacker scores when his card beats it. Before that, a 7★ card beats all
    the opponent can still bring in (D4 cap), and a card stronger than everything we have left eats
    our whole stack and then beats our keeper.
    """
    o = 1 - s
    if kfirst == o:
        return 1 if own > opp or best > opp else 0
    if kfirst == s:
        return -1 if opp > own else 0
    if own >= MAX_STARS > opp:
        return 1
    if opp > own and opp > best:
        return -1
    return 0


def _half_outlook(st: DuelState, s: int) -> int:
    """``_judge`` for the state as it is."""
    if st.wkind != W_MAIN:
        return _outlook(st, s)
    own = st.active[s]
    can_swap = st.reserve[s] >= 0 and st.swaps[s] < MAX_SWAPS and own >= 0 and own != st.nfield[s]
    return _judge(st.kfirst, s, st.eff[s], st.eff[1 - s], _best_to_come(st, s, can_swap))


def _judge_choice(fmt: DuelFormat, st: DuelState, s: int, choice: dict[str, Any]) -> int | None:
    """``_judge`` after a main-window choice, computed from what ``s`` sees; None if not estimable."""
    o = 1 - s
    own, opp = st.eff[s], st.eff[o]
    in_action = st.active[s]
    can_swap = st.reserve[s] >= 0 and st.swaps[s] < MAX_SWAPS and in_action != st.nfield[s]
    best = _best_to_come(st, s, can_swap)
    kind = choice["kind"]
    if kind == "swap" or (kind == "play" and fmt.rules[choice["card"]].kind == E_FREE_SWAP):
        swaps_after = st.swaps[s] + (1 if kind == "swap" else 0)
        own = st.stars[s][st.reserve[s]]
        best = _best_to_come(st, s, False)
        if swaps_after < MAX_SWAPS:
            best = max(best, st.stars[s][in_action])  # the card going to the bench can come back
        return _judge(st.kfirst, s, own, opp, best)
    if kind != "play":
        return None
    r = fmt.rules[choice["card"]]
    if r.kind in (E_STARS, E_SET):
        mod = [-1, choice["card"], 1 if r.kind == E_SET else 0, r.value]
        if r.green:
            own = apply_mods(st.stars[s][in_action], [*st.mods[s], mod])
        else:
            opp = apply_mods(st.stars[o][st.active[o]], [*st.mods[o], mod])
        return _judge(st.kfirst, s, own, opp, best)
    if r.kind == E_FORCE_NEXT:
        return _judge(st.kfirst, s, own, ASSUMED_NEXT, best)
    return None  # cancel: judged on a preview; penalty and corner: judged by their own rule


# The price of spending a choice: cheaper choices are tried first.
_KIND_COST = {E_SET: 3.5, E_FREE_SWAP: 1.2, E_FORCE_NEXT: 2.5, E_CANCEL: 3.0, E_PENALTY: 4.0, E_CORNER: 3.0}


def _cost(fmt: DuelFormat, st: DuelState, s: int, choice: dict[str, Any]) -> float:
    if choice["kind"] == "swap":
        return 1.5
    card = choice["card"]
    if st.period == P_EXTRA and card in st.et_hold[s]:
        return 0.1  # extra-time cards are discarded after the match anyway
    r = fmt.rules[card]
    if r.kind == E_STARS:
        # a keeper card in action stays for the rest of the half: worth a little more
        return 1.0 + abs(r.value) + (0.5 if r.target == T_KEEPER else 0.0)
    return _KIND_COST.get(r.kind, 5.0)


def _cheapest_that(
    fmt: DuelFormat, st: DuelState, decision: Decision, s: int, want: Callable[[int], bool]
) -> dict[str, Any] | None:
    """The cheapest non-pass choice after which the half's outlook satisfies ``want``."""
    options = [c for c in decision.choices if c["kind"] != "pass"]
    options.sort(key=lambda c: _cost(fmt, st, s, c))
    for choice in options:
        if st.wkind == W_MAIN:
            verdict = _judge_choice(fmt, st, s, choice)
            if verdict is None:
                if choice["kind"] != "play" or fmt.rules[choice["card"]].kind != E_CANCEL:
                    continue
                verdict = _half_outlook(fmt.preview(st, decision.side, choice), s)
        else:
            verdict = _outlook(fmt.preview(st, decision.side, choice), s)
        if want(verdict):
            return choice
    return None


def _plays_of(fmt: DuelFormat, decision: Decision, kind: int) -> list[dict[str, Any]]:
    return [c for c in decision.choices if c["kind"] == "play" and fmt.rules[c["card"]].kind == kind]


def _goal_window(fmt: DuelFormat, st: DuelState, decision: Decision, s: int) -> dict[str, Any]:
    """Disallow a goal against us; cancel the disallowing of ours."""
    g = st.goal
    if g is not None and g[0] != s:
        plays = _plays_of(fmt, decision, E_DISALLOW)
    elif g is not None and g[3] >= 0:
        plays = _plays_of(fmt, decision, E_CANCEL)
    else:
        plays = []
    return plays[0] if plays else decision.default


# ---------------------------------------------------------------------- easy
def easy_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """Default line-up; disallows goals against it and stops a goal past its keeper when it can."""
    if decision.kind != "window" or not isinstance(fmt, DuelFormat):
        return decision.default
    st: DuelState = state
    s = _side_index(decision.side)
    if st.wkind == W_GOAL:
        return _goal_window(fmt, st, decision, s)
    if st.wkind == W_MAIN and _outlook(st, s) < 0:
        for choice in decision.choices:
            if choice["kind"] == "play" and _outlook(fmt.preview(st, decision.side, choice), s) >= 0:
                return choice
    return decision.default


# ---------------------------------------------------------------------- strong
def strong_lineup(decision: Decision) -> dict[str, Any]:
    """Strongest first, weakest on the bench.

    Why: a card in action is only beaten by a stronger (or equal) card, so the strongest card leads
    and eats every weaker card (step 4); the side holding the single best card never runs out first.
    Leading strong also puts the best card in action while a plus card can still make it a 7★ that
    nothing beats (D4 cap). The weakest card is the one least missed on the bench, and in extra time
    the order also gives the best penalty takers first (D6). (Keeping the best card on the bench as a
    swap threat was measured and loses: the opponent's best card then eats the whole stack.)
    """
    field = decision.options["field"]
    ordered = sorted(field, key=lambda c: -c["stars"])
    if decision.options["reserve_required"]:
        return {"kind": "lineup", "order": [c["id"] for c in ordered[:-1]], "reserve": ordered[-1]["id"]}
    return {"kind": "lineup", "order": [c["id"] for c in ordered], "reserve": None}


def strong_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """Match cards only where they decide a goal; swaps that win duels; penalties and corners that score."""
    if not isinstance(fmt, DuelFormat):
        return decision.default
    if decision.kind == "lineup":
        return strong_lineup(decision)
    st: DuelState = state
    s = _side_index(decision.side)
    if st.wkind == W_GOAL:
        return _goal_window(fmt, st, decision, s)
    if st.wkind == W_MOMENT:
        now = _outlook(st, s)
        if now < 0:
            return _cheapest_that(fmt, st, decision, s, lambda v: v >= 0) or decision.default
        if now == 0 and st.moment is not None and st.moment[1] == s:
            return _cheapest_that(fmt, st, decision, s, lambda v: v > 0) or decision.default
        return decision.default
    now = _half_outlook(st, s)
    if now < 0:
        # a goal against us unless we act: the cheapest choice that stops it (or at least delays it)
        return _cheapest_that(fmt, st, decision, s, lambda v: v >= 0) or decision.default
    if now > 0:
        return decision.default
    return _strong_chance(fmt, st, decision, s) or decision.default


def _strong_chance(fmt: DuelFormat, st: DuelState, decision: Decision, s: int) -> dict[str, Any] | None:
    """Nothing decided yet: a penalty or corner that scores, a choice that decides the half for us,
    else a swap that wins the duel in action (keeping one swap for later)."""
    o = 1 - s
    own, opp = st.eff[s], st.eff[o]
    for choice in decision.choices:
        if choice["kind"] != "play":
            continue
        r = fmt.rules[choice["card"]]
        if r.kind == E_PENALTY:
            # the opponent's keeper is hidden until it comes into action: assume a strong one
            if own > (opp if st.kfirst == o else ASSUMED_KEEPER):
                return choice
        elif r.kind == E_CORNER and st.stars[s][st.stack[s][-1]] > opp:
            return choice  # our next card is known to us
    choice = _cheapest_that(fmt, st, decision, s, lambda v: v > 0)
    if choice is not None:
        return choice
    if st.kfirst < 0 and own < opp and st.reserve[s] >= 0 and st.stars[s][st.reserve[s]] > opp:
        free = _plays_of(fmt, decision, E_FREE_SWAP)
        if free:
            return free[0]
        if MAX_SWAPS - st.swaps[s] > 1 and {"kind": "swap"} in decision.choices:
            return {"kind": "swap"}
    return None


POLICIES: dict[str, Policy] = {
    "default": default_policy,
    "random": random_policy,
    "easy": easy_policy,
    "strong": strong_policy,
}


def get_policy(name: str) -> Policy:
    """A match policy by name (``default``, ``random``, ``easy``, ``strong``)."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown match bot policy {name!r}; choose from {', '.join(POLICIES)}") from None


def play_match(
    fmt: MatchFormat,
    setup: MatchSetup,
    rng: Rng,
    home: Policy | str = "default",
    away: Policy | str = "default",
    bot_rng: Rng | None = None,
) -> tuple[Any, list[MatchEvent]]:
    """Play a whole match between two bot policies; returns the final state and every event.

    ``rng`` is the match's own generator (the die of a penalty series); ``bot_rng`` feeds the
    policies (by default a generator derived from the match seed). Sides on the ``default`` policy
    are advanced with ``DuelFormat.advance_defaults``, which gives the same events, only faster.
    """
    policies = {
        "home": get_policy(home) if isinstance(home, str) else home,
        "away": get_policy(away) if isinstance(away, str) else away,
    }
    brng = bot_rng if bot_rng is not None else Rng(rng.seed ^ 0x5EED)
    state = fmt.start(setup, rng)
    events: list[MatchEvent] = []
    defaults: list[Side] = [side for side, p in policies.items() if p is default_policy]
    fast = fmt if isinstance(fmt, DuelFormat) and defaults else None
    while True:
        if fast is not None:
            events += fast.advance_defaults(state, rng, defaults)
        pending = fmt.decisions(state)
        if not pending:
            return state, events
        d = pending[0]
        events += fmt.apply(state, d.side, policies[d.side](fmt, state, d, brng), rng)


__all__ = [
    "POLICIES",
    "Policy",
    "default_policy",
    "easy_policy",
    "get_policy",
    "play_match",
    "random_policy",
    "strong_lineup",
    "strong_policy",
]
