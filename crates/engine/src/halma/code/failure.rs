//! The ways a code player's move can fail.
//!
//! This module only names what went wrong, so the message
//! field, the inspector, records and tournaments read the same codes. A course-format code player fails
//! with the program players' [`ProgramFailure`](crate::halma::ProgramFailure) names instead (crashed,
//! no_output, ...), since it is the same homework run the same way; a move past its deadline is the web
//! AIs' `timed_out`.

use std::fmt;

/// Why a code player gave no move. Each message says what a student should look at first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeFailure {
    /// The code does not parse; `at` is the file, line and column with the parser's message.
    Syntax { at: String },
    /// The code raised an exception; the traceback keeps the student's own frames.
    Exception { traceback: String },
    /// The main file defines no function `move(request)`.
    NoMoveFunction { why: String },
    /// The code tried to reach the network (`fetch`, a socket, ...): refused, and the move with it.
    Network { what: String },
    /// The code ran out of memory, or grew past the page's cap for one player.
    OutOfMemory { why: String },
    /// `move` returned something that is not JSON (a set, a function, ...).
    Malformed { why: String },
    /// The code could not be started: the runtime did not load, or its files are unusable.
    NotStarted { why: String },
}

impl CodeFailure {
    /// Every code; each failure's message says what happened in its own first words.
    pub const CODES: [&'static str; 7] = [
        "syntax_error",
        "exception",
        "no_move_function",
        "network",
        "out_of_memory",
        "malformed_answer",
        "could_not_start",
    ];

    /// A stable identifier for programs.
    pub fn code(&self) -> &'static str {
        match self {
            CodeFailure::Syntax { .. } => "syntax_error",
            CodeFailure::Exception { .. } => "exception",
            CodeFailure::NoMoveFunction { .. } => "no_move_function",
            CodeFailure::Network { .. } => "network",
            CodeFailure::OutOfMemory { .. } => "out_of_memory",
            CodeFailure::Malformed { .. } => "malformed_answer",
            // The program players' name for the same thing.
            CodeFailure::NotStarted { .. } => "could_not_start",
        }
    }

    /// The failure a worker named by `code`, with its `message`; an unknown code is [`NotStarted`]
    /// naming it, since the page and its worker disagree.
    ///
    /// [`NotStarted`]: CodeFailure::NotStarted
    pub fn from_code(code: &str, message: String) -> CodeFailure {
        match code {
            "syntax_error" => CodeFailure::Syntax { at: message },
            "exception" => CodeFailure::Exception { traceback: message },
            "no_move_function" => CodeFailure::NoMoveFunction { why: message },
            "network" => CodeFailure::Network { what: message },
            "out_of_memory" => CodeFailure::OutOfMemory { why: message },
            "malformed_answer" => CodeFailure::Malformed { why: message },
            "could_not_start" => CodeFailure::NotStarted { why: message },
            other => CodeFailure::NotStarted {
                why: format!("the code's worker said {other:?}: {message}"),
            },
        }
    }
}

impl fmt::Display for CodeFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeFailure::Syntax { at } => write!(f, "syntax error: {at}"),
            CodeFailure::Exception { traceback } => {
                write!(f, "the code raised an exception: {}", traceback.trim_end())
            }
            CodeFailure::NoMoveFunction { why } => f.write_str(why),
            CodeFailure::Network { what } => write!(
                f,
                "the code tried to reach the network ({what}): code players may not, so the move is refused"
            ),
            CodeFailure::OutOfMemory { why } => write!(f, "out of memory: {why}"),
            CodeFailure::Malformed { why } => write!(f, "malformed answer: {why}"),
            CodeFailure::NotStarted { why } => write!(f, "the code could not start: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back_and_messages_say_what_happened() {
        for code in CodeFailure::CODES {
            assert_eq!(CodeFailure::from_code(code, "x".into()).code(), code);
        }
        let odd = CodeFailure::from_code("gremlins", "who knows".into());
        assert_eq!(odd.code(), "could_not_start");
        assert!(odd.to_string().contains("\"gremlins\""), "{odd}");
        let net = CodeFailure::from_code("network", "fetch".into());
        assert!(net.to_string().contains("(fetch)"), "{net}");
        let exc = CodeFailure::from_code("exception", "Traceback\nZeroDivisionError\n".into());
        assert!(exc.to_string().ends_with("ZeroDivisionError"), "{exc}");
    }
}
