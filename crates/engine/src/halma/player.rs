//! The text form of an AI player, `builtin:NAME`, a web AI's URL or a program's
//! `FORMAT:DIR:COMMAND` ([`Program`]), read and written in one place.
//!
//! The page's setup link, its saved setup, the command line's `--red`/`--blue` and every record header
//! carry players in this form, so a label the command line writes is one the page reads back. The page
//! adds its own `human` on top; the command line adds the HTTP client's stricter URL checks. Only the
//! command line runs programs: the page refuses them and names `gridarena halma bridge`.

use super::ai::BuiltIn;
use super::code::HashedSource;
use super::program::{Program, ProgramFormat};
use super::protocol::check_ai_url;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// An AI that can play a team: one compiled into the engine, or one on the web.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AiPlayer {
    BuiltIn(BuiltIn),
    /// The address, as [`check_ai_url`] returned it (trimmed).
    Web(String),
    /// A program on the referee's machine.
    Program(Program),
    /// A student's code, carried with the roster (its files are its identity, so it has no label that
    /// names it alone: [`fmt::Display`] writes `code:LANGUAGE:FORMAT:HASH` for people to read, from the
    /// hash worked out when the code was read).
    Code(Arc<HashedSource>),
}

/// Why a label names no AI player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// `builtin:` followed by a name no built-in AI has.
    UnknownBuiltIn(String),
    /// Neither `builtin:NAME` nor an address.
    Unknown(String),
    /// An address [`check_ai_url`] refuses; the text says why.
    BadUrl(String),
    /// A `course:` or `lines:` label that names no program; the text says why.
    BadProgram(String),
    /// A `code:` label: code travels as files in a roster entry, which a label cannot carry.
    CodeWithoutFiles(String),
}

impl PlayerError {
    /// A stable identifier for programs (the message is for people).
    pub fn code(&self) -> &'static str {
        match self {
            PlayerError::UnknownBuiltIn(_) => "unknown_builtin",
            PlayerError::Unknown(_) => "unknown_player",
            PlayerError::BadUrl(_) => "bad_url",
            PlayerError::BadProgram(_) => "bad_program",
            PlayerError::CodeWithoutFiles(_) => "code_without_files",
        }
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::UnknownBuiltIn(name) => {
                write!(
                    f,
                    "unknown built-in AI {name:?}: expected {}",
                    builtin_choice()
                )
            }
            PlayerError::Unknown(text) => {
                write!(f, "unknown player {text:?}: expected {}", AiPlayer::forms())
            }
            PlayerError::BadUrl(why) | PlayerError::BadProgram(why) => f.write_str(why),
            PlayerError::CodeWithoutFiles(label) => write!(
                f,
                "{label:?} names code without its files: give a code entry's files in the roster, as \"code\": {{\"language\": \"python\", \"main\": ..., \"files\": {{...}}}}"
            ),
        }
    }
}

impl std::error::Error for PlayerError {}

/// Every built-in AI's label, from the engine's list, so a new AI reaches every message.
fn builtin_labels() -> Vec<String> {
    BuiltIn::ALL
        .iter()
        .map(|&ai| AiPlayer::BuiltIn(ai).to_string())
        .collect()
}

/// "builtin:greedy or builtin:search".
fn builtin_choice() -> String {
    let labels = builtin_labels();
    match labels.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl AiPlayer {
    /// What a player label may be, for messages: "builtin:greedy, builtin:search, the http:// or
    /// https:// URL of a web AI, or a program as course:DIR:COMMAND or lines:DIR:COMMAND".
    pub fn forms() -> String {
        format!(
            "{}, the http:// or https:// URL of a web AI, or a program as course:DIR:COMMAND or lines:DIR:COMMAND",
            builtin_labels().join(", ")
        )
    }
}

impl FromStr for AiPlayer {
    type Err = PlayerError;
    fn from_str(s: &str) -> Result<AiPlayer, PlayerError> {
        if let Some(name) = s.strip_prefix("builtin:") {
            return name
                .parse::<BuiltIn>()
                .map(AiPlayer::BuiltIn)
                .map_err(|_| PlayerError::UnknownBuiltIn(name.to_string()));
        }
        for format in ProgramFormat::ALL {
            if let Some(rest) = s
                .strip_prefix(format.name())
                .and_then(|r| r.strip_prefix(':'))
            {
                return Program::from_label_rest(format, rest)
                    .map(AiPlayer::Program)
                    .map_err(PlayerError::BadProgram);
            }
        }
        if s.starts_with("code:") {
            return Err(PlayerError::CodeWithoutFiles(s.to_string()));
        }
        // Any scheme goes to the URL check, so "ftp://x" is told what a web address must start with.
        if s.contains("://") {
            return check_ai_url(s)
                .map(AiPlayer::Web)
                .map_err(PlayerError::BadUrl);
        }
        Err(PlayerError::Unknown(s.to_string()))
    }
}

impl fmt::Display for AiPlayer {
    /// The label records, links and the command line use: `builtin:greedy`, or the URL.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiPlayer::BuiltIn(ai) => write!(f, "builtin:{}", ai.name()),
            AiPlayer::Web(url) => f.write_str(url),
            AiPlayer::Program(program) => program.fmt(f),
            AiPlayer::Code(source) => write!(
                f,
                "code:{}:{}:{}",
                source.lang.key(),
                source.format.key(),
                &source.sha256()[..12]
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_back_as_written() {
        let cases = [
            ("builtin:greedy", AiPlayer::BuiltIn(BuiltIn::Greedy)),
            ("builtin:search", AiPlayer::BuiltIn(BuiltIn::Search)),
            (
                "http://127.0.0.1:8001/move",
                AiPlayer::Web("http://127.0.0.1:8001/move".into()),
            ),
            (
                "HTTPS://ai.example.org/",
                AiPlayer::Web("HTTPS://ai.example.org/".into()),
            ),
            (
                "course:agents/ada:python3 homework.py",
                AiPlayer::Program(Program {
                    format: ProgramFormat::Course,
                    dir: "agents/ada".into(),
                    command: "python3 homework.py".into(),
                }),
            ),
        ];
        for (text, player) in cases {
            assert_eq!(text.parse::<AiPlayer>().as_ref(), Ok(&player), "{text}");
            assert_eq!(player.to_string(), text);
        }
        assert_eq!(
            " http://a/ ".parse::<AiPlayer>(),
            Ok(AiPlayer::Web("http://a/".into()))
        );
    }

    #[test]
    fn every_refusal_says_what_is_accepted() {
        let cases = [
            (
                "greedy",
                "unknown_player",
                "builtin:greedy, builtin:search-lite, builtin:search, the http:// or https:// URL of a web AI, or a program",
            ),
            ("human", "unknown_player", "unknown player \"human\""),
            ("", "unknown_player", "unknown player \"\""),
            (
                "builtin:random",
                "unknown_builtin",
                "expected builtin:greedy, builtin:search-lite or builtin:search",
            ),
            ("builtin:", "unknown_builtin", "unknown built-in AI \"\""),
            ("ftp://x", "bad_url", "must start with http:// or https://"),
            ("http://", "bad_url", "names no host"),
            ("course:python3 hw.py", "bad_program", "names no folder"),
            ("lines::bot", "bad_program", "folder is empty"),
        ];
        for (text, code, says) in cases {
            let e = text.parse::<AiPlayer>().expect_err(text);
            assert_eq!(e.code(), code, "{text}");
            assert!(e.to_string().contains(says), "{text}: {e}");
        }
    }
}
