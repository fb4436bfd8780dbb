//! Reading stdin, decoding JSON and turning failures into exit codes.
//!
//! Everything on stdin comes from outside, so every step here returns a [`Failure`] that names what was
//! wrong instead of panicking: a script author should learn from the message alone what to fix.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
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
            crate::terminal::printable(&message)
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
    read_text(stdin.lock(), MAX_INPUT_BYTES, what)
}

/// Reads `reader` to the end as UTF-8 text of at most `cap` bytes, without a leading byte-order mark;
/// `reader` is stdin, and `what` names the document expected on it in messages.
pub fn read_text(mut reader: impl Read, cap: usize, what: &str) -> Result<String, Failure> {
    let bytes = read_capped(Source::Stream(&mut reader), "stdin", cap).map_err(|e| {
        Failure::Input(match e {
            CapError::Unreadable { error, .. } => format!("could not read stdin: {error}"),
            too_large @ CapError::TooLarge { .. } => {
                format!("{too_large}: expected {what} as JSON")
            }
        })
    })?;
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

/// What [`read_capped`] reads.
pub enum Source<'a> {
    /// The file at a path, whatever it is: a roster may come through `/dev/stdin` or a pipe.
    File(&'a Path),
    /// The file at a path, only if it is a regular file: a link is not followed and a FIFO or a device
    /// is not waited on (see [`open_regular`]). For files someone else's program or folder may hold.
    RegularFile(&'a Path),
    /// A stream already open, such as stdin.
    Stream(&'a mut dyn Read),
}

/// Why [`read_capped`] read nothing. Its message names the source and, for one too large, the cap,
/// as "output.txt is larger than 64 KiB".
#[derive(Debug)]
pub enum CapError {
    /// It could not be opened or read, or it is not a regular file where one was needed; a missing
    /// file keeps [`io::ErrorKind::NotFound`], for callers that tell "none" from "unreadable".
    Unreadable { name: String, error: io::Error },
    /// It holds more than `cap` bytes. `size` is what is known of it: its length when it is a regular
    /// file, else (or if it grew while read) the bytes read, one more than the cap.
    TooLarge { name: String, size: u64, cap: usize },
}

impl CapError {
    /// The reason alone, for a message that names the source its own way: "it is larger than 2 MB".
    pub fn why(&self) -> String {
        match self {
            CapError::Unreadable { error, .. } => error.to_string(),
            CapError::TooLarge { cap, .. } => format!("it is larger than {}", human_size(*cap)),
        }
    }
}

impl fmt::Display for CapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CapError::Unreadable { name, error } => write!(f, "{name} could not be read: {error}"),
            CapError::TooLarge { name, cap, .. } => {
                write!(f, "{name} is larger than {}", human_size(*cap))
            }
        }
    }
}

impl std::error::Error for CapError {}

/// The bytes of `source`, named `name` in messages, if it holds at most `cap` of them.
///
/// This is how the command reads anything from outside whose size it does not control. A file that
/// says its size (a regular one) is refused by that size, unread; anything else is read up to one byte
/// past the cap, which tells "exactly at the cap" from "over it" without reading the rest. So neither
/// a huge file nor an endless pipe (`cat /dev/zero`) costs more than `cap` + 1 bytes of memory.
pub fn read_capped(source: Source<'_>, name: &str, cap: usize) -> Result<Vec<u8>, CapError> {
    let unreadable = |error| CapError::Unreadable {
        name: name.to_owned(),
        error,
    };
    let too_large = |size| CapError::TooLarge {
        name: name.to_owned(),
        size,
        cap,
    };
    let limit = u64::try_from(cap).unwrap_or(u64::MAX);
    // `said` is the length the file gave, if any.
    let read = |reader: &mut dyn Read, said: u64| {
        let mut bytes = Vec::new();
        Read::take(reader, limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        if bytes.len() > cap {
            let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
            return Err(too_large(said.max(read)));
        }
        Ok(bytes)
    };
    let mut file = match source {
        Source::Stream(reader) => return read(reader, 0),
        Source::File(path) => File::open(path),
        Source::RegularFile(path) => open_regular(path),
    }
    .map_err(unreadable)?;
    // A pipe's or a device's length says nothing of what it will give; a regular file's does.
    let said = match file.metadata() {
        Ok(meta) if meta.is_file() => meta.len(),
        _ => 0,
    };
    if said > limit {
        return Err(too_large(said));
    }
    read(&mut file, said)
}

/// Opens `path` for reading only if it is a regular file: never through a link, and never waiting for
/// a FIFO's writer or a device, which a program could leave where its answer should be.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let not_regular = |what: &str| io::Error::other(format!("it is not a regular file ({what})"));
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => not_regular("a symbolic link"),
            _ => e,
        })?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    use std::os::unix::fs::FileTypeExt;
    Err(not_regular(if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a device"
    }))
}

/// A size as people say it: "16 MiB", "64 KiB", "2 MB", else in bytes.
fn human_size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    match bytes {
        0 => "0 bytes".to_string(),
        b if b % MIB == 0 => format!("{} MiB", b / MIB),
        b if b % 1_000_000 == 0 => format!("{} MB", b / 1_000_000),
        b if b % KIB == 0 => format!("{} KiB", b / KIB),
        b if b % 1_000 == 0 => format!("{} kB", b / 1_000),
        1 => "1 byte".to_string(),
        b => format!("{b} bytes"),
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
        assert_eq!(read_text(at_cap.as_bytes(), 16, "x").unwrap(), at_cap);
        let over = format!("{:<17}", "{}");
        assert!(message(read_text(over.as_bytes(), 16, "x")).contains("larger than 16 bytes"));
    }

    #[test]
    fn empty_and_non_utf8_input_are_refused_with_a_reason() {
        assert!(message(read_text(&b" \n\t"[..], 100, "a state")).contains("empty"));
        assert!(message(read_text(&b"{\"a\":\xff}"[..], 100, "x")).contains("offset 5"));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = read_text("\u{feff}{}".as_bytes(), 100, "x").unwrap();
        assert_eq!(text, "{}");
    }

    /// A fresh folder for one test, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("gridarena-io-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_file_at_the_cap_is_read_and_one_byte_more_is_refused_by_its_size() {
        let dir = Scratch::new("cap");
        let path = dir.0.join("output.txt");
        std::fs::write(&path, [b'x'; 16]).unwrap();
        for source in [Source::File(&path), Source::RegularFile(&path)] {
            assert_eq!(read_capped(source, "output.txt", 16).unwrap().len(), 16);
        }
        std::fs::write(&path, [b'x'; 17]).unwrap();
        let refused = read_capped(Source::RegularFile(&path), "output.txt", 16).unwrap_err();
        assert!(
            matches!(
                refused,
                CapError::TooLarge {
                    size: 17,
                    cap: 16,
                    ..
                }
            ),
            "{refused:?}"
        );
        assert_eq!(refused.to_string(), "output.txt is larger than 16 bytes");
        assert_eq!(refused.why(), "it is larger than 16 bytes");
    }

    #[test]
    fn a_huge_file_is_refused_unread_with_its_size() {
        let dir = Scratch::new("huge");
        let path = dir.0.join("roster.json");
        // Sparse: it takes no disk, and reading it would take a second and a GiB of memory.
        std::fs::File::create(&path)
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        let refused =
            read_capped(Source::File(&path), "roster.json", 256 * 1024 * 1024).unwrap_err();
        assert!(
            matches!(refused, CapError::TooLarge { size, .. } if size == 1 << 30),
            "{refused:?}"
        );
        assert_eq!(refused.to_string(), "roster.json is larger than 256 MiB");
    }

    #[test]
    fn an_endless_stream_is_read_only_one_byte_past_the_cap() {
        let mut zeros = io::repeat(0);
        let refused = read_capped(Source::Stream(&mut zeros), "stdin", 64 * 1024).unwrap_err();
        assert!(
            matches!(refused, CapError::TooLarge { size, .. } if size == 64 * 1024 + 1),
            "{refused:?}"
        );
        assert_eq!(refused.to_string(), "stdin is larger than 64 KiB");
        let mut short = &b"{}"[..];
        assert_eq!(
            read_capped(Source::Stream(&mut short), "stdin", 2).unwrap(),
            b"{}"
        );
    }

    #[test]
    fn only_a_regular_file_is_read_where_one_is_needed() {
        use std::os::unix::ffi::OsStrExt;
        let dir = Scratch::new("kinds");
        let target = dir.0.join("target.txt");
        std::fs::write(&target, "1 2").unwrap();
        let link = dir.0.join("link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let fifo = dir.0.join("fifo.txt");
        let c_path = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        // Where any file will do, a link is followed.
        assert_eq!(read_capped(Source::File(&link), "x", 16).unwrap(), b"1 2");
        for (path, kind) in [
            (&link, "a symbolic link"),
            (&fifo, "a FIFO"),
            (&dir.0, "a folder"),
        ] {
            // A FIFO with no writer would block a plain open; this one must answer at once.
            let refused = read_capped(Source::RegularFile(path), "output.txt", 16).unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!("output.txt could not be read: it is not a regular file ({kind})")
            );
        }
    }

    #[test]
    fn a_missing_file_keeps_its_kind() {
        let dir = Scratch::new("missing");
        let refused =
            read_capped(Source::RegularFile(&dir.0.join("none")), "output.txt", 16).unwrap_err();
        let CapError::Unreadable { error, .. } = &refused else {
            panic!("{refused:?}");
        };
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        assert!(refused
            .to_string()
            .starts_with("output.txt could not be read: "));
    }

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(human_size(16 * 1024 * 1024), "16 MiB");
        assert_eq!(human_size(64 * 1024), "64 KiB");
        assert_eq!(human_size(2_000_000), "2 MB");
        assert_eq!(human_size(5_000), "5 kB");
        assert_eq!(human_size(1), "1 byte");
        assert_eq!(human_size(1234), "1234 bytes");
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
