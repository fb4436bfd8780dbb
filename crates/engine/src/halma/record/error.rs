//! Why a text is not a record: [`RecordError`], with the line it names and its message.
//!
//! Apart because every step of reading and checking returns it, and its messages are written for
//! whoever loaded the file: each names the line and says what is wrong there in words (quoting the file,
//! so they are shown escaped).

use super::{MAX_LABEL_CHARS, MAX_RECORD_BYTES, MAX_RECORD_LINES, RECORD_FORMAT, RECORD_VERSION};
use crate::halma::SetupError;
use std::fmt;

/// Why a text is not a record this build can show. Every variant but [`RecordError::TooLarge`] and
/// [`RecordError::Empty`] names the first line (1-based) where the record goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The input exceeds [`MAX_RECORD_BYTES`]; nothing was read.
    TooLarge { bytes: usize },
    /// No line holds anything.
    Empty,
    /// The record goes on past [`MAX_RECORD_LINES`].
    TooManyLines { line: usize },
    /// The bytes are not UTF-8 text ([`Record::parse_bytes`](super::Record::parse_bytes) only).
    NotUtf8 { line: usize },
    /// The line is not JSON.
    NotJson { line: usize, detail: String },
    /// The line is JSON but not the shape its type requires; `what` is "header", "tick", "result", or
    /// "record" for a line that is not an object at all.
    Malformed {
        line: usize,
        what: &'static str,
        detail: String,
    },
    /// The line's `"type"` is missing or not one of "header", "tick", "result".
    UnknownType { line: usize, found: String },
    /// The first line that holds anything is not the header; `found` is its type.
    MissingHeader { line: usize, found: &'static str },
    /// A second header: a record holds one game.
    HeaderNotFirst { line: usize, first: usize },
    /// The header's `format` is not [`RECORD_FORMAT`].
    UnsupportedFormat { line: usize, found: String },
    /// The header's `version` is not [`RECORD_VERSION`].
    UnsupportedVersion { line: usize, found: String },
    /// A player label or the engine version is longer than [`MAX_LABEL_CHARS`].
    TextTooLong {
        line: usize,
        field: &'static str,
        chars: usize,
    },
    /// A state that is not a playable game.
    InvalidState { line: usize, error: SetupError },
    /// A tick's turn is not the previous state's turn plus one; `field` says which turn.
    TurnOutOfSequence {
        line: usize,
        field: &'static str,
        expected: u32,
        found: u32,
    },
    /// A line after the result line.
    AfterResult { line: usize, result_line: usize },
    /// The tick is not what the rules make of the previous state and the recorded moves.
    Illegal { line: usize, detail: String },
    /// The result line does not say what the last state says.
    ResultMismatch { line: usize, detail: String },
}

impl RecordError {
    /// The line where the record goes wrong, if the error belongs to one line.
    pub fn line(&self) -> Option<usize> {
        use RecordError::*;
        match self {
            TooLarge { .. } | Empty => None,
            TooManyLines { line }
            | NotUtf8 { line }
            | NotJson { line, .. }
            | Malformed { line, .. }
            | UnknownType { line, .. }
            | MissingHeader { line, .. }
            | HeaderNotFirst { line, .. }
            | UnsupportedFormat { line, .. }
            | UnsupportedVersion { line, .. }
            | TextTooLong { line, .. }
            | InvalidState { line, .. }
            | TurnOutOfSequence { line, .. }
            | AfterResult { line, .. }
            | Illegal { line, .. }
            | ResultMismatch { line, .. } => Some(*line),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordError::*;
        if let Some(line) = self.line() {
            write!(f, "line {line}: ")?;
        }
        match self {
            TooLarge { bytes } => write!(
                f,
                "the record is {bytes} bytes; at most {MAX_RECORD_BYTES} are read"
            ),
            Empty => f.write_str("the record is empty: it has no header line"),
            TooManyLines { .. } => write!(
                f,
                "the record goes on past {MAX_RECORD_LINES} lines, the most that are read"
            ),
            NotUtf8 { .. } => f.write_str("not UTF-8 text: a record is a JSON Lines text file"),
            NotJson { detail, .. } => write!(f, "not valid JSON ({detail})"),
            Malformed { what, detail, .. } => write!(f, "malformed {what} line: {detail}"),
            UnknownType { found, .. } => write!(
                f,
                "\"type\" is {found}: expected \"header\", \"tick\" or \"result\""
            ),
            MissingHeader { found, .. } => write!(
                f,
                "the record starts with a {found} line: the header must come first"
            ),
            HeaderNotFirst { first, .. } => write!(
                f,
                "a second header (the first is on line {first}): a record holds one game"
            ),
            UnsupportedFormat { found, .. } => write!(
                f,
                "\"format\" is {found}: this is not a GridArena Halma record (\"{RECORD_FORMAT}\")"
            ),
            UnsupportedVersion { found, .. } => write!(
                f,
                "record version {found} is not supported: this build reads version {RECORD_VERSION}"
            ),
            TextTooLong { field, chars, .. } => write!(
                f,
                "\"{field}\" is {chars} characters long; at most {MAX_LABEL_CHARS} are allowed"
            ),
            InvalidState { error, .. } => write!(f, "the state is not a playable game: {error}"),
            TurnOutOfSequence {
                field,
                expected,
                found,
                ..
            } => write!(
                f,
                "\"{field}\" is {found}: the tick after turn {} must be turn {expected}",
                expected.saturating_sub(1)
            ),
            AfterResult { result_line, .. } => {
                write!(f, "nothing may follow the result line (line {result_line})")
            }
            Illegal { detail, .. } => write!(f, "the tick disagrees with the rules: {detail}"),
            ResultMismatch { detail, .. } => {
                write!(f, "the result line contradicts the last state: {detail}")
            }
        }
    }
}

impl std::error::Error for RecordError {}
