//! `gridarena serve`: the online Go server (crates/server, docs/online.md) with the built app.

use crate::io::Failure;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The longest `--move-seconds`: the server's longest clock ([`gridarena_server::MAX_MOVE_TIME`], 7
/// days). Beyond it the clock's deadline could overflow, and the server would stop at start-up.
const MAX_MOVE_SECONDS: u64 = gridarena_server::MAX_MOVE_TIME.as_secs();

/// Options of `gridarena serve`.
#[derive(Debug, Args)]
pub struct Options {
    /// The address to listen on
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free one; the line printed on start says which)
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The SQLite database (created and migrated if needed)
    #[arg(long, default_value = "gridarena.sqlite3")]
    db: PathBuf,
    /// The built app to serve (`trunk build --release` writes it)
    #[arg(long, default_value = "dist")]
    dist: PathBuf,
    /// Seconds for each move, 1 to 604800 (7 days; tests use a short clock)
    #[arg(long, default_value_t = 300, hide = true,
          value_parser = clap::value_parser!(u64).range(1..=MAX_MOVE_SECONDS))]
    move_seconds: u64,
}

/// Starts the server and runs until the process is stopped. Prints the address it listens on first.
pub fn run(options: Options, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Internal(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((options.host.as_str(), options.port))
            .await
            .map_err(|e| {
                Failure::Input(format!(
                    "cannot listen on {}:{}: {e}",
                    options.host, options.port
                ))
            })?;
        let addr = listener
            .local_addr()
            .map_err(|e| Failure::Internal(e.to_string()))?;
        let config = gridarena_server::Config {
            db: options.db,
            dist: options.dist,
            move_time: Duration::from_secs(options.move_seconds),
            ..gridarena_server::Config::default()
        };
        let (router, hub) =
            gridarena_server::app(&config).map_err(|e| Failure::Input(e.to_string()))?;
        writeln!(
            out,
            "GridArena is serving on http://{addr}/ (database {}, {} games resumed)",
            config.db.display(),
            hub.live_games()
        )
        .and_then(|()| out.flush())
        .map_err(Failure::Output)?;
        gridarena_server::serve_router(listener, router, &config)
            .await
            .map_err(|e| Failure::Internal(format!("the server stopped: {e}")))?;
        Ok(ExitCode::SUCCESS)
    })
}
