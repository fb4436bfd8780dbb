//! The SQLite schema and its migrations. Version 1 is exactly what `db.rs` wrote, so a file made by an
//! older gridarena opens; version 2 adds what the store needs for several instances and for the clock:
//! per game its deadline, its clock's instance, its move count, how it ended, whether it is rated and
//! when it finished; the matchmaking queue (`seeks`); and the live instances (`instances`).
//! `postgres/schema.rs` is the same schema in PostgreSQL's dialect.

use crate::store::OpenError;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

/// Each migration brings the schema from version i to i + 1; applied in order, all in one transaction.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: players, per-size records, games, moves (db.rs's schema, unchanged).
    "CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        token_hash BLOB NOT NULL UNIQUE,
        wins INTEGER NOT NULL DEFAULT 0,
        losses INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE records (
        player_id INTEGER NOT NULL REFERENCES players(id),
        size INTEGER NOT NULL,
        wins INTEGER NOT NULL DEFAULT 0,
        losses INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (player_id, size)
    ) WITHOUT ROWID;
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        black_id INTEGER NOT NULL REFERENCES players(id),
        white_id INTEGER NOT NULL REFERENCES players(id),
        created_at INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        black_area INTEGER,
        white_area INTEGER,
        ended_at INTEGER
    );
    CREATE INDEX games_unfinished ON games (finished);
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        color TEXT NOT NULL,
        mv TEXT NOT NULL,
        played_at INTEGER NOT NULL,
        PRIMARY KEY (game_id, number)
    ) WITHOUT ROWID;
    CREATE INDEX players_wins ON players (wins DESC, losses ASC, name_key ASC);",
    // 2: the clock and the queue in the database, for instances that come and go.
    // Times: created_at, ended_at and played_at stay in seconds as in version 1; the new columns are
    // milliseconds since the Unix epoch. A version-1 file's finished games were all counted, so they are
    // rated; its unfinished games get 5 minutes from now (the server also calls `grace` at start-up).
    "ALTER TABLE games ADD COLUMN deadline_at INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN clock_instance TEXT;
    ALTER TABLE games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN end_reason TEXT;
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN finished_at INTEGER;
    UPDATE games SET move_count = (SELECT count(*) FROM moves m WHERE m.game_id = games.id);
    UPDATE games SET rated = 1, finished_at = ended_at * 1000,
        end_reason = CASE WHEN result LIKE '%+R' THEN 'resignation'
                          WHEN result LIKE '%+T' THEN 'time' ELSE 'passes' END
        WHERE finished = 1;
    UPDATE games SET deadline_at = CAST(unixepoch('subsec') * 1000 AS INTEGER) + 300000
        WHERE finished = 0;
    CREATE INDEX games_due ON games (clock_instance, deadline_at) WHERE finished = 0;
    CREATE INDEX games_black ON games (black_id, white_id);
    CREATE INDEX games_white ON games (white_id);
    CREATE TABLE instances (
        id TEXT PRIMARY KEY,
        seen_at INTEGER NOT NULL
    );
    CREATE TABLE seeks (
        seq INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL UNIQUE REFERENCES players(id),
        instance TEXT NOT NULL,
        conn INTEGER NOT NULL,
        size INTEGER NOT NULL,
        color TEXT NOT NULL
    );
    CREATE INDEX seeks_size ON seeks (size, seq);
    CREATE INDEX seeks_conn ON seeks (instance, conn);",
    // 3: `deadline_at` out of the clock index, which every move rewrote (in PostgreSQL this lets a
    // move update its game's row in place; here it spares an index write per move).
    "DROP INDEX games_due;
    CREATE INDEX games_due ON games (clock_instance) WHERE finished = 0;",
    // 4: the records count every decided game once both players moved (policy::is_counted), the
    // leaderboard ranks rated games only: `wins`/`losses` are the records, `rated_wins`/`rated_losses`
    // the leaderboard's. Until now only rated games were counted, so both start equal.
    "ALTER TABLE players ADD COLUMN rated_wins INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE players ADD COLUMN rated_losses INTEGER NOT NULL DEFAULT 0;
    UPDATE players SET rated_wins = wins, rated_losses = losses;
    DROP INDEX players_wins;
    CREATE INDEX players_rated ON players (rated_wins DESC, rated_losses ASC, name_key ASC);",
];

/// The version this code writes.
pub(in crate::store) const VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the schema up to version `target` (at most [`VERSION`]) in one transaction; refuses a
/// database newer than [`VERSION`].
pub(in crate::store) fn migrate(conn: &mut Connection, target: i64) -> Result<(), OpenError> {
    let other = |e: rusqlite::Error| OpenError::Other(e.into());
    conn.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .map_err(other)?;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(other)?;
    let found: Option<i64> = tx
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .optional()
        .map_err(other)?;
    let found = match found {
        Some(v) => v,
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", [])
                .map_err(other)?;
            0
        }
    };
    if found > VERSION {
        return Err(OpenError::NewerSchema {
            found,
            known: VERSION,
        });
    }
    for (version, sql) in (1..=target).zip(MIGRATIONS) {
        if version > found {
            tx.execute_batch(sql).map_err(other)?;
            tx.execute("UPDATE schema_version SET version = ?1", [version])
                .map_err(other)?;
        }
    }
    tx.commit().map_err(other)
}
