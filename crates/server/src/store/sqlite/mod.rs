//! The SQLite store: the embedded default, one server process per file (a file lock says so).
//!
//! The connections live on their own threads ([`worker`]): writes go to one writer that commits
//! whatever queued up in one transaction (group commit), reads to a few readers beside it (WAL). WAL
//! with `synchronous = NORMAL`: a committed write survives the process being killed; only a power cut
//! may lose the last commits. Every method here is one request to those threads, so each write is one
//! transaction with nothing interleaved, which is what makes the checks below (the move count, the
//! deadline, `finished`) race-free without row locks.

mod lock;
mod schema;
mod worker;

#[cfg(test)]
pub(super) use schema::VERSION;

use super::common::{
    by_size, color_from_word, color_word, conn_from_db, conn_to_db, move_refusal, partners,
};
use super::{
    now_ms, CreatePlayerError, Finish, GameRow, InstanceId, Millis, MoveRefusal, OpenError,
    PlayerRow, RecordRow, SeekOutcome, SeekRow, StoreError,
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

    pub(super) async fn create_player(
        &self,
        name: &str,
        key: &str,
        token_hash: &[u8],
    ) -> Result<i64, CreatePlayerError> {
        let (name, key, hash) = (name.to_owned(), key.to_owned(), token_hash.to_vec());
        self.workers
            .write(move |c| {
                let inserted = c
                    .prepare_cached(
                        "INSERT INTO players (name, name_key, token_hash, created_at)
                         VALUES (?1, ?2, ?3, ?4)",
                    )
                    .and_then(|mut s| s.execute(params![name, key, hash, now_ms() / 1000]));
                match inserted {
                    Ok(_) => Ok(c.last_insert_rowid()),
                    Err(rusqlite::Error::SqliteFailure(e, Some(msg)))
                        if e.code == ErrorCode::ConstraintViolation
                            && msg.contains("players.name_key") =>
                    {
                        Err(CreatePlayerError::Taken)
                    }
                    Err(e) => Err(CreatePlayerError::Store(e.into())),
                }
            })
            .await
    }

    pub(super) async fn player_by_token(
        &self,
        token_hash: &[u8],
    ) -> Result<Option<PlayerRow>, StoreError> {
        let hash = token_hash.to_vec();
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT id, name, wins, losses FROM players WHERE token_hash = ?1",
                )?;
                Ok(s.query_row([hash], |r| {
                    Ok(PlayerRow {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        wins: r.get(2)?,
                        losses: r.get(3)?,
                    })
                })
                .optional()?)
            })
            .await
    }

    pub(super) async fn record(&self, key: &str) -> Result<Option<RecordRow>, StoreError> {
        let key = key.to_owned();
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT id, name, wins, losses FROM players WHERE name_key = ?1",
                )?;
                let Some((id, name, wins, losses)) = s
                    .query_row([key], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                    })
                    .optional()?
                else {
                    return Ok(None);
                };
                let mut s = c.prepare_cached(
                    "SELECT size, wins, losses FROM records WHERE player_id = ?1",
                )?;
                let rows = s
                    .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                Ok(Some(RecordRow {
                    name,
                    wins,
                    losses,
                    by_size: by_size(rows),
                }))
            })
            .await
    }

    pub(super) async fn leaderboard(&self, n: u32) -> Result<Vec<(String, u32, u32)>, StoreError> {
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT name, wins, losses FROM players WHERE wins + losses > 0
                     ORDER BY wins DESC, losses ASC, name_key ASC LIMIT ?1",
                )?;
                let rows = s.query_map([n], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            })
            .await
    }

    pub(super) async fn keep_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let me = instance.0.clone();
        let cut = now.saturating_sub(lease);
        self.workers
            .write(move |c| {
                c.prepare_cached(
                    "INSERT INTO instances (id, seen_at) VALUES (?1, ?2)
                     ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
                )?
                .execute(params![me, now])?;
                let taken = c
                    .prepare_cached(
                        "UPDATE games SET clock_instance = ?1
                         WHERE finished = 0 AND (clock_instance IS NULL OR (clock_instance <> ?1
                           AND clock_instance NOT IN (SELECT id FROM instances WHERE seen_at >= ?2)))",
                    )?
                    .execute(params![me, cut])?;
                c.prepare_cached(
                    "DELETE FROM seeks WHERE instance <> ?1
                     AND instance NOT IN (SELECT id FROM instances WHERE seen_at >= ?2)",
                )?
                .execute(params![me, cut])?;
                c.prepare_cached("DELETE FROM instances WHERE id <> ?1 AND seen_at < ?2")?
                    .execute(params![me, cut])?;
                Ok(taken)
            })
            .await
    }

    pub(super) async fn others_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let me = instance.0.clone();
        let cut = now.saturating_sub(lease);
        self.workers
            .read(move |c| {
                let n: i64 = c
                    .prepare_cached(
                        "SELECT count(*) FROM instances WHERE id <> ?1 AND seen_at >= ?2",
                    )?
                    .query_row(params![me, cut], |r| r.get(0))?;
                Ok(usize::try_from(n).unwrap_or(0))
            })
            .await
    }

    pub(super) async fn grace(&self, at: Millis) -> Result<(), StoreError> {
        self.workers
            .write(move |c| {
                c.prepare_cached(
                    "UPDATE games SET deadline_at = ?1 WHERE finished = 0 AND deadline_at < ?1",
                )?
                .execute([at])?;
                Ok(())
            })
            .await
    }

    pub(super) async fn retire(&self, instance: &InstanceId) -> Result<(), StoreError> {
        let me = instance.0.clone();
        self.workers
            .write(move |c| {
                c.prepare_cached("DELETE FROM seeks WHERE instance = ?1")?
                    .execute([&me])?;
                c.prepare_cached(
                    "UPDATE games SET clock_instance = NULL WHERE finished = 0 AND clock_instance = ?1",
                )?
                .execute([&me])?;
                c.prepare_cached("DELETE FROM instances WHERE id = ?1")?
                    .execute([&me])?;
                Ok(())
            })
            .await
    }

    pub(super) async fn seek(
        &self,
        seek: &SeekRow,
        coin: bool,
        now: Millis,
        lease: Millis,
        first_deadline: Millis,
    ) -> Result<SeekOutcome, StoreError> {
        let seek = seek.clone();
        let cut = now.saturating_sub(lease);
        self.workers
            .write(move |c| {
                c.prepare_cached("DELETE FROM seeks WHERE player_id = ?1")?
                    .execute([seek.player])?;
                let [p1, p2, p3] = partners(seek.color);
                let waiting = c
                    .prepare_cached(
                        "SELECT s.seq, s.player_id, p.name, s.instance, s.conn, s.color
                         FROM seeks s JOIN instances i ON i.id = s.instance
                         JOIN players p ON p.id = s.player_id
                         WHERE s.size = ?1 AND s.player_id <> ?2 AND i.seen_at >= ?3
                           AND s.color IN (?4, ?5, ?6)
                         ORDER BY s.seq LIMIT 1",
                    )?
                    .query_row(params![seek.size, seek.player, cut, p1, p2, p3], |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, i64>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, String>(3)?,
                            r.get::<_, i64>(4)?,
                            r.get::<_, String>(5)?,
                        ))
                    })
                    .optional()?;
                let Some((seq, player, name, instance, conn, color)) = waiting else {
                    c.prepare_cached(
                        "INSERT INTO seeks (player_id, instance, conn, size, color)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                    )?
                    .execute(params![
                        seek.player,
                        seek.instance.0,
                        conn_to_db(seek.conn),
                        seek.size,
                        color_word(seek.color)
                    ])?;
                    return Ok(SeekOutcome::Waiting);
                };
                let waiting = SeekRow {
                    player,
                    name,
                    instance: InstanceId(instance),
                    conn: conn_from_db(conn),
                    size: seek.size,
                    color: color_from_word(&color)?,
                };
                let waiting_black = pair_colors(waiting.color, seek.color, coin).unwrap_or(coin);
                let (black, white) = if waiting_black {
                    (waiting.player, seek.player)
                } else {
                    (seek.player, waiting.player)
                };
                c.prepare_cached("DELETE FROM seeks WHERE seq = ?1")?
                    .execute([seq])?;
                c.prepare_cached(
                    "INSERT INTO games (size, black_id, white_id, created_at, deadline_at, clock_instance)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?
                .execute(params![
                    seek.size,
                    black,
                    white,
                    now / 1000,
                    first_deadline,
                    seek.instance.0
                ])?;
                let id = c.last_insert_rowid();
                let game = GameId::try_from(id)
                    .map_err(|_| StoreError(format!("game id {id} out of range")))?;
                Ok(SeekOutcome::Paired {
                    game,
                    waiting,
                    waiting_black,
                })
            })
            .await
    }

    pub(super) async fn cancel_seek(&self, player: i64) -> Result<bool, StoreError> {
        self.workers
            .write(move |c| {
                let n = c
                    .prepare_cached("DELETE FROM seeks WHERE player_id = ?1")?
                    .execute([player])?;
                Ok(n > 0)
            })
            .await
    }

    pub(super) async fn leave(&self, instance: &InstanceId, conn: u64) -> Result<(), StoreError> {
        let me = instance.0.clone();
        self.workers
            .write(move |c| {
                c.prepare_cached("DELETE FROM seeks WHERE instance = ?1 AND conn = ?2")?
                    .execute(params![me, conn_to_db(conn)])?;
                Ok(())
            })
            .await
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
        let mv = mv.to_owned();
        self.workers
            .write(move |c| {
                let state = c
                    .prepare_cached(
                        "SELECT finished, move_count, deadline_at FROM games WHERE id = ?1",
                    )?
                    .query_row([id], |r| {
                        Ok((
                            r.get::<_, bool>(0)?,
                            r.get::<_, i64>(1)?,
                            r.get::<_, i64>(2)?,
                        ))
                    })
                    .optional()?;
                let Some((finished, stored, deadline)) = state else {
                    return Ok(Err(MoveRefusal::Over));
                };
                if let Some(refusal) = move_refusal(finished, stored, deadline, number, now) {
                    return Ok(Err(refusal));
                }
                c.prepare_cached(
                    "INSERT INTO moves (game_id, number, color, mv, played_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![
                    id,
                    number,
                    color.to_string(),
                    mv,
                    now / 1000
                ])?;
                c.prepare_cached(
                    "UPDATE games SET move_count = ?2, deadline_at = ?3 WHERE id = ?1",
                )?
                .execute(params![id, number, next_deadline])?;
                Ok(Ok(()))
            })
            .await
    }

    pub(super) async fn finish(&self, game: GameId, finish: &Finish) -> Result<bool, StoreError> {
        let Ok(id) = i64::try_from(game) else {
            return Ok(false);
        };
        let f = finish.clone();
        self.workers
            .write(move |c| {
                let now = now_ms();
                let changed = c
                    .prepare_cached(
                        "UPDATE games SET finished = 1, result = ?2, black_area = ?3, white_area = ?4,
                           ended_at = ?5, finished_at = ?6, end_reason = ?7, rated = ?8
                         WHERE id = ?1 AND finished = 0 AND move_count = ?9
                           AND (?10 IS NULL OR deadline_at <= ?10)",
                    )?
                    .execute(params![
                        id,
                        f.result,
                        f.score.map(|s| s.0),
                        f.score.map(|s| s.1),
                        now / 1000,
                        now,
                        f.reason.as_str(),
                        f.rated,
                        f.moves,
                        f.late_at
                    ])?;
                if changed != 1 {
                    return Ok(false);
                }
                if let (true, Some((winner, loser))) = (f.rated, f.winner_loser) {
                    let size: i64 = c
                        .prepare_cached("SELECT size FROM games WHERE id = ?1")?
                        .query_row([id], |r| r.get(0))?;
                    c.prepare_cached(
                        "UPDATE players SET wins = wins + (id = ?1), losses = losses + (id = ?2)
                         WHERE id IN (?1, ?2)",
                    )?
                    .execute(params![winner, loser])?;
                    let mut up = c.prepare_cached(
                        "INSERT INTO records (player_id, size, wins, losses) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (player_id, size) DO UPDATE
                         SET wins = wins + excluded.wins, losses = losses + excluded.losses",
                    )?;
                    up.execute(params![winner, size, 1, 0])?;
                    up.execute(params![loser, size, 0, 1])?;
                }
                Ok(true)
            })
            .await
    }

    pub(super) async fn rated_between(
        &self,
        a: i64,
        b: i64,
        since: Millis,
    ) -> Result<u32, StoreError> {
        self.workers
            .read(move |c| {
                let n: i64 = c
                    .prepare_cached(
                        "SELECT count(*) FROM games
                         WHERE ((black_id = ?1 AND white_id = ?2) OR (black_id = ?2 AND white_id = ?1))
                           AND finished = 1 AND rated = 1 AND finished_at >= ?3",
                    )?
                    .query_row(params![a, b, since], |r| r.get(0))?;
                Ok(u32::try_from(n).unwrap_or(u32::MAX))
            })
            .await
    }

    pub(super) async fn due(
        &self,
        instance: &InstanceId,
        now: Millis,
    ) -> Result<Vec<GameId>, StoreError> {
        let me = instance.0.clone();
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT id FROM games
                     WHERE finished = 0 AND clock_instance = ?1 AND deadline_at <= ?2
                     ORDER BY deadline_at, id",
                )?;
                let ids = s.query_map(params![me, now], |r| r.get::<_, GameId>(0))?;
                Ok(ids.collect::<rusqlite::Result<_>>()?)
            })
            .await
    }

    pub(super) async fn unfinished(&self) -> Result<Vec<GameId>, StoreError> {
        self.workers
            .read(|c| {
                let mut s =
                    c.prepare_cached("SELECT id FROM games WHERE finished = 0 ORDER BY id")?;
                let ids = s.query_map([], |r| r.get::<_, GameId>(0))?;
                Ok(ids.collect::<rusqlite::Result<_>>()?)
            })
            .await
    }

    pub(super) async fn unfinished_of(&self, player: i64) -> Result<Vec<GameRow>, StoreError> {
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(&format!(
                    "{GAME_SELECT} WHERE g.finished = 0 AND (g.black_id = ?1 OR g.white_id = ?1)
                     ORDER BY g.id"
                ))?;
                let games = s
                    .query_map([player], game_row)?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                games.into_iter().map(|g| with_moves(c, g)).collect()
            })
            .await
    }

    pub(super) async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        let Ok(id) = i64::try_from(id) else {
            return Ok(None);
        };
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(&format!("{GAME_SELECT} WHERE g.id = ?1"))?;
                match s.query_row([id], game_row).optional()? {
                    Some(g) => Ok(Some(with_moves(c, g)?)),
                    None => Ok(None),
                }
            })
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

const GAME_SELECT: &str = "SELECT g.id, g.size, g.black_id, b.name, g.white_id, w.name, g.result,
        g.black_area, g.white_area, g.deadline_at
    FROM games g JOIN players b ON b.id = g.black_id JOIN players w ON w.id = g.white_id";

/// A row of [`GAME_SELECT`], without its moves.
fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let score = match (r.get::<_, Option<u16>>(7)?, r.get::<_, Option<u16>>(8)?) {
        (Some(b), Some(w)) => Some((b, w)),
        _ => None,
    };
    Ok(GameRow {
        id: r.get(0)?,
        size: r.get(1)?,
        black: (r.get(2)?, r.get(3)?),
        white: (r.get(4)?, r.get(5)?),
        moves: Vec::new(),
        result: r.get(6)?,
        score,
        deadline: r.get(9)?,
    })
}

fn with_moves(c: &Connection, mut game: GameRow) -> Result<GameRow, StoreError> {
    let id = i64::try_from(game.id).map_err(|_| StoreError("game id out of range".into()))?;
    let mut s = c.prepare_cached("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY number")?;
    game.moves = s
        .query_map([id], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(game)
}
