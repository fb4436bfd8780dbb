//! The checks that the page can read the answer: that something answers at all, and that moves and
//! error answers carry `Access-Control-Allow-Origin`.
//!
//! Apart because CORS is the first reason an AI "does nothing" in a page: the endpoint answers, and the
//! browser hides the answer.

use super::battery::{Doctor, Step};
use super::probe::{answered, failure, ok, Headers};
use super::report::Check;
use super::BROKEN_REQUEST;

impl Doctor {
    pub(super) fn reachable_check(&self) -> Check {
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

    pub(super) fn allows(&self, headers: &Headers) -> bool {
        headers
            .allow_origin
            .as_deref()
            .map(str::trim)
            .is_some_and(|a| {
                a == "*" || a.eq_ignore_ascii_case(self.settings.origin.trim_end_matches('/'))
            })
    }

    pub(super) fn cors_check(&self) -> Check {
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

    pub(super) fn cors_error_check(&self) -> Check {
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
}
