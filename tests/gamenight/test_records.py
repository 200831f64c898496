"""Game records: export once the game is over, import as a new room after replaying and verifying it; a
changed record (an action, an event, the digest) is refused with a clear message (ruling G6)."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from nightkit import new_room, play, start

from tournament.models import ActionRecord, ChatMessage, Event, Game, LedgerEntry
from tournament.rules.events import Actor
from tournament.rules.replay import dump
from tournament.services.actions import game_act
from tournament.services.records import RecordError, digest, record_export, record_import
from tournament.services.replays import game_replay
from tournament.services.rewind import rewind_choices
from tournament.services.store import load_snapshot

pytestmark = pytest.mark.django_db


def a_finished_game(seed: int = 41, rewind: bool = True) -> str:
    room = new_room(bots=3, seed=seed)
    start(room.code)
    play(room.code, until=lambda st: len(st.matches) >= 2 and st.running_match is None)
    if rewind:  # records carry a rewind (and its salt) like any other action
        game = Game.objects.get(code=room.code)
        choice = rewind_choices(game, host_seat=1)[1]
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "rewind", "to_version": choice.to_version},
            expected_version=None,
            action_id="rw",
        )
    play(room.code, limit=6000)
    game = Game.objects.get(code=room.code)
    assert game.status == "finished"
    return room.code


@pytest.fixture(scope="module")
def record_file(django_db_setup, django_db_blocker, tmp_path_factory):
    """One finished game's record, exported once for the whole module (a tournament takes a few seconds).

    It asks for ``django_db_setup``: a module fixture is made before a test's own fixtures, so without it a
    worker whose first database test is one of these played into a database not yet created ("no such
    table" with ``-n 2``)."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        code = a_finished_game()
        data = record_export(Game.objects.get(code=code))
        transaction.set_rollback(True)
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(json.dumps(data))
    return path


def test_the_record_of_a_running_game_is_refused_it_would_show_every_card():
    room = new_room(bots=1)
    start(room.code)
    assert Client().get(f"/r/{room.code}/record.json").status_code == 403
    with pytest.raises(Exception) as info:
        record_export(Game.objects.get(code=room.code))
    assert getattr(info.value, "code", "") == "forbidden"


def test_an_exported_record_imports_as_the_same_game(record_file):
    data = json.loads(record_file.read_text())
    assert data["format"] == "magic-football-record" and data["format_version"] == 1
    assert any(a["action"]["type"] == "rewind" for a in data["actions"])
    room = record_import(record=data)
    game = Game.objects.get(code=room.code)
    state = load_snapshot(game).state
    assert digest(state) == data["digest"] and state.status == "finished"
    assert game.version == len(data["actions"]) and game.last_seq == len(data["events"])
    assert ActionRecord.objects.filter(game=game).count() == len(data["actions"])
    assert Event.objects.filter(game=game).count() == len(data["events"])
    assert LedgerEntry.objects.filter(game=game).count() == sum(
        1 for e in data["events"] if e["kind"] == "transfer"
    )
    assert game_replay(code=room.code).equal  # `manage.py replay` passes for an imported game too
    again = record_export(game)
    assert (
        again["actions"] == data["actions"]
        and again["events"] == data["events"]
        and again["digest"] == data["digest"]
    )
    assert dump(state)["winner"] == data["winner"]


def test_who_imports_a_record_watches_it_and_sits_nowhere(record_file):
    client = Client()
    with record_file.open("rb") as handle:
        response = client.post("/rooms/import", {"record": handle})
    assert response.status_code == 302 and response["Location"].endswith("/replay")
    code = response["Location"].split("/")[2]
    replay = client.get(response["Location"]).content.decode()
    assert "every card is shown" in replay and "badge--you" not in replay
    # not the original host's seat, not the host: the room's pages are a spectator's
    assert client.get(f"/r/{code}/")["Location"] == f"/r/{code}/watch"
    watch = client.get(f"/r/{code}/watch").content.decode()
    assert "badge--you" not in watch and 'data-me=""' in watch
    assert client.get(f"/r/{code}/host").status_code == 403
    table = client.post(
        f"/r/{code}/chat",
        {"channel": "players", "text": "I am Anna", "name": "Viewer"},
        HTTP_HX_REQUEST="true",
    )
    assert "cannot write in that chat" in table.content.decode()
    stands = client.post(
        f"/r/{code}/chat",
        {"channel": "spectators", "text": "what a final", "name": "Viewer"},
        HTTP_HX_REQUEST="true",
    )
    assert "what a final" in stands.content.decode()
    assert not ChatMessage.objects.filter(game__code=code, channel="players").exists()
    assert "Import a game record" in Client().get("/rooms/import").content.decode()


def refused(data: dict) -> str:
    with pytest.raises(RecordError) as info:
        record_import(record=data)
    return str(info.value)


def test_a_changed_record_is_refused_and_creates_nothing(record_file):
    data = json.loads(record_file.read_text())
    before = Game.objects.count()

    changed_action = copy.deepcopy(data)
    answer = next(a for a in changed_action["actions"] if a["action"]["type"] == "answer")
    answer["action"]["prompt"] += 1000
    assert "is refused by the rules" in refused(changed_action)

    changed_event = copy.deepcopy(data)
    transfer = next(e for e in changed_event["events"] if e["kind"] == "transfer")
    transfer["payload"]["amount"] += 1
    assert f"event {transfer['seq']} does not follow from the actions" in refused(changed_event)

    changed_digest = copy.deepcopy(data)
    changed_digest["digest"] = "sha256:" + "0" * 64
    assert "does not match its digest" in refused(changed_digest)

    salted = copy.deepcopy(data)  # another salt reshuffles differently: the events no longer follow
    rewind = next(a for a in salted["actions"] if a["action"]["type"] == "rewind")
    rewind["action"]["salt"] ^= 1
    assert "the record was changed" in refused(salted)

    assert "not a Magic Football game record" in refused({"format": "something else"})
    wrong_seed = copy.deepcopy(data)
    wrong_seed["seed"] += 1
    assert "the record was changed" in refused(wrong_seed)
    assert Game.objects.count() == before


def test_the_page_and_the_command_say_why_a_record_is_refused(record_file, tmp_path):
    data = json.loads(record_file.read_text())
    data["digest"] = "sha256:" + "1" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with bad.open("rb") as handle:
        response = Client().post("/rooms/import", {"record": handle})
    assert response.status_code == 400
    assert "does not match its digest: the record was changed" in response.content.decode()
    with pytest.raises(CommandError, match="record was changed"):
        call_command("import_record", str(bad))
    not_json = tmp_path / "x.json"
    not_json.write_text("{nope")
    with pytest.raises(CommandError, match="not a JSON file"):
        call_command("import_record", str(not_json))


def test_the_command_imports_a_good_record(record_file, capsys):
    call_command("import_record", str(record_file))
    out = capsys.readouterr().out
    code = out.split(":")[0]
    assert Game.objects.get(code=code).status == "finished"
    assert "host key" not in out  # nobody hosts an imported room: its key would be the original host's seat
