"""``apply_action``: the one entry point of the rules — check, apply, run forward, return the events.

Actions are JSON objects with a ``type``. Every decision of the game is a prompt (rolling the die
included), so humans, bots, the decision timer (R19) and the host's "decide by default" all answer
prompts the same way.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from cards.catalog import Catalog
from tournament.rules import board, competition, finals, matches, setup, teams
from tournament.rules.errors import N_, Forbidden, IllegalAction, MalformedAction, RulesError
from tournament.rules.events import Actor, Ctx, Ev
from tournament.rules.money import charge, draw_money_card, transfer
from tournament.rules.prompts import OPEN_ENDED, ask, close
from tournament.rules.rewind import History, apply_rewind
from tournament.rules.state import (
    BANK,
    BONUS,
    PRICE_PER_STAR,
    GameState,
    Prompt,
    account_key,
)

MAX_AUTO_STEPS = 10_000  # house-bot decisions in one action (a whole bot-vs-bot match fits easily)


def _catalog() -> Catalog:
    from cards.catalog import get_catalog

    return get_catalog()


def apply_action(
    state: GameState, actor: Actor, action: Any, cat: Catalog | None = None, history: History | None = None
) -> tuple[GameState, list[Ev]]:
    """Apply one action of ``actor`` to a copy of ``state``.

    ``history`` is the game's past, needed only by the host's ``rewind`` (``tournament/rules/rewind.py``).

    :returns: the new state and the events, in order.
    :raises RulesError: (or a subclass) when the action is malformed, not allowed for this actor, or
        illegal now; ``state`` is never modified.
    """
    if not isinstance(action, dict):
        raise MalformedAction(detail=N_("an action must be a JSON object"))
    kind = action.get("type")
    if not isinstance(kind, str):
        raise MalformedAction(detail=N_("the action has no type"))
    if kind == "rewind":  # rebuilt from the history, not from the current state
        return apply_rewind(state, actor, action, cat or _catalog(), history)
    handler = ACTIONS.get(kind)
    if handler is None:
        raise RulesError("unknown_action", action=kind[:40])
    if actor.kind == "seat":
        me = state.seats.get(actor.seat)  # type: ignore[arg-type]
        if me is None:
            raise RulesError("unknown_participant", who=actor.seat)
        if me.out and state.status not in ("finished", "abandoned"):
            raise RulesError("out_of_game")  # "ligt hij eruit": he may watch, not act
    new = state.clone()
    ctx = Ctx(new, cat or _catalog(), actor)
    handler(ctx, action)
    advance(ctx)
    ctx.sync_rng()
    return new, ctx.events


# ------------------------------------------------------------------------------------------ flow


def advance(ctx: Ctx) -> None:
    """Run the game forward until a human decision (or a bot seat's decision) is needed.

    House-bot prompts are answered at once; a turn ends when its square has finished acting; phases
    change at the end of a turn (phase 1 → 2 → 3) or when the finals need their next match.
    """
    st = ctx.state
    if competition.is_competition(st):
        for _ in range(MAX_AUTO_STEPS):
            if not competition.step(ctx):
                return
        raise AssertionError("the competition did not settle after many automatic steps")
    for _ in range(MAX_AUTO_STEPS):
        if st.status not in ("running",):
            return
        house = next((p for p in st.prompts if p.seat is None), None)
        if house is not None:
            _answer(ctx, house, matches.house_bot_choice(ctx, house), by="bot")
            continue
        if st.prompts or st.running_match is not None:
            return
        if st.phase in ("phase1", "phase2"):
            if st.stage == "resolving":
                _end_turn(ctx)
                continue
            if st.stage == "await_roll":
                _open_roll(ctx)
            return
        if st.phase == "phase3":
            if finals.step(ctx):
                continue
            return
        return
    raise AssertionError("the game did not settle after many automatic steps")


def _open_roll(ctx: Ctx) -> None:
    seat = ctx.state.active_seat
    assert seat is not None
    ask(ctx, seat, "roll", [{"roll": True}], {"roll": True})


def _end_turn(ctx: Ctx) -> None:
    """Close the turn, change phase when its end condition holds, hand the die to the next participant."""
    st = ctx.state
    st.turns[st.phase] = st.turns.get(st.phase, 0) + 1
    if st.phase == "phase1" and all(st.seats[s].is_bc for s in st.active_seats()):
        ctx.emit("phase_over", phase="phase1")
        finals.begin_phase2(ctx)
    if st.phase == "phase2" and st.markers_placed() >= len(st.markers):
        ctx.emit("phase_over", phase="phase2")
        finals.begin_phase3(ctx)
        return
    _next_turn(ctx)


def _next_turn(ctx: Ctx) -> None:
    st = ctx.state
    n = len(st.turn_order)
    for step in range(1, n + 1):
        seat = st.turn_order[(st.turn + step) % n]
        if not st.seats[seat].out:
            st.turn = (st.turn + step) % n
            break
    st.stage = "await_roll"
    ctx.emit("turn", seat=st.active_seat, phase=st.phase)


# ------------------------------------------------------------------------------------- actions


def _require_running(ctx: Ctx) -> None:
    st = ctx.state
    if st.status == "paused":
        raise RulesError("game_paused")
    if st.status in ("finished", "abandoned"):
        raise RulesError("game_over")
    if st.status != "running":
        raise RulesError("wrong_phase", phase=st.phase)


def _act_roll(ctx: Ctx, action: dict[str, Any]) -> None:
    """Shortcut for answering the active participant's roll prompt."""
    _require_running(ctx)
    prompt = next((p for p in ctx.state.prompts if p.kind == "roll"), None)
    if prompt is None:
        raise RulesError("wrong_phase", phase=ctx.state.phase)
    if ctx.actor.kind != "seat" or ctx.actor.seat != prompt.seat:
        active = ctx.state.seats[prompt.seat].nickname if prompt.seat else "?"
        raise RulesError("not_your_turn", active=active)
    _answer(ctx, prompt, {"roll": True}, by="seat")


def _act_answer(ctx: Ctx, action: dict[str, Any]) -> None:
    """A participant answers one of his prompts."""
    _require_running(ctx)
    prompt_id = action.get("prompt")
    if not isinstance(prompt_id, int) or isinstance(prompt_id, bool):
        raise MalformedAction(detail=N_("prompt must be a number"))
    pick = action.get("pick")
    if "pick" in action:  # one of the listed choices by its number (a board's buttons)
        if "choice" in action or not isinstance(pick, int) or isinstance(pick, bool):
            raise MalformedAction(detail=N_("pick must be a number, instead of a choice"))
    elif not isinstance(action.get("choice"), dict):
        raise MalformedAction(detail=N_("choice must be an object"))
    prompt = ctx.state.prompt(prompt_id)
    if prompt is None:
        raise RulesError("unknown_prompt", prompt=prompt_id)
    if ctx.actor.kind != "seat" or ctx.actor.seat != prompt.seat:
        owner = ctx.state.seats[prompt.seat].nickname if prompt.seat in ctx.state.seats else "the Official"
        if prompt.kind == "roll":
            raise RulesError("not_your_turn", active=owner)
        raise RulesError("not_your_prompt", owner=owner)
    if "pick" in action:
        if not 0 <= pick < len(prompt.choices):
            raise IllegalAction(detail=N_("there is no such choice"))
        choice = copy.deepcopy(prompt.choices[pick])
    else:
        choice = action["choice"]
    _answer(ctx, prompt, choice, by="seat")


def _act_force_default(ctx: Ctx, action: dict[str, Any]) -> None:
    """The decision timer (system) or the host applies a prompt's default decision (R19)."""
    _require_running(ctx)
    if ctx.actor.kind not in ("host", "system"):
        raise Forbidden(detail=N_("only the host or the decision timer can decide for someone"))
    prompt_id = action.get("prompt")
    if not isinstance(prompt_id, int) or isinstance(prompt_id, bool):
        raise MalformedAction(detail=N_("prompt must be a number"))
    prompt = ctx.state.prompt(prompt_id)
    if prompt is None:
        raise RulesError("unknown_prompt", prompt=prompt_id)
    ctx.emit("decided_by_default", seat=prompt.seat, prompt=prompt.id, by=ctx.actor.kind)
    _answer(ctx, prompt, _safe_default(ctx, prompt), by=ctx.actor.kind)


def _safe_default(ctx: Ctx, prompt: Prompt) -> dict[str, Any]:
    """The prompt's default, or its free alternative when the default spends money the owner no
    longer has (the host moved money while the choice was open): a default must always be legal."""
    c = prompt.context
    have = ctx.state.accounts.get(account_key(prompt.seat), 0) if prompt.seat is not None else 0
    if prompt.kind == "buy" and prompt.default.get("buy") and have < c["price"]:
        return {"buy": False}
    if prompt.kind == "contract" and prompt.default.get("contract") and have < c["cost"]:
        return {"contract": False}
    if prompt.kind == "marker" and prompt.default.get("take") in ("field", "keeper"):
        card = board.open_card(ctx, prompt.default["take"])
        if card is None or have < ctx.cat.player(card).stars * PRICE_PER_STAR:
            return {"take": "money"}
    return prompt.default


def _answer(ctx: Ctx, prompt: Prompt, choice: dict[str, Any], by: str) -> None:
    """Validate a choice against the prompt and carry it out."""
    if matches.is_match_prompt(prompt):
        matches.answer(ctx, prompt, choice)
        return
    if prompt.kind not in OPEN_ENDED and not any(same_json(choice, c) for c in prompt.choices):
        raise IllegalAction(detail=f"{_short(choice)} is not one of the choices")
    close(ctx, prompt)
    ANSWERS[prompt.kind](ctx, prompt, choice)


def same_json(a: Any, b: Any) -> bool:
    """Equality that also compares JSON types (``True`` is not ``1``, ``5.0`` is not ``5``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ------------------------------------------------------------------------------------- answers


def _on_roll(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    st = ctx.state
    seat = prompt.seat
    assert seat is not None
    st.stage = "resolving"
    die = ctx.rng.d6()
    ctx.emit("rolled", seat=seat, die=die)
    board.move_pawn(ctx, seat, die, die)


def _on_buy(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    seat = prompt.seat
    assert seat is not None
    c = prompt.context
    if choice["buy"]:
        if ctx.state.accounts[account_key(seat)] < c["price"]:
            raise RulesError(
                "insufficient_funds", amount=c["price"], balance=ctx.state.accounts[account_key(seat)]
            )
        board.buy_open_card(ctx, seat, c["kind"], c["card"], c["price"])
    else:
        ctx.emit("declined", seat=seat, card=c["card"])
    if c.get("turn_up", True):
        board.turn_up_next(ctx, c["kind"])


def _on_luck(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    seat = prompt.seat
    assert seat is not None
    board.jump_to(ctx, seat, choice["square"])


def _on_contract(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    seat = prompt.seat
    assert seat is not None
    c = prompt.context
    if not choice["contract"]:
        ctx.emit("declined", seat=seat, country=c["country"])
        draw_money_card(ctx, seat)
        return
    if ctx.state.accounts[account_key(seat)] < c["cost"]:
        raise RulesError(
            "insufficient_funds", amount=c["cost"], balance=ctx.state.accounts[account_key(seat)]
        )
    become_national_coach(ctx, seat, c["square"], c["country"], c["cost"])


def become_national_coach(ctx: Ctx, seat: int, square: int, country: str, cost: int) -> None:
    """Pay the entry fee; the Official deals the class's players (R9); the contract is turned up."""
    st = ctx.state
    cat = ctx.cat
    row = cat.classes[cat.countries[country].klass]
    transfer(ctx, account_key(seat), BANK, cost, "entry_fee", country=country)
    st.squares[square].status = "contracted"
    st.squares[square].coach = seat
    st.seats[seat].role = "bc"
    dealt: list[str] = []
    for _ in range(row.field_dealt):
        card = _deal_field(ctx)
        if card is None:
            break
        dealt.append(card)
    for _ in range(row.keepers_dealt):
        keeper = board.blind_card(ctx, "keeper")  # box 3, refilled from box 7 (R9b)
        if keeper is not None:
            dealt.append(keeper)
    ctx.emit("became_coach", seat=seat, country=country, square=square, dealt=len(dealt))
    ctx.private(seat, "cards_dealt", seat=seat, cards=dealt)
    teams.receive_players(ctx, seat, dealt, "contract")


def _deal_field(ctx: Ctx) -> str | None:
    """The Official deals from his half of the field players, then from box 1 (ruling R9a), which is
    refilled from the open pile in box 5 when it runs empty (ruling R9b)."""
    pile = ctx.state.pile("official_fields")
    if pile:
        return pile.pop()
    return board.blind_card(ctx, "field")


def _on_marker(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    seat = prompt.seat
    assert seat is not None
    take = choice["take"]
    if take in ("field", "keeper"):
        card = board.open_card(ctx, take)
        assert card is not None
        price = ctx.cat.player(card).stars * PRICE_PER_STAR
        have = ctx.state.accounts[account_key(seat)]
        if have < price:  # the host moved money while the choice was open
            raise RulesError("insufficient_funds", amount=price, balance=have)
        board.buy_open_card(ctx, seat, take, card, price)
        board.turn_up_next(ctx, take)
    elif take == "match":
        board.take_match_card(ctx, seat)
    else:
        draw_money_card(ctx, seat)


ANSWERS: dict[str, Callable[[Ctx, Prompt, dict[str, Any]], None]] = {
    "roll": _on_roll,
    "buy": _on_buy,
    "return_card": teams.on_return_card,
    "luck": _on_luck,
    "contract": _on_contract,
    "keep_selection": teams.on_keep_selection,
    "discard_match": teams.on_discard_match,
    "marker": _on_marker,
    "ac_keep": matches.on_ac_keep,
}

# ----------------------------------------------------------------------------------------- host


def _require_host(ctx: Ctx, what: str) -> None:
    if ctx.actor.kind not in ("host", "system"):
        raise Forbidden(detail=f"only the host can {what}")


def _act_pause(ctx: Ctx, action: dict[str, Any]) -> None:
    _require_host(ctx, "pause the game")
    if ctx.state.status != "running":
        raise RulesError("wrong_phase", phase=ctx.state.status)
    ctx.state.status = "paused"
    ctx.emit("paused", by=ctx.actor.kind)


def _act_resume(ctx: Ctx, action: dict[str, Any]) -> None:
    _require_host(ctx, "resume the game")
    if ctx.state.status != "paused":
        raise RulesError("wrong_phase", phase=ctx.state.status)
    ctx.state.status = "running"
    ctx.emit("resumed", by=ctx.actor.kind)


def _act_end_game(ctx: Ctx, action: dict[str, Any]) -> None:
    _require_host(ctx, "end the game")
    if ctx.state.status in ("finished", "abandoned"):
        raise RulesError("game_over")
    ctx.state.status = "abandoned"
    ctx.state.prompts = []
    ctx.emit("game_ended_by_host")


def _act_transfer(ctx: Ctx, action: dict[str, Any]) -> None:
    """The host (as Bank) corrects money: a manual transfer with a mandatory reason (R1)."""
    _require_host(ctx, "move money")
    st = ctx.state
    if competition.is_competition(st):
        competition.refuse_money(ctx)
    if st.status not in ("running", "paused"):
        raise RulesError("wrong_phase", phase=st.status)
    src, dst, amount, memo = action.get("src"), action.get("dst"), action.get("amount"), action.get("memo")
    if not isinstance(src, str) or not isinstance(dst, str):
        raise MalformedAction(detail=N_("choose two different accounts"))
    if src not in st.accounts or dst not in st.accounts or src == dst:
        raise MalformedAction(detail=N_("choose two different accounts"))
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < amount <= 100_000_000:
        raise MalformedAction(detail=N_("the amount must be a whole number from 1 to 100,000,000"))
    if not isinstance(memo, str) or not memo.strip() or len(memo) > 200:
        raise MalformedAction(detail=N_("a reason of 1 to 200 characters is required"))
    if st.accounts[src] < amount:
        raise RulesError("insufficient_funds", amount=amount, balance=st.accounts[src])
    transfer(ctx, src, dst, amount, "host_transfer", memo=memo.strip())


def _act_seat_bot(ctx: Ctx, action: dict[str, Any]) -> None:
    """The host hands a human's seat to a bot, or back to the human (R1)."""
    _require_host(ctx, "hand a seat to a bot")
    seat = action.get("seat")
    on = action.get("bot", True)
    st = ctx.state
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in st.seats:
        raise RulesError("unknown_participant", who=seat)
    if st.seats[seat].bot is not None:
        raise IllegalAction(detail=N_("that seat is a bot already"))
    if not isinstance(on, bool):
        raise MalformedAction(detail=N_("bot must be true or false"))
    st.seats[seat].takeover = on
    ctx.emit("seat_to_bot" if on else "seat_to_human", seat=seat)


ACTIONS: dict[str, Callable[[Ctx, dict[str, Any]], None]] = {
    "join": setup.join,
    "add_bot": setup.add_bot,
    "remove_seat": setup.remove_seat,
    "house_rules": setup.set_house_rules,
    "start": setup.start,
    "roll": _act_roll,
    "answer": _act_answer,
    "force_default": _act_force_default,
    "pause": _act_pause,
    "resume": _act_resume,
    "end_game": _act_end_game,
    "transfer": _act_transfer,
    "seat_bot": _act_seat_bot,
}

__all__ = ["ACTIONS", "BONUS", "apply_action", "become_national_coach", "charge"]
