//! The store's tests. Each case in `on_every_backend!` runs three times: on a SQLite file (writer and
//! reader threads), on SQLite in memory (one connection), and on PostgreSQL (a fresh database on the
//! test cluster, see [`super::testing`]). A few cases concern one database only (the file lock, the
//! events, the reconnecting listener) and run there.

use super::*;
use gridarena_engine::go::online::ColorPref;

mod clocks;
mod games;
mod players;
mod postgres;
mod queue;
mod schema;
mod sqlite;

/// Generates, for each named `async fn name(b: Backend)` of the module, a test per backend.
macro_rules! on_every_backend {
    ($($name:ident),* $(,)?) => {
        mod sqlite_file {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(crate::store::tests::Backend::File).await
                }
            )*
        }
        mod sqlite_memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(crate::store::tests::Backend::Memory).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(crate::store::tests::Backend::Postgres).await
                }
            )*
        }
    };
}
use on_every_backend;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Backend {
    File,
    Memory,
    Postgres,
}

/// A store on a new, empty database, and what it takes to open it again.
pub(super) struct Db {
    pub store: Store,
    /// The path or URL (empty in memory).
    pub spec: String,
    _dir: Option<tempfile::TempDir>,
}

impl Db {
    pub async fn new(backend: Backend) -> Db {
        match backend {
            Backend::File => {
                let dir = tempfile::tempdir().expect("a temp dir");
                let spec = dir.path().join("t.sqlite3").display().to_string();
                Db {
                    store: Store::open(&spec).await.expect("open the file"),
                    spec,
                    _dir: Some(dir),
                }
            }
            Backend::Memory => Db {
                store: Store::open_in_memory().await.expect("open in memory"),
                spec: String::new(),
                _dir: None,
            },
            Backend::Postgres => {
                let spec = testing::fresh_database().await;
                Db {
                    store: Store::open(&spec).await.expect("open PostgreSQL"),
                    spec,
                    _dir: None,
                }
            }
        }
    }
}

/// A lease and a start time for the tests' own clock.
pub(super) const LEASE: Millis = 10_000;
pub(super) const T0: Millis = 1_700_000_000_000;

pub(super) fn instance(name: &str) -> InstanceId {
    InstanceId(name.to_owned())
}

/// Registers `n` players `P0`.. (keys `p0`..) and returns their ids.
pub(super) async fn players(store: &Store, n: usize) -> Vec<i64> {
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let id = store
            .create_player(
                &format!("P{i}"),
                &format!("p{i}"),
                format!("token {i}").as_bytes(),
            )
            .await
            .expect("create a player");
        ids.push(id);
    }
    ids
}

pub(super) fn request(player: i64, on: &str, conn: u64, size: u8, color: ColorPref) -> SeekRow {
    SeekRow {
        player,
        name: String::new(),
        instance: instance(on),
        conn,
        size,
        color,
    }
}

/// Starts a game between `black` and `white` on `size`, its clock on instance `A`, first deadline
/// `deadline`.
pub(super) async fn new_game(
    store: &Store,
    black: i64,
    white: i64,
    size: u8,
    deadline: Millis,
) -> GameId {
    let a = instance("A");
    store.keep_alive(&a, T0, LEASE).await.expect("keep alive");
    let first = request(black, "A", 1, size, ColorPref::Black);
    let waiting = store.seek(&first, false, T0, LEASE, deadline).await;
    assert_eq!(waiting.expect("seek"), SeekOutcome::Waiting);
    let second = request(white, "A", 2, size, ColorPref::White);
    match store.seek(&second, false, T0, LEASE, deadline).await {
        Ok(SeekOutcome::Paired { game, .. }) => game,
        other => panic!("no game: {other:?}"),
    }
}

/// A finish for a game with `moves` moves, won by `winner` against `loser`; a rated one is counted,
/// an unrated one not ([`counted_win`] is counted and unrated).
pub(super) fn win(winner: i64, loser: i64, moves: u32, rated: bool) -> Finish {
    Finish {
        result: "B+R".into(),
        winner_loser: Some((winner, loser)),
        score: None,
        reason: EndReason::Resignation,
        counted: rated,
        rated,
        moves,
        late_at: None,
    }
}

/// A finish that counts in the records but is not rated (a short game, or a fourth a day).
pub(super) fn counted_win(winner: i64, loser: i64, moves: u32) -> Finish {
    Finish {
        counted: true,
        ..win(winner, loser, moves, false)
    }
}
