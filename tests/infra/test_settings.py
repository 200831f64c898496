"""Settings come from the environment only; each case runs in a fresh process that re-reads them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

SettingsWithEnv = Callable[..., dict[str, Any]]


def test_database_url_selects_postgresql_through_psycopg3(
    settings_with_env: SettingsWithEnv, django_subprocess: Callable[..., str]
) -> None:
    url = "postgresql://mft:secret@db.example:6543/games"
    db = settings_with_env(DATABASE_URL=url)["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["PORT"], db["NAME"], db["USER"], db["PASSWORD"]) == (
        "db.example",
        6543,
        "games",
        "mft",
        "secret",
    )
    assert db["CONN_MAX_AGE"] == 0, "persistent connections must stay off under ASGI"
    driver = django_subprocess(
        "from django.db import connection as c; print(c.Database.__name__, c.Database.__version__)",
        DATABASE_URL=url,
    ).split()
    assert driver[0] == "psycopg" and int(driver[1].split(".")[0]) == 3


def test_without_database_url_sqlite_runs_in_wal_with_immediate_transactions(
    tmp_path: Path, settings_with_env: SettingsWithEnv, django_subprocess: Callable[..., str]
) -> None:
    path = tmp_path / "game.sqlite3"
    db = settings_with_env(DATABASE_URL=None, SQLITE_PATH=str(path))["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(path)
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    # what a real connection does with those options
    out = django_subprocess(
        "import json\n"
        "from django.db import connection, transaction\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode'); mode = c.fetchone()[0]\n"
        "    c.execute('PRAGMA busy_timeout'); busy = c.fetchone()[0]\n"
        "with transaction.atomic():\n"
        "    with connection.cursor() as c:\n"
        "        c.execute('CREATE TABLE IF NOT EXISTS t (x int)')\n"
        "print(json.dumps({'mode': mode, 'busy': busy, 'tx': connection.transaction_mode}))",
        DATABASE_URL=None,
        SQLITE_PATH=str(path),
    )
    facts = json.loads(out.strip().splitlines()[-1])
    assert facts == {"mode": "wal", "busy": 20000, "tx": "IMMEDIATE"}
    header = path.read_bytes()[:20]
    assert header[18:20] == b"\x02\x02", "the database file is not in WAL mode (header bytes 18-19)"


def test_redis_url_selects_channels_redis(settings_with_env: SettingsWithEnv) -> None:
    layers = settings_with_env(REDIS_URL="redis://cache.example:6380/2")["CHANNEL_LAYERS"]
    assert layers["default"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layers["default"]["CONFIG"] == {"hosts": ["redis://cache.example:6380/2"]}


def test_without_redis_url_the_layer_is_in_memory(settings_with_env: SettingsWithEnv) -> None:
    layers = settings_with_env(REDIS_URL=None)["CHANNEL_LAYERS"]
    assert layers == {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def test_secret_key_allowed_hosts_debug_and_csrf_origins_come_from_the_environment(
    settings_with_env: SettingsWithEnv,
) -> None:
    configured = settings_with_env(
        SECRET_KEY="s3cret-for-test",
        ALLOWED_HOSTS="game.example, 10.0.0.5 ,",
        DEBUG="true",
        CSRF_TRUSTED_ORIGINS="https://game.example",
        SERVE_STATIC="0",
        BEHIND_PROXY="yes",
    )
    assert configured["SECRET_KEY"] == "s3cret-for-test"
    assert configured["ALLOWED_HOSTS"] == ["game.example", "10.0.0.5"]
    assert configured["DEBUG"] is True
    assert configured["CSRF_TRUSTED_ORIGINS"] == ["https://game.example"]
    assert configured["SERVE_STATIC"] is False
    assert configured["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_defaults_are_safe_for_make_run(settings_with_env: SettingsWithEnv) -> None:
    defaults = settings_with_env(
        SECRET_KEY=None,
        ALLOWED_HOSTS=None,
        DEBUG=None,
        CSRF_TRUSTED_ORIGINS=None,
        SERVE_STATIC=None,
        BEHIND_PROXY=None,
    )
    assert defaults["DEBUG"] is False
    assert defaults["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"]
    assert defaults["SERVE_STATIC"] is True
    assert defaults["SECURE_PROXY_SSL_HEADER"] is None, "X-Forwarded-Proto is trusted only behind the proxy"
