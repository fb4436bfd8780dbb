//! What the runner adds to a web AI's latency on loopback.
//!
//! An in-process HTTP/1.1 server on 127.0.0.1 answers every request at once with a fixed move (the
//! arena's first red step; after the first tick it is refused by the referee, which costs the runner the
//! same work as a legal one). Three figures are compared:
//!
//! - **server**: the server's own time per request, from the request fully read to the answer written;
//! - **raw**: a round trip of the same request by a bare keep-alive client on a `TcpStream` (the floor
//!   for loopback on this machine);
//! - **runner**: the latency `play_game` measures for the team (the `latency` of the summary) and its wall
//!   time per tick, with one web AI against `builtin:greedy` and with two web AIs.
//!
//! `cargo bench -p gridarena-cli --bench overhead`. Without `--bench` it plays a few ticks as a smoke test.

use gridarena_cli::runner::{match_game, parse_player, play_game, Player};
use gridarena_engine::halma::game_loop::request_body;
use gridarena_engine::halma::play::Policy;
use gridarena_engine::halma::{ContentType, Game, Preset, Team, Teams};
use gridarena_engine::tournament::settings::Settings;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

const ANSWER: &str = r#"{"from":{"x":2,"y":14},"to":[{"x":2,"y":13}]}"#;

/// Requests served and the nanoseconds spent serving them.
#[derive(Default)]
struct ServerTime {
    requests: AtomicU64,
    nanos: AtomicU64,
}

impl ServerTime {
    fn take(&self) -> (u64, Duration) {
        let n = self.requests.swap(0, Ordering::SeqCst);
        let ns = self.nanos.swap(0, Ordering::SeqCst);
        (n, Duration::from_nanos(ns))
    }
}

fn start_server() -> (SocketAddr, Arc<ServerTime>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("the port");
    let time = Arc::new(ServerTime::default());
    let shared = Arc::clone(&time);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let time = Arc::clone(&shared);
            thread::spawn(move || serve(stream, &time));
        }
    });
    (addr, time)
}

/// Answers every request on the connection with [`ANSWER`], keeping it open.
fn serve(stream: TcpStream, time: &ServerTime) {
    let _ = stream.set_nodelay(true);
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut out = stream;
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{ANSWER}",
        ANSWER.len()
    );
    while read_request(&mut reader).is_some() {
        let start = Instant::now();
        if out.write_all(response.as_bytes()).is_err() {
            return;
        }
        let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        time.requests.fetch_add(1, Ordering::SeqCst);
        time.nanos.fetch_add(ns, Ordering::SeqCst);
    }
}

/// Reads one request's head and body; `None` at the end of the connection.
fn read_request(reader: &mut impl BufRead) -> Option<()> {
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()
}

/// The mean round trip of `rounds` requests by a bare keep-alive client.
fn raw_round_trip(addr: SocketAddr, body: &str, rounds: u32) -> Duration {
    let stream = TcpStream::connect(addr).expect("the server accepts");
    stream.set_nodelay(true).expect("nodelay");
    let mut reader = BufReader::new(stream.try_clone().expect("a second handle"));
    let mut writer = stream;
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut total = Duration::ZERO;
    for _ in 0..rounds {
        let start = Instant::now();
        writer
            .write_all(request.as_bytes())
            .expect("the request goes out");
        let mut length = 0usize;
        let mut line = String::new();
        loop {
            line.clear();
            reader.read_line(&mut line).expect("a response head");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some(v) = header.strip_prefix("Content-Length:") {
                length = v.trim().parse().expect("a length");
            }
        }
        let mut answer = vec![0; length];
        reader.read_exact(&mut answer).expect("the answer");
        total += start.elapsed();
    }
    total / rounds
}

struct Figures {
    ticks: u32,
    wall_per_tick: Duration,
    latency: Teams<Option<f64>>,
    server: Duration,
}

/// One arena game of `ticks` ticks between `red` and `blue`.
fn runner_game(red: &str, blue: &str, ticks: u32, time: &ServerTime) -> Figures {
    let spec = |s: &str| parse_player(s).expect("a player");
    let players = Teams {
        red: Player::new(&spec(red)).expect("a player"),
        blue: Player::new(&spec(blue)).expect("a player"),
    };
    let settings = Settings {
        preset: Preset::Arena,
        max_turns: Some(ticks),
        policy: Policy::Lenient,
        ..Settings::default()
    };
    let seats = Teams::from_fn(|t| players[t].kind().seat(ContentType::default()));
    let game = match_game(&settings, 1, seats).expect("the arena sets up");
    time.take();
    let start = Instant::now();
    let report = play_game(game, &players, 1000, &mut ())
        .expect("the game plays")
        .report;
    let wall = start.elapsed();
    let (served, server_total) = time.take();
    Figures {
        ticks: report.ticks,
        wall_per_tick: wall / report.ticks.max(1),
        latency: report.sides.map(|_, s| s.mean_ms()),
        server: server_total / u32::try_from(served.max(1)).unwrap_or(u32::MAX),
    }
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let (addr, time) = start_server();
    let url = format!("http://{addr}/");
    let bench = std::env::args().any(|a| a == "--bench");
    let ticks = if bench { 3000 } else { 20 };
    let body = request_body(
        &Game::new(&Preset::Arena.rules(), 1).expect("the arena sets up"),
        Team::Red,
        1000,
    );

    // Warm up: connections, caches, the CPU's clock.
    runner_game(&url, "builtin:greedy", ticks.min(200), &time);
    raw_round_trip(addr, &body, 200);
    time.take();

    let raw = raw_round_trip(addr, &body, ticks);
    let (_, raw_server) = time.take();
    let raw_server = raw_server / ticks;
    let one = runner_game(&url, "builtin:greedy", ticks, &time);
    let two = runner_game(&url, &url, ticks, &time);
    if !bench {
        assert_eq!(one.ticks, ticks);
        assert_eq!(two.ticks, ticks);
        return;
    }
    let ms_to_us = |ms: Option<f64>| ms.unwrap_or(f64::NAN) * 1000.0;
    println!(
        "web AI on loopback, {} ticks per figure, request body {} bytes:",
        ticks,
        body.len()
    );
    println!(
        "  server's own time per request           {:>8.1} us",
        us(raw_server)
    );
    println!(
        "  raw keep-alive round trip (bare client)  {:>8.1} us",
        us(raw)
    );
    let red = ms_to_us(one.latency.red);
    println!(
        "  runner: web red vs builtin:greedy blue   latency red {red:>6.1} us (server {:.1} us), wall {:>6.1} us/tick",
        us(one.server),
        us(one.wall_per_tick)
    );
    println!(
        "  runner: web red vs web blue              latency red {:>6.1} us, blue {:>6.1} us, wall {:>6.1} us/tick",
        ms_to_us(two.latency.red),
        ms_to_us(two.latency.blue),
        us(two.wall_per_tick)
    );
    println!(
        "overhead the runner adds to an AI's latency: {:.1} us over the server's time, {:.1} us over a raw round trip",
        red - us(one.server),
        red - us(raw)
    );
    println!(
        "whole tick, two web AIs, beyond a raw round trip: {:.1} us",
        us(two.wall_per_tick) - us(raw)
    );
}
