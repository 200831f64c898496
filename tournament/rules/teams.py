"""Teams and holdings: the 10 + 1 + 1 limit, the 5-card holding, and choosing what to keep.

Cards that would take a team or holding over its limit wait in the participant's *selection* (cards in
hand being chosen from) until he decides, so a team never holds more than 11 field players and a keeper
and a holding never more than 5 match cards — not even for a moment.
"""

from __future__ import annotations

from typing import Any

from tournament.rules import policy
from tournament.rules.errors import N_, IllegalAction, MalformedAction
from tournament.rules.events import Ctx
from tournament.rules.prompts import ask
from tournament.rules.state import (
    HOLDING_LIMIT,
    TEAM_FIELD_LIMIT,
    TEAM_KEEPER_LIMIT,
    Prompt,
    holding_key,
    selection_key,
    team_key,
)


def is_keeper(card: str) -> bool:
    """Keeper ids start with K (the catalog loader enforces id formats)."""
    return card[0] == "K"


def team_field(ctx: Ctx, seat: int) -> list[str]:
    """Field players in a team."""
    return [c for c in ctx.state.pile(team_key(seat)) if not is_keeper(c)]


def team_keepers(ctx: Ctx, seat: int) -> list[str]:
    """Keepers in a team."""
    return [c for c in ctx.state.pile(team_key(seat)) if is_keeper(c)]


def return_to_official(ctx: Ctx, card: str) -> None:
    """A player card given back to the Official goes under his stack (ruling R9a); keepers under box 3."""
    key = "box3" if is_keeper(card) else "official_fields"
    ctx.state.pile(key).insert(0, card)


def receive_players(ctx: Ctx, seat: int, cards: list[str], reason: str) -> None:
    """Add player cards to a team; over the limit they wait in the selection and the owner chooses.

    One surplus card → "return_card" (pick the card to give back, default the weakest); several
    (becoming BC, settlement) → "keep_selection" (pick the 11 + 1 to keep, default the strongest).
    """
    st = ctx.state
    team = st.pile(team_key(seat))
    field = [c for c in team if not is_keeper(c)] + [c for c in cards if not is_keeper(c)]
    keepers = [c for c in team if is_keeper(c)] + [c for c in cards if is_keeper(c)]
    surplus = max(0, len(field) - TEAM_FIELD_LIMIT) + max(0, len(keepers) - TEAM_KEEPER_LIMIT)
    if surplus == 0:
        team.extend(cards)
        return
    st.pile(selection_key(seat)).extend(cards)
    if surplus == 1 and reason not in ("contract", "settlement"):
        pool = field if len(field) > TEAM_FIELD_LIMIT else keepers
        ask(
            ctx,
            seat,
            "return_card",
            [{"card": c} for c in pool],
            {"card": policy.weakest_player(ctx, pool)},
            options={"cards": pool, "kind": "keeper" if is_keeper(pool[0]) else "field"},
        )
        return
    default = policy.keep_selection_default(ctx.cat, field, keepers)
    ask(
        ctx,
        seat,
        "keep_selection",
        [],
        default,
        options={
            "field": field,
            "keepers": keepers,
            "keep_field": min(TEAM_FIELD_LIMIT, len(field)),
            "reason": reason,
        },
        context={"reason": reason},
    )


def _settle_selection(ctx: Ctx, seat: int, returned: list[str], to_out: bool) -> None:
    """Give back the returned cards and move the rest of the selection into the team."""
    st = ctx.state
    team = st.pile(team_key(seat))
    selection = st.pile(selection_key(seat))
    for card in returned:
        (selection if card in selection else team).remove(card)
        if to_out:
            st.pile("out").append(card)  # the Bank has closed: surplus leaves the game
        else:
            return_to_official(ctx, card)
    team.extend(selection)
    selection.clear()


def on_return_card(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    """The participant gives back one card (default: the weakest)."""
    seat = prompt.seat
    assert seat is not None
    card = choice["card"]
    _settle_selection(ctx, seat, [card], to_out=False)
    ctx.private(seat, "card_returned", seat=seat, card=card)  # which card left a team is his secret


def on_keep_selection(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    """The participant keeps 11 field players and one keeper; the rest go back (R9, R15)."""
    seat = prompt.seat
    assert seat is not None
    field = prompt.options["field"]
    keepers = prompt.options["keepers"]
    keep_field = choice.get("field")
    keep_keeper = choice.get("keeper")
    if not set(choice) <= {"field", "keeper"}:
        raise MalformedAction(detail=N_('a selection names only "field" and "keeper"'))
    if not isinstance(keep_field, list) or not all(isinstance(c, str) for c in keep_field):
        raise MalformedAction(detail=N_("field must be a list of card ids"))
    need = min(TEAM_FIELD_LIMIT, len(field))
    if len(set(keep_field)) != len(keep_field) or not set(keep_field) <= set(field):
        raise IllegalAction(detail=N_("keep only field players offered to you, each once"))
    if len(keep_field) != need:
        raise IllegalAction(detail=f"keep exactly {need} field players")
    if keepers:
        if not isinstance(keep_keeper, str) or keep_keeper not in keepers:
            raise IllegalAction(detail=N_("keep one of your keepers"))
    elif keep_keeper is not None:
        raise IllegalAction(detail=N_("you have no keeper"))
    returned = [c for c in field if c not in keep_field] + [k for k in keepers if k != keep_keeper]
    _settle_selection(ctx, seat, returned, to_out=prompt.context.get("reason") == "settlement")
    ctx.emit("selection_kept", seat=seat, returned=len(returned))
    ctx.private(seat, "cards_returned", seat=seat, cards=returned)


def receive_match_card(ctx: Ctx, seat: int, card: str) -> None:
    """Add a match card to a BC's holding; a sixth waits while he chooses the one to discard."""
    st = ctx.state
    holding = st.pile(holding_key(seat))
    if len(holding) < HOLDING_LIMIT:
        holding.append(card)
        return
    st.pile(selection_key(seat)).append(card)
    pool = [*holding, card]
    ask(
        ctx,
        seat,
        "discard_match",
        [{"card": c} for c in pool],
        {"card": policy.weakest_match_card(ctx, pool)},
        options={"cards": pool},
    )


def on_discard_match(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    """The discarded match card goes to box 6; the holding keeps five."""
    seat = prompt.seat
    assert seat is not None
    st = ctx.state
    card = choice["card"]
    holding = st.pile(holding_key(seat))
    selection = st.pile(selection_key(seat))
    (selection if card in selection else holding).remove(card)
    holding.extend(selection)
    selection.clear()
    st.pile("box6").append(card)
    ctx.emit("match_card_discarded", seat=seat, card=card)
