//! The SQLite store: the embedded default, one server process per file (a file lock says so).
//!
//! The connections live on their own threads ([`worker`]): writes go to one writer that commits
//! whatever queued up in one transaction (group commit), reads to a few readers beside it (WAL). WAL
//! with `synchronous = NORMAL` for moves and the queue: a committed write survives the process being
//! killed, and a power cut may take back the last of them; the end of a game and a registration commit
//! with `synchronous = FULL` ([`worker`]'s durable writes), so once answered they survive a power cut,
//! with everything committed before them. Every method here is one request to those threads, so each
//! write is one transaction with nothing interleaved, which is what makes the checks below (the move
//! count, the deadline, `finished`) race-free without row locks.
//!
//! The methods by topic: [`players`], [`queue`] (instances and matchmaking), [`games`]; the schema and
//! its migrations in [`schema`], the file lock in [`lock`].

mod games;
mod lock;
mod players;
mod queue;
mod schema;
mod worker;

#[cfg(test)]
pub(super) use schema::VERSION;

use super::common::{
    by_size, color_from_word, color_word, conn_from_db, conn_to_db, move_refusal, partners, rekeyed,
};
use super::{
    now_ms, CreatePlayerError, Finish, GameRow, InstanceId, Millis, MoveRefusal, NewGame,
    OpenError, PlayerRow, RecordRow, SeekOutcome, SeekRow, StoreError,
};
use crate::matchmaking::pair_colors;
use gridarena_engine::go::online::GameId;
use rusqlite::{params, Connection, ErrorCode, OptionalExtension};
use std::path::Path;
use std::time::Duration;
use worker::{Workers, READERS};

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(format!("SQLite: {e}"))
    }
}

impl From<StoreError> for CreatePlayerError {
    fn from(e: StoreError) -> Self {
        CreatePlayerError::Store(e)
    }
}

/// The store on a SQLite file (or in memory).
pub struct SqliteStore {
    workers: Workers,
}

/// How long a connection waits for a lock before it gives up (only a checkpoint or another tool on the
/// file could hold one).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // In memory the journal mode stays "memory"; that is fine.
    let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
}

fn other(e: rusqlite::Error) -> OpenError {
    OpenError::Other(e.into())
}

impl SqliteStore {
    /// Opens (or creates) the file at `path`, locks it for this process, switches it to WAL and
    /// migrates its schema.
    pub async fn open(path: &Path) -> Result<SqliteStore, OpenError> {
        let path = path.to_path_buf();
        blocking(move || {
            let lock = lock::lock(&path)?;
            let mut writer = Connection::open(&path).map_err(other)?;
            configure(&writer).map_err(other)?;
            schema::migrate(&mut writer, schema::VERSION)?;
            let readers = (0..READERS)
                .map(|_| {
                    let conn = Connection::open(&path)?;
                    conn.busy_timeout(BUSY_TIMEOUT)?;
                    conn.execute_batch("PRAGMA query_only = ON")?;
                    Ok(conn)
                })
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(other)?;
            let workers = Workers::start(writer, readers, Some(lock)).map_err(OpenError::Other)?;
            Ok(SqliteStore { workers })
        })
        .await
    }

    /// A private database in memory: one connection, on the writer thread.
    pub async fn open_in_memory() -> Result<SqliteStore, OpenError> {
        blocking(|| {
            let mut conn = Connection::open_in_memory().map_err(other)?;
            configure(&conn).map_err(other)?;
            schema::migrate(&mut conn, schema::VERSION)?;
            let workers = Workers::start(conn, Vec::new(), None).map_err(OpenError::Other)?;
            Ok(SqliteStore { workers })
        })
        .await
    }

    /// How many write requests the writer thread has run, and in how many transactions (group commit
    /// makes the second smaller under load).
    pub fn write_stats(&self) -> (u64, u64) {
        self.workers.stats()
    }

    pub(super) async fn schema_version(&self) -> Result<i64, StoreError> {
        self.workers
            .read(|c| Ok(c.query_row("SELECT version FROM schema_version", [], |r| r.get(0))?))
            .await
    }

    /// Sets the schema version by hand (tests of the newer-schema refusal).
    #[cfg(test)]
    pub(super) async fn force_version(&self, version: i64) -> Result<(), StoreError> {
        self.workers
            .write(move |c| {
                c.execute("UPDATE schema_version SET version = ?1", [version])?;
                Ok(())
            })
            .await
    }
}

/// Brings the file at `path` to schema version `target` and no further (tests of the migrations).
#[cfg(test)]
pub(super) fn migrate_to(path: &Path, target: i64) -> Result<(), OpenError> {
    let mut conn = Connection::open(path).map_err(other)?;
    schema::migrate(&mut conn, target)
}

/// Runs blocking start-up work (opening files, migrating) off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, OpenError> + Send + 'static,
) -> Result<T, OpenError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(OpenError::Other(StoreError(format!(
            "opening the database failed: {e}"
        ))))
    })
}
