//! GridArena's online Go server (`gridarena serve`): players register a name, find each other through
//! matchmaking, and play live games over WebSocket, refereed by the engine, with a move clock and
//! win/loss records in SQLite. The protocol is docs/online.md.
//!
//! Modules: [`names`] (names and tokens), [`db`] (SQLite), [`matchmaking`] (the queue), [`games`] (live
//! games, clocks and the hub), [`ws`] (one connection), [`http`] (routes). The messages are the
//! engine's [`gridarena_engine::go::online`], shared with the browser page.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let config = gridarena_server::Config::default();
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! gridarena_server::serve(config, listener).await
//! # }
//! ```

pub mod db;
pub mod games;
pub mod http;
pub mod matchmaking;
pub mod names;
pub mod store;
pub mod ws;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use games::Hub;

/// The default move clock: 5 minutes for each move.
pub const MOVE_TIME: Duration = Duration::from_secs(5 * 60);

/// How often the server pings each WebSocket client by default; a client that sends nothing (not even
/// the automatic pong) for two of these is taken for gone and disconnected.
pub const HEARTBEAT: Duration = Duration::from_secs(30);

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite file (created if missing).
    pub db: PathBuf,
    /// The built app (`trunk build --release` writes it).
    pub dist: PathBuf,
    /// Time for each move.
    pub move_time: Duration,
    /// The WebSocket ping interval ([`HEARTBEAT`]); silence for twice this closes a connection.
    pub heartbeat: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: PathBuf::from("gridarena.sqlite3"),
            dist: PathBuf::from("dist"),
            move_time: MOVE_TIME,
            heartbeat: HEARTBEAT,
        }
    }
}

/// Opens the database (migrating it), resumes the unfinished games and builds the router. Must run
/// inside a tokio runtime (each live game's clock is a task).
pub fn app(config: &Config) -> std::io::Result<(axum::Router, Arc<Hub>)> {
    let db = db::Db::open(&config.db).map_err(|e| {
        std::io::Error::other(format!(
            "cannot open the database {}: {e}",
            config.db.display()
        ))
    })?;
    let hub = Hub::new(db, config.move_time);
    hub.recover()
        .map_err(|e| std::io::Error::other(format!("cannot load the unfinished games: {e}")))?;
    let router = http::router(Arc::clone(&hub), config.dist.clone(), config.heartbeat);
    Ok((router, hub))
}

/// Serves on `listener` until the process ends.
pub async fn serve(config: Config, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let (router, _hub) = app(&config)?;
    serve_router(listener, router).await
}

/// Serves a router made by [`app`] on `listener` until the process ends.
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: axum::Router,
) -> std::io::Result<()> {
    axum::serve(listener, router).await
}
