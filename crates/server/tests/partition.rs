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
use gridarena_server::store::testing::proxy::{tcp_of, Link, Proxy};
use gridarena_server::store::testing::{self, OPENING};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use support::*;
use tokio_tungstenite::tungstenite::Message;

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
    let proxy = Proxy::start(tcp_of(&direct).await).await;
    let proxied = proxy.url_for(&direct);
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
    proxy.set(Link::Silent);
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
    proxy.set(Link::Forwarding);
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
