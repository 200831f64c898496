"""No hidden-information leak over real sockets and pages (issue 8): whole stored tournaments played
through ``game_act`` while every viewer is connected twice — a protocol client (JSON) and a room page
(HTML frames, identified by its signed session cookie) — and every frame the room hub actually sends is
captured and checked. Along the way viewers reconnect (full ``state`` frames with the recent log, full
HTML renders), resync (``events`` frames) and load their pages over HTTP (room, watch, bracket, host
console); those are checked too. The pure-rules sweep over 100 tournaments is test_no_leaks.py.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import Client
from rel_client import sync_attributes
from rel_leaks import HtmlNames, Leak, MatchMemory, html_leaks, json_leaks, money_drawn, visible_cards

from cards.catalog import get_catalog
from tournament.models import Game
from tournament.rules import bots
from tournament.rules.events import Actor, Ev
from tournament.rules.projection import Viewer
from tournament.services.actions import current_snapshot, game_act
from tournament.services.rooms import room_create, room_join

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

KEEP = 400  # actions whose visibility sets are kept (a reconnect's log reaches back ~60 events)


@dataclass
class Visibility:
    """Per version the cards each viewer may see; per event number what it may name."""

    now: dict[int, dict[str, set[str]]] = field(default_factory=dict)  # version -> viewer -> visible
    allowed: dict[int, dict[str, set[str]]] = field(default_factory=dict)  # seq -> viewer -> allowed
    order: deque[tuple[int, range]] = field(default_factory=deque)

    def forget_old(self) -> None:
        while len(self.order) > KEEP:
            version, seqs = self.order.popleft()
            self.now.pop(version, None)
            for seq in seqs:
                self.allowed.pop(seq, None)


@dataclass
class Socket:
    label: str  # the viewer
    fmt: str
    comm: WebsocketCommunicator
    unacked: int = 0
    version: int = -1  # the newest version this socket's frames showed
    seen: set[str] = field(default_factory=set)  # kinds of frames received


class Live:
    """One stored game, its viewers' sockets, and everything they received."""

    def __init__(self, seed: int, seats: int, host_plays: bool) -> None:
        self.seed = seed
        self.seats = seats
        self.host_plays = host_plays
        self.cat = get_catalog()
        self.every = set(self.cat.all_ids())
        self.countries = set(self.cat.countries)
        self.names = HtmlNames.build(self.cat, "en")
        self.memory = MatchMemory()
        self.vis = Visibility()
        self.rng = random.Random(seed)
        self.leaks: list[Leak] = []
        self.checked = {"json": 0, "html": 0, "pages": 0, "events": 0}
        self.sockets: list[Socket] = []
        self.viewers: dict[str, Viewer] = {}
        self.creds: dict[str, dict[str, str]] = {}
        self.shown_money: set[str] = set()
        self.version = -1  # the game's newest version: every socket must show it after a drain

    # ------------------------------------------------------------------ set-up (sync)
    def create(self) -> None:
        room = room_create(
            nickname="Hosta" if self.host_plays else None, seed=self.seed, house_rules={"seats": self.seats}
        )
        self.code, self.host_key = room.code, room.host_key
        tokens = {room.seat: room.token} if room.seat else {}
        while len(tokens) < self.seats:
            seat, token = room_join(code=room.code, nickname=f"<b>P{len(tokens) + 1}</b>")
            tokens[seat] = token
        for seat, token in tokens.items():
            label = f"seat {seat}"
            self.viewers[label] = Viewer(seat=seat, host=seat == room.seat)
            self.creds[label] = {"token": token, **({"host_key": room.host_key} if seat == room.seat else {})}
        if not self.host_plays:
            self.viewers["host"] = Viewer(host=True)
            self.creds["host"] = {"host_key": room.host_key}
        self.viewers["spectator"] = Viewer()
        self.creds["spectator"] = {}
        game_act(
            code=self.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=None,
            action_id="start",
        )
        snap = current_snapshot(Game.objects.get(code=self.code))
        self.version = snap.version
        self._remember(snap.version, range(1, snap.last_seq + 1), snap.state, snap.state, [], set())

    def _remember(
        self, version: int, seqs: range, before: Any, after: Any, events: list[Ev], drawn: set[str]
    ) -> None:
        now: dict[str, set[str]] = {}
        allowed: dict[str, set[str]] = {}
        self.shown_money |= drawn  # shown to all when drawn: the host's ledger names them ever after
        for label, viewer in self.viewers.items():
            seat = viewer.seat
            now[label] = visible_cards(after, seat, self.memory) | self.shown_money
            extra = self.memory.own_during.get(seat, set()) if seat is not None else set()
            allowed[label] = (
                now[label] | visible_cards(before, seat, self.memory) | self.memory.during | drawn | extra
            )
        self.vis.now[version] = now
        for seq in seqs:
            self.vis.allowed[seq] = allowed
        self.vis.order.append((version, seqs))
        self.vis.forget_old()

    def step(self) -> bool:
        """One decision through ``game_act`` (like a bot's); False when the game is over."""
        game = Game.objects.get(code=self.code)
        snap = current_snapshot(game)
        before = snap.state
        if before.status != "running":
            return False
        prompt = self.rng.choice(before.prompts)
        choice = bots.decide(before, prompt, "easy", self.cat, bots.bot_rng(before, snap.version))
        self.memory.begin_action(before)
        with self.memory.watching():
            result = game_act(
                code=self.code,
                actor=Actor("seat", prompt.seat),
                action={"type": "answer", "prompt": prompt.id, "choice": choice},
                expected_version=snap.version,
                action_id=f"live-{snap.version}",
            )
        after = current_snapshot(Game.objects.get(code=self.code)).state
        self.version = result.version
        self._remember(
            result.version,
            range(result.first_seq, result.last_seq + 1),
            before,
            after,
            list(result.events),
            money_drawn(before, list(result.events)),
        )
        return True

    # ------------------------------------------------------------------ sockets
    async def connect(self, label: str, fmt: str) -> Socket:
        from magicfootball.asgi import application

        headers = [(b"origin", b"http://127.0.0.1")]
        if fmt == "html" and self.creds[label]:
            session = SessionStore()
            session["rooms"] = {self.code: self.creds[label]}
            session.save()
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()))
        query = "?format=html&lang=en" if fmt == "html" else ""
        comm = WebsocketCommunicator(application, f"/ws/r/{self.code}/{query}", headers=headers)
        connected, _ = await comm.connect()
        assert connected
        if fmt == "json" and self.creds[label]:
            await comm.send_to(text_data=json.dumps({"type": "hello", **self.creds[label]}))
        sock = Socket(label, fmt, comm)
        self.sockets.append(sock)
        return sock

    async def drain(self, sock: Socket, wait_for: str | None = None) -> None:
        """Read and check everything this socket received, waiting until it shows the game's current
        version (and, with ``wait_for``, a frame of that type): a condition, never a fixed pause."""
        deadline = asyncio.get_running_loop().time() + 20
        while True:
            if not sock.comm.output_queue.empty():
                text = await sock.comm.receive_from(timeout=10)
                kind = self.check(sock.label, sock.fmt, text)
                sock.seen.add(kind)
                sock.unacked += 1
                if sock.unacked >= 8:
                    sock.unacked = 0
                    await sock.comm.send_to(text_data='{"type":"ack"}')
                continue
            if sock.version >= self.version and (wait_for is None or wait_for in sock.seen):
                return
            assert asyncio.get_running_loop().time() < deadline, (
                f"{sock.label} ({sock.fmt}) shows v{sock.version}, not v{self.version} nor {wait_for}"
            )
            await asyncio.sleep(0.001)

    # ------------------------------------------------------------------ checks
    def _hidden_events(self, label: str, seq: int) -> set[str]:
        allowed = self.vis.allowed.get(seq, {}).get(label)
        assert allowed is not None, f"event {seq} is older than the checker remembers"
        return self.every - allowed

    def check(self, label: str, fmt: str, text: str) -> str:
        """Check one received frame; returns its kind (and notes the version it shows on its socket)."""
        where = f"seed {self.seed} {fmt}"
        sock = next(s for s in self.sockets if s.label == label and s.fmt == fmt)
        if fmt == "json":
            frame = json.loads(text)
            kind = frame["type"]
            if kind in ("state", "update"):
                sock.version = max(sock.version, frame["version"])
                self.checked["json"] += 1
                hidden = self.every - self.vis.now[frame["version"]][label]
                self.leaks += json_leaks(frame["view"], hidden, f"{where} v{frame['version']} {kind}", label)
            for ev in frame.get("events") or []:
                self.checked["events"] += 1
                self.leaks += json_leaks(
                    ev, self._hidden_events(label, ev["seq"]), f"{where} {ev['kind']}", label
                )
            return kind
        attrs = sync_attributes(text)
        if attrs is None:
            return "extra"
        self.checked["html"] += 1
        version, last, first = int(attrs["version"]), int(attrs["seq"]), int(attrs["first-seq"])
        sock.version = max(sock.version, version)
        self.leaks += html_leaks(
            text,
            self._html_hidden(label, version, last, first, attrs.get("full") == "1"),
            self.names,
            f"{where} v{version}",
            label,
        )
        return "html"

    def _html_hidden(self, label: str, version: int, last: int, first: int, full: bool) -> set[str]:
        allowed = set(self.vis.now[version][label])
        seqs = range(max(1, last - 240), last + 1) if full else range(first, last + 1)
        for seq in seqs:
            allowed |= self.vis.allowed.get(seq, {}).get(label, set())
        return self.every - self.countries - allowed

    def check_pages(self) -> None:
        version = Game.objects.get(code=self.code).version
        last = Game.objects.get(code=self.code).last_seq
        for label in self.viewers:
            client = Client()
            if self.creds[label]:
                session = client.session
                session["rooms"] = {self.code: self.creds[label]}
                session.save()
                client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
            pages = ["", "watch", "bracket"] + (["host"] if "host_key" in self.creds[label] else [])
            for page in pages:
                response = client.get(f"/r/{self.code}/{page}")
                if response.status_code != 200:
                    continue
                self.checked["pages"] += 1
                spectator_page = page in ("watch", "bracket")
                as_label = "spectator" if spectator_page else label
                hidden = self._html_hidden(as_label, version, last, last + 1, True)
                self.leaks += html_leaks(
                    response.content.decode(),
                    hidden,
                    self.names,
                    f"seed {self.seed} page /{page} v{version}",
                    label,
                )


async def _play(live: Live) -> None:
    await database_sync_to_async(live.create)()
    for label in live.viewers:
        await live.connect(label, "json")
        await live.connect(label, "html")
    for sock in list(live.sockets):
        await live.drain(sock)
    step = 0
    while await database_sync_to_async(live.step)():
        step += 1
        for sock in list(live.sockets):
            await live.drain(sock)
        if step % 97 == 0:  # a viewer reconnects (full state + recent log) and resyncs from the start
            label = live.rng.choice(list(live.viewers))
            for sock in [s for s in live.sockets if s.label == label]:
                live.sockets.remove(sock)
                await sock.comm.disconnect()
            fresh = await live.connect(label, "json")
            game = await database_sync_to_async(Game.objects.get)(code=live.code)
            await fresh.comm.send_to(
                text_data=json.dumps({"type": "sync", "since": max(0, game.last_seq - 150)})
            )
            await live.connect(label, "html")
            for sock in list(live.sockets):
                await live.drain(sock, wait_for="events" if sock is fresh else None)
        if step % 151 == 0:
            await sync_to_async(live.check_pages)()
    await sync_to_async(live.check_pages)()
    for sock in live.sockets:
        await sock.comm.disconnect()


@pytest.mark.parametrize(("seed", "seats", "host_plays"), [(71, 4, True), (72, 5, False)])
async def test_every_frame_and_page_a_viewer_receives_hides_what_it_may_not_see(
    seed: int, seats: int, host_plays: bool
) -> None:
    live = Live(seed, seats, host_plays)
    await _play(live)
    game = await database_sync_to_async(Game.objects.get)(code=live.code)
    assert game.status == "finished"
    print(f"seed {seed}: {live.checked}")
    assert live.checked["json"] > 1000 and live.checked["html"] > 1000 and live.checked["pages"] > 10
    assert not live.leaks, "\n".join(str(leak) for leak in live.leaks[:15]) + f"\n({len(live.leaks)} in all)"
