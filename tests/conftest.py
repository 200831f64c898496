"""Fixtures every test may use: real PostgreSQL, Redis and Chromium, and real server processes.

The main suite runs on SQLite (pytest-django's test database) with the in-memory channel layer. Tests that
need a real service ask for its fixture; without the service they are skipped locally, and with ``CI=true``
they **fail** with a message that names the missing service (CI must never pass by skipping).

How to use the services (pick the one that matches what you test):

``pg_database``
    A fresh PostgreSQL database with every migration applied, yielded as a ``DATABASE_URL``; dropped after the
    test (``DROP DATABASE ... WITH (FORCE)``, so open connections do not leak into other tests). Made by
    cloning a migrated template database, so it costs about 0.1 s. Give the URL to subprocesses:
    ``manage("load_catalog", database_url=pg_database)`` or ``daphne_server(database_url=pg_database)``.
``pg_catalog_database``
    The same, with the catalog loaded (``manage.py load_catalog``): what a game needs.
``pg_empty_database``
    A fresh database with nothing in it (for migration tests).
``pg_default`` / ``pg_catalog_default``
    Run in-process code (services, selectors, 50 threads hammering one game) against PostgreSQL: for the
    test's duration Django's ``default`` alias points at a fresh database, in every thread (and in the
    thread ``database_sync_to_async`` uses). Do not combine with ``@pytest.mark.django_db`` (that wraps the
    SQLite test database). Threads you start should call ``django.db.connections.close_all()`` before they
    end. ``database_as_default(url)`` does the same for one ``with`` block.
``redis_url``
    A Redis URL (database 15 by default) flushed at the start of the session; ``REDIS_URL=redis_url`` in a
    subprocess or ``redis_channel_layer`` for an in-process Redis channel layer.
``chromium_path`` / ``browser``
    Debian's ``/usr/bin/chromium`` driven by the ``playwright`` package (never ``playwright install``);
    ``browser`` is a Playwright ``Browser`` launched with the project's flags, closed after the test (no
    ORM calls or asyncio in the same test while it is open; see its docstring). ``browser_bfcache`` is the
    same with the back/forward cache on (the browser's Back restores a page as it was left).
``daphne_server``
    Factory: ``server = daphne_server(database_url=..., redis_url=..., catalog=True)`` starts the real ASGI
    app in a daphne process on a free port (SQLite temp file when no ``database_url``), waits for
    ``/healthz`` and returns an object with ``.url``; stopped after the test.
``manage``
    ``manage("migrate", database_url=...)`` runs ``manage.py`` in a subprocess with the given environment and
    fails the test with its output when it exits non-zero.
``django_subprocess`` / ``settings_with_env``
    Run Django code, or read the settings, in a fresh interpreter with some environment variables set or
    removed (``REDIS_URL=None``): configuration is read once per process.

Markers ``postgres``, ``redis`` and ``chromium`` are added automatically to tests that use these fixtures
(``slow`` to those that start daphne or a browser), and a test marked with one of them without using the
fixture is still checked for the service (skip/fail). Deselect with ``-m "not chromium"``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest
import sweep
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis profiles (tests/sweep.py): CI tries the same examples every run; the soak explores ten times
# as many fresh ones. A test's own ``@settings`` only sets what differs (``sweep.examples(n)`` for costly
# examples); deadlines are off because a loaded CI machine is not a slow test.
hypothesis_settings.register_profile(
    "ci", max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile(
    "soak",
    max_examples=100 * sweep.SOAK_FACTOR,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.load_profile(sweep.PROFILE)
MANAGE = ROOT / "manage.py"
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

# fixture name -> marker name: using the fixture marks the test.
SERVICE_FIXTURES = {
    "postgres_url": "postgres",
    "pg_database": "postgres",
    "pg_empty_database": "postgres",
    "pg_catalog_database": "postgres",
    "pg_default": "postgres",
    "pg_catalog_default": "postgres",
    "redis_url": "redis",
    "redis_channel_layer": "redis",
    "chromium_path": "chromium",
    "browser": "chromium",
    "browser_bfcache": "chromium",
}
# marker name -> the fixture that checks the service.
MARKER_FIXTURE = {"postgres": "postgres_url", "redis": "redis_url", "chromium": "chromium_path"}


def ci_required() -> bool:
    """True when missing services must fail the run (CI sets ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


def service_missing(service: str, detail: str) -> NoReturn:
    """Skip locally, fail under CI: a CI run that silently skips the real-service tests proves nothing."""
    if ci_required():
        pytest.fail(
            f"{service} is required because CI=true, but {detail}. "
            "Start or install it (see .ci/run), or point TEST_POSTGRES_URL / TEST_REDIS_URL / "
            "CHROMIUM_PATH at it.",
            pytrace=False,
        )
    pytest.skip(f"{service} not available: {detail}")


def subprocess_env(**overrides: str | None) -> dict[str, str]:
    """The environment for a child Django process: ours minus DB/Redis settings, plus ``overrides``.

    A ``None`` value removes the variable, so a test can say ``DATABASE_URL=None`` to get SQLite.
    """
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run_manage(*args: str, timeout: float = 300, **env: str | None) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py <args>`` in a subprocess; fail the test with its output if it exits non-zero."""
    proc = subprocess.run(
        [sys.executable, str(MANAGE), *args],
        cwd=ROOT,
        env=subprocess_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        pytest.fail(
            f"manage.py {' '.join(args)} exited {proc.returncode}\n--- stdout\n{proc.stdout}\n"
            f"--- stderr\n{proc.stderr}",
            pytrace=False,
        )
    return proc


def with_database(url: str, name: str) -> str:
    """The same server URL with another database name."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ----------------------------------------------------------------------------------------- markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark tests by the services their fixtures need (``-m "not postgres"`` then works as expected)."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for fixture_name, marker in SERVICE_FIXTURES.items():
            if fixture_name in used and item.get_closest_marker(marker) is None:
                item.add_marker(getattr(pytest.mark, marker))
        needs_processes = "browser" in used or "browser_bfcache" in used or "daphne_server" in used
        if needs_processes and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
    # The long tests first: parallel workers then finish together instead of one of them running the
    # last sweep alone while the others are idle (the order within each kind stays the collection order).
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _required_services(request: pytest.FixtureRequest) -> None:
    """A test marked ``postgres``/``redis``/``chromium`` gets its service checked even without the fixture."""
    for marker, fixture_name in MARKER_FIXTURE.items():
        if request.node.get_closest_marker(marker) is not None:
            request.getfixturevalue(fixture_name)


# -------------------------------------------------------------------------------------- PostgreSQL
def _pg_connect(url: str, **kwargs: Any) -> Any:
    import psycopg

    return psycopg.connect(url, connect_timeout=5, autocommit=True, **kwargs)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of a reachable PostgreSQL server's maintenance database (``TEST_POSTGRES_URL``)."""
    url = os.environ.get("TEST_POSTGRES_URL") or DEFAULT_POSTGRES_URL
    try:
        with _pg_connect(url) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure to talk to the server means "not available"
        service_missing("PostgreSQL", f"{url} does not answer ({type(exc).__name__}: {exc})".strip())
    return url


def _pg_create(server_url: str, name: str, template: str | None = None) -> str:
    from psycopg import sql

    statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template:
        statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template)
        )
    with _pg_connect(server_url) as conn:
        conn.execute(statement)
    return with_database(server_url, name)


def _pg_drop(server_url: str, name: str) -> None:
    from psycopg import sql

    with _pg_connect(server_url) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@contextlib.contextmanager
def _pg_template(server_url: str, *commands: tuple[str, ...]) -> Iterator[str]:
    """A database prepared once by ``manage.py`` commands, then cloned per test (cheap)."""
    name = f"mft_tpl_{secrets.token_hex(4)}"
    url = _pg_create(server_url, name)
    try:
        for command in commands:
            run_manage(*command, DATABASE_URL=url)
        yield name
    finally:
        _pg_drop(server_url, name)


@pytest.fixture(scope="session")
def _pg_migrated_template(postgres_url: str) -> Iterator[str]:
    with _pg_template(postgres_url, ("migrate", "--noinput")) as name:
        yield name


@pytest.fixture(scope="session")
def _pg_catalog_template(postgres_url: str) -> Iterator[str]:
    with _pg_template(postgres_url, ("migrate", "--noinput"), ("load_catalog",)) as name:
        yield name


@contextlib.contextmanager
def _pg_clone(server_url: str, template: str) -> Iterator[str]:
    name = f"mft_{secrets.token_hex(6)}"
    url = _pg_create(server_url, name, template=template)
    try:
        yield url
    finally:
        _pg_drop(server_url, name)


@pytest.fixture
def pg_database(postgres_url: str, _pg_migrated_template: str) -> Iterator[str]:
    """``DATABASE_URL`` of a fresh, migrated PostgreSQL database, dropped after the test."""
    with _pg_clone(postgres_url, _pg_migrated_template) as url:
        yield url


@pytest.fixture
def pg_empty_database(postgres_url: str) -> Iterator[str]:
    """``DATABASE_URL`` of a fresh, empty PostgreSQL database (no migrations), dropped after the test."""
    name = f"mft_{secrets.token_hex(6)}"
    url = _pg_create(postgres_url, name)
    try:
        yield url
    finally:
        _pg_drop(postgres_url, name)


@pytest.fixture
def pg_catalog_database(postgres_url: str, _pg_catalog_template: str) -> Iterator[str]:
    """Like ``pg_database``, with the card catalog loaded."""
    with _pg_clone(postgres_url, _pg_catalog_template) as url:
        yield url


@contextlib.contextmanager
def default_database(url: str) -> Iterator[None]:
    """Point Django's ``default`` alias at ``url`` in every thread for the duration of the block."""
    import dj_database_url
    from asgiref.sync import SyncToAsync
    from django.db import connections

    def forget_default() -> None:
        if hasattr(connections._connections, "default"):
            connections["default"].close()
            del connections["default"]

    def everywhere(fn: Callable[[], None]) -> None:
        fn()  # this thread
        executor = getattr(SyncToAsync, "single_thread_executor", None)  # database_sync_to_async's thread
        if executor is not None:
            executor.submit(fn).result()

    previous = connections.settings["default"]
    configured = connections.configure_settings({"default": dj_database_url.parse(url, conn_max_age=0)})
    everywhere(forget_default)
    connections.settings["default"] = configured["default"]
    try:
        yield
    finally:
        everywhere(forget_default)
        connections.settings["default"] = previous


@pytest.fixture
def database_as_default(django_db_blocker: Any) -> Callable[[str], contextlib.AbstractContextManager[None]]:
    """``with database_as_default(url): ...`` — ``pg_default`` for just a block of a test."""

    @contextlib.contextmanager
    def switch(url: str) -> Iterator[None]:
        with django_db_blocker.unblock(), default_database(url):
            yield

    return switch


@pytest.fixture
def pg_default(pg_database: str, django_db_blocker: Any) -> Iterator[str]:
    """Run this test's in-process Django code against a fresh migrated PostgreSQL database."""
    with django_db_blocker.unblock(), default_database(pg_database):
        yield pg_database


@pytest.fixture
def pg_catalog_default(pg_catalog_database: str, django_db_blocker: Any) -> Iterator[str]:
    """``pg_default`` with the catalog loaded."""
    with django_db_blocker.unblock(), default_database(pg_catalog_database):
        yield pg_catalog_database


# ------------------------------------------------------------------------------------------- Redis
def _redis_db_for_worker(url: str) -> str:
    """Give each pytest-xdist worker its own Redis database (counting down from the URL's, 15 by default;
    never 0), so the session flush of one worker never hits another's keys."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return url
    path = urlsplit(url).path.strip("/")
    base = int(path) if path.isdigit() else 15
    db = base - int(worker[2:]) % 15
    return with_database(url, str(db if db >= 1 else db + 15))


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of a reachable Redis database (``TEST_REDIS_URL``), flushed at the start of the session."""
    import redis

    url = _redis_db_for_worker(os.environ.get("TEST_REDIS_URL") or DEFAULT_REDIS_URL)
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=5)
        client.ping()
        client.flushdb()
        client.close()
    except Exception as exc:
        service_missing("Redis", f"{url} does not answer ({type(exc).__name__}: {exc})")
    return url


@pytest.fixture
def redis_channel_layer(redis_url: str) -> Any:
    """The Redis channel layer configured by the project's settings code with ``REDIS_URL=redis_url``."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    config = _settings_in_subprocess({"REDIS_URL": redis_url})["CHANNEL_LAYERS"]["default"]
    assert config["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer", config
    return RedisPubSubChannelLayer(**config["CONFIG"])


def _settings_in_subprocess(env: dict[str, str | None]) -> dict[str, Any]:
    """Evaluate magicfootball.settings in a fresh interpreter with ``env`` and return its JSON-able parts."""
    import json

    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps({'DATABASES': settings.DATABASES, 'CHANNEL_LAYERS': settings.CHANNEL_LAYERS,"
        " 'DEBUG': settings.DEBUG, 'ALLOWED_HOSTS': settings.ALLOWED_HOSTS,"
        " 'CSRF_TRUSTED_ORIGINS': settings.CSRF_TRUSTED_ORIGINS, 'SECRET_KEY': settings.SECRET_KEY,"
        " 'SERVE_STATIC': settings.SERVE_STATIC,"
        " 'SECURE_PROXY_SSL_HEADER': getattr(settings, 'SECURE_PROXY_SSL_HEADER', None)}, default=str))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=subprocess_env(DJANGO_SETTINGS_MODULE="magicfootball.settings", **env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, f"settings failed to load with {env}:\n{proc.stderr}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def settings_with_env() -> Callable[..., dict[str, Any]]:
    """``settings_with_env(REDIS_URL=..., DATABASE_URL=None)`` → the settings a fresh process would see."""
    return lambda **env: _settings_in_subprocess(env)


def run_django_code(code: str, timeout: float = 120, **env: str | None) -> str:
    """Run ``code`` in a fresh interpreter after ``django.setup()`` with ``env``; return its stdout."""
    prelude = "import django\ndjango.setup()\n"
    proc = subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        env=subprocess_env(DJANGO_SETTINGS_MODULE="magicfootball.settings", **env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        pytest.fail(f"subprocess failed ({proc.returncode}) with {env}:\n{proc.stderr}", pytrace=False)
    return proc.stdout


@pytest.fixture
def django_subprocess() -> Callable[..., str]:
    """``django_subprocess(code, REDIS_URL=url)``: Django code in a fresh process with that env."""
    return run_django_code


# ---------------------------------------------------------------------------------------- Chromium
@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium (``CHROMIUM_PATH``, default /usr/bin/chromium), with Playwright importable."""
    path = os.environ.get("CHROMIUM_PATH") or DEFAULT_CHROMIUM
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        service_missing("Chromium", f"{path} is not installed (apt-get install -y chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        service_missing("Playwright", f"the playwright package is not importable ({exc})")
    return path


# ------------------------------------------------------------------------------------------- Caddy
@pytest.fixture(scope="session")
def caddy_path() -> str:
    """Caddy, the deployment's proxy (Debian's package), to validate deploy/Caddyfile with."""
    path = shutil.which("caddy")
    if path is None:
        service_missing("Caddy", "it is not installed (apt-get install -y caddy)")
    return path


@contextlib.contextmanager
def _chromium(chromium_path: str, ignore: tuple[str, ...] = ()) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=list(CHROMIUM_ARGS),
            ignore_default_args=list(ignore),
        )
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def browser(chromium_path: str) -> Iterator[Any]:
    """A headless Chromium (Playwright ``Browser``) for this test; open contexts/pages from it.

    Function-scoped on purpose: Playwright's sync API keeps an asyncio loop running in the main thread
    while it is open, which makes Django refuse ORM calls (SynchronousOnlyOperation) and pytest-asyncio
    refuse to start its loop. Closing it after each test keeps every other test unaffected. Inside a browser
    test, talk to the app over HTTP (``daphne_server``), not through the ORM.
    """
    with _chromium(chromium_path) as instance:
        yield instance


@pytest.fixture
def browser_bfcache(chromium_path: str) -> Iterator[Any]:
    """``browser`` with the back/forward cache on, as in a user's Chromium (Playwright turns it off):
    the browser's Back then restores a page as it was left (``pageshow`` with ``persisted``). Use it
    instead of ``browser``, not with it (one Playwright per test)."""
    with _chromium(chromium_path, ignore=("--disable-back-forward-cache",)) as instance:
        yield instance


# ----------------------------------------------------------------------------------- real processes
@pytest.fixture
def manage() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``manage("migrate", database_url=url)``: run manage.py in a subprocess (SQLite when no URL)."""

    def run(
        *args: str, database_url: str | None = None, **env: str | None
    ) -> subprocess.CompletedProcess[str]:
        return run_manage(*args, DATABASE_URL=database_url, **env)

    return run


def server_command(port: int, server: str = "daphne") -> list[str]:
    """The command that serves the project on 127.0.0.1:``port``: daphne (the default, ``make run``) or
    uvicorn as docker-compose.yml runs it (``python -m magicfootball.serve``)."""
    from magicfootball import serve

    return serve.argv(server, "127.0.0.1", port)


@dataclass
class DaphneServer:
    """A server process (daphne, or uvicorn) serving the project; ``url`` ends without a slash
    (``http://127.0.0.1:PORT``)."""

    url: str
    process: subprocess.Popen[str]
    log_path: Path
    env: dict[str, str] = field(repr=False)
    command: list[str] = field(default_factory=list, repr=False)

    def log(self) -> str:
        """What the server printed so far (for assertion messages)."""
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def wait_for_http(url: str, process: subprocess.Popen[str] | None = None, timeout: float = 90) -> None:
    """Poll ``url`` until it answers 200 (raises TimeoutError, or RuntimeError if the process died).

    The timeout only bounds a hang: a server's start (Django's imports) took over 30 s on a 2-core machine
    kept busy by other load in the flaky check, and a process that dies is reported at once anyway."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with code {process.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
            last = exc
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout} s (last error: {last})")


class SqliteTemplates:
    """Migrated SQLite databases (with and without the catalog), made once per test process by
    ``manage.py`` and copied for each server: migrating and loading the catalog in subprocesses costs
    seconds that every server start would otherwise pay again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: dict[bool, Path] = {}

    def copy_to(self, target: Path, *, catalog: bool) -> None:
        """Write a migrated database (with the catalog loaded when ``catalog``) at ``target``."""
        import sqlite3

        template = self.made.get(catalog)
        if template is None:
            template = self.folder / f"template-{'catalog' if catalog else 'migrated'}.sqlite3"
            run_manage("migrate", "--noinput", DATABASE_URL=None, SQLITE_PATH=str(template))
            if catalog:
                run_manage("load_catalog", DATABASE_URL=None, SQLITE_PATH=str(template))
            self.made[catalog] = template
        source, copy = sqlite3.connect(template), sqlite3.connect(target)
        try:
            source.backup(copy)  # the backup API copies a database in WAL mode consistently
        finally:
            source.close()
            copy.close()


@pytest.fixture(scope="session")
def sqlite_templates(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplates:
    """Migrated SQLite databases to copy for servers (``SqliteTemplates``)."""
    return SqliteTemplates(tmp_path_factory.mktemp("sqlite-templates"))


@pytest.fixture
def daphne_server(tmp_path: Path, sqlite_templates: SqliteTemplates) -> Iterator[Callable[..., DaphneServer]]:
    """Factory that starts daphne with the real ASGI app; every server started is stopped after the test."""
    servers: list[DaphneServer] = []

    def start(
        *,
        database_url: str | None = None,
        redis_url: str | None = None,
        catalog: bool = False,
        migrate: bool = True,
        env: dict[str, str] | None = None,
        server: str = "daphne",
    ) -> DaphneServer:
        port = free_port()
        overrides: dict[str, str | None] = {
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "SQLITE_PATH": None if database_url else str(tmp_path / f"daphne-{port}.sqlite3"),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DEBUG": "false",
            **(env or {}),
        }
        sqlite_path = overrides["SQLITE_PATH"]
        if migrate and sqlite_path and not Path(sqlite_path).exists():
            # a PostgreSQL database from pg_database is migrated already; a new SQLite file is a copy
            sqlite_templates.copy_to(Path(sqlite_path), catalog=catalog)
        elif migrate and not database_url:
            run_manage("migrate", "--noinput", **overrides)
            if catalog:
                run_manage("load_catalog", **overrides)
        elif catalog:
            run_manage("load_catalog", **overrides)
        log_path = tmp_path / f"daphne-{port}.log"
        child_env = subprocess_env(**overrides)
        with log_path.open("w") as log:
            process = subprocess.Popen(
                server_command(port, server),
                cwd=ROOT,
                env=child_env,
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
            )
        started = DaphneServer(
            url=f"http://127.0.0.1:{port}",
            process=process,
            log_path=log_path,
            env=child_env,
            command=server_command(port, server),
        )
        servers.append(started)
        try:
            wait_for_http(started.url + "/healthz", process)
        except (TimeoutError, RuntimeError) as exc:
            started.stop()
            pytest.fail(f"{server} did not start: {exc}\n--- log\n{started.log()}", pytrace=False)
        return started

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language: a request in Dutch leaves Dutch active in its thread, and a
    later test that renders text without a request would otherwise read Dutch (seen when the i18n pages'
    tests ran before the log's)."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_process_caches() -> Iterator[None]:
    """Each test starts with empty per-process caches: rolled-back test databases reuse game ids, so a
    snapshot cached by an earlier test must never be mistaken for a later test's game."""
    from tournament.services.store import cache, recent_events

    cache.clear()
    recent_events.clear()
    yield
    cache.clear()
    recent_events.clear()
