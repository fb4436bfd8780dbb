//! `gridarena serve` as a real process, and blocking WebSocket clients for it: shared by the crash
//! test and the several-instances tests (each uses part of it).
#![allow(dead_code)]

use serde_json::{json, Value};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A `gridarena serve` process.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// Starts `gridarena serve` on a free port and reads the address it prints.
    pub fn start(db: impl AsRef<OsStr>) -> Server {
        Server::start_with(db, &[])
    }

    /// [`Server::start`] with more options (a short clock, a short lease).
    pub fn start_with(db: impl AsRef<OsStr>, more: &[&str]) -> Server {
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
            .args(more)
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
    pub fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn register(&self, name: &str) -> String {
        let mut resp = ureq::post(self.url("/api/players"))
            .send(json!({ "name": name }).to_string())
            .expect("registered");
        let v: Value = serde_json::from_str(&resp.body_mut().read_to_string().unwrap()).unwrap();
        v["token"].as_str().unwrap().to_string()
    }

    pub fn record(&self, name: &str) -> (i64, i64) {
        let mut resp = ureq::get(self.url(&format!("/api/players/{name}")))
            .call()
            .expect("a record");
        let v: Value = serde_json::from_str(&resp.body_mut().read_to_string().unwrap()).unwrap();
        assert_eq!(v["by_size"]["9"]["wins"], v["wins"]);
        (v["wins"].as_i64().unwrap(), v["losses"].as_i64().unwrap())
    }

    /// Registers `name` and reads their record back.
    pub fn record_of_new(&self, name: &str) -> (i64, i64) {
        self.register(name);
        self.record(name)
    }

    pub fn hello(&self, token: &str) -> Client {
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

/// A WebSocket client (blocking; 10 s read timeout).
pub struct Client {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).expect("sent");
    }

    pub fn expect(&mut self, kind: &str) -> Value {
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
pub fn pair(server: &Server, black: &str, white: &str) -> (Client, Client, i64) {
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

pub fn play(mover: &mut Client, other: &mut Client, game: i64, mv: &str) {
    mover.send(json!({"type": "move", "game": game, "move": mv}));
    assert_eq!(mover.expect("move")["move"], mv);
    assert_eq!(other.expect("move")["move"], mv);
}

pub use gridarena_server::store::testing::OPENING;
