"""Rebuild a game from its seed, its creation settings and the actions it accepted, in order.

Deterministic because the rules depend only on the state and the action, and every random number comes
from the game's counter-based Rng stored in the state. A recorded ``rewind`` carries its salt, and is
applied again from the rebuilt history (``Timeline``), so a game with rewinds replays exactly too.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from cards.catalog import Catalog
from games.api import get_format
from tournament.rules.competition import MAGIC_FOOTBALL
from tournament.rules.engine import apply_action
from tournament.rules.errors import N_, IllegalAction
from tournament.rules.events import Actor, Ev
from tournament.rules.setup import from_setup
from tournament.rules.state import GameState

CHECKPOINT_EVERY = 32  # states kept per game: a step back costs at most this many actions


class Timeline:
    """A game's history: the state at every version, from the seed and the recorded actions.

    Version ``v`` is the state after the first ``v`` actions (version 0 is the fresh lobby). States are
    computed on demand, forward from the nearest checkpoint (one every ``CHECKPOINT_EVERY`` versions) or
    from the last state computed, so stepping through a replay costs one action per step and a jump at
    most ``CHECKPOINT_EVERY``. Computed states are never mutated (the rules work on clones), so they can
    be handed out freely. Safe to share between threads.
    """

    def __init__(
        self,
        seed: int,
        setup: dict[str, Any],
        pre_qualified: str,
        cat: Catalog,
        actions: Iterable[tuple[str, Any]] = (),
    ) -> None:
        self.seed = seed
        self.setup = dict(setup)
        self.pre_qualified = pre_qualified
        self.cat = cat
        self.actions: list[tuple[str, Any]] = []
        self._rewinds: list[tuple[int, int]] = []  # (index of the rewind action, version it went back to)
        initial = from_setup(seed, self.setup)
        initial.pre_qualified = pre_qualified
        self._checkpoints: dict[int, GameState] = {0: initial}
        self._head: tuple[int, GameState] = (0, initial)
        self._lock = threading.RLock()
        for label, action in actions:
            self.append(label, action)

    def __len__(self) -> int:
        return len(self.actions)

    def append(self, label: str, action: Any, index: int | None = None) -> None:
        """Add the next recorded action (its state is computed when first asked for).

        With ``index``, the action is added only if it is the next one (concurrent extenders add it once).
        """
        with self._lock:
            if index is not None and index != len(self.actions):
                return
            index = len(self.actions)
            self.actions.append((label, action))
            if isinstance(action, dict) and action.get("type") == "rewind":
                to = action.get("to_version")
                if isinstance(to, int) and not isinstance(to, bool):
                    self._rewinds.append((index, to))

    # ------------------------------------------------------------------ states
    def state_at(self, version: int) -> GameState:
        """The game at ``version`` (0 … ``len(self)``).

        :raises IndexError: for a version the timeline does not reach.
        :raises RulesError: when a recorded action is refused (the record and the rules disagree).
        """
        if not 0 <= version <= len(self.actions):
            raise IndexError(f"version {version} is outside 0..{len(self.actions)}")
        with self._lock:
            start = max(v for v in self._checkpoints if v <= version)
            state = self._checkpoints[start]
            head_v, head_state = self._head
            if start < head_v <= version:
                start, state = head_v, head_state
            for index in range(start, version):
                state, _events = self.apply(index, state)
            return state

    def apply(self, index: int, state: GameState) -> tuple[GameState, list[Ev]]:
        """Apply action ``index`` to the state at version ``index``; remembers the result."""
        label, action = self.actions[index]
        new, events = apply_action(state, Actor.parse(label), action, self.cat, _History(self, index))
        with self._lock:
            if (index + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[index + 1] = new
            self._head = (index + 1, new)
        return new, events

    def events_at(self, version: int) -> list[Ev]:
        """The events the action that produced ``version`` emitted (recomputed, with audiences)."""
        if not 1 <= version <= len(self.actions):
            raise IndexError(f"no action produced version {version}")
        with self._lock:
            return self.apply(version - 1, self.state_at(version - 1))[1]

    # ------------------------------------------------------------------ rewinds
    def history(self, version: int) -> _History:
        """The past as a rewind applied at ``version`` sees it (``tournament.rules.rewind.History``)."""
        return _History(self, version)

    def undone(self, version: int, now: int) -> bool:
        """Whether ``version`` was undone by a rewind made before version ``now``."""
        return any(to < version <= index for index, to in self._rewinds if index < now)

    def target(self, version: int, now: int) -> GameState:
        """What a rewind made at version ``now`` goes back to.

        :raises RulesError: the version is not in the past, or an earlier rewind undid it.
        """
        if not 0 <= version < now:
            raise IllegalAction(detail=N_("you can only rewind to an earlier moment"))
        if self.undone(version, now):
            raise IllegalAction(detail=N_("that moment was undone by an earlier rewind"))
        return self.state_at(version)


class _History:
    """The past as ``tournament.rules.rewind.apply_rewind`` sees it at one version of the timeline."""

    __slots__ = ("_timeline", "version")

    def __init__(self, timeline: Timeline, version: int) -> None:
        self._timeline = timeline
        self.version = version

    def target(self, version: int) -> GameState:
        return self._timeline.target(version, self.version)


def replay(
    seed: int,
    setup: dict[str, Any],
    pre_qualified: str,
    actions: Iterable[tuple[str, Any]],
    cat: Catalog,
    on_step: Any = None,
) -> GameState:
    """Apply ``(actor label, action)`` pairs to a fresh game; ``on_step(index, state, events)`` observes.

    :raises RulesError: when a recorded action is refused (the record and the rules disagree).
    """
    timeline = Timeline(seed, setup, pre_qualified, cat)
    state = timeline.state_at(0)
    for index, (label, action) in enumerate(actions):
        timeline.append(label, action)
        state, events = timeline.apply(index, state)
        if on_step is not None:
            on_step(index, state, events)
    return state


def dump(state: GameState) -> dict[str, Any]:
    """A canonical, comparable form of everything the rules know about a game."""
    out: dict[str, Any] = {
        "seed": state.seed,
        "rng_counter": state.rng_counter,
        "rng_generation": state.rng_generation,
        "mode": state.mode,
        "house_rules": state.house_rules,
        "status": state.status,
        "phase": state.phase,
        "stage": state.stage,
        "seats": {
            s: (v.nickname, v.bot, v.host, v.role, v.out, v.takeover) for s, v in sorted(state.seats.items())
        },
        "accounts": dict(sorted(state.accounts.items())),
        "piles": {k: list(v) for k, v in sorted(state.piles.items()) if v},
        "on_square": dict(sorted(state.on_square.items())),
        "finals": dict(sorted(state.finals.items())),
        "finals_coaches": dict(sorted(state.finals_coaches.items())),
        "squares": {k: (v.status, v.coach) for k, v in sorted(state.squares.items())},
        "markers": dict(sorted(state.markers.items())),
        "turn_order": list(state.turn_order),
        "turn": state.turn,
        "pawn": state.pawn,
        "prompts": [
            (p.id, p.seat, p.kind, p.choices, p.default, p.options, p.context) for p in state.prompts
        ],
        "next_prompt": state.next_prompt,
        "matches": [
            (
                m.number,
                m.kind,
                m.slot,
                m.status,
                m.score,
                m.penalties,
                m.decided_by,
                m.winner_side,
                (m.home.country, m.home.seat, m.home.role) if m.home else None,
                (m.away.country, m.away.seat, m.away.role) if m.away else None,
            )
            for m in state.matches
        ],
        "turns": dict(state.turns),
        "winner": state.winner,
        "pre_qualified": state.pre_qualified,
    }
    if state.game != MAGIC_FOOTBALL:  # (Magic Football's dump stays as its records' digests know it)
        out["game"] = state.game
        out["competition"] = state.competition
        out["engines"] = [
            get_format(m.format).to_dict(m.engine) if m.engine is not None else None for m in state.matches
        ]
    return out


__all__ = ["CHECKPOINT_EVERY", "Ev", "Timeline", "dump", "replay"]
