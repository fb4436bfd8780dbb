//! GridArena's online Go server (`gridarena serve`): players register a name, find each other through
//! matchmaking, and play live games over WebSocket, refereed by the engine, with a move clock and
//! win/loss records in SQLite (one server) or PostgreSQL (several servers on one database). The
//! protocol is docs/online.md.
//!
//! Modules: [`names`] (names and tokens), [`store`] (the database: everything that must hold across
//! instances), [`matchmaking`] (colour rules), [`policy`] (move cap, rated games), [`games`]
//! (connections and in-memory games), [`hub`] (what an instance does: pairing, moves, clocks,
//! following the others), [`ws`] (one connection), [`http`] (routes), [`headers`] (security headers
//! and the WebSocket's Origin rule), [`listen`] (the accept loop: connection limits and timeouts),
//! [`bucket`] (the rate limits' token bucket), [`incident`] (errors a client must not see), and
//! [`live`] (HyperChess's live view of a `currentstate` file, for the CLI). The
//! messages are the engine's [`gridarena_engine::go::online`], shared with the browser page.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let config = gridarena_server::Config::default();
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! gridarena_server::serve(config, listener).await
//! # }
//! ```

pub mod bucket;
pub mod games;
pub mod headers;
pub mod http;
pub mod hub;
pub mod incident;
pub mod listen;
pub mod live;
pub mod matchmaking;
pub mod names;
pub mod policy;
pub mod store;
pub mod ws;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use hub::Hub;

/// The default move clock: 5 minutes for each move.
pub const MOVE_TIME: Duration = Duration::from_secs(5 * 60);

/// The longest move clock a server takes: 7 days, for correspondence games. Deadlines are instants
/// computed by adding the move time to now, so a clock of centuries would overflow them.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// How often the server pings each WebSocket client by default; a client that sends nothing (not even
/// the automatic pong) for two of these is taken for gone and disconnected.
pub const HEARTBEAT: Duration = Duration::from_secs(30);

/// How long an instance may go without saying it is alive before another instance takes its games'
/// clocks over: long enough that a busy instance never loses them, short enough that a game whose clock
/// instance died goes on within seconds.
pub const CLOCK_LEASE: Duration = Duration::from_secs(5);

/// How long a new WebSocket may take to say `hello`. The page says it the moment the socket opens, so
/// 10 seconds is a slow phone's worth of margin; a socket that stays silent longer only holds a
/// connection.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a client may take to send a request's head (its line and headers), counted from when the
/// server starts waiting for it: from the connection's opening, or from the end of the previous answer
/// on a kept-alive connection. So this is also how long an idle connection stays open. A browser sends
/// a head in one packet; 10 seconds only ends slow senders ("slowloris") and idle sockets.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request may take once its head is in, its body included, on every route: a body that
/// trickles in (a byte every few seconds keeps no read idle for long) would hold its connection until
/// it ends otherwise, and hyper has no deadline for bodies. A body here is at most 4 KiB, one packet,
/// and an answer a few database reads, so 10 seconds only ends bodies sent a byte at a time.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a write to a client may make no progress (its receive window stays shut) before the
/// connection ends: a client that asks for a download or opens a WebSocket and then never reads would
/// hold its connection for ever otherwise. A reader on a slow school network still takes something
/// every few seconds; 30 seconds of nothing is a client that stopped.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// Connections open at once, in total (HTTP and WebSocket). Each is a file descriptor and a task; 4,096
/// is 2,000 players with a page and a WebSocket each, twice what the loopback bench plays on 2 cores.
pub const MAX_CONNECTIONS: usize = 4096;

/// Connections open at once from one address (one IPv4 address, or one IPv6 /64). A classroom of 40
/// behind one NAT address opens, while the page loads, up to 6 HTTP connections and a WebSocket each
/// (280); 512 leaves room for a second tab each and for reconnections.
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 512;

/// WebSockets one player (one account) may hold at once on an instance: a phone, a laptop and a tab or
/// two. Accounts are free, so this does not stop a determined hoarder (the caps per address do); it
/// keeps one token, leaked or scripted, from holding hundreds of authenticated sockets.
pub const MAX_SOCKETS_PER_PLAYER: usize = 4;

/// How long a WebSocket may go on following nothing (no game of its player in play here, none watched,
/// no seek waiting) and handling no message, before it is closed: a page left open in the lobby, or a
/// client that only holds a slot. The page reconnects when it is used again; 10 minutes is longer than
/// any pause between games.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// Requests a second to the JSON API from one address, sustained. A page asks for the leaderboard when
/// it opens and after each game, and a record now and then; 20 a second is a class of 40 all reloading
/// every two seconds.
pub const API_RATE: f64 = 20.0;

/// Requests to the JSON API one address may send at once: 100 is a class of 40 opening the page
/// together (a leaderboard and a registration each), with room to spare.
pub const API_BURST: f64 = 100.0;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The database: a SQLite file (created if missing), or `postgres://...`.
    pub db: String,
    /// The built app (`trunk build --release` writes it).
    pub dist: PathBuf,
    /// Time for each move.
    pub move_time: Duration,
    /// The WebSocket ping interval ([`HEARTBEAT`]); silence for twice this closes a connection.
    pub heartbeat: Duration,
    /// [`CLOCK_LEASE`].
    pub lease: Duration,
    /// How long a WebSocket may take to say `hello` ([`HELLO_TIMEOUT`]).
    pub hello_timeout: Duration,
    /// How long a request's head may take, and an idle connection may stay open ([`HEADER_TIMEOUT`]).
    pub header_timeout: Duration,
    /// How long a request may take after its head, body included ([`REQUEST_TIMEOUT`]).
    pub request_timeout: Duration,
    /// How long a write may make no progress before the connection ends ([`WRITE_TIMEOUT`]).
    pub write_timeout: Duration,
    /// Connections open at once ([`MAX_CONNECTIONS`]).
    pub max_connections: usize,
    /// Connections open at once from one address ([`MAX_CONNECTIONS_PER_ADDRESS`]). The last quarter
    /// of `max_connections` is kept for addresses with few connections ([`listen`]), so one address
    /// gets at most three quarters of the total whatever this says.
    pub max_connections_per_address: usize,
    /// WebSockets one player may hold at once ([`MAX_SOCKETS_PER_PLAYER`]).
    pub max_sockets_per_player: usize,
    /// How long a WebSocket that follows nothing may stay ([`IDLE_TIMEOUT`]).
    pub idle_timeout: Duration,
    /// JSON API requests a second from one address ([`API_RATE`]).
    pub api_rate: f64,
    /// JSON API requests one address may send at once ([`API_BURST`]).
    pub api_burst: f64,
    /// Origins, besides the server's own, whose pages may open the WebSocket (`https://example.org`,
    /// scheme, host and port as a browser sends them in `Origin`).
    pub allowed_origins: Vec<String>,
    /// The house player, the server's own AI ([`hub::HouseConfig`]).
    pub house: hub::HouseConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: "gridarena.sqlite3".to_string(),
            dist: PathBuf::from("dist"),
            move_time: MOVE_TIME,
            heartbeat: HEARTBEAT,
            lease: CLOCK_LEASE,
            hello_timeout: HELLO_TIMEOUT,
            header_timeout: HEADER_TIMEOUT,
            request_timeout: REQUEST_TIMEOUT,
            write_timeout: WRITE_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            max_connections_per_address: MAX_CONNECTIONS_PER_ADDRESS,
            max_sockets_per_player: MAX_SOCKETS_PER_PLAYER,
            idle_timeout: IDLE_TIMEOUT,
            api_rate: API_RATE,
            api_burst: API_BURST,
            allowed_origins: Vec::new(),
            house: hub::HouseConfig::on_every_core(),
        }
    }
}

/// Opens the database (migrating it), starts this instance's hub (clocks, and following other
/// instances on PostgreSQL) and builds the router. Must run inside a tokio runtime.
pub async fn app(config: &Config) -> std::io::Result<(axum::Router, Arc<Hub>)> {
    if config.move_time.is_zero() || config.move_time > MAX_MOVE_TIME {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "the move time must be 1 second to {} days",
                MAX_MOVE_TIME.as_secs() / 86_400
            ),
        ));
    }
    let store = store::Store::open(&config.db)
        .await
        .map_err(|e| std::io::Error::other(format!("cannot open the database: {e}")))?;
    let hub = Hub::start(
        store,
        hub::HubConfig {
            move_time: config.move_time,
            lease: config.lease,
            house: config.house.clone(),
            sockets_per_player: config.max_sockets_per_player,
        },
    )
    .await
    .map_err(|e| std::io::Error::other(format!("cannot start: {e}")))?;
    let router = http::router(Arc::clone(&hub), config);
    Ok((router, hub))
}

/// Serves on `listener` until the process ends.
pub async fn serve(config: Config, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let (router, _hub) = app(&config).await?;
    serve_router(listener, router, &config).await
}

/// Serves a router made by [`app`] on `listener` until the process ends, with the connection limits
/// and timeouts of `config` ([`listen`]).
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    config: &Config,
) -> std::io::Result<()> {
    listen::serve(listener, router, listen::Limits::of(config)).await
}
