"""SQLite's log is checkpointed in the background, never inside a commit (magicfootball/sqlite.py).

With SQLite's automatic checkpoint one action in about a hundred took 10-14 ms longer, on every screen
(issue 10). The project's connections turn it off; a thread per process copies the log back instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

WRITER = """
import json, os, time
from django.db import connection, transaction
with connection.cursor() as c:
    c.execute('PRAGMA wal_autocheckpoint'); auto = c.fetchone()[0]
    c.execute('CREATE TABLE IF NOT EXISTS filler (x BLOB)')
wal = connection.settings_dict['NAME'] + '-wal'
largest = 0
for _ in range(160):                       # ~10 MB in 160 commits over ~2 s, like a busy room
    with transaction.atomic():
        with connection.cursor() as c:
            c.execute('INSERT INTO filler VALUES (randomblob(64000))')
    largest = max(largest, os.path.getsize(wal))
    time.sleep(0.012)
print(json.dumps({'auto': auto, 'largest': largest}))
"""


def _run(path: Path, django_subprocess: Callable[..., str], code: str) -> dict[str, int]:
    out = django_subprocess(code, DATABASE_URL=None, SQLITE_PATH=str(path))
    return json.loads(out.strip().splitlines()[-1])


def test_commits_never_checkpoint_and_the_background_keeps_the_log_small(
    tmp_path: Path, django_subprocess: Callable[..., str]
) -> None:
    facts = _run(tmp_path / "game.sqlite3", django_subprocess, WRITER)
    assert facts["auto"] == 0, "a commit must never run the checkpoint itself"
    assert facts["largest"] < 4 * 2**20, f"the log grew to {facts['largest']:,} bytes"


def test_without_the_background_thread_the_log_only_grows(
    tmp_path: Path, django_subprocess: Callable[..., str]
) -> None:
    """The control: with the checkpointer disconnected the same writes leave ~10 MB of log."""
    code = (
        "from django.db.backends.signals import connection_created\n"
        "connection_created.disconnect(dispatch_uid='sqlite-checkpoint')\n" + WRITER
    )
    facts = _run(tmp_path / "game.sqlite3", django_subprocess, code)
    assert facts["largest"] > 8 * 2**20
