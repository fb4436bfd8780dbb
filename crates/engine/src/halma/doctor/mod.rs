//! The endpoint doctor: a battery of requests that finds why an AI "does nothing", each finding worded
//! with its fix.
//!
//! The battery is the same in the page ("Test this AI") and in `gridarena halma probe`, so it lives here
//! as a plain state machine with no I/O: the caller asks [`Doctor::next_probe`] what to send, sends it its
//! own way (`fetch` in the page, an HTTP client natively), passes what came back to
//! [`Doctor::observe`], and reads the [`Report`] at the end. The two callers see different things: a page
//! cannot read response headers across origins but learns about CORS by sending a request again in
//! `no-cors` mode; the native client reads every header but no browser refuses anything for it. The
//! battery asks for what the client can see ([`Client`]) and judges both the same way.
//!
//! The checks, in order: the address (what a browser refuses before sending), that something answers,
//! `Access-Control-Allow-Origin` on a move and on an error answer, a `text/plain` body, an
//! `application/json` body and its OPTIONS preflight, legal moves in four positions ([`scenarios`]), a
//! request with a field the AI does not know and one with a 1 ms `timeLimitMs`, the latency over
//! [`LATENCY_SAMPLES`] requests against the tick, and whether the connection is kept open.

mod address;
mod positions;

pub use address::{browser_verdict, Address};
pub use positions::{scenarios, Scenario, ASKED};

use super::exchange::ContentType;
use super::game_loop::request_body;
use super::protocol::{parse_response, ResponseError};
use super::Game;
use serde::Serialize;
use std::collections::VecDeque;
use std::fmt;

/// How many requests the latency check sends.
pub const LATENCY_SAMPLES: usize = 20;

/// The origin the native client says its requests come from: where `./scripts/serve.sh` serves the page.
pub const DEFAULT_ORIGIN: &str = "http://127.0.0.1:8080";

/// The body of the request the doctor sends to see how an AI answers a request it cannot read.
pub const BROKEN_REQUEST: &str = "this is not a GridArena request";

/// Who sends the requests, which decides what can be seen of the answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Client {
    /// A page: no cross-origin headers, but `no-cors` requests.
    Browser,
    /// `gridarena halma probe`: every header, nothing refused.
    Native,
}

/// What to examine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub url: String,
    /// The content type the team is set to send.
    pub content_type: ContentType,
    /// The tick length the AI must answer within.
    pub tick_ms: u64,
    /// The page the requests come from: the page's address in a browser, the `Origin` header natively.
    pub origin: String,
    pub client: Client,
}

/// An HTTP method the battery uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Post,
    /// The CORS preflight, sent by hand by the native client (a browser sends its own).
    Options,
}

/// One request to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub method: Method,
    /// The `Content-Type` to label the body with; `None` for the preflight.
    pub content_type: Option<ContentType>,
    pub body: String,
    /// Browser only: send in `no-cors` mode, whose answer is opaque but arrives without CORS headers.
    pub no_cors: bool,
    /// How long to wait before giving up.
    pub timeout_ms: u64,
    /// What the request is for, to show while the battery runs.
    pub purpose: &'static str,
}

/// What came of a [`Probe`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observation {
    /// The HTTP status, when a response arrived (0 for an opaque `no-cors` one).
    pub status: Option<u16>,
    /// The body, when one was read.
    pub body: Option<Vec<u8>>,
    /// Milliseconds until the whole answer, or until the failure.
    pub ms: f64,
    /// Why no response arrived: refused connection, cut at the time-out, blocked by the browser, ...
    pub failure: Option<String>,
    /// Whether it was cut at the probe's time-out.
    pub timed_out: bool,
    /// The response headers the doctor reads; `None` where the client cannot see them (a page).
    pub headers: Option<Headers>,
}

/// The response headers that matter to a browser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    pub allow_origin: Option<String>,
    pub allow_headers: Option<String>,
    /// Whether the connection stays open after the answer (HTTP/1.1 without `Connection: close`).
    pub keep_alive: Option<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Plain,
    PlainNoCors,
    Json,
    Preflight,
    Broken,
    BrokenNoCors,
    Scenario(usize),
    UnknownField,
    TinyLimit,
    Latency(usize),
}

impl Step {
    fn purpose(self) -> &'static str {
        match self {
            Step::Plain | Step::PlainNoCors => "a move, body sent as text/plain",
            Step::Json => "a move, body sent as application/json",
            Step::Preflight => "the OPTIONS preflight",
            Step::Broken | Step::BrokenNoCors => "a request the AI cannot read",
            Step::Scenario(_) => "a move in a test position",
            Step::UnknownField => "a request with an unknown field",
            Step::TinyLimit => "a request with timeLimitMs 1",
            Step::Latency(_) => "timing the answers",
        }
    }
}

/// The battery in progress.
#[derive(Clone, Debug)]
pub struct Doctor {
    settings: Settings,
    scenarios: Vec<Scenario>,
    address: Result<String, (String, String)>,
    notes: Vec<String>,
    queue: VecDeque<Step>,
    current: Option<Step>,
    seen: Vec<(Step, Observation)>,
}

impl Doctor {
    pub fn new(settings: Settings) -> Doctor {
        let mut notes = Vec::new();
        let address = browser_verdict(&settings.url, Some(&settings.origin), &mut notes);
        let scenarios = scenarios();
        let mut queue = VecDeque::new();
        if address.is_ok() {
            queue.extend([Step::Plain, Step::Json]);
            if settings.client == Client::Native {
                queue.push_back(Step::Preflight);
            }
            queue.push_back(Step::Broken);
            queue.extend((0..scenarios.len()).map(Step::Scenario));
            queue.extend([Step::UnknownField, Step::TinyLimit]);
            queue.extend((0..LATENCY_SAMPLES).map(Step::Latency));
        }
        Doctor {
            settings,
            scenarios,
            address,
            notes,
            queue,
            current: None,
            seen: Vec::new(),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The next request to send, or `None` when the battery is done. Each must be answered with
    /// [`Doctor::observe`] before the next is asked for.
    pub fn next_probe(&mut self) -> Option<Probe> {
        let step = self.queue.pop_front()?;
        self.current = Some(step);
        let start = &self.start().game;
        let tick = self.settings.tick_ms;
        let working = self.working_type();
        let (content_type, body) = match step {
            Step::Plain | Step::PlainNoCors => (
                Some(ContentType::TextPlain),
                request_body(start, ASKED, tick),
            ),
            Step::Json => (Some(ContentType::Json), request_body(start, ASKED, tick)),
            Step::Preflight => (None, String::new()),
            Step::Broken | Step::BrokenNoCors => {
                (Some(ContentType::TextPlain), BROKEN_REQUEST.to_string())
            }
            Step::Scenario(i) => {
                let game = &self.scenarios.get(i).unwrap_or(self.start()).game;
                (Some(working), request_body(game, ASKED, tick))
            }
            Step::UnknownField => (Some(working), with_unknown_field(start, tick)),
            Step::TinyLimit => (Some(working), request_body(start, ASKED, 1)),
            Step::Latency(_) => (Some(working), request_body(start, ASKED, tick)),
        };
        Some(Probe {
            method: if step == Step::Preflight {
                Method::Options
            } else {
                Method::Post
            },
            content_type,
            body,
            no_cors: matches!(step, Step::PlainNoCors | Step::BrokenNoCors),
            timeout_ms: tick.saturating_mul(2).max(5000),
            purpose: step.purpose(),
        })
    }

    /// What came of the probe last given by [`Doctor::next_probe`]. The battery adapts: a page that
    /// got no answer asks again in `no-cors` mode to tell CORS from silence, and when nothing answers at
    /// all the remaining requests are not sent.
    pub fn observe(&mut self, observation: Observation) {
        let Some(step) = self.current.take() else {
            return;
        };
        let answered = observation.status.is_some();
        self.seen.push((step, observation));
        let browser = self.settings.client == Client::Browser;
        match step {
            Step::Plain if browser && !answered => self.queue.push_front(Step::PlainNoCors),
            Step::Broken if browser && !answered => self.queue.push_front(Step::BrokenNoCors),
            Step::Json if !self.any_answer() => self.queue.clear(),
            // A page that can read no answer (CORS) has nothing to judge moves by: only the error
            // answer is still worth asking for.
            Step::Json if !self.any_readable() => self
                .queue
                .retain(|s| matches!(s, Step::Broken | Step::BrokenNoCors)),
            _ => {}
        }
    }

    /// Requests sent so far, and how many more are planned.
    pub fn progress(&self) -> (usize, usize) {
        (self.seen.len(), self.queue.len())
    }

    /// Whether every planned request has been sent and observed.
    pub fn is_done(&self) -> bool {
        self.queue.is_empty() && self.current.is_none()
    }

    fn start(&self) -> &Scenario {
        // scenarios() always begins with the starting position; built from a preset, it cannot fail.
        &self.scenarios[0]
    }

    fn seen(&self, step: Step) -> Option<&Observation> {
        self.seen.iter().find(|(s, _)| *s == step).map(|(_, o)| o)
    }

    fn any_answer(&self) -> bool {
        self.seen.iter().any(|(_, o)| o.status.is_some())
    }

    /// Whether any answer could be read (an opaque `no-cors` one cannot).
    fn any_readable(&self) -> bool {
        self.seen
            .iter()
            .any(|(_, o)| o.status.is_some_and(|s| s != 0))
    }

    /// Why a check has no observation: the battery has not got there, or it stopped short.
    fn not_run(&self) -> String {
        if !self.is_done() {
            "not run yet".into()
        } else if !self.any_readable() {
            "not run: the page could not read any answer (see the checks above)".into()
        } else {
            "not run".into()
        }
    }

    /// The content type to send moves with: the team's, unless only the other one is read.
    fn working_type(&self) -> ContentType {
        let chosen = self.settings.content_type;
        let reads = |c: ContentType| {
            let step = match c {
                ContentType::TextPlain => Step::Plain,
                ContentType::Json => Step::Json,
            };
            self.seen(step).is_some_and(|o| o.status.is_some_and(ok))
        };
        let other = match chosen {
            ContentType::TextPlain => ContentType::Json,
            ContentType::Json => ContentType::TextPlain,
        };
        if !reads(chosen) && reads(other) {
            other
        } else {
            chosen
        }
    }

    /// The findings so far: a check whose requests were not sent is reported as skipped, with why.
    pub fn report(&self) -> Report {
        let mut checks = vec![self.address_check()];
        if self.address.is_err() {
            checks.extend(self.skipped_all("the browser would not send the request"));
        } else if !self.any_answer() && self.is_done() {
            checks.push(self.reachable_check());
            checks.extend(
                self.skipped_all("nothing answers at this address")
                    .into_iter()
                    .skip(1),
            );
        } else {
            checks.push(self.reachable_check());
            checks.push(self.cors_check());
            checks.push(self.cors_error_check());
            checks.push(self.text_plain_check());
            checks.extend(self.json_checks());
            for (i, s) in self.scenarios.iter().enumerate() {
                let title = format!("A legal move in {}", s.title);
                checks.push(self.move_check(
                    format!("legal-{}", s.id),
                    title,
                    Step::Scenario(i),
                    &s.game,
                ));
            }
            let start = &self.start().game;
            checks.push(self.move_check(
                "unknown-field".into(),
                "Ignores a request field it does not know".into(),
                Step::UnknownField,
                start,
            ));
            checks.push(self.move_check(
                "tiny-time-limit".into(),
                "Answers a request with timeLimitMs 1".into(),
                Step::TinyLimit,
                start,
            ));
            checks.push(self.latency_check());
            checks.push(self.keep_alive_check());
        }
        Report {
            url: self.settings.url.clone(),
            content_type: self.settings.content_type,
            tick_ms: self.settings.tick_ms,
            client: self.settings.client,
            checks,
            notes: self.notes.clone(),
        }
    }

    fn address_check(&self) -> Check {
        match &self.address {
            Ok(what) => Check::passed("address", "An address the browser will call", what.clone()),
            Err((why, fix)) => Check::failed(
                "address",
                "An address the browser will call",
                why.clone(),
                fix.clone(),
            ),
        }
    }

    /// Every check after the address, skipped for `why`.
    fn skipped_all(&self, why: &str) -> Vec<Check> {
        let mut ids: Vec<(String, String)> = [
            ("reachable", "Something answers"),
            ("cors", "Access-Control-Allow-Origin on a move"),
            (
                "cors-error",
                "Access-Control-Allow-Origin on an error answer",
            ),
            ("text-plain", "Reads a text/plain body"),
            ("json", "Reads an application/json body"),
            ("preflight", "Answers the OPTIONS preflight"),
        ]
        .into_iter()
        .map(|(i, t)| (i.to_string(), t.to_string()))
        .collect();
        ids.extend(self.scenarios.iter().map(|s| {
            (
                format!("legal-{}", s.id),
                format!("A legal move in {}", s.title),
            )
        }));
        ids.extend(
            [
                ("unknown-field", "Ignores a request field it does not know"),
                ("tiny-time-limit", "Answers a request with timeLimitMs 1"),
                ("latency", "Answers within the tick"),
                ("keep-alive", "Keeps the connection open between ticks"),
            ]
            .map(|(i, t)| (i.to_string(), t.to_string())),
        );
        ids.into_iter()
            .map(|(id, title)| Check::skipped(&id, &title, format!("not run: {why}")))
            .collect()
    }

    fn reachable_check(&self) -> Check {
        let title = "Something answers";
        let first = self
            .seen
            .iter()
            .map(|(_, o)| o)
            .find(|o| o.status.is_some());
        match (first, self.seen(Step::Plain)) {
            (Some(o), _) => Check::passed("reachable", title, answered(o)),
            (None, Some(o)) => Check::failed(
                "reachable",
                title,
                format!("no answer: {}", failure(o)),
                "Start your AI's server and check the address: host, port and path. A server that \
                 prints \"Running on http://0.0.0.0:5000\" is reached at http://127.0.0.1:5000/ from \
                 this computer."
                    .into(),
            ),
            (None, None) => Check::skipped("reachable", title, "not run yet".into()),
        }
    }

    fn allows(&self, headers: &Headers) -> bool {
        headers
            .allow_origin
            .as_deref()
            .map(str::trim)
            .is_some_and(|a| {
                a == "*" || a.eq_ignore_ascii_case(self.settings.origin.trim_end_matches('/'))
            })
    }

    fn cors_check(&self) -> Check {
        let (id, title) = ("cors", "Access-Control-Allow-Origin on a move");
        let fix = "Send the header Access-Control-Allow-Origin: * with every answer (Python: \
                   self.send_header('Access-Control-Allow-Origin', '*'); Flask: \
                   response.headers['Access-Control-Allow-Origin'] = '*'; PHP: \
                   header('Access-Control-Allow-Origin: *'); before any output). Without it the browser \
                   hides the answer from the page, which can only say \"blocked by CORS\". A program \
                   behind gridarena halma bridge answers only GridArena pages on 127.0.0.1 or \
                   localhost: for a page served from anywhere else, start the bridge with \
                   --allow-origin and this page's address.";
        let Some(plain) = self.seen(Step::Plain) else {
            return Check::skipped(id, title, "not run yet".into());
        };
        match (&plain.headers, plain.status) {
            (Some(h), Some(_)) if self.allows(h) => Check::passed(
                id,
                title,
                format!(
                    "Access-Control-Allow-Origin: {}",
                    h.allow_origin.as_deref().unwrap_or_default()
                ),
            ),
            (Some(h), Some(_)) => Check::failed(
                id,
                title,
                match &h.allow_origin {
                    None => "the answer has no Access-Control-Allow-Origin header".into(),
                    Some(a) => format!(
                        "Access-Control-Allow-Origin is {a:?}, which does not admit a page at {}",
                        self.settings.origin
                    ),
                },
                fix.into(),
            ),
            (None, Some(_)) => Check::passed(id, title, "the page can read the answer".into()),
            (_, None) => match self.seen(Step::PlainNoCors) {
                Some(o) if o.status.is_some() => Check::failed(
                    id,
                    title,
                    "the endpoint answers, but the browser hides its answer from the page: it has no \
                     Access-Control-Allow-Origin header (or answers a redirect)"
                        .into(),
                    fix.into(),
                ),
                _ => Check::skipped(id, title, "not judged: no answer to a move".into()),
            },
        }
    }

    fn cors_error_check(&self) -> Check {
        let (id, title) = (
            "cors-error",
            "Access-Control-Allow-Origin on an error answer",
        );
        let Some(o) = self.seen(Step::Broken) else {
            return Check::skipped(id, title, "not run yet".into());
        };
        let quoted = format!("the doctor sent the body {BROKEN_REQUEST:?}");
        let fix = "Set Access-Control-Allow-Origin before anything can fail (first thing in the \
                   handler), so error answers carry it too; then the page shows your error message \
                   instead of \"blocked by CORS\".";
        match (o.status, &o.headers) {
            (Some(s), _) if ok(s) => Check::passed(
                id,
                title,
                format!("{quoted}; it answered HTTP {s} (an error status such as 400 would say more)"),
            ),
            (Some(s), Some(h)) if self.allows(h) => {
                Check::passed(id, title, format!("{quoted}; it answered HTTP {s}, readable by the page"))
            }
            (Some(s), Some(_)) => Check::failed(
                id,
                title,
                format!("{quoted}; it answered HTTP {s} without Access-Control-Allow-Origin"),
                fix.into(),
            ),
            (Some(s), None) => {
                Check::passed(id, title, format!("{quoted}; the page read its HTTP {s}"))
            }
            (None, _) => match self.seen(Step::BrokenNoCors) {
                Some(n) if n.status.is_some() => Check::failed(
                    id,
                    title,
                    format!("{quoted}; its error answer has no Access-Control-Allow-Origin header"),
                    fix.into(),
                ),
                _ => Check::failed(
                    id,
                    title,
                    format!("{quoted}; no answer came: {}", failure(o)),
                    "Answer a request you cannot read with HTTP 400 and a short message, instead of \
                     letting the server crash or drop the connection."
                        .into(),
                ),
            },
        }
    }

    /// Failed, or only a note when the team does not send this content type.
    fn for_type(&self, ty: ContentType, check: Check) -> Check {
        if check.status == Status::Failed && self.settings.content_type != ty {
            Check {
                status: Status::Note,
                detail: format!(
                    "{} (this team sends {}, so it does not matter yet)",
                    check.detail, self.settings.content_type
                ),
                ..check
            }
        } else {
            check
        }
    }

    fn text_plain_check(&self) -> Check {
        let (id, title) = ("text-plain", "Reads a text/plain body");
        let Some(o) = self.seen(Step::Plain) else {
            return Check::skipped(id, title, "not run yet".into());
        };
        if o.status.is_none() {
            return Check::skipped(
                id,
                title,
                "not judged: the page could not read the answer".into(),
            );
        }
        let json_ok = self.seen(Step::Json).and_then(|j| j.status).is_some_and(ok);
        let check = match read_move(o) {
            Ok(_) => Check::passed(id, title, answered(o)),
            Err((why, _)) if json_ok && matches!(o.status, Some(400 | 415 | 422)) => Check::failed(
                id,
                title,
                format!("{why}, but it reads the same request sent as application/json"),
                "Your endpoint refuses a body labelled text/plain (HTTP 415 is what Flask's \
                 request.get_json() answers). Read the body whatever its label: Flask \
                 request.get_json(force=True), PHP json_decode(file_get_contents('php://input'), \
                 true). Or set this team to send application/json."
                    .into(),
            ),
            Err((why, fix)) => Check::failed(id, title, why, fix),
        };
        self.for_type(ContentType::TextPlain, check)
    }

    fn json_checks(&self) -> Vec<Check> {
        let (id, title) = ("json", "Reads an application/json body");
        let (pid, ptitle) = ("preflight", "Answers the OPTIONS preflight");
        let preflight_fix =
            "Answer OPTIONS with HTTP 204 and the headers Access-Control-Allow-Origin: *, \
                             Access-Control-Allow-Methods: POST, OPTIONS and \
                             Access-Control-Allow-Headers: Content-Type. The browser sends this \
                             preflight before every application/json request.";
        let Some(o) = self.seen(Step::Json) else {
            return vec![
                Check::skipped(id, title, "not run yet".into()),
                Check::skipped(pid, ptitle, "not run yet".into()),
            ];
        };
        let json = match (o.status, read_move(o)) {
            (None, _) if self.settings.client == Client::Browser => Check::skipped(
                id,
                title,
                "not sent: the browser's preflight was refused".into(),
            ),
            (_, Ok(_)) => Check::passed(id, title, answered(o)),
            (_, Err((why, fix))) => Check::failed(id, title, why, fix),
        };
        let preflight = match self.settings.client {
            Client::Browser => match o.status {
                Some(_) => {
                    Check::passed(pid, ptitle, "the browser's preflight was answered".into())
                }
                None if self.seen(Step::Plain).is_some_and(|p| p.status.is_some()) => {
                    Check::failed(
                        pid,
                        ptitle,
                        format!(
                            "a text/plain request works, an application/json one fails: {}",
                            failure(o)
                        ),
                        preflight_fix.into(),
                    )
                }
                None => Check::skipped(pid, ptitle, "not judged: no request got through".into()),
            },
            Client::Native => match self.seen(Step::Preflight) {
                None => Check::skipped(pid, ptitle, "not run yet".into()),
                Some(p) => match (p.status, &p.headers) {
                    (Some(s), Some(h)) if ok(s) && self.allows(h) && allows_content_type(h) => {
                        Check::passed(
                            pid,
                            ptitle,
                            format!("HTTP {s}, with the headers a browser needs"),
                        )
                    }
                    (Some(s), Some(h)) if ok(s) => {
                        let mut missing = Vec::new();
                        if !self.allows(h) {
                            missing.push("Access-Control-Allow-Origin");
                        }
                        if !allows_content_type(h) {
                            missing.push("Access-Control-Allow-Headers: Content-Type");
                        }
                        Check::failed(
                            pid,
                            ptitle,
                            format!("HTTP {s}, without {}", missing.join(" or ")),
                            preflight_fix.into(),
                        )
                    }
                    (Some(s), _) => Check::failed(
                        pid,
                        ptitle,
                        format!("OPTIONS was answered with HTTP {s}; a browser needs 200-299"),
                        preflight_fix.into(),
                    ),
                    (None, _) => Check::failed(
                        pid,
                        ptitle,
                        format!("no answer to OPTIONS: {}", failure(p)),
                        preflight_fix.into(),
                    ),
                },
            },
        };
        vec![
            self.for_type(ContentType::Json, json),
            self.for_type(ContentType::Json, preflight),
        ]
    }

    fn move_check(&self, id: String, title: String, step: Step, game: &Game) -> Check {
        let Some(o) = self.seen(step) else {
            return Check::skipped(&id, &title, self.not_run());
        };
        match read_move(o).and_then(|path| {
            game.position()
                .check(ASKED, &path)
                .map(|_| path.clone())
                .map_err(|e| {
                    (
                    format!("the move {path} is illegal: {e}"),
                    "The referee's reason is above; the request the doctor sent is the position \
                     (try it with the inspector's curl command)."
                        .to_string(),
                )
                })
        }) {
            Ok(path) => Check::passed(&id, &title, format!("{path} in {}", ms(o.ms))),
            Err((why, fix)) => Check::failed(&id, &title, why, fix),
        }
    }

    fn latency_check(&self) -> Check {
        let (id, title) = ("latency", "Answers within the tick");
        let tick = self.settings.tick_ms;
        let samples: Vec<&Observation> = (0..LATENCY_SAMPLES)
            .filter_map(|i| self.seen(Step::Latency(i)))
            .collect();
        if samples.is_empty() {
            return Check::skipped(id, title, self.not_run());
        }
        let mut times: Vec<f64> = samples
            .iter()
            .filter(|o| o.status.is_some_and(ok))
            .map(|o| o.ms)
            .collect();
        times.sort_by(f64::total_cmp);
        let missed = samples.len() - times.len();
        let late = times.iter().filter(|&&t| t >= tick as f64).count();
        let summary = match (times.get(times.len() / 2), times.last()) {
            (Some(&median), Some(&worst)) => format!(
                "median {}, worst {} over {} requests; the tick is {tick} ms",
                ms(median),
                ms(worst),
                times.len()
            ),
            _ => "no request was answered".to_string(),
        };
        if missed == 0 && late == 0 {
            return Check::passed(id, title, summary);
        }
        let fix = "Answer faster than the tick: search less deep, stop at timeLimitMs, avoid \
                   printing or loading files on every request; or play with a longer tick (the page's \
                   speed slider, --tick-ms)."
            .into();
        let mut why = summary;
        if late > 0 {
            why.push_str(&format!(
                "; {late} answers took longer than the tick and would count as no move"
            ));
        }
        if missed > 0 {
            let example = samples
                .iter()
                .find(|o| !o.status.is_some_and(ok))
                .map(|o| match o.status {
                    Some(s) => format!("HTTP {s}"),
                    None => failure(o),
                })
                .unwrap_or_default();
            why.push_str(&format!(
                "; {missed} of {} requests got no move ({example})",
                samples.len()
            ));
        }
        Check::failed(id, title, why, fix)
    }

    fn keep_alive_check(&self) -> Check {
        let (id, title) = ("keep-alive", "Keeps the connection open between ticks");
        if self.settings.client == Client::Browser {
            return Check::skipped(
                id,
                title,
                "a page cannot see whether its connection is reused; `gridarena halma probe URL` can"
                    .into(),
            );
        }
        let seen: Vec<Option<bool>> = (0..LATENCY_SAMPLES)
            .filter_map(|i| self.seen(Step::Latency(i)))
            .filter_map(|o| o.headers.as_ref().map(|h| h.keep_alive))
            .collect();
        if seen.is_empty() {
            return Check::skipped(id, title, "not run yet".into());
        }
        if seen.contains(&Some(false)) {
            Check {
                status: Status::Note,
                ..Check::failed(
                    id,
                    title,
                    "the server closes the connection after each answer, so every tick opens a new \
                     one (a few ms on this computer, more across a network)"
                        .into(),
                    "Fine for a class; for speed, serve HTTP/1.1 with keep-alive (Python: \
                     protocol_version = 'HTTP/1.1' in the handler, with a Content-Length on every \
                     answer)."
                        .into(),
                )
            }
        } else {
            Check::passed(id, title, "HTTP/1.1, the connection is reused".into())
        }
    }
}

fn ok(status: u16) -> bool {
    (200..300).contains(&status)
}

/// Whole milliseconds, formatted as an integer: a float's `Display` would bring the float formatter
/// (about 8 KB of wasm) into the doctor's page for this one line.
fn ms(ms: f64) -> String {
    // `as` saturates: no elapsed time is negative or past u64, and NaN reads as 0.
    format!("{} ms", ms.round() as u64)
}

fn answered(o: &Observation) -> String {
    match o.status {
        Some(0) => format!("an opaque answer in {}", ms(o.ms)),
        Some(s) => format!("HTTP {s} in {}", ms(o.ms)),
        None => failure(o),
    }
}

fn failure(o: &Observation) -> String {
    match (&o.failure, o.timed_out) {
        (_, true) => format!("no answer within {}", ms(o.ms)),
        (Some(why), false) => why.clone(),
        (None, false) => "no answer".into(),
    }
}

fn allows_content_type(h: &Headers) -> bool {
    h.allow_headers.as_deref().is_some_and(|a| {
        a.split(',')
            .map(str::trim)
            .any(|v| v == "*" || v.eq_ignore_ascii_case("content-type"))
    })
}

/// The start of an answer for a message: enough to recognise it.
fn quote(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut q: String = text.chars().take(100).collect();
    if text.chars().count() > 100 {
        q.push_str("...");
    }
    format!("{q:?}")
}

/// The move in an answer, or what is wrong with the answer and its fix.
fn read_move(o: &Observation) -> Result<super::Path, (String, String)> {
    let body = o.body.as_deref().unwrap_or_default();
    match o.status {
        None => Err((
            format!("no answer: {}", failure(o)),
            "See the checks above: the request did not get an answer.".into(),
        )),
        Some(s) if !ok(s) => Err((
            if body.is_empty() {
                format!("it answered HTTP {s}")
            } else {
                format!("it answered HTTP {s}: {}", quote(body))
            },
            "Your AI reported an error; its message is quoted. Run it by hand with the request \
             (the inspector's curl command) and read its log."
                .into(),
        )),
        Some(_) => parse_response(body).map_err(|e| {
            let fix = match e {
                ResponseError::NotJson(_) | ResponseError::Empty => {
                    "Answer with JSON only, such as {\"from\":{\"x\":2,\"y\":14},\"to\":[{\"x\":3,\"y\":13}]}: \
                     no HTML, no debug print before or after it."
                }
                ResponseError::TooLarge { .. } => "Answer with the move alone: a few dozen bytes.",
                _ => {
                    "Answer with one object: \"from\" a square {\"x\":..,\"y\":..} and \"to\" a list \
                     of the squares it lands on (docs/protocol.md)."
                }
            };
            (
                format!("the answer is not a move ({e}); it was {}", quote(body)),
                fix.to_string(),
            )
        }),
    }
}

/// The start request with one field added that no AI knows.
fn with_unknown_field(game: &Game, tick_ms: u64) -> String {
    let body = request_body(game, ASKED, tick_ms);
    match serde_json::from_str::<serde_json::Value>(&body) {
        Ok(serde_json::Value::Object(mut map)) => {
            map.insert(
                "gridarenaDoctor".into(),
                serde_json::json!({"note": "a field this AI has never seen; it should ignore it"}),
            );
            serde_json::to_string(&map).unwrap_or(body)
        }
        _ => body,
    }
}

/// How one check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    /// Worth knowing, not a failure.
    Note,
    /// Not run, with why.
    Skipped,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Passed => "PASS",
            Status::Failed => "FAIL",
            Status::Note => "NOTE",
            Status::Skipped => "SKIP",
        })
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// A stable identifier, for programs and tests: `reachable`, `cors`, `legal-start`, ...
    pub id: String,
    pub title: String,
    pub status: Status,
    /// What was seen.
    pub detail: String,
    /// What to do about it, in plain words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    fn passed(id: &str, title: &str, detail: String) -> Check {
        Check {
            id: id.into(),
            title: title.into(),
            status: Status::Passed,
            detail,
            fix: None,
        }
    }

    fn failed(id: &str, title: &str, detail: String, fix: String) -> Check {
        Check {
            id: id.into(),
            title: title.into(),
            status: Status::Failed,
            detail,
            fix: Some(fix),
        }
    }

    fn skipped(id: &str, title: &str, detail: String) -> Check {
        Check {
            id: id.into(),
            title: title.into(),
            status: Status::Skipped,
            detail,
            fix: None,
        }
    }
}

/// Every finding of a battery.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub url: String,
    pub content_type: ContentType,
    pub tick_ms: u64,
    pub client: Client,
    pub checks: Vec<Check>,
    /// Warnings about the address that do not stop a request.
    pub notes: Vec<String>,
}

impl Report {
    /// Whether no check failed (notes and skipped checks do not fail a battery).
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.status != Status::Failed)
    }

    pub fn check(&self, id: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.id == id)
    }

    /// The report as text: a line per check, its fix indented below a failure.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{} ({}, tick {} ms)\n",
            self.url, self.content_type, self.tick_ms
        );
        for c in &self.checks {
            out.push_str(&format!("{}  {}: {}\n", c.status, c.title, c.detail));
            if let Some(fix) = c.fix.as_ref().filter(|_| c.status != Status::Passed) {
                out.push_str(&format!("      fix: {fix}\n"));
            }
        }
        for n in &self.notes {
            out.push_str(&format!("NOTE  {n}\n"));
        }
        let failed = self
            .checks
            .iter()
            .filter(|c| c.status == Status::Failed)
            .count();
        out.push_str(&match failed {
            0 => "every check passed\n".to_string(),
            1 => "1 check failed\n".to_string(),
            n => format!("{n} checks failed\n"),
        });
        out
    }
}

#[cfg(test)]
mod tests;
