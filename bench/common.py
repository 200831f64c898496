"""Helpers shared by bench/bots.py, bench/realtime.py and bench/scale.py.

Machine details, statistics (Wilson intervals, percentiles), appending a section to docs/PERFORMANCE.md,
and the process plumbing of the real-time benchmarks: a temporary database prepared by ``manage.py``,
daphne processes with a given environment, their CPU time and resident memory from /proc.
Run as a script it prints this machine's details (``make bench`` runs every bench/*.py).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import os
import platform
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from magicfootball import serve

ROOT = Path(__file__).resolve().parents[1]
PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
PG_SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_SERVER = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")  # a db of its own
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


# ------------------------------------------------------------------------------------- reporting


def machine() -> dict[str, str]:
    """CPU, cores, Python, OS and load of this machine."""
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load": " / ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a",
    }


def machine_lines(info: dict[str, str] | None = None) -> list[str]:
    """The machine's details as Markdown bullet lines."""
    info = info or machine()
    return [
        f"- CPU: {info['cpu']} ({info['cores']} cores)",
        f"- Python: {info['python']} on {info['platform']}",
        f"- Load average when the run ended (1 / 5 / 15 min): {info['load']}",
    ]


def append_performance(section: str) -> Path:
    """Append a section to docs/PERFORMANCE.md (others write there too: never rewrite it)."""
    if not PERFORMANCE.exists():
        PERFORMANCE.write_text("# Performance\n\nMeasured figures, one section per benchmark run.\n")
    with PERFORMANCE.open("a", encoding="utf-8") as fh:
        fh.write("\n" + section.rstrip() + "\n")
    return PERFORMANCE


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (good at small and extreme rates)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    data = sorted(values)
    pos = (len(data) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


# ------------------------------------------------------------------------------ processes and data


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def ws_listen(
    url: str, on_text: Callable[[bytes], None], on_closed: Callable[[], None], timeout: float
) -> Any:
    """A picows client socket to ``url`` (Origin 127.0.0.1): each text frame goes to ``on_text`` as it is
    parsed, with no task per socket, so one bench process can hold hundreds of clients without becoming the
    bottleneck it measures. Returns the transport (``send``, ``send_close``, ``disconnect``)."""
    from picows import WSListener, WSMsgType, ws_connect

    class Listener(WSListener):
        def on_ws_frame(self, transport: Any, frame: Any) -> None:
            if frame.msg_type == WSMsgType.TEXT:
                on_text(frame.get_payload_as_bytes())
            elif frame.msg_type == WSMsgType.CLOSE:
                transport.disconnect()

        def on_ws_disconnected(self, transport: Any) -> None:
            on_closed()

    transport, _ = await ws_connect(
        Listener,
        url,
        extra_headers={"Origin": "http://127.0.0.1"},
        max_frame_size=2**22,
        websocket_handshake_timeout=timeout,
    )
    return transport


def child_env(**overrides: str | None) -> dict[str, str]:
    """Our environment without database / Redis settings, plus ``overrides`` (None removes)."""
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH"):
        env.pop(name, None)
    env["DJANGO_SETTINGS_MODULE"] = "magicfootball.settings"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def manage(*args: str, env: dict[str, str], timeout: float = 300) -> None:
    """Run ``manage.py`` with ``env``; raise with its output if it fails."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")


@dataclass
class TempDatabase:
    """A fresh migrated database with the catalog loaded: a SQLite file or a PostgreSQL database."""

    kind: str
    env: dict[str, str | None]
    description: str
    _cleanup: list = field(default_factory=list)

    def drop(self) -> None:
        for fn in reversed(self._cleanup):
            with contextlib.suppress(Exception):
                fn()
        self._cleanup.clear()


def _pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_SERVER, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql)


def temp_database(kind: str) -> TempDatabase:
    """Create, migrate and fill a database for a benchmark (dropped by ``drop()``)."""
    if kind == "sqlite":
        tmp = tempfile.mkdtemp(prefix="mft-bench-")
        path = str(Path(tmp) / "bench.sqlite3")
        db = TempDatabase("sqlite", {"SQLITE_PATH": path, "DATABASE_URL": None}, f"SQLite file in {tmp}")
        db._cleanup.append(lambda: shutil.rmtree(tmp, ignore_errors=True))
    elif kind == "postgres":
        name = f"mft_bench_{secrets.token_hex(4)}"
        _pg_admin(f'CREATE DATABASE "{name}"')
        url = f"{PG_SERVER.rsplit('/', 1)[0]}/{name}"
        db = TempDatabase(
            "postgres", {"DATABASE_URL": url, "SQLITE_PATH": None}, f"PostgreSQL database {name} on 127.0.0.1"
        )
        db._cleanup.append(lambda: _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    else:
        raise SystemExit(f"unknown database kind {kind!r}: sqlite or postgres")
    env = child_env(**db.env)
    try:
        manage("migrate", "--noinput", env=env)
        manage("load_catalog", env=env)
    except Exception:
        db.drop()
        raise
    return db


def use_database_here(db: TempDatabase) -> None:
    """Point this process's Django at ``db`` (call before ``django.setup()``)."""
    for name, value in db.env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "magicfootball.settings")


def flush_redis(url: str) -> None:
    """Empty the benchmark's own Redis database (never another one)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    client.flushdb()
    client.close()


@dataclass
class Server:
    """A daphne process serving an ASGI application on 127.0.0.1."""

    port: int
    process: subprocess.Popen
    log_path: Path

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        """User + system CPU time of the process so far (from /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def rss_bytes(self) -> int:
        """Resident memory of the process (from /proc)."""
        fields = Path(f"/proc/{self.process.pid}/statm").read_text().split()
        return int(fields[1]) * PAGE

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_daphne(app: str, env: dict[str, str], log_dir: Path, extra_args: Sequence[str] = ()) -> Server:
    """Start daphne with ``app`` on a free port of 127.0.0.1 and wait until it accepts connections."""
    return start_server("daphne", env, log_dir, app=app, extra_args=extra_args)


def start_server(
    kind: str,
    env: dict[str, str],
    log_dir: Path,
    app: str = "magicfootball.asgi:application",
    extra_args: Sequence[str] = (),
    root: Path = ROOT,
    python: str | None = None,
) -> Server:
    """Start ``kind`` (daphne, or uvicorn as docker-compose runs it: ``magicfootball.serve``) on a free port
    of 127.0.0.1 and wait until it accepts connections; ``root``: the checkout whose code it serves (``env``
    must put it on ``PYTHONPATH``); ``python``: the interpreter (default: this one)."""
    port = free_port()
    log_path = log_dir / f"{kind}-{port}.log"
    argv = serve.argv(kind, "127.0.0.1", port, app, extra_args)
    if python is not None:
        argv[0] = python
    with log_path.open("w") as log:
        process = subprocess.Popen(
            argv,
            cwd=root,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = Server(port, process, log_path)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{kind} exited: {log_path.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            break
        time.sleep(0.1)
    else:
        server.stop()
        raise RuntimeError(f"{kind} did not start listening within 30 s")
    with contextlib.suppress(Exception):  # first HTTP request warms Django up (the project app only)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10).read()
    return server


@contextlib.contextmanager
def servers() -> Iterator[list[Server]]:
    """Collect servers started in the block and stop them all at its end."""
    started: list[Server] = []
    try:
        yield started
    finally:
        for server in started:
            server.stop()


if __name__ == "__main__":
    for line in machine_lines():
        print(line)
