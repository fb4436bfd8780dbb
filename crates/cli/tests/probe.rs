//! `gridarena halma probe`: the starters pass every check (exit 0); each misbehaving endpoint fails the
//! check that names its mistake, with the fix, and the command exits 1.

#[path = "support/run.rs"]
mod run;
#[path = "support/starter.rs"]
mod starter;

use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::AiRequest;
use run::run;
use serde_json::Value;
use starter::{start, Kind};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::Duration;

/// How a test endpoint misbehaves (all false: a well-behaved AI).
#[derive(Clone, Copy, Default)]
struct Faults {
    no_cors: bool,
    no_cors_on_errors: bool,
    refuses_text_plain: bool,
    html: bool,
    empty_square: bool,
    slow_ms: u64,
}

/// Serves `faults` on a free loopback port for the rest of the test process; returns its URL.
fn endpoint(faults: Faults) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().expect("an address").port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || serve(stream, faults));
        }
    });
    format!("http://127.0.0.1:{port}/move")
}

fn serve(mut stream: TcpStream, faults: Faults) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(clone) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(clone);
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let method = line
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    let (mut length, mut content_type) = (0usize, String::new());
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 {
            return;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "content-type" => content_type = value.trim().to_ascii_lowercase(),
                _ => {}
            }
        }
    }
    let mut body = vec![0; length.min(1 << 20)];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let cors = if faults.no_cors {
        ""
    } else {
        "Access-Control-Allow-Origin: *\r\n"
    };
    let (status, extra, text) = if method == "OPTIONS" {
        (
            "204 No Content",
            format!("{cors}Access-Control-Allow-Headers: Content-Type\r\n"),
            String::new(),
        )
    } else if faults.refuses_text_plain && !content_type.starts_with("application/json") {
        (
            "415 Unsupported Media Type",
            cors.to_string(),
            "<h1>Unsupported Media Type</h1>".to_string(),
        )
    } else if faults.html {
        (
            "200 OK",
            cors.to_string(),
            "<br /><b>Notice</b>: Undefined index: pieces".to_string(),
        )
    } else {
        match answer(&body, faults) {
            Some(mv) => {
                thread::sleep(Duration::from_millis(faults.slow_ms));
                ("200 OK", cors.to_string(), mv)
            }
            None if faults.no_cors_on_errors => (
                "400 Bad Request",
                String::new(),
                r#"{"error":"not a request"}"#.to_string(),
            ),
            None => (
                "400 Bad Request",
                cors.to_string(),
                r#"{"error":"not a request"}"#.to_string(),
            ),
        }
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        text.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(text.as_bytes());
}

/// The move the endpoint answers: greedy's, or one from an empty square.
fn answer(body: &[u8], faults: Faults) -> Option<String> {
    let request: AiRequest = serde_json::from_slice(body).ok()?;
    if faults.empty_square {
        return Some(r#"{"from":{"x":9,"y":9},"to":[{"x":9,"y":8}]}"#.to_string());
    }
    let (position, team) = request.to_position(false).ok()?;
    let path = BuiltIn::Greedy.choose(
        &position,
        gridarena_engine::halma::Mode::Simultaneous,
        team,
        1,
    )?;
    serde_json::to_string(&path).ok()
}

/// Runs the probe and returns its exit status and the JSON report's checks by id.
fn probe(url: &str, extra: &[&str]) -> (i32, Vec<(String, String, String)>) {
    let mut args = vec!["halma", "probe", url, "--json"];
    args.extend(extra);
    let out = run(&args, "", None);
    let report: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("a JSON report: {e}\n{}", out.stdout));
    let checks = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .map(|c| {
            let text = format!("{} {}", c["detail"], c["fix"]);
            (
                c["id"].as_str().unwrap_or_default().to_string(),
                c["status"].as_str().unwrap_or_default().to_string(),
                text,
            )
        })
        .collect();
    (out.code, checks)
}

fn failed(checks: &[(String, String, String)]) -> Vec<&str> {
    checks
        .iter()
        .filter(|c| c.1 == "failed")
        .map(|c| c.0.as_str())
        .collect()
}

fn text_of<'a>(checks: &'a [(String, String, String)], id: &str) -> &'a str {
    &checks.iter().find(|c| c.0 == id).expect(id).2
}

#[test]
fn the_starters_pass_every_check_with_either_content_type() {
    for kind in Kind::ALL {
        let Some(starter) = start(kind) else { continue };
        let url = format!("http://127.0.0.1:{}/", starter.port);
        for ct in ["text", "json"] {
            let (code, checks) = probe(&url, &["--content-type", ct]);
            assert_eq!(failed(&checks), Vec::<&str>::new(), "{kind:?} {ct}");
            assert_eq!(code, 0, "{kind:?} {ct}");
            assert_eq!(checks.len(), 15);
            assert!(checks
                .iter()
                .any(|c| c.0 == "legal-jump-chain" && c.1 == "passed"));
        }
        // The text report ends with its verdict.
        let out = run(&["halma", "probe", &url], "", None);
        assert!(
            out.stdout.ends_with("every check passed\n"),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn an_endpoint_without_the_cors_header_fails_that_check() {
    let url = endpoint(Faults {
        no_cors: true,
        ..Faults::default()
    });
    let (code, checks) = probe(&url, &[]);
    assert_eq!(code, 1);
    assert!(failed(&checks).contains(&"cors"), "{checks:?}");
    assert!(text_of(&checks, "cors").contains("Access-Control-Allow-Origin: *"));
}

#[test]
fn error_answers_without_the_cors_header_are_named() {
    let url = endpoint(Faults {
        no_cors_on_errors: true,
        ..Faults::default()
    });
    let (code, checks) = probe(&url, &[]);
    assert_eq!((code, failed(&checks)), (1, vec!["cors-error"]));
    assert!(text_of(&checks, "cors-error").contains("HTTP 400"));
}

#[test]
fn a_flask_style_endpoint_is_pointed_at_the_content_type() {
    let url = endpoint(Faults {
        refuses_text_plain: true,
        ..Faults::default()
    });
    let (code, checks) = probe(&url, &[]);
    assert_eq!((code, failed(&checks)), (1, vec!["text-plain"]));
    let text = text_of(&checks, "text-plain");
    assert!(
        text.contains("415") && text.contains("application/json"),
        "{text}"
    );
    // A team set to json is fine with it.
    let (code, checks) = probe(&url, &["--content-type", "json"]);
    assert_eq!((code, failed(&checks)), (0, vec![]));
}

#[test]
fn an_html_answer_and_an_illegal_move_fail_the_move_checks_with_reasons() {
    let url = endpoint(Faults {
        html: true,
        ..Faults::default()
    });
    let (code, checks) = probe(&url, &[]);
    assert_eq!(code, 1);
    assert!(failed(&checks).contains(&"legal-start"));
    assert!(text_of(&checks, "legal-start").contains("<b>Notice</b>"));
    assert!(text_of(&checks, "legal-start").contains("JSON only"));

    let url = endpoint(Faults {
        empty_square: true,
        ..Faults::default()
    });
    let (code, checks) = probe(&url, &[]);
    assert_eq!(code, 1);
    for id in [
        "legal-start",
        "legal-midgame",
        "legal-jump-chain",
        "legal-endgame",
    ] {
        assert!(failed(&checks).contains(&id), "{id}");
        assert!(
            text_of(&checks, id).contains("(9,9)->(9,8) is illegal"),
            "{}",
            text_of(&checks, id)
        );
    }
}

#[test]
fn answers_slower_than_the_tick_fail_the_latency_check() {
    let url = endpoint(Faults {
        slow_ms: 150,
        ..Faults::default()
    });
    let (code, checks) = probe(&url, &["--tick-ms", "100"]);
    assert_eq!((code, failed(&checks)), (1, vec!["latency"]));
    assert!(text_of(&checks, "latency").contains("longer than the tick"));
}

#[test]
fn nothing_listening_and_a_blocked_port_fail_first() {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let (code, checks) = probe(&format!("http://127.0.0.1:{port}/"), &[]);
    assert_eq!((code, failed(&checks)), (1, vec!["reachable"]));
    assert!(text_of(&checks, "reachable").contains("connection refused"));

    let (code, checks) = probe("http://127.0.0.1:6000/", &[]);
    assert_eq!((code, failed(&checks)), (1, vec!["address"]));
    assert!(checks[1..].iter().all(|c| c.1 == "skipped"));

    let (code, checks) = probe(
        "http://ai.example.org/",
        &["--origin", "https://gridarena.example.org"],
    );
    assert_eq!((code, failed(&checks)), (1, vec!["address"]));
    assert!(text_of(&checks, "address").contains("mixed content"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["halma", "probe"][..],
        &[
            "halma",
            "probe",
            "http://127.0.0.1:1/",
            "--content-type",
            "xml",
        ],
        &["halma", "probe", "http://127.0.0.1:1/", "--tick-ms", "0"],
    ] {
        assert_eq!(run(args, "", None).code, 2, "{args:?}");
    }
}
