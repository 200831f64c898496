"""docs/PROTOCOL.md says what the code does, and cannot drift from it again (issue 23, item 12).

Every JSON example block must parse and have the shape of what the code really sends or reads: the frames
a client sends are the ones the socket handles, with fields it reads; the server's frame types are the ones
it sends; a chat line, a game record and a simulator line are compared with real ones of a finished game.
The error codes listed are exactly the codes the server can emit (collected from the source), and the
numbers the text promises are the code's constants.

An example may elide with "…": a list item "…" stands for more items, a key "…" makes the object an open
mapping (the keys shown are checked where the real object has them). ``null`` matches any value (nullable
fields); otherwise keys must be exactly the real ones and every value of the same JSON type.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest

import tournament
from tournament import consumers, messages
from tournament.realtime import frames, gamenight
from tournament.rules.errors import MESSAGES, RulesError

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
PROSE = " ".join(DOC.split())  # the text with its line breaks folded, for sentences
ELIDED = "…"


# ------------------------------------------------------------------------------------------ the document


def section(title: str) -> str:
    """The text of a ``##`` section (up to the next one)."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", DOC, re.S | re.M)
    assert match, f"PROTOCOL.md has no section “{title}”"
    return match.group(1)


def json_blocks(text: str) -> list[Any]:
    """The ```json blocks of a text: one object per block, or one per line (a list of frames)."""
    out = []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        try:
            out.append(json.loads(block))
        except ValueError:
            out.append([json.loads(line) for line in block.splitlines() if line.strip()])
    return out


def conforms(example: Any, real: Any, where: str = "") -> list[str]:
    """Where ``example`` does not have the shape of ``real`` (empty: it does)."""
    if example == ELIDED or example is None or real is None:
        return []
    if isinstance(example, dict):
        if not isinstance(real, dict):
            return [f"{where}: an object in the example, {type(real).__name__} in the code"]
        problems = []
        if ELIDED not in example and set(example) != set(real):
            problems.append(f"{where}: keys {sorted(example)} in the example, {sorted(real)} in the code")
        for key, value in example.items():
            if key != ELIDED and key in real:
                problems += conforms(value, real[key], f"{where}.{key}")
        return problems
    if isinstance(example, list):
        if not isinstance(real, list):
            return [f"{where}: a list in the example, {type(real).__name__} in the code"]
        problems = []
        for index, item in enumerate(example):
            if item != ELIDED and real and all(conforms(item, r) for r in real):
                problems.append(
                    f"{where}[{index}]: like no item of the code's list ({conforms(item, real[0])})"
                )
        return problems
    kinds = {bool: "boolean", int: "number", float: "number", str: "string"}
    if kinds.get(type(example)) != kinds.get(type(real)):
        return [f"{where}: {example!r} in the example, {real!r} in the code"]
    return []


def test_conforms_tells_shapes_apart() -> None:
    assert conforms({"a": 1, "b": [{"c": "x"}, ELIDED]}, {"a": 2, "b": [{"c": "y"}, {"c": "z"}]}) == []
    assert conforms({"winner": 3}, {"winner": {"country": "BEL"}})  # the old record example
    assert conforms({"a": 1}, {"a": 1, "b": 2}) and conforms({"a": True}, {"a": 1})
    assert conforms({"a": 1, ELIDED: 0}, {"b": 2}) == [] and conforms({"a": None}, {"a": [1]}) == []


def test_every_json_example_parses() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC, re.S)
    assert len(blocks) >= 5
    assert len(json_blocks(DOC)) == len(blocks)  # json_blocks raises on a block that is not JSON


# ------------------------------------------------------------------------------------------ the source


def _tree(module: Any) -> ast.Module:
    return ast.parse(Path(module.__file__).read_text(encoding="utf-8"))


def handled_client_frames() -> set[str]:
    """The frame types ``RoomConsumer.receive`` dispatches (``kind == "…"`` and ``kind in (…)``)."""
    receive = next(
        node
        for node in ast.walk(_tree(consumers))
        if isinstance(node, ast.AsyncFunctionDef) and node.name == "receive"
    )
    kinds: set[str] = set()
    for node in ast.walk(receive):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "kind":
            for comparator in node.comparators:
                values = comparator.elts if isinstance(comparator, ast.Tuple) else [comparator]
                kinds |= {v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return kinds


def fields_read() -> set[str]:
    """The fields the socket reads from a client's frame (``frame.get("x")``, ``frame["x"]``)."""
    names: set[str] = set()
    for module in (consumers, gamenight):
        for node in ast.walk(_tree(module)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "frame"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names.add(node.args[0].value)
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and node.value.id == "frame"
                and isinstance(node.slice, ast.Constant)
            ):
                names.add(node.slice.value)
    return names


def server_frame_types() -> set[str]:
    """The ``type`` of every frame the server writes to a socket (the frame builders' literals)."""
    found: set[str] = set()
    for module in (consumers, frames, gamenight):
        found |= set(re.findall(r'"type":\s*"([a-z_]+)"', Path(module.__file__).read_text(encoding="utf-8")))
    return found


def emitted_error_codes() -> set[str]:
    """Every error code the server can send: the ``code`` of each ``RulesError`` subclass and every
    ``RulesError("code", …)`` raised anywhere in the tournament package."""
    codes: set[str] = set()
    for info in pkgutil.walk_packages(tournament.__path__, "tournament."):
        if ".migrations" in info.name:
            continue
        module = importlib.import_module(info.name)
        source = Path(module.__file__).read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "RulesError"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                codes.add(node.args[0].value)
    todo = [RulesError]
    while todo:
        cls = todo.pop()
        codes.add(cls.code)
        todo += cls.__subclasses__()
    return codes


# ------------------------------------------------------------------------------------------ frames


def test_the_client_frames_are_the_ones_the_socket_handles_with_fields_it_reads() -> None:
    client = section("Client → server")
    (examples,) = json_blocks(client)
    (hello,) = json_blocks(section("Identity"))
    assert {f["type"] for f in [*examples, hello]} == handled_client_frames()
    read = fields_read() | {"type"}
    for frame in [*examples, hello]:
        assert set(frame) <= read, (frame["type"], set(frame) - read)
    for kind in handled_client_frames() - {"ping", "hello"}:  # each is explained below the examples
        assert f"- **{kind}**" in client, kind


def test_the_server_frame_types_are_the_ones_the_server_sends() -> None:
    table = section("Server → client").split("### ")[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert documented == server_frame_types()


def test_the_chat_line_example_is_a_real_chat_frame(db: Any) -> None:
    from tournament.models import ChatMessage, Game
    from tournament.services import chat
    from tournament.services.rooms import room_create

    text = section("Chat")
    (example,) = json_blocks(text)
    game = Game.objects.get(code=room_create(nickname="Anna").code)
    line = chat.chat_post(
        game=game, channel="spectators", author=chat.ChatAuthor("spectator:abc", "Grandpa"), text="Go Ben!"
    )
    real = json.loads(gamenight.chat_frame(line, "json"))
    assert conforms(example, real) == []
    for kind in ChatMessage.Kind.values:
        assert f'"{kind}"' in text, kind
    assert (
        conforms({"type": "chat_mute", "muted": True}, json.loads(gamenight.mute_frame(True, "json"))) == []
    )


# ------------------------------------------------------------------------------------------ errors


def test_the_error_codes_listed_are_exactly_those_the_server_can_send() -> None:
    text = section("Errors")
    listed = set(re.findall(r"`([a-z_]+)`", text.split("An error never changes")[0]))
    emitted = emitted_error_codes()
    assert listed - emitted == set(), "documented but never sent"
    assert emitted - listed == set(), "sent but not documented"
    assert set(MESSAGES) == emitted and set(messages.TEMPLATES) == emitted  # each has its message


def test_the_chat_refusals_named_are_codes_the_chat_sends() -> None:
    bullet = re.search(r"^- \*\*chat\*\*.*?(?=^- \*\*)", section("Client → server"), re.S | re.M)
    assert bullet
    named = set(re.findall(r"`([a-z_]+)`", bullet.group(0))) & emitted_error_codes()
    for code in (
        "chat_muted",
        "chat_too_fast",
        "forbidden",
        "malformed",
        "rate_limited",
        "reserved_nickname",
    ):
        assert code in named, code


# ------------------------------------------------------------------------------------------ numbers


def test_the_limits_the_text_promises_are_the_codes() -> None:
    from tournament.services import chat

    assert f"Frames larger than {consumers.MAX_FRAME // 1024} KiB are refused" in PROSE
    assert f"at most {consumers.WINDOW} unacknowledged frames" in PROSE
    assert (
        f"may send {consumers.RATE_BURST} actions at once and {consumers.RATE_PER_SECOND:g} per second"
        in PROSE
    )
    assert f"one chat line (1–{chat.MAX_LENGTH} characters)" in PROSE
    seconds = int(chat.RATE_WINDOW.total_seconds())
    assert f"At most {chat.RATE_MAX} lines per author in {seconds} seconds" in PROSE
    assert f"(oldest first, at most {chat.HISTORY})" in PROSE
    assert f"(`record`, at most {consumers_record_limit()} MB)" in PROSE


def consumers_record_limit() -> int:
    from tournament.services.records import MAX_BYTES

    return MAX_BYTES // (1024 * 1024)


# ------------------------------------------------------------------------------------------ a whole game


@pytest.fixture
def finished(transactional_db: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A bot tournament played through the real services: its simulator line and its game record."""
    from tournament import simulation
    from tournament.models import Game
    from tournament.services.records import record_export

    report = simulation.play_game(seed=4, players=2, strengths=["strong", "random"])
    assert report.invariants_ok, report.problems
    return report.as_json(), record_export(Game.objects.get(code=report.code))


def test_the_record_and_the_simulator_examples_have_the_real_shapes(finished: Any) -> None:
    line, record = finished
    (record_example,) = json_blocks(section("Game records"))
    assert conforms(record_example, record) == []
    assert record_example["format"] == record["format"]
    assert record_example["format_version"] == record["format_version"]
    (simulator_example,) = json_blocks(section("Simulator output"))
    assert conforms(simulator_example, line) == []
