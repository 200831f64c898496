"""Invariants in production too (issue 8): the conservation and placement checks run after every action;
a breach aborts the transaction and alerts the host console instead of corrupting the game.

A breach needs a bug in the rules, so the test plants one: the real ``apply_action`` wrapped so that its
result is corrupted (money from nowhere, a card in two places, a card lost). PostgreSQL is real.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from cards.catalog import get_catalog
from tournament.models import ActionRecord, Event, Game, LedgerEntry
from tournament.rules import invariants
from tournament.rules.engine import apply_action
from tournament.rules.errors import InvariantBroken
from tournament.rules.events import Actor
from tournament.rules.state import BANK, GameState
from tournament.services import actions
from tournament.services.actions import game_act
from tournament.services.store import cache, load_snapshot


def _money_from_nowhere(st: GameState) -> None:
    st.accounts[BANK] += 1


def _card_in_two_places(st: GameState) -> None:
    st.piles["box1"].append(st.piles["box3"][-1])


def _card_lost(st: GameState) -> None:
    st.piles["box2"].pop()


def _two_keepers(st: GameState) -> None:
    seat = st.turn_order[0]
    st.piles.setdefault(f"team:{seat}", []).extend([st.piles["box3"].pop(), st.piles["box3"].pop()])
    st.accounts[BANK] += 0


CORRUPTIONS: dict[str, tuple[Callable[[GameState], None], str]] = {
    "money": (_money_from_nowhere, "money not conserved"),
    "duplicate card": (_card_in_two_places, "places"),
    "lost card": (_card_lost, "is nowhere"),
    "team limits": (_two_keepers, "keepers"),
}


def _rows(code: str) -> dict[str, Any]:
    game = Game.objects.get(code=code)
    return {
        "version": game.version,
        "last_seq": game.last_seq,
        "flow": game.flow,
        "events": Event.objects.filter(game=game).count(),
        "ledger": LedgerEntry.objects.filter(game=game).count(),
        "actions": ActionRecord.objects.filter(game=game).count(),
        "balances": dict(game.accounts.values_list("key", "balance")),
        "cards": sorted(game.cards.values_list("card_id", "location", "owner_id", "position")),
    }


def _plant(monkeypatch: pytest.MonkeyPatch, corrupt: Callable[[GameState], None]) -> None:
    def buggy_apply(state: GameState, actor: Actor, action: Any, cat: Any = None, history: Any = None) -> Any:
        new, events = apply_action(state, actor, action, cat, history)
        corrupt(new)
        return new, events

    monkeypatch.setattr(actions, "apply_action", buggy_apply)


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_a_breach_aborts_the_transaction_and_alerts_the_host(
    name: str, pg_catalog_default: str, game_room: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    corrupt, words = CORRUPTIONS[name]
    room = game_room(humans=2, bots=1)
    before = _rows(room.code)
    game = Game.objects.get(code=room.code)
    prompt = load_snapshot(game).state.prompts[0]
    action = {"type": "answer", "prompt": prompt.id, "choice": prompt.default}
    _plant(monkeypatch, corrupt)
    with pytest.raises(InvariantBroken) as exc:
        game_act(
            code=room.code,
            actor=Actor("seat", prompt.seat),
            action=action,
            expected_version=before["version"],
            action_id="breach",
        )
    assert exc.value.code == "invariant_broken" and words in str(exc.value)
    after = _rows(room.code)
    assert after == before, "a refused action wrote something"
    game = Game.objects.get(code=room.code)
    assert words in game.invariant_alert  # what the host console shows
    # the bug is fixed (the planted one removed): the very same action now goes through, once
    monkeypatch.undo()
    cache.clear()
    result = game_act(
        code=room.code,
        actor=Actor("seat", prompt.seat),
        action=action,
        expected_version=before["version"],
        action_id="breach",
    )
    assert not result.duplicate and result.version == before["version"] + 1
    assert invariants.check(load_snapshot(Game.objects.get(code=room.code)).state, get_catalog()) == []


# ---------------------------------------------------------------------------------- the host console
async def _connect(code: str, query: str = "") -> WebsocketCommunicator:
    from magicfootball.asgi import application

    comm = WebsocketCommunicator(
        application, f"/ws/r/{code}/{query}", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _frames(comm: WebsocketCommunicator, quiet: float = 0.5) -> list[dict[str, Any]]:
    """Every frame until the socket stays quiet for ``quiet`` seconds (``receive_from`` timing out would
    cancel the consumer, so ``receive_nothing`` decides when to stop)."""
    out = []
    while not await comm.receive_nothing(timeout=quiet):
        out.append(json.loads(await comm.receive_from(timeout=5)))
    return out


@pytest.mark.django_db(transaction=True)
async def test_the_alert_reaches_host_sockets_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournament.services.rooms import room_create, room_join

    def setup() -> tuple[Any, str]:
        room = room_create(nickname="Hosta", seed=3, house_rules={"seats": 4})
        _seat, token = room_join(code=room.code, nickname="Ben")
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=None,
            action_id="start",
        )
        return room, token

    room, token = await database_sync_to_async(setup)()
    host = await _connect(room.code)
    await host.send_to(
        text_data=json.dumps({"type": "hello", "host_key": room.host_key, "token": room.token})
    )
    player = await _connect(room.code)
    await player.send_to(text_data=json.dumps({"type": "hello", "token": token}))
    watcher = await _connect(room.code)
    for comm in (host, player, watcher):
        await _frames(comm)
    game = await database_sync_to_async(Game.objects.get)(code=room.code)
    state = (await database_sync_to_async(load_snapshot)(game)).state
    prompt = state.prompts[0]
    seat_comm = host if prompt.seat == 1 else player
    _plant(monkeypatch, _money_from_nowhere)
    await seat_comm.send_to(
        text_data=json.dumps(
            {
                "type": "act",
                "action": {"type": "answer", "prompt": prompt.id, "choice": prompt.default},
                "version": game.version,
                "action_id": "breach",
            }
        )
    )
    got = {
        name: await _frames(comm) for name, comm in (("host", host), ("player", player), ("watcher", watcher))
    }
    alerts = {name: [f for f in frames if f["type"] == "alert"] for name, frames in got.items()}
    assert len(alerts["host"]) == 1 and "money not conserved" in alerts["host"][0]["message"]
    assert alerts["player"] == [] and alerts["watcher"] == []
    errors = [f for f in got["host" if seat_comm is host else "player"] if f["type"] == "error"]
    assert [e["code"] for e in errors] == ["invariant_broken"]
    assert not any(f["type"] == "update" for frames in got.values() for f in frames), "no new version exists"
    game = await database_sync_to_async(Game.objects.get)(code=room.code)
    assert "money not conserved" in game.invariant_alert
    for comm in (host, player, watcher):
        await comm.disconnect()


def test_closing_a_room_before_the_start_is_no_breach(pg_catalog_default: str, game_room: Any) -> None:
    """Found by the fuzzer: the host ending a game still in the lobby was refused as a broken invariant
    (no money laid out yet is not money lost) and raised a false alarm on the host console."""
    room = game_room(humans=2, start=False)
    result = game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "end_game"},
        expected_version=None,
        action_id="close",
    )
    game = Game.objects.get(code=room.code)
    assert result.version == game.version and game.status == "abandoned"
    assert game.invariant_alert == ""
