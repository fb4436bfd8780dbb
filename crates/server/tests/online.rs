//! The online Go server end to end: a real server on 127.0.0.1:0, real WebSocket clients
//! (tokio-tungstenite) and plain HTTP requests, as docs/online.md describes them.

mod support;

use futures_util::{SinkExt, StreamExt};
use gridarena_engine::go::{BoardSize, Game, Move};
use gridarena_server::store::testing::OPENING;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;
use support::*;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_checked_and_unique_without_regard_to_case() {
    let addr = start().await;
    let (status, head, body) = http(addr, "POST", "/api/players", r#"{"name":"  Ada "}"#).await;
    assert_eq!(status, 201);
    assert!(head.contains("content-type: application/json"));
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["name"], "Ada");
    let token = v["token"].as_str().unwrap();
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));

    let (status, _, body) = http(addr, "POST", "/api/players", r#"{"name":"ADA"}"#).await;
    assert_eq!(status, 409);
    assert!(body.contains("is taken"), "{body}");
    for bad in [
        json!({"name": "a".repeat(21)}),
        json!({"name": "   "}),
        json!({"name": "Bob\u{7}"}),
        json!({"name": "Bob\nEve"}),
        json!({"name": "<b>Bob</b>"}),
        json!({"name": "<script>alert(1)</script>"}),
        json!({"name": 5}),
        json!({}),
    ] {
        let (status, head, body) = http(addr, "POST", "/api/players", &bad.to_string()).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(head.contains("content-type: application/json"));
        assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    }
    let (status, _, _) = http(addr, "POST", "/api/players", "not json").await;
    assert_eq!(status, 400);
    let (status, _, _) = http(
        addr,
        "POST",
        "/api/players",
        &format!("{{\"name\":\"{}\"}}", "x".repeat(10_000)),
    )
    .await;
    assert_eq!(status, 413);
    // Twenty characters of any script are fine.
    register(addr, &"é".repeat(20)).await;

    let v = record(addr, "ada").await;
    assert_eq!(v["name"], "Ada");
    assert_eq!(v["wins"], 0);
    assert_eq!(v["by_size"]["19"]["losses"], 0);
    let (status, v) = get_json(addr, "/api/players/nobody").await;
    assert_eq!(status, 404);
    assert!(v["error"].is_string());
    let (status, v) = get_json(addr, "/api/players/%3Cb%3E").await;
    assert_eq!(status, 404, "{v}");

    // A forged token is refused.
    let mut c = Client::connect(addr).await;
    c.send(json!({"type": "hello", "token": "00".repeat(32)}))
        .await;
    let e = c.expect("error").await;
    assert!(e["message"].as_str().unwrap().contains("unknown token"));
    // Without hello, nothing but hello works.
    c.send(json!({"type": "seek", "size": 9, "color": "any"}))
        .await;
    assert!(c.expect("error").await["message"]
        .as_str()
        .unwrap()
        .contains("hello"));
    // The right token works on the same connection afterwards.
    c.send(json!({"type": "hello", "token": token})).await;
    let w = c.expect("welcome").await;
    assert_eq!(
        w,
        json!({"type": "welcome", "name": "Ada", "wins": 0, "losses": 0,
               "house": gridarena_server::hub::HOUSE_NAME})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seek_wait_cancel_and_compatible_pairing() {
    let addr = start().await;
    let ta = register(addr, "Ann").await;
    let tb = register(addr, "Ben").await;
    let tc = register(addr, "Cid").await;
    let mut a = Client::hello(addr, &ta).await;
    let mut b = Client::hello(addr, &tb).await;
    let mut c = Client::hello(addr, &tc).await;

    a.send(json!({"type": "seek", "size": 7, "color": "any"}))
        .await;
    assert!(a.expect("error").await["message"]
        .as_str()
        .unwrap()
        .contains("9, 13 or 19"));
    a.send(json!({"type": "seek", "size": 9, "color": "purple"}))
        .await;
    a.expect("error").await;

    // Waiting, then cancelled: nobody is paired with a cancelled request.
    a.send(json!({"type": "seek", "size": 9, "color": "black"}))
        .await;
    assert_eq!(
        a.expect("waiting").await,
        json!({"type": "waiting", "size": 9, "color": "black"})
    );
    a.send(json!({"type": "cancel"})).await;
    a.expect("cancelled").await;
    b.send(json!({"type": "seek", "size": 9, "color": "white"}))
        .await;
    b.expect("waiting").await;

    // Same colour, or another size: no pair.
    c.send(json!({"type": "seek", "size": 9, "color": "white"}))
        .await;
    c.expect("waiting").await;
    a.send(json!({"type": "seek", "size": 13, "color": "black"}))
        .await;
    a.expect("waiting").await;
    // A second connection of the same player replaces the request and is never paired with itself.
    let mut a2 = Client::hello(addr, &ta).await;
    a2.send(json!({"type": "seek", "size": 13, "color": "white"}))
        .await;
    a2.expect("waiting").await;
    a.quiet(200).await;

    // Black pairs with the oldest white of the same size: Ben, not Cid.
    a2.send(json!({"type": "seek", "size": 9, "color": "black"}))
        .await;
    let m = a2.expect("matched").await;
    assert_eq!(
        (
            m["color"].as_str(),
            m["opponent"].as_str(),
            m["size"].as_i64()
        ),
        (Some("black"), Some("Ben"), Some(9))
    );
    let snap = a2.expect("snapshot").await;
    assert_eq!(snap["move_number"], 0);
    assert_eq!(snap["to_move"], "black");
    assert_eq!(snap["komi"], 0.5);
    assert_eq!(snap["result"], Value::Null);
    assert!(snap["clock_ms"].as_u64().unwrap() > 290_000);
    assert_eq!(b.expect("matched").await["color"], "white");
    b.expect("snapshot").await;

    // any/any: one Black, one White.
    let td = register(addr, "Dee").await;
    let te = register(addr, "Eve").await;
    let mut d = Client::hello(addr, &td).await;
    let mut e = Client::hello(addr, &te).await;
    d.send(json!({"type": "seek", "size": 19, "color": "any"}))
        .await;
    d.expect("waiting").await;
    e.send(json!({"type": "seek", "size": 19, "color": "any"}))
        .await;
    let md = d.expect("matched").await;
    let me = e.expect("matched").await;
    assert_eq!(md["game"], me["game"]);
    assert_ne!(md["color"], me["color"]);
    assert_eq!(md["size"], 19);
    // any pairs with the waiting white (Cid).
    e.send(json!({"type": "seek", "size": 9, "color": "any"}))
        .await;
    e.expect("snapshot").await;
    let m = e.expect("matched").await;
    assert_eq!(
        (m["color"].as_str(), m["opponent"].as_str()),
        (Some("black"), Some("Cid"))
    );
    assert_eq!(c.expect("matched").await["color"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_to_two_passes_is_counted_once() {
    let addr = start().await;
    let (mut black, mut white, game) = pair(addr, "Black Cat", "White Owl").await;
    // White's E5 stone is captured by Black's E6.
    // White's J9 makes it eight moves, so that the game, with two passes, counts (ten moves).
    let moves = ["D5", "E5", "F5", "A1", "E4", "A2", "E6", "J9"];
    let seen = play_moves(&mut black, &mut white, game, &moves).await;
    assert_eq!(seen[0]["move_number"], 1);
    assert_eq!(seen[0]["color"], "black");
    assert_eq!(seen[1]["color"], "white");
    assert_eq!(seen[6]["captured"], json!(["E5"]));
    assert_eq!(seen[5]["captured"], json!([]));
    assert!(seen[6]["clock_ms"].as_u64().unwrap() > 290_000);

    black.play(game, "pass").await;
    black.expect("move").await;
    white.expect("move").await;
    white.play(game, "pass").await;
    let last = black.expect("move").await;
    assert_eq!(last["move_number"], 10);
    white.expect("move").await;

    let mut engine = Game::new(BoardSize::NINE);
    for m in moves.iter().chain(&["pass", "pass"]) {
        engine
            .play(Move::from_gtp(m, BoardSize::NINE).unwrap())
            .unwrap();
    }
    let expected = engine.result().unwrap().to_string();
    let score = engine.score();
    let ended = black.expect("ended").await;
    assert_eq!(
        ended,
        json!({"type": "ended", "game": game, "result": expected,
               "score": {"black": score.black, "white": score.white}})
    );
    assert_eq!(white.expect("ended").await, ended);
    assert!(expected.starts_with("B+"), "{expected}");

    // Further moves and resignations are refused and count nothing.
    black.play(game, "C3").await;
    let e = black.expect("error").await;
    assert_eq!(e["game"], game);
    assert!(e["message"].as_str().unwrap().contains("over"), "{e}");
    white.send(json!({"type": "resign", "game": game})).await;
    white.expect("error").await;

    let b = record(addr, "black cat").await;
    assert_eq!(
        (b["wins"].as_i64(), b["losses"].as_i64()),
        (Some(1), Some(0))
    );
    assert_eq!(b["by_size"]["9"], json!({"wins": 1, "losses": 0}));
    assert_eq!(b["by_size"]["13"], json!({"wins": 0, "losses": 0}));
    let w = record(addr, "White Owl").await;
    assert_eq!(
        (w["wins"].as_i64(), w["losses"].as_i64()),
        (Some(0), Some(1))
    );
    assert_eq!(w["by_size"]["9"], json!({"wins": 0, "losses": 1}));
    let (_, board) = get_json(addr, "/api/leaderboard").await;
    assert_eq!(
        board,
        json!([{"name": "Black Cat", "wins": 1, "losses": 0}, {"name": "White Owl", "wins": 0, "losses": 1}])
    );

    // The record of the finished game.
    let (status, head, sgf) = http(addr, "GET", &format!("/api/games/{game}/sgf"), "").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: application/x-go-sgf"));
    assert!(
        sgf.contains("PB[Black Cat]") && sgf.contains("PW[White Owl]"),
        "{sgf}"
    );
    assert!(sgf.contains(&format!("RE[{expected}]")), "{sgf}");
    assert!(sgf.contains(";B[dd]") || sgf.contains("B[d"), "{sgf}");
    let (g, _) = gridarena_engine::go::sgf::from_sgf(&sgf).unwrap();
    assert_eq!(g.moves().len(), 10);

    // A watcher of a finished game gets its final snapshot.
    let mut w = Client::hello(addr, &register(addr, "Watcher").await).await;
    w.send(json!({"type": "watch", "game": game})).await;
    let snap = w.expect("snapshot").await;
    assert_eq!(snap["move_number"], 10);
    assert_eq!(snap["result"], expected.as_str());
    assert_eq!(snap["captures"], json!({"black": 1, "white": 0}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_ends_the_game() {
    let addr = start().await;
    let (mut black, mut white, game) = pair(addr, "Res1", "Res2").await;
    play_moves(&mut black, &mut white, game, &OPENING).await;
    // Either player may resign, whoever's turn it is.
    black.send(json!({"type": "resign", "game": game})).await;
    let e = black.expect("ended").await;
    assert_eq!(e, json!({"type": "ended", "game": game, "result": "W+R"}));
    assert_eq!(white.expect("ended").await, e);
    assert_eq!(record(addr, "res2").await["wins"], 1);
    assert_eq!(record(addr, "res1").await["losses"], 1);
    let (_, _, sgf) = http(addr, "GET", &format!("/api/games/{game}/sgf"), "").await;
    assert!(sgf.contains("RE[W+R]"), "{sgf}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_out_of_time_loses() {
    let addr = start_with(temp_db(), Duration::from_secs(1)).await;
    let (mut black, mut white, game) = pair(addr, "Slow", "Quick").await;
    let mut moves = OPENING.to_vec();
    moves.push("E5");
    play_moves(&mut black, &mut white, game, &moves).await;
    // White's clock runs even while White is disconnected.
    drop(white);
    let started = std::time::Instant::now();
    let e = black.expect("ended").await;
    assert_eq!(e, json!({"type": "ended", "game": game, "result": "B+T"}));
    let waited = started.elapsed();
    assert!(
        waited > Duration::from_millis(500) && waited < Duration::from_secs(4),
        "{waited:?}"
    );
    assert_eq!(record(addr, "Slow").await["by_size"]["9"]["wins"], 1);
    assert_eq!(record(addr, "Quick").await["losses"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_player_gets_the_snapshot_and_goes_on() {
    let addr = start().await;
    let ta = register(addr, "Recon A").await;
    let tb = register(addr, "Recon B").await;
    let mut a = Client::hello(addr, &ta).await;
    let mut b = Client::hello(addr, &tb).await;
    a.send(json!({"type": "seek", "size": 13, "color": "white"}))
        .await;
    a.expect("waiting").await;
    b.send(json!({"type": "seek", "size": 13, "color": "any"}))
        .await;
    let game = a.expect("matched").await["game"].as_i64().unwrap();
    a.expect("snapshot").await;
    b.expect("matched").await;
    b.expect("snapshot").await;
    play_moves(&mut b, &mut a, game, &["D4", "K10", "pass"]).await;
    drop(a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut a = Client::hello(addr, &ta).await;
    let snap = a.expect("snapshot").await;
    assert_eq!(snap["game"], game);
    assert_eq!(snap["size"], 13);
    assert_eq!(snap["moves"], json!(["D4", "K10", "pass"]));
    assert_eq!(snap["move_number"], 3);
    assert_eq!(snap["to_move"], "white");
    assert_eq!(snap["black"], "Recon B");
    assert_eq!(snap["white"], "Recon A");
    assert!(snap["clock_ms"].as_u64().unwrap() <= 300_000);
    a.play(game, "C3").await;
    let m = a.expect("move").await;
    assert_eq!(m["move_number"], 4);
    assert_eq!(b.expect("move").await, m);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_say_hello_then_watch_and_unwatch() {
    let addr = start().await;
    let (mut black, mut white, game) = pair(addr, "Pla1", "Pla2").await;
    play_moves(&mut black, &mut white, game, &["C3"]).await;
    // Watching needs a hello first, like everything else.
    let mut s = Client::connect(addr).await;
    s.send(json!({"type": "watch", "game": game})).await;
    s.expect_error("hello").await;
    s.send(json!({"type": "hello", "token": register(addr, "Spec").await}))
        .await;
    s.expect("welcome").await;
    s.send(json!({"type": "watch", "game": game})).await;
    let snap = s.expect("snapshot").await;
    assert_eq!(snap["moves"], json!(["C3"]));
    white.play(game, "G7").await;
    let m = s.expect("move").await;
    assert_eq!(
        (m["move"].as_str(), m["move_number"].as_i64()),
        (Some("G7"), Some(2))
    );
    // A spectator cannot play.
    s.play(game, "D4").await;
    s.expect("error").await;
    s.send(json!({"type": "watch", "game": 999_999})).await;
    let e = s.expect("error").await;
    assert_eq!(e["game"], 999_999);
    let (status, _, _) = http(addr, "GET", "/api/games/999999/sgf", "").await;
    assert_eq!(status, 404);
    let (status, _, _) = http(addr, "GET", "/api/games/abc/sgf", "").await;
    assert_eq!(status, 404);
    // The record of a game in progress.
    let (status, _, sgf) = http(addr, "GET", &format!("/api/games/{game}/sgf"), "").await;
    assert_eq!(status, 200);
    assert!(sgf.contains(";B[cg]") && sgf.contains(";W[gc]"), "{sgf}");
    assert!(!sgf.contains("RE["), "{sgf}");
    black.expect("move").await;
    white.expect("move").await;

    // Unwatch: answered, and the game's moves stop coming.
    s.send(json!({"type": "unwatch", "game": game})).await;
    assert_eq!(
        s.expect("unwatched").await,
        json!({"type": "unwatched", "game": game})
    );
    play_moves(&mut black, &mut white, game, &["D4"]).await;
    s.quiet(100).await;
    s.send(json!({"type": "unwatch", "game": game})).await;
    assert_eq!(s.expect_error("not watching").await["game"], game);
    // A player cannot unwatch their own game: they follow it as a player.
    black.send(json!({"type": "unwatch", "game": game})).await;
    black.expect("error").await;
    s.send_text(r#"{"type":"unwatch"}"#.to_string()).await;
    s.expect_error("malformed").await;

    // At most 8 games in play at once; a finished one no longer counts.
    let mut games = Vec::new();
    for i in 0..9 {
        let (b, w, g) = pair(addr, &format!("Cap{i}b"), &format!("Cap{i}w")).await;
        games.push((b, w, g));
    }
    for (_, _, g) in &games[..8] {
        s.send(json!({"type": "watch", "game": g})).await;
        s.expect("snapshot").await;
    }
    let ninth = games[8].2;
    s.send(json!({"type": "watch", "game": ninth})).await;
    let e = s.expect_error("watch 8 games already").await;
    assert_eq!(e["game"], ninth);
    // Watching a game again is not a new one.
    s.send(json!({"type": "watch", "game": games[0].2})).await;
    s.expect("snapshot").await;
    // One watched game ends: the ninth fits.
    let (b0, _, g0) = &mut games[0];
    b0.send(json!({"type": "resign", "game": *g0})).await;
    s.expect("ended").await;
    s.send(json!({"type": "watch", "game": ninth})).await;
    s.expect("snapshot").await;
    // So does one more after an unwatch.
    s.send(json!({"type": "unwatch", "game": ninth})).await;
    s.expect("unwatched").await;
    let (_, _, tenth) = pair(addr, "Cap10b", "Cap10w").await;
    s.send(json!({"type": "watch", "game": tenth})).await;
    s.expect("snapshot").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_an_error_for_its_sender_only() {
    let addr = start().await;
    let (mut a, mut b, g1) = pair(addr, "Bad1", "Bad2").await;
    let (mut c, mut d, g2) = pair(addr, "Good1", "Good2").await;

    // Out of turn.
    b.play(g1, "E5").await;
    let e = b.expect("error").await;
    assert_eq!(e["game"], g1);
    assert!(
        e["message"].as_str().unwrap().contains("not your turn"),
        "{e}"
    );
    // In another player's game.
    a.play(g2, "E5").await;
    let e = a.expect("error").await;
    assert_eq!(e["game"], g2);
    assert!(
        e["message"].as_str().unwrap().contains("not playing"),
        "{e}"
    );
    a.send(json!({"type": "resign", "game": g2})).await;
    a.expect("error").await;
    // Illegal and unreadable moves.
    a.play(g1, "Z99").await;
    a.expect("error").await;
    a.play(g1, "E5").await;
    a.expect("move").await;
    b.expect("move").await;
    b.play(g1, "E5").await;
    assert!(b.expect("error").await["message"]
        .as_str()
        .unwrap()
        .contains("occupied"));
    // Malformed, wrong shape, unknown type, binary, oversized.
    for text in [
        "{",
        "[]",
        "null",
        r#"{"type":"move","game":"x","move":1}"#,
        r#"{"type":"dance"}"#,
    ] {
        a.send_text(text.to_string()).await;
        assert!(a.expect("error").await["message"]
            .as_str()
            .unwrap()
            .contains("malformed"));
    }
    a.ws.send(Message::binary(vec![1, 2, 3])).await.unwrap();
    a.expect("error").await;
    a.send_text(format!(
        r#"{{"type":"cancel","pad":"{}"}}"#,
        "x".repeat(5000)
    ))
    .await;
    assert!(a.expect("error").await["message"]
        .as_str()
        .unwrap()
        .contains("too long"));

    // The other game goes on, and its players saw none of it.
    c.play(g2, "D4").await;
    assert_eq!(c.expect("move").await["move"], "D4");
    assert_eq!(d.expect("move").await["move"], "D4");
    c.quiet(100).await;

    // A forged token on a fresh connection.
    let mut f = Client::connect(addr).await;
    f.send(json!({"type": "hello", "token": "x".repeat(1000)}))
        .await;
    f.expect("error").await;
    f.play(g1, "A1").await;
    f.expect("error").await;

    // Flooding: a burst of 40 passes, then errors, then disconnection; others are unaffected.
    let mut flood = Client::hello(addr, &register(addr, "Flood").await).await;
    for _ in 0..300 {
        if flood
            .ws
            .send(Message::text(r#"{"type":"cancel"}"#))
            .await
            .is_err()
        {
            break;
        }
    }
    // The loop ends only when the server closes the connection.
    let (mut cancelled, mut limited) = (0, 0);
    while let Some(v) = flood.next().await {
        match v["type"].as_str() {
            Some("cancelled") => cancelled += 1,
            Some("error") if v["message"].as_str().unwrap().contains("too many") => limited += 1,
            Some("error") if v["message"].as_str().unwrap().contains("flooding") => {}
            other => panic!("unexpected {other:?}: {v}"),
        }
    }
    assert!((35..60).contains(&cancelled), "{cancelled}");
    assert!(limited > 100, "{limited}");
    d.play(g2, "E5").await;
    assert_eq!(c.expect("move").await["move"], "E5");
    assert_eq!(d.expect("move").await["move"], "E5");
    b.play(g1, "D5").await;
    assert_eq!(a.expect("move").await["move"], "D5");
    b.expect("move").await;
    a.quiet(100).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_root_says_how_to_build_the_app_when_it_is_missing() {
    let addr = start().await;
    let (status, head, body) = http(addr, "GET", "/", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/plain"));
    assert!(body.contains("trunk build --release"), "{body}");
    assert!(!body.contains("nonexistent-dist"), "no server path: {body}");
    let (status, _, body) = http(addr, "GET", "/nothing.js", "").await;
    assert_eq!(status, 404);
    assert!(!body.contains("nonexistent-dist"), "no server path: {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_client_is_dropped_and_leaves_the_queue() {
    let addr = start_config(gridarena_server::Config {
        db: temp_db().display().to_string(),
        dist: PathBuf::from("/nonexistent-dist"),
        move_time: Duration::from_secs(300),
        heartbeat: Duration::from_millis(150),
        ..gridarena_server::Config::default()
    })
    .await;
    let ta = register(addr, "Ghost").await;
    let tb = register(addr, "Alive").await;
    let tc = register(addr, "Later").await;
    // The ghost seeks, then goes silent: it never reads again, so it never answers the server's pings,
    // as a client whose network vanished without closing the connection.
    let mut ghost = Client::hello(addr, &ta).await;
    ghost
        .send(json!({"type": "seek", "size": 9, "color": "any"}))
        .await;
    ghost.expect("waiting").await;
    // A live client keeps reading (its library answers the pings) and stays connected.
    let mut alive = Client::hello(addr, &tb).await;
    let mut pings = 0;
    let until = tokio::time::Instant::now() + Duration::from_millis(800);
    while let Ok(m) = tokio::time::timeout_at(until, alive.ws.next()).await {
        match m {
            Some(Ok(Message::Ping(_))) => pings += 1,
            other => panic!("expected only pings, got {other:?}"),
        }
    }
    assert!(pings >= 3, "{pings} pings");
    // The ghost was dropped: the live client waits instead of being paired with it.
    alive
        .send(json!({"type": "seek", "size": 9, "color": "any"}))
        .await;
    alive.expect("waiting").await;
    let mut later = Client::hello(addr, &tc).await;
    later
        .send(json!({"type": "seek", "size": 9, "color": "any"}))
        .await;
    assert_eq!(later.expect("matched").await["opponent"], "Alive");
    assert_eq!(alive.expect("matched").await["opponent"], "Later");
    // The server closed the ghost's connection (with no close frame: it was taken for gone).
    loop {
        let m = tokio::time::timeout(WAIT, ghost.ws.next())
            .await
            .expect("closed within 5 s");
        match m {
            Some(Ok(Message::Ping(_))) => continue,
            Some(Ok(Message::Text(t))) => panic!("unexpected {t}"),
            _ => break,
        }
    }
}

/// Black resigns game `game` and both players hear the end.
async fn resign(black: &mut Client, white: &mut Client, game: i64) {
    black.send(json!({"type": "resign", "game": game})).await;
    assert_eq!(black.expect("ended").await["result"], "W+R");
    white.expect("ended").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_decided_game_counts_in_both_records_and_an_abort_in_none() {
    let addr = start().await;
    let (mut black, mut white, game, tb, tw) = pair_with_tokens(addr, "Quick", "Short").await;
    // Four stones and two passes, decided by the komi: a real game, too short to be rated.
    let moves = ["C3", "G7", "C7", "G3", "pass", "pass"];
    play_moves(&mut black, &mut white, game, &moves).await;
    assert_eq!(black.expect("ended").await["result"], "W+0.5");
    white.expect("ended").await;
    let winner = record(addr, "Short").await;
    assert_eq!(
        (winner["wins"].as_i64(), winner["losses"].as_i64()),
        (Some(1), Some(0))
    );
    assert_eq!(winner["by_size"]["9"], json!({"wins": 1, "losses": 0}));
    let loser = record(addr, "Quick").await;
    assert_eq!(
        (loser["wins"].as_i64(), loser["losses"].as_i64()),
        (Some(0), Some(1))
    );
    assert_eq!(loser["by_size"]["9"], json!({"wins": 0, "losses": 1}));
    // `welcome` says so too.
    for (token, wins, losses) in [(&tw, 1, 0), (&tb, 0, 1)] {
        let mut c = Client::connect(addr).await;
        c.send(json!({"type": "hello", "token": token})).await;
        let welcome = c.expect("welcome").await;
        assert_eq!(
            (welcome["wins"].as_i64(), welcome["losses"].as_i64()),
            (Some(wins), Some(losses))
        );
    }
    // The leaderboard ranks rated games only (10 moves or more).
    let (_, board) = get_json(addr, "/api/leaderboard").await;
    assert_eq!(board, json!([]));
    // A game the second player never moved in is an abort: it counts for nobody.
    black
        .send(json!({"type": "seek", "size": 9, "color": "black"}))
        .await;
    black.expect("waiting").await;
    white
        .send(json!({"type": "seek", "size": 9, "color": "white"}))
        .await;
    let game = black.expect("matched").await["game"].as_i64().unwrap();
    black.expect("snapshot").await;
    white.expect("matched").await;
    white.expect("snapshot").await;
    play_moves(&mut black, &mut white, game, &["E5"]).await;
    white.send(json!({"type": "resign", "game": game})).await;
    assert_eq!(white.expect("ended").await["result"], "B+R");
    black.expect("ended").await;
    assert_eq!(record(addr, "Short").await["losses"], 0);
    assert_eq!(record(addr, "Quick").await["wins"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instant_games_do_not_count_and_the_leaderboard_ranks_three_games_a_day_between_two() {
    let addr = start().await;
    let (mut black, mut white, game) = pair(addr, "Farmer", "Sheep").await;
    // An instant resignation ends the game but counts for nobody.
    resign(&mut black, &mut white, game).await;
    assert_eq!(record(addr, "Sheep").await["wins"], 0);
    assert_eq!(record(addr, "Farmer").await["losses"], 0);
    let (_, board) = get_json(addr, "/api/leaderboard").await;
    assert_eq!(board, json!([]));
    // Every game counts in the records; the leaderboard ranks three a day between two players.
    for n in 1..=4 {
        black
            .send(json!({"type": "seek", "size": 9, "color": "black"}))
            .await;
        black.expect("waiting").await;
        white
            .send(json!({"type": "seek", "size": 9, "color": "white"}))
            .await;
        let game = black.expect("matched").await["game"].as_i64().unwrap();
        black.expect("snapshot").await;
        white.expect("matched").await;
        white.expect("snapshot").await;
        play_moves(&mut black, &mut white, game, &OPENING).await;
        resign(&mut black, &mut white, game).await;
        let wins = record(addr, "Sheep").await["wins"].as_i64().unwrap();
        assert_eq!(wins, n, "after game {n}");
        let (_, board) = get_json(addr, "/api/leaderboard").await;
        assert_eq!(board[0]["name"], "Sheep");
        assert_eq!(board[0]["wins"], n.min(3), "after game {n}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_that_cannot_be_stored_leaves_the_game_in_play() {
    let db = temp_db();
    let addr = start_with(db.clone(), Duration::from_secs(300)).await;
    let (mut black, mut white, game) = pair(addr, "Disk", "Full").await;
    play_moves(&mut black, &mut white, game, &OPENING).await;
    // The database refuses to end games, as a full disk or a lost database server would.
    let side = rusqlite::Connection::open(&db).unwrap();
    side.execute_batch(
        "CREATE TRIGGER refuse_ends BEFORE UPDATE OF finished ON games WHEN NEW.finished = 1
         BEGIN SELECT RAISE(ABORT, 'injected: disk full at /srv/secret'); END;",
    )
    .unwrap();
    black.send(json!({"type": "resign", "game": game})).await;
    let e = black.expect("error").await;
    let text = e["message"].as_str().unwrap();
    assert!(
        text.contains("could not store the resignation, try again"),
        "{e}"
    );
    assert!(text.contains("logged as E"), "{e}");
    assert!(!text.contains("secret") && !text.contains("disk"), "{e}");
    white.quiet(100).await;
    // The game goes on: moves are still taken.
    play_moves(&mut black, &mut white, game, &["E5"]).await;
    side.execute_batch("DROP TRIGGER refuse_ends").unwrap();
    white.send(json!({"type": "resign", "game": game})).await;
    assert_eq!(white.expect("ended").await["result"], "B+R");
    assert_eq!(black.expect("ended").await["result"], "B+R");
    assert_eq!(record(addr, "Disk").await["wins"], 1);
}
