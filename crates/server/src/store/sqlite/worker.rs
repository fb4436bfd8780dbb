//! SQLite off the async runtime: one writer thread with group commit, and a few reader threads.
//!
//! **Writes.** Every write is a request on a channel to the one writer thread, which owns the only
//! connection that writes. It takes the first request, then every request that queued up meanwhile (up
//! to [`MAX_BATCH`]), and runs them all in one `BEGIN IMMEDIATE ... COMMIT`: that is group commit. Each
//! request runs inside its own savepoint, so one that fails (a taken name, a constraint) is rolled back
//! alone and the others still commit. Answers go out only after the COMMIT, so a caller never announces
//! something that is not stored; if the COMMIT fails, every request of the batch gets its error. Under
//! no load a batch is one request, and its latency is one transaction; under load the cost of a
//! transaction (the WAL frames, the lock) is shared by everything that waited.
//!
//! **Durability.** The connection runs with `synchronous = NORMAL` (WAL): a commit is in the WAL file
//! but not yet on disk, so it survives the process being killed, and a power cut may take back the
//! last commits (never leaving the file inconsistent). That is fine for a move, and costs no disk
//! flush per batch. A request made with [`Workers::write_durable`] (a game's end with its records, a
//! registration) is committed with `synchronous = FULL` instead: its batch's COMMIT waits for the WAL
//! to reach the disk, and since the WAL is one file written in order, every earlier commit is on disk
//! with it.
//!
//! **Reads.** WAL lets readers run beside the writer, so reads go to [`READERS`] threads, each with its
//! own connection (`query_only`), each read in its own read transaction (a consistent snapshot of a
//! game and its moves). A read sees every write whose answer has been given.
//!
//! **In memory** there is one connection (a private in-memory database has no second one), so reads go
//! to the writer thread too and run inside its transaction.
//!
//! A panic inside a request (a bug) is caught: its savepoint is rolled back, its caller gets an error
//! and the thread goes on.

use crate::store::StoreError;
use rusqlite::Connection;
use std::fs::File;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use tokio::sync::oneshot;

/// The most requests committed in one transaction.
pub(super) const MAX_BATCH: usize = 256;

/// Reader threads (and connections) for a file database.
pub(super) const READERS: usize = 4;

/// A write request: runs inside the writer's transaction; answers once the batch has committed.
trait Job: Send {
    /// Does the work; what it returns says whether to roll back its savepoint and holds its answer.
    fn run(self: Box<Self>, conn: &Connection) -> Box<dyn Ran>;
    /// The batch failed before this request ran.
    fn refuse(self: Box<Self>, error: &StoreError);
    /// Whether its commit must be on disk before it is answered.
    fn durable(&self) -> bool;
}

/// A request that has run and waits for the batch's COMMIT.
trait Ran: Send {
    fn failed(&self) -> bool;
    fn deliver(self: Box<Self>, commit: Result<(), &StoreError>);
}

struct Pending<F, T, E> {
    work: F,
    answer: oneshot::Sender<Result<T, E>>,
    durable: bool,
}

struct Done<T, E> {
    result: Result<T, E>,
    answer: oneshot::Sender<Result<T, E>>,
}

impl<F, T, E> Job for Pending<F, T, E>
where
    F: FnOnce(&Connection) -> Result<T, E> + Send,
    T: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    fn run(self: Box<Self>, conn: &Connection) -> Box<dyn Ran> {
        let result = (self.work)(conn);
        Box::new(Done {
            result,
            answer: self.answer,
        })
    }

    fn refuse(self: Box<Self>, error: &StoreError) {
        let _ = self.answer.send(Err(E::from(StoreError(error.0.clone()))));
    }

    fn durable(&self) -> bool {
        self.durable
    }
}

impl<T: Send, E: From<StoreError> + Send> Ran for Done<T, E> {
    fn failed(&self) -> bool {
        self.result.is_err()
    }

    fn deliver(self: Box<Self>, commit: Result<(), &StoreError>) {
        let result = match commit {
            Ok(()) => self.result,
            Err(e) => Err(E::from(StoreError(e.0.clone()))),
        };
        let _ = self.answer.send(result);
    }
}

type ReadJob = Box<dyn FnOnce(&Connection) + Send>;

/// The threads and their channels. Dropping it stops the threads (after the work they hold), closes
/// every connection, and only then releases the file lock: closing another descriptor of the file
/// while SQLite still has it open would drop SQLite's own POSIX locks.
pub(super) struct Workers {
    writer: Option<mpsc::Sender<Box<dyn Job>>>,
    reader: Option<mpsc::Sender<ReadJob>>,
    threads: Vec<JoinHandle<()>>,
    lock: Option<File>,
    stats: Arc<Stats>,
}

/// What the writer has done: requests run, transactions committed (fewer under load: group commit).
#[derive(Default)]
pub(super) struct Stats {
    pub requests: AtomicU64,
    pub commits: AtomicU64,
}

fn stopped() -> StoreError {
    StoreError("the SQLite worker dropped the request (it stopped, or the request panicked)".into())
}

impl Workers {
    /// Starts the writer on `writer` and a reader thread on each of `readers` (none: reads go to the
    /// writer). `lock` is held until the threads are gone.
    pub(super) fn start(
        writer: Connection,
        readers: Vec<Connection>,
        lock: Option<File>,
    ) -> Result<Workers, StoreError> {
        let spawn_err =
            |e: std::io::Error| StoreError(format!("cannot start a SQLite thread: {e}"));
        let mut threads = Vec::new();
        let (wtx, wrx) = mpsc::channel();
        let stats = Arc::new(Stats::default());
        let counts = Arc::clone(&stats);
        threads.push(
            std::thread::Builder::new()
                .name("sqlite-writer".into())
                .spawn(move || write_loop(writer, wrx, &counts))
                .map_err(spawn_err)?,
        );
        let reader = if readers.is_empty() {
            None
        } else {
            let (rtx, rrx) = mpsc::channel::<ReadJob>();
            let rrx = Arc::new(Mutex::new(rrx));
            for (i, conn) in readers.into_iter().enumerate() {
                let rrx = Arc::clone(&rrx);
                threads.push(
                    std::thread::Builder::new()
                        .name(format!("sqlite-reader-{i}"))
                        .spawn(move || read_loop(conn, &rrx))
                        .map_err(spawn_err)?,
                );
            }
            Some(rtx)
        };
        Ok(Workers {
            writer: Some(wtx),
            reader,
            threads,
            lock,
            stats,
        })
    }

    /// (requests run, transactions committed) by the writer so far.
    pub(super) fn stats(&self) -> (u64, u64) {
        (
            self.stats.requests.load(Ordering::Relaxed),
            self.stats.commits.load(Ordering::Relaxed),
        )
    }

    /// Runs `work` in the writer's transaction; its answer comes after the COMMIT. An `Err` from `work`
    /// rolls back what it did (and only that).
    pub(super) async fn write<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.send_write(work, false).await
    }

    /// [`Workers::write`], answered only once the commit is on disk (`synchronous = FULL`), so that a
    /// power cut cannot take it back.
    pub(super) async fn write_durable<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.send_write(work, true).await
    }

    async fn send_write<T, E, F>(&self, work: F, durable: bool) -> Result<T, E>
    where
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (answer, rx) = oneshot::channel();
        let job: Box<dyn Job> = Box::new(Pending {
            work,
            answer,
            durable,
        });
        let sent = self.writer.as_ref().map(|w| w.send(job));
        if !matches!(sent, Some(Ok(()))) {
            return Err(E::from(stopped()));
        }
        rx.await.unwrap_or_else(|_| Err(E::from(stopped())))
    }

    /// Runs `work` in a read transaction on a reader (on the writer for a database in memory).
    pub(super) async fn read<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
        T: Send + 'static,
    {
        let Some(reader) = &self.reader else {
            return self.write(work).await;
        };
        let (answer, rx) = oneshot::channel();
        let job: ReadJob = Box::new(move |conn: &Connection| {
            let _ = answer.send(in_read_transaction(conn, work));
        });
        reader.send(job).map_err(|_| stopped())?;
        rx.await.unwrap_or_else(|_| Err(stopped()))
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.writer.take();
        self.reader.take();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
        self.lock.take();
    }
}

fn in_read_transaction<T>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    conn.execute_batch("BEGIN")?;
    let result = work(conn);
    // A read changes nothing: COMMIT and ROLLBACK are alike; ROLLBACK cannot fail on a read.
    conn.execute_batch("ROLLBACK")?;
    result
}

fn read_loop(conn: Connection, jobs: &Mutex<mpsc::Receiver<ReadJob>>) {
    loop {
        // One idle reader waits on the channel at a time; the others wait for the lock.
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(job) = job else { return };
        let _ = catch_unwind(AssertUnwindSafe(|| job(&conn)));
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
    }
}

/// The `synchronous` level for a batch: FULL when a request of it must be on disk when answered.
fn synchronous_for(durable: bool) -> &'static str {
    if durable {
        "PRAGMA synchronous = FULL"
    } else {
        "PRAGMA synchronous = NORMAL"
    }
}

fn write_loop(conn: Connection, jobs: mpsc::Receiver<Box<dyn Job>>, stats: &Stats) {
    // What the connection was configured with (`configure`).
    let mut durable_now = false;
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let n = batch.len() as u64;
        let durable = batch.iter().any(|job| job.durable());
        if durable != durable_now {
            // Outside any transaction, so it holds for this batch's COMMIT.
            if let Err(e) = conn.execute_batch(synchronous_for(durable)) {
                let e = StoreError::from(e);
                for job in batch {
                    job.refuse(&e);
                }
                continue;
            }
            durable_now = durable;
        }
        run_batch(&conn, batch, |committed| {
            if committed {
                stats.requests.fetch_add(n, Ordering::Relaxed);
                stats.commits.fetch_add(1, Ordering::Relaxed);
            }
        });
    }
}

/// Runs a batch in one transaction, each request in its own savepoint, then answers them all.
/// `counted` learns whether it committed before any request is answered, so whoever is answered
/// already sees its request in the writer's figures.
fn run_batch(conn: &Connection, batch: Vec<Box<dyn Job>>, counted: impl FnOnce(bool)) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        counted(false);
        let e = StoreError::from(e);
        for job in batch {
            job.refuse(&e);
        }
        return;
    }
    let mut ran: Vec<Box<dyn Ran>> = Vec::with_capacity(batch.len());
    let mut jobs = batch.into_iter();
    let mut broken = None;
    for job in jobs.by_ref() {
        if let Err(e) = conn.execute_batch("SAVEPOINT request") {
            let e = StoreError::from(e);
            job.refuse(&e);
            broken = Some(e);
            break;
        }
        let done = catch_unwind(AssertUnwindSafe(|| job.run(conn))).ok();
        let end = match &done {
            Some(d) if !d.failed() => conn.execute_batch("RELEASE request"),
            _ => conn.execute_batch("ROLLBACK TO request; RELEASE request"),
        };
        ran.extend(done);
        if let Err(e) = end {
            // SQLite rolled back the whole transaction (disk full, I/O): nothing of the batch holds.
            broken = Some(StoreError::from(e));
            break;
        }
    }
    let outcome = match broken {
        Some(e) => Err(e),
        None => conn.execute_batch("COMMIT").map_err(StoreError::from),
    };
    if outcome.is_err() && !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    let outcome = outcome.as_ref().map(|_| ());
    counted(outcome.is_ok());
    for job in jobs {
        job.refuse(outcome.err().unwrap_or(&stopped()));
    }
    for done in ran {
        done.deliver(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `synchronous` level a request sees inside its batch: 1 is NORMAL, 2 FULL.
    fn level(c: &Connection) -> Result<i64, StoreError> {
        Ok(c.query_row("PRAGMA synchronous", [], |r| r.get(0))?)
    }

    #[tokio::test]
    async fn a_durable_write_commits_with_synchronous_full_and_a_move_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let conn = Connection::open(dir.path().join("t.sqlite3")).unwrap();
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            .unwrap();
        let workers = Workers::start(conn, Vec::new(), None).unwrap();
        assert_eq!(workers.write(level).await.unwrap(), 1);
        assert_eq!(workers.write_durable(level).await.unwrap(), 2);
        assert_eq!(workers.write(level).await.unwrap(), 1, "back to NORMAL");
        // Whatever batch it shares, a durable request is committed durably.
        let (a, b) = tokio::join!(workers.write(level), workers.write_durable(level));
        assert!(a.is_ok());
        assert_eq!(b.unwrap(), 2);
    }
}
