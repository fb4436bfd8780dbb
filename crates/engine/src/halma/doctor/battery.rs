//! The battery as a state machine: [`Doctor`] plans the requests, hands them out one at a time and adapts
//! to what came back (a page that got no answer asks again in `no-cors` mode; when nothing answers, the
//! rest is not sent).
//!
//! Apart from the checks because it decides what to send, and they only judge what was seen.

use super::address::browser_verdict;
use super::positions::{scenarios, Scenario, ASKED};
use super::probe::{ok, Method, Observation, Probe};
use super::{Client, Settings, BROKEN_REQUEST, LATENCY_SAMPLES};
use crate::halma::exchange::ContentType;
use crate::halma::game_loop::request_body;
use crate::halma::Game;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
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
    pub(super) settings: Settings,
    pub(super) scenarios: Vec<Scenario>,
    pub(super) address: Result<String, (String, String)>,
    pub(super) notes: Vec<String>,
    pub(super) queue: VecDeque<Step>,
    pub(super) current: Option<Step>,
    pub(super) seen: Vec<(Step, Observation)>,
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

    pub(super) fn start(&self) -> &Scenario {
        // scenarios() always begins with the starting position; built from a preset, it cannot fail.
        &self.scenarios[0]
    }

    pub(super) fn seen(&self, step: Step) -> Option<&Observation> {
        self.seen.iter().find(|(s, _)| *s == step).map(|(_, o)| o)
    }

    pub(super) fn any_answer(&self) -> bool {
        self.seen.iter().any(|(_, o)| o.status.is_some())
    }

    /// Whether any answer could be read (an opaque `no-cors` one cannot).
    pub(super) fn any_readable(&self) -> bool {
        self.seen
            .iter()
            .any(|(_, o)| o.status.is_some_and(|s| s != 0))
    }

    /// Why a check has no observation: the battery has not got there, or it stopped short.
    pub(super) fn not_run(&self) -> String {
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
