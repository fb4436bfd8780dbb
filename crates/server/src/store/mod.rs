//! Where the online server keeps everything that must outlive a process: players and their records,
//! games and their moves, the matchmaking queue, and who runs each game's clock. One interface, two
//! databases: SQLite (the embedded default, one server per file) and PostgreSQL (several servers on one
//! database). The hub never sees SQL; every rule that must hold across instances is enforced here, in
//! one transaction, so two instances cannot both pair a player, both store move 12 of a game, or both
//! end a game.
//!
//! **Time.** Deadlines and leases are wall-clock milliseconds since the Unix epoch ([`Millis`]), stored
//! in the database, so an instance that takes a game over knows when its player runs out of time.
//! Instances are expected to keep their clocks in step (NTP); a skew of a few hundred milliseconds only
//! moves a time-out by that much.
//!
//! **Instances.** Each server process has an [`InstanceId`] and says it is alive every few seconds
//! ([`Store::keep_alive`]); its seekers and its clocks are honoured only while it does.
//!
//! **Errors.** A [`StoreError`] is for the server's log, never for a client: it may name tables,
//! constraints or files.
//!
//! **Timeouts.** Every call is bounded by [`CALL_TIMEOUT`]: a database that stops answering (a silent
//! network partition, a disk that hangs) costs a caller an error after that long, never a hang with a
//! game's lock held. A call given up on may still be carried out later (its request may already be on
//! its way); nothing depends on knowing: every write is judged in the database (the move's number, the
//! game's `finished`), so one done late is refused or harmless, and the next read shows what holds.

mod common;
mod postgres;
mod sqlite;
#[cfg(any(test, feature = "test-support"))]
pub mod testing;

use gridarena_engine::go::online::{ColorPref, GameId};
use std::fmt;
use std::future::Future;
use std::time::Duration;
use tokio::sync::broadcast;

pub use postgres::PgStore;
pub use sqlite::SqliteStore;

/// Wall-clock milliseconds since the Unix epoch.
pub type Millis = i64;

/// The wall clock now, in [`Millis`].
pub fn now_ms() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// How long a store call may take before its caller gets an error instead. Under load a call takes
/// milliseconds (the loopback bench's p99 is under 0.3 s), so 10 seconds is a database that stopped
/// answering; and it is well within a move's clock and under half a minute, so a player hears of it.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs a store call under [`CALL_TIMEOUT`].
async fn bounded<T, E: From<StoreError>>(
    what: &str,
    call: impl Future<Output = Result<T, E>>,
) -> Result<T, E> {
    match tokio::time::timeout(CALL_TIMEOUT, call).await {
        Ok(answer) => answer,
        Err(_) => Err(E::from(StoreError(format!(
            "the database did not answer within {} s ({what})",
            CALL_TIMEOUT.as_secs()
        )))),
    }
}

/// One server process's name in the database: random, new at each start.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InstanceId(pub String);

impl fmt::Display for InstanceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A database failure, for the log.
#[derive(Clone, Debug)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

/// Why the database could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Another server process has this SQLite file open (SQLite serves one instance; use PostgreSQL for
    /// several).
    Locked { path: String },
    /// The database was written by a newer GridArena: its schema is `found`, this one knows `known`.
    NewerSchema { found: i64, known: i64 },
    /// Anything else (unreachable server, bad URL, permissions).
    Other(StoreError),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Locked { path } => write!(
                f,
                "{path} is in use by another gridarena server; SQLite serves one server at a time \
                 (run several on PostgreSQL: --db postgres://...)"
            ),
            OpenError::NewerSchema { found, known } => write!(
                f,
                "the database has schema version {found}, newer than this gridarena knows ({known}); \
                 run a newer gridarena, or another database"
            ),
            OpenError::Other(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OpenError {}

/// A player as the server knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: i64,
    pub name: String,
    pub wins: u32,
    pub losses: u32,
}

/// A player's record: in total and per board size (9, 13, 19 always present, in that order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordRow {
    pub name: String,
    pub wins: u32,
    pub losses: u32,
    pub by_size: Vec<(u8, u32, u32)>,
}

/// A stored game: who plays it, its moves in GTP spelling (stones and passes; a resignation or a
/// time-out is in `result`, not here), its result once finished, and the deadline of the move to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub size: u8,
    pub black: (i64, String),
    pub white: (i64, String),
    pub moves: Vec<String>,
    pub result: Option<String>,
    pub score: Option<(u16, u16)>,
    pub deadline: Millis,
}

/// Why a player could not be created.
#[derive(Debug)]
pub enum CreatePlayerError {
    /// The name's key (see `names::name_key`) belongs to someone.
    Taken,
    Store(StoreError),
}

/// A request for a game, as the queue keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRow {
    pub player: i64,
    pub name: String,
    /// The instance holding the player's connection, and the connection there.
    pub instance: InstanceId,
    pub conn: u64,
    pub size: u8,
    pub color: ColorPref,
}

/// A game made without the queue (the house player's, see `crate::hub`): who plays which colour, and
/// the clock, as the queue would set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub size: u8,
    pub black: i64,
    pub white: i64,
    /// The instance that runs the game's clock.
    pub instance: InstanceId,
    pub now: Millis,
    pub first_deadline: Millis,
}

/// What a seek came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeekOutcome {
    /// Queued (replacing the player's earlier request, if any).
    Waiting,
    /// Paired with `waiting`, the oldest compatible request of a live instance, which left the queue;
    /// game `game` was created in the same transaction, with its clock run by the seeking instance.
    Paired {
        game: GameId,
        waiting: SeekRow,
        /// Whether `waiting` plays Black.
        waiting_black: bool,
    },
}

/// Why a move was not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveRefusal {
    /// The game is over (or does not exist).
    Over,
    /// The game has `stored` moves, so this is not the next one: the caller's copy is stale.
    OutOfStep { stored: u32 },
    /// The deadline passed before the move was stored: the player to move has lost on time (the clock
    /// keeper ends the game).
    TooLate,
}

/// How a game ends, to be stored once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// The result in SGF's spelling: `B+R`, `W+T`, `B+3.5`, `0`.
    pub result: String,
    /// The winner's and the loser's player ids; `None` for a draw.
    pub winner_loser: Option<(i64, i64)>,
    /// The area count, when the game was scored.
    pub score: Option<(u16, u16)>,
    /// How the game ended, kept in the game's row so a restart knows it (never replayed as a move).
    pub reason: EndReason,
    /// Whether the result counts in the players' records (total and per size): every decided game
    /// once both players moved ([`crate::policy::is_counted`]).
    pub counted: bool,
    /// Whether the result is also ranked on the leaderboard ([`crate::policy::is_rated`]); a rated
    /// game is counted whatever `counted` says.
    pub rated: bool,
    /// The number of moves the caller's copy holds: the finish is refused (false) if the database holds
    /// another number, i.e. a move arrived meanwhile.
    pub moves: u32,
    /// For a time-out: the finish is refused unless the stored deadline is at or before this instant
    /// (so a move stored in time wins over a clock that woke late).
    pub late_at: Option<Millis>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Two passes, scored.
    Passes,
    Resignation,
    Time,
    /// The move cap was reached: scored as it stands.
    MoveCap,
}

impl EndReason {
    /// The word stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Passes => "passes",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
            EndReason::MoveCap => "move-cap",
        }
    }
}

/// What another instance did, heard through the database (PostgreSQL's LISTEN/NOTIFY). An instance acts
/// on it only for the games and connections it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Move `number` of `game` was stored: `mv` in GTP words, and the deadline it set, so that an
    /// instance whose copy has every move before it plays it without reading the game back.
    Moved {
        game: GameId,
        number: u32,
        mv: String,
        deadline: Millis,
    },
    /// `game` was finished.
    Ended { game: GameId },
    /// `game` was created for a request that waited on `instance`'s connection `conn`.
    Matched {
        game: GameId,
        instance: InstanceId,
        conn: u64,
    },
    /// The notification channel was lost and is back: events may have been missed, so reload what is
    /// held from the database.
    Resync,
}

/// The store, on one of the two databases.
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

/// Calls the same method on whichever database the store is, under [`CALL_TIMEOUT`].
macro_rules! both {
    ($self:ident . $method:ident ( $($arg:expr),* )) => {
        bounded(stringify!($method), async {
            match $self {
                Store::Sqlite(s) => s.$method($($arg),*).await,
                Store::Postgres(s) => s.$method($($arg),*).await,
            }
        })
        .await
    };
}

impl Store {
    /// Opens `spec` (`postgres://...` or `postgresql://...`: PostgreSQL; anything else: a SQLite file,
    /// created if missing) and migrates its schema. A SQLite file is locked for this process.
    pub async fn open(spec: &str) -> Result<Store, OpenError> {
        if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
            Ok(Store::Postgres(PgStore::open(spec).await?))
        } else {
            Ok(Store::Sqlite(
                SqliteStore::open(std::path::Path::new(spec)).await?,
            ))
        }
    }

    /// A private SQLite database in memory (tests).
    pub async fn open_in_memory() -> Result<Store, OpenError> {
        Ok(Store::Sqlite(SqliteStore::open_in_memory().await?))
    }

    /// Whether several instances can share this database.
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// The events of other instances (PostgreSQL); `None` for SQLite, which has no others.
    pub fn events(&self) -> Option<broadcast::Receiver<Event>> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(s) => Some(s.events()),
        }
    }

    /// The schema version in force.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        both!(self.schema_version())
    }

    /// Makes every player's stored key `key(name)` (the rule for keys changed: look-alike names now share
    /// one), in one transaction, at start-up. Returns how many keys changed.
    pub async fn rekey_players(&self, key: fn(&str) -> String) -> Result<usize, StoreError> {
        both!(self.rekey_players(key))
    }

    /// Registers a player whose name has been validated; `key` is unique.
    pub async fn create_player(
        &self,
        name: &str,
        key: &str,
        token_hash: &[u8],
    ) -> Result<i64, CreatePlayerError> {
        both!(self.create_player(name, key, token_hash))
    }

    /// The player holding the token with this hash.
    pub async fn player_by_token(
        &self,
        token_hash: &[u8],
    ) -> Result<Option<PlayerRow>, StoreError> {
        both!(self.player_by_token(token_hash))
    }

    /// The id of the player with this name key.
    pub async fn player_id(&self, key: &str) -> Result<Option<i64>, StoreError> {
        both!(self.player_id(key))
    }

    /// A player's record by name key.
    pub async fn record(&self, key: &str) -> Result<Option<RecordRow>, StoreError> {
        both!(self.record(key))
    }

    /// The top `n` players with a rated game, by their rated games: most wins, then fewest losses,
    /// then name key.
    pub async fn leaderboard(&self, n: u32) -> Result<Vec<(String, u32, u32)>, StoreError> {
        both!(self.leaderboard(n))
    }

    /// Says `instance` is alive at `now`, takes over the clocks of games whose clock instance has been
    /// silent for `lease` ms (and of games with none), and drops the requests of such instances. Returns
    /// how many clocks it took over. A call carried out late (held up in a network partition, behind
    /// a later one) never moves the instance's time back.
    pub async fn keep_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        both!(self.keep_alive(instance, now, lease))
    }

    /// How many instances other than `instance` said they were alive within `lease` ms of `now`.
    pub async fn others_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        both!(self.others_alive(instance, now, lease))
    }

    /// Gives every unfinished game at least until `at` for its next move: for a server that starts on a
    /// database no other instance was serving, since nobody could move while it was down.
    pub async fn grace(&self, at: Millis) -> Result<(), StoreError> {
        both!(self.grace(at))
    }

    /// An instance that stops cleanly: its requests leave the queue, its clocks are free to be taken.
    pub async fn retire(&self, instance: &InstanceId) -> Result<(), StoreError> {
        both!(self.retire(instance))
    }

    /// Matchmaking, in one transaction: drops `seek.player`'s earlier request; takes the oldest request
    /// of the same size from another player on a live instance (seen within `lease` ms of `now`) whose
    /// colour is compatible ([`crate::matchmaking::pair_colors`], `coin` deciding any/any); if there is
    /// one, removes it and creates the game (clock run by `seek.instance`, first deadline
    /// `first_deadline`); otherwise queues `seek`. A request is taken by one transaction only (row
    /// locks), so nobody is paired twice.
    pub async fn seek(
        &self,
        seek: &SeekRow,
        coin: bool,
        now: Millis,
        lease: Millis,
        first_deadline: Millis,
    ) -> Result<SeekOutcome, StoreError> {
        both!(self.seek(seek, coin, now, lease, first_deadline))
    }

    /// Creates a game outside the queue, in one transaction that also drops both players' requests (a
    /// player who is now busy is nobody's partner).
    pub async fn create_game(&self, game: &NewGame) -> Result<GameId, StoreError> {
        both!(self.create_game(game))
    }

    /// Removes a player's request; whether there was one.
    pub async fn cancel_seek(&self, player: i64) -> Result<bool, StoreError> {
        both!(self.cancel_seek(player))
    }

    /// Removes the request made on a connection that closed.
    pub async fn leave(&self, instance: &InstanceId, conn: u64) -> Result<(), StoreError> {
        both!(self.leave(instance, conn))
    }

    /// Whether a request made on `instance`'s connection `conn` waits in the queue.
    pub async fn is_waiting(&self, instance: &InstanceId, conn: u64) -> Result<bool, StoreError> {
        both!(self.is_waiting(instance, conn))
    }

    /// Stores move `number` (from 1) of `game`, played by `color` (`'B'`/`'W'`), if the game is
    /// unfinished, holds `number - 1` moves, and its deadline is not before `now`; the next deadline
    /// becomes `next_deadline`. Other instances hear [`Event::Moved`].
    pub async fn add_move(
        &self,
        game: GameId,
        number: u32,
        color: char,
        mv: &str,
        now: Millis,
        next_deadline: Millis,
    ) -> Result<Result<(), MoveRefusal>, StoreError> {
        // No database holds an id beyond i64: there is no such game.
        let Ok(id) = i64::try_from(game) else {
            return Ok(Err(MoveRefusal::Over));
        };
        both!(self.add_move(id, number, color, mv, now, next_deadline))
    }

    /// Ends `game` as `finish` says, in one transaction, if it is unfinished and `finish.moves` and
    /// `finish.late_at` hold; counts it in both players' records (total and per size) when counted, and
    /// in their leaderboard standing when rated. Returns whether this call ended it, once the commit
    /// is on disk (a power cut cannot take a finished game back). Other instances hear
    /// [`Event::Ended`].
    pub async fn finish(&self, game: GameId, finish: &Finish) -> Result<bool, StoreError> {
        let Ok(id) = i64::try_from(game) else {
            return Ok(false);
        };
        both!(self.finish(id, finish))
    }

    /// How many rated games `a` and `b` finished against each other since `since` (farming check).
    pub async fn rated_between(&self, a: i64, b: i64, since: Millis) -> Result<u32, StoreError> {
        both!(self.rated_between(a, b, since))
    }

    /// The unfinished games whose clock `instance` runs and whose deadline is at or before `now`.
    pub async fn due(&self, instance: &InstanceId, now: Millis) -> Result<Vec<GameId>, StoreError> {
        both!(self.due(instance, now))
    }

    /// The ids of every unfinished game, oldest first (at start-up, to end those whose stored moves
    /// already end them).
    pub async fn unfinished(&self) -> Result<Vec<GameId>, StoreError> {
        both!(self.unfinished())
    }

    /// A player's unfinished games, oldest first.
    pub async fn unfinished_of(&self, player: i64) -> Result<Vec<GameRow>, StoreError> {
        both!(self.unfinished_of(player))
    }

    /// The unfinished games of `player` whose clock `instance` runs, oldest first: those the house
    /// player plays on this instance.
    pub async fn clocked_games_of(
        &self,
        player: i64,
        instance: &InstanceId,
    ) -> Result<Vec<GameId>, StoreError> {
        both!(self.clocked_games_of(player, instance))
    }

    /// One game with its moves.
    pub async fn game(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        let Ok(id) = i64::try_from(id) else {
            return Ok(None);
        };
        both!(self.game(id))
    }
}

#[cfg(test)]
mod tests;
