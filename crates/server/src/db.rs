//! The SQLite store: players, their records, games and their moves.
//!
//! One connection behind a std `Mutex`; every call is one short statement or one short transaction, so
//! the lock is held for tens of microseconds. WAL journal with `synchronous = NORMAL`: a commit survives
//! the process being killed (the crash test does exactly that); only a power cut may lose the last few.
//! The schema is versioned in `schema_version` and migrated at start-up by [`MIGRATIONS`].

use gridarena_engine::go::online::GameId;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

pub use rusqlite::Error as DbError;

/// Each migration brings the schema from version i to i + 1; applied in order, each in a transaction.
const MIGRATIONS: &[&str] = &[
    // 1: players, per-size records, games, moves.
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
];

/// A player as the server knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: i64,
    pub name: String,
    pub wins: u32,
    pub losses: u32,
}

/// A player's record: in total and per board size (9, 13, 19 always present).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordRow {
    pub name: String,
    pub wins: u32,
    pub losses: u32,
    pub by_size: Vec<(u8, u32, u32)>,
}

/// A stored game: who plays it, its moves in GTP spelling, and its result once finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub size: u8,
    pub black: (i64, String),
    pub white: (i64, String),
    pub moves: Vec<String>,
    pub result: Option<String>,
    pub score: Option<(u16, u16)>,
}

/// Why a player could not be created.
#[derive(Debug)]
pub enum CreatePlayerError {
    /// The name (without regard to case) belongs to someone.
    Taken,
    Db(DbError),
}

/// The store.
pub struct Db {
    conn: Mutex<Connection>,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

impl Db {
    /// Opens (or creates) the database at `path`, switches it to WAL and migrates its schema.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        let conn = Connection::open(path)?;
        Db::setup(conn)
    }

    /// A private database in memory (tests that need no file).
    pub fn open_in_memory() -> Result<Db, DbError> {
        Db::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<Db, DbError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // In memory the journal mode stays "memory"; that is fine.
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        migrate(&mut conn)?;
        Ok(Db {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction behind (rusqlite rolls
        // back on drop), so a poisoned lock is still a usable connection.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The schema version now in force.
    pub fn schema_version(&self) -> Result<i64, DbError> {
        self.conn()
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
    }

    /// Registers a player whose name has been validated.
    pub fn create_player(
        &self,
        name: &str,
        key: &str,
        token_hash: &[u8],
    ) -> Result<i64, CreatePlayerError> {
        let conn = self.conn();
        let taken = conn
            .query_row("SELECT 1 FROM players WHERE name_key = ?1", [key], |_| {
                Ok(())
            })
            .optional()
            .map_err(CreatePlayerError::Db)?;
        if taken.is_some() {
            return Err(CreatePlayerError::Taken);
        }
        match conn.execute(
            "INSERT INTO players (name, name_key, token_hash, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![name, key, token_hash, now()],
        ) {
            Ok(_) => Ok(conn.last_insert_rowid()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Err(CreatePlayerError::Taken)
            }
            Err(e) => Err(CreatePlayerError::Db(e)),
        }
    }

    /// The player holding the token with this hash.
    pub fn player_by_token(&self, token_hash: &[u8]) -> Result<Option<PlayerRow>, DbError> {
        self.conn()
            .query_row(
                "SELECT id, name, wins, losses FROM players WHERE token_hash = ?1",
                [token_hash],
                |r| {
                    Ok(PlayerRow {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        wins: r.get(2)?,
                        losses: r.get(3)?,
                    })
                },
            )
            .optional()
    }

    /// A player's record by name (any case).
    pub fn record(&self, key: &str) -> Result<Option<RecordRow>, DbError> {
        let conn = self.conn();
        let Some((id, name, wins, losses)) = conn
            .query_row(
                "SELECT id, name, wins, losses FROM players WHERE name_key = ?1",
                [key],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get(2)?,
                        r.get(3)?,
                    ))
                },
            )
            .optional()?
        else {
            return Ok(None);
        };
        let mut by_size: Vec<(u8, u32, u32)> = vec![(9, 0, 0), (13, 0, 0), (19, 0, 0)];
        let mut stmt =
            conn.prepare_cached("SELECT size, wins, losses FROM records WHERE player_id = ?1")?;
        let rows = stmt.query_map([id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, u32>(2)?,
            ))
        })?;
        for row in rows {
            let (size, w, l) = row?;
            let size = u8::try_from(size).unwrap_or(0);
            match by_size.iter_mut().find(|e| e.0 == size) {
                Some(e) => {
                    e.1 = w;
                    e.2 = l;
                }
                None => by_size.push((size, w, l)),
            }
        }
        Ok(Some(RecordRow {
            name,
            wins,
            losses,
            by_size,
        }))
    }

    /// The top `n` players who have finished a game: most wins, then fewest losses, then name.
    pub fn leaderboard(&self, n: u32) -> Result<Vec<(String, u32, u32)>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT name, wins, losses FROM players WHERE wins + losses > 0
             ORDER BY wins DESC, losses ASC, name_key ASC LIMIT ?1",
        )?;
        let rows = stmt.query_map([n], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    }

    /// Creates a game between two players; returns its id.
    pub fn create_game(&self, size: u8, black_id: i64, white_id: i64) -> Result<GameId, DbError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO games (size, black_id, white_id, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![size, black_id, white_id, now()],
        )?;
        // SQLite numbers rows from 1 up; the check keeps a hand-made negative id from wrapping.
        let id = conn.last_insert_rowid();
        GameId::try_from(id).map_err(|_| DbError::IntegralValueOutOfRange(0, id))
    }

    /// Stores move `number` (from 1) of a game; called before the move is announced. Game ids travel
    /// as `u64` (rusqlite checks that they fit SQLite's `i64`).
    pub fn add_move(
        &self,
        game: GameId,
        number: u32,
        color: char,
        mv: &str,
    ) -> Result<(), DbError> {
        self.conn().execute(
            "INSERT INTO moves (game_id, number, color, mv, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game, number, color.to_string(), mv, now()],
        )?;
        Ok(())
    }

    /// Ends a game, in one transaction: marks it finished with its result, only if it was unfinished,
    /// and then adds one win to the winner and one loss to the loser, per size and in total. Returns
    /// whether this call finished it (false: it was already finished, and nothing was counted again).
    pub fn finish_game(
        &self,
        game: GameId,
        result: &str,
        winner_loser: Option<(i64, i64)>,
        score: Option<(u16, u16)>,
    ) -> Result<bool, DbError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let changed = tx.execute(
            "UPDATE games SET finished = 1, result = ?2, black_area = ?3, white_area = ?4, ended_at = ?5
             WHERE id = ?1 AND finished = 0",
            params![game, result, score.map(|s| s.0), score.map(|s| s.1), now()],
        )?;
        if changed != 1 {
            return Ok(false);
        }
        if let Some((winner, loser)) = winner_loser {
            let size: i64 =
                tx.query_row("SELECT size FROM games WHERE id = ?1", [game], |r| r.get(0))?;
            tx.execute("UPDATE players SET wins = wins + 1 WHERE id = ?1", [winner])?;
            tx.execute(
                "UPDATE players SET losses = losses + 1 WHERE id = ?1",
                [loser],
            )?;
            tx.execute(
                "INSERT INTO records (player_id, size, wins, losses) VALUES (?1, ?2, 1, 0)
                 ON CONFLICT (player_id, size) DO UPDATE SET wins = wins + 1",
                params![winner, size],
            )?;
            tx.execute(
                "INSERT INTO records (player_id, size, wins, losses) VALUES (?1, ?2, 0, 1)
                 ON CONFLICT (player_id, size) DO UPDATE SET losses = losses + 1",
                params![loser, size],
            )?;
        }
        tx.commit()?;
        Ok(true)
    }

    /// Every unfinished game with its moves, oldest first.
    pub fn unfinished_games(&self) -> Result<Vec<GameRow>, DbError> {
        let ids: Vec<GameId> = {
            let conn = self.conn();
            let mut stmt =
                conn.prepare_cached("SELECT id FROM games WHERE finished = 0 ORDER BY id")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(g) = self.game(id)? {
                out.push(g);
            }
        }
        Ok(out)
    }

    /// One game with its moves; none for an id beyond what SQLite can hold, since no game has it.
    pub fn game(&self, id: GameId) -> Result<Option<GameRow>, DbError> {
        let Ok(id) = i64::try_from(id) else {
            return Ok(None);
        };
        let conn = self.conn();
        let Some(mut game) = conn
            .query_row(
                "SELECT g.size, g.black_id, b.name, g.white_id, w.name, g.result, g.black_area,
                        g.white_area, g.id
                 FROM games g JOIN players b ON b.id = g.black_id JOIN players w ON w.id = g.white_id
                 WHERE g.id = ?1",
                [id],
                |r| {
                    let score = match (r.get::<_, Option<u16>>(6)?, r.get::<_, Option<u16>>(7)?) {
                        (Some(b), Some(w)) => Some((b, w)),
                        _ => None,
                    };
                    Ok(GameRow {
                        id: r.get(8)?,
                        size: r.get(0)?,
                        black: (r.get(1)?, r.get(2)?),
                        white: (r.get(3)?, r.get(4)?),
                        moves: Vec::new(),
                        result: r.get(5)?,
                        score,
                    })
                },
            )
            .optional()?
        else {
            return Ok(None);
        };
        let mut stmt =
            conn.prepare_cached("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY number")?;
        let rows = stmt.query_map([id], |r| r.get::<_, String>(0))?;
        game.moves = rows.collect::<Result<_, _>>()?;
        Ok(Some(game))
    }
}

fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    conn.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: Option<i64> = tx
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .optional()?;
    let version = match version {
        Some(v) => v,
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", [])?;
            0
        }
    };
    for (i, sql) in MIGRATIONS.iter().enumerate() {
        let target = i64::try_from(i).unwrap_or(i64::MAX) + 1;
        if target > version {
            tx.execute_batch(sql)?;
            tx.execute("UPDATE schema_version SET version = ?1", [target])?;
        }
    }
    tx.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_players(db: &Db) -> (i64, i64) {
        let a = db.create_player("Ada", "ada", &[1; 32]).unwrap();
        let b = db.create_player("Bob", "bob", &[2; 32]).unwrap();
        (a, b)
    }

    #[test]
    fn migrates_once_and_names_are_unique() {
        let db = Db::open_in_memory().unwrap();
        assert_eq!(db.schema_version().unwrap(), MIGRATIONS.len() as i64);
        migrate(&mut db.conn()).unwrap();
        assert_eq!(db.schema_version().unwrap(), MIGRATIONS.len() as i64);
        two_players(&db);
        assert!(matches!(
            db.create_player("ADA", "ada", &[3; 32]),
            Err(CreatePlayerError::Taken)
        ));
        assert_eq!(db.player_by_token(&[2; 32]).unwrap().unwrap().name, "Bob");
        assert!(db.player_by_token(&[9; 32]).unwrap().is_none());
    }

    #[test]
    fn a_game_is_counted_exactly_once() {
        let db = Db::open_in_memory().unwrap();
        let (a, b) = two_players(&db);
        let g = db.create_game(13, a, b).unwrap();
        db.add_move(g, 1, 'B', "D4").unwrap();
        db.add_move(g, 2, 'W', "pass").unwrap();
        assert!(db.add_move(g, 2, 'W', "pass").is_err());
        assert_eq!(db.unfinished_games().unwrap().len(), 1);
        assert!(db.finish_game(g, "B+R", Some((a, b)), None).unwrap());
        assert!(!db.finish_game(g, "W+R", Some((b, a)), None).unwrap());
        let ada = db.record("ada").unwrap().unwrap();
        assert_eq!((ada.wins, ada.losses), (1, 0));
        assert!(ada.by_size.contains(&(13, 1, 0)));
        assert!(ada.by_size.contains(&(9, 0, 0)));
        let bob = db.record("bob").unwrap().unwrap();
        assert_eq!((bob.wins, bob.losses), (0, 1));
        let game = db.game(g).unwrap().unwrap();
        assert_eq!(game.moves, ["D4", "pass"]);
        assert_eq!(game.result.as_deref(), Some("B+R"));
        assert!(db.unfinished_games().unwrap().is_empty());
        assert_eq!(
            db.leaderboard(20).unwrap(),
            vec![("Ada".to_string(), 1, 0), ("Bob".to_string(), 0, 1)]
        );
    }
}
