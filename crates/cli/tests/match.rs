//! End-to-end tests of `gridarena halma match`: the built binary against a hostile HTTP server.
//!
//! The server below listens on 127.0.0.1 and misbehaves in a different way on each path. Every hostile
//! endpoint plays red against `builtin:greedy` for three short ticks, and each test checks that red's
//! error is reported with a clear cause, that red moves in no tick, that the game still plays to its turn
//! limit, that the record written on the way loads with `Record::parse` (which replays every tick), and
//! that the run exits 0.

use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::record::Record;
use gridarena_engine::halma::{
    AiRequest, CampRules, ContentType, ErrorKind, Exchange, GameResult, Mode, Team, Verdict,
};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------------
// The hostile server

/// One request as the server saw it.
#[derive(Clone, Debug)]
struct Hit {
    path: String,
    method: String,
    content_type: Option<String>,
    body: String,
    received: Instant,
    /// When the client closed the connection, for the endpoints that wait for that.
    closed: Option<Instant>,
}

struct Server {
    addr: SocketAddr,
    hits: Arc<Mutex<Vec<Hit>>>,
}

impl Server {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn hits(&self, path: &str) -> Vec<Hit> {
        self.hits
            .lock()
            .expect("the log is not poisoned")
            .iter()
            .filter(|h| h.path == path)
            .cloned()
            .collect()
    }
}

/// One server for the whole file; each test uses its own paths.
fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("the port");
        let hits = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&hits);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = Arc::clone(&log);
                thread::spawn(move || serve(stream, &log));
            }
        });
        Server { addr, hits }
    })
}

/// A request line, the headers we look at, and the body.
struct Request {
    method: String,
    path: String,
    content_type: Option<String>,
    body: String,
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    reader.read_line(&mut line).ok().filter(|&n| n > 0)?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let (mut length, mut content_type) = (0usize, None);
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok().filter(|&n| n > 0)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "content-type" => content_type = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        content_type,
        body: String::from_utf8(body).ok()?,
    })
}

/// A complete response that closes the connection.
fn respond(stream: &mut TcpStream, status: &str, extra_headers: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n{extra_headers}\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

fn ok_json(stream: &mut TcpStream, body: &str) {
    respond(
        stream,
        "200 OK",
        "Content-Type: application/json\r\n",
        body.as_bytes(),
    );
}

/// Blocks until the client closes the connection (or 20 s pass); returns when it did.
fn wait_for_close(stream: &mut TcpStream) -> Instant {
    let mut sink = [0u8; 1024];
    while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    Instant::now()
}

/// The greedy move for the team a request asks, as a response body: a well-behaved web AI.
fn greedy_answer(body: &str) -> Result<String, String> {
    let request: AiRequest = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let preset = request.preset.unwrap_or_default();
    let (position, team) = request
        .to_position(preset.rules().camp_rule)
        .map_err(|e| e.to_string())?;
    let mode = preset.rules().mode;
    let seed = u64::from(request.turn.unwrap_or(0));
    let path = BuiltIn::Greedy
        .choose(&position, mode, team, seed)
        .ok_or("no legal move")?;
    serde_json::to_string(&path).map_err(|e| e.to_string())
}

const TEN_MB: usize = 10 * 1024 * 1024;

fn serve(stream: TcpStream, log: &Mutex<Vec<Hit>>) {
    // Nothing here may hang for ever, whatever the client does.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(20)));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut out = stream;
    loop {
        let Some(request) = read_request(&mut reader) else {
            return;
        };
        let received = Instant::now();
        let index = {
            let mut log = log.lock().expect("the log is not poisoned");
            log.push(Hit {
                path: request.path.clone(),
                method: request.method.clone(),
                content_type: request.content_type.clone(),
                body: request.body.clone(),
                received,
                closed: None,
            });
            log.len() - 1
        };
        let out = &mut out;
        let closed = |at: Instant| {
            if let Ok(mut log) = log.lock() {
                log[index].closed = Some(at);
            }
        };
        match request.path.as_str() {
            // Well behaved, keeping the connection open between ticks; it insists on the page's
            // request: a POST with Content-Type text/plain (application/json on the /json-only paths,
            // which answer anything else with 415, as Flask's `request.get_json()` does).
            "/good" | "/good-trace" | "/good-games" | "/good-course" | "/good-seed"
            | "/json-only" | "/json-only-text" => {
                let wanted = if request.path.starts_with("/json-only") {
                    "application/json"
                } else {
                    "text/plain"
                };
                if request.content_type.as_deref() != Some(wanted) {
                    respond(
                        out,
                        "415 Unsupported Media Type",
                        "Content-Type: text/html\r\n",
                        b"<h1>Unsupported Media Type</h1>",
                    );
                    return;
                }
                let answer = if request.method != "POST" {
                    Err(format!("method {}", request.method))
                } else {
                    greedy_answer(&request.body)
                };
                let (status, body) = match answer {
                    Ok(body) => ("200 OK", body),
                    Err(why) => ("400 Bad Request", why),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                if out.write_all(head.as_bytes()).is_err()
                    || out.write_all(body.as_bytes()).is_err()
                {
                    return;
                }
                continue;
            }
            "/late" | "/late-red" | "/late-blue" | "/late-killed" => {
                let wait = if matches!(request.path.as_str(), "/late" | "/late-killed") {
                    500
                } else {
                    1500
                };
                thread::sleep(Duration::from_millis(wait));
                if let Ok(body) = greedy_answer(&request.body) {
                    ok_json(out, &body);
                }
            }
            "/500" => respond(
                out,
                "500 Internal Server Error",
                "Content-Type: text/plain\r\n",
                b"oops",
            ),
            "/html" | "/html-trace" => respond(
                out,
                "200 OK",
                "Content-Type: text/html\r\n",
                b"<!DOCTYPE html><html><body><h1>It works!</h1></body></html>",
            ),
            "/empty" => respond(out, "200 OK", "", b""),
            "/invalid-json" => ok_json(out, r#"{"from": {"x": 2, "y": 14}, "to": [{"x": 2,"#),
            "/wrong-shape" => ok_json(out, r#"{"move": {"piece": [2, 14], "target": [2, 13]}}"#),
            "/array" => ok_json(out, r#"[{"from":{"x":2,"y":14},"to":[{"x":2,"y":13}]}]"#),
            "/negative" => ok_json(out, r#"{"from":{"x":-1,"y":14},"to":[{"x":0,"y":13}]}"#),
            "/huge" => ok_json(out, r#"{"from":{"x":2,"y":14},"to":[{"x":1e300,"y":13}]}"#),
            "/huge-int" => ok_json(
                out,
                r#"{"from":{"x":18446744073709551615,"y":14},"to":[{"x":2,"y":13}]}"#,
            ),
            "/fraction" => ok_json(out, r#"{"from":{"x":2,"y":14},"to":[{"x":2.5,"y":13}]}"#),
            // Two pieces: (2,14) steps to (2,13), then "(1,14) steps to (1,13)" run into one chain.
            "/two-pieces" => ok_json(
                out,
                r#"{"from":{"x":2,"y":14},"to":[{"x":2,"y":13},{"x":1,"y":13}]}"#,
            ),
            "/big" => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {TEN_MB}\r\n\r\n"
                );
                let _ = out.write_all(head.as_bytes());
                let chunk = vec![b' '; 64 * 1024];
                for _ in 0..TEN_MB / chunk.len() {
                    if out.write_all(&chunk).is_err() {
                        break;
                    }
                }
            }
            "/big-unannounced" => {
                let _ = out.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n[");
                let chunk =
                    b"{\"from\":{\"x\":2,\"y\":14},\"to\":[{\"x\":2,\"y\":13}]},".repeat(1000);
                let mut sent = 0;
                while sent < TEN_MB && out.write_all(&chunk).is_ok() {
                    sent += chunk.len();
                }
            }
            "/redirect" => respond(out, "302 Found", "Location: /redirect\r\n", b""),
            // Accepts, reads the request, and never says a word.
            "/silent" => closed(wait_for_close(out)),
            // Starts a close-delimited answer and never finishes it.
            "/never-closes" => {
                let _ = out.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"from\":",
                );
                let _ = out.flush();
                closed(wait_for_close(out));
            }
            // Trickles a byte every 50 ms: each read succeeds, the whole never arrives in time.
            "/trickle" => {
                let _ = out.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
                for _ in 0..1000 {
                    thread::sleep(Duration::from_millis(50));
                    if out.write_all(b" ").is_err() {
                        break;
                    }
                }
                closed(Instant::now());
            }
            "/hangup" => {
                let _ = out.shutdown(Shutdown::Both);
            }
            "/garbage" => {
                let _ = out.write_all(b"I am not HTTP at all\r\n\r\n");
            }
            _ => respond(out, "404 Not Found", "", b"no such endpoint"),
        }
        return;
    }
}

// ---------------------------------------------------------------------------------------------------
// Running the binary

#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `gridarena halma match` with `args` (split at spaces) and then `extra` (file names).
fn matchup(args: &str, extra: &[&str]) -> Run {
    let mut all = vec!["halma", "match"];
    all.extend(args.split_whitespace());
    all.extend_from_slice(extra);
    gridarena(&all)
}

/// Runs `gridarena args...`, killing it after 60 s; every run must exit with a status, never panic.
fn gridarena(args: &[&str]) -> Run {
    let start = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gridarena"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A proxy from the environment would send loopback requests elsewhere.
    for var in [
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ] {
        cmd.env_remove(var);
    }
    let mut child = cmd.spawn().expect("the binary starts");
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out = thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("gridarena {args:?} ran for over 60 s");
        }
        thread::sleep(Duration::from_millis(5));
    };
    let run = Run {
        code: status.code().expect("an exit status, not a signal"),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
        took: start.elapsed(),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "gridarena {args:?} panicked: {}",
        run.stderr
    );
    run
}

fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("match-tests");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

fn load_record(path: &PathBuf) -> Record {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Record::parse(&text).unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()))
}

/// The tick length of the hostile games, in ms.
const TICK_MS: u64 = 200;
/// The ticks each hostile game lasts.
const TURNS: usize = 3;

/// Plays the hostile endpoint `path` as red against greedy for three ticks and checks the contract.
/// Returns red's error messages, one per tick.
fn hostile(path: &str, code: &str, text: &str) -> Vec<String> {
    let url = server().url(path);
    let record = temp_file(&format!("hostile{}.jsonl", path.replace('/', "-")));
    let tick = TICK_MS.to_string();
    let turns = TURNS.to_string();
    let record_arg = record.to_string_lossy().into_owned();
    let run = matchup(&format!("--red {url} --blue builtin:greedy --preset arena --tick-ms {tick} --max-turns {turns} --seed 1 --verbose"), &["--record", &record_arg]);
    assert_eq!(run.code, 0, "{path}: {run:?}");
    // The error is on stderr with --verbose, tick by tick, and in the summary on stdout.
    assert!(
        run.stderr.contains(text),
        "{path}: expected {text:?} on stderr: {run:?}"
    );
    assert!(
        run.stdout.contains(code),
        "{path}: no {code} in the summary: {run:?}"
    );
    // Its errors stalled the game, so the turn limit goes against it (the lenient policy plays on).
    assert!(
        run.stdout.contains(
            "game 1/1: seed 1, blue wins at the turn limit: red lost (its errors stalled the game: \
             3 error ticks in 3, the other side 0; the last: red: "
        ) && run.stdout.contains("after 3 ticks; errors: red 3, blue 0"),
        "{path}: {run:?}"
    );
    assert!(
        run.stdout.contains("wins: red 0, blue 1; draws: 0"),
        "{path}: {run:?}"
    );
    // Three ticks, none longer than the tick length plus scheduling slack.
    assert!(
        run.took < Duration::from_millis(TICK_MS * TURNS as u64 + 5_000),
        "{path} took {:?}",
        run.took
    );

    let record = load_record(&record);
    assert_eq!(record.ticks(), TURNS, "{path}");
    assert_eq!(record.result(), Some(GameResult::TurnLimit), "{path}");
    assert_eq!(record.header().players.red, url);
    assert_eq!(record.header().players.blue, "builtin:greedy");
    (1..=TURNS)
        .map(|k| {
            let outcome = record.outcome(k).expect("every tick is recorded");
            assert!(
                outcome.moves.iter().all(|m| m.team != Team::Red),
                "{path}: red moved in tick {k}: {outcome:?}"
            );
            let errors: Vec<_> = outcome
                .errors
                .iter()
                .filter(|e| e.team == Team::Red)
                .collect();
            assert_eq!(errors.len(), 1, "{path}, tick {k}: {outcome:?}");
            assert_eq!(errors[0].code, code, "{path}, tick {k}: {outcome:?}");
            assert!(
                outcome.errors.iter().all(|e| e.team == Team::Red),
                "{path}: blue erred: {outcome:?}"
            );
            errors[0].message.clone()
        })
        .collect()
}

/// The requests `path` received were never more than one at a time: each arrived after the previous
/// one's connection was closed (give or take the server's own scheduling).
fn one_at_a_time(path: &str) {
    let hits = server().hits(path);
    assert_eq!(hits.len(), TURNS, "{path}: one request per tick: {hits:?}");
    for pair in hits.windows(2) {
        let closed = pair[0].closed.expect("the runner closed the connection");
        let slack = Duration::from_millis(50);
        assert!(
            pair[1].received + slack >= closed,
            "{path}: a request arrived {:?} before the previous one was closed",
            closed - pair[1].received
        );
    }
}

// ---------------------------------------------------------------------------------------------------
// Hostile endpoints

#[test]
fn an_answer_after_the_deadline_is_a_time_out() {
    let messages = hostile(
        "/late",
        "timed_out",
        "red: no answer: timed out after 200 ms",
    );
    assert!(messages
        .iter()
        .all(|m| m == "no answer: timed out after 200 ms"));
}

#[test]
fn nothing_listening_is_connection_refused() {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let url = format!("http://127.0.0.1:{port}/");
    let run = matchup(
        &format!(
            "--red {url} --blue builtin:greedy --tick-ms 200 --max-turns 3 --seed 1 --verbose"
        ),
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr
            .matches("red: request failed: connection refused")
            .count(),
        3,
        "{run:?}"
    );
    assert!(run.stdout.contains(
        "blue wins at the turn limit: red lost (its errors stalled the game: 3 error ticks in 3, the \
         other side 0; the last: red: request failed: connection refused"
    ), "{run:?}");
    assert!(
        run.stdout.contains("after 3 ticks; errors: red 3, blue 0"),
        "{run:?}"
    );
    assert!(run.stdout.contains("3 x request_failed"), "{run:?}");
}

#[test]
fn a_side_answering_500_forfeits_after_ten_in_a_row_under_the_consecutive_policy() {
    let url = server().url("/500");
    let run = matchup(
        &format!(
            "--red {url} --blue builtin:greedy --tick-ms 200 --max-turns 50 --seed 1 --policy consecutive:10"
        ),
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains(
            "game 1/1: seed 1, blue wins: red forfeited (10 errors in a row; the last: red: request \
             failed: HTTP 500 Internal Server Error) after 10 ticks; errors: red 10, blue 0"
        ),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("wins: red 0, blue 1; draws: 0"),
        "{run:?}"
    );
    assert!(run.stdout.contains("10 x request_failed"), "{run:?}");
    let bad = matchup(
        "--red builtin:greedy --blue builtin:greedy --policy harsh",
        &[],
    );
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(bad.stderr.contains("consecutive:N"), "{bad:?}");
}

#[test]
fn an_http_error_status_names_the_status() {
    hostile(
        "/500",
        "request_failed",
        "red: request failed: HTTP 500 Internal Server Error",
    );
}

#[test]
fn an_html_page_is_not_json() {
    hostile(
        "/html",
        "invalid_json",
        "red: unreadable answer: the answer is not valid JSON",
    );
}

#[test]
fn an_empty_body_is_empty() {
    hostile(
        "/empty",
        "empty_body",
        "red: unreadable answer: the answer is empty",
    );
}

#[test]
fn broken_json_is_invalid_json() {
    hostile(
        "/invalid-json",
        "invalid_json",
        "the answer is not valid JSON",
    );
}

#[test]
fn json_of_the_wrong_shape_names_the_missing_field() {
    hostile(
        "/wrong-shape",
        "missing_field",
        "the answer has no \"from\"",
    );
}

#[test]
fn a_list_of_moves_is_refused() {
    hostile("/array", "list_of_moves", "the answer is a JSON array");
}

#[test]
fn a_negative_coordinate_is_off_the_board() {
    hostile(
        "/negative",
        "off_board",
        "square (-1,14) is off the 18x18 board",
    );
}

#[test]
fn a_huge_coordinate_is_out_of_range() {
    hostile(
        "/huge",
        "out_of_range",
        "\"to[0].x\" is 1e+300: far outside any board",
    );
    hostile("/huge-int", "out_of_range", "far outside any board");
}

#[test]
fn a_fractional_coordinate_is_not_an_integer() {
    hostile(
        "/fraction",
        "not_an_integer",
        "\"to[0].x\" is 2.5: coordinates must be whole numbers",
    );
}

#[test]
fn a_move_of_two_pieces_is_an_illegal_move() {
    let messages = hostile(
        "/two-pieces",
        "step_mixed_with_jumps",
        "red: invalid move: (2,14)->(2,13) is a step inside a chain",
    );
    assert!(!messages.is_empty());
    // Judged by the referee, not the parser: an invalid move, not a missing one.
    let record = load_record(&temp_file("hostile-two-pieces.jsonl"));
    let outcome = record.outcome(1).expect("a tick");
    assert_eq!(outcome.errors[0].kind, ErrorKind::InvalidMove);
    assert!(outcome.errors[0].submitted.is_some());
}

#[test]
fn a_ten_megabyte_body_is_refused_unread() {
    hostile(
        "/big",
        "too_large",
        "red: unreadable answer: the answer is 10485760 bytes; at most 65536 are read",
    );
    // Without a Content-Length all that is known is that it is over the limit.
    hostile("/big-unannounced", "too_large", "at most 65536 are read");
}

#[test]
fn a_redirect_is_not_followed() {
    hostile(
        "/redirect",
        "request_failed",
        "red: request failed: HTTP 302: redirects are not followed",
    );
    assert_eq!(
        server().hits("/redirect").len(),
        TURNS,
        "one request a tick, no loop"
    );
}

#[test]
fn a_server_that_never_answers_is_cut_at_the_deadline() {
    hostile(
        "/silent",
        "timed_out",
        "red: no answer: timed out after 200 ms",
    );
    one_at_a_time("/silent");
}

#[test]
fn a_server_that_never_closes_is_cut_at_the_deadline() {
    hostile(
        "/never-closes",
        "timed_out",
        "red: no answer: timed out after 200 ms",
    );
    one_at_a_time("/never-closes");
}

#[test]
fn a_trickling_body_is_cut_at_the_deadline() {
    hostile(
        "/trickle",
        "timed_out",
        "red: no answer: timed out after 200 ms",
    );
}

#[test]
fn a_hang_up_and_a_non_http_answer_are_failed_requests() {
    hostile("/hangup", "request_failed", "red: request failed: ");
    hostile("/garbage", "request_failed", "red: request failed: ");
}

#[test]
fn both_teams_are_asked_together_and_cut_together() {
    let (red, blue) = (server().url("/late-red"), server().url("/late-blue"));
    let run = matchup(
        &format!("--red {red} --blue {blue} --tick-ms 300 --max-turns 2 --seed 1 --verbose"),
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("draw (turn limit) after 2 ticks; errors: red 2, blue 2"),
        "{run:?}"
    );
    assert_eq!(
        run.stderr
            .matches("no answer: timed out after 300 ms")
            .count(),
        4,
        "{run:?}"
    );
    let (reds, blues) = (server().hits("/late-red"), server().hits("/late-blue"));
    assert_eq!((reds.len(), blues.len()), (2, 2));
    for (r, b) in reds.iter().zip(&blues) {
        let apart = r.received.max(b.received) - r.received.min(b.received);
        assert!(
            apart < Duration::from_millis(150),
            "requests {apart:?} apart"
        );
    }
    // The second tick's requests left after the first tick's deadline, not after the late answers.
    // The gap is measured where the requests arrive, so a loaded machine that delivers the first one a
    // few milliseconds late shortens it: the lower bound allows for that.
    let gap = reds[1].received - reds[0].received;
    assert!(
        gap >= Duration::from_millis(250) && gap < Duration::from_millis(480),
        "{gap:?}"
    );
}

// ---------------------------------------------------------------------------------------------------
// Traces and content types

/// The lines of a `--trace` file, each as JSON and as the engine's exchange.
fn trace_lines(path: &PathBuf) -> Vec<(Value, Exchange)> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("a trace line is not JSON ({e}): {line}"));
            let exchange: Exchange = serde_json::from_value(value.clone())
                .unwrap_or_else(|e| panic!("a trace line is not an exchange ({e}): {line}"));
            (value, exchange)
        })
        .collect()
}

#[test]
fn a_trace_has_a_line_per_request_with_the_exact_request_and_answer() {
    let (good, html) = (server().url("/good-trace"), server().url("/html-trace"));
    let (trace, record) = (temp_file("trace.jsonl"), temp_file("trace-record.jsonl"));
    let (trace_arg, record_arg) = (
        trace.to_string_lossy().into_owned(),
        record.to_string_lossy().into_owned(),
    );
    let run = matchup(
        &format!("--red {good} --blue {html} --preset arena --tick-ms 2000 --max-turns 3 --seed 1"),
        &["--trace", &trace_arg, "--record", &record_arg],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let (good_hits, html_hits) = (server().hits("/good-trace"), server().hits("/html-trace"));
    assert_eq!((good_hits.len(), html_hits.len()), (3, 3), "{run:?}");
    let lines = trace_lines(&trace);
    assert_eq!(lines.len(), 6, "both teams asked in each of 3 ticks");
    for (value, e) in &lines {
        let keys: Vec<&str> = value
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        for key in [
            "game",
            "tick",
            "team",
            "url",
            "request",
            "contentType",
            "timeLimitMs",
            "status",
            "ms",
            "body",
            "verdict",
        ] {
            assert!(keys.contains(&key), "no {key:?} in {value}");
        }
        assert_eq!(value["game"], 1, "{value}");
        assert_eq!(e.wire.content_type, ContentType::TextPlain);
        assert_eq!(e.wire.time_limit_ms, 2000);
        assert_eq!(e.wire.status, Some(200), "{value}");
        let k = usize::try_from(e.tick).expect("a tick") - 1;
        match e.team {
            Team::Red => {
                assert_eq!(e.url, good);
                // The body the endpoint received, byte for byte, and the answer it gave.
                assert_eq!(e.request, good_hits[k].body, "tick {}", e.tick);
                let answer = greedy_answer(&good_hits[k].body).expect("a move");
                assert_eq!(e.wire.body.as_deref(), Some(answer.as_str()));
                // Legal, but blue's error stops both moves in the arena.
                assert_eq!(e.verdict, Verdict::Held, "{value}");
            }
            Team::Blue => {
                assert_eq!(e.url, html);
                assert_eq!(e.request, html_hits[k].body, "tick {}", e.tick);
                assert_eq!(
                    e.wire.body.as_deref(),
                    Some("<!DOCTYPE html><html><body><h1>It works!</h1></body></html>")
                );
                assert!(
                    matches!(&e.verdict, Verdict::Refused { code, .. } if code == "invalid_json"),
                    "{value}"
                );
                assert!(e.verdict.to_string().starts_with("not JSON: "), "{value}");
            }
        }
    }
    let ticks: Vec<(u32, Team)> = lines.iter().map(|(_, e)| (e.tick, e.team)).collect();
    assert_eq!(
        ticks,
        [1, 1, 2, 2, 3, 3]
            .into_iter()
            .zip([Team::Red, Team::Blue].into_iter().cycle())
            .collect::<Vec<_>>(),
        "tick by tick, red first"
    );

    // The record keeps the same exchanges, and rebuilds the request each team was sent.
    let record = load_record(&record);
    let red = record.wire(1, Team::Red).expect("red's exchange in tick 1");
    assert_eq!(red.status, Some(200));
    assert_eq!(red.body, lines[0].1.wire.body);
    assert_eq!(
        record.request(1, Team::Red).as_deref(),
        Some(good_hits[0].body.as_str())
    );
    let blue = record
        .wire(1, Team::Blue)
        .expect("blue's exchange in tick 1");
    assert_eq!(blue.body, lines[1].1.wire.body);
}

#[test]
fn a_trace_of_several_games_names_the_game_and_has_no_built_in_lines() {
    let url = server().url("/good-games");
    let trace = temp_file("trace-games.jsonl");
    let trace_arg = trace.to_string_lossy().into_owned();
    let run = matchup(
        &format!("--red {url} --blue builtin:greedy --preset mini --tick-ms 5000 --max-turns 6 --games 2 --seed 5"),
        &["--trace", &trace_arg],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let lines = trace_lines(&trace);
    // Alternating, 6 ticks a game: red is asked in 3 of them, blue (built in) leaves no line.
    assert_eq!(lines.len(), 6, "{run:?}");
    assert_eq!(lines.len(), server().hits("/good-games").len());
    for game in [1, 2] {
        let ticks: Vec<u32> = lines
            .iter()
            .filter(|(v, _)| v["game"] == game)
            .map(|(_, e)| e.tick)
            .collect();
        assert_eq!(ticks.len(), 3, "game {game}: {ticks:?}");
        assert!(ticks.windows(2).all(|w| w[0] + 2 == w[1]), "{ticks:?}");
    }
    for (value, e) in &lines {
        assert_eq!(e.team, Team::Red, "{value}");
        assert_eq!(e.verdict, Verdict::Enacted, "{value}");
    }
}

#[test]
fn the_trace_of_a_match_stopped_midway_is_whole_up_to_its_last_tick() {
    // Red answers after 500 ms: the match is killed once two of its lines are in the file.
    let url = server().url("/late-killed");
    let trace = temp_file("trace-killed.jsonl");
    let _ = std::fs::remove_file(&trace);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gridarena"));
    cmd.args(["halma", "match", "--red", &url, "--blue", "builtin:greedy"])
        .args([
            "--preset",
            "mini",
            "--tick-ms",
            "5000",
            "--seed",
            "2",
            "--trace",
        ])
        .arg(&trace)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for var in ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"] {
        cmd.env_remove(var);
    }
    let mut child = cmd.spawn().expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    let whole_lines = || {
        std::fs::read_to_string(&trace)
            .map(|t| t.matches('\n').count())
            .unwrap_or(0)
    };
    while whole_lines() < 2 {
        if Instant::now() > deadline || child.try_wait().ok().flatten().is_some() {
            let _ = child.kill();
            panic!("no two trace lines within 30 s");
        }
        thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("the match is still running");
    child.wait().expect("the match is reaped");
    let text = std::fs::read_to_string(&trace).expect("the trace");
    assert!(text.ends_with('\n'), "a cut line: {text}");
    let lines = trace_lines(&trace);
    assert!(lines.len() >= 2);
    for (value, e) in &lines {
        assert_eq!(e.verdict, Verdict::Enacted, "{value}");
        assert_eq!(e.wire.status, Some(200), "{value}");
    }
}

#[test]
fn a_json_team_is_sent_application_json_and_a_json_only_endpoint_refuses_text() {
    let url = server().url("/json-only");
    let run = matchup(
        &format!("--red {url} --red-content-type json --blue builtin:greedy --preset arena --tick-ms 2000 --max-turns 3 --seed 1"),
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("errors: red 0, blue 0"), "{run:?}");
    let hits = server().hits("/json-only");
    assert_eq!(hits.len(), 3);
    for hit in &hits {
        assert_eq!(hit.content_type.as_deref(), Some("application/json"));
        let request: AiRequest = serde_json::from_str(&hit.body).expect("a request");
        assert_eq!(request.team, Some(Team::Red));
    }

    // The same endpoint sent text/plain (the default) refuses every request with 415.
    let url = server().url("/json-only-text");
    let trace = temp_file("trace-415.jsonl");
    let trace_arg = trace.to_string_lossy().into_owned();
    let run = matchup(
        &format!("--red {url} --blue builtin:greedy --preset arena --tick-ms 2000 --max-turns 3 --seed 1"),
        &["--trace", &trace_arg],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("errors: red 3, blue 0"), "{run:?}");
    assert!(
        run.stdout.contains("HTTP 415 Unsupported Media Type"),
        "{run:?}"
    );
    let lines = trace_lines(&trace);
    assert_eq!(lines.len(), 3);
    for (value, e) in &lines {
        assert_eq!(value["contentType"], "text/plain");
        assert_eq!(e.wire.status, Some(415));
        assert_eq!(
            e.wire.body.as_deref(),
            Some("<h1>Unsupported Media Type</h1>")
        );
        assert!(
            matches!(&e.verdict, Verdict::Refused { code, .. } if code == "request_failed"),
            "{value}"
        );
    }

    let run = matchup(
        &format!("--red {url} --blue builtin:greedy --red-content-type xml"),
        &[],
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("json"), "{run:?}");
}

// ---------------------------------------------------------------------------------------------------
// Well-behaved players

#[test]
fn a_well_behaved_web_ai_plays_a_whole_mini_game() {
    let url = server().url("/good");
    let record = temp_file("good-mini.jsonl");
    let record_arg = record.to_string_lossy().into_owned();
    let run = matchup(&format!("--red {url} --blue builtin:greedy --preset mini --tick-ms 5000 --max-turns 400 --seed 3"), &["--record", &record_arg]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("errors: red 0, blue 0"), "{run:?}");
    assert!(run.stdout.contains("red: latency "), "{run:?}");
    let record = load_record(&record);
    let result = record.result().expect("the game ended");
    assert_ne!(result, GameResult::TurnLimit, "greedy finishes a mini game");
    // Alternating: only the side to move was asked, so red's requests are about half the ticks, all
    // with the page's request: text/plain, a POST, the tick length, the asked team.
    let hits = server().hits("/good");
    let ticks = record.ticks();
    assert!(
        hits.len() * 2 >= ticks - 1 && hits.len() * 2 <= ticks + 1,
        "{} requests, {ticks} ticks",
        hits.len()
    );
    for hit in &hits {
        assert_eq!(hit.method, "POST");
        assert_eq!(hit.content_type.as_deref(), Some("text/plain"));
        let request: AiRequest = serde_json::from_str(&hit.body).expect("a request");
        assert_eq!(request.time_limit_ms, Some(5000));
        assert_eq!(request.team, Some(Team::Red));
    }
    for k in 1..=ticks {
        let outcome = record.outcome(k).expect("a tick");
        assert!(outcome.errors.is_empty(), "tick {k}: {outcome:?}");
        assert_eq!(outcome.moves.len(), 1);
    }
}

#[test]
fn built_in_games_print_a_line_each_and_a_summary() {
    let run = matchup(
        "--red builtin:greedy --blue builtin:greedy --games 3 --seed 10",
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(lines.len(), 3, "{run:?}");
    for (k, line) in lines.iter().enumerate() {
        assert!(
            line.starts_with(&format!("game {}/3: seed {}, ", k + 1, 10 + k)),
            "{line}"
        );
    }
    assert!(
        run.stdout.contains("3 games (arena, tick 1000 ms)"),
        "{run:?}"
    );
    assert!(run.stdout.contains("wins: red "), "{run:?}");
    assert!(run.stdout.contains("red: latency "), "{run:?}");
    assert!(run.stdout.contains("blue: latency "), "{run:?}");
    // Not a terminal: no progress bar, and nothing else to say.
    assert!(run.stderr.is_empty(), "{run:?}");
    // The same seeds give the same games.
    let again = matchup(
        "--red builtin:greedy --blue builtin:greedy --games 3 --seed 10",
        &[],
    );
    let results = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("game "))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(results(&run.stdout), results(&again.stdout));
}

#[test]
fn without_a_seed_a_random_one_is_printed() {
    let run = matchup(
        "--red builtin:greedy --blue builtin:greedy --preset mini",
        &[],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let seed = run
        .stderr
        .split_whitespace()
        .nth(3)
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no seed on stderr: {run:?}"));
    assert!(
        run.stdout.starts_with(&format!("game 1/1: seed {seed}, ")),
        "{run:?}"
    );
}

#[test]
fn records_load_in_the_replay_and_several_games_are_numbered() {
    let base = temp_file("several.jsonl");
    let base_arg = base.to_string_lossy().into_owned();
    let run = matchup(
        "--red builtin:search --blue builtin:greedy --preset mini --games 2 --seed 40",
        &["--record", &base_arg],
    );
    assert_eq!(run.code, 0, "{run:?}");
    for k in 1..=2u64 {
        let record = load_record(&temp_file(&format!("several-{k}.jsonl")));
        assert_eq!(record.header().seed, 39 + k);
        assert_eq!(record.header().players.red, "builtin:search");
        assert_eq!(record.header().players.blue, "builtin:greedy");
        let ticks = record.ticks();
        assert!(ticks > 0);
        // The replay can show every tick, and the last state is the game's end.
        let last = record.game(ticks).expect("the last state");
        assert_eq!(last.result(), record.result());
        assert!(record.result().is_some());
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("game {k}/2:")))
            .expect("a result line");
        assert!(line.contains(&format!("after {ticks} ticks")), "{line}");
    }
}

#[test]
fn a_seed_gives_the_pages_game() {
    // The page's loop (src/halma/session.rs) for greedy against search, built from the engine alone.
    use gridarena_engine::halma::{Answer, Game, NoMove, Preset};
    let seed = 21u64;
    let mut game = Game::new(&Preset::Mini.rules(), seed).expect("a preset");
    while game.result().is_none() {
        let tick = seed ^ u64::from(game.turn()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let answer = |ai: BuiltIn, team: Team| {
            if game.movers().contains(&team) {
                ai.choose(game.position(), Mode::Alternating, team, tick ^ team as u64)
                    .map_or(Answer::NoMove(NoMove::Missing), Answer::Move)
            } else {
                Answer::NoMove(NoMove::Missing)
            }
        };
        let (red, blue) = (
            answer(BuiltIn::Greedy, Team::Red),
            answer(BuiltIn::Search, Team::Blue),
        );
        game.tick(red, blue).expect("not over");
    }
    let record = temp_file("page-game.jsonl");
    let record_arg = record.to_string_lossy().into_owned();
    let run = matchup(
        "--red builtin:greedy --blue builtin:search --preset mini --seed 21 --tick-ms 60000",
        &["--record", &record_arg],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let record = load_record(&record);
    assert_eq!(record.state(record.ticks()), Some(&game.state()));
}

// ---------------------------------------------------------------------------------------------------
// Usage

#[test]
fn bad_arguments_exit_2_and_say_what_is_accepted() {
    const GREEDY: &str = "--red builtin:greedy --blue builtin:greedy";
    let cases = [
        (
            "--red greedy --blue builtin:greedy".to_string(),
            "builtin:greedy, builtin:search-lite, builtin:search, the http:// or https:// URL of a web AI, or a program",
        ),
        (
            "--red builtin:random --blue builtin:greedy".to_string(),
            "expected builtin:greedy, builtin:search-lite or builtin:search",
        ),
        (
            "--red ftp://example.org/ --blue builtin:greedy".to_string(),
            "must start with http:// or https://",
        ),
        (
            "--red http:// --blue builtin:greedy".to_string(),
            "names no host",
        ),
        (
            "--red human --blue builtin:greedy".to_string(),
            "unknown player",
        ),
        ("--red builtin:greedy".to_string(), "--blue"),
        (format!("{GREEDY} --tick-ms 0"), "--tick-ms"),
        (format!("{GREEDY} --tick-ms 600001"), "--tick-ms"),
        (format!("{GREEDY} --games 0"), "--games"),
        (format!("{GREEDY} --max-turns 0"), "--max-turns"),
        (format!("{GREEDY} --preset huge"), "arena"),
        (format!("{GREEDY} --seed x"), "--seed"),
        (format!("{GREEDY} --seed -1"), "-1"),
        (format!("{GREEDY} --frobnicate"), "--frobnicate"),
    ];
    for (args, says) in &cases {
        let run = matchup(args, &[]);
        assert_eq!(run.code, 2, "{args}: {run:?}");
        assert!(run.stdout.is_empty(), "{args}: {run:?}");
        assert!(
            run.stderr.contains(says),
            "{args}: expected {says:?}: {run:?}"
        );
    }
}

#[test]
fn an_unwritable_record_exits_3() {
    let run = matchup(
        "--red builtin:greedy --blue builtin:greedy --seed 1",
        &["--record", "/nonexistent-directory/game.jsonl"],
    );
    assert_eq!(run.code, 3, "{run:?}");
    assert!(
        run.stderr.contains("/nonexistent-directory/game.jsonl"),
        "{run:?}"
    );
}

#[test]
fn help_documents_the_options_and_exit_codes() {
    let run = gridarena(&["halma", "match", "--help"]);
    assert_eq!(run.code, 0, "{run:?}");
    for needle in [
        "--red",
        "--blue",
        "--preset",
        "--tick-ms",
        "--max-turns",
        "--seed",
        "--record",
        "--games",
        "--verbose",
        "text/plain",
        "Exit status",
        "S + k - 1",
        "out-2.jsonl",
    ] {
        assert!(run.stdout.contains(needle), "--help lacks {needle:?}");
    }
}

#[test]
fn the_course_camp_rules_and_the_first_mover_reach_the_game_and_the_requests() {
    let url = server().url("/good-course");
    let record = temp_file("course.jsonl");
    let run = matchup(
        "--preset classic --camp-rules course --first blue --blue builtin:greedy --max-turns 6 --tick-ms 5000 --seed 4 --red",
        &[&url, "--record", record.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("red: ") && run.stdout.contains("; 0 errors"),
        "{}",
        run.stdout
    );
    let hits = server().hits("/good-course");
    assert_eq!(hits.len(), 3, "red moves on ticks 2, 4 and 6");
    assert!(hits
        .iter()
        .all(|h| h.body.contains(r#""campRules":"course""#)));
    let rec = load_record(&record);
    let start = rec.state(0).expect("the start state");
    assert_eq!(start.camp_rules, CampRules::Course);
    assert_eq!(start.to_move, Some(Team::Blue));
    // The seed's rules send no "campRules".
    let seed_run = matchup(
        "--preset classic --blue builtin:greedy --max-turns 2 --tick-ms 5000 --seed 4 --red",
        &[&server().url("/good-seed")],
    );
    assert_eq!(seed_run.code, 0, "{}", seed_run.stderr);
    assert!(server()
        .hits("/good-seed")
        .iter()
        .all(|h| !h.body.contains("campRules")));
}

#[test]
fn the_course_camp_rules_need_the_classic_preset() {
    let run = matchup(
        "--preset mini --camp-rules course --red builtin:greedy --blue builtin:greedy",
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("classic preset only"), "{}", run.stderr);
    let run = matchup(
        "--first red --red builtin:greedy --blue builtin:greedy",
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("alternating"), "{}", run.stderr);
    let run = matchup(
        "--preset classic --camp-rules usc --red builtin:greedy --blue builtin:greedy",
        &[],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("seed") && run.stderr.contains("course"),
        "{}",
        run.stderr
    );
}
