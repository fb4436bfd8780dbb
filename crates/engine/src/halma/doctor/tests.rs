//! The battery against simulated endpoints: a fake server is a function from a probe to what a client
//! would observe, natively (every header) or in a page (CORS hides what it hides).

use super::*;
use crate::halma::ai::BuiltIn;
use crate::halma::AiRequest;

/// How a simulated endpoint behaves.
#[derive(Clone, Copy, Default)]
struct Server {
    no_cors_header: bool,
    no_cors_on_errors: bool,
    refuses_text_plain: bool,
    no_preflight: bool,
    html: bool,
    silent: bool,
    first_move: bool,
    empty_square: bool,
    slow_ms: f64,
    closes: bool,
}

/// What `server` sends back for `probe`: (status, headers, body).
fn respond(server: Server, probe: &Probe) -> Option<(u16, Headers, Vec<u8>)> {
    if server.silent {
        return None;
    }
    let mut headers = Headers {
        allow_origin: (!server.no_cors_header).then(|| "*".to_string()),
        allow_headers: None,
        keep_alive: Some(!server.closes),
    };
    if probe.method == Method::Options {
        if server.no_preflight {
            return Some((405, Headers::default(), vec![]));
        }
        headers.allow_headers = Some("Content-Type".into());
        return Some((204, headers, vec![]));
    }
    if server.refuses_text_plain && probe.content_type == Some(ContentType::TextPlain) {
        return Some((415, headers, b"Unsupported Media Type".to_vec()));
    }
    if server.html {
        return Some((
            200,
            headers,
            b"<html><b>Warning</b>: undefined index".to_vec(),
        ));
    }
    let Ok(request) = serde_json::from_str::<AiRequest>(&probe.body) else {
        if server.no_cors_on_errors {
            headers.allow_origin = None;
        }
        return Some((400, headers, br#"{"error":"not JSON"}"#.to_vec()));
    };
    let (position, team) = request.to_position(false).expect("a valid request");
    let path = if server.empty_square {
        crate::halma::Path::new(
            crate::halma::Square::new(9, 9).unwrap(),
            vec![crate::halma::Square::new(9, 8).unwrap()],
        )
    } else if server.first_move {
        // The first move the generator offers: legal, though rarely a good one.
        let m = position.moves(team)[0];
        position.path(team, m).unwrap()
    } else {
        BuiltIn::Search
            .choose(&position, crate::halma::Mode::Simultaneous, team, 1)
            .expect("a move")
    };
    let body = serde_json::json!({
        "from": {"x": path.from.x, "y": path.from.y},
        "to": path.to.iter().map(|s| serde_json::json!({"x": s.x, "y": s.y})).collect::<Vec<_>>(),
    });
    Some((200, headers, body.to_string().into_bytes()))
}

fn run(server: Server, client: Client, content_type: ContentType) -> Report {
    run_at("http://127.0.0.1:8001/", server, client, content_type)
}

fn run_at(url: &str, server: Server, client: Client, content_type: ContentType) -> Report {
    let mut doctor = Doctor::new(Settings {
        url: url.into(),
        content_type,
        tick_ms: 1000,
        origin: DEFAULT_ORIGIN.into(),
        client,
    });
    let mut sent = 0;
    while let Some(probe) = doctor.next_probe() {
        sent += 1;
        assert!(sent < 100, "the battery ends");
        let reply = respond(server, &probe);
        let observation = match (reply, client) {
            (None, _) => Observation {
                failure: Some("connection refused".into()),
                ms: 1.0,
                ..Observation::default()
            },
            (Some((status, headers, body)), Client::Native) => Observation {
                status: Some(status),
                body: Some(body),
                ms: 2.0 + server.slow_ms,
                headers: Some(headers),
                ..Observation::default()
            },
            // A page: no-cors gets an opaque answer; otherwise a missing header (or a refused
            // preflight) is a network error.
            (Some(_), Client::Browser) if probe.no_cors => Observation {
                status: Some(0),
                ms: 2.0,
                ..Observation::default()
            },
            (Some((status, headers, body)), Client::Browser) => {
                let preflight_fails = probe.content_type == Some(ContentType::Json)
                    && (server.no_preflight || server.no_cors_header);
                if headers.allow_origin.is_none() || preflight_fails {
                    Observation {
                        failure: Some("TypeError: Failed to fetch".into()),
                        ms: 2.0,
                        ..Observation::default()
                    }
                } else {
                    Observation {
                        status: Some(status),
                        body: Some(body),
                        ms: 2.0 + server.slow_ms,
                        ..Observation::default()
                    }
                }
            }
        };
        doctor.observe(observation);
    }
    assert!(doctor.is_done());
    doctor.report()
}

fn status(report: &Report, id: &str) -> Status {
    report
        .check(id)
        .unwrap_or_else(|| panic!("no check {id}"))
        .status
}

fn failed(report: &Report) -> Vec<&str> {
    report
        .checks
        .iter()
        .filter(|c| c.status == Status::Failed)
        .map(|c| c.id.as_str())
        .collect()
}

#[test]
fn a_good_endpoint_passes_everything_natively_and_in_a_page() {
    for client in [Client::Native, Client::Browser] {
        for ct in ContentType::ALL {
            let report = run(Server::default(), client, ct);
            assert!(report.passed(), "{client:?} {ct}: {}", report.to_text());
            assert_eq!(report.checks.len(), 15, "{}", report.to_text());
        }
    }
    let native = run(Server::default(), Client::Native, ContentType::TextPlain);
    assert_eq!(status(&native, "keep-alive"), Status::Passed);
    assert!(native.to_text().ends_with("every check passed\n"));
    let page = run(Server::default(), Client::Browser, ContentType::TextPlain);
    assert_eq!(status(&page, "keep-alive"), Status::Skipped);
}

#[test]
fn a_missing_cors_header_fails_with_the_fix_in_both_clients() {
    for client in [Client::Native, Client::Browser] {
        let server = Server {
            no_cors_header: true,
            ..Server::default()
        };
        let report = run(server, client, ContentType::TextPlain);
        let cors = report.check("cors").unwrap();
        assert_eq!(cors.status, Status::Failed, "{client:?}");
        assert!(cors
            .fix
            .as_ref()
            .unwrap()
            .contains("Access-Control-Allow-Origin: *"));
        assert_eq!(status(&report, "reachable"), Status::Passed);
        assert!(!report.passed());
        if client == Client::Browser {
            // The page can read nothing, so the moves are not judged rather than failed.
            assert_eq!(
                failed(&report),
                ["cors", "cors-error"],
                "{}",
                report.to_text()
            );
            let legal = report.check("legal-start").unwrap();
            assert_eq!(legal.status, Status::Skipped);
            assert!(legal.detail.contains("could not read"), "{}", legal.detail);
        }
    }
}

#[test]
fn error_answers_without_the_header_are_named() {
    for client in [Client::Native, Client::Browser] {
        let server = Server {
            no_cors_on_errors: true,
            ..Server::default()
        };
        let report = run(server, client, ContentType::TextPlain);
        assert_eq!(
            failed(&report),
            ["cors-error"],
            "{client:?}: {}",
            report.to_text()
        );
    }
}

#[test]
fn a_flask_style_endpoint_is_pointed_at_the_content_type() {
    let server = Server {
        refuses_text_plain: true,
        ..Server::default()
    };
    for client in [Client::Native, Client::Browser] {
        let report = run(server, client, ContentType::TextPlain);
        assert_eq!(
            failed(&report),
            ["text-plain"],
            "{client:?}: {}",
            report.to_text()
        );
        let check = report.check("text-plain").unwrap();
        assert!(check.detail.contains("415"), "{}", check.detail);
        assert!(check.fix.as_ref().unwrap().contains("application/json"));
        // The positions are still judged, sent the way the endpoint reads.
        assert_eq!(status(&report, "legal-jump-chain"), Status::Passed);
        // Set to json, the team is fine: text/plain is only a note.
        let report = run(server, client, ContentType::Json);
        assert!(report.passed(), "{}", report.to_text());
        assert_eq!(status(&report, "text-plain"), Status::Note);
    }
}

#[test]
fn a_missing_preflight_matters_only_to_a_json_team() {
    let server = Server {
        no_preflight: true,
        ..Server::default()
    };
    for client in [Client::Native, Client::Browser] {
        let report = run(server, client, ContentType::TextPlain);
        assert!(report.passed(), "{}", report.to_text());
        assert_eq!(status(&report, "preflight"), Status::Note);
        let report = run(server, client, ContentType::Json);
        assert!(
            failed(&report).contains(&"preflight"),
            "{}",
            report.to_text()
        );
    }
}

#[test]
fn an_html_answer_is_quoted_and_not_a_move() {
    let server = Server {
        html: true,
        ..Server::default()
    };
    let report = run(server, Client::Native, ContentType::TextPlain);
    let check = report.check("legal-start").unwrap();
    assert_eq!(check.status, Status::Failed);
    assert!(
        check.detail.contains("<html><b>Warning"),
        "{}",
        check.detail
    );
    assert!(check.fix.as_ref().unwrap().contains("JSON only"));
}

#[test]
fn an_illegal_move_gets_the_referees_reason() {
    let server = Server {
        first_move: true,
        ..Server::default()
    };
    let report = run(server, Client::Native, ContentType::TextPlain);
    assert!(report.passed(), "{}", report.to_text());
    let server = Server {
        empty_square: true,
        ..Server::default()
    };
    let report = run(server, Client::Native, ContentType::TextPlain);
    let game = &scenarios()[0].game;
    let path = crate::halma::Path::new(
        crate::halma::Square::new(9, 9).unwrap(),
        vec![crate::halma::Square::new(9, 8).unwrap()],
    );
    let reason = game.position().check(ASKED, &path).unwrap_err().to_string();
    let check = report.check("legal-start").unwrap();
    assert_eq!(check.status, Status::Failed);
    assert_eq!(
        check.detail,
        format!("the move (9,9)->(9,8) is illegal: {reason}")
    );
}

#[test]
fn nothing_listening_stops_after_the_first_requests() {
    for client in [Client::Native, Client::Browser] {
        let server = Server {
            silent: true,
            ..Server::default()
        };
        let report = run(server, client, ContentType::TextPlain);
        assert_eq!(failed(&report), ["reachable"], "{}", report.to_text());
        assert!(report
            .check("reachable")
            .unwrap()
            .detail
            .contains("connection refused"));
        assert_eq!(status(&report, "latency"), Status::Skipped);
    }
}

#[test]
fn slow_answers_fail_the_latency_check() {
    let server = Server {
        slow_ms: 1500.0,
        ..Server::default()
    };
    let report = run(server, Client::Native, ContentType::TextPlain);
    let check = report.check("latency").unwrap();
    assert_eq!(check.status, Status::Failed);
    assert!(
        check
            .detail
            .contains("20 answers took longer than the tick"),
        "{}",
        check.detail
    );
}

#[test]
fn a_closed_connection_is_a_note_not_a_failure() {
    let server = Server {
        closes: true,
        ..Server::default()
    };
    let report = run(server, Client::Native, ContentType::TextPlain);
    assert!(report.passed());
    assert_eq!(status(&report, "keep-alive"), Status::Note);
}

#[test]
fn a_refused_address_sends_nothing() {
    let mut doctor = Doctor::new(Settings {
        url: "http://127.0.0.1:6000/".into(),
        content_type: ContentType::TextPlain,
        tick_ms: 1000,
        origin: DEFAULT_ORIGIN.into(),
        client: Client::Browser,
    });
    assert_eq!(doctor.next_probe(), None);
    let report = doctor.report();
    assert_eq!(failed(&report), ["address"]);
    assert_eq!(report.checks.len(), 15);
    assert!(report.checks[1..]
        .iter()
        .all(|c| c.status == Status::Skipped));
}

#[test]
fn probes_carry_the_requests_they_describe() {
    let mut doctor = Doctor::new(Settings {
        url: "http://127.0.0.1:8001/".into(),
        content_type: ContentType::Json,
        tick_ms: 200,
        origin: DEFAULT_ORIGIN.into(),
        client: Client::Native,
    });
    let mut bodies = Vec::new();
    while let Some(p) = doctor.next_probe() {
        bodies.push((p.method, p.content_type, p.body.clone(), p.timeout_ms));
        doctor.observe(Observation {
            status: Some(200),
            body: Some(b"{}".to_vec()),
            headers: Some(Headers::default()),
            ..Observation::default()
        });
    }
    assert_eq!(bodies.len(), 4 + 4 + 2 + LATENCY_SAMPLES);
    assert_eq!(bodies[2].0, Method::Options);
    assert_eq!(bodies[3].2, BROKEN_REQUEST);
    assert!(bodies[8].2.contains("gridarenaDoctor"));
    assert!(bodies[9].2.contains("\"timeLimitMs\":1"));
    assert!(bodies.iter().all(|b| b.3 == 5000));
    // Every move request is a request the protocol's own reader takes.
    for (_, _, body, _) in bodies
        .iter()
        .filter(|b| b.0 == Method::Post && b.2 != BROKEN_REQUEST)
    {
        let r: AiRequest = serde_json::from_str(body).unwrap();
        assert!(r.to_position(false).is_ok());
    }
    // Answered `{}` every time: each move check says what is missing.
    let report = doctor.report();
    assert!(report
        .check("legal-start")
        .unwrap()
        .detail
        .contains("not a move"));
}
