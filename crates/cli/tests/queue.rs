//! A tournament on a queue in PostgreSQL (`gridarena halma tournament --queue URL` and
//! `gridarena halma worker URL`): the same standings as in one process, with or without workers and
//! coordinators killed on the way, the database cut off mid-round, a worker stopped with SIGTERM, or
//! an unusable result written into the queue; one coordinator a tournament; a result without its
//! lease refused; a roster over the limits and a tournament changed in the database refused.
//!
//! They need PostgreSQL, so they run only when `GRIDARENA_TEST_PG` names a cluster
//! (`eval "$(scripts/pg-cluster.sh start)"`); each test makes a database of its own on it.

use gridarena_cli::queue::{sql, Db, Refusal};
use gridarena_server::store::testing;
use gridarena_server::store::testing::proxy::{tcp_of, Link, Proxy};
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
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

/// A test's database, its scratch folder (`name`), and `roster_text` written there as roster.json; None
/// (said) without a cluster.
fn setup(test: &str, name: &str, roster_text: &str) -> Option<(String, PathBuf, PathBuf)> {
    let url = database(test)?;
    let dir = scratch(name);
    let roster = dir.join("roster.json");
    fs::write(&roster, roster_text).unwrap();
    Some((url, dir, roster))
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
    worker_command(url, name, lease_s)
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

/// What a child process wrote on stderr so far, copied to the test's own stderr as it comes (with
/// `label`), for the tests that check what it said.
#[derive(Clone)]
struct Said(Arc<Mutex<String>>);

impl Said {
    /// Starts `command` with its stderr read into a [`Said`].
    fn spawn(command: &mut Command, label: &str) -> (Child, Said) {
        let mut child = command
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let said = Said(Arc::default());
        let (stderr, copy, label) = (
            child.stderr.take().unwrap(),
            said.clone(),
            label.to_string(),
        );
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[{label}] {line}");
                let mut text = copy.0.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        (child, said)
    }

    fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }

    /// Waits until a line holds `needle`; that line.
    fn wait_for(&self, needle: &str, limit: Duration) -> String {
        let start = Instant::now();
        loop {
            if let Some(line) = self.text().lines().find(|l| l.contains(needle)) {
                return line.to_string();
            }
            assert!(start.elapsed() < limit, "waited {limit:?} for {needle:?}");
            thread::sleep(Duration::from_millis(20));
        }
    }
}

fn worker_command(url: &str, name: &str, lease_s: &str) -> Command {
    let mut c = bin();
    c.args(["halma", "worker", url, "--name", name, "--poll-ms", "50"])
        .args(["--lease-s", lease_s]);
    c
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
    let Some((url, dir, roster)) = setup(
        "a_queued_tournament_stands_as_one_in_process",
        "same",
        ROSTER,
    ) else {
        return;
    };
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

/// One worker with --jobs 2 plays two games at once, each job on a lease of its own, and the
/// tournament stands as in one process.
#[test]
fn a_worker_with_two_jobs_plays_two_games_at_once() {
    let Some((url, dir, roster)) = setup(
        "a_worker_with_two_jobs_plays_two_games_at_once",
        "jobs",
        SLOW_ROSTER,
    ) else {
        return;
    };
    let local = in_process(&dir, &roster);
    let workers = Kids(vec![worker_command(&url, "two", "5")
        .args(["--jobs", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()]);
    // Two jobs of one worker hold a game each at some moment.
    let held = thread::spawn({
        let url = url.clone();
        move || {
            wait_for(
                &url,
                "SELECT count(DISTINCT lease_owner) FROM tq_games WHERE state = 'playing' \
                 HAVING count(DISTINCT lease_owner) = 2",
                Duration::from_secs(60),
            )
        }
    });
    let out = dir.join("queued");
    let mut c = coordinator(&roster, &out, &url);
    let status = finish(&mut c, Duration::from_secs(60));
    drop(workers);
    assert!(status.success(), "{status}");
    assert_eq!(held.join().unwrap(), vec!["2".to_string()]);
    assert_eq!(standings(&out), local);
    let names = query(
        &url,
        "SELECT count(*), count(DISTINCT done_by), bool_and(done_by LIKE 'two/_#%') FROM tq_games",
    );
    assert_eq!(names[0], vec!["9", "2", "t"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn killed_workers_and_coordinators_lose_nothing_and_count_nothing_twice() {
    let Some((url, dir, roster)) = setup(
        "killed_workers_and_coordinators_lose_nothing",
        "faults",
        SLOW_ROSTER,
    ) else {
        return;
    };
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
    let Some((url, dir, roster)) = setup(
        "a_second_coordinator_of_a_tournament_is_refused",
        "two",
        ROSTER,
    ) else {
        return;
    };
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
        .call(async |c| sql::claim(c, "a", 0.3, &[]).await)
        .unwrap()
        .unwrap();
    assert_eq!((a.number, a.attempt), (0, 1));
    assert!(db
        .call(async |c| sql::claim(c, "b", 0.3, &[]).await)
        .unwrap()
        .is_none());
    thread::sleep(Duration::from_millis(400));
    assert!(!db.call(async |c| sql::renew(c, &a, 0.3).await).unwrap());
    let expired = db.call(async |c| sql::submit(c, &a, "{}").await).unwrap();
    assert_eq!(expired, Err(Refusal::Expired));
    let b = db
        .call(async |c| sql::claim(c, "b", 30.0, &[]).await)
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
    // Nor is a number the tournament does not have.
    let mut missing = b.clone();
    missing.number = 7;
    assert_eq!(
        db.call(async |c| sql::submit(c, &missing, "{}").await)
            .unwrap(),
        Err(Refusal::NoGame)
    );
    // A game of the same number in another tournament, not held, is refused, and not written.
    db.call(async |c| {
        sql::create_tournament(c, "t2", "{}", "{}").await?;
        sql::release(c, "t2", &[(0, 0, "{}".to_string())]).await
    })
    .unwrap();
    assert_eq!(
        db.call(async |c| sql::submit(c, &other, "{}").await)
            .unwrap(),
        Err(Refusal::HeldElsewhere {
            owner: "nobody".to_string(),
            attempt: 0
        })
    );
    assert!(!db.call(async |c| sql::give_back(c, &other).await).unwrap());
    assert!(!db.call(async |c| sql::give_back(c, &b).await).unwrap());
    let rows = query(
        &url,
        "SELECT tournament_id, state, result, done_by, attempts FROM tq_games ORDER BY tournament_id",
    );
    assert_eq!(
        rows,
        [
            ["t1", "done", "{\"b\": 1}", "b", "2"],
            ["t2", "queued", "", "", "0"]
        ]
    );
}

/// Every game of the tournament in `url` once, done, and taken once by the coordinator.
fn assert_each_game_once(url: &str) {
    let games = query(
        url,
        "SELECT count(*), count(DISTINCT number), count(*) FILTER (WHERE state = 'done'),
           count(DISTINCT applied), min(number), max(number) FROM tq_games",
    );
    assert_eq!(games[0], ["9", "9", "9", "9", "0", "8"]);
}

#[test]
fn the_database_going_away_mid_round_loses_nothing() {
    let Some((url, dir, roster)) = setup(
        "the_database_going_away_mid_round_loses_nothing",
        "away",
        SLOW_ROSTER,
    ) else {
        return;
    };
    let local = in_process(&dir, &roster);
    // The proxy runs on a runtime of its own, as long as the test.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let proxy = runtime.block_on(async { Proxy::start(tcp_of(&url).await).await });
    let through = proxy.url_for(&url);
    let out = dir.join("queued");
    let mut kids = Kids(Vec::new());
    let mut said = Vec::new();
    for (command, label) in [
        (
            tournament(&roster, &out).args(["--queue", &through]),
            "coordinator",
        ),
        (&mut worker_command(&through, "w1", "5"), "w1"),
        (&mut worker_command(&through, "w2", "5"), "w2"),
    ] {
        let (child, s) = Said::spawn(command, label);
        kids.0.push(child);
        said.push(s);
    }
    // The database goes away once the first result is in, for 3 s, mid-round.
    wait_for(
        &url,
        "SELECT 1 FROM tq_games WHERE applied IS NOT NULL",
        Duration::from_secs(30),
    );
    proxy.set(Link::Cut);
    for s in &said {
        s.wait_for("the database is unreachable", Duration::from_secs(10));
    }
    thread::sleep(Duration::from_secs(3));
    proxy.set(Link::Forwarding);
    let status = finish(&mut kids.0[0], Duration::from_secs(60));
    assert!(status.success(), "{status}");
    said[0].wait_for("coordinator: the database answers again", Duration::ZERO);
    // The workers carried on: still running, and every game was played.
    for (w, s) in kids.0[1..].iter_mut().zip(&said[1..]) {
        assert!(w.try_wait().unwrap().is_none(), "{}", s.text());
    }
    drop(kids);
    assert_eq!(standings(&out), local);
    assert_each_game_once(&url);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_coordinators_own_stale_session_gives_its_lock_up_and_no_other() {
    let Some(url) = database("a_coordinators_own_stale_session_gives_its_lock_up") else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let session = |name: &str| {
            let mut config: tokio_postgres::Config = url.parse().unwrap();
            config.application_name(name);
            async move {
                let (client, conn) = config.connect(tokio_postgres::NoTls).await.unwrap();
                tokio::spawn(conn);
                client
            }
        };
        let id = "ab".repeat(32);
        // A session of the coordinator's from before a partition, which the server still keeps.
        let stale = session("gridarena 1.a.0").await;
        assert!(sql::try_lock(&stale, &id, "gridarena 1.a.0").await.unwrap());
        // Another coordinator is refused, and ends nothing.
        let other = session("gridarena 2.b.0").await;
        assert!(!sql::try_lock(&other, &id, "gridarena 2.b.0").await.unwrap());
        assert!(!stale.is_closed());
        stale.simple_query("SELECT 1").await.unwrap();
        // The same coordinator, on its new connection, ends its old session and takes the lock.
        let fresh = session("gridarena 1.a.0").await;
        assert!(sql::try_lock(&fresh, &id, "gridarena 1.a.0").await.unwrap());
        assert!(stale.simple_query("SELECT 1").await.is_err());
        assert!(!sql::try_lock(&other, &id, "gridarena 2.b.0").await.unwrap());
    });
}

#[test]
fn a_worker_stopped_with_sigterm_gives_its_game_back_at_once() {
    let Some((url, dir, roster)) = setup(
        "a_worker_stopped_with_sigterm_gives_its_game_back",
        "sigterm",
        SLOW_ROSTER,
    ) else {
        return;
    };
    let local = in_process(&dir, &roster);
    let out = dir.join("queued");
    let mut kids = Kids(vec![coordinator(&roster, &out, &url)]);
    // A lease of a minute: a game that waits for it to run out would be seen still playing below.
    let (doomed, said) = Said::spawn(&mut worker_command(&url, "doomed", "60"), "doomed");
    kids.0.push(doomed);
    let held = wait_for(
        &url,
        "SELECT number FROM tq_games WHERE state = 'playing' AND lease_owner LIKE 'doomed#%'",
        Duration::from_secs(20),
    );
    // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
    assert_eq!(
        unsafe { libc::kill(kids.0[1].id() as i32, libc::SIGTERM) },
        0
    );
    let status = finish(&mut kids.0[1], Duration::from_secs(10));
    assert_eq!(status.code(), Some(128 + libc::SIGTERM), "{}", said.text());
    let number = &held[0];
    let row = query(
        &url,
        &format!("SELECT state, attempts, done_by FROM tq_games WHERE number = {number}"),
    );
    assert_ne!(
        row[0][0], "playing",
        "the game waits for its lease: {row:?}"
    );
    let given_back = row[0][0] == "queued";
    if given_back {
        assert_eq!(row[0][1], "1", "{row:?}");
        let line = said.wait_for("stopped by SIGTERM", Duration::ZERO);
        let game = number.parse::<i32>().unwrap() + 1;
        assert!(
            line.contains(&format!("game {game} of tournament")) && line.contains("given back"),
            "{line}"
        );
    } else {
        eprintln!("note: the doomed worker had finished its game before the signal");
    }
    // It left the progress line.
    assert_eq!(
        query(
            &url,
            "SELECT count(*) FROM tq_workers WHERE name = 'doomed'"
        )[0][0],
        "0"
    );
    kids.0.push(worker(&url, "w1", "5"));
    let status = finish(&mut kids.0[0], Duration::from_secs(60));
    drop(kids);
    assert!(status.success(), "{status}");
    assert_eq!(standings(&out), local);
    assert_each_game_once(&url);
    if given_back {
        let again = query(
            &url,
            &format!("SELECT attempts, done_by FROM tq_games WHERE number = {number}"),
        );
        assert_eq!(again[0][0], "2", "{again:?}");
        assert!(again[0][1].starts_with("w1#"), "{again:?}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_unusable_result_is_played_again_and_counted_once() {
    let Some((url, dir, roster)) = setup(
        "an_unusable_result_is_played_again_and_counted_once",
        "unusable",
        ROSTER,
    ) else {
        return;
    };
    let local = in_process(&dir, &roster);
    let out = dir.join("queued");
    // No worker yet: the first round waits in the queue, and a broken worker "writes" two results.
    let (c, said) = Said::spawn(
        tournament(&roster, &out).args(["--queue", &url]),
        "coordinator",
    );
    let mut kids = Kids(vec![c]);
    wait_for(
        &url,
        "SELECT 1 FROM tq_games WHERE number = 1",
        Duration::from_secs(20),
    );
    query(
        &url,
        "UPDATE tq_games SET state = 'done', attempts = 1, done_by = 'rogue#1', done_at = now(),
           done_seq = nextval('tq_done_seq'),
           result = CASE number WHEN 0 THEN 'not json' ELSE '{\"fixture\": 3}' END
         WHERE number IN (0, 1)",
    );
    for game in [1, 2] {
        let line = said.wait_for(
            &format!("the result of game {game} written by rogue#1 cannot be used"),
            Duration::from_secs(10),
        );
        assert!(line.contains("queued to be played again"), "{line}");
    }
    let rows = query(
        &url,
        "SELECT state, result IS NULL, done_by IS NULL FROM tq_games WHERE number IN (0, 1)",
    );
    assert_eq!(rows, [["queued", "t", "t"], ["queued", "t", "t"]]);
    kids.0.push(worker(&url, "w1", "5"));
    let status = finish(&mut kids.0[0], Duration::from_secs(60));
    drop(kids);
    assert!(status.success(), "{status}");
    assert_eq!(standings(&out), local);
    assert_each_game_once(&url);
    assert_eq!(
        query(
            &url,
            "SELECT count(*) FROM tq_games WHERE done_by LIKE 'rogue%'"
        )[0][0],
        "0"
    );
    // A result the coordinator took, damaged afterwards: the games after it were paired on it, so a
    // resume stops, saying which game and what to do, and changes nothing.
    query(&url, "UPDATE tq_games SET result = '[]' WHERE applied = 0");
    let resumed = tournament(&roster, &out)
        .args(["--queue", &url])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("result number 1, cannot be used any more"),
        "{stderr}"
    );
    assert_each_game_once(&url);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_roster_over_the_entry_limit_is_refused_before_the_database_is_touched() {
    let Some(url) = database("a_roster_over_the_entry_limit_is_refused") else {
        return;
    };
    let dir = scratch("big");
    let roster = dir.join("roster.json");
    let entries: Vec<String> = (0..=gridarena_engine::tournament::MAX_ENTRIES)
        .map(|i| format!(r#"{{"name": "e{i}", "player": "builtin:greedy"}}"#))
        .collect();
    fs::write(
        &roster,
        format!(r#"{{"entries": [{}]}}"#, entries.join(",")),
    )
    .unwrap();
    let o = tournament(&roster, &dir.join("out"))
        .args(["--queue", &url])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a tournament takes at most 512"),
        "{stderr}"
    );
    assert_eq!(
        query(&url, "SELECT to_regclass('tq_tournaments') IS NULL")[0][0],
        "t",
        "the queue's tables were created"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_worker_refuses_a_tournament_changed_in_the_database() {
    let Some(url) = database("a_worker_refuses_a_tournament_changed_in_the_database") else {
        return;
    };
    let mut db = Db::new(&url).unwrap();
    // "t1" is not the SHA-256 of its roster and settings (nothing is), as after an edit of either.
    db.call(async |c| {
        sql::create_tournament(c, "t1", ROSTER, "{}").await?;
        sql::release(
            c,
            "t1",
            &[(0, 0, "{}".to_string()), (1, 0, "{}".to_string())],
        )
        .await
    })
    .unwrap();
    let o = worker_command(&url, "w1", "5")
        .args(["--idle-exit", "0.5"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr
            .contains("refuses tournament t1: its roster or settings in the database do not match"),
        "{stderr}"
    );
    assert!(stderr.contains("0 games played"), "{stderr}");
    // One game was claimed and given back; neither was played.
    let rows = query(
        &url,
        "SELECT number, state, attempts, result IS NULL FROM tq_games ORDER BY number",
    );
    assert_eq!(rows, [["0", "queued", "1", "t"], ["1", "queued", "0", "t"]]);
}

#[test]
fn the_progress_line_shows_the_workers_heard_from_lately() {
    let Some(url) = database("the_progress_line_shows_the_workers_heard_from_lately") else {
        return;
    };
    let mut db = Db::new(&url).unwrap();
    db.call(async |c| {
        sql::create_tournament(c, "t1", "{}", "{}").await?;
        sql::release(c, "t1", &[(0, 0, "{}".to_string())]).await?;
        for w in ["alive", "late", "gone", "stopped"] {
            sql::seen(c, &format!("{w}#1"), w, "lab", None).await?;
        }
        Ok(())
    })
    .unwrap();
    let claim = db
        .call(async |c| sql::claim(c, "alive#1", 30.0, &[]).await)
        .unwrap()
        .unwrap();
    // "late" missed two heartbeats, "gone" four (it was killed); "stopped" said goodbye.
    let heartbeat = gridarena_cli::queue::HEARTBEAT.as_secs();
    query(
        &url,
        &format!(
            "UPDATE tq_workers SET last_seen = now() - make_interval(secs => {}) WHERE name = 'late';
             UPDATE tq_workers SET last_seen = now() - make_interval(secs => {}) WHERE name = 'gone'",
            2 * heartbeat,
            4 * heartbeat
        ),
    );
    let owners = ["stopped#1".to_string()];
    assert!(db
        .call(async |c| sql::stop_worker(c, &owners).await)
        .unwrap()
        .is_empty());
    let counts = db.call(async |c| sql::counts(c, "t1").await).unwrap();
    let shown: Vec<(&str, Option<i32>)> =
        counts.workers.iter().map(|w| (w.0.as_str(), w.3)).collect();
    assert_eq!(shown, [("alive", Some(claim.number)), ("late", None)]);
    assert_eq!((counts.playing, counts.queued), (1, 0));
}
