//! Reading stdin, decoding JSON and turning failures into exit codes.
//!
//! Everything on stdin comes from outside, so every step here returns a [`Failure`] that names what was
//! wrong instead of panicking: a script author should learn from the message alone what to fix.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

/// The most stdin the tool reads. Every real request, state or move is a few kilobytes; the cap keeps a
/// runaway producer (or `cat /dev/zero`) from exhausting memory.
pub const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Exit status when the input or the command line cannot be used (clap uses the same code for usage errors).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when the output cannot be written or the tool contradicts itself.
pub const EXIT_INTERNAL: u8 = 3;

/// Why a command could not do its job.
#[derive(Debug)]
pub enum Failure {
    /// The input (or an argument) cannot be used; the message says what is wrong with it.
    Input(String),
    /// Writing the result failed.
    Output(io::Error),
    /// The engine contradicted itself; a bug, not the user's fault.
    Internal(String),
}

impl Failure {
    /// Prints the message on stderr and returns the exit status.
    ///
    /// A closed stdout (the reader of a pipe stopped early, as `| head` does) is how pipelines end, not an
    /// error worth a message.
    pub fn report(self) -> ExitCode {
        if let Failure::Output(e) = &self {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return ExitCode::SUCCESS;
            }
        }
        let code = match self {
            Failure::Input(_) => EXIT_BAD_INPUT,
            Failure::Output(_) | Failure::Internal(_) => EXIT_INTERNAL,
        };
        // Nothing is left to tell anyone if stderr is gone too, so a failed write is ignored.
        let message = self.to_string();
        let _ = writeln!(
            io::stderr(),
            "gridarena: {}",
            gridarena_cli::terminal::printable(&message)
        );
        ExitCode::from(code)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Input(why) => f.write_str(why),
            Failure::Output(e) => write!(f, "could not write the output: {e}"),
            Failure::Internal(why) => write!(f, "internal error (please report this bug): {why}"),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

/// Reads all of stdin as text; `what` names the expected document in messages ("an AI request").
pub fn read_stdin(what: &str) -> Result<String, Failure> {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        // Someone typed the command without a pipe: without this hint it would look hung.
        let _ = writeln!(
            io::stderr(),
            "gridarena: reading {what} as JSON from stdin (end with Ctrl-D)"
        );
    }
    read_capped(stdin.lock(), MAX_INPUT_BYTES, what)
}

/// Reads `reader` to the end as UTF-8 text of at most `cap` bytes, without a leading byte-order mark.
pub fn read_capped(reader: impl Read, cap: usize, what: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    // One byte more than the cap tells "exactly at the cap" from "over it" without reading the rest.
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    reader
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(format!("could not read stdin: {e}")))?;
    if bytes.len() > cap {
        return Err(Failure::Input(format!(
            "stdin is larger than {}: expected {what} as JSON",
            human_size(cap)
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::Input(format!(
            "stdin is not UTF-8 text (invalid byte at offset {}): expected {what} as JSON",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    };
    if text.trim().is_empty() {
        return Err(Failure::Input(format!(
            "stdin is empty: expected {what} as JSON"
        )));
    }
    Ok(text)
}

fn human_size(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Decodes `text` as `what`, telling malformed JSON apart from JSON of the wrong shape.
pub fn parse_json<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, Failure> {
    serde_json::from_str(text).map_err(|e| json_failure(&e, "stdin", what))
}

/// Like [`parse_json`] for a document that must be a JSON object.
///
/// Serde also reads a struct from an array of its fields in order, so `[18,[],...]` would pass as a
/// request, and any other non-object gets a message about the first field's type; both hide the mistake.
pub fn parse_object<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, Failure> {
    if !text.trim_start().starts_with('{') {
        let value: Value = parse_json(text, what)?;
        return Err(not_an_object("stdin", &value, what));
    }
    parse_json(text, what)
}

/// Decodes one member of an already parsed document; it must be a JSON object.
pub fn from_field<T: DeserializeOwned>(
    value: Value,
    field: &str,
    what: &str,
) -> Result<T, Failure> {
    let source = format!("\"{field}\"");
    if !value.is_object() {
        return Err(not_an_object(&source, &value, what));
    }
    serde_json::from_value(value).map_err(|e| json_failure(&e, &source, what))
}

fn not_an_object(source: &str, value: &Value, what: &str) -> Failure {
    let found = gridarena_engine::halma::protocol::json_kind(value);
    Failure::Input(format!(
        "{source} is {found}, not {what}: expected a JSON object"
    ))
}

fn json_failure(e: &serde_json::Error, source: &str, what: &str) -> Failure {
    use serde_json::error::Category;
    Failure::Input(match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            format!("{source} is not valid JSON ({e}): expected {what}")
        }
        Category::Data => format!("{source} is not {what}: {e}"),
    })
}

/// The members of a JSON object whose only allowed keys are `allowed`.
///
/// The envelopes of `check` and `tick` are ours, so an unknown key is almost certainly a typo ("Red",
/// "moves") that would otherwise pass silently as a missing member.
pub fn object(value: Value, allowed: &[&str], what: &str) -> Result<Map<String, Value>, Failure> {
    let expected = || {
        allowed
            .iter()
            .map(|k| format!("\"{k}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Value::Object(map) = value else {
        return Err(Failure::Input(format!(
            "stdin is not {what}: expected a JSON object with the members {}",
            expected()
        )));
    };
    if let Some(key) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(Failure::Input(format!(
            "stdin has an unknown member \"{key}\": expected only {}",
            expected()
        )));
    }
    Ok(map)
}

/// Writes `value` as one line of compact JSON, or indented when `pretty`.
pub fn write_json(
    out: &mut impl Write,
    value: &impl Serialize,
    pretty: bool,
) -> Result<(), Failure> {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .map_err(|e| Failure::Internal(format!("could not encode the output as JSON: {e}")))?;
    writeln!(out, "{text}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<String, Failure>) -> String {
        match r {
            Err(Failure::Input(m)) => m,
            other => panic!("expected an input failure, got {other:?}"),
        }
    }

    #[test]
    fn input_at_the_cap_is_read_and_one_byte_more_is_refused() {
        let at_cap = format!("{:<16}", "{}");
        assert_eq!(read_capped(at_cap.as_bytes(), 16, "x").unwrap(), at_cap);
        let over = format!("{:<17}", "{}");
        assert!(message(read_capped(over.as_bytes(), 16, "x")).contains("larger than 16 bytes"));
    }

    #[test]
    fn empty_and_non_utf8_input_are_refused_with_a_reason() {
        assert!(message(read_capped(&b" \n\t"[..], 100, "a state")).contains("empty"));
        assert!(message(read_capped(&b"{\"a\":\xff}"[..], 100, "x")).contains("offset 5"));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = read_capped("\u{feff}{}".as_bytes(), 100, "x").unwrap();
        assert_eq!(text, "{}");
    }

    #[test]
    fn syntax_and_shape_errors_read_differently() {
        let syntax = parse_json::<Vec<u8>>("[1,", "numbers")
            .unwrap_err()
            .to_string();
        assert!(syntax.contains("not valid JSON"), "{syntax}");
        let shape = parse_json::<Vec<u8>>("[\"a\"]", "numbers")
            .unwrap_err()
            .to_string();
        assert!(shape.contains("is not numbers"), "{shape}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)] // only its shape matters
    struct Pair {
        a: u8,
        b: u8,
    }

    #[test]
    fn a_struct_is_not_read_from_an_array() {
        let why = parse_object::<Pair>("[1,2]", "a pair")
            .unwrap_err()
            .to_string();
        assert!(why.contains("is an array, not a pair"), "{why}");
        assert!(parse_object::<Pair>(" {\"a\":1,\"b\":2}", "a pair").is_ok());
        let field = from_field::<Pair>(Value::Null, "p", "a pair")
            .unwrap_err()
            .to_string();
        assert!(field.contains("\"p\" is null"), "{field}");
    }

    #[test]
    fn unknown_envelope_members_are_named() {
        let v: Value = serde_json::from_str(r#"{"request":1,"mvoe":2}"#).unwrap();
        let why = object(v, &["request", "move"], "x")
            .unwrap_err()
            .to_string();
        assert!(why.contains("\"mvoe\""), "{why}");
    }
}
