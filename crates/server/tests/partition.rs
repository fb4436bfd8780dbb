//! A silent network partition between an instance and PostgreSQL (issue 35, item 9): a TCP proxy
//! between the instance and PostgreSQL's TCP port stops forwarding, without closing anything, in the
//! middle of a game. Within 30 s a move on that instance gets a clear error, the other instance
//! takes the game's clock over and ends it on time, and once the proxy forwards again the first
//! instance catches up: nothing is lost or counted twice.
//!
//! It needs PostgreSQL on TCP, so it runs only when `GRIDARENA_TEST_PG` names a cluster
//! (`scripts/pg-cluster.sh start` starts one that listens on 127.0.0.1 as well as on its socket).

mod support;

use futures_util::StreamExt;
use gridarena_server::store::testing::{self, OPENING};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

/// A TCP proxy that can stop forwarding without closing: bytes then wait in it (and in the sockets'
/// buffers) as they would in a network that silently drops them, and go on when it forwards again.
struct Proxy {
    addr: SocketAddr,
    forwarding: watch::Sender<bool>,
}

impl Proxy {
    async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (forwarding, rx) = watch::channel(true);
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let mut rx = rx.clone();
                tokio::spawn(async move {
                    // A connection opened during the partition hangs, as a SYN into nowhere would.
                    forwarding_again(&mut rx).await;
                    let Ok(server) = TcpStream::connect(upstream).await else {
                        return;
                    };
                    let (client_read, client_write) = client.into_split();
                    let (server_read, server_write) = server.into_split();
                    tokio::join!(
                        pump(client_read, server_write, rx.clone()),
                        pump(server_read, client_write, rx)
                    );
                });
            }
        });
        Proxy { addr, forwarding }
    }

    fn set_forwarding(&self, on: bool) {
        self.forwarding.send_replace(on);
    }
}

async fn forwarding_again(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|on| *on).await;
}

/// Copies `from` to `to` while forwarding; a chunk read as the partition starts waits for its end.
async fn pump(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, mut rx: watch::Receiver<bool>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        forwarding_again(&mut rx).await;
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        forwarding_again(&mut rx).await;
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// The next text message within `limit` (pings skipped); panics, naming `what`, otherwise.
async fn within(c: &mut Client, limit: Duration, what: &str) -> Value {
    let until = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(until, c.ws.next()).await {
            Err(_) => panic!("{what}: nothing within {limit:?}"),
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).unwrap(),
            Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
            Ok(other) => panic!("{what}: {other:?}"),
        }
    }
}

/// An instance on `db` with a one-second clock lease and a `move_time` clock.
async fn instance(db: String, move_time: Duration) -> SocketAddr {
    start_config(gridarena_server::Config {
        db,
        dist: PathBuf::from("/nonexistent-dist"),
        move_time,
        lease: Duration::from_secs(1),
        house: gridarena_server::hub::HouseConfig::none(),
        ..gridarena_server::Config::default()
    })
    .await
}

/// Where the test cluster takes TCP connections, and the user and database of `url` on it.
async fn tcp_of(url: &str) -> (SocketAddr, String, String) {
    let config: tokio_postgres::Config = url.parse().unwrap();
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(host)) => host.clone(),
        // The socket's cluster (scripts/pg-cluster.sh) listens on 127.0.0.1 at the same port.
        _ => "127.0.0.1".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let addr = tokio::net::lookup_host((host.as_str(), port))
        .await
        .unwrap()
        .next()
        .unwrap();
    (
        addr,
        config.get_user().unwrap_or("postgres").to_string(),
        config.get_dbname().unwrap_or("postgres").to_string(),
    )
}

/// How many moves (stones and passes) an SGF record holds.
fn sgf_moves(sgf: &str) -> usize {
    sgf.matches(";B[").count() + sgf.matches(";W[").count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_silent_partition_gives_clear_errors_the_clock_moves_and_nothing_is_lost() {
    if std::env::var_os(testing::ENV).is_none() {
        eprintln!(
            "skipped: set {} (scripts/pg-cluster.sh start)",
            testing::ENV
        );
        return;
    }
    let direct = testing::fresh_database().await;
    let (pg, user, dbname) = tcp_of(&direct).await;
    let proxy = Proxy::start(pg).await;
    let proxied = format!("postgresql://{user}@{}/{dbname}", proxy.addr);
    // Instance A reaches PostgreSQL through the proxy, B directly.
    let move_time = Duration::from_secs(6);
    let a = instance(proxied, move_time).await;
    let b = instance(direct, move_time).await;
    let (mut ann, mut bob, game, _, _) = pair_with_tokens(a, "Ann", "Bob").await;
    let mut cat = Client::hello(b, &register(b, "Cat").await).await;
    cat.send(json!({"type": "watch", "game": game})).await;
    cat.expect("snapshot").await;
    play_moves(&mut ann, &mut bob, game, &OPENING[..4]).await;
    for _ in 0..4 {
        cat.expect("move").await;
    }

    // The partition: A's connections to PostgreSQL stay open, and nothing gets through.
    proxy.set_forwarding(false);
    let started = Instant::now();
    ann.play(game, OPENING[4]).await;
    let error = within(&mut ann, Duration::from_secs(30), "Ann's move").await;
    let waited = started.elapsed();
    assert_eq!(error["type"], "error", "{error}");
    assert_eq!(error["game"], game, "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("could not store the move"), "{message}");
    assert!(waited < Duration::from_secs(30), "{waited:?}");
    // B took A's clock over: Ann's time ran out there.
    let ended = within(&mut cat, Duration::from_secs(30), "the end on B").await;
    assert_eq!(ended["type"], "ended", "{ended}");
    assert_eq!(ended["result"], "W+T");

    // The proxy forwards again: A hears of the end, and the move it could not store is not stored.
    proxy.set_forwarding(true);
    let heard = within(&mut ann, Duration::from_secs(30), "the end on A").await;
    assert_eq!(heard, ended);
    assert_eq!(within(&mut bob, WAIT, "the end for Bob").await, ended);
    for server in [a, b] {
        let ann = record(server, "Ann").await;
        let bob = record(server, "Bob").await;
        assert_eq!(
            (ann["wins"].as_i64(), ann["losses"].as_i64()),
            (Some(0), Some(1))
        );
        assert_eq!(
            (bob["wins"].as_i64(), bob["losses"].as_i64()),
            (Some(1), Some(0))
        );
        let (status, _, sgf) = http(server, "GET", &format!("/api/games/{game}/sgf"), "").await;
        assert_eq!(status, 200);
        assert_eq!(sgf_moves(&sgf), 4, "{sgf}");
    }
    // And A stores moves again.
    ann.send(json!({"type": "seek", "size": 9, "color": "black"}))
        .await;
    ann.expect("waiting").await;
    bob.send(json!({"type": "seek", "size": 9, "color": "white"}))
        .await;
    let next = ann.expect("matched").await["game"].as_i64().unwrap();
    ann.expect("snapshot").await;
    bob.expect("matched").await;
    bob.expect("snapshot").await;
    play_moves(&mut ann, &mut bob, next, &OPENING[..2]).await;
}
