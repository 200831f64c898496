"""The real-service fixtures do what tests/conftest.py promises (other areas build their tests on them)."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection, connections, transaction
from django.db.models import F

from tournament.models import Game


def make_game(code: str) -> Game:
    return Game.objects.create(code=code, host_key=f"host-{code}", seed=1)


def test_pg_default_runs_orm_code_from_many_threads_on_postgresql(pg_default: str) -> None:
    assert connection.vendor == "postgresql"
    game = make_game("THREADS")
    errors: list[BaseException] = []

    def bump() -> None:
        try:
            for _ in range(5):
                with transaction.atomic():
                    locked = Game.objects.select_for_update().get(pk=game.pk)
                    Game.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        except BaseException as exc:  # reported to the main thread below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=bump) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    game.refresh_from_db()
    assert game.version == 100, "row locks on PostgreSQL must serialise every increment"


def test_pg_default_reaches_database_sync_to_async(pg_default: str) -> None:
    @database_sync_to_async
    def vendor_and_count() -> tuple[str, int]:
        make_game("ASYNC")
        return connection.vendor, Game.objects.count()

    assert async_to_sync(vendor_and_count)() == ("postgresql", 1)


def test_database_as_default_switches_back_after_the_block(
    pg_database: str, database_as_default: Callable[[str], Any]
) -> None:
    assert connection.vendor == "sqlite"
    with database_as_default(pg_database):
        assert connection.vendor == "postgresql"
        make_game("BLOCK")
        assert async_to_sync(database_sync_to_async(Game.objects.count))() == 1
    assert connection.vendor == "sqlite"
    assert async_to_sync(database_sync_to_async(lambda: connection.vendor))() == "sqlite"


def test_pg_databases_are_isolated_per_test(pg_database: str, pg_empty_database: str) -> None:
    assert pg_database != pg_empty_database


def health(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/healthz", timeout=10) as response:
        return json.loads(response.read())


def test_two_daphne_replicas_share_postgresql_and_redis(
    daphne_server: Callable[..., Any], pg_database: str, redis_url: str
) -> None:
    first = daphne_server(database_url=pg_database, redis_url=redis_url)
    second = daphne_server(database_url=pg_database, redis_url=redis_url)
    assert first.url != second.url
    for server in (first, second):
        assert health(server.url) == {
            "status": "ok",
            "database": "postgresql",
            "channel_layer": "RedisPubSubChannelLayer",
        }
    first.stop()
    assert first.process.returncode is not None
    assert health(second.url)["status"] == "ok"


async def test_pg_default_reaches_the_executor_thread_of_async_tests(pg_default: str) -> None:
    """In an async test (no outer async_to_sync) database_sync_to_async runs in asgiref's executor thread."""

    @database_sync_to_async
    def vendor_and_thread() -> tuple[str, str]:
        return connection.vendor, threading.current_thread().name

    vendor, thread_name = await vendor_and_thread()
    assert vendor == "postgresql"
    assert thread_name != threading.main_thread().name
