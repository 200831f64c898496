"""Fixtures of the reliability tests: private Redis servers and daphne processes that can be killed.

``private_redis``
    A ``redis-server`` of this test alone on a free port (``--save "" --appendonly no``): it can be
    stopped and started again on the same port mid-game without touching the machine's shared Redis.
``session_redis``
    The same, shared by the tests of one session that only need a working Redis.
``daphne_live``
    Factory around the project's ``daphne_server`` fixture returning a ``LiveServer`` that can be
    ``kill9()``-ed and ``restart()``-ed on the same port (clients reconnect to the same URL).
``game_room``
    Creates rooms in the test's (PostgreSQL) database through the services.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.2)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port} after {timeout} s")


# ------------------------------------------------------------------------------------------ Redis
@dataclass
class RedisServer:
    """A private redis-server process on a fixed port (restartable; data is not persisted)."""

    port: int
    workdir: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start (again) on the same port, empty."""
        log = (self.workdir / f"redis-{self.port}.log").open("ab")
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--protected-mode",
                "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        _wait_port(self.port)

    def stop(self, sig: int = signal.SIGKILL) -> None:
        """Kill it (SIGKILL by default: a crash, not a clean shutdown)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=10)
        self.process = None


def _redis(tmp: Path) -> RedisServer:
    if not (os.path.isfile(REDIS_SERVER) and os.access(REDIS_SERVER, os.X_OK)):
        message = f"redis-server is not installed at {REDIS_SERVER}"
        if _ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    server = RedisServer(port=_free_port(), workdir=tmp)
    server.start()
    return server


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of this test alone, killed afterwards."""
    server = _redis(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def session_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server for this session's reliability tests (never the machine's shared one)."""
    server = _redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()


# ----------------------------------------------------------------------------------------- daphne
@dataclass
class LiveServer:
    """A server process (daphne, or uvicorn) serving the project on a fixed port; can be killed and
    restarted there with the same command."""

    port: int
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[str] | None
    command: list[str]
    started: list[subprocess.Popen[str]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        """Everything every incarnation of this server printed."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill9(self) -> None:
        """``kill -9``: no shutdown handler runs, in-flight work is lost."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def restart(self, timeout: float = 90.0) -> None:
        """Start the server again on the same port, with the same environment (the bound only catches a
        hang: a start took over 30 s on a machine loaded eight times over, make flaky)."""
        import urllib.request

        with self.log_path.open("a") as log:
            log.write(f"\n===== restart at {time.strftime('%H:%M:%S')} =====\n")
            log.flush()
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
            )
        self.started.append(self.process)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server did not come back within {timeout} s")
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop every process this object started."""
        for proc in [self.process, *self.started]:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)

    def rss_kib(self) -> int:
        """Resident memory of the running process (KiB)."""
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


@pytest.fixture
def daphne_live(daphne_server: Callable[..., Any]) -> Iterator[Callable[..., LiveServer]]:
    """``daphne_live(database_url=..., redis_url=..., env={...})`` → a killable, restartable daphne."""
    servers: list[LiveServer] = []

    def start(**kwargs: Any) -> LiveServer:
        env = {"BOT_DELAY": "0.05", **(kwargs.pop("env", None) or {})}
        srv = daphne_server(env=env, **kwargs)
        live = LiveServer(
            port=int(srv.url.rsplit(":", 1)[1]),
            env=srv.env,
            log_path=srv.log_path,
            process=srv.process,
            command=srv.command,
        )
        servers.append(live)
        return live

    yield start
    for live in servers:
        live.stop()


# ------------------------------------------------------------------------------------------ rooms
@dataclass
class Room:
    """A room created through the services: its code, the host key and the seats' tokens."""

    code: str
    host_key: str
    tokens: dict[int, str]


@pytest.fixture
def game_room() -> Callable[..., Room]:
    """``game_room(humans=3, bots=0, host_plays=True, start=True, seed=7)`` in the default database;
    ``game="dice-football", seats=2, competition="single"`` opens a room of another game."""

    def make(
        humans: int = 3,
        bots: int = 0,
        host_plays: bool = True,
        start: bool = True,
        seed: int = 7,
        bot_strength: str = "easy",
        game: str = "magic-football",
        **house_rules: Any,
    ) -> Room:
        from tournament.models import Game
        from tournament.rules.events import Actor
        from tournament.services.actions import game_act
        from tournament.services.rooms import room_create, room_join

        rules = {"seats": 8, **house_rules}
        room = room_create(nickname="Hosta" if host_plays else None, seed=seed, house_rules=rules, game=game)
        tokens: dict[int, str] = {}
        if room.seat is not None and room.token is not None:
            tokens[room.seat] = room.token
        for i in range(humans - (1 if host_plays else 0)):
            seat, token = room_join(code=room.code, nickname=f"Player {i + 2}")
            tokens[seat] = token
        for _ in range(bots):
            game_act(
                code=room.code,
                actor=Actor("host"),
                action={"type": "add_bot", "strength": bot_strength},
                expected_version=None,
                action_id=f"bot-{_}",
            )
        if start:
            game = Game.objects.get(code=room.code)
            game_act(
                code=room.code,
                actor=Actor("host"),
                action={"type": "start"},
                expected_version=game.version,
                action_id="start",
            )
        return Room(code=room.code, host_key=room.host_key, tokens=tokens)

    return make
