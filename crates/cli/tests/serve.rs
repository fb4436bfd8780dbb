//! `gridarena serve` as a real process: the crash test. A game is played part way, the server is killed
//! (SIGKILL, no chance to clean up) and started again on the same database: finished games' records are
//! intact, the unfinished game resumes from the same moves and can be played to its end, and its result
//! is counted exactly once.

#[path = "support/online.rs"]
mod online;

use online::{pair, play, Server, OPENING};
use serde_json::json;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn temp_db() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridarena-serve-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("online.sqlite3")
}

#[test]
fn a_killed_server_restarts_with_records_intact_and_the_game_resumable() {
    let db = temp_db();
    let server = Server::start(&db);

    // One game ends before the crash: its record must survive.
    let (mut c, mut d, done) = pair(&server, "Cleo", "Dan");
    // Ten moves, so that the game counts in the records.
    for (i, mv) in OPENING.iter().enumerate() {
        if i % 2 == 0 {
            play(&mut c, &mut d, done, mv);
        } else {
            play(&mut d, &mut c, done, mv);
        }
    }
    d.send(json!({"type": "resign", "game": done}));
    assert_eq!(c.expect("ended")["result"], "B+R");
    assert_eq!(server.record("Cleo"), (1, 0));

    // One game is in progress when the server dies.
    let ta = server.register("Ann");
    let tb = server.register("Bob");
    let mut a = server.hello(&ta);
    let mut b = server.hello(&tb);
    a.send(json!({"type": "seek", "size": 9, "color": "black"}));
    a.expect("waiting");
    b.send(json!({"type": "seek", "size": 9, "color": "white"}));
    let game = a.expect("matched")["game"].as_i64().unwrap();
    a.expect("snapshot");
    b.expect("matched");
    b.expect("snapshot");
    let mut moves = OPENING.to_vec();
    moves.push("pass");
    for (i, mv) in moves.iter().enumerate() {
        if i % 2 == 0 {
            play(&mut a, &mut b, game, mv);
        } else {
            play(&mut b, &mut a, game, mv);
        }
    }
    server.kill();

    let server = Server::start(&db);
    assert_eq!(server.record("Cleo"), (1, 0));
    assert_eq!(server.record("Dan"), (0, 1));
    assert_eq!(server.record("Ann"), (0, 0));
    let mut b = server.hello(&tb);
    let snap = b.expect("snapshot");
    assert_eq!(snap["game"], game);
    assert_eq!(snap["moves"], json!(moves));
    assert_eq!(snap["move_number"], 11);
    assert_eq!(snap["to_move"], "white");
    let mut a = server.hello(&ta);
    let snap_a = a.expect("snapshot");
    let mut expected = snap.clone();
    // Only the clock may differ, by the time between the two hellos.
    expected["clock_ms"] = snap_a["clock_ms"].clone();
    assert_eq!(snap_a, expected);
    assert!(
        snap_a["clock_ms"].as_u64().unwrap() > 290_000,
        "a fresh clock"
    );

    // Finish it: White passes too.
    b.send(json!({"type": "move", "game": game, "move": "pass"}));
    b.expect("move");
    a.expect("move");
    let ended = a.expect("ended");
    assert_eq!(b.expect("ended"), ended);
    // The area count decides; with komi 0.5, White wins this symmetric position.
    assert_eq!(ended["result"], "W+0.5");
    assert_eq!(server.record("Ann"), (0, 1));
    assert_eq!(server.record("Bob"), (1, 0));

    // A second crash after the end counts nothing again.
    server.kill();
    let server = Server::start(&db);
    assert_eq!(server.record("Ann"), (0, 1));
    assert_eq!(server.record("Bob"), (1, 0));
    assert_eq!(server.record("Cleo"), (1, 0));
    let mut resp = ureq::get(server.url(&format!("/api/games/{game}/sgf")))
        .call()
        .expect("the record");
    let sgf = resp.body_mut().read_to_string().unwrap();
    assert!(sgf.contains(";B[eg];W[ec];B[];W[]"), "{sgf}");
    server.kill();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[test]
fn a_second_server_on_the_same_sqlite_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("gridarena-serve-twice-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("online.sqlite3");
    let first = Server::start(&db);
    let second = Command::new(env!("CARGO_BIN_EXE_gridarena"))
        .args([
            "serve",
            "--port",
            "0",
            "--dist",
            "/nonexistent-dist",
            "--db",
        ])
        .arg(&db)
        .output()
        .expect("the binary runs");
    assert!(!second.status.success());
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("in use by another gridarena server"), "{err}");
    // The first goes on serving.
    assert_eq!(first.record_of_new("Still"), (0, 0));
    first.kill();
    // Once it is gone (even killed), the file is free again.
    let again = Server::start(&db);
    again.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_option_out_of_range_is_a_usage_error_before_anything_starts() {
    let db = std::env::temp_dir().join(format!(
        "gridarena-serve-options-{}.sqlite3",
        std::process::id()
    ));
    let cases = [
        ("--move-seconds", "0"),
        ("--move-seconds", "604801"),
        ("--move-seconds", "18446744073709551615"),
        ("--move-seconds", "-1"),
        ("--house-seconds", "0"),
        ("--house-seconds", "61"),
        ("--house-seconds", "NaN"),
        ("--house-games", "-1"),
        ("--house-games", "10001"),
    ];
    for (option, value) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_gridarena"))
            .args(["serve", "--port", "0", "--dist", "/nonexistent-dist"])
            .arg("--db")
            .arg(&db)
            .arg(format!("{option}={value}"))
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option} {value}: {stderr}");
        assert!(stderr.contains(option), "{option} {value}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing started: {option} {value}");
        assert!(!db.exists(), "no database was created for {option} {value}");
    }
}
