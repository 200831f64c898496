"""Every decision form of the game page, posted through the view, does what the player asked."""

from __future__ import annotations

import pytest
from roomkit import act, state_of, toast_text

from tournament.models import Event
from tournament.rules.state import account_key, holding_key, selection_key, team_key

pytestmark = pytest.mark.django_db


def ok(response) -> str:
    """An accepted action: 200, a frame with the #sync element, no error toast."""
    html = response.content.decode()
    assert response.status_code == 200, html[:300]
    assert toast_text(html) == "", toast_text(html)
    assert '<div id="sync" hidden hx-swap-oob="true"' in html
    return html


def test_roll(room_at):
    room, _prompt = room_at("roll")
    before = state_of(room.code).pawn
    html = ok(act(room.host, room.code, action="roll"))
    st = state_of(room.code)
    rolled = Event.objects.filter(game__code=room.code, kind="rolled").order_by("-seq").first()
    assert rolled is not None and rolled.payload["seat"] == 1
    assert st.pawn == (before + rolled.payload["die"]) % 40
    assert f'data-pawn="{st.pawn}"' in html and f'data-die="{rolled.payload["die"]}"' in html
    assert "Anna</b> rolled" in html  # the log line of the roll comes with the answer


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_buy_or_decline_the_open_card(room_at, answer):
    room, prompt = room_at("buy")
    card, price = prompt.options["card"], prompt.options["price"]
    money = state_of(room.code).accounts[account_key(1)]
    ok(act(room.host, room.code, action="buy", prompt=str(prompt.id), buy=answer))
    st = state_of(room.code)
    mine = st.piles.get(team_key(1), []) + st.piles.get(selection_key(1), [])
    if answer == "yes":
        assert card in mine and st.accounts[account_key(1)] == money - price
    else:
        assert card not in mine and st.accounts[account_key(1)] == money
    assert st.prompt(prompt.id) is None


def test_sign_a_contract(room_at):
    room, prompt = room_at("contract")
    ok(act(room.host, room.code, action="contract", prompt=str(prompt.id), contract="yes"))
    st = state_of(room.code)
    assert st.seats[1].role == "bc" and st.country_of(1) == prompt.options["country"]


def test_decline_a_contract_takes_a_money_card(room_at):
    room, prompt = room_at("contract")
    ok(act(room.host, room.code, action="contract", prompt=str(prompt.id), contract="no"))
    assert state_of(room.code).seats[1].role == "trainer"
    assert Event.objects.filter(game__code=room.code, kind="money_card", payload__seat=1).exists()


def test_luck_goes_to_the_chosen_square(room_at):
    room, prompt = room_at("luck")
    target = next(c["square"] for c in prompt.choices if c["square"] != prompt.default["square"])
    ok(act(room.host, room.code, action="luck", prompt=str(prompt.id), square=str(target)))
    landed = Event.objects.filter(game__code=room.code, kind="landed").order_by("-seq").first()
    assert landed.payload["square"] == target


def test_return_a_card(room_at):
    room, prompt = room_at("return_card")
    card = prompt.options["cards"][0]
    ok(act(room.host, room.code, action="return_card", prompt=str(prompt.id), card=card))
    st = state_of(room.code)
    assert card not in st.piles.get(team_key(1), []) and not st.piles.get(selection_key(1))


def test_discard_a_match_card(room_at):
    room, prompt = room_at("discard_match")
    card = prompt.options["cards"][-1]
    ok(act(room.host, room.code, action="discard_match", prompt=str(prompt.id), card=card))
    st = state_of(room.code)
    assert card in st.piles["box6"] and len(st.piles[holding_key(1)]) == 5


def test_marker_square_take_a_money_card(room_at):
    room, prompt = room_at("marker")
    ok(act(room.host, room.code, action="marker", prompt=str(prompt.id), take="money"))
    assert Event.objects.filter(game__code=room.code, kind="money_card", payload__seat=1).exists()


def test_keep_a_selection(room_at):
    room, prompt = room_at("keep_selection")
    field = list(prompt.options["field"])
    keep = field[-prompt.options["keep_field"] :]  # not the default: the weakest ones are kept too
    keeper = prompt.options["keepers"][0]
    response = room.host.post(
        f"/r/{room.code}/act",
        {
            "action": "keep_selection",
            "prompt": str(prompt.id),
            "field": keep,
            "keeper": keeper,
            "version": str(state_version(room.code)),
            "action_id": "keep-1",
        },
        HTTP_HX_REQUEST="true",
    )
    ok(response)
    team = set(state_of(room.code).piles[team_key(1)])
    assert set(keep) <= team and keeper in team


def state_version(code: str) -> int:
    from tournament.models import Game

    return Game.objects.get(code=code).version


def test_keep_a_selection_of_the_wrong_size_is_refused(room_at):
    room, prompt = room_at("keep_selection")
    response = room.host.post(
        f"/r/{room.code}/act",
        {
            "action": "keep_selection",
            "prompt": str(prompt.id),
            "field": prompt.options["field"][:3],
            "keeper": prompt.options["keepers"][0],
            "version": str(state_version(room.code)),
            "action_id": "k-2",
        },
        HTTP_HX_REQUEST="true",
    )
    message = toast_text(response.content.decode())
    assert message.startswith("That choice is not allowed here: keep exactly")
    assert state_of(room.code).prompt(prompt.id) is not None


def test_ac_keeps_unused_match_cards(room_at):
    room, prompt = room_at("ac_keep")
    keep = prompt.options["cards"][: prompt.options["room"]]
    response = room.host.post(
        f"/r/{room.code}/act",
        {
            "action": "ac_keep",
            "prompt": str(prompt.id),
            "keep": keep,
            "version": str(state_version(room.code)),
            "action_id": "ac-1",
        },
        HTTP_HX_REQUEST="true",
    )
    ok(response)
    assert set(keep) <= set(state_of(room.code).piles[holding_key(1)])


def test_set_a_line_up_in_my_own_order(room_at):
    room, prompt = room_at("lineup")
    decision = prompt.options["decision"]
    field = [f["id"] for f in decision["field"]]
    reserve = field[0] if decision["reserve_required"] else ""
    order = list(reversed(field))  # the reserve is posted among the rows; the view takes it out
    response = room.host.post(
        f"/r/{room.code}/act",
        {
            "action": "lineup",
            "prompt": str(prompt.id),
            "order": order,
            "reserve": reserve,
            "version": str(state_version(room.code)),
            "action_id": "lineup-1",
        },
        HTTP_HX_REQUEST="true",
    )
    ok(response)
    lineup = (
        Event.objects.filter(game__code=room.code, kind="m.lineup_set", audience=[1]).order_by("-seq").first()
    )
    assert lineup is not None
    assert lineup.payload["order"] == [c for c in order if c != reserve]
    assert lineup.payload["reserve"] == (reserve or None)


def test_window_pass(room_at):
    room, prompt = room_at("window")
    ok(act(room.host, room.code, action="window", prompt=str(prompt.id), choice="pass"))
    assert state_of(room.code).prompt(prompt.id) is None


def test_window_swap(room_at):
    room, prompt = room_at("window", choice=lambda c: c.get("kind") == "swap")
    ok(act(room.host, room.code, action="window", prompt=str(prompt.id), choice="swap"))
    swap = Event.objects.filter(game__code=room.code, kind="m.swap").order_by("-seq").first()
    assert swap is not None and swap.payload["free"] is False


def test_window_play_a_match_card(room_at):
    room, prompt = room_at("window", choice=lambda c: c.get("kind") == "play")
    card = next(c["card"] for c in prompt.choices if c.get("kind") == "play")
    html = ok(act(room.host, room.code, action="window", prompt=str(prompt.id), choice=f"play:{card}"))
    played = Event.objects.filter(game__code=room.code, kind="m.match_card_played").order_by("-seq").first()
    assert played.payload["card"] == card
    assert card not in state_of(room.code).piles.get(holding_key(1), [])
    assert "plays “" in html  # everyone reads the card that was played
