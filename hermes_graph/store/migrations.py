"""Append-only schema migrations with a version table.

Never edit or reorder an entry: add a new one at the end. Entry *i* moves the
schema from version *i* to *i + 1*.
"""

from __future__ import annotations

import sqlite3

from hermes_graph.errors import SchemaVersionError

MIGRATIONS: tuple[str, ...] = (
    # v1: memories, keyword index, transitions, history, per-scope state
    """
    CREATE TABLE memories (
        id INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        kind TEXT NOT NULL,
        category TEXT NOT NULL,
        content TEXT NOT NULL,
        norm_key TEXT NOT NULL,
        subject TEXT NOT NULL,
        qualifiers TEXT NOT NULL DEFAULT '[]',
        slot TEXT,
        importance INTEGER NOT NULL,
        confidence REAL NOT NULL,
        source TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        last_used_at TEXT,
        use_count INTEGER NOT NULL DEFAULT 0,
        confirm_count INTEGER NOT NULL DEFAULT 0,
        confirmations TEXT NOT NULL DEFAULT '[]',
        superseded_by INTEGER,
        override_of INTEGER,
        version INTEGER NOT NULL DEFAULT 1,
        source_ref TEXT NOT NULL DEFAULT '{}',
        embedding BLOB,
        embedder_id TEXT,
        dim INTEGER
    );
    CREATE INDEX idx_memories_scope_status ON memories(scope, status);
    CREATE INDEX idx_memories_scope_kind ON memories(scope, kind);
    CREATE INDEX idx_memories_scope_norm ON memories(scope, norm_key);
    CREATE INDEX idx_memories_scope_slot ON memories(scope, slot);
    CREATE VIRTUAL TABLE memory_fts USING fts5(
        scope_key, terms, tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TABLE transitions (
        id INTEGER PRIMARY KEY,
        memory_id INTEGER NOT NULL,
        scope TEXT NOT NULL,
        from_status TEXT,
        to_status TEXT NOT NULL,
        reason TEXT NOT NULL,
        actor TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX idx_transitions_scope_memory ON transitions(scope, memory_id);
    CREATE TABLE history (
        id INTEGER PRIMARY KEY,
        memory_id INTEGER NOT NULL,
        scope TEXT NOT NULL,
        version INTEGER NOT NULL,
        content TEXT NOT NULL,
        fields TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX idx_history_scope_memory ON history(scope, memory_id);
    CREATE TABLE scopes (
        scope TEXT PRIMARY KEY,
        embedder_id TEXT,
        dim INTEGER,
        version INTEGER NOT NULL DEFAULT 0
    );
    """,
    # v2: memory ids are never reused (AUTOINCREMENT), so the transition log and the
    # superseded_by/override_of links of an erased memory never name a later one
    """
    CREATE TABLE memories_v2 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        scope TEXT NOT NULL,
        kind TEXT NOT NULL,
        category TEXT NOT NULL,
        content TEXT NOT NULL,
        norm_key TEXT NOT NULL,
        subject TEXT NOT NULL,
        qualifiers TEXT NOT NULL DEFAULT '[]',
        slot TEXT,
        importance INTEGER NOT NULL,
        confidence REAL NOT NULL,
        source TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        last_used_at TEXT,
        use_count INTEGER NOT NULL DEFAULT 0,
        confirm_count INTEGER NOT NULL DEFAULT 0,
        confirmations TEXT NOT NULL DEFAULT '[]',
        superseded_by INTEGER,
        override_of INTEGER,
        version INTEGER NOT NULL DEFAULT 1,
        source_ref TEXT NOT NULL DEFAULT '{}',
        embedding BLOB,
        embedder_id TEXT,
        dim INTEGER
    );
    INSERT INTO memories_v2 SELECT * FROM memories;
    DROP TABLE memories;
    ALTER TABLE memories_v2 RENAME TO memories;
    CREATE INDEX idx_memories_scope_status ON memories(scope, status);
    CREATE INDEX idx_memories_scope_kind ON memories(scope, kind);
    CREATE INDEX idx_memories_scope_norm ON memories(scope, norm_key);
    CREATE INDEX idx_memories_scope_slot ON memories(scope, slot);
    INSERT INTO sqlite_sequence (name, seq) SELECT 'memories', 0
        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'memories');
    UPDATE sqlite_sequence SET seq = MAX(seq,
        (SELECT COALESCE(MAX(memory_id), 0) FROM transitions),
        (SELECT COALESCE(MAX(memory_id), 0) FROM history)) WHERE name = 'memories';
    """,
    # v3: the transition log also records gate decisions that stored nothing (a dropped
    # candidate has no memory row: memory_id may be NULL), and names the session
    """
    CREATE TABLE transitions_v3 (
        id INTEGER PRIMARY KEY,
        memory_id INTEGER,
        scope TEXT NOT NULL,
        from_status TEXT,
        to_status TEXT NOT NULL,
        reason TEXT NOT NULL,
        actor TEXT NOT NULL,
        at TEXT NOT NULL,
        session TEXT
    );
    INSERT INTO transitions_v3 (id, memory_id, scope, from_status, to_status, reason, actor, at)
        SELECT id, memory_id, scope, from_status, to_status, reason, actor, at FROM transitions;
    DROP TABLE transitions;
    ALTER TABLE transitions_v3 RENAME TO transitions;
    CREATE INDEX idx_transitions_scope_memory ON transitions(scope, memory_id);
    """,
    # v4: per-term document counts of the keyword index, so a query can skip terms
    # that half the scope contains (they rank nothing and cost the most)
    """
    CREATE VIRTUAL TABLE memory_fts_vocab USING fts5vocab('memory_fts', 'row');
    """,
    # v5: the profile route lists a scope's most important memories: index that order
    """
    CREATE INDEX idx_memories_scope_importance ON memories(scope, importance DESC, id DESC);
    """,
    # v6: the keyword index holds per-scope tokens, so a query never walks the whole
    # scope's postings (``store.keywords``); it is filled from the memories' content
    # when the store opens, as is any later change of the term scheme (``store_meta``)
    """
    DROP TABLE memory_fts_vocab;
    DROP TABLE memory_fts;
    CREATE VIRTUAL TABLE memory_terms USING fts5(
        terms, tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE memory_terms_vocab USING fts5vocab('memory_terms', 'row');
    CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # v7: recall looks up the memories said in the turns after a hit (reply carry,
    # ``MemoryStore.follow_ups``) and those said on a day the query names (time anchor,
    # ``list(said_between=...)``): index the source session and turn, and the time said
    """
    CREATE INDEX idx_memories_scope_source_turn ON memories(
        scope, json_extract(source_ref, '$.session'), json_extract(source_ref, '$.turn'));
    CREATE INDEX idx_memories_scope_created ON memories(scope, created_at);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: sqlite3.Connection) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT)"
    )
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection, *, now: str) -> int:
    """Bring the schema up to :data:`SCHEMA_VERSION`; refuse a newer database."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = current_version(conn)
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"database schema version {version} is newer than this hermes-graph "
                f"supports ({SCHEMA_VERSION}); upgrade hermes-graph to open it"
            )
        for number in range(version, SCHEMA_VERSION):
            for statement in _split(MIGRATIONS[number]):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                (number + 1, now),
            )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return SCHEMA_VERSION


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
