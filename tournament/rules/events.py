"""Events the rules emit, and the context an action runs in.

An event has a kind, a JSON-safe payload and an audience: ``None`` for everyone, or a tuple of seats
(an empty tuple = nobody in the room, e.g. the house bot's private line-up; revealed in replays once the
game is over). Money moves are events of kind ``transfer``: the service writes one ledger entry for each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.rng import make_rng

if TYPE_CHECKING:
    from cards.catalog import Catalog
    from tournament.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Ev:
    """One thing that happened."""

    kind: str
    payload: dict[str, Any]
    audience: tuple[int, ...] | None = None  # None = public

    def visible_to(self, seat: int | None) -> bool:
        """Whether a viewer in ``seat`` (None = spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends an action: a seat, the host, a guest joining the lobby, or the system (timer, bots)."""

    kind: str  # "seat" | "host" | "guest" | "system"
    seat: int | None = None

    @property
    def label(self) -> str:
        """Stable text form stored with events and action records ("seat:3", "host", "system")."""
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind

    @classmethod
    def parse(cls, label: str) -> Actor:
        """Inverse of ``label``."""
        if label.startswith("seat:"):
            return cls("seat", int(label[5:]))
        return cls(label)


class Ctx:
    """The working context of one action: the state being changed, the RNG, the catalog, the events."""

    __slots__ = ("actor", "cat", "events", "rng", "state")

    def __init__(self, state: GameState, cat: Catalog, actor: Actor) -> None:
        self.state = state
        self.cat = cat
        self.actor = actor
        self.rng = make_rng(state.seed, state.rng_counter, state.rng_generation)
        self.events: list[Ev] = []

    def emit(self, kind: str, audience: tuple[int, ...] | None = None, /, **payload: Any) -> None:
        """Record an event (public unless an audience is given)."""
        self.events.append(Ev(kind, payload, audience))

    def private(self, to: int | None, kind: str, /, **payload: Any) -> None:
        """Record an event only seat ``to`` may see (nobody in the room when it is the house bot)."""
        self.events.append(Ev(kind, payload, (to,) if to is not None else ()))

    def sync_rng(self) -> None:
        """Store the generator's counter back into the state."""
        self.state.rng_counter = self.rng.counter
