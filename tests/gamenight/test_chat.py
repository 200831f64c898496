"""Room chat: stored with the game, escaped, rate-limited, length-limited, host-muted; the players' table
chat for the seats and the host only, the stands for everyone to read and the spectators to write."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client
from nightkit import login, new_room, start

from tournament.models import ChatMessage, ChatMute, Game
from tournament.rules.errors import RulesError
from tournament.services import chat
from tournament.services.rooms import room_join

pytestmark = pytest.mark.django_db


def a_room():
    """Anna (host, seat 1), a bot (seat 2) and Ben (seat 3), each in his own browser."""
    room = new_room(bots=1)
    _seat, token = room_join(code=room.code, nickname="Ben")
    ben = Client()
    login(ben, room.code, token=token)
    return room, ben


def say(client: Client, code: str, channel: str, text: str, **extra) -> str:
    return client.post(
        f"/r/{code}/chat", {"channel": channel, "text": text, **extra}, HTTP_HX_REQUEST="true"
    ).content.decode()


def toast(html: str) -> str:
    match = re.search(r'class="toast toast--\w+"[^>]*>.*?<span>(.*?)</span>', html, re.S)
    return html_lib.unescape(match.group(1)) if match else ""


def test_a_line_is_stored_and_shown_to_the_table_after_a_reload():
    room, ben = a_room()
    frame = say(ben, room.code, "players", "Good luck, everyone!")
    assert 'data-frame="chat"' in frame and "Good luck, everyone!" in frame and toast(frame) == ""
    line = ChatMessage.objects.get(game__code=room.code)
    assert (line.channel, line.author_name, line.author_key, line.text) == (
        "players",
        "Ben",
        "seat:3",
        "Good luck, everyone!",
    )
    page = room.host.get(f"/r/{room.code}/").content.decode()  # Anna's lobby, freshly loaded
    assert 'id="chat-players-list"' in page and "Good luck, everyone!" in page
    assert f'id="chat-{line.pk}"' in page


def test_chat_is_no_game_action():
    room, ben = a_room()
    version = Game.objects.get(code=room.code).version
    say(ben, room.code, "players", "hello")
    game = Game.objects.get(code=room.code)
    assert game.version == version and not game.actions.filter(action__type="chat").exists()


def test_what_people_type_is_escaped_everywhere():
    room, ben = a_room()
    nasty = '<script>alert("x")</script><b onmouseover=1>hi</b>'
    frame = say(ben, room.code, "players", nasty)
    page = room.host.get(f"/r/{room.code}/").content.decode()
    for html in (frame, page):
        assert "<script>alert" not in html and "<b onmouseover" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html


def test_length_and_blank_lines_are_refused():
    room, ben = a_room()
    assert "at most 300 characters" in toast(say(ben, room.code, "players", "x" * 301))
    assert "empty" in toast(say(ben, room.code, "players", "   \n\t "))
    assert ChatMessage.objects.count() == 0
    say(ben, room.code, "players", "a\u0000b\nc   d")  # control characters and runs of space folded
    assert ChatMessage.objects.get().text == "a b c d"


def test_a_flood_is_slowed_down():
    room, ben = a_room()
    for n in range(chat.RATE_MAX):
        assert toast(say(ben, room.code, "players", f"line {n}")) == ""
    assert toast(say(ben, room.code, "players", "one too many")) == (
        "Slow down: wait a few seconds before your next chat message."
    )
    assert ChatMessage.objects.count() == chat.RATE_MAX
    # another author is not slowed down by Ben's flood
    assert toast(say(room.host, room.code, "players", "calm down")) == ""


def test_the_host_mutes_and_the_muted_player_is_told_clearly():
    room, ben = a_room()
    response = room.host.post(
        f"/r/{room.code}/chat/mute", {"key": "seat:3", "muted": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "Let Ben speak" in response.content.decode()
    assert ChatMute.objects.filter(game__code=room.code, key="seat:3").exists()
    assert toast(say(ben, room.code, "players", "but why")) == "The host has muted you in this room's chat."
    notice = ChatMessage.objects.get(kind="muted")
    assert notice.channel == "players" and notice.text == "Ben"
    page = ben.get(f"/r/{room.code}/").content.decode()
    panel = page.split('id="chat"')[1]
    assert re.search(r"<p [^>]*data-chat-muted>", panel)  # the notice shows, the chat box is hidden
    assert re.search(r"<form [^>]*data-chat-form hidden>", panel)
    assert "The host has muted Ben in the chat." in page
    room.host.post(f"/r/{room.code}/chat/mute", {"key": "seat:3", "muted": "no"}, HTTP_HX_REQUEST="true")
    assert toast(say(ben, room.code, "players", "thanks")) == ""
    panel = ben.get(f"/r/{room.code}/").content.decode().split('id="chat"')[1]
    assert re.search(r"<p [^>]*data-chat-muted hidden>", panel) and re.search(
        r"<form [^>]*data-chat-form>", panel
    )


def test_only_the_host_mutes_and_nobody_mutes_an_unknown_voice():
    room, ben = a_room()
    response = ben.post(
        f"/r/{room.code}/chat/mute", {"key": "seat:1", "muted": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403 and not ChatMute.objects.exists()
    bad = room.host.post(
        f"/r/{room.code}/chat/mute", {"key": "seat:7", "muted": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert "no participant" in toast(bad.content.decode())
    itself = room.host.post(
        f"/r/{room.code}/chat/mute", {"key": "seat:1", "muted": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert "cannot mute yourself" in toast(itself.content.decode())
    bots = room.host.post(
        f"/r/{room.code}/chat/mute", {"key": "seat:2", "muted": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert toast(bots.content.decode())  # a bot never chats: not a voice to mute


def test_spectators_name_themselves_write_in_the_stands_and_never_read_the_table():
    room, ben = a_room()
    start(room.code)
    say(ben, room.code, "players", "secret plan: buy Brazil")
    fan = Client()
    assert "choose a name" in toast(say(fan, room.code, "spectators", "go go go"))
    assert "already taken" in toast(say(fan, room.code, "spectators", "hi", name="ben"))  # a player's name
    frame = say(fan, room.code, "spectators", "go go go", name="Fan 1")
    assert "Fan 1" in frame and "go go go" in frame
    again = say(fan, room.code, "spectators", "still here")  # the name is kept in the session
    assert toast(again) == "" and ChatMessage.objects.filter(author_name="Fan 1").count() == 2
    assert "cannot write" in toast(say(fan, room.code, "players", "let me in"))
    watch = fan.get(f"/r/{room.code}/watch").content.decode()
    assert "go go go" in watch and "secret plan" not in watch and 'id="chat-players-list"' not in watch
    assert fan.get(f"/r/{room.code}/chat/players").status_code == 403
    # the players read the stands but do not write there; the host writes in both
    game = ben.get(f"/r/{room.code}/").content.decode()
    assert "go go go" in game and "you read along" in game
    assert "cannot write" in toast(say(ben, room.code, "spectators", "hello stands"))
    assert toast(say(room.host, room.code, "spectators", "welcome, fans")) == ""


def test_the_host_mutes_a_spectator_by_browser_not_by_name():
    room, _ben = a_room()
    fan = Client()
    say(fan, room.code, "spectators", "boo", name="Loud")
    key = ChatMessage.objects.get(author_name="Loud").author_key
    assert key.startswith("spectator:")
    room.host.post(f"/r/{room.code}/chat/mute", {"key": key, "muted": "yes"}, HTTP_HX_REQUEST="true")
    assert "muted you" in toast(
        say(fan, room.code, "spectators", "boo again", name="Quiet")
    )  # a new name: still muted
    host_page = room.host.get(f"/r/{room.code}/host").content.decode()
    assert "Let Loud speak" in host_page


def test_a_page_re_reads_a_channel_after_a_reconnect():
    room, ben = a_room()
    for text in ("one", "two"):
        say(ben, room.code, "players", text)
    html = room.host.get(f"/r/{room.code}/chat/players").content.decode()
    assert html.index(">one<") < html.index(">two<")
    assert Client().get(f"/r/{room.code}/chat/nonsense").status_code == 403


def test_the_service_refuses_an_unknown_channel_and_a_stranger():
    room, _ben = a_room()
    game = Game.objects.get(code=room.code)
    with pytest.raises(RulesError) as info:
        chat.chat_post(game=game, channel="everyone", author=chat.ChatAuthor("seat:1", "Anna", 1), text="hi")
    assert info.value.code == "malformed"
    with pytest.raises(RulesError) as info:
        chat.chat_post(game=game, channel="players", author=chat.ChatAuthor("spectator:x", "X"), text="hi")
    assert info.value.code == "forbidden"


def test_the_host_is_never_offered_to_mute_himself():
    room, _ben = a_room()
    console = room.host.get(f"/r/{room.code}/host").content.decode()
    voices = console.split('id="chat-voices"')[1].split("</section>")[0]
    assert "Mute Ben" in voices and "Mute Anna" not in voices and 'value="seat:1"' not in voices
    with pytest.raises(RulesError) as info:  # not through the service either (a protocol client, a script)
        chat.chat_mute(game=Game.objects.get(code=room.code), key="seat:1", muted=True)
    assert info.value.code == "forbidden" and not ChatMute.objects.exists()
