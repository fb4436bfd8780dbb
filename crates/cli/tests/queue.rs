//! A tournament on a queue in PostgreSQL (`gridarena halma tournament --queue URL` and
//! `gridarena halma worker URL`): the same standings as in one process, with or without workers and
//! coordinators killed on the way; one coordinator a tournament; a result without its lease refused.
//!
//! They need PostgreSQL, so they run only when `GRIDARENA_TEST_PG` names a cluster
//! (`eval "$(scripts/pg-cluster.sh start)"`); each test makes a database of its own on it.

use gridarena_cli::queue::{sql, Db, Refusal};
use gridarena_server::store::testing;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A fresh database's URL, or None (and a line saying the test is skipped) without a cluster.
fn database(test: &str) -> Option<String> {
    match std::env::var(testing::ENV) {
        Ok(url) if !url.is_empty() => {}
        _ => {
            eprintln!(
                "{test}: skipped: {} is not set (eval \"$(scripts/pg-cluster.sh start)\")",
                testing::ENV
            );
            return None;
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    Some(runtime.block_on(testing::fresh_database()))
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gridarena"))
}

/// A scratch folder of this test's own.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridarena-queue-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Six built-in entries: fast games that still differ.
const ROSTER: &str = r#"{"entries": [
  {"name": "Ada", "player": "builtin:greedy"},
  {"name": "Bo", "player": "builtin:search-lite"},
  {"name": "Cy", "player": "builtin:greedy"},
  {"name": "Di", "player": "builtin:search-lite"},
  {"name": "Ed", "player": "builtin:greedy"},
  {"name": "Flo", "player": "builtin:search-lite"}
]}"#;

/// The same with the full search: games of about half a second, long enough to kill a worker in one.
const SLOW_ROSTER: &str = r#"{"entries": [
  {"name": "Ada", "player": "builtin:search"},
  {"name": "Bo", "player": "builtin:search"},
  {"name": "Cy", "player": "builtin:search"},
  {"name": "Di", "player": "builtin:search"},
  {"name": "Ed", "player": "builtin:search"},
  {"name": "Flo", "player": "builtin:search"}
]}"#;

/// Child processes killed when dropped, so a failing test leaves none behind (a worker left running
/// would hold the test's stderr open).
struct Kids(Vec<Child>);

impl Drop for Kids {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The tournament's options: Swiss, 3 rounds, the mini preset, a fixed seed.
fn tournament(roster: &Path, out: &Path) -> Command {
    let mut c = bin();
    c.args(["halma", "tournament"])
        .arg(roster)
        .args([
            "--format",
            "swiss",
            "--rounds",
            "3",
            "--preset",
            "mini",
            "--seed",
            "7",
            "--concurrency",
            "3",
            "--out",
        ])
        .arg(out);
    c
}

fn worker(url: &str, name: &str, lease_s: &str) -> Child {
    bin()
        .args(["halma", "worker", url, "--name", name, "--poll-ms", "50"])
        .args(["--lease-s", lease_s])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

fn coordinator(roster: &Path, out: &Path, url: &str) -> Child {
    tournament(roster, out)
        .args(["--queue", url])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

/// Waits for `child` to end within `limit`; kills it and fails past that.
fn finish(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("a process ran over {limit:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// standings.csv without its median_ms column: the built-in AIs' compute times differ from run to
/// run, in one process or on the queue alike; every other column must be the same.
fn standings(out: &Path) -> String {
    let text = fs::read_to_string(out.join("standings.csv")).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let median = header.iter().position(|h| *h == "median_ms").unwrap();
    text.lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            cells.remove(median);
            cells.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The same tournament in one process: its standings.
fn in_process(dir: &Path, roster: &Path) -> String {
    let out = dir.join("local");
    let o: Output = tournament(roster, &out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    standings(&out)
}

/// Runs `sql` on `url`, its rows as strings.
fn query(url: &str, sql: &str) -> Vec<Vec<String>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(conn);
        let rows = client.simple_query(sql).await.unwrap();
        rows.into_iter()
            .filter_map(|m| match m {
                tokio_postgres::SimpleQueryMessage::Row(r) => Some(
                    (0..r.len())
                        .map(|i| r.get(i).unwrap_or("").to_string())
                        .collect(),
                ),
                _ => None,
            })
            .collect()
    })
}

/// Waits until `sql` on `url` returns a row; its first row.
fn wait_for(url: &str, sql: &str, limit: Duration) -> Vec<String> {
    let start = Instant::now();
    loop {
        // The tables appear with the first connection of a worker or the coordinator.
        let exists = query(url, "SELECT to_regclass('tq_games') IS NOT NULL");
        if exists[0][0] == "t" {
            if let Some(row) = query(url, sql).into_iter().next() {
                return row;
            }
        }
        assert!(start.elapsed() < limit, "waited {limit:?} for: {sql}");
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_queued_tournament_stands_as_one_in_process() {
    let Some(url) = database("a_queued_tournament_stands_as_one_in_process") else {
        return;
    };
    let dir = scratch("same");
    let roster = dir.join("roster.json");
    fs::write(&roster, ROSTER).unwrap();
    let local = in_process(&dir, &roster);
    let started = Instant::now();
    let workers = Kids(vec![worker(&url, "w1", "5"), worker(&url, "w2", "5")]);
    let out = dir.join("queued");
    let mut c = coordinator(&roster, &out, &url);
    let status = finish(&mut c, Duration::from_secs(60));
    drop(workers);
    assert!(status.success(), "{status}");
    eprintln!("queued tournament: {:?}", started.elapsed());
    assert_eq!(standings(&out), local);
    let games = query(
        &url,
        "SELECT count(*), count(*) FILTER (WHERE state = 'done'), count(DISTINCT done_by) FROM tq_games",
    );
    assert_eq!(games[0][0], "9");
    assert_eq!(games[0][1], "9");
    assert_eq!(
        query(&url, "SELECT bool_and(finished) FROM tq_tournaments")[0][0],
        "t"
    );
    for n in 1..=9 {
        assert!(
            out.join(format!("games/game-{n}.jsonl")).exists(),
            "game {n}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn killed_workers_and_coordinators_lose_nothing_and_count_nothing_twice() {
    let Some(url) = database("killed_workers_and_coordinators_lose_nothing") else {
        return;
    };
    let dir = scratch("faults");
    let roster = dir.join("roster.json");
    fs::write(&roster, SLOW_ROSTER).unwrap();
    let local = in_process(&dir, &roster);
    let out = dir.join("queued");
    let mut kids = Kids(vec![coordinator(&roster, &out, &url)]);
    kids.0.push(worker(&url, "doomed", "1"));
    // The doomed worker is killed while it holds a game.
    let held = wait_for(
        &url,
        "SELECT number, attempts FROM tq_games WHERE state = 'playing' AND lease_owner LIKE 'doomed#%'",
        Duration::from_secs(20),
    );
    kids.0[1].kill().unwrap();
    kids.0[1].wait().unwrap();
    let number = &held[0];
    let state = query(
        &url,
        &format!("SELECT state, done_by FROM tq_games WHERE number = {number}"),
    );
    let killed_mid_game = state[0][0] == "playing";
    kids.0.push(worker(&url, "w1", "1"));
    kids.0.push(worker(&url, "w2", "1"));
    kids.0.push(worker(&url, "w3", "1"));
    // The coordinator is killed once some games are in, and started again.
    wait_for(
        &url,
        "SELECT 1 FROM tq_games WHERE applied >= 2",
        Duration::from_secs(20),
    );
    kids.0[0].kill().unwrap();
    kids.0[0].wait().unwrap();
    kids.0[0] = coordinator(&roster, &out, &url);
    let status = finish(&mut kids.0[0], Duration::from_secs(60));
    drop(kids);
    assert!(status.success(), "{status}");
    assert_eq!(standings(&out), local);
    // Every game once, each done, each taken once by the coordinator.
    let games = query(
        &url,
        "SELECT count(*), count(DISTINCT number), count(*) FILTER (WHERE state = 'done'),
           count(DISTINCT applied), min(number), max(number) FROM tq_games",
    );
    assert_eq!(games[0], ["9", "9", "9", "9", "0", "8"]);
    if killed_mid_game {
        let again = query(
            &url,
            &format!("SELECT attempts, done_by FROM tq_games WHERE number = {number}"),
        );
        assert!(again[0][0].parse::<i32>().unwrap() >= 2, "{again:?}");
        assert!(!again[0][1].starts_with("doomed#"), "{again:?}");
    } else {
        eprintln!("note: the doomed worker had finished its game before the kill");
    }
    // The bundle holds each game once (its reader refuses a game twice).
    let bundle = fs::read_to_string(out.join("bundle.json")).unwrap();
    let t = gridarena_engine::tournament::event::Tournament::from_bundle(&bundle).unwrap();
    assert_eq!(t.finished_count(), 9);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_second_coordinator_of_a_tournament_is_refused() {
    let Some(url) = database("a_second_coordinator_of_a_tournament_is_refused") else {
        return;
    };
    let dir = scratch("two");
    let roster = dir.join("roster.json");
    fs::write(&roster, ROSTER).unwrap();
    // No workers: the first coordinator waits for its games, holding the tournament.
    let first = Kids(vec![coordinator(&roster, &dir.join("a"), &url)]);
    wait_for(
        &url,
        "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        Duration::from_secs(20),
    );
    let second = tournament(&roster, &dir.join("b"))
        .args(["--queue", &url])
        .output()
        .unwrap();
    drop(first);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("another coordinator"), "{stderr}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_result_without_its_lease_is_refused() {
    let Some(url) = database("a_result_without_its_lease_is_refused") else {
        return;
    };
    let mut db = Db::new(&url).unwrap();
    db.call(async |c| {
        sql::create_tournament(c, "t1", "{}", "{}").await?;
        sql::release(c, "t1", &[(0, 0, "{}".to_string())]).await
    })
    .unwrap();
    // A claims the game; its lease runs out; B claims it again.
    let a = db
        .call(async |c| sql::claim(c, "a", 0.3).await)
        .unwrap()
        .unwrap();
    assert_eq!((a.number, a.attempt), (0, 1));
    assert!(db
        .call(async |c| sql::claim(c, "b", 0.3).await)
        .unwrap()
        .is_none());
    thread::sleep(Duration::from_millis(400));
    assert!(!db.call(async |c| sql::renew(c, &a, 0.3).await).unwrap());
    let expired = db.call(async |c| sql::submit(c, &a, "{}").await).unwrap();
    assert_eq!(expired, Err(Refusal::Expired));
    let b = db
        .call(async |c| sql::claim(c, "b", 30.0).await)
        .unwrap()
        .unwrap();
    assert_eq!((b.number, b.attempt), (0, 2));
    let lost = db.call(async |c| sql::submit(c, &a, "{}").await).unwrap();
    assert_eq!(
        lost,
        Err(Refusal::HeldElsewhere {
            owner: "b".to_string(),
            attempt: 2
        })
    );
    assert_eq!(
        db.call(async |c| sql::submit(c, &b, "{\"b\": 1}").await)
            .unwrap(),
        Ok(())
    );
    // Written once: a late writer is refused, and a repeat of B's own write is taken as done.
    let late = db.call(async |c| sql::submit(c, &a, "{}").await).unwrap();
    assert_eq!(
        late,
        Err(Refusal::DoneElsewhere {
            by: "b".to_string()
        })
    );
    assert_eq!(
        db.call(async |c| sql::submit(c, &b, "{\"b\": 1}").await)
            .unwrap(),
        Ok(())
    );
    // A game of another tournament is no game of this one.
    let mut other = b.clone();
    other.tournament = "t2".to_string();
    assert_eq!(
        db.call(async |c| sql::submit(c, &other, "{}").await)
            .unwrap(),
        Err(Refusal::NoGame)
    );
    let rows = query(
        &url,
        "SELECT state, result, done_by, attempts FROM tq_games",
    );
    assert_eq!(rows, [["done", "{\"b\": 1}", "b", "2"]]);
}
