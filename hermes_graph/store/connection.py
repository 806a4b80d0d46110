"""Opening the SQLite file: connection settings, WAL mode and migrations."""

from __future__ import annotations

import sqlite3
import time

from hermes_graph.config import MemoryConfig
from hermes_graph.errors import InvalidInputError
from hermes_graph.store.keywords import ensure_scheme
from hermes_graph.store.migrations import migrate


def open_database(path: str, config: MemoryConfig, *, now: str) -> sqlite3.Connection:
    """Connect, set the pragmas and migrate; the connection is closed if that fails."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                           timeout=config.busy_timeout_ms / 1000)
    try:
        conn.row_factory = sqlite3.Row
        _enable_wal(conn, config.busy_timeout_ms / 1000)
        for pragma in (f"busy_timeout = {config.busy_timeout_ms}", "secure_delete = ON",
                       "synchronous = NORMAL"):
            conn.execute(f"PRAGMA {pragma}")
        migrate(conn, now=now)
        ensure_scheme(conn)
    except BaseException as exc:
        conn.close()
        if type(exc) is sqlite3.DatabaseError:  # e.g. "file is not a database"
            raise InvalidInputError(f"store path {path!r} is not a SQLite database: {exc}"
                                    ) from None
        raise
    return conn


def _enable_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch to WAL, retrying while another process holds the lock.

    When two processes open a new file at once, both hold a shared lock and
    want an exclusive one; SQLite then reports "database is locked" at once
    instead of calling the busy handler, so the wait is done here.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.005)
