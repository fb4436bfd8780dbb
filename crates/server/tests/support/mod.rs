//! What the server's integration tests share: a server on 127.0.0.1:0 with a fresh database, raw
//! HTTP/1.1 requests, and a WebSocket client that speaks docs/online.md.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const WAIT: Duration = Duration::from_secs(5);

pub fn temp_db() -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gridarena-server-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("test.sqlite3")
}

pub async fn start_with(db: PathBuf, move_time: Duration) -> SocketAddr {
    start_config(gridarena_server::Config {
        db: db.display().to_string(),
        dist: PathBuf::from("/nonexistent-dist"),
        move_time,
        ..gridarena_server::Config::default()
    })
    .await
}

pub async fn start_config(config: gridarena_server::Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (router, _hub) = gridarena_server::app(&config).await.unwrap();
    tokio::spawn(async move { gridarena_server::serve_router(listener, router, &config).await });
    addr
}

pub async fn start() -> SocketAddr {
    start_with(temp_db(), Duration::from_secs(300)).await
}

/// A minimal HTTP/1.1 request; returns the status, the headers (lower-cased) and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8(buf).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_lowercase(), body.to_string())
}

pub async fn get_json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, _, body) = http(addr, "GET", path, "").await;
    (status, serde_json::from_str(&body).unwrap())
}

pub async fn register(addr: SocketAddr, name: &str) -> String {
    let (status, _, body) = http(
        addr,
        "POST",
        "/api/players",
        &json!({ "name": name }).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    v["token"].as_str().unwrap().to_string()
}

pub async fn record(addr: SocketAddr, name: &str) -> Value {
    let (status, v) = get_json(addr, &format!("/api/players/{}", name.replace(" ", "%20"))).await;
    assert_eq!(status, 200);
    v
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/ws"))
            .await
            .unwrap();
        Client { ws }
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    /// The next JSON message; None if the connection closed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("no message within 5 s");
            match msg {
                Some(Ok(Message::Text(t))) => {
                    return Some(serde_json::from_str(t.as_str()).unwrap())
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    pub async fn recv(&mut self) -> Value {
        self.next().await.expect("the connection closed")
    }

    /// The next message is an `error` whose message contains `says`.
    pub async fn expect_error(&mut self, says: &str) -> Value {
        let e = self.expect("error").await;
        let message = e["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(says),
            "expected an error saying {says:?}, got {e}"
        );
        e
    }

    pub async fn expect(&mut self, kind: &str) -> Value {
        let v = self.recv().await;
        assert_eq!(v["type"], kind, "expected {kind}, got {v}");
        v
    }

    /// Nothing arrives within `ms`.
    pub async fn quiet(&mut self, ms: u64) {
        if let Ok(m) = tokio::time::timeout(Duration::from_millis(ms), self.ws.next()).await {
            panic!("expected nothing, got {m:?}");
        }
    }

    pub async fn hello(addr: SocketAddr, token: &str) -> Client {
        let mut c = Client::connect(addr).await;
        c.send(json!({"type": "hello", "token": token})).await;
        c.expect("welcome").await;
        c
    }

    pub async fn play(&mut self, game: i64, mv: &str) {
        self.send(json!({"type": "move", "game": game, "move": mv}))
            .await;
    }
}

/// Two new players in a new 9x9 game: (black, white, game id).
pub async fn pair(addr: SocketAddr, a: &str, b: &str) -> (Client, Client, i64) {
    let (ca, cb, game, _, _) = pair_with_tokens(addr, a, b).await;
    (ca, cb, game)
}

/// [`pair`], and the two players' tokens.
pub async fn pair_with_tokens(
    addr: SocketAddr,
    a: &str,
    b: &str,
) -> (Client, Client, i64, String, String) {
    let ta = register(addr, a).await;
    let tb = register(addr, b).await;
    let mut ca = Client::hello(addr, &ta).await;
    let mut cb = Client::hello(addr, &tb).await;
    ca.send(json!({"type": "seek", "size": 9, "color": "black"}))
        .await;
    ca.expect("waiting").await;
    cb.send(json!({"type": "seek", "size": 9, "color": "white"}))
        .await;
    let m = ca.expect("matched").await;
    assert_eq!(m["color"], "black");
    assert_eq!(m["opponent"], b);
    let game = m["game"].as_i64().unwrap();
    ca.expect("snapshot").await;
    let m = cb.expect("matched").await;
    assert_eq!(m["color"], "white");
    assert_eq!(m["opponent"], a);
    cb.expect("snapshot").await;
    (ca, cb, game, ta, tb)
}

/// Plays `moves` alternately (Black first), checking both players see each move.
pub async fn play_moves(
    black: &mut Client,
    white: &mut Client,
    game: i64,
    moves: &[&str],
) -> Vec<Value> {
    let mut seen = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut *black } else { &mut *white };
        mover.play(game, mv).await;
        let a = black.expect("move").await;
        let b = white.expect("move").await;
        assert_eq!(a, b);
        assert_eq!(a["move"].as_str().unwrap(), mv.to_string());
        seen.push(a);
    }
    seen
}
