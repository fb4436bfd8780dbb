//! The checks on what the AI answers: that it reads a `text/plain` and an `application/json` body (and
//! the preflight the latter needs), and that it answers a legal move in each test position, to a request
//! with a field it does not know and to one with a 1 ms `timeLimitMs`.
//!
//! Apart because these judge the answer's content, with the referee's own reader and rules.

use super::battery::{Doctor, Step};
use super::positions::ASKED;
use super::probe::{answered, failure, ms, ok, Headers, Observation};
use super::report::{Check, Status};
use super::Client;
use crate::halma::exchange::ContentType;
use crate::halma::protocol::{parse_response, ResponseError};
use crate::halma::{Game, Path};

impl Doctor {
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

    pub(super) fn text_plain_check(&self) -> Check {
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

    pub(super) fn json_checks(&self) -> Vec<Check> {
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

    pub(super) fn move_check(&self, id: String, title: String, step: Step, game: &Game) -> Check {
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
fn read_move(o: &Observation) -> Result<Path, (String, String)> {
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
