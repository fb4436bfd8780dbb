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
//!
//! The code is split by idea: `battery.rs` is the state machine (what to send next, adapting to what
//! came back); `probe.rs` what crosses between it and the caller (a [`Probe`] out, an [`Observation`]
//! back); the checks are in `cors.rs` (can the page read the answer), `answers.rs` (does the AI read the
//! request and answer a legal move) and `timing.rs` (latency and keep-alive); `report.rs` puts the
//! checks in order into a [`Report`]. `address.rs` and `positions.rs` hold the address rules and the test
//! positions.

mod address;
mod answers;
mod battery;
mod cors;
mod positions;
mod probe;
mod report;
mod timing;

pub use address::{browser_verdict, Address};
pub use battery::Doctor;
pub use positions::{scenarios, Scenario, ASKED};
pub use probe::{Headers, Method, Observation, Probe};
pub use report::{Check, Report, Status};

use super::exchange::ContentType;
use serde::Serialize;

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

#[cfg(test)]
mod tests;
