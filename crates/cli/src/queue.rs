//! A tournament's games on a queue in PostgreSQL, for `gridarena halma tournament --queue URL` (the
//! coordinator) and `gridarena halma worker URL` (any number, on any machines).
//!
//! Tables (created if missing, prefixed `tq_` beside the online server's in the same database):
//! - `tq_tournaments`: one row a tournament, keyed by [`tournament_id`] (the SHA-256 of its roster and
//!   settings as stored), holding both, so a worker needs no shared disk and checks what it fetched.
//! - `tq_games`: one row a game the coordinator released: its fixture, `state` (`queued`, `playing`,
//!   `done`), the lease (`lease_owner`, `lease_until`, `attempts`: the owner and the attempt together
//!   are the lease's token), the result (the engine's `GameReport` as JSON) and the order the
//!   coordinator took results in (`applied`), which a restarted coordinator replays.
//! - `tq_workers`: who plays, for the progress line: name, host, last seen, games done, the game held.
//!
//! A worker claims the first game queued, or playing on a lease that ran out, with `FOR UPDATE SKIP
//! LOCKED`; renews its lease while it plays; and writes the result in one transaction that changes
//! the row only while its lease (owner, attempt, not run out) still holds. So a game is counted once
//! however many times it was started. Every call here is a blocking call on a small runtime of its
//! own; a connection that fails is opened again on the next call ([`Db::retrying`] waits and says
//! so).

use sha2::{Digest, Sha256};
use std::fmt;
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio_postgres::{Client, Config, NoTls};

/// The most bytes a queued tournament's roster may take as JSON (its code included). Every worker
/// fetches it once a tournament; the engine's own cap on a roster's text is 96 MiB, so a roster at
/// that cap with its binary files in base64 may not fit: such a class plays in one process.
pub const MAX_QUEUE_ROSTER_BYTES: usize = 64 * 1024 * 1024;

/// How often a worker says it is alive (`tq_workers.last_seen`), idle or playing: the renewal of its
/// lease doubles as this while it plays, and it is renewed at least this often.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// The progress line shows the workers heard from within this: three heartbeats, so one late
/// report does not drop a worker, and a worker killed without a word (`kill -9`, a machine that went
/// down) leaves the line within 15 s rather than lingering as if it still played.
pub const HEARD_WITHIN: Duration = Duration::from_secs(3 * HEARTBEAT.as_secs());

/// How long one call to the database may take before its connection is taken as gone.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// The tables, created if missing. Each statement is safe to run again, and the whole runs under a
/// transaction-scoped advisory lock: `IF NOT EXISTS` alone is not safe against a second process creating
/// the same table at the same moment (a worker and a coordinator started together), which then fails on
/// a unique index of the catalogue. With the lock, the second waits and finds the tables made.
const SCHEMA: &str = "
BEGIN;
SELECT pg_advisory_xact_lock(7453010373645655921);
CREATE TABLE IF NOT EXISTS tq_tournaments (
    id TEXT PRIMARY KEY,
    roster TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS tq_games (
    tournament_id TEXT NOT NULL REFERENCES tq_tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    round INTEGER NOT NULL,
    fixture TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'playing', 'done')),
    lease_owner TEXT,
    lease_until TIMESTAMPTZ,
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_at TIMESTAMPTZ,
    result TEXT,
    done_at TIMESTAMPTZ,
    done_by TEXT,
    done_seq BIGINT,
    applied INTEGER,
    PRIMARY KEY (tournament_id, number)
);
CREATE INDEX IF NOT EXISTS tq_games_open ON tq_games (number) WHERE state <> 'done';
CREATE SEQUENCE IF NOT EXISTS tq_done_seq;
CREATE TABLE IF NOT EXISTS tq_workers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    host TEXT NOT NULL,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_seen TIMESTAMPTZ NOT NULL DEFAULT now(),
    games_done INTEGER NOT NULL DEFAULT 0,
    tournament_id TEXT,
    number INTEGER
);
COMMIT;
";

/// What went wrong with the database.
#[derive(Debug)]
pub enum QueueError {
    /// The database could not be reached, or a call failed or took too long: worth another try.
    Unreachable(String),
    /// The database answered with something unusable (a bug, or another program's tables).
    Data(String),
}

impl fmt::Display for QueueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueueError::Unreachable(why) => write!(f, "the database is unreachable: {why}"),
            QueueError::Data(why) => write!(f, "the queue's data: {why}"),
        }
    }
}

impl QueueError {
    /// The same error, saying what was being done.
    fn context(self, doing: &str) -> QueueError {
        match self {
            QueueError::Unreachable(why) => QueueError::Unreachable(format!("{doing}: {why}")),
            QueueError::Data(why) => QueueError::Data(format!("{doing}: {why}")),
        }
    }
}

impl From<tokio_postgres::Error> for QueueError {
    fn from(e: tokio_postgres::Error) -> QueueError {
        // A refused statement (SQL state) is data; a dropped socket has none.
        match e.code() {
            Some(code) => QueueError::Data(format!("{e} ({})", code.code())),
            None => QueueError::Unreachable(e.to_string()),
        }
    }
}

impl From<QueueError> for crate::io::Failure {
    fn from(e: QueueError) -> crate::io::Failure {
        crate::io::Failure::Internal(e.to_string())
    }
}

/// The id of a tournament of `roster` (its JSON, code included) under `settings` (JSON): the hex
/// SHA-256 of both, so the same roster and settings find the same tournament, and a worker can check
/// that what it fetched is what the coordinator stored.
pub fn tournament_id(roster: &str, settings: &str) -> String {
    let mut h = Sha256::new();
    for part in [roster, settings] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The advisory lock a coordinator holds on tournament `id`: its first 8 bytes.
pub fn lock_key(id: &str) -> i64 {
    i64::from_str_radix(id.get(..15).unwrap_or("0"), 16).unwrap_or(0)
}

/// A roster's JSON refused for the queue when over [`MAX_QUEUE_ROSTER_BYTES`].
pub fn check_roster_size(bytes: usize) -> Result<(), String> {
    if bytes > MAX_QUEUE_ROSTER_BYTES {
        return Err(format!(
            "the roster is {bytes} bytes as JSON, over the {MAX_QUEUE_ROSTER_BYTES} a queued tournament \
             takes (every worker fetches it); play it without --queue, or with fewer or smaller code entries"
        ));
    }
    Ok(())
}

/// A game a worker holds: the tournament, the game, and the lease's token (owner and attempt).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub tournament: String,
    pub number: i32,
    pub fixture: String,
    pub owner: String,
    pub attempt: i32,
}

/// Why a worker's result was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No such game in this tournament.
    NoGame,
    /// The game was finished by someone else (or by this worker on an earlier lease).
    DoneElsewhere { by: String },
    /// Another worker (or this one, on a newer attempt) holds it now.
    HeldElsewhere { owner: String, attempt: i32 },
    /// The lease ran out (nobody took the game over yet).
    Expired,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoGame => write!(f, "the queue has no such game in this tournament"),
            Refusal::DoneElsewhere { by } => write!(f, "the game was already finished by {by}"),
            Refusal::HeldElsewhere { owner, attempt } => write!(
                f,
                "the lease was lost: {owner} holds the game now (attempt {attempt})"
            ),
            Refusal::Expired => write!(f, "the lease ran out before the result was written"),
        }
    }
}

/// A finished game as the coordinator reads it.
pub struct Done {
    pub number: i32,
    pub result: String,
    pub applied: Option<i32>,
    /// The lease owner that wrote the result (`the bundle` for a game imported from one).
    pub done_by: String,
}

/// The queue's counts for the progress line.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    pub done: i64,
    pub playing: i64,
    pub queued: i64,
    /// Each worker heard from within [`HEARD_WITHIN`]: name, host, games done, the game it plays
    /// (from 0).
    pub workers: Vec<(String, String, i64, Option<i32>)>,
    /// Mean seconds a game took, over the games done.
    pub mean_game_s: Option<f64>,
}

/// One connection to the queue's database, opened on demand, with a runtime of its own to drive it.
pub struct Db {
    url: String,
    runtime: Runtime,
    client: Option<Client>,
    /// Connections opened so far: a session's state (a lock) lasts one generation.
    generation: u64,
    /// The `application_name` of every connection this handle opens, unique to it: a session of
    /// an earlier generation that the server has not noticed gone yet (a partition leaves it open
    /// until its keepalives fail) is known by it as this handle's own, and ended ([`sql::try_lock`]).
    session: String,
    /// How long one call (or opening the connection) may take: [`CALL_TIMEOUT`] unless set.
    timeout: Duration,
}

impl Db {
    /// A handle on `url`; nothing is opened yet.
    pub fn new(url: &str) -> Result<Db, String> {
        let _: Config = url
            .parse()
            .map_err(|e| format!("{url:?} is not a PostgreSQL URL: {e}"))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the database's runtime: {e}"))?;
        static HANDLES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let session = format!(
            "gridarena {}.{nanos:x}.{}",
            std::process::id(),
            HANDLES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        Ok(Db {
            url: url.to_string(),
            runtime,
            client: None,
            generation: 0,
            session,
            timeout: CALL_TIMEOUT,
        })
    }

    /// Cuts each call (and opening the connection) after `timeout` instead of [`CALL_TIMEOUT`]: for
    /// the one last call of a process that is being stopped.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The `application_name` of this handle's connections.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// Whether the connection is open (it may still have died since).
    pub fn connected(&self) -> bool {
        self.client.as_ref().is_some_and(|c| !c.is_closed())
    }

    /// Which connection this is: a new one after each reconnection.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Drops the connection (and with it any session lock it held).
    pub fn close(&mut self) {
        self.client = None;
    }

    /// Runs `f` on the connection, opening it (and the schema) first if it is not open. A failure
    /// that says the database is gone drops the connection, so the next call opens a new one.
    pub fn call<T>(
        &mut self,
        f: impl AsyncFnOnce(&mut Client) -> Result<T, QueueError>,
    ) -> Result<T, QueueError> {
        if !self.connected() {
            self.client = None;
            let mut config: Config = self
                .url
                .parse()
                .map_err(|e| QueueError::Data(format!("the URL: {e}")))?;
            if config.get_connect_timeout().is_none() {
                config.connect_timeout(self.timeout.min(Duration::from_secs(10)));
            }
            config.keepalives_idle(Duration::from_secs(10));
            config.application_name(&self.session);
            let timeout = self.timeout;
            let client = self.runtime.block_on(async {
                let (client, connection) = tokio::time::timeout(timeout, config.connect(NoTls))
                    .await
                    .map_err(|_| QueueError::Unreachable("connecting timed out".to_string()))?
                    .map_err(|e| QueueError::Unreachable(e.to_string()))?;
                tokio::spawn(connection);
                tokio::time::timeout(timeout, client.batch_execute(SCHEMA))
                    .await
                    .map_err(|_| QueueError::Unreachable("creating the tables timed out".into()))?
                    .map_err(|e| {
                        QueueError::from(e).context("the queue's tables could not be created")
                    })?;
                Ok::<_, QueueError>(client)
            })?;
            self.client = Some(client);
            self.generation += 1;
        }
        let client = self.client.as_mut().expect("opened above");
        let timeout = self.timeout;
        let result = self.runtime.block_on(async {
            tokio::time::timeout(timeout, f(client))
                .await
                .unwrap_or_else(|_| Err(QueueError::Unreachable("a call timed out".to_string())))
        });
        if matches!(result, Err(QueueError::Unreachable(_))) {
            self.client = None;
        }
        result
    }

    /// Runs `f` until the database answers: while it is unreachable, says so on stderr (as `who`)
    /// and tries again after 0.5, 1, 2 ... 10 s. A data error is returned at once.
    pub fn retrying<T>(
        &mut self,
        who: &str,
        mut f: impl AsyncFnMut(&mut Client) -> Result<T, QueueError>,
    ) -> Result<T, QueueError> {
        let mut wait = Duration::from_millis(500);
        let mut failing = false;
        loop {
            match self.call(async |c| f(c).await) {
                Err(QueueError::Unreachable(why)) => {
                    eprintln!(
                        "{who}: the database is unreachable ({why}); trying again in {:.1} s, nothing is lost",
                        wait.as_secs_f64()
                    );
                    failing = true;
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_secs(10));
                }
                other => {
                    if failing && other.is_ok() {
                        eprintln!("{who}: the database answers again");
                    }
                    return other;
                }
            }
        }
    }
}

/// The lease rule, in one place: a worker's claim on a game holds while the game is `playing` under
/// its owner and attempt (`$1` the tournament, `$2` the game, `$3` the owner, `$4` the attempt: the
/// statements that use it take [`lease_params`] first). The attempt is part of the token because the
/// same owner may claim the same game again after its lease ran out; a write on the old attempt must
/// then fail. A macro, not a `const`, so that `concat!` builds each statement at compile time.
macro_rules! lease_held {
    () => {
        "tournament_id = $1 AND number = $2 AND lease_owner = $3 AND attempts = $4 AND state = 'playing'"
    };
}

/// [`lease_held!`] and not run out: what renewing a lease and writing a result need. Giving a game
/// back needs only [`lease_held!`]: a game whose lease ran out and that nobody took over yet may as
/// well be queued at once.
macro_rules! lease_live {
    () => {
        concat!(lease_held!(), " AND lease_until >= now()")
    };
}

/// The queries, each one call.
pub mod sql {
    use super::*;
    use tokio_postgres::types::ToSql;
    use tokio_postgres::Client;

    /// `claim`'s lease as the parameters `$1` to `$4` of [`lease_held!`].
    fn lease_params(claim: &Claim) -> [&(dyn ToSql + Sync); 4] {
        [
            &claim.tournament,
            &claim.number,
            &claim.owner,
            &claim.attempt,
        ]
    }

    /// Stores a tournament unless it is there; whether it was new.
    pub async fn create_tournament(
        c: &Client,
        id: &str,
        roster: &str,
        settings: &str,
    ) -> Result<bool, QueueError> {
        let n = c
            .execute(
                "INSERT INTO tq_tournaments (id, roster, settings) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO NOTHING",
                &[&id, &roster, &settings],
            )
            .await?;
        Ok(n == 1)
    }

    /// A tournament's roster and settings.
    pub async fn tournament(c: &Client, id: &str) -> Result<Option<(String, String)>, QueueError> {
        let row = c
            .query_opt(
                "SELECT roster, settings FROM tq_tournaments WHERE id = $1",
                &[&id],
            )
            .await?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    /// Marks a tournament played to its end: workers take no more of its games.
    pub async fn finish_tournament(c: &Client, id: &str) -> Result<(), QueueError> {
        c.execute(
            "UPDATE tq_tournaments SET finished = true WHERE id = $1",
            &[&id],
        )
        .await?;
        Ok(())
    }

    /// Queues games (number, round, fixture JSON) not queued yet.
    pub async fn release(
        c: &mut Client,
        id: &str,
        games: &[(i32, i32, String)],
    ) -> Result<(), QueueError> {
        let tx = c.transaction().await?;
        for (number, round, fixture) in games {
            tx.execute(
                "INSERT INTO tq_games (tournament_id, number, round, fixture) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (tournament_id, number) DO NOTHING",
                &[&id, number, round, fixture],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores games already finished elsewhere (a bundle's), as done and taken, in this order.
    pub async fn import_done(
        c: &mut Client,
        id: &str,
        games: &[(i32, i32, String, String)],
    ) -> Result<(), QueueError> {
        let tx = c.transaction().await?;
        for (i, (number, round, fixture, result)) in games.iter().enumerate() {
            let applied = i as i32;
            tx.execute(
                "INSERT INTO tq_games (tournament_id, number, round, fixture, state, result, done_at,
                   done_by, done_seq, applied)
                 VALUES ($1, $2, $3, $4, 'done', $5, now(), 'the bundle', nextval('tq_done_seq'), $6)
                 ON CONFLICT (tournament_id, number) DO NOTHING",
                &[&id, number, round, fixture, result, &applied],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The finished games, those the coordinator took first (in the order it took them), then the
    /// others in the order they were written; with `only_new`, the others only.
    pub async fn done(c: &Client, id: &str, only_new: bool) -> Result<Vec<Done>, QueueError> {
        let rows = c
            .query(
                "SELECT number, result, applied, done_by FROM tq_games
                 WHERE tournament_id = $1 AND state = 'done' AND ($2 = false OR applied IS NULL)
                 ORDER BY applied NULLS LAST, done_seq",
                &[&id, &only_new],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| Done {
                number: r.get(0),
                result: r.get::<_, Option<String>>(1).unwrap_or_default(),
                applied: r.get(2),
                done_by: r
                    .get::<_, Option<String>>(3)
                    .unwrap_or_else(|| "nobody".to_string()),
            })
            .collect())
    }

    /// Queues game `number` again, its result cleared (and its fixture set to `fixture`, when
    /// given), when it is done and not taken by the coordinator yet (a result the coordinator
    /// cannot use); whether it was.
    pub async fn requeue(
        c: &Client,
        id: &str,
        number: i32,
        fixture: Option<&str>,
    ) -> Result<bool, QueueError> {
        let n = c
            .execute(
                "UPDATE tq_games SET state = 'queued', result = NULL, done_at = NULL, done_by = NULL,
                   done_seq = NULL, lease_owner = NULL, lease_until = NULL,
                   fixture = coalesce($3, fixture)
                 WHERE tournament_id = $1 AND number = $2 AND state = 'done' AND applied IS NULL",
                &[&id, &number, &fixture],
            )
            .await?;
        Ok(n == 1)
    }

    /// Notes that the coordinator took game `number`'s result as its `applied`-th.
    pub async fn applied(
        c: &Client,
        id: &str,
        number: i32,
        applied: i32,
    ) -> Result<(), QueueError> {
        c.execute(
            "UPDATE tq_games SET applied = $3 WHERE tournament_id = $1 AND number = $2",
            &[&id, &number, &applied],
        )
        .await?;
        Ok(())
    }

    /// Takes the coordinator's session lock on tournament `id`: false when another coordinator
    /// holds it. A session named `session` (an earlier connection of the same [`Db`]) that still
    /// holds it is ended first: after a partition the server may keep the old session, and its
    /// lock, until its keepalives fail (hours by default), and this coordinator must not take
    /// itself for another one.
    pub async fn try_lock(c: &Client, id: &str, session: &str) -> Result<bool, QueueError> {
        let key = lock_key(id);
        // Up to 5 s for an ended session to let go, well inside a call's time.
        for _ in 0..50 {
            let row = c
                .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
                .await?;
            if row.get(0) {
                return Ok(true);
            }
            let row = c
                .query_one(
                    // Only rows past WHERE reach the aggregate, so only this handle's sessions
                    // are ended (SQL does not promise the order of an AND's terms).
                    "SELECT count(*), count(*) FILTER (WHERE pg_terminate_backend(a.pid))
                     FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                       AND ((l.classid::bigint << 32) | l.objid::bigint) = $1
                       AND a.application_name = $2 AND a.pid <> pg_backend_pid()",
                    &[&key, &session],
                )
                .await?;
            let mine: i64 = row.get(0);
            if mine == 0 {
                return Ok(false);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(false)
    }

    /// Says a worker is alive (and registers it).
    pub async fn seen(
        c: &Client,
        owner: &str,
        name: &str,
        host: &str,
        holding: Option<(&str, i32)>,
    ) -> Result<(), QueueError> {
        let (t, n) = holding.map_or((None, None), |(t, n)| (Some(t), Some(n)));
        c.execute(
            "INSERT INTO tq_workers (id, name, host, tournament_id, number) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (id) DO UPDATE SET last_seen = now(), tournament_id = $4, number = $5",
            &[&owner, &name, &host, &t, &n],
        )
        .await?;
        Ok(())
    }

    /// Claims the first game free to play (queued, or playing on a lease that ran out) of a tournament
    /// not finished and not in `refused` (those this worker will not play), for `lease` seconds.
    pub async fn claim(
        c: &mut Client,
        owner: &str,
        lease: f64,
        refused: &[String],
    ) -> Result<Option<Claim>, QueueError> {
        let tx = c.transaction().await?;
        let row = tx
            .query_opt(
                "WITH free AS (
                   SELECT g.tournament_id, g.number FROM tq_games g
                   JOIN tq_tournaments t ON t.id = g.tournament_id
                   WHERE NOT t.finished AND t.id <> ALL($3) AND (g.state = 'queued'
                     OR (g.state = 'playing' AND g.lease_until < now()))
                   ORDER BY t.created_at, g.number
                   LIMIT 1 FOR UPDATE OF g SKIP LOCKED)
                 UPDATE tq_games g SET state = 'playing', lease_owner = $1,
                   lease_until = now() + make_interval(secs => $2), attempts = g.attempts + 1,
                   claimed_at = now()
                 FROM free WHERE g.tournament_id = free.tournament_id AND g.number = free.number
                 RETURNING g.tournament_id, g.number, g.fixture, g.attempts",
                &[&owner, &lease, &refused],
            )
            .await?;
        let claim = row.map(|r| Claim {
            tournament: r.get(0),
            number: r.get(1),
            fixture: r.get(2),
            owner: owner.to_string(),
            attempt: r.get(3),
        });
        if let Some(claim) = &claim {
            tx.execute(
                "UPDATE tq_workers SET last_seen = now(), tournament_id = $2, number = $3 WHERE id = $1",
                &[&owner, &claim.tournament, &claim.number],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(claim)
    }

    /// Renews `claim`'s lease for `lease` seconds; false when it no longer holds (lost or ran out).
    pub async fn renew(c: &Client, claim: &Claim, lease: f64) -> Result<bool, QueueError> {
        let [t, g, o, a] = lease_params(claim);
        let n = c
            .execute(
                concat!(
                    "UPDATE tq_games SET lease_until = now() + make_interval(secs => $5) WHERE ",
                    lease_live!()
                ),
                &[t, g, o, a, &lease],
            )
            .await?;
        c.execute(
            "UPDATE tq_workers SET last_seen = now() WHERE id = $1",
            &[&claim.owner],
        )
        .await?;
        Ok(n == 1)
    }

    /// Gives a claimed game back unplayed (the worker cannot play it); whether it was still held.
    pub async fn give_back(c: &Client, claim: &Claim) -> Result<bool, QueueError> {
        let n = c
            .execute(
                concat!(
                    "UPDATE tq_games SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE ",
                    lease_held!()
                ),
                &lease_params(claim),
            )
            .await?;
        Ok(n == 1)
    }

    /// A worker's last word as it stops: every game still `playing` under one of `owners` (the
    /// worker's lease owners, unique to its process) goes back on the queue at once, whatever its
    /// attempt (a lease that ran out and was not taken over is the worker's still, and queued as
    /// well), and the worker leaves the progress line. Returns the games given back (tournament,
    /// number).
    pub async fn stop_worker(
        c: &mut Client,
        owners: &[String],
    ) -> Result<Vec<(String, i32)>, QueueError> {
        let tx = c.transaction().await?;
        let rows = tx
            .query(
                "UPDATE tq_games SET state = 'queued', lease_owner = NULL, lease_until = NULL
                 WHERE lease_owner = ANY($1) AND state = 'playing'
                 RETURNING tournament_id, number",
                &[&owners],
            )
            .await?;
        tx.execute("DELETE FROM tq_workers WHERE id = ANY($1)", &[&owners])
            .await?;
        tx.commit().await?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// Writes `claim`'s result, in one transaction that changes the game only while the lease holds,
    /// and counts it to the worker. A repeat of a write that went through (its answer was lost with
    /// the connection) is taken as done.
    pub async fn submit(
        c: &mut Client,
        claim: &Claim,
        result: &str,
    ) -> Result<Result<(), Refusal>, QueueError> {
        let tx = c.transaction().await?;
        let [t, g, o, a] = lease_params(claim);
        let n = tx
            .execute(
                concat!(
                    "UPDATE tq_games SET state = 'done', result = $5, done_at = now(), done_by = $3,
                       done_seq = nextval('tq_done_seq'), lease_until = NULL WHERE ",
                    lease_live!()
                ),
                &[t, g, o, a, &result],
            )
            .await?;
        if n == 1 {
            tx.execute(
                "UPDATE tq_workers SET games_done = games_done + 1, last_seen = now(),
                   tournament_id = NULL, number = NULL WHERE id = $1",
                &[&claim.owner],
            )
            .await?;
            tx.commit().await?;
            return Ok(Ok(()));
        }
        let row = tx
            .query_opt(
                "SELECT state, lease_owner, attempts, done_by FROM tq_games
                 WHERE tournament_id = $1 AND number = $2",
                &[&claim.tournament, &claim.number],
            )
            .await?;
        tx.rollback().await?;
        let Some(row) = row else {
            return Ok(Err(Refusal::NoGame));
        };
        let state: String = row.get(0);
        let owner: Option<String> = row.get(1);
        let attempt: i32 = row.get(2);
        let done_by: Option<String> = row.get(3);
        let mine = owner.as_deref() == Some(claim.owner.as_str()) && attempt == claim.attempt;
        Ok(match state.as_str() {
            "done" if mine && done_by.as_deref() == Some(claim.owner.as_str()) => Ok(()),
            "done" => Err(Refusal::DoneElsewhere {
                by: done_by.unwrap_or_default(),
            }),
            _ if mine => Err(Refusal::Expired),
            _ => Err(Refusal::HeldElsewhere {
                owner: owner.unwrap_or_else(|| "nobody".to_string()),
                attempt,
            }),
        })
    }

    /// The queue's counts for tournament `id`.
    pub async fn counts(c: &Client, id: &str) -> Result<Counts, QueueError> {
        let row = c
            .query_one(
                "SELECT count(*) FILTER (WHERE state = 'done' AND done_by <> 'the bundle'),
                   count(*) FILTER (WHERE state = 'playing' AND lease_until >= now()),
                   count(*) FILTER (WHERE state = 'queued' OR (state = 'playing' AND lease_until < now())),
                   (avg(extract(epoch FROM done_at - claimed_at))
                     FILTER (WHERE state = 'done' AND claimed_at IS NOT NULL))::float8
                 FROM tq_games WHERE tournament_id = $1",
                &[&id],
            )
            .await?;
        let workers = c
            .query(
                "SELECT w.name, w.host,
                   (SELECT count(*) FROM tq_games g WHERE g.tournament_id = $1 AND g.done_by = w.id),
                   CASE WHEN w.tournament_id = $1 THEN w.number END
                 FROM tq_workers w WHERE w.last_seen > now() - make_interval(secs => $2)
                 ORDER BY w.name, w.id",
                &[&id, &HEARD_WITHIN.as_secs_f64()],
            )
            .await?;
        Ok(Counts {
            done: row.get(0),
            playing: row.get(1),
            queued: row.get(2),
            mean_game_s: row.get(3),
            workers: workers
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tournament_is_named_by_its_roster_and_settings() {
        let a = tournament_id("{\"entries\":[]}", "{\"seed\":1}");
        assert_eq!(a.len(), 64);
        assert_eq!(a, tournament_id("{\"entries\":[]}", "{\"seed\":1}"));
        assert_ne!(a, tournament_id("{\"entries\":[]}", "{\"seed\":2}"));
        // The parts are length-prefixed: moving a byte from one to the other changes the id.
        assert_ne!(tournament_id("ab", "c"), tournament_id("a", "bc"));
        assert_eq!(lock_key(&a), lock_key(&a));
    }

    #[test]
    fn a_roster_over_the_queues_limit_is_refused() {
        assert!(check_roster_size(MAX_QUEUE_ROSTER_BYTES).is_ok());
        let e = check_roster_size(MAX_QUEUE_ROSTER_BYTES + 1).unwrap_err();
        assert!(e.contains("without --queue"), "{e}");
    }
}
