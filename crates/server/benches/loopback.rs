//! Loopback benchmark of the online Go server: `GAMES` concurrent 9x9 games (default 1000) between
//! 2 x GAMES WebSocket clients in this process, each playing random legal moves (no filling its own
//! eyes; a pass when none is left, and always from move 150 on) until two passes end the game.
//!
//! Prints games per second, moves per second and the move latency (from a client sending a move to it
//! receiving the server's broadcast of that move: engine check, SQLite insert, fan-out): p50, p99, max.
//!
//! `THINK_MS` (default 0: flat out) makes each client wait about that long before each of its moves
//! (drawn evenly between half and one and a half times it, so that the games, which start together,
//! do not move in step as no class of people does), for the latency under a paced load rather than
//! under saturation.
//!
//! `DB` (default: a fresh SQLite file) may be a `postgres://` URL (an empty database: the bench registers
//! its own players); `INSTANCES` (default 1; more needs PostgreSQL) starts that many server instances in
//! this process, each with its own listener and connection pool, and the clients spread over them, so
//! most games are played across two instances. For how the server grows with cores, run the same under
//! `taskset -c 0` and `taskset -c 0,1`.
//!
//! `SERVERS` (a comma-separated list of `host:port`) plays against instances already running, such as
//! `gridarena serve --db postgres://... --max-connections 12000 --max-connections-per-address 12000`
//! processes on the same `DB` (which the bench still needs, to register its players): as deployed, each
//! instance in its own process.
//!
//! Run: `cargo bench -p gridarena-server --bench loopback` (GAMES=200 for a quick look). Each game takes
//! 4 sockets in this process (2 client ends, 2 server ends; 2 with `SERVERS`), so 1000 games need an
//! open-file limit above 4,000; the bench checks `ulimit -n` first and says so if it is too low.

use futures_util::{SinkExt, StreamExt};
use gridarena_engine::go::{BoardSize, Color, Game, Move};
use gridarena_engine::SplitMix64;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Barrier, Semaphore};
use tokio_tungstenite::tungstenite::Message;

/// From this move on, everyone passes, so every game ends.
const MAX_MOVES: usize = 150;

fn open_file_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[derive(Default)]
struct Outcome {
    moves_sent: usize,
    latencies: Vec<Duration>,
    ended: bool,
}

async fn client(
    addr: SocketAddr,
    token: String,
    seed: u64,
    connect: Arc<Semaphore>,
    start: Arc<Barrier>,
    think: Duration,
) -> Outcome {
    let mut out = Outcome::default();
    let ws = {
        let _permit = connect.acquire().await;
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/ws")).await
    };
    let Ok((mut ws, _)) = ws else {
        start.wait().await;
        return out;
    };
    let send = |v: Value| Message::text(v.to_string());
    let _ = ws
        .send(send(json!({"type": "hello", "token": token})))
        .await;
    start.wait().await;
    let _ = ws
        .send(send(json!({"type": "seek", "size": 9, "color": "any"})))
        .await;
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(BoardSize::NINE);
    let mut id = 0i64;
    let mut me = Color::Black;
    let mut pending: Option<(u64, Instant)> = None;
    let mut last_sent: Option<String> = None;
    while let Some(Ok(msg)) = ws.next().await {
        let Message::Text(text) = msg else { continue };
        let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
            continue;
        };
        match v["type"].as_str() {
            Some("matched") => {
                id = v["game"].as_i64().unwrap_or(0);
                me = if v["color"] == "black" {
                    Color::Black
                } else {
                    Color::White
                };
                continue;
            }
            Some("snapshot") => {
                // Paired through another instance, the opponent may have moved before this client
                // heard of the game: the snapshot's moves are the game so far.
                let moves: Vec<String> = v["moves"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|m| m.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                game = Game::new(BoardSize::NINE);
                if game.play_gtp(&moves).is_err() {
                    eprintln!("client {seed}: the snapshot does not replay");
                    return out;
                }
            }
            Some("move") => {
                let number = v["move_number"].as_u64().unwrap_or(0);
                if let Some((n, t)) = pending {
                    if n == number {
                        out.latencies.push(t.elapsed());
                        pending = None;
                    }
                }
                let mv = v["move"].as_str().unwrap_or("pass");
                match Move::from_gtp(mv, game.size()) {
                    Ok(mv) if game.play(mv).is_ok() => {}
                    _ => {
                        eprintln!("client {seed}: the server's move {mv} does not replay");
                        return out;
                    }
                }
            }
            Some("ended") => {
                out.ended = true;
                return out;
            }
            Some("error") => {
                // Flat out, a client may outrun the per-connection rate limit: the move was refused,
                // not played, so it waits its turn and sends it again.
                let limited = v["message"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("too many messages"));
                if let (true, Some(text)) = (limited, last_sent.clone()) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    if ws.send(Message::text(text)).await.is_err() {
                        return out;
                    }
                } else {
                    eprintln!("client {seed}: {v}");
                }
                continue;
            }
            _ => continue,
        }
        if game.is_over() || game.to_move() != me {
            continue;
        }
        let mv = if game.moves().len() >= MAX_MOVES {
            Move::Pass
        } else {
            let mut board = game.board().clone();
            match board.random_move(me, &mut rng).map(Move::Play) {
                Some(m) if game.check(m).is_ok() => m,
                _ => Move::Pass,
            }
        };
        if !think.is_zero() {
            // Half to one and a half times THINK_MS: the mean is THINK_MS, and the games, which all
            // start at once, drift apart within a few moves instead of moving in step.
            let wait = think.mul_f64(0.5 + rng.below(1001) as f64 / 1000.0);
            tokio::time::sleep(wait).await;
        }
        let number = game.moves().len() as u64 + 1;
        pending = Some((number, Instant::now()));
        out.moves_sent += 1;
        let msg = json!({"type": "move", "game": id, "move": mv.to_gtp()});
        last_sent = Some(msg.to_string());
        if ws.send(send(msg)).await.is_err() {
            return out;
        }
    }
    out
}

fn main() {
    let games: usize = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let per_game = if std::env::var_os("SERVERS").is_some() {
        2
    } else {
        4
    };
    let need = per_game * games as u64 + 64;
    match open_file_limit() {
        Some(limit) if limit < need => {
            eprintln!(
                "the open-file limit is {limit}, {games} games need about {need}: raise it (`ulimit -n {need}`) or set GAMES lower"
            );
            std::process::exit(2);
        }
        Some(limit) => println!("open-file limit {limit} (need about {need})"),
        None => println!("open-file limit unknown (need about {need})"),
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let think = Duration::from_millis(
        std::env::var("THINK_MS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0),
    );
    runtime.block_on(run(games, think));
}

async fn run(games: usize, think: Duration) {
    let dir = std::env::temp_dir().join(format!("gridarena-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let db =
        std::env::var("DB").unwrap_or_else(|_| dir.join("bench.sqlite3").display().to_string());
    let instances: usize = std::env::var("INSTANCES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    let config = gridarena_server::Config {
        db: db.clone(),
        dist: dir.join("dist"),
        move_time: Duration::from_secs(300),
        // Every client is on 127.0.0.1: one address with all the connections, and more of them than a
        // server takes by default; one address may fill three quarters of the total (the rest is kept
        // for addresses with few connections).
        max_connections: (2 * games + 64) * 4 / 3 + 4,
        max_connections_per_address: 2 * games + 64,
        ..gridarena_server::Config::default()
    };
    let mut addrs: Vec<SocketAddr> = Vec::new();
    let mut hubs = Vec::new();
    if let Ok(servers) = std::env::var("SERVERS") {
        for server in servers.split(',') {
            addrs.push(
                server
                    .trim()
                    .parse()
                    .expect("SERVERS lists host:port addresses"),
            );
        }
        // Registers the players, and serves nobody.
        let (_, hub) = gridarena_server::app(&config)
            .await
            .expect("the database opens");
        hubs.push(hub);
    }
    for _ in 0..if addrs.is_empty() { instances } else { 0 } {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        addrs.push(listener.local_addr().expect("an address"));
        let (router, hub) = gridarena_server::app(&config)
            .await
            .expect("the server starts");
        let served = config.clone();
        tokio::spawn(
            async move { gridarena_server::serve_router(listener, router, &served).await },
        );
        hubs.push(hub);
    }
    let shown = if db.starts_with("postgres") {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    if std::env::var_os("SERVERS").is_some() {
        println!("{} running instance(s) on {shown}", addrs.len());
    } else {
        println!("{instances} instance(s) on {shown}");
    }

    let t0 = Instant::now();
    let clients = 2 * games;
    let mut tokens = Vec::with_capacity(clients);
    for i in 0..clients {
        let (_, _, token) = hubs[0]
            .register(&format!("bench{i}"))
            .await
            .expect("a player registers");
        tokens.push(token);
    }
    println!("registered {clients} players in {:.2?}", t0.elapsed());

    let connect = Arc::new(Semaphore::new(64));
    let start = Arc::new(Barrier::new(clients + 1));
    let t1 = Instant::now();
    let handles: Vec<_> = tokens
        .into_iter()
        .enumerate()
        .map(|(i, token)| {
            tokio::spawn(client(
                addrs[i % addrs.len()],
                token,
                i as u64 + 1,
                Arc::clone(&connect),
                Arc::clone(&start),
                think,
            ))
        })
        .collect();
    start.wait().await;
    println!(
        "connected {clients} WebSocket clients in {:.2?}",
        t1.elapsed()
    );

    let t2 = Instant::now();
    let mut moves = 0;
    let mut ended = 0;
    let mut latencies = Vec::new();
    for h in handles {
        if let Ok(o) = h.await {
            moves += o.moves_sent;
            ended += usize::from(o.ended);
            latencies.extend(o.latencies);
        }
    }
    let secs = t2.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| -> Duration {
        if latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies[i.min(latencies.len() - 1)]
    };
    println!(
        "{games} concurrent 9x9 games over loopback WebSockets, {think:?} per move: {ended} of {clients} clients saw their game end"
    );
    println!(
        "{:.1} s: {:.1} games/s, {moves} moves, {:.0} moves/s",
        secs,
        ended as f64 / 2.0 / secs,
        moves as f64 / secs
    );
    println!(
        "move latency (send to broadcast received): p50 {:.2?}, p99 {:.2?}, max {:.2?} ({} samples)",
        pct(0.5),
        pct(0.99),
        latencies.last().copied().unwrap_or_default(),
        latencies.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(ended, clients, "every game must end");
}
