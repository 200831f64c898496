"""The host's rewind: the Official corrects a mistake by turning the game back to an earlier moment.

The game is rebuilt by replay (the caller supplies the game's history), then every hidden pile is
reshuffled with fresh randomness and the die's random stream moves on, so a rewind can never be used to
peek at a blind card or to replay a known roll (rulings G7–G10 in ``docs/RULES.md``, "Game night").

A rewind is an action like any other: it is recorded (with its salt, so a replay repeats it exactly),
the version keeps increasing, and a public ``rewound`` event tells everyone who rewound how far.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from cards.catalog import Catalog
from games.rng import Rng
from tournament.rules.errors import N_, Forbidden, IllegalAction, MalformedAction, RulesError
from tournament.rules.events import Actor, Ctx, Ev
from tournament.rules.state import BANK, GameState

# Blind piles whose order nobody may know (G8): box 2 match cards, box 3 keepers, box 4 money cards, the
# Official's country and rival cards. Box 1 and the Official's field players are shuffled together and
# dealt back in their sizes: a player who saw the cards of an undone deal then only knows they are
# "somewhere among the hidden field players", which everybody can work out anyway.
HIDDEN_PILES = ("box2", "box3", "box4", "official_countries", "official_rivals")
POOLED_PILES = ("box1", "official_fields")
MAX_SALT = (1 << 63) - 1


class History(Protocol):
    """The game's past as the rules need it for a rewind (``tournament.rules.replay.Timeline``)."""

    @property
    def version(self) -> int:
        """The game's current version (the number of actions applied so far)."""
        ...

    def target(self, version: int) -> GameState:
        """The state the game had at ``version``.

        :raises RulesError: when that version is not an earlier moment of the game as it stands
            (in the future, or undone by an earlier rewind).
        """
        ...


def reshuffle_hidden(state: GameState, rng: Rng) -> list[str]:
    """Shuffle every hidden pile of ``state`` in place; returns the names of the piles that hold cards."""
    touched: list[str] = []
    pooled = [c for key in POOLED_PILES for c in state.piles.get(key, [])]
    if pooled:
        sizes = [len(state.piles.get(key, [])) for key in POOLED_PILES]
        rng.shuffle(pooled)
        start = 0
        for key, size in zip(POOLED_PILES, sizes, strict=True):
            state.piles[key] = pooled[start : start + size]
            start += size
            if size:
                touched.append(key)
    for key in HIDDEN_PILES:
        pile = state.piles.get(key)
        if pile and len(pile) > 1:
            shuffled = list(pile)
            rng.shuffle(shuffled)
            state.piles[key] = shuffled
            touched.append(key)
        elif pile:
            touched.append(key)
    return touched


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def apply_rewind(
    state: GameState, actor: Actor, action: dict[str, Any], cat: Catalog, history: History | None
) -> tuple[GameState, list[Ev]]:
    """Turn the game back to how it was at ``action["to_version"]`` (the host only).

    The rebuilt state keeps who is at the table (a seat handed to a bot stays with the bot) and whether
    the game is paused; hidden piles are reshuffled with ``Rng(seed ^ salt)``; the random counter never
    goes back; open decisions get fresh prompt ids; the money difference is booked as ``transfer`` events
    (reason ``rewind``) so the ledger keeps adding up to the balances.

    :raises RulesError: forbidden for anyone but the host; ``game_over`` after the end; an illegal
        target (before the start, inside a match, undone already, not in the past); malformed fields.
    """
    if actor.kind != "host":
        raise Forbidden(detail=N_("only the host can rewind the game"))
    if history is None:
        raise MalformedAction(detail=N_("a rewind needs the game's history"))
    if state.status in ("finished", "abandoned"):
        raise RulesError("game_over")
    if state.status not in ("running", "paused"):
        raise RulesError("wrong_phase", phase=state.phase)
    to_version, salt = action.get("to_version"), action.get("salt")
    if not _whole(to_version) or to_version < 0:
        raise MalformedAction(detail=N_("to_version must be a whole number"))
    if not _whole(salt) or not 0 <= salt <= MAX_SALT:
        raise MalformedAction(detail=N_("a rewind needs the server's salt"))
    if to_version >= history.version:
        raise IllegalAction(detail=N_("you can only rewind to an earlier moment"))
    target = history.target(to_version)
    if target.status not in ("running", "paused"):
        raise IllegalAction(detail=N_("you can only rewind to a moment after the start of the game"))
    if target.running_match is not None:
        raise IllegalAction(detail=N_("you cannot rewind into a match: choose a moment before it started"))

    new = target.clone()
    new.status = state.status  # a rewind changes the game, not whether it is paused
    for seat, now in state.seats.items():
        if seat in new.seats:
            new.seats[seat].takeover = now.takeover  # nor who decides for a seat
    new.rng_counter = max(state.rng_counter, target.rng_counter)  # the die never repeats an undone roll
    ctx = Ctx(new, cat, actor)
    for key in sorted(set(state.accounts) | set(new.accounts)):
        if key == BANK:
            continue
        delta = new.accounts.get(key, 0) - state.accounts.get(key, 0)
        if delta > 0:
            ctx.emit("transfer", src=BANK, dst=key, amount=delta, reason="rewind")
        elif delta < 0:
            ctx.emit("transfer", src=key, dst=BANK, amount=-delta, reason="rewind")
    reshuffled = reshuffle_hidden(new, Rng(state.seed ^ salt))
    first = max(state.next_prompt, target.next_prompt)
    new.prompts = [dataclasses.replace(p, id=first + i) for i, p in enumerate(target.prompts)]
    new.next_prompt = first + len(new.prompts)
    ctx.emit(
        "rewound",
        by=actor.kind,
        to_version=to_version,
        undone=history.version - to_version,
        reshuffled=reshuffled,
    )
    for p in new.prompts:
        ctx.emit("deciding", seat=p.seat, prompt=p.id, prompt_kind=p.kind)
    return new, ctx.events


__all__ = ["HIDDEN_PILES", "POOLED_PILES", "History", "apply_rewind", "reshuffle_hidden"]
