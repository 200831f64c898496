"""SQLite's write-ahead log is copied back in the background, never inside a player's commit.

In WAL mode SQLite copies the log into the database file (a checkpoint) whenever a commit makes the log
cross 1,000 pages, inside that commit: about one action in a hundred took 10-14 ms longer, on every
screen at once (issue 10, docs/PERFORMANCE.md). Our connections switch that off (``PRAGMA
wal_autocheckpoint=0`` in the settings) and one thread per process checkpoints instead, on its own
connection and in PASSIVE mode, which never waits for or blocks a reader or a writer; the sqlite3 module
releases the GIL while SQLite works. A short-lived process needs nothing more: the last connection to
close a database checkpoints its log.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from typing import Any

log = logging.getLogger(__name__)

INTERVAL = 0.25  # seconds between looks at the log's size
THRESHOLD = 1 << 20  # bytes of log worth copying back (256 pages of 4 KiB)
RESTART_TRIES = 50  # small follow-up checkpoints per round, 2 ms apart
RESTARTED_BELOW = 64  # frames: a log this short was restarted since the big copy

_lock = threading.Lock()
_running: dict[str, int] = {}  # database file -> the process whose thread checkpoints it


def checkpoint_in_background(path: str) -> bool:
    """Start this process's checkpointer for the database file ``path`` (once); True if it started now."""
    pid = os.getpid()
    with _lock:
        if _running.get(path) == pid:
            return False
        _running[path] = pid  # a forked child inherits the entry, not the thread: it starts its own
    threading.Thread(target=_checkpoint_loop, args=(path, pid), name="sqlite-checkpoint", daemon=True).start()
    return True


def checkpoint_once(path: str, conn: sqlite3.Connection | None = None) -> tuple[int, int, int]:
    """One passive checkpoint: (busy, frames in the log, frames copied back)."""
    own = conn is None
    conn = conn or sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    cursor = conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    try:
        busy, frames, copied = cursor.fetchone()
        return busy, frames, copied
    finally:
        cursor.close()  # an unfinished statement would hold a read mark: the log could never restart
        if own:
            conn.close()


def _checkpoint_loop(path: str, pid: int) -> None:
    wal = path + "-wal"
    conn: sqlite3.Connection | None = None
    try:
        while os.path.exists(path):  # a deleted database (a test's) ends its thread
            time.sleep(INTERVAL)
            try:
                if os.path.getsize(wal) < THRESHOLD:
                    continue
            except OSError:  # no log yet
                continue
            try:
                if conn is None:
                    conn = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
                _catch_up(path, conn)
            except sqlite3.Error:
                log.warning("background checkpoint of %s failed; retrying", path, exc_info=True)
                if conn is not None:
                    conn.close()
                    conn = None
    finally:
        if conn is not None:
            conn.close()
        with _lock:
            if _running.get(path) == pid:
                del _running[path]


def _catch_up(path: str, conn: sqlite3.Connection) -> None:
    """Copy the log back until a writer can start it afresh.

    A writer restarts the log only if, when its transaction begins, every committed page has been copied
    back; a checkpoint that overlaps a commit misses that chance. So after the big copy come small ones
    (only the pages committed meanwhile), until one falls between two commits and the log restarts.
    """
    for _ in range(RESTART_TRIES):
        _busy, frames, _copied = checkpoint_once(path, conn)
        if frames < RESTARTED_BELOW:  # the log was started afresh since (or is nearly empty)
            return
        time.sleep(0.002)


def connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Django's ``connection_created`` signal: file databases of SQLite get a background checkpointer."""
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return
    checkpoint_in_background(str(connection.settings_dict["NAME"]))
