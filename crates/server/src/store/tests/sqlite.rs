//! SQLite only: one server per file (the lock, also across processes and after kill -9), and group
//! commit.

use super::*;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

fn locked(result: Result<Store, OpenError>) -> bool {
    matches!(result, Err(OpenError::Locked { .. }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_open_of_a_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.sqlite3");
    let spec = path.to_str().unwrap();
    let first = Store::open(spec).await.unwrap();
    let second = Store::open(spec).await;
    assert!(locked(second), "the second open was not refused");
    if let Err(e) = Store::open(spec).await {
        assert!(
            e.to_string().contains("in use by another gridarena server"),
            "{e}"
        );
    }
    drop(first);
    let again = Store::open(spec)
        .await
        .expect("the lock goes with the store");
    assert_eq!(
        again.schema_version().await.unwrap(),
        super::super::sqlite::VERSION
    );
}

/// The child process of [`the_lock_dies_with_its_process`]: holds the store open until killed.
#[tokio::test]
#[ignore = "run by the_lock_dies_with_its_process in a child process"]
async fn lock_holder() {
    let Ok(path) = std::env::var("GRIDARENA_LOCK_HOLDER") else {
        return;
    };
    let _store = Store::open(&path).await.expect("the child opens the file");
    println!("holding {path}");
    tokio::time::sleep(std::time::Duration::from_secs(60)).await;
}

/// Kills the child when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lock_dies_with_its_process() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.sqlite3");
    let spec = path.to_str().unwrap().to_owned();
    let mut child = KillOnDrop(
        Command::new(std::env::current_exe().unwrap())
            .args([
                "store::tests::sqlite::lock_holder",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("GRIDARENA_LOCK_HOLDER", &spec)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let stdout = child.0.stdout.take().unwrap();
    let holding = tokio::task::spawn_blocking(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .any(|l| l.contains("holding "))
    })
    .await
    .unwrap();
    assert!(holding, "the child never held the file");
    assert!(
        locked(Store::open(&spec).await),
        "another process's lock was ignored"
    );
    // kill -9: no destructor runs in the child; the kernel drops the lock.
    child.0.kill().unwrap();
    child.0.wait().unwrap();
    let store = Store::open(&spec)
        .await
        .expect("open after the holder died");
    assert_eq!(
        store.schema_version().await.unwrap(),
        super::super::sqlite::VERSION
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queued_writes_share_transactions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("batch.sqlite3");
    let store = Arc::new(Store::open(path.to_str().unwrap()).await.unwrap());
    let Store::Sqlite(sqlite) = &*store else {
        panic!("not SQLite")
    };
    let (requests0, commits0) = sqlite.write_stats();
    let p = players(&store, 1).await[0];
    let tasks: Vec<_> = (0..500)
        .map(|i| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let r = request(p, "A", i, 9, ColorPref::Any);
                store.seek(&r, true, T0, LEASE, T0).await
            })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap().unwrap(), SeekOutcome::Waiting);
    }
    let (requests, commits) = sqlite.write_stats();
    let (requests, commits) = (requests - requests0, commits - commits0);
    assert_eq!(requests, 501);
    assert!(
        commits < requests,
        "{commits} transactions for {requests} requests"
    );
    eprintln!("group commit: {requests} requests in {commits} transactions");
}
