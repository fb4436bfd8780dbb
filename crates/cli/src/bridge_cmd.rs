//! `gridarena halma bridge`: the command line around [`gridarena_cli::bridge`], served with axum on
//! loopback. Every request's `Host`, `Origin` and key (the secret in the printed address's path) are
//! checked ([`gridarena_cli::bridge::access`]) before it reaches the program, and only an allowed page
//! gets CORS headers.

use crate::io::Failure;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use clap::Args;
use gridarena_cli::bridge::access::{self, Access, Key, Refusal};
use gridarena_cli::bridge::{Bridge, MAX_REQUEST_BYTES};
use gridarena_cli::program::OutOfTime;
use gridarena_cli::terminal::printable_line;
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
with the protocol's JSON; a failure with HTTP 502 and {\"error\", \"code\"}, which the page's inspector
shows. Each move is logged on stderr, with the program's stderr; --share-stderr sends that in the answer
too. A move still running when its game is started again is cancelled (HTTP 409). At most 8 requests of
one game and 64 in all are taken at once; more are refused at once (HTTP 429, 503).

The printed address carries a secret key in its path (http://127.0.0.1:PORT/KEY/), new at each start: a
request to any other path is refused (HTTP 403), so that no other program or user of this computer can
run your program. Give the page that address whole.

The bridge answers GridArena's page only: pages served from this computer (http://127.0.0.1:PORT,
http://localhost:PORT) and the origins given with --allow-origin. A request from any other page is
refused (HTTP 403, no CORS headers) before the program sees it, and so is a request for a Host other than
127.0.0.1, localhost or [::1] with the bridge's port (HTTP 421: a page reaching it under a name of its
own, DNS rebinding). The bridge answers CORS preflights and accepts text/plain and application/json
bodies. It listens on 127.0.0.1 unless --host says otherwise: the program runs with your rights, and
nothing is sandboxed.";

pub const AFTER: &str = "\
Examples:
  gridarena halma bridge --format course --dir ai/course -- python3 halma_course.py
  gridarena halma bridge --port 8002 --format lines --dir ai -- python3 lines/halma_lines.py
  gridarena halma bridge --allow-origin https://class.example.org --format course --dir ai/course -- python3 halma_course.py
Then give the page the printed address (http://127.0.0.1:8001/KEY/, KEY its secret) as a web AI.";

#[derive(Debug, Args)]
pub struct BridgeArgs {
    /// The port to listen on (0: any free port, printed)
    #[arg(long, default_value_t = 8001)]
    port: u16,
    /// The address to listen on; anything but loopback lets other machines run your program
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// A page allowed to call the bridge besides this computer's own (http://127.0.0.1:*,
    /// http://localhost:*): the origin or the address of your GridArena page, such as
    /// https://class.example.org; may be given more than once
    #[arg(long, value_name = "ORIGIN", value_parser = access::page_origin)]
    allow_origin: Vec<String>,
    /// Send the program's stderr with a failure's answer, so the page's inspector shows it (it always
    /// goes to the bridge's log); only allowed pages ever get an answer
    #[arg(long)]
    share_stderr: bool,
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
    let key = Key::new().map_err(|e| {
        Failure::Internal(format!(
            "cannot read the system's random source for the bridge's key: {e}"
        ))
    })?;
    let bridge = Arc::new(
        Bridge::new(program, args.clock.clock(args.out_of_time)).share_stderr(args.share_stderr),
    );
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
            "GridArena bridge: {} ({} format, in copies of {}) at http://{addr}{}",
            bridge.program().command,
            bridge.program().format,
            bridge.program().dir,
            key.path()
        )
        .and_then(|()| writeln!(out, "{}", allowed_pages(&args.allow_origin)))
        .and_then(|()| out.flush())
        .map_err(Failure::Output)?;
        if let Some(warning) = exposure_warning(&args.host, addr.port()) {
            eprintln!("{warning}");
        }
        let served = Served {
            bridge: Arc::clone(&bridge),
            access: Access::new(args.allow_origin.clone(), &args.host, addr.port()),
            key,
        };
        let app = Router::new()
            .fallback(handle)
            .with_state(Arc::new(served))
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

/// The line that says which pages may call the bridge.
fn allowed_pages(origins: &[String]) -> String {
    let mine = "pages served from this computer (http://127.0.0.1:*, http://localhost:*)";
    if origins.is_empty() {
        format!("It answers {mine} only; --allow-origin adds another page.")
    } else {
        format!("It answers {mine} and {}.", origins.join(", "))
    }
}

/// What a bridge listening on `host` must say out loud, unless `host` is this computer's loopback.
fn exposure_warning(host: &str, port: u16) -> Option<String> {
    if access::is_loopback(host) {
        return None;
    }
    let host = printable_line(host);
    Some(format!(
        "WARNING: --host {host} is not loopback. Anyone who can reach this computer on port {port} can run \
         your program, with your rights, and read its answers: pages are held to their origins, but any \
         other program can send a request. Stop the bridge and leave --host out unless that is what you \
         mean."
    ))
}

/// What every request is answered by: the bridge, and who may ask it.
struct Served {
    bridge: Arc<Bridge>,
    access: Access,
    key: Key,
}

/// The CORS headers of an allowed page's answers, besides `Access-Control-Allow-Origin`.
const CORS: [(header::HeaderName, &str); 4] = [
    (header::ACCESS_CONTROL_ALLOW_METHODS, "POST, OPTIONS"),
    (header::ACCESS_CONTROL_ALLOW_HEADERS, "Content-Type"),
    (header::ACCESS_CONTROL_MAX_AGE, "600"),
    // The answer depends on the page that asks: no cache may give one page's to another.
    (header::VARY, "Origin"),
];

/// Under the key's path, POST asks for a move, OPTIONS is a CORS preflight, anything else says what to do.
/// A request for a foreign `Host` or from a foreign page is refused first, without CORS headers; then
/// one without the key, with them for an allowed page, so that it can read why.
async fn handle(
    State(served): State<Arc<Served>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    // A header that is not text is as foreign as a wrong one.
    let text = |name: header::HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    // HTTP/2 names the host in the request's authority instead.
    let host = text(header::HOST).or_else(|| uri.authority().map(|a| a.as_str()));
    if let Err(refusal) = served.access.check_host(host) {
        return refused(refusal);
    }
    let origin = match served.access.check_origin(text(header::ORIGIN)) {
        Ok(origin) => origin.and_then(|o| HeaderValue::from_str(o).ok()),
        Err(refusal) => return refused(refusal),
    };
    let mut response = if let Err(refusal) = served.key.check_path(uri.path()) {
        refused(refusal)
    } else if method == Method::OPTIONS {
        StatusCode::NO_CONTENT.into_response()
    } else if method == Method::POST {
        let bridge = Arc::clone(&served.bridge);
        let answered = tokio::task::spawn_blocking(move || bridge.answer(&body)).await;
        match answered {
            Ok(a) => {
                eprintln!("{}", printable_line(&a.log));
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
    if let Some(origin) = origin {
        let h = response.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        for (name, value) in CORS {
            h.insert(name, HeaderValue::from_static(value));
        }
        // Chrome asks before a public page may call a loopback address: granted to allowed pages only.
        if headers.contains_key("access-control-request-private-network") {
            h.insert(
                "access-control-allow-private-network",
                HeaderValue::from_static("true"),
            );
        }
    }
    response
}

/// A refused request's answer, JSON with the reason, and its line in the log.
fn refused(refusal: Refusal) -> Response {
    eprintln!("{}", printable_line(&format!("refused: {}", refusal.why)));
    let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::FORBIDDEN);
    let body = serde_json::json!({ "error": refusal.why }).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
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

    #[test]
    fn a_bridge_off_loopback_says_so_out_loud() {
        assert_eq!(exposure_warning("127.0.0.1", 8001), None);
        assert_eq!(exposure_warning("localhost", 8001), None);
        let warning = exposure_warning("0.0.0.0", 8001).expect("a warning");
        assert!(warning.starts_with("WARNING: --host 0.0.0.0"), "{warning}");
        assert!(warning.contains("port 8001"), "{warning}");
        assert!(exposure_warning("evil\u{1b}[2J", 1).is_some_and(|w| !w.contains('\u{1b}')));
    }
}
