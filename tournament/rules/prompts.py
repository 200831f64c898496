"""Pending prompts: a decision owned by one seat, with its legal choices and a default (what a bot does)."""

from __future__ import annotations

from typing import Any

from tournament.rules.events import Ctx
from tournament.rules.state import Prompt

# Prompt kinds whose legal choices cannot be listed (a subset or an order of cards): validated per kind.
OPEN_ENDED = frozenset({"keep_selection", "lineup", "ac_keep"})


def ask(
    ctx: Ctx,
    seat: int | None,
    kind: str,
    choices: list[dict[str, Any]],
    default: dict[str, Any],
    options: dict[str, Any] | None = None,
    context: dict[str, Any] | None = None,
) -> Prompt:
    """Open a decision for ``seat``; everyone sees who decides what, only the owner sees the options."""
    st = ctx.state
    prompt = Prompt(
        id=st.next_prompt,
        seat=seat,
        kind=kind,
        choices=choices,
        default=default,
        options=options or {},
        context=context or {},
    )
    st.next_prompt += 1
    st.prompts.append(prompt)
    ctx.emit("deciding", seat=seat, prompt=prompt.id, prompt_kind=kind)
    return prompt


def close(ctx: Ctx, prompt: Prompt) -> None:
    """Remove an answered prompt."""
    ctx.state.prompts = [p for p in ctx.state.prompts if p.id != prompt.id]
