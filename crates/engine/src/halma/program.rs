//! A player that is a program on the referee's machine: what it is, and every way a move of it can fail.
//!
//! Running it is the command line's business (`crates/cli/src/program`); this module only names things,
//! so that the label a roster or `--red` carries, and the failure a record keeps, read the same
//! everywhere (the page refuses a program player and points to `gridarena halma bridge`).
//!
//! The label is `FORMAT:DIR:COMMAND`, for example `course:agents/ada:python3 homework.py`: the format
//! (see [`ProgramFormat`]), the agent's folder (copied for each game; it may not hold a colon) and the
//! command run there by `sh -c` (anything after the second colon, colons included).

use std::fmt;
use std::str::FromStr;

/// The longest stderr tail a failure keeps, in characters: the lines where a traceback ends.
pub const MAX_STDERR_TAIL_CHARS: usize = 2000;

/// How a program is asked for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProgramFormat {
    /// Seed 003's course: run once per move; reads `input.txt`, writes `output.txt` (see
    /// [`super::course`]).
    Course,
    /// Started once per game; one request JSON per line on stdin, one answer JSON per line on stdout.
    Lines,
}

impl ProgramFormat {
    pub const ALL: [ProgramFormat; 2] = [ProgramFormat::Course, ProgramFormat::Lines];

    /// The name in labels, flags and rosters.
    pub fn name(self) -> &'static str {
        match self {
            ProgramFormat::Course => "course",
            ProgramFormat::Lines => "lines",
        }
    }
}

impl fmt::Display for ProgramFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProgramFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<ProgramFormat, String> {
        ProgramFormat::ALL
            .into_iter()
            .find(|f| f.name() == s.trim())
            .ok_or_else(|| {
                format!(
                    "unknown program format {s:?}: expected course (input.txt/output.txt) or lines (stdin/stdout)"
                )
            })
    }
}

/// A program player: how it is asked, the folder it runs from, and its command.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Program {
    pub format: ProgramFormat,
    /// The agent's folder, as given (relative to where the referee runs).
    pub dir: String,
    /// The command, run by `sh -c` in the game's copy of `dir`.
    pub command: String,
}

impl Program {
    /// A checked program: a non-empty command, and a non-empty folder without a colon (the label's
    /// separator) or a control character.
    pub fn new(format: ProgramFormat, dir: &str, command: &str) -> Result<Program, String> {
        let (dir, command) = (dir.trim(), command.trim());
        if command.is_empty() {
            return Err("the program's command is empty".to_string());
        }
        if dir.is_empty() {
            return Err("the program's folder is empty (use . for the current folder)".to_string());
        }
        if dir.contains(':') {
            return Err(format!(
                "the program's folder {dir:?} holds a colon, which a player label cannot carry: rename it or use a link"
            ));
        }
        if dir.chars().chain(command.chars()).any(char::is_control) {
            return Err("the program's folder or command holds a control character".to_string());
        }
        Ok(Program {
            format,
            dir: dir.to_string(),
            command: command.to_string(),
        })
    }

    /// Whether this program can be asked for moves in `game`: a course-format program only in the
    /// classic 16x16 alternating game its files describe.
    pub fn can_play(&self, game: &super::Game) -> Result<(), super::course::Unsupported> {
        match self.format {
            ProgramFormat::Course => super::course::check_game(game),
            ProgramFormat::Lines => Ok(()),
        }
    }

    /// Reads the part of a label after `FORMAT:`: `DIR:COMMAND`.
    pub fn from_label_rest(format: ProgramFormat, rest: &str) -> Result<Program, String> {
        let Some((dir, command)) = rest.split_once(':') else {
            return Err(format!(
                "{format}:{rest} names no folder: write {format}:DIR:COMMAND, for example {format}:agents/ada:python3 homework.py"
            ));
        };
        Program::new(format, dir, command)
    }
}

impl fmt::Display for Program {
    /// The label: `course:agents/ada:python3 homework.py`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.format, self.dir, self.command)
    }
}

/// Why a program gave no move. Each names what a student should look at first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramFailure {
    /// The program could not be run at all: the command is not found, the folder is missing, ...
    NotStarted { why: String },
    /// It exited with a failure status (or a signal), or ended before answering; `stderr` is its tail.
    Crashed { status: String, stderr: String },
    /// It exited without writing `output.txt` (course) or closed stdout without an answer (lines).
    NoOutput { stderr: String },
    /// What it wrote is not a move in its format; the message quotes the line.
    Malformed { why: String, stderr: String },
    /// It wrote more than [`super::MAX_RESPONSE_BYTES`] for one move.
    TooLarge { bytes: usize },
    /// The move ran past the time left on the clock plus the grace, and was killed.
    TimedOut { after_ms: u64 },
    /// Its clock had run out before the move: it was not asked.
    OutOfTime,
}

impl ProgramFailure {
    /// The code of a spent clock: what the course's policy loses a game on.
    pub const OUT_OF_TIME: &'static str = "out_of_time";

    /// The codes whose message says what happened in its own first words ("the program crashed ..."),
    /// so a verdict shows the message alone. `timed_out` is the web AIs' code too, and is not here.
    pub const SELF_DESCRIBED: [&'static str; 6] = [
        "could_not_start",
        "crashed",
        "no_output",
        "malformed_output",
        "output_too_large",
        Self::OUT_OF_TIME,
    ];

    /// A stable identifier for programs.
    pub fn code(&self) -> &'static str {
        let [not_started, crashed, no_output, malformed, too_large, out_of_time] =
            Self::SELF_DESCRIBED;
        match self {
            ProgramFailure::NotStarted { .. } => not_started,
            ProgramFailure::Crashed { .. } => crashed,
            ProgramFailure::NoOutput { .. } => no_output,
            ProgramFailure::Malformed { .. } => malformed,
            ProgramFailure::TooLarge { .. } => too_large,
            ProgramFailure::TimedOut { .. } => "timed_out",
            ProgramFailure::OutOfTime => out_of_time,
        }
    }

    /// The stderr tail the failure carries, if any.
    pub fn stderr(&self) -> Option<&str> {
        match self {
            ProgramFailure::Crashed { stderr, .. }
            | ProgramFailure::NoOutput { stderr }
            | ProgramFailure::Malformed { stderr, .. } => {
                Some(stderr.as_str()).filter(|s| !s.is_empty())
            }
            _ => None,
        }
    }
}

impl fmt::Display for ProgramFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tail = |f: &mut fmt::Formatter<'_>, stderr: &str| {
            if stderr.is_empty() {
                Ok(())
            } else {
                write!(f, "; the end of its stderr: {}", stderr.trim_end())
            }
        };
        match self {
            ProgramFailure::NotStarted { why } => write!(f, "the program could not start: {why}"),
            ProgramFailure::Crashed { status, stderr } => {
                write!(f, "the program crashed ({status})")?;
                tail(f, stderr)
            }
            ProgramFailure::NoOutput { stderr } => {
                f.write_str("the program ended its move without an answer")?;
                tail(f, stderr)
            }
            ProgramFailure::Malformed { why, stderr } => {
                write!(f, "malformed output: {why}")?;
                tail(f, stderr)
            }
            ProgramFailure::TooLarge { bytes } => write!(
                f,
                "the program wrote more than {} bytes for one move ({bytes} read); at most {} are read",
                super::MAX_RESPONSE_BYTES,
                super::MAX_RESPONSE_BYTES
            ),
            ProgramFailure::TimedOut { after_ms } => write!(
                f,
                "timed out: the move was still running after {after_ms} ms (its time left plus the grace) and was killed"
            ),
            ProgramFailure::OutOfTime => {
                f.write_str("out of time: the program's clock for this game has run out")
            }
        }
    }
}

/// The last [`MAX_STDERR_TAIL_CHARS`] characters of `bytes` as text, starting at a line where it can.
pub fn stderr_tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_end();
    let count = text.chars().count();
    if count <= MAX_STDERR_TAIL_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().skip(count - MAX_STDERR_TAIL_CHARS).collect();
    // Start at a whole line when one begins in the kept part.
    match cut.split_once('\n') {
        Some((_, rest)) if !rest.is_empty() => format!("…\n{rest}"),
        _ => format!("…{cut}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_back() {
        let p = Program::from_label_rest(ProgramFormat::Course, "agents/ada:python3 hw.py --x=a:b")
            .expect("a label");
        assert_eq!(p.dir, "agents/ada");
        assert_eq!(p.command, "python3 hw.py --x=a:b");
        assert_eq!(p.to_string(), "course:agents/ada:python3 hw.py --x=a:b");
        for bad in ["nocolon", ":cmd", "dir:", "dir:  "] {
            assert!(
                Program::from_label_rest(ProgramFormat::Lines, bad).is_err(),
                "{bad}"
            );
        }
        assert!(Program::new(ProgramFormat::Lines, "a:b", "x").is_err());
        assert!(Program::new(ProgramFormat::Lines, "a", "x\ny").is_err());
        assert_eq!("lines".parse(), Ok(ProgramFormat::Lines));
        assert!("http".parse::<ProgramFormat>().is_err());
    }

    #[test]
    fn failures_say_what_happened() {
        let crashed = ProgramFailure::Crashed {
            status: "exit status 1".into(),
            stderr: "Traceback ...\nNameError: x\n".into(),
        };
        assert_eq!(crashed.code(), "crashed");
        assert!(crashed.to_string().ends_with("NameError: x"), "{crashed}");
        assert_eq!(crashed.stderr(), Some("Traceback ...\nNameError: x\n"));
        assert_eq!(ProgramFailure::OutOfTime.stderr(), None);
    }

    #[test]
    fn a_long_stderr_keeps_its_last_lines() {
        let long: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        let tail = stderr_tail(long.as_bytes());
        assert!(tail.starts_with("…\nline "), "{}", &tail[..20]);
        assert!(tail.ends_with("line 1999"));
        assert!(tail.chars().count() <= MAX_STDERR_TAIL_CHARS + 2);
        assert_eq!(stderr_tail(b"oops\n"), "oops");
        assert_eq!(stderr_tail(&[0xff, b'a']), "\u{fffd}a");
    }
}
