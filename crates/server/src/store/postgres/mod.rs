//! The PostgreSQL store: several server instances on one database.
//!
//! Connections come from a `deadpool-postgres` pool ([`POOL_SIZE`]); statements are prepared once per
//! connection and cached. Every rule that must hold across instances is one transaction with row
//! locks:
//! - `add_move` is one statement: it locks the game row (`FOR UPDATE`), checks that the game is
//!   unfinished, holds `number - 1` moves and is still in time, then stores the move, the new count and
//!   deadline, and notifies. Two instances storing the same move number: the second waits for the first
//!   and then finds the count moved on. Moves that arrive together share the statement ([`moves`]).
//! - `finish` is one statement too: `UPDATE games ... WHERE NOT finished AND move_count = ...` (which
//!   locks the row and re-checks it after any concurrent write), then the records, then the notification.
//! - `seek` takes a transaction-scoped advisory lock for the board size, so seeks of one size are
//!   serialised across instances (two requests arriving at once on two instances would otherwise each
//!   miss the other's uncommitted row and both wait), then takes the oldest compatible request from a
//!   live instance with `FOR UPDATE SKIP LOCKED` (a request that a `leave`, a `cancel` or a
//!   `keep_alive` is deleting is skipped rather than waited for).
//!
//! A deadlock or serialisation failure is retried (up to three times). Notifications ([`listen`]) go
//! out inside the writing transaction, so other instances hear of a write only once it is committed.
//!
//! The methods by topic: [`players`], [`queue`] (instances and matchmaking), [`games`]; the schema and
//! its migrations in [`schema`].
//!
//! **Durability: asynchronous commits for moves, synchronous ones for records.** The pool's
//! connections run with `synchronous_commit = off` unless the URL's `options` set it
//! (`?options=-c%20synchronous_commit%3Don`). A commit is then in PostgreSQL's memory, not yet on its
//! disk: it survives a gridarena server being killed, and only a crash of PostgreSQL itself or of its
//! machine may lose the last fraction of a second (at most three `wal_writer_delay`s, 600 ms by
//! default), never leaving the data inconsistent. The reason is NOTIFY: PostgreSQL serialises the
//! commits of transactions that notify (one lock on the notification queue, held until the commit is
//! written), so with a synchronous commit every move waits for every earlier move's disk flush.
//! Measured on the 2-core development machine with `fsync` on: 270 moves a second with synchronous
//! commits, whatever the concurrency, against about 2,000 with asynchronous ones (CPU-bound, as with
//! `fsync` off). So moves are asynchronous, and a power cut of the database's machine may take back
//! the last moves; but the end of a game (its result and the records it counts in) and a
//! registration (the token the page keeps) commit with [`SYNCHRONOUS`]: they are answered only once
//! on disk, and, the WAL being written in order, everything committed before them is too.
//!
//! **Timeouts.** A silent network partition (no reset) would otherwise hang a call for as long as TCP
//! retransmits (minutes to hours), with a game's lock held. So besides the store's own bound on every
//! call (`super::CALL_TIMEOUT`), every connection gets [`SESSION`]'s timeouts (a statement, a lock
//! wait, a transaction left idle: PostgreSQL ends them and frees their locks) and [`tcp_timeouts`]
//! (keepalives, a TCP user timeout, a connect timeout: the kernel drops a connection whose peer went
//! silent), unless the URL sets them; and the listening connection is probed ([`listen`]). Migrations
//! and the re-keying at start-up may take longer and lift the statement and lock timeouts for their
//! own transaction.
//!
//! **No TLS**: the connection is plain (`NoTls`). Reach a database on another machine over a trusted
//! network or through a TLS-terminating tunnel.

mod listen;
mod schema;

#[cfg(test)]
pub(super) use listen::{parse as parse_payload, APPLICATION_NAME};
#[cfg(test)]
pub(super) use schema::VERSION;

use super::common::{
    by_size, color_from_word, color_word, conn_from_db, conn_to_db, count, move_refusal, partners,
    rekeyed,
};
use super::{
    now_ms, CreatePlayerError, Event, Finish, GameRow, InstanceId, Millis, MoveRefusal, NewGame,
    OpenError, PlayerRow, RecordRow, SeekOutcome, SeekRow, StoreError,
};
use crate::matchmaking::pair_colors;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use gridarena_engine::go::online::GameId;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Config, NoTls, Row};

/// The settings every connection gets, unless the URL's `options` name them: asynchronous commits (see
/// "Durability"), and timeouts that PostgreSQL enforces itself, each below the store's 10-second bound
/// on a call, so that the database ends a stuck statement (and frees its locks) before the caller
/// gives up on it: a statement 5 s (the longest, a batch of 128 moves, takes milliseconds), a lock wait
/// 3 s (locks are held for one short transaction), a transaction left idle 10 s (its client vanished
/// in the middle: its row locks would block that game everywhere).
const SESSION: &[(&str, &str)] = &[
    ("synchronous_commit", "off"),
    ("statement_timeout", "5s"),
    ("lock_timeout", "3s"),
    ("idle_in_transaction_session_timeout", "10s"),
];

/// Said first in a transaction that may take long (a migration, the re-keying of every player).
pub(super) const NO_TIMEOUTS: &str = "SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0";

/// TCP keepalives: a probe after 5 s of silence, then every 2 s, 3 unanswered ones and the kernel
/// drops the connection (PostgreSQL's default would wait two hours).
const KEEPALIVE_IDLE: Duration = Duration::from_secs(5);
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(2);
const KEEPALIVE_RETRIES: u32 = 3;

/// Data sent and not acknowledged for this long drops the connection (TCP_USER_TIMEOUT; Linux).
const TCP_USER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long opening a connection's socket may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// PostgreSQL's default keepalive idle time, which a URL that says nothing leaves in place.
const DEFAULT_KEEPALIVE_IDLE: Duration = Duration::from_secs(2 * 60 * 60);

/// `config` with [`SESSION`]'s settings added to its `options`, each unless the options name it.
pub(super) fn with_session(mut config: Config) -> Config {
    let mut options = config.get_options().unwrap_or_default().to_owned();
    for (name, value) in SESSION {
        if !options.contains(name) {
            options = format!("{options} -c {name}={value}")
                .trim_start()
                .to_owned();
        }
    }
    config.options(options);
    config
}

/// `config` with the TCP timeouts above, each unless the URL set it (keepalives stay off if it turned
/// them off). Unix sockets ignore them.
pub(super) fn tcp_timeouts(mut config: Config) -> Config {
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(TCP_USER_TIMEOUT);
    }
    if config.get_keepalives_idle() == DEFAULT_KEEPALIVE_IDLE {
        config.keepalives_idle(KEEPALIVE_IDLE);
    }
    if config.get_keepalives_interval().is_none() {
        config.keepalives_interval(KEEPALIVE_INTERVAL);
    }
    if config.get_keepalives_retries().is_none() {
        config.keepalives_retries(KEEPALIVE_RETRIES);
    }
    config
}

/// Connections in the pool, per store.
const POOL_SIZE: usize = 16;

/// Events kept for a receiver that falls behind (it then gets `RecvError::Lagged`, and should reload
/// as for [`Event::Resync`]).
const EVENT_BUFFER: usize = 4096;

/// The advisory locks that serialise seeks, one per board size: this plus the size.
const SEEK_LOCK: i64 = 0x4752_4944_1000;

/// How many writes that notify (a move, an end, a pairing) one store runs at once; the others wait
/// their turn here rather than in PostgreSQL. PostgreSQL commits notifying transactions one at a time,
/// under one lock, and a crowd of them waiting for it gets slower, not faster: `add_move` from pgbench
/// on the 2-core development machine, 2 to 4 connections 5,000 a second, 16 or 32 connections 2,800.
const NOTIFIERS: usize = 4;

/// Said first in a transaction that must be on disk before it is answered (a game's end, a
/// registration), whatever the connection's default.
const SYNCHRONOUS: &str = "SET LOCAL synchronous_commit = on";

/// How often a write that hit a deadlock or a serialisation failure is tried again.
const RETRIES: u32 = 3;

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        match e.as_db_error() {
            Some(db) => StoreError(format!("PostgreSQL: {db}")),
            None => match std::error::Error::source(&e) {
                Some(cause) => StoreError(format!("PostgreSQL: {e}: {cause}")),
                None => StoreError(format!("PostgreSQL: {e}")),
            },
        }
    }
}

/// Whether a failed write may simply be tried again.
fn retryable(e: &tokio_postgres::Error) -> bool {
    matches!(
        e.code(),
        Some(&SqlState::T_R_DEADLOCK_DETECTED) | Some(&SqlState::T_R_SERIALIZATION_FAILURE)
    )
}

/// Runs `$body` (a block using `$client`, a pooled connection, whose `?` takes `tokio_postgres`
/// errors) and tries it again on a deadlock or serialisation failure.
macro_rules! retrying {
    ($self:ident, $client:ident => $body:block) => {{
        let mut attempt = 0;
        loop {
            #[allow(unused_mut)]
            let mut $client = $self.client().await?;
            let result: Result<_, tokio_postgres::Error> = async { $body }.await;
            match result {
                Err(e) if attempt < RETRIES && retryable(&e) => attempt += 1,
                other => break other.map_err(StoreError::from),
            }
        }
    }};
}

/// [`retrying!`] for a write that notifies, holding one of the store's [`NOTIFIERS`] permits.
macro_rules! notifying {
    ($self:ident, $client:ident => $body:block) => {{
        let _permit = $self
            .notifiers
            .acquire()
            .await
            .map_err(|_| StoreError("the store is closing".into()))?;
        retrying!($self, $client => $body)
    }};
}

mod games;
mod moves;
mod players;
mod queue;

/// The store on a PostgreSQL database.
pub struct PgStore {
    pool: Pool,
    notifiers: tokio::sync::Semaphore,
    moves: moves::Moves,
    events: broadcast::Sender<Event>,
    listener: JoinHandle<()>,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

fn col<'a, T: tokio_postgres::types::FromSql<'a>>(row: &'a Row, i: usize) -> Result<T, StoreError> {
    row.try_get(i).map_err(StoreError::from)
}

impl PgStore {
    /// Connects to `url`, migrates the schema (under an advisory lock), and starts listening for the
    /// events of other instances.
    pub async fn open(url: &str) -> Result<PgStore, OpenError> {
        let mut config: Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| OpenError::Other(e.into()))?;
        if config.get_application_name().is_none() {
            config.application_name("gridarena");
        }
        let config = with_session(tcp_timeouts(config));
        let listen_config = config.clone();
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .create_timeout(Some(Duration::from_secs(10)))
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .map_err(|e| OpenError::Other(StoreError(format!("PostgreSQL pool: {e}"))))?;
        {
            let mut client = pool
                .get()
                .await
                .map_err(|e| OpenError::Other(pool_error(e)))?;
            schema::migrate(&mut client, schema::VERSION).await?;
        }
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let (client, driver) = listen::listen(&listen_config, &events)
            .await
            .map_err(OpenError::Other)?;
        let listener = tokio::spawn(listen::keep_listening(
            listen_config,
            events.clone(),
            client,
            driver,
        ));
        Ok(PgStore {
            pool,
            notifiers: tokio::sync::Semaphore::new(NOTIFIERS),
            moves: moves::Moves::default(),
            events,
            listener,
        })
    }

    /// What other instances do (and this one: its own notifications come back too).
    pub fn events(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    async fn client(&self) -> Result<Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }

    pub(super) async fn schema_version(&self) -> Result<i64, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one("SELECT version FROM schema_version", &[])
            .await?;
        col(&row, 0)
    }

    /// A setting as a pooled connection has it (tests of the timeouts).
    #[cfg(test)]
    pub(super) async fn show(&self, name: &str) -> Result<String, StoreError> {
        let client = self.client().await?;
        let row = client.query_one(&format!("SHOW {name}"), &[]).await?;
        col(&row, 0)
    }

    /// Sets the schema version by hand (tests of the newer-schema refusal).
    #[cfg(test)]
    pub(super) async fn force_version(&self, version: i64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute("UPDATE schema_version SET version = $1", &[&version])
            .await?;
        Ok(())
    }
}

/// A plain connection to `url` (tests: to look at or change the database behind the store's back).
#[cfg(test)]
pub(super) async fn connect_raw(url: &str) -> Result<tokio_postgres::Client, StoreError> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
    tokio::spawn(connection);
    Ok(client)
}

/// Brings the database at `url` to schema version `target` and no further (tests of the migrations).
#[cfg(test)]
pub(super) async fn migrate_to(url: &str, target: i64) -> Result<(), OpenError> {
    let mut client = connect_raw(url).await.map_err(OpenError::Other)?;
    schema::migrate(&mut client, target).await
}

fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        deadpool_postgres::PoolError::Backend(e) => e.into(),
        e => StoreError(format!("PostgreSQL pool: {e}")),
    }
}

fn game_id(id: i64) -> Result<GameId, StoreError> {
    GameId::try_from(id).map_err(|_| StoreError(format!("game id {id} out of range")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_get_timeouts_unless_the_url_sets_them() {
        let config = with_session(tcp_timeouts("postgres://u@db.example/go".parse().unwrap()));
        let options = config.get_options().unwrap();
        for setting in [
            "synchronous_commit=off",
            "statement_timeout=5s",
            "lock_timeout=3s",
            "idle_in_transaction_session_timeout=10s",
        ] {
            assert!(options.contains(setting), "{options}");
        }
        assert_eq!(config.get_connect_timeout(), Some(&CONNECT_TIMEOUT));
        assert_eq!(config.get_tcp_user_timeout(), Some(&TCP_USER_TIMEOUT));
        assert!(config.get_keepalives());
        assert_eq!(config.get_keepalives_idle(), KEEPALIVE_IDLE);
        assert_eq!(config.get_keepalives_interval(), Some(KEEPALIVE_INTERVAL));
        assert_eq!(config.get_keepalives_retries(), Some(KEEPALIVE_RETRIES));
        // What the URL says stays.
        let url = "postgres://u@db.example/go?options=-c%20statement_timeout%3D1min\
                   &keepalives_idle=60&tcp_user_timeout=30&connect_timeout=2";
        let config = with_session(tcp_timeouts(url.parse().unwrap()));
        let options = config.get_options().unwrap();
        assert!(options.contains("statement_timeout=1min"), "{options}");
        assert!(!options.contains("statement_timeout=5s"), "{options}");
        assert!(options.contains("lock_timeout=3s"), "{options}");
        assert_eq!(config.get_keepalives_idle(), Duration::from_secs(60));
        assert_eq!(
            config.get_tcp_user_timeout(),
            Some(&Duration::from_secs(30))
        );
        assert_eq!(config.get_connect_timeout(), Some(&Duration::from_secs(2)));
    }
}
