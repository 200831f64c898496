"""Every migration applies on a fresh SQLite file and on a fresh PostgreSQL database, and none is missing."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import psycopg

ROOT = Path(__file__).resolve().parents[2]
# Tables the rest of the code relies on (a migration that drops one of these breaks everything).
CORE_TABLES = {
    "tournament_game",
    "tournament_participant",
    "tournament_account",
    "tournament_ledgerentry",
    "tournament_event",
    "tournament_actionrecord",
    "cards_catalogcard",
    "cards_cardcopy",
    "cards_match",
}
Manage = Callable[..., CompletedProcess[str]]


def project_migrations() -> set[tuple[str, str]]:
    """(app, name) of every migration file of our apps."""
    return {
        (app, path.stem)
        for app in ("tournament", "cards")
        for path in (ROOT / app / "migrations").glob("[0-9]*.py")
    }


def test_no_model_change_lacks_a_migration(manage: Manage, tmp_path: Path) -> None:
    proc = manage("makemigrations", "--check", "--dry-run", SQLITE_PATH=str(tmp_path / "check.sqlite3"))
    assert "No changes detected" in proc.stdout


def test_migrations_apply_on_a_fresh_sqlite_file(manage: Manage, tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    manage("migrate", "--noinput", SQLITE_PATH=str(path))
    with sqlite3.connect(path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        applied = set(conn.execute("SELECT app, name FROM django_migrations").fetchall())
    assert tables >= CORE_TABLES
    assert project_migrations() <= applied
    plan = manage("showmigrations", "--plan", SQLITE_PATH=str(path)).stdout
    assert "[ ]" not in plan


def test_migrations_apply_on_a_fresh_postgresql_database(manage: Manage, pg_empty_database: str) -> None:
    manage("migrate", "--noinput", database_url=pg_empty_database)
    with psycopg.connect(pg_empty_database) as conn:
        tables = {
            row[0] for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
        applied = set(conn.execute("SELECT app, name FROM django_migrations").fetchall())
        constraints = {
            row[0] for row in conn.execute("SELECT conname FROM pg_constraint WHERE contype IN ('c', 'u')")
        }
    assert tables >= CORE_TABLES
    assert project_migrations() <= applied
    # database constraints the services rely on exist for real on PostgreSQL
    assert {"ledger_amount_positive", "card_copy_one_per_game", "event_unique_seq"} <= constraints
    assert "[ ]" not in manage("showmigrations", "--plan", database_url=pg_empty_database).stdout


def test_pg_database_fixture_gives_a_migrated_database_of_its_own(pg_database: str) -> None:
    with psycopg.connect(pg_database) as conn:
        applied = set(conn.execute("SELECT app, name FROM django_migrations").fetchall())
        name = conn.execute("SELECT current_database()").fetchone()[0]
    assert project_migrations() <= applied
    assert name.startswith("mft_") and not name.startswith("mft_tpl_")
