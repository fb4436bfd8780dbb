//! `gridarena serve` as a real process: the crash test. A game is played part way, the server is killed
//! (SIGKILL, no chance to clean up) and started again on the same database: finished games' records are
//! intact, the unfinished game resumes from the same moves and can be played to its end, and its result
//! is counted exactly once.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

struct Server {
    child: Child,
    addr: String,
}

impl Server {
    /// Starts `gridarena serve` on a free port and reads the address it prints.
    fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridarena"))
            .args([
                "serve",
                "--port",
                "0",
                "--dist",
                "/nonexistent-dist",
                "--db",
            ])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("a first line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// SIGKILL, as a crash or a power switch would.
    fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn register(&self, name: &str) -> String {
        let mut resp = ureq::post(self.url("/api/players"))
            .send(json!({ "name": name }).to_string())
            .expect("registered");
        let v: Value = serde_json::from_str(&resp.body_mut().read_to_string().unwrap()).unwrap();
        v["token"].as_str().unwrap().to_string()
    }

    fn record(&self, name: &str) -> (i64, i64) {
        let mut resp = ureq::get(self.url(&format!("/api/players/{name}")))
            .call()
            .expect("a record");
        let v: Value = serde_json::from_str(&resp.body_mut().read_to_string().unwrap()).unwrap();
        assert_eq!(v["by_size"]["9"]["wins"], v["wins"]);
        (v["wins"].as_i64().unwrap(), v["losses"].as_i64().unwrap())
    }

    fn hello(&self, token: &str) -> Client {
        let (ws, _) =
            tungstenite::connect(format!("ws://{}/api/ws", self.addr)).expect("connected");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        }
        let mut c = Client { ws };
        c.send(json!({"type": "hello", "token": token}));
        c.expect("welcome");
        c
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Client {
    fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).expect("sent");
    }

    fn expect(&mut self, kind: &str) -> Value {
        loop {
            match self.ws.read().expect("a message within 10 s") {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    assert_eq!(v["type"], kind, "expected {kind}, got {v}");
                    return v;
                }
                Message::Close(_) => panic!("closed while expecting {kind}"),
                _ => continue,
            }
        }
    }
}

/// Two players matched in a 9x9 game: (black, white, game id).
fn pair(server: &Server, black: &str, white: &str) -> (Client, Client, i64) {
    let (tb, tw) = (server.register(black), server.register(white));
    let mut b = server.hello(&tb);
    let mut w = server.hello(&tw);
    b.send(json!({"type": "seek", "size": 9, "color": "black"}));
    b.expect("waiting");
    w.send(json!({"type": "seek", "size": 9, "color": "any"}));
    let game = b.expect("matched")["game"].as_i64().unwrap();
    b.expect("snapshot");
    w.expect("matched");
    w.expect("snapshot");
    (b, w, game)
}

fn play(mover: &mut Client, other: &mut Client, game: i64, mv: &str) {
    mover.send(json!({"type": "move", "game": game, "move": mv}));
    assert_eq!(mover.expect("move")["move"], mv);
    assert_eq!(other.expect("move")["move"], mv);
}

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
    play(&mut c, &mut d, done, "E5");
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
    let moves = ["C3", "G7", "D4", "F6", "pass"];
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
    assert_eq!(snap["move_number"], 5);
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
    assert!(sgf.contains(";B[cg];W[gc];B[df];W[fd];B[];W[]"), "{sgf}");
    server.kill();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[test]
fn a_move_clock_beyond_seven_days_is_a_usage_error_before_anything_starts() {
    let db = std::env::temp_dir().join(format!(
        "gridarena-serve-move-seconds-{}.sqlite3",
        std::process::id()
    ));
    for seconds in ["0", "604801", "18446744073709551615", "-1"] {
        let out = Command::new(env!("CARGO_BIN_EXE_gridarena"))
            .args(["serve", "--port", "0", "--dist", "/nonexistent-dist"])
            .arg("--db")
            .arg(&db)
            .arg(format!("--move-seconds={seconds}"))
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{seconds}: {stderr}");
        assert!(stderr.contains("--move-seconds"), "{seconds}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing started: {seconds}");
        assert!(!db.exists(), "no database was created for {seconds}");
    }
}
