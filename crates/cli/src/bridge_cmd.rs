//! `gridarena halma bridge`: the command line around [`gridarena_cli::bridge`], served with axum on
//! loopback.

use crate::io::Failure;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use clap::Args;
use gridarena_cli::bridge::{Bridge, MAX_REQUEST_BYTES};
use gridarena_cli::program::OutOfTime;
use gridarena_engine::halma::{Program, ProgramFormat};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

pub const ABOUT: &str = "\
Serve a program as a web AI on this machine, so the arena page, the page's tournament and the endpoint
doctor play it as they play any web AI (docs/programs.md).

The program is given as its command after --, each word one argument as the shell gave it (quoted for
sh -c, so --name \"a;b\" passes a;b as one argument), run in a fresh copy of --dir for each game. With
--format course it is run once per move and reads input.txt, writes output.txt (the USC CSCI 561
homework's format; the classic 16x16 game only); with --format lines it is started once per game and
reads one request JSON per line on stdin, writing one answer JSON per line on stdout.

Each request's \"gameId\" and \"team\" pick the game: every game and side gets its own copy of the folder and
its own process. A request at a lower \"turn\" than the last one of its game starts that game again; a
game not asked for 10 minutes is ended. Each game's program has a clock (--clock seconds, charged in CPU
time where the system reports it); a move is also cut at the request's \"timeLimitMs\". A move is answered
with the protocol's JSON; a failure with HTTP 502 and {\"error\", \"code\", \"stderr\"}, which the page's
inspector shows. Each move is logged on stderr.

The bridge answers CORS preflights and accepts text/plain and application/json bodies. It listens on
127.0.0.1 unless --host says otherwise: the program runs with your rights, and nothing is sandboxed.";

pub const AFTER: &str = "\
Examples:
  gridarena halma bridge --format course --dir ai/course -- python3 halma_course.py
  gridarena halma bridge --port 8002 --format lines --dir ai/lines -- python3 halma_lines.py
Then give the page the printed address (http://127.0.0.1:8001/) as a web AI.";

#[derive(Debug, Args)]
pub struct BridgeArgs {
    /// The port to listen on (0: any free port, printed)
    #[arg(long, default_value_t = 8001)]
    port: u16,
    /// The address to listen on; anything but loopback lets other machines run your program
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// How the program is asked: course (input.txt/output.txt) or lines (stdin/stdout)
    #[arg(long, default_value = "course", value_parser = clap::value_parser!(ProgramFormat))]
    format: ProgramFormat,
    /// The agent's folder, copied for each game
    #[arg(long, default_value = ".")]
    dir: String,
    #[command(flatten)]
    clock: crate::args::ClockArgs,
    /// What a spent clock costs: no-move (every later move fails) or lose (the same, as a bridge cannot end the page's game)
    #[arg(long, value_name = "POLICY", default_value = "no-move", value_parser = clap::value_parser!(OutOfTime))]
    out_of_time: OutOfTime,
    /// The program's command and its arguments
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Serves until the process is stopped; prints the address first.
pub fn run(args: &BridgeArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    gridarena_cli::program::supervise().map_err(Failure::Internal)?;
    let program =
        Program::new(args.format, &args.dir, &shell_line(&args.command)).map_err(Failure::Input)?;
    if !std::path::Path::new(&program.dir).is_dir() {
        return Err(Failure::Input(format!(
            "--dir {}: no such folder",
            program.dir
        )));
    }
    let bridge = Arc::new(Bridge::new(program, args.clock.clock(args.out_of_time)));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Internal(format!("cannot start the runtime: {e}")))?;
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .map_err(|e| {
                Failure::Input(format!("cannot listen on {}:{}: {e}", args.host, args.port))
            })?;
        let addr = listener
            .local_addr()
            .map_err(|e| Failure::Internal(e.to_string()))?;
        writeln!(
            out,
            "GridArena bridge: {} ({} format, in copies of {}) at http://{addr}/",
            bridge.program().command,
            bridge.program().format,
            bridge.program().dir
        )
        .and_then(|()| out.flush())
        .map_err(Failure::Output)?;
        let app = Router::new()
            .fallback(handle)
            .with_state(Arc::clone(&bridge))
            .layer(axum::extract::DefaultBodyLimit::max(MAX_REQUEST_BYTES + 1));
        // A signal ends the process, with its programs, from the watcher `supervise` started.
        axum::serve(listener, app)
            .await
            .map_err(|e| Failure::Internal(format!("the bridge stopped: {e}")))
    });
    bridge.end_all();
    served.map(|()| ExitCode::SUCCESS)
}

/// The words after `--` as one command line for `sh -c` that gives the program those very words: a word
/// with anything in it the shell could read as syntax is single-quoted, so `--name "a;b"` stays one
/// argument and never starts a second command.
fn shell_line(words: &[String]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    let quoted: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            // A first word with `=` in it would be a variable's assignment, not the command.
            let plain_word = word.chars().all(plain) && !(i == 0 && word.contains('='));
            if !word.is_empty() && plain_word {
                word.clone()
            } else {
                format!("'{}'", word.replace('\'', "'\\''"))
            }
        })
        .collect();
    quoted.join(" ")
}

/// The CORS headers of every answer: any page may POST here (the arena runs wherever its files are served).
const CORS: [(header::HeaderName, &str); 4] = [
    (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
    (header::ACCESS_CONTROL_ALLOW_METHODS, "POST, OPTIONS"),
    (header::ACCESS_CONTROL_ALLOW_HEADERS, "Content-Type"),
    (header::ACCESS_CONTROL_MAX_AGE, "600"),
];

/// Every path answers: POST asks for a move, OPTIONS is a CORS preflight, anything else says what to do.
async fn handle(
    State(bridge): State<Arc<Bridge>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut response = if method == Method::OPTIONS {
        StatusCode::NO_CONTENT.into_response()
    } else if method == Method::POST {
        let answered = tokio::task::spawn_blocking(move || bridge.answer(&body)).await;
        match answered {
            Ok(a) => {
                eprintln!("{}", gridarena_cli::terminal::printable_line(&a.log));
                let status = StatusCode::from_u16(a.status).unwrap_or(StatusCode::BAD_GATEWAY);
                (status, [(header::CONTENT_TYPE, "application/json")], a.body).into_response()
            }
            Err(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the move's thread stopped",
            )
                .into_response(),
        }
    } else {
        (
            StatusCode::METHOD_NOT_ALLOWED,
            "This is a GridArena bridge: POST the arena's request JSON to get a move.\n",
        )
            .into_response()
    };
    let h = response.headers_mut();
    for (name, value) in CORS {
        h.insert(name, HeaderValue::from_static(value));
    }
    // Chrome asks before a public page may call a loopback address.
    if headers.contains_key("access-control-request-private-network") {
        h.insert(
            "access-control-allow-private-network",
            HeaderValue::from_static("true"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_after_the_dashes_stays_one_word() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            shell_line(&words(&["python3", "agent.py", "--depth=3"])),
            "python3 agent.py --depth=3"
        );
        assert_eq!(shell_line(&words(&["A=1", "B=2"])), "'A=1' B=2");
        assert_eq!(
            shell_line(&words(&["./agent", "--name", "a;b", "", "it's", "$HOME"])),
            r#"./agent --name 'a;b' '' 'it'\''s' '$HOME'"#
        );
    }
}
