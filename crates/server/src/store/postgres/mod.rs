//! The PostgreSQL store: several server instances on one database.
//!
//! Connections come from a `deadpool-postgres` pool ([`POOL_SIZE`]); statements are prepared once per
//! connection and cached. Every rule that must hold across instances is one transaction with row
//! locks:
//! - `add_move` is one statement: it locks the game row (`FOR UPDATE`), checks that the game is
//!   unfinished, holds `number - 1` moves and is still in time, then stores the move, the new count and
//!   deadline, and notifies. Two instances storing the same move number: the second waits for the first
//!   and then finds the count moved on.
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
};
use super::{
    now_ms, CreatePlayerError, Event, Finish, GameRow, InstanceId, Millis, MoveRefusal, OpenError,
    PlayerRow, RecordRow, SeekOutcome, SeekRow, StoreError,
};
use crate::matchmaking::pair_colors;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use gridarena_engine::go::online::GameId;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Config, NoTls, Row};

/// Connections in the pool, per store.
pub const POOL_SIZE: usize = 16;

/// Events kept for a receiver that falls behind (it then gets `RecvError::Lagged`, and should reload
/// as for [`Event::Resync`]).
const EVENT_BUFFER: usize = 4096;

/// The advisory locks that serialise seeks, one per board size: this plus the size.
const SEEK_LOCK: i64 = 0x4752_4944_1000;

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

/// The store on a PostgreSQL database.
pub struct PgStore {
    pool: Pool,
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
        let config: Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| OpenError::Other(e.into()))?;
        let manager = Manager::from_config(
            config.clone(),
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
        let (client, driver) = listen::listen(&config, &events)
            .await
            .map_err(|e| OpenError::Other(e.into()))?;
        let listener = tokio::spawn(listen::keep_listening(
            config,
            events.clone(),
            client,
            driver,
        ));
        Ok(PgStore {
            pool,
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

    pub(super) async fn create_player(
        &self,
        name: &str,
        key: &str,
        token_hash: &[u8],
    ) -> Result<i64, CreatePlayerError> {
        let client = self.client().await.map_err(CreatePlayerError::Store)?;
        let inserted = async {
            let stmt = client
                .prepare_cached(
                    "INSERT INTO players (name, name_key, token_hash, created_at)
                     VALUES ($1, $2, $3, $4) RETURNING id",
                )
                .await?;
            client
                .query_one(&stmt, &[&name, &key, &token_hash, &(now_ms() / 1000)])
                .await
        }
        .await;
        match inserted {
            Ok(row) => col(&row, 0).map_err(CreatePlayerError::Store),
            Err(e)
                if e.code() == Some(&SqlState::UNIQUE_VIOLATION)
                    && e.as_db_error().and_then(|d| d.constraint())
                        == Some("players_name_key_key") =>
            {
                Err(CreatePlayerError::Taken)
            }
            Err(e) => Err(CreatePlayerError::Store(e.into())),
        }
    }

    pub(super) async fn player_by_token(
        &self,
        token_hash: &[u8],
    ) -> Result<Option<PlayerRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT id, name, wins, losses FROM players WHERE token_hash = $1")
            .await?;
        let Some(row) = client.query_opt(&stmt, &[&token_hash]).await? else {
            return Ok(None);
        };
        Ok(Some(PlayerRow {
            id: col(&row, 0)?,
            name: col(&row, 1)?,
            wins: count(col(&row, 2)?),
            losses: count(col(&row, 3)?),
        }))
    }

    pub(super) async fn record(&self, key: &str) -> Result<Option<RecordRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT p.name, p.wins, p.losses, r.size, r.wins, r.losses
                 FROM players p LEFT JOIN records r ON r.player_id = p.id
                 WHERE p.name_key = $1",
            )
            .await?;
        let rows = client.query(&stmt, &[&key]).await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let mut sizes = Vec::with_capacity(rows.len());
        for row in &rows {
            if let Some(size) = col::<Option<i64>>(row, 3)? {
                sizes.push((size, col(row, 4)?, col(row, 5)?));
            }
        }
        Ok(Some(RecordRow {
            name: col(first, 0)?,
            wins: count(col(first, 1)?),
            losses: count(col(first, 2)?),
            by_size: by_size(sizes),
        }))
    }

    pub(super) async fn leaderboard(&self, n: u32) -> Result<Vec<(String, u32, u32)>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT name, wins, losses FROM players WHERE wins + losses > 0
                 ORDER BY wins DESC, losses ASC, name_key ASC LIMIT $1",
            )
            .await?;
        let rows = client.query(&stmt, &[&i64::from(n)]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, count(col(r, 1)?), count(col(r, 2)?))))
            .collect()
    }

    pub(super) async fn keep_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let cut = now.saturating_sub(lease);
        let me = &instance.0;
        let taken = retrying!(self, client => {
            let tx = client.transaction().await?;
            tx.execute(
                "INSERT INTO instances (id, seen_at) VALUES ($1, $2)
                 ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
                &[me, &now],
            )
            .await?;
            let taken = tx
                .execute(
                    "UPDATE games SET clock_instance = $1
                     WHERE NOT finished AND (clock_instance IS NULL OR (clock_instance <> $1
                       AND clock_instance NOT IN (SELECT id FROM instances WHERE seen_at >= $2)))",
                    &[me, &cut],
                )
                .await?;
            tx.execute(
                "DELETE FROM seeks WHERE instance <> $1
                 AND instance NOT IN (SELECT id FROM instances WHERE seen_at >= $2)",
                &[me, &cut],
            )
            .await?;
            tx.execute(
                "DELETE FROM instances WHERE id <> $1 AND seen_at < $2",
                &[me, &cut],
            )
            .await?;
            tx.commit().await?;
            Ok(taken)
        })?;
        Ok(usize::try_from(taken).unwrap_or(usize::MAX))
    }

    pub(super) async fn others_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT count(*) FROM instances WHERE id <> $1 AND seen_at >= $2",
                &[&instance.0, &now.saturating_sub(lease)],
            )
            .await?;
        Ok(usize::try_from(col::<i64>(&row, 0)?).unwrap_or(0))
    }

    pub(super) async fn grace(&self, at: Millis) -> Result<(), StoreError> {
        retrying!(self, client => {
            client
                .execute(
                    "UPDATE games SET deadline_at = $1 WHERE NOT finished AND deadline_at < $1",
                    &[&at],
                )
                .await
        })?;
        Ok(())
    }

    pub(super) async fn retire(&self, instance: &InstanceId) -> Result<(), StoreError> {
        let me = &instance.0;
        retrying!(self, client => {
            let tx = client.transaction().await?;
            tx.execute("DELETE FROM seeks WHERE instance = $1", &[me]).await?;
            tx.execute(
                "UPDATE games SET clock_instance = NULL WHERE NOT finished AND clock_instance = $1",
                &[me],
            )
            .await?;
            tx.execute("DELETE FROM instances WHERE id = $1", &[me]).await?;
            tx.commit().await
        })
    }

    pub(super) async fn seek(
        &self,
        seek: &SeekRow,
        coin: bool,
        now: Millis,
        lease: Millis,
        first_deadline: Millis,
    ) -> Result<SeekOutcome, StoreError> {
        let cut = now.saturating_sub(lease);
        let size = i64::from(seek.size);
        let [p1, p2, p3] = partners(seek.color);
        let found = retrying!(self, client => {
            let tx = client.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&(SEEK_LOCK + size)])
                .await?;
            let stmt = tx
                .prepare_cached("DELETE FROM seeks WHERE player_id = $1")
                .await?;
            tx.execute(&stmt, &[&seek.player]).await?;
            let stmt = tx
                .prepare_cached(
                    "SELECT s.seq, s.player_id, p.name, s.instance, s.conn, s.color
                     FROM seeks s JOIN instances i ON i.id = s.instance
                     JOIN players p ON p.id = s.player_id
                     WHERE s.size = $1 AND s.player_id <> $2 AND i.seen_at >= $3
                       AND s.color IN ($4, $5, $6)
                     ORDER BY s.seq LIMIT 1
                     FOR UPDATE OF s SKIP LOCKED",
                )
                .await?;
            let waiting = tx
                .query_opt(&stmt, &[&size, &seek.player, &cut, &p1, &p2, &p3])
                .await?;
            let Some(waiting) = waiting else {
                let stmt = tx
                    .prepare_cached(
                        "INSERT INTO seeks (player_id, instance, conn, size, color)
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .await?;
                tx.execute(
                    &stmt,
                    &[
                        &seek.player,
                        &seek.instance.0,
                        &conn_to_db(seek.conn),
                        &size,
                        &color_word(seek.color),
                    ],
                )
                .await?;
                tx.commit().await?;
                return Ok(None);
            };
            let row = (
                waiting.try_get::<_, i64>(0)?,
                waiting.try_get::<_, i64>(1)?,
                waiting.try_get::<_, String>(2)?,
                waiting.try_get::<_, String>(3)?,
                waiting.try_get::<_, i64>(4)?,
                waiting.try_get::<_, String>(5)?,
            );
            let Ok(color) = color_from_word(&row.5) else {
                // Not a row this code writes; leave it and wait.
                return Ok(Some(Err(row.5)));
            };
            let waiting_black = pair_colors(color, seek.color, coin).unwrap_or(coin);
            let (black, white) = if waiting_black {
                (row.1, seek.player)
            } else {
                (seek.player, row.1)
            };
            let stmt = tx
                .prepare_cached(
                    "WITH taken AS (DELETE FROM seeks WHERE seq = $1),
                     game AS (
                       INSERT INTO games (size, black_id, white_id, created_at, deadline_at,
                                          clock_instance)
                       VALUES ($2, $3, $4, $5, $6, $7) RETURNING id),
                     note AS (
                       SELECT pg_notify('gridarena', 'p ' || id || ' ' || $8::text || ' ' || $9::text)
                       FROM game)
                     SELECT id, (SELECT count(*) FROM note) FROM game",
                )
                .await?;
            let created = tx
                .query_one(
                    &stmt,
                    &[
                        &row.0,
                        &size,
                        &black,
                        &white,
                        &(now / 1000),
                        &first_deadline,
                        &seek.instance.0,
                        &row.3,
                        &conn_from_db(row.4).to_string(),
                    ],
                )
                .await?;
            let game: i64 = created.try_get(0)?;
            tx.commit().await?;
            Ok(Some(Ok((game, row, color, waiting_black))))
        })?;
        match found {
            None => Ok(SeekOutcome::Waiting),
            Some(Err(word)) => Err(StoreError(format!("unknown colour {word:?} in seeks"))),
            Some(Ok((game, (_, player, name, instance, conn, _), color, waiting_black))) => {
                Ok(SeekOutcome::Paired {
                    game: game_id(game)?,
                    waiting: SeekRow {
                        player,
                        name,
                        instance: InstanceId(instance),
                        conn: conn_from_db(conn),
                        size: seek.size,
                        color,
                    },
                    waiting_black,
                })
            }
        }
    }

    pub(super) async fn cancel_seek(&self, player: i64) -> Result<bool, StoreError> {
        let n = retrying!(self, client => {
            client
                .execute("DELETE FROM seeks WHERE player_id = $1", &[&player])
                .await
        })?;
        Ok(n > 0)
    }

    pub(super) async fn leave(&self, instance: &InstanceId, conn: u64) -> Result<(), StoreError> {
        let conn = conn_to_db(conn);
        retrying!(self, client => {
            client
                .execute(
                    "DELETE FROM seeks WHERE instance = $1 AND conn = $2",
                    &[&instance.0, &conn],
                )
                .await
        })?;
        Ok(())
    }

    pub(super) async fn add_move(
        &self,
        game: GameId,
        number: u32,
        color: char,
        mv: &str,
        now: Millis,
        next_deadline: Millis,
    ) -> Result<Result<(), MoveRefusal>, StoreError> {
        let Ok(id) = i64::try_from(game) else {
            return Ok(Err(MoveRefusal::Over));
        };
        let (n, color) = (i64::from(number), color.to_string());
        let row = retrying!(self, client => {
            let stmt = client
                .prepare_cached(
                    "WITH g AS (
                       SELECT id, finished, move_count, deadline_at FROM games
                       WHERE id = $1 FOR UPDATE),
                     stored AS (
                       UPDATE games SET move_count = $2, deadline_at = $6 FROM g
                       WHERE games.id = g.id AND NOT g.finished AND g.move_count = $2::bigint - 1
                         AND g.deadline_at >= $5::bigint
                       RETURNING games.id),
                     played AS (
                       INSERT INTO moves (game_id, number, color, mv, played_at)
                       SELECT id, $2, $3, $4, $5::bigint / 1000 FROM stored),
                     note AS (
                       SELECT pg_notify('gridarena', 'm ' || id || ' ' || $2::bigint) FROM stored)
                     SELECT g.finished, g.move_count, g.deadline_at, (SELECT count(*) FROM note)
                     FROM g",
                )
                .await?;
            client
                .query_opt(&stmt, &[&id, &n, &color, &mv, &now, &next_deadline])
                .await
        })?;
        let Some(row) = row else {
            return Ok(Err(MoveRefusal::Over));
        };
        if col::<i64>(&row, 3)? == 1 {
            return Ok(Ok(()));
        }
        let refusal = move_refusal(col(&row, 0)?, col(&row, 1)?, col(&row, 2)?, number, now);
        // Not stored, yet nothing to refuse: only if the row changed between the checks (it cannot,
        // it is locked); say the copy is stale rather than claim success.
        Ok(Err(refusal.unwrap_or(MoveRefusal::OutOfStep {
            stored: count(col(&row, 1)?),
        })))
    }

    pub(super) async fn finish(&self, game: GameId, finish: &Finish) -> Result<bool, StoreError> {
        let Ok(id) = i64::try_from(game) else {
            return Ok(false);
        };
        let f = finish;
        let area = |a: Option<u16>| a.map(i64::from);
        let (black_area, white_area) = (area(f.score.map(|s| s.0)), area(f.score.map(|s| s.1)));
        let winner = f.winner_loser.map(|w| w.0);
        let loser = f.winner_loser.map(|w| w.1);
        let moves = i64::from(f.moves);
        let reason = f.reason.as_str();
        let now = now_ms();
        let ended = retrying!(self, client => {
            let stmt = client
                .prepare_cached(
                    "WITH g AS (
                       UPDATE games SET finished = true, result = $2, black_area = $3,
                         white_area = $4, ended_at = $5::bigint / 1000, finished_at = $5,
                         end_reason = $6, rated = $7
                       WHERE id = $1 AND NOT finished AND move_count = $8
                         AND ($9::bigint IS NULL OR deadline_at <= $9)
                       RETURNING size),
                     totals AS (
                       UPDATE players
                       SET wins = wins + CASE WHEN id = $10 THEN 1 ELSE 0 END,
                           losses = losses + CASE WHEN id = $11 THEN 1 ELSE 0 END
                       WHERE id IN ($10, $11) AND $7 AND EXISTS (SELECT 1 FROM g)),
                     sizes AS (
                       INSERT INTO records (player_id, size, wins, losses)
                       SELECT v.player, g.size, v.wins, v.losses
                       FROM g CROSS JOIN (VALUES ($10::bigint, 1::bigint, 0::bigint),
                                                 ($11::bigint, 0::bigint, 1::bigint))
                                         AS v (player, wins, losses)
                       WHERE $7 AND v.player IS NOT NULL
                       ORDER BY v.player
                       ON CONFLICT (player_id, size) DO UPDATE
                       SET wins = records.wins + excluded.wins,
                           losses = records.losses + excluded.losses),
                     note AS (SELECT pg_notify('gridarena', 'e ' || $1::bigint) FROM g)
                     SELECT count(*) FROM note",
                )
                .await?;
            client
                .query_one(
                    &stmt,
                    &[
                        &id,
                        &f.result,
                        &black_area,
                        &white_area,
                        &now,
                        &reason,
                        &f.rated,
                        &moves,
                        &f.late_at,
                        &winner,
                        &loser,
                    ],
                )
                .await
        })?;
        Ok(col::<i64>(&ended, 0)? == 1)
    }

    pub(super) async fn rated_between(
        &self,
        a: i64,
        b: i64,
        since: Millis,
    ) -> Result<u32, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT count(*) FROM games
                 WHERE ((black_id = $1 AND white_id = $2) OR (black_id = $2 AND white_id = $1))
                   AND finished AND rated AND finished_at >= $3",
            )
            .await?;
        let row = client.query_one(&stmt, &[&a, &b, &since]).await?;
        Ok(count(col(&row, 0)?))
    }

    pub(super) async fn due(
        &self,
        instance: &InstanceId,
        now: Millis,
    ) -> Result<Vec<GameId>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT id FROM games
                 WHERE NOT finished AND clock_instance = $1 AND deadline_at <= $2
                 ORDER BY deadline_at, id",
            )
            .await?;
        let rows = client.query(&stmt, &[&instance.0, &now]).await?;
        rows.iter().map(|r| game_id(col(r, 0)?)).collect()
    }

    pub(super) async fn unfinished(&self) -> Result<Vec<GameId>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query("SELECT id FROM games WHERE NOT finished ORDER BY id", &[])
            .await?;
        rows.iter().map(|r| game_id(col(r, 0)?)).collect()
    }

    pub(super) async fn unfinished_of(&self, player: i64) -> Result<Vec<GameRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "{GAME_SELECT} WHERE NOT g.finished AND (g.black_id = $1 OR g.white_id = $1)
                 ORDER BY g.id"
            ))
            .await?;
        let rows = client.query(&stmt, &[&player]).await?;
        rows.iter().map(game_row).collect()
    }

    pub(super) async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        let Ok(id) = i64::try_from(id) else {
            return Ok(None);
        };
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!("{GAME_SELECT} WHERE g.id = $1"))
            .await?;
        match client.query_opt(&stmt, &[&id]).await? {
            Some(row) => Ok(Some(game_row(&row)?)),
            None => Ok(None),
        }
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

/// A game and its moves in one statement (one snapshot).
const GAME_SELECT: &str = "SELECT g.id, g.size, g.black_id, b.name, g.white_id, w.name, g.result,
        g.black_area, g.white_area, g.deadline_at,
        array(SELECT m.mv FROM moves m WHERE m.game_id = g.id ORDER BY m.number)
    FROM games g JOIN players b ON b.id = g.black_id JOIN players w ON w.id = g.white_id";

fn game_row(r: &Row) -> Result<GameRow, StoreError> {
    let area = |i: usize| -> Result<Option<u16>, StoreError> {
        Ok(col::<Option<i64>>(r, i)?.map(|a| u16::try_from(a).unwrap_or(u16::MAX)))
    };
    let score = match (area(7)?, area(8)?) {
        (Some(b), Some(w)) => Some((b, w)),
        _ => None,
    };
    let size: i64 = col(r, 1)?;
    Ok(GameRow {
        id: game_id(col(r, 0)?)?,
        size: u8::try_from(size).map_err(|_| StoreError(format!("board size {size}")))?,
        black: (col(r, 2)?, col(r, 3)?),
        white: (col(r, 4)?, col(r, 5)?),
        moves: col(r, 10)?,
        result: col(r, 6)?,
        score,
        deadline: col(r, 9)?,
    })
}
