//! What one player, one address or a few addresses may hold of a server (issue 35, items 7 and 8):
//! sockets per account, the connections kept for new addresses when the server is nearly full, idle
//! sockets, and house games per address. Real servers on 127.0.0.1:0; 127.0.0.2 and 127.0.0.3 are
//! other client addresses on the same machine.

mod support;

use futures_util::StreamExt;
use gridarena_server::hub::HouseConfig;
use serde_json::json;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use support::*;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A server with a fresh database and the defaults, but for what `change` sets.
async fn start_changed(change: impl FnOnce(&mut gridarena_server::Config)) -> SocketAddr {
    let mut config = gridarena_server::Config {
        db: temp_db().display().to_string(),
        dist: PathBuf::from("/nonexistent-dist"),
        ..gridarena_server::Config::default()
    };
    change(&mut config);
    start_config(config).await
}

/// A TCP connection to `addr` from the loopback address `from`.
async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

/// `n` connections from `from`, opened one after the other (so the server counts them in order):
/// for each, the refusal's text, or `None` if it was admitted (it then waits for a request).
async fn open_from(
    from: &str,
    addr: SocketAddr,
    n: usize,
) -> (Vec<TcpStream>, Vec<Option<String>>) {
    let mut held = Vec::new();
    for _ in 0..n {
        held.push(connect_from(from, addr).await);
    }
    // A refusal is written at once; give the server a moment to reach the last one.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let answers = held
        .iter()
        .map(|s| {
            let mut buf = vec![0u8; 1024];
            match s.try_read(&mut buf) {
                Ok(k) if k > 0 => Some(String::from_utf8_lossy(&buf[..k]).into_owned()),
                Ok(_) => Some("closed without a word".to_string()),
                Err(_) => None,
            }
        })
        .collect();
    (held, answers)
}

/// How many of `answers` were admitted, and the first refusal.
fn admitted(answers: &[Option<String>]) -> (usize, String) {
    let n = answers.iter().take_while(|a| a.is_none()).count();
    let refusal = answers.get(n).cloned().flatten().unwrap_or_default();
    (n, refusal)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_few_addresses_cannot_take_the_last_quarter_of_the_connections() {
    // 80 connections in all; the last 20 are kept for addresses with few (under 16) connections.
    let addr = start_changed(|c| {
        c.max_connections = 80;
        c.max_connections_per_address = 70;
    })
    .await;
    let (_a, answers) = open_from("127.0.0.1", addr, 65).await;
    let (n, refusal) = admitted(&answers);
    assert_eq!(
        n, 60,
        "the first address stops at three quarters: {refusal}"
    );
    assert!(refusal.starts_with("HTTP/1.1 503"), "{refusal}");
    assert!(refusal.contains("nearly full"), "{refusal}");
    assert!(
        answers[n..].iter().all(Option::is_some),
        "all refused past it"
    );
    // A second address gets a few of the last quarter, not all of it.
    let (_b, answers) = open_from("127.0.0.2", addr, 17).await;
    let (n, refusal) = admitted(&answers);
    assert_eq!(n, 16, "{refusal}");
    assert!(refusal.contains("nearly full"), "{refusal}");
    // So a third still gets in, up to the total.
    let (_c, answers) = open_from("127.0.0.3", addr, 5).await;
    let (n, refusal) = admitted(&answers);
    assert_eq!(n, 4, "{refusal}");
    assert!(
        refusal.contains("too many connections to this server"),
        "{refusal}"
    );
}

/// The next text message, skipping pings; `None` when the server closed the connection (the close
/// frame's reason with it).
async fn next_text(c: &mut Client, within: Duration) -> Result<serde_json::Value, Option<String>> {
    loop {
        match tokio::time::timeout(within, c.ws.next()).await {
            Err(_) => panic!("nothing within {within:?}"),
            Ok(Some(Ok(Message::Text(t)))) => return Ok(serde_json::from_str(t.as_str()).unwrap()),
            Ok(Some(Ok(Message::Close(frame)))) => return Err(frame.map(|f| f.reason.to_string())),
            Ok(Some(Ok(_))) => continue,
            Ok(_) => return Err(None),
        }
    }
}

/// The connection stays open and silent (pings aside) for `ms`.
async fn stays_open(c: &mut Client, ms: u64) {
    let until = tokio::time::Instant::now() + Duration::from_millis(ms);
    loop {
        match tokio::time::timeout_at(until, c.ws.next()).await {
            Err(_) => return,
            Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
            Ok(other) => panic!("expected the connection to stay quiet, got {other:?}"),
        }
    }
}

/// The server tells `c` why, then closes it with code 1008.
async fn told_and_closed(c: &mut Client, says: &str, within: Duration) {
    let error = next_text(c, within).await.expect("an error first");
    assert_eq!(error["type"], "error", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(says), "expected {says:?}: {message}");
    let reason = next_text(c, Duration::from_secs(2))
        .await
        .expect_err("then the close");
    assert!(reason.is_some(), "a close frame with a reason");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_account_holds_at_most_four_sockets() {
    let addr = start_changed(|_| {}).await;
    let token = register(addr, "Hoarder").await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(Client::hello(addr, &token).await);
    }
    let mut fifth = Client::connect(addr).await;
    fifth.send(json!({"type": "hello", "token": token})).await;
    told_and_closed(&mut fifth, "4 connections open already", WAIT).await;
    // Another account is welcome, and so is the first once one of its sockets closes.
    Client::hello(addr, &register(addr, "Other").await).await;
    held.pop().unwrap().ws.close(None).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    Client::hello(addr, &token).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_follows_nothing_is_closed_after_the_idle_time() {
    let idle = Duration::from_millis(600);
    // The heartbeat stays at its 30 s: these clients are read one at a time, so none answers pings.
    let addr = start_changed(|c| c.idle_timeout = idle).await;
    let started = Instant::now();
    let mut lurker = Client::hello(addr, &register(addr, "Lurker").await).await;
    // A seeker, two players in a game and a spectator follow something: they stay.
    let mut seeker = Client::hello(addr, &register(addr, "Seeker").await).await;
    seeker
        .send(json!({"type": "seek", "size": 13, "color": "any"}))
        .await;
    seeker.expect("waiting").await;
    let (mut black, mut white, game) = pair(addr, "Black", "White").await;
    let mut fan = Client::hello(addr, &register(addr, "Fan").await).await;
    fan.send(json!({"type": "watch", "game": game})).await;
    fan.expect("snapshot").await;
    told_and_closed(&mut lurker, "idle", Duration::from_secs(3)).await;
    let waited = started.elapsed();
    assert!(waited >= idle && waited < idle * 4, "{waited:?}");
    for c in [&mut seeker, &mut black, &mut white, &mut fan] {
        stays_open(c, 1000).await;
    }
    // Once the game is over and the seek withdrawn, they follow nothing either.
    black.send(json!({"type": "resign", "game": game})).await;
    seeker.send(json!({"type": "cancel"})).await;
    seeker.expect("cancelled").await;
    for c in [&mut black, &mut white, &mut fan] {
        assert_eq!(next_text(c, WAIT).await.unwrap()["type"], "ended");
    }
    for c in [&mut seeker, &mut black, &mut white, &mut fan] {
        told_and_closed(c, "idle", Duration::from_secs(3)).await;
    }
}

/// A WebSocket from the loopback address `from` that said hello as a new player `name`.
async fn hello_from(from: &str, addr: SocketAddr, name: &str) -> Client {
    let token = register(addr, name).await;
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(connect_from(from, addr).await);
    let request = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    let (ws, _) = tokio_tungstenite::client_async(request, stream)
        .await
        .unwrap();
    let mut c = Client { ws };
    c.send(json!({"type": "hello", "token": token})).await;
    c.expect("welcome").await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn free_accounts_from_one_address_cannot_take_every_house_game() {
    // Four house games at once: at most a quarter of them, one, for one address.
    let addr = start_changed(|c| {
        c.house = HouseConfig {
            games: 4,
            think: Duration::from_millis(20),
            searches: 1,
        }
    })
    .await;
    let mut first = hello_from("127.0.0.1", addr, "First").await;
    first
        .send(json!({"type": "house", "size": 9, "color": "black"}))
        .await;
    first.expect("matched").await;
    // A second free account from the same address is refused...
    let mut second = hello_from("127.0.0.1", addr, "Second").await;
    second
        .send(json!({"type": "house", "size": 9, "color": "black"}))
        .await;
    second.expect_error("from your address").await;
    // ...while another address still gets a game.
    let mut other = hello_from("127.0.0.2", addr, "Elsewhere").await;
    other
        .send(json!({"type": "house", "size": 9, "color": "black"}))
        .await;
    other.expect("matched").await;
}
