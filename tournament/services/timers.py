"""The decision timer (R19) in server time, stored with the decisions it runs for.

Every open decision of a human seat in a room with a timer carries its deadline (``Prompt.deadline``,
epoch milliseconds of the server's clock), written with the game (``Game.flow``), so every server process,
every page and a restarted server agree on it (R19b). ``game_act`` calls ``arm`` on every new state:

- a decision gets ``deadline = now + timer`` when it opens, and a fresh full timer when the host gives a
  seat back to its human;
- a pause freezes every deadline into the time ``left``; the resume re-arms ``deadline = now + left``
  (R19a);
- a decision of a seat a bot holds has no timer: the bot decides (R19c).

``check_due`` refuses the timer's own default (``force_default`` by the ``system`` actor) before the
deadline, so a timer scheduled before a pause, on an older version or by another process can never take
the default while a page still shows time left.

The rules neither read the clock nor these two fields; replays rebuild the same game without them.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from tournament.rules.errors import RulesError
from tournament.rules.events import Actor
from tournament.rules.state import GameState, Prompt


def clock_ms() -> int:
    """The server's clock (epoch milliseconds) that deadlines are set and judged by.

    One function for the service and the driver, so a test moves both by patching it."""
    return int(time.time() * 1000)


def timer_ms(state: GameState) -> int | None:
    """The room's decision timer in milliseconds, or None when the room has none."""
    seconds = state.house_rules.get("decision_timer")
    return int(seconds) * 1000 if seconds else None


def timed(state: GameState, prompt: Prompt) -> bool:
    """Whether the timer runs for this decision: a room with a timer, a human who holds the seat."""
    if timer_ms(state) is None or prompt.seat is None:
        return False
    seat = state.seats.get(prompt.seat)
    return seat is not None and not seat.automated


def arm(state: GameState, now_ms: int) -> None:
    """Give every open decision the timer it has now (see the module docstring); idempotent.

    Prompts are shared between a state and its clones, so a changed one is replaced, never mutated.
    """
    if state.status not in ("running", "paused") or not state.prompts:
        return
    total = timer_ms(state)
    paused = state.status == "paused"
    prompts = [_armed(p, total if timed(state, p) else None, paused, now_ms) for p in state.prompts]
    if any(new is not old for new, old in zip(prompts, state.prompts, strict=True)):
        state.prompts = prompts


def _armed(prompt: Prompt, total: int | None, paused: bool, now_ms: int) -> Prompt:
    deadline: int | None
    left: int | None
    if total is None:
        deadline, left = None, None
    elif paused:  # frozen: what was left when the pause began (a decision opened while paused: all of it)
        deadline = None
        if prompt.left is not None:
            left = prompt.left
        elif prompt.deadline is not None:
            left = max(0, prompt.deadline - now_ms)
        else:
            left = total
    else:  # running: the deadline it has, or one from what was left at the pause, or a fresh one
        left = None
        if prompt.deadline is not None:
            deadline = prompt.deadline
        else:
            deadline = now_ms + (prompt.left if prompt.left is not None else total)
    if deadline == prompt.deadline and left == prompt.left:
        return prompt
    return dataclasses.replace(prompt, deadline=deadline, left=left)


def check_due(state: GameState, actor: Actor, action: Any, now_ms: int) -> None:
    """Refuse the decision timer's default before its deadline (``timer_running``).

    Only the ``system`` actor's ``force_default`` is judged: the host's "decide by default" is his to
    take at any time, and an absent player's default (rooms without a timer) has no deadline.
    """
    if actor.kind != "system" or not isinstance(action, dict) or action.get("type") != "force_default":
        return
    prompt_id = action.get("prompt")
    if not isinstance(prompt_id, int) or isinstance(prompt_id, bool):
        return  # malformed: the rules say so
    prompt = state.prompt(prompt_id)
    if prompt is not None and prompt.deadline is not None and now_ms < prompt.deadline:
        raise RulesError("timer_running", seconds=(prompt.deadline - now_ms + 999) // 1000)


def seconds_left(prompt: dict[str, Any], now_ms: int) -> int | None:
    """Whole seconds left on a projected prompt's timer (rounded up, as the pages show it), or None."""
    if prompt.get("left") is not None:
        return (int(prompt["left"]) + 999) // 1000
    if prompt.get("deadline") is not None:
        return max(0, (int(prompt["deadline"]) - now_ms + 999) // 1000)
    return None
