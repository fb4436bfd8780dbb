//! `gridarena halma bridge` end to end: the built binary serving programs on loopback, asked over HTTP as
//! the page asks a web AI.

use gridarena_engine::halma::protocol::parse_response;
use gridarena_engine::halma::{Game, Preset, Team};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The page's origin as `scripts/serve.sh` serves it.
const PAGE: &str = "http://127.0.0.1:8080";

/// A running bridge, stopped (as Ctrl-C stops it) when dropped.
struct Bridge {
    child: Child,
    port: u16,
    /// The printed address's path, its key in it: `/KEY/`.
    path: String,
    /// What it has written on stderr so far: its log.
    log: Arc<Mutex<String>>,
}

impl Bridge {
    fn start(args: &[&str]) -> Bridge {
        Bridge::start_with(args, &[])
    }

    fn start_with(args: &[&str], env: &[(&str, &Path)]) -> Bridge {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridarena"))
            .args(["halma", "bridge", "--port", "0"])
            .args(args)
            .envs(env.iter().copied())
            .current_dir(root)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the bridge starts");
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().expect("stderr");
        let kept = Arc::clone(&log);
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut log = kept.lock().unwrap_or_else(|p| p.into_inner());
                log.push_str(&line);
                log.push('\n');
            }
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the bridge prints its address");
        let (port, path) = line
            .trim()
            .rsplit(' ')
            .next()
            .and_then(|u| u.strip_prefix("http://127.0.0.1:"))
            .and_then(|rest| rest.split_once('/'))
            .and_then(|(port, path)| Some((port.parse().ok()?, format!("/{path}"))))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Bridge {
            child,
            port,
            path,
            log,
        }
    }

    /// A bridge in `format` for `command`, run in the hostile-program fixtures' folder.
    fn fixture(format: &str, command: &[&str]) -> Bridge {
        let mut args = vec!["--format", format, "--dir", "tests/fixtures/programs", "--"];
        args.extend_from_slice(command);
        Bridge::start(&args)
    }

    /// What the bridge has logged so far.
    fn log(&self) -> String {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The log once `done` says it is complete, or after 5 s: a thread reads the bridge's log as it
    /// comes, so a line written as an answer goes out may not be in yet when the answer is.
    fn log_when(&self, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let log = self.log();
            if done(&log) || Instant::now() >= deadline {
                return log;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// POSTs `body` as the page at [`PAGE`] does; the answer's status, JSON body and
    /// `Access-Control-Allow-Origin`.
    fn post(&self, body: &str, content_type: &str) -> (u16, Value, Option<String>) {
        let answer = self.send(
            "POST",
            &[("Origin", PAGE), ("Content-Type", content_type)],
            body,
        );
        let cors = answer.header("access-control-allow-origin");
        (answer.status, answer.json(), cors)
    }

    /// One request to the printed address with exactly `headers` (and a `Host` naming the bridge
    /// unless they give one), answered within 30 s.
    fn send(&self, method: &str, headers: &[(&str, &str)], body: &str) -> Raw {
        self.send_at(&self.path, method, headers, body)
    }

    /// [`Bridge::send`] to `path` on the bridge's port.
    fn send_at(&self, path: &str, method: &str, headers: &[(&str, &str)], body: &str) -> Raw {
        let to = Target {
            port: self.port,
            path: path.to_string(),
        };
        send_to(&to, method, headers, body, Duration::from_secs(30))
            .unwrap_or_else(|e| panic!("the bridge does not answer: {e}"))
    }

    /// Where its requests go, for a thread of their own.
    fn target(&self) -> Target {
        Target {
            port: self.port,
            path: self.path.clone(),
        }
    }
}

/// A bridge's port and a path on it.
#[derive(Clone, Debug)]
struct Target {
    port: u16,
    path: String,
}

/// An HTTP answer as it came.
#[derive(Debug)]
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Raw {
    fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::String(self.body.clone()))
    }
}

/// Sends one HTTP/1.1 request by hand to 127.0.0.1 at `to`, so that any `Host` can be sent, and
/// reads the answer within `limit`.
fn send_to(
    to: &Target,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
    limit: Duration,
) -> Result<Raw, String> {
    let port = to.port;
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(limit))
        .map_err(|e| e.to_string())?;
    let mut request = format!("{method} {} HTTP/1.1\r\n", to.path);
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut text = String::new();
    stream
        .read_to_string(&mut text)
        .map_err(|e| format!("no answer within {limit:?}: {e}"))?;
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no header end")?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Ok(Raw {
        status,
        headers,
        body: body.to_string(),
    })
}

impl Drop for Bridge {
    fn drop(&mut self) {
        // SIGTERM: the bridge ends its games (their processes and folders) before it exits.
        let pid = i32::try_from(self.child.id()).unwrap_or(0);
        // SAFETY: kill has no memory preconditions.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let _ = self.child.wait();
    }
}

/// A scratch file for a program's notes, fresh for the test `name`.
fn notes(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("gridarena-bridge-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn has_python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn classic_request(team: Team, game_id: &str) -> String {
    classic_request_within(team, game_id, 5000)
}

fn classic_request_within(team: Team, game_id: &str, time_limit_ms: u64) -> String {
    let game = Game::new(&Preset::Classic.rules(), 1).expect("classic");
    let mut request = game.request(team);
    request.time_limit_ms = Some(time_limit_ms);
    request.game_id = Some(game_id.to_string());
    serde_json::to_string(&request).expect("JSON")
}

#[test]
fn the_course_starter_answers_the_pages_requests_with_legal_moves() {
    if !has_python() {
        eprintln!("python3 is not installed: skipped");
        return;
    }
    let bridge = Bridge::start(&[
        "--format",
        "course",
        "--dir",
        "ai/course",
        "--",
        "python3",
        "halma_course.py",
    ]);
    let game = Game::new(&Preset::Classic.rules(), 1).expect("classic");
    for (team, content_type) in [(Team::Red, "text/plain"), (Team::Blue, "application/json")] {
        let (status, answer, cors) = bridge.post(&classic_request(team, "g1"), content_type);
        assert_eq!(status, 200, "{answer}");
        assert_eq!(cors.as_deref(), Some(PAGE), "the page's origin, echoed");
        let path = parse_response(answer.to_string().as_bytes()).expect("a move");
        game.position()
            .check(team, &path)
            .unwrap_or_else(|e| panic!("{team}: {path}: {e}"));
    }
    // A preflight is answered with the CORS headers.
    let preflight = bridge.send(
        "OPTIONS",
        &[
            ("Origin", PAGE),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
        "",
    );
    assert_eq!(preflight.status, 204, "{preflight:?}");
    let allowed = preflight
        .header("access-control-allow-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(allowed.contains("content-type"), "{allowed}");
    // What is not a request is refused with a reason, and the bridge goes on.
    let (status, answer, _) = bridge.post("{\"boardSize\": ", "text/plain");
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap_or("").contains("not JSON"),
        "{answer}"
    );
    // The arena cannot be written in the course format: the program is never run for it.
    let arena = Game::new(&Preset::Arena.rules(), 1).expect("arena");
    let body = serde_json::to_string(&arena.request(Team::Red)).expect("JSON");
    let (status, answer, _) = bridge.post(&body, "text/plain");
    assert_eq!(status, 502, "{answer}");
    assert_eq!(answer["code"], "could_not_start", "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap_or("")
            .contains("course format"),
        "{answer}"
    );
}

#[test]
fn a_failing_program_is_a_502_that_names_the_failure_and_its_stderr_when_shared() {
    let bridge = Bridge::start(&[
        "--share-stderr",
        "--format",
        "course",
        "--dir",
        "tests/fixtures/programs",
        "--",
        "sh",
        "crash.sh",
    ]);
    let (status, answer, cors) = bridge.post(&classic_request(Team::Red, "g2"), "text/plain");
    assert_eq!(status, 502, "{answer}");
    assert_eq!(
        cors.as_deref(),
        Some(PAGE),
        "errors carry CORS too, so the page can read them"
    );
    assert_eq!(answer["code"], "crashed");
    assert!(
        answer["stderr"]
            .as_str()
            .unwrap_or("")
            .contains("NameError"),
        "{answer}"
    );
}

#[test]
fn a_line_bot_gets_one_process_per_game_and_the_pages_request_as_it_is() {
    // `head -n 1` answers the first line it is given (the request, echoed) and exits: each game's first
    // move reaches a fresh process, and the echo proves the request line arrived whole.
    let bridge = Bridge::fixture("lines", &["head", "-n", "1"]);
    for game in ["a", "b"] {
        let (status, answer, _) = bridge.post(&classic_request(Team::Red, game), "text/plain");
        // The echoed request is not a move: a readable failure that quotes nothing private.
        assert_eq!(status, 502, "{answer}");
        assert_eq!(answer["code"], "missing_field", "{answer}");
    }
}

#[test]
fn a_move_cut_by_the_requests_limit_does_not_spend_the_clock() {
    // The doctor sends a 1 ms limit, and a page's tick cuts a slow move: the program's clock is charged
    // what the move used, so the next request is still answered.
    let bridge = Bridge::fixture("course", &["sh", "slow_once.sh"]);
    let (status, answer, _) =
        bridge.post(&classic_request_within(Team::Red, "g3", 100), "text/plain");
    assert_eq!(status, 502, "{answer}");
    assert_eq!(answer["code"], "timed_out", "{answer}");
    let (status, answer, _) = bridge.post(&classic_request(Team::Red, "g3"), "text/plain");
    assert_eq!(status, 200, "the clock still has time: {answer}");
}

#[test]
fn the_programs_arguments_reach_it_as_they_were_given() {
    // Each argument after -- is one word of the command, whatever it holds: no `;` in one starts
    // another command.
    let bridge = Bridge::start(&[
        "--share-stderr",
        "--format",
        "course",
        "--dir",
        "tests/fixtures/programs",
        "--",
        "sh",
        "-c",
        "echo \"[$1] [$2]\" >&2; exit 1",
        "-",
        "a;b c",
        "it's",
    ]);
    let (status, answer, _) = bridge.post(&classic_request(Team::Red, "q"), "text/plain");
    assert_eq!(status, 502, "{answer}");
    let stderr = answer["stderr"].as_str().unwrap_or_default();
    assert!(stderr.contains("[a;b c] [it's]"), "{answer}");
}

/// A program that notes each run in `$GRIDARENA_TEST_NOTES`, so a test can tell whether it ran.
const NOTER: &[&str] = &[
    "sh",
    "-c",
    "echo ran >> \"$GRIDARENA_TEST_NOTES\"; echo oops >&2; exit 1",
];

fn noter(name: &str, flags: &[&str]) -> (Bridge, PathBuf) {
    let notes = notes(name);
    let mut args = flags.to_vec();
    args.extend([
        "--format",
        "course",
        "--dir",
        "tests/fixtures/programs",
        "--",
    ]);
    args.extend_from_slice(NOTER);
    let bridge = Bridge::start_with(&args, &[("GRIDARENA_TEST_NOTES", &notes)]);
    (bridge, notes)
}

fn runs(notes: &Path) -> usize {
    std::fs::read_to_string(notes).map_or(0, |t| t.lines().count())
}

#[test]
fn a_foreign_pages_requests_are_refused_and_never_reach_the_program() {
    let (bridge, notes) = noter("foreign", &[]);
    let body = classic_request(Team::Red, "g");
    for origin in [
        "https://evil.example",
        "http://127.0.0.1.evil.example:8080",
        "null",
    ] {
        let answer = bridge.send(
            "POST",
            &[("Origin", origin), ("Content-Type", "text/plain")],
            &body,
        );
        assert_eq!(answer.status, 403, "{origin}: {answer:?}");
        assert_eq!(
            answer.header("access-control-allow-origin"),
            None,
            "{answer:?}"
        );
        let error = answer.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(error.contains("--allow-origin"), "{answer:?}");
        // Its preflight gets no grant either, the private network's included.
        let preflight = bridge.send(
            "OPTIONS",
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
                ("Access-Control-Request-Private-Network", "true"),
            ],
            "",
        );
        assert_eq!(preflight.status, 403, "{origin}: {preflight:?}");
        for header in [
            "access-control-allow-origin",
            "access-control-allow-private-network",
            "access-control-allow-methods",
        ] {
            assert_eq!(preflight.header(header), None, "{header}: {preflight:?}");
        }
    }
    assert_eq!(runs(&notes), 0, "the program ran for a foreign page");
    let log = bridge.log_when(|l| l.contains("refused"));
    assert!(log.contains("refused"), "{log}");
    let _ = std::fs::remove_file(notes);
}

#[test]
fn a_request_for_another_host_name_is_refused_as_dns_rebinding() {
    let (bridge, notes) = noter("host", &[]);
    let body = classic_request(Team::Red, "g");
    let port = bridge.port;
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        "127.0.0.1".to_string(),
        String::new(),
    ] {
        // Without an Origin, as a same-origin GET-then-POST of a rebound name may come, and with one.
        for origin in [None, Some(format!("http://{host}"))] {
            let mut headers = vec![("Host", host.as_str()), ("Content-Type", "text/plain")];
            if let Some(origin) = &origin {
                headers.push(("Origin", origin));
            }
            let answer = bridge.send("POST", &headers, &body);
            assert_eq!(answer.status, 421, "Host {host:?}: {answer:?}");
            assert_eq!(answer.header("access-control-allow-origin"), None);
            assert!(
                answer.json()["error"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("Host"),
                "{answer:?}"
            );
        }
    }
    assert_eq!(runs(&notes), 0, "the program ran for a foreign Host");
    // This computer's own names pass.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let answer = bridge.send(
            "POST",
            &[("Host", &host), ("Content-Type", "text/plain")],
            &body,
        );
        assert_eq!(answer.status, 502, "Host {host}: {answer:?}");
    }
    assert_eq!(runs(&notes), 4);
    let _ = std::fs::remove_file(notes);
}

#[test]
fn this_computers_pages_and_the_allowed_origins_pass_with_their_preflights() {
    let (bridge, notes) = noter(
        "allowed",
        &["--allow-origin", "https://class.example.org/gridarena/"],
    );
    let body = classic_request(Team::Red, "g");
    for origin in [
        "http://127.0.0.1:8080",
        "http://localhost:3000",
        "http://[::1]:8080",
        "https://class.example.org",
    ] {
        let preflight = bridge.send(
            "OPTIONS",
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
                ("Access-Control-Request-Private-Network", "true"),
            ],
            "",
        );
        assert_eq!(preflight.status, 204, "{origin}: {preflight:?}");
        assert_eq!(
            preflight.header("access-control-allow-origin").as_deref(),
            Some(origin)
        );
        assert_eq!(
            preflight
                .header("access-control-allow-private-network")
                .as_deref(),
            Some("true"),
            "{preflight:?}"
        );
        assert!(
            preflight
                .header("vary")
                .is_some_and(|v| v.to_ascii_lowercase().contains("origin")),
            "{preflight:?}"
        );
        let answer = bridge.send(
            "POST",
            &[("Origin", origin), ("Content-Type", "application/json")],
            &body,
        );
        assert_eq!(answer.status, 502, "{origin}: {answer:?}");
        assert_eq!(
            answer.header("access-control-allow-origin").as_deref(),
            Some(origin)
        );
        assert_eq!(answer.json()["code"], "crashed", "{answer:?}");
    }
    // Another port of the allowed site is another origin.
    let answer = bridge.send(
        "POST",
        &[("Origin", "https://class.example.org:8443")],
        &body,
    );
    assert_eq!(answer.status, 403, "{answer:?}");
    assert_eq!(runs(&notes), 4);
    let _ = std::fs::remove_file(notes);
}

#[test]
fn a_bad_allowed_origin_is_refused_at_the_start() {
    let run = Command::new(env!("CARGO_BIN_EXE_gridarena"))
        .args([
            "halma",
            "bridge",
            "--port",
            "0",
            "--allow-origin",
            "class.example.org",
        ])
        .args(["--", "true"])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("--allow-origin"), "{stderr}");
    assert!(
        stderr.contains("https://class.example.org"),
        "the error shows an origin: {stderr}"
    );
}

#[test]
fn a_programs_stderr_stays_in_the_bridges_log_unless_shared() {
    let bridge = Bridge::fixture("course", &["sh", "crash.sh"]);
    let (status, answer, _) = bridge.post(&classic_request(Team::Red, "g"), "text/plain");
    assert_eq!(status, 502, "{answer}");
    assert_eq!(answer["code"], "crashed", "{answer}");
    assert!(answer.get("stderr").is_none_or(Value::is_null), "{answer}");
    assert!(!answer.to_string().contains("NameError"), "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap_or_default()
            .contains("--share-stderr"),
        "the answer says where the stderr went: {answer}"
    );
    let log = bridge.log_when(|l| l.contains("NameError"));
    assert!(log.contains("NameError"), "{log}");
}

#[test]
fn a_game_id_that_is_not_a_plain_name_is_refused_and_logged_escaped() {
    let (bridge, notes) = noter("gameid", &[]);
    let long = "x".repeat(65);
    for id in [
        "a\u{1b}]0;owned\u{7}\u{1b}[2J",
        "a\nb",
        "a b",
        long.as_str(),
    ] {
        let (status, answer, cors) = bridge.post(&classic_request(Team::Red, id), "text/plain");
        assert_eq!(status, 400, "{id:?}: {answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap_or_default()
                .contains("gameId"),
            "{answer}"
        );
        assert_eq!(cors.as_deref(), Some(PAGE), "the page may read why");
    }
    assert_eq!(runs(&notes), 0);
    // The page's ids (the seed in hex) and the usual names pass.
    for id in ["00000000000004d2", "game-1.red_2:b", ""] {
        let (status, answer, _) = bridge.post(&classic_request(Team::Red, id), "text/plain");
        assert_eq!(status, 502, "{id:?}: {answer}");
    }
    let log = bridge.log_when(|l| l.lines().count() >= 7);
    assert_eq!(log.lines().count(), 7, "{log}");
    assert!(
        !log.contains(['\u{1b}', '\u{7}']),
        "a control character reached the terminal: {log:?}"
    );
    let _ = std::fs::remove_file(notes);
}

/// A request of `game_id` at `turn`, with a time limit of a minute.
fn request_at(game_id: &str, turn: u32) -> String {
    let game = Game::new(&Preset::Arena.rules(), 1).expect("arena");
    let mut request = game.request(Team::Red);
    request.time_limit_ms = Some(60_000);
    request.turn = Some(turn);
    request.game_id = Some(game_id.to_string());
    serde_json::to_string(&request).expect("JSON")
}

/// Whether `pid` is a live process (a zombie is not).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
    })
}

#[test]
fn restarting_a_game_mid_move_cancels_that_move_and_holds_up_no_other_game() {
    let notes = notes("restart");
    let bridge = Bridge::start_with(
        &[
            "--format",
            "lines",
            "--dir",
            "tests/fixtures/programs",
            "--",
            "sh",
            "lines_slow_turn4.sh",
        ],
        &[("GRIDARENA_TEST_NOTES", &notes)],
    );
    let to = bridge.target();
    let ask = move |game: &str, turn: u32| {
        let body = request_at(game, turn);
        let headers = [("Origin", PAGE), ("Content-Type", "text/plain")];
        let start = Instant::now();
        let answer = send_to(&to, "POST", &headers, &body, Duration::from_secs(20));
        (answer, start.elapsed())
    };
    // Game A's move at turn 4 sleeps a minute.
    let slow = thread::spawn({
        let ask = ask.clone();
        move || ask("a", 4)
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while runs(&notes) == 0 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    let pid: i32 = std::fs::read_to_string(&notes)
        .unwrap_or_default()
        .trim()
        .trim_start_matches("pid ")
        .parse()
        .expect("game A's program noted its pid");
    // The page starts game A again: the bridge answers the new game's first move at once.
    let restart = thread::spawn({
        let ask = ask.clone();
        move || ask("a", 0)
    });
    thread::sleep(Duration::from_millis(200));
    // Game B is not held up by game A's move, nor by its restart.
    let (other, took) = ask("b", 0);
    let other = other.expect("game B is answered");
    assert_eq!(other.status, 200, "{other:?}");
    assert!(took < Duration::from_secs(3), "game B waited {took:?}");
    let (restarted, took) = restart.join().expect("the restart's thread");
    let restarted = restarted.expect("the restart is answered");
    assert_eq!(restarted.status, 200, "{restarted:?}");
    assert!(took < Duration::from_secs(3), "the restart waited {took:?}");
    // Game A's old move was cancelled: its request is answered, its program killed.
    let (old, took) = slow.join().expect("the slow move's thread");
    let old = old.expect("the cancelled move is answered");
    assert_eq!(old.status, 409, "{old:?}");
    assert!(
        old.json()["error"]
            .as_str()
            .unwrap_or_default()
            .contains("started again"),
        "{old:?}"
    );
    assert!(took < Duration::from_secs(5), "the old move took {took:?}");
    let deadline = Instant::now() + Duration::from_secs(2);
    while alive(pid) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid), "game A's old program still runs");
    let _ = std::fs::remove_file(notes);
}

#[test]
fn a_request_without_the_bridges_key_is_refused_and_never_reaches_the_program() {
    let (bridge, notes) = noter("key", &[]);
    // The printed address carries a key of 128 bits or more, URL-safe, new at each start.
    let key = bridge.path.trim_matches('/').to_string();
    assert!(key.len() >= 22, "{}", bridge.path);
    assert!(
        key.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "{key}"
    );
    let (other, _) = noter("key-other", &[]);
    assert_ne!(other.path, bridge.path, "two bridges, one key");
    let body = classic_request(Team::Red, "g");
    let near = &key[..key.len() - 1];
    let paths = [
        "/".to_string(),
        "/move".to_string(),
        format!("/{near}/"),
        format!("/{key}x/"),
        format!("/?{key}"),
        format!("/x/{key}/"),
        other.path.clone(),
    ];
    for path in &paths {
        // Another program of this computer (no Origin), and the page with a stale address.
        let anyone = bridge.send_at(path, "POST", &[("Content-Type", "text/plain")], &body);
        assert_eq!(anyone.status, 403, "{path}: {anyone:?}");
        let why = anyone.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(why.contains("address it printed"), "{why}");
        assert!(!why.contains(near), "the refusal quotes the key: {why}");
        let page = bridge.send_at(
            path,
            "POST",
            &[("Origin", PAGE), ("Content-Type", "text/plain")],
            &body,
        );
        assert_eq!(page.status, 403, "{path}: {page:?}");
        assert_eq!(
            page.header("access-control-allow-origin").as_deref(),
            Some(PAGE),
            "the page may read why: {page:?}"
        );
    }
    assert_eq!(runs(&notes), 0, "the program ran without the key");
    // The printed address, with or without its last slash, is answered.
    for path in [bridge.path.clone(), format!("/{key}")] {
        let answer = bridge.send_at(&path, "POST", &[("Content-Type", "text/plain")], &body);
        assert_eq!(answer.status, 502, "{path}: {answer:?}");
    }
    assert_eq!(runs(&notes), 2);
    let log = bridge.log_when(|l| l.matches("refused").count() >= paths.len() * 2);
    assert!(!log.contains(&key), "the log shows the key: {log}");
    let _ = std::fs::remove_file(notes);
    let _ = std::fs::remove_file(self::notes("key-other"));
}

/// A line program that sleeps a minute on each request of a game whose id has `flood` in it, and
/// answers any other at once.
const FLOODED: &[&str] = &[
    "sh",
    "-c",
    "while IFS= read -r line; do case \"$line\" in *flood*) sleep 60;; esac; \
     echo '{\"from\":{\"x\":0,\"y\":0},\"to\":[{\"x\":1,\"y\":0}]}'; done",
];

/// Sends `count` requests of each of `games` at once, each from a thread of its own; the answers come
/// on the receiver as they come.
fn flood(bridge: &Bridge, games: &[String], count: usize) -> std::sync::mpsc::Receiver<Raw> {
    let (tx, rx) = std::sync::mpsc::channel();
    for game in games {
        for _ in 0..count {
            let (to, tx, body) = (bridge.target(), tx.clone(), request_at(game, 1));
            thread::spawn(move || {
                let headers = [("Origin", PAGE), ("Content-Type", "text/plain")];
                if let Ok(answer) = send_to(&to, "POST", &headers, &body, Duration::from_secs(90)) {
                    let _ = tx.send(answer);
                }
            });
        }
    }
    rx
}

#[test]
fn a_flood_of_one_games_requests_is_refused_at_once_and_other_games_are_answered() {
    let bridge = Bridge::fixture("lines", FLOODED);
    // One more than a game may have in flight: the first sleeps, the rest wait for it, one is refused.
    let answers = flood(&bridge, &["flood".to_string()], 9);
    let first = answers
        .recv_timeout(Duration::from_secs(20))
        .expect("a request over the game's limit is answered at once");
    assert_eq!(first.status, 429, "{first:?}");
    let why = first.json()["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(why.contains("game flood has 8 requests"), "{why}");
    // Another game is answered while the flooded one's requests wait.
    let (status, answer, _) = bridge.post(&request_at("calm", 1), "text/plain");
    assert_eq!(status, 200, "{answer}");
    assert!(
        answers.try_recv().is_err(),
        "only the one over the limit was refused"
    );
    drop(bridge);
}

#[test]
fn requests_in_flight_are_bounded_in_all_and_the_excess_is_refused_at_once() {
    let bridge = Bridge::fixture("lines", FLOODED);
    // 9 games of 8 requests (their limit each, so no game's limit refuses any): 72, of which the
    // bridge takes 64 and refuses 8 at once.
    let games: Vec<String> = (0..9).map(|i| format!("flood{i}")).collect();
    let answers = flood(&bridge, &games, 8);
    for _ in 0..8 {
        let refused = answers
            .recv_timeout(Duration::from_secs(20))
            .expect("a request over the bridge's limit is answered at once");
        assert_eq!(refused.status, 503, "{refused:?}");
        let why = refused.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(why.contains("64 requests"), "{why}");
    }
    // Full: a new game is refused too, at once, and nothing of the 64 taken was answered.
    let (status, answer, _) = bridge.post(&request_at("calm", 1), "text/plain");
    assert_eq!(status, 503, "{answer}");
    assert!(answers.try_recv().is_err(), "a taken request was answered");
    drop(bridge);
}
