//! What a code player's move came to, the same in both hosts.
//!
//! The page's worker and the command line's runner run one runner source (web/runners/), which
//! answers each move with one JSON object: [`RunnerReply`]. How that object becomes the referee's
//! [`Answer`] and the inspector's printed text is decided here, once, so that a `crashed` or a `null`
//! means the same in a lesson as in a course's tournament; [`CodeMove`] is the result both hosts hand on.

use crate::halma::code::{CodeFailure, Format};
use crate::halma::course::parse_output;
use crate::halma::program::stderr_tail;
use crate::halma::protocol::parse_response;
use crate::halma::{Answer, NoMove, ProgramFailure, MAX_RESPONSE_BYTES};
use serde::Deserialize;

/// How many characters of what a code player prints in one move a host keeps (the rest is counted):
/// enough for a student's debugging, and no more than a tick's record can carry many times over.
pub const MAX_OUTPUT_CHARS: usize = 8000;

/// A runner's answer to one move (or to the import of the code), as web/runners/ write it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunnerReply {
    pub ok: bool,
    /// The answer's text: `move`'s JSON, or `output.txt` (course).
    #[serde(default)]
    pub body: Option<String>,
    /// Why the move failed, when it did: a [`CodeFailure`] code, or a program's (`crashed`,
    /// `no_output`, `output_too_large`).
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    /// What the code printed (the first characters up to the host's cap).
    #[serde(default)]
    pub output: String,
    /// How many characters it printed in all.
    #[serde(default)]
    pub output_chars: u64,
}

/// The note that ends a printed text cut at its cap.
const NOT_KEPT: &str = " more characters not kept";

impl RunnerReply {
    /// What the code printed, with a note of how much more it printed than was kept; `None` when it
    /// printed nothing.
    pub fn printed(&self) -> Option<String> {
        if self.output.is_empty() && self.output_chars == 0 {
            return None;
        }
        let kept = self.output.chars().count() as u64;
        let mut text = self.output.clone();
        if self.output_chars > kept && !text.contains(NOT_KEPT) {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!("… {}{NOT_KEPT}\n", self.output_chars - kept));
        }
        Some(text)
    }

    /// The referee's answer: a failure by its name, `null` as no move, else the body read as the
    /// format's answer (the web protocol's JSON, or `output.txt`).
    pub fn answer(&self, format: Format) -> Answer {
        let message = self.message.clone().unwrap_or_default();
        let tail = || stderr_tail(self.output.as_bytes());
        if !self.ok {
            let code = self.code.as_deref().unwrap_or("could_not_start");
            let failure = match code {
                "crashed" => ProgramFailure::Crashed {
                    status: message,
                    stderr: tail(),
                },
                "no_output" => ProgramFailure::NoOutput { stderr: tail() },
                "output_too_large" => ProgramFailure::TooLarge {
                    bytes: MAX_RESPONSE_BYTES + 1,
                },
                _ => return Answer::NoMove(NoMove::Code(CodeFailure::from_code(code, message))),
            };
            return Answer::NoMove(NoMove::Program(failure));
        }
        let body = self.body.as_deref().unwrap_or("");
        match format {
            Format::Function if body.trim() == "null" => Answer::NoMove(NoMove::Missing),
            Format::Function => Answer::from(parse_response(body.as_bytes())),
            Format::Course => match parse_output(body.as_bytes()) {
                Ok(path) => Answer::Move(path),
                Err(e) => Answer::NoMove(NoMove::Program(ProgramFailure::Malformed {
                    why: e.to_string(),
                    stderr: tail(),
                })),
            },
        }
    }

    /// The move as both hosts hand it on, timed by the host at `ms`.
    pub fn into_move(self, format: Format, ms: Option<f64>) -> CodeMove {
        CodeMove {
            answer: self.answer(format),
            printed: self.printed(),
            body: self.body.filter(|_| self.ok),
            ms,
        }
    }
}

/// One move of a code player: the answer for the referee, and what the inspector shows.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeMove {
    pub answer: Answer,
    /// The answer's text as the code gave it, when it gave one.
    pub body: Option<String>,
    /// What it printed during the move.
    pub printed: Option<String>,
    /// The host's time for the move, from asking to answer, in milliseconds; `None` when no answer
    /// came (or the move never reached the code).
    pub ms: Option<f64>,
}

impl CodeMove {
    /// A move that never reached the code.
    pub fn failed(answer: Answer) -> CodeMove {
        CodeMove {
            answer,
            body: None,
            printed: None,
            ms: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(ok: bool, body: Option<&str>, code: Option<&str>) -> RunnerReply {
        RunnerReply {
            ok,
            body: body.map(str::to_string),
            code: code.map(str::to_string),
            message: Some("why".into()),
            output: "printed\n".into(),
            output_chars: 8,
        }
    }

    #[test]
    fn a_function_answer_is_read_as_a_web_answer() {
        let good = r#"{"from":{"x":2,"y":14},"to":[{"x":2,"y":13}]}"#;
        let moved = reply(true, Some(good), None).into_move(Format::Function, Some(3.0));
        assert!(matches!(moved.answer, Answer::Move(_)), "{moved:?}");
        assert_eq!(moved.printed.as_deref(), Some("printed\n"));
        assert_eq!(moved.body.as_deref(), Some(good));
        let none = reply(true, Some("null"), None).answer(Format::Function);
        assert_eq!(none, Answer::NoMove(NoMove::Missing));
        let shape = reply(true, Some("[1,2]"), None).answer(Format::Function);
        assert_eq!(shape, Answer::from(parse_response(b"[1,2]")));
    }

    #[test]
    fn a_course_answer_is_read_as_output_txt() {
        let moved = reply(true, Some("E 0,2 0,3\n"), None).answer(Format::Course);
        assert!(matches!(moved, Answer::Move(_)), "{moved:?}");
        let Answer::NoMove(NoMove::Program(failure)) =
            reply(true, Some("move it"), None).answer(Format::Course)
        else {
            panic!("a malformed output.txt")
        };
        assert_eq!(failure.code(), "malformed_output");
    }

    #[test]
    fn failures_keep_their_names() {
        // Every code failure's name, and the names a course script's runner gives as a process would.
        let course = ["crashed", "no_output", "output_too_large"];
        for code in CodeFailure::CODES.into_iter().chain(course) {
            let Answer::NoMove(no_move) = reply(false, None, Some(code)).answer(Format::Course)
            else {
                panic!("{code}")
            };
            assert_eq!(no_move.code(), code);
        }
        let Answer::NoMove(NoMove::Program(ProgramFailure::Crashed { stderr, .. })) =
            reply(false, None, Some("crashed")).answer(Format::Function)
        else {
            panic!("crashed")
        };
        assert_eq!(stderr, "printed");
        let failed = reply(false, Some("{}"), Some("exception")).into_move(Format::Function, None);
        assert_eq!(failed.body, None, "a failed move has no answer text");
    }

    #[test]
    fn output_over_the_cap_says_how_much_was_dropped() {
        let mut r = reply(true, Some("null"), None);
        r.output_chars = 10_000_008;
        assert!(r
            .printed()
            .unwrap()
            .ends_with("… 10000000 more characters not kept\n"));
        r.output = "no newline".into();
        r.output_chars = 12;
        assert_eq!(
            r.printed().as_deref(),
            Some("no newline\n… 2 more characters not kept\n")
        );
        let finished = RunnerReply {
            output: "x\n… 5 more characters not kept\n".into(),
            output_chars: 7,
            ..RunnerReply::default()
        };
        assert_eq!(
            finished.printed().as_deref(),
            Some(finished.output.as_str())
        );
        let quiet = RunnerReply::default();
        assert_eq!(quiet.printed(), None);
    }
}
