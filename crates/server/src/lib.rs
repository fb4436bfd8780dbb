//! GridArena's online Go server (`gridarena serve`): players register a name, find each other through
//! matchmaking, and play live games over WebSocket, refereed by the engine, with a move clock and
//! win/loss records in SQLite (one server) or PostgreSQL (several servers on one database). The
//! protocol is docs/online.md.
//!
//! Modules: [`names`] (names and tokens), [`store`] (the database: everything that must hold across
//! instances), [`matchmaking`] (colour rules), [`policy`] (move cap, rated games), [`games`]
//! (connections and in-memory games), [`hub`] (what an instance does: pairing, moves, clocks,
//! following the others), [`ws`] (one connection), [`http`] (routes), [`incident`] (errors a client
//! must not see). The messages are the engine's [`gridarena_engine::go::online`], shared with the
//! browser page.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let config = gridarena_server::Config::default();
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! gridarena_server::serve(config, listener).await
//! # }
//! ```

pub mod games;
pub mod http;
pub mod hub;
pub mod incident;
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

/// How often the server pings each WebSocket client by default; a client that sends nothing (not even
/// the automatic pong) for two of these is taken for gone and disconnected.
pub const HEARTBEAT: Duration = Duration::from_secs(30);

/// How long an instance may go without saying it is alive before another instance takes its games'
/// clocks over: long enough that a busy instance never loses them, short enough that a game whose clock
/// instance died goes on within seconds.
pub const CLOCK_LEASE: Duration = Duration::from_secs(5);

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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: "gridarena.sqlite3".to_string(),
            dist: PathBuf::from("dist"),
            move_time: MOVE_TIME,
            heartbeat: HEARTBEAT,
            lease: CLOCK_LEASE,
        }
    }
}

/// Opens the database (migrating it), starts this instance's hub (clocks, and following other
/// instances on PostgreSQL) and builds the router. Must run inside a tokio runtime.
pub async fn app(config: &Config) -> std::io::Result<(axum::Router, Arc<Hub>)> {
    let store = store::Store::open(&config.db)
        .await
        .map_err(|e| std::io::Error::other(format!("cannot open the database: {e}")))?;
    let hub = Hub::start(
        store,
        hub::HubConfig {
            move_time: config.move_time,
            lease: config.lease,
        },
    )
    .await
    .map_err(|e| std::io::Error::other(format!("cannot start: {e}")))?;
    let router = http::router(Arc::clone(&hub), config.dist.clone(), config.heartbeat);
    Ok((router, hub))
}

/// Serves on `listener` until the process ends.
pub async fn serve(config: Config, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let (router, _hub) = app(&config).await?;
    serve_router(listener, router).await
}

/// Serves a router made by [`app`] on `listener` until the process ends.
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: axum::Router,
) -> std::io::Result<()> {
    axum::serve(listener, router).await
}
