"""Conservation and placement checks, cheap enough to run after every action in production too."""

from __future__ import annotations

from collections import Counter

from cards.catalog import Catalog
from tournament.rules.state import (
    BANK_RESERVE,
    HOLDING_LIMIT,
    TEAM_FIELD_LIMIT,
    TEAM_KEEPER_LIMIT,
    GameState,
)

SELECTION_PROMPTS = frozenset({"return_card", "keep_selection", "discard_match"})


_EXPECTED: dict[int, tuple[Catalog, Counter[str]]] = {}


def _every_card_once(cat: Catalog) -> Counter[str]:
    """Each card copy of the catalog once (built once per catalog: it runs after every action)."""
    entry = _EXPECTED.get(id(cat))
    if entry is None or entry[0] is not cat:
        entry = _EXPECTED[id(cat)] = (cat, Counter(cat.all_ids()))
    return entry[1]


def check(state: GameState, cat: Catalog) -> list[str]:
    """Every broken invariant, as a sentence; an empty list means the state is sound."""
    problems: list[str] = []
    if state.phase == "lobby":  # never laid out (also a lobby the host closed): nothing to conserve yet
        return problems
    if state.game != "magic-football":  # another game's room: no money, no cards of the catalog's
        from tournament.rules import competition

        return competition.invariants(state)
    total = sum(state.accounts.values())
    if total != BANK_RESERVE:
        problems.append(f"money not conserved: accounts sum to {total}, expected {BANK_RESERVE}")
    for key, value in state.accounts.items():
        if value < 0:
            problems.append(f"account {key} is negative ({value})")

    seen: Counter[str] = Counter()
    for pile in state.piles.values():
        seen.update(pile)
    seen.update(state.on_square.values())
    seen.update(state.finals.values())
    expected = _every_card_once(cat)
    # One C-level comparison when sound (Counter's own == walks every card in Python; these Counters
    # never hold zero counts, so plain dict equality is the same test); the details only when not.
    if not dict.__eq__(seen, expected):
        for card, n in (seen - expected).items():
            problems.append(f"card {card} is in {n + expected.get(card, 0)} places")
        for card in expected - seen:
            problems.append(f"card {card} is nowhere")

    waiting = {p.seat for p in state.prompts if p.kind in SELECTION_PROMPTS}
    for seat, st in state.seats.items():
        team = state.piles.get(f"team:{seat}", [])
        keepers = sum(1 for c in team if c[0] == "K")
        if len(team) - keepers > TEAM_FIELD_LIMIT or keepers > TEAM_KEEPER_LIMIT:
            problems.append(f"seat {seat}: team of {len(team) - keepers} field players and {keepers} keepers")
        holding = state.piles.get(f"holding:{seat}", [])
        if len(holding) > HOLDING_LIMIT:
            problems.append(f"seat {seat}: {len(holding)} match cards")
        if holding and not st.is_bc:
            problems.append(f"seat {seat}: a trainer holds match cards (R11)")
        if state.piles.get(f"selection:{seat}") and seat not in waiting:
            problems.append(f"seat {seat}: cards in hand without a decision to make")

    coaches: Counter[int] = Counter()
    for idx, sq in state.squares.items():
        has_card = idx in state.on_square
        if sq.status in ("qualified", "contracted") and not has_card:
            problems.append(f"square {idx} is {sq.status} without a country card")
        if sq.status in ("empty", "marker") and has_card:
            problems.append(f"square {idx} is {sq.status} but holds {state.on_square[idx]}")
        if (sq.status == "contracted") != (sq.coach is not None):
            problems.append(f"square {idx}: contract and coach disagree")
        if sq.coach is not None:
            coaches[sq.coach] += 1
    on_marker = {sq for sq in state.markers.values() if sq is not None}
    for idx, sq in state.squares.items():
        if (sq.status == "marker") != (idx in on_marker):
            problems.append(f"square {idx}: marker status and markers disagree")
    for seat, n in coaches.items():
        if n > 1:
            problems.append(f"seat {seat} coaches {n} countries")
    if state.phase in ("phase1", "phase2"):
        for seat, st in state.seats.items():
            if st.is_bc and coaches.get(seat, 0) != 1:
                problems.append(f"seat {seat} is a BC without a contract")
    if state.running_match is None and state.piles.get("match"):
        offered = {c for p in state.prompts if p.kind == "ac_keep" for c in p.context.get("cards", [])}
        if set(state.piles["match"]) - offered:
            problems.append("cards in play with no match running")
    return problems
