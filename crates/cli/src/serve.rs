//! `gridarena serve`: the online Go server (crates/server, docs/online.md) with the built app.

use crate::io::Failure;
use clap::Args;
use gridarena_server::hub::HouseConfig;
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
    /// The database: a SQLite file (created and migrated if needed; one server per file), or
    /// postgres://user@host/dbname for several servers sharing one database (docs/online.md)
    #[arg(long, default_value = "gridarena.sqlite3")]
    db: String,
    /// The built app to serve (`trunk build --release` writes it)
    #[arg(long, default_value = "dist")]
    dist: PathBuf,
    /// Seconds for each move, 1 to 604800 (7 days; tests use a short clock)
    #[arg(long, default_value_t = 300, hide = true,
          value_parser = clap::value_parser!(u64).range(1..=MAX_MOVE_SECONDS))]
    move_seconds: u64,
    /// Connections open at once; one more is answered 503 and closed (each player's or spectator's
    /// page holds one)
    #[arg(long, default_value_t = gridarena_server::MAX_CONNECTIONS,
          value_parser = connection_cap)]
    max_connections: usize,
    /// Connections open at once from one address: raise it behind a proxy or for a school whose
    /// computers share one public address (docs/online.md)
    #[arg(long, default_value_t = gridarena_server::MAX_CONNECTIONS_PER_ADDRESS,
          value_parser = connection_cap)]
    max_connections_per_address: usize,
    /// Games the server's own AI (the house player) plays at once on this server, for people who find
    /// nobody waiting; 0: no house player. Default: two per core
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    house_games: Option<u32>,
    /// Seconds the house player thinks for a move, 0.05 to 60 (default 1: on 9x9 it then beats GNU Go
    /// at its default level)
    #[arg(long, default_value_t = 1.0, value_parser = crate::args::think_seconds)]
    house_seconds: f64,
    /// Milliseconds an instance may be silent before another takes its clocks (tests use a short one)
    #[arg(long, default_value_t = 5000, hide = true)]
    clock_lease_ms: u64,
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
            lease: Duration::from_millis(options.clock_lease_ms.clamp(100, 600_000)),
            max_connections: options.max_connections,
            max_connections_per_address: options.max_connections_per_address,
            house: house(options.house_games, options.house_seconds),
            ..gridarena_server::Config::default()
        };
        let (router, hub) = gridarena_server::app(&config)
            .await
            .map_err(|e| Failure::Input(e.to_string()))?;
        writeln!(
            out,
            "GridArena is serving on http://{addr}/ (database {}, instance {})",
            shown_db(&config.db),
            hub.instance()
        )
        .and_then(|()| out.flush())
        .map_err(Failure::Output)?;
        tokio::select! {
            served = gridarena_server::serve_router(listener, router, &config) => {
                served.map_err(|e| Failure::Internal(format!("the server stopped: {e}")))?;
            }
            () = stop_signal() => hub.retire().await,
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// The house player as the options ask: by default two games per core.
fn house(games: Option<u32>, seconds: f64) -> HouseConfig {
    let cores = HouseConfig::on_every_core();
    HouseConfig {
        games: games.map_or(cores.games, |n| n as usize),
        think: Duration::from_secs_f64(seconds),
        ..cores
    }
}

/// A connection cap: 1 to a million (past that the process runs out of files long before).
fn connection_cap(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..=1_000_000) => Ok(n),
        _ => Err(format!("{text:?} is not a number from 1 to 1000000")),
    }
}

/// Ctrl-C or SIGTERM (what a service manager sends): the server then retires its instance, so another
/// takes its clocks at once.
pub(crate) async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => return std::future::pending().await,
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The database as the start-up line shows it: a PostgreSQL URL without its password.
fn shown_db(db: &str) -> String {
    match db.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((user, host)) => {
                let user = user.split(':').next().unwrap_or("");
                format!("{scheme}://{user}@{host}")
            }
            None => db.to_string(),
        },
        None => db.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_password_is_not_printed() {
        assert_eq!(
            super::shown_db("postgres://ga:secret@db.school/go"),
            "postgres://ga@db.school/go"
        );
        assert_eq!(super::shown_db("gridarena.sqlite3"), "gridarena.sqlite3");
    }

    #[test]
    fn a_connection_cap_is_a_number_from_one_to_a_million() {
        assert_eq!(super::connection_cap("1"), Ok(1));
        assert_eq!(super::connection_cap("1000000"), Ok(1_000_000));
        for bad in ["0", "1000001", "-1", "many", "", "99999999999999999999999"] {
            let err = super::connection_cap(bad).unwrap_err();
            assert!(err.contains("from 1 to 1000000"), "{bad}: {err}");
        }
    }
}
