//! What crosses between the battery and its caller: the [`Probe`] to send and the [`Observation`] of
//! what came back, and how every check words an observation.
//!
//! Apart because this is the whole of the doctor's contract with the page and the command line, which do
//! the I/O; nothing here plans a request or passes a check.

use crate::halma::exchange::ContentType;

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

pub(super) fn ok(status: u16) -> bool {
    (200..300).contains(&status)
}

/// Whole milliseconds, formatted as an integer: a float's `Display` would bring the float formatter
/// (about 8 KB of wasm) into the doctor's page for this one line.
pub(super) fn ms(ms: f64) -> String {
    // `as` saturates: no elapsed time is negative or past u64, and NaN reads as 0.
    format!("{} ms", ms.round() as u64)
}

pub(super) fn answered(o: &Observation) -> String {
    match o.status {
        Some(0) => format!("an opaque answer in {}", ms(o.ms)),
        Some(s) => format!("HTTP {s} in {}", ms(o.ms)),
        None => failure(o),
    }
}

pub(super) fn failure(o: &Observation) -> String {
    match (&o.failure, o.timed_out) {
        (_, true) => format!("no answer within {}", ms(o.ms)),
        (Some(why), false) => why.clone(),
        (None, false) => "no answer".into(),
    }
}
