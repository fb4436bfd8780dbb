//! One move in the course's format: write `input.txt`, run the agent, read `output.txt`.
//!
//! A program runs as a process of its own at each move. A Python code entry's script runs in a warm
//! interpreter instead ([`Warm`]): one per entry and game, started in the same sandbox and game folder,
//! which forks a fresh child for each move that runs the script as `python3 MAIN` would (a fresh
//! `__main__`, nothing imported by the last move, `input.txt` in, `output.txt` out, the side files kept),
//! so a move no longer pays an interpreter's start (code/warm.py says how).

use super::cancel::{Ticket, POLL};
use super::process::{Exit, Line, Running, Started, Wiring};
use super::workdir::write_new;
use super::{exit_failure, millis, Ask, Moved};
use crate::code::sandbox::Sandbox;
use crate::io::{read_capped, CapError, Source};
use gridarena_engine::halma::course::{input_txt, parse_output, Occasion};
use gridarena_engine::halma::program::stderr_tail;
use gridarena_engine::halma::{Answer, ProgramFailure, MAX_RESPONSE_BYTES};
use std::fs;
use std::io::ErrorKind;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long a warm interpreter may take to start (it imports nothing of the student's): as the
/// function runner's start, it is not charged to the move.
pub const WARM_START_LIMIT: Duration = Duration::from_secs(20);
/// How long, once a move has ended, its last stderr may take to reach gridarena's reader.
const STDERR_SETTLE: Duration = Duration::from_secs(1);

/// A course code entry's warm interpreter for one game: its process (the sandbox's, its group killed
/// with it), the channel it reports each move's end on, and the stderr they share.
pub(super) struct Warm {
    running: Running,
    stdin: Sender<Vec<u8>>,
    lines: Receiver<Line>,
}

/// How a move's script is run: a process of its own (`command` under `sh -c`), or a fork of the game's
/// warm interpreter (`warm`, started with its command when there is none).
pub(super) struct Runner<'a> {
    pub command: &'a str,
    pub sandbox: Option<&'a Sandbox>,
    pub warm: Option<(&'a str, &'a mut Option<Box<Warm>>)>,
}

/// How the script's run ended.
enum Ran {
    Exited(Exit),
    /// Killed at its deadline or on a cancel.
    Killed,
    NotStarted(String),
}

/// Runs the agent once in `dir` for the move `ask` (in `sandbox` for a code entry), killing it after
/// `deadline` or once `ticket` is cancelled.
pub(super) fn play(
    runner: Runner<'_>,
    dir: &Path,
    ask: &Ask<'_>,
    time_left: Duration,
    occasion: Occasion,
    deadline: Duration,
    ticket: Ticket<'_>,
) -> Moved {
    let mut moved = Moved::asked(String::new());
    let input = match input_txt(ask.game, ask.team, time_left.as_secs_f64(), occasion) {
        Ok(text) => text,
        Err(e) => return moved.failed(ProgramFailure::NotStarted { why: e.to_string() }),
    };
    moved.request.clone_from(&input);
    let output_path = dir.join("output.txt");
    // A stale answer is never read twice.
    match fs::remove_file(&output_path) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => {
            let why = format!("the old output.txt could not be removed: {e}");
            return moved.failed(ProgramFailure::NotStarted { why });
        }
    }
    if let Err(e) = write_new(&dir.join("input.txt"), &input) {
        let why = format!("input.txt could not be written: {e}");
        return moved.failed(ProgramFailure::NotStarted { why });
    }
    let (ran, stderr) = match runner.warm {
        Some((command, warm)) => {
            let (ran, stderr, setup) =
                run_warm(warm, (command, runner.sandbox), dir, deadline, ticket);
            moved.setup = setup;
            (ran, stderr)
        }
        None => run_once(runner.command, runner.sandbox, dir, deadline, ticket),
    };
    moved.stderr = stderr;
    let exit = match ran {
        Ran::Exited(exit) => exit,
        Ran::Killed => {
            return moved.failed(ProgramFailure::TimedOut {
                after_ms: millis(deadline),
            })
        }
        Ran::NotStarted(why) => return moved.failed(ProgramFailure::NotStarted { why }),
    };
    moved.answered = true;
    moved.cpu = Some(exit.cpu);
    if !exit.success() {
        let failure = exit_failure(&exit, moved.stderr.clone());
        return moved.failed(failure);
    }
    let bytes = match read_capped(
        Source::RegularFile(&output_path),
        "output.txt",
        MAX_RESPONSE_BYTES,
    ) {
        Ok(bytes) => bytes,
        Err(CapError::Unreadable { error, .. }) if error.kind() == ErrorKind::NotFound => {
            let stderr = moved.stderr.clone();
            return moved.failed(ProgramFailure::NoOutput { stderr });
        }
        Err(CapError::TooLarge { size, .. }) => {
            let bytes = usize::try_from(size).unwrap_or(usize::MAX);
            return moved.failed(ProgramFailure::TooLarge { bytes });
        }
        // "output.txt could not be read: it is not a regular file (a FIFO)"
        Err(unreadable) => {
            let why = unreadable.to_string();
            let stderr = moved.stderr.clone();
            return moved.failed(ProgramFailure::Malformed { why, stderr });
        }
    };
    moved.output = Some(String::from_utf8_lossy(&bytes).into_owned());
    match parse_output(&bytes) {
        Ok(path) => moved.answer = Answer::Move(path),
        Err(e) => {
            let stderr = moved.stderr.clone();
            return moved.failed(ProgramFailure::Malformed {
                why: e.to_string(),
                stderr,
            });
        }
    }
    moved
}

/// Runs `command` as a process of its own in `dir`; returns how it ended and its stderr's tail.
fn run_once(
    command: &str,
    sandbox: Option<&Sandbox>,
    dir: &Path,
    deadline: Duration,
    ticket: Ticket<'_>,
) -> (Ran, String) {
    let mut running = match Running::start_in(command, dir, Wiring::Files, sandbox) {
        Ok(started) => started.running,
        Err(why) => return (Ran::NotStarted(why), String::new()),
    };
    let exit = running.wait_unless(deadline, ticket);
    // Whatever the agent left running is ended with its move.
    running.kill();
    let stderr = stderr_tail(&running.stderr_since(0));
    (exit.map_or(Ran::Killed, Ran::Exited), stderr)
}

/// Runs the script in a child of the game's warm interpreter, starting one first where there is none
/// (the last was killed, or this is the game's first move); returns how it ended, its stderr's tail,
/// and how long the start took (not the move's time). At the deadline or on a cancel the whole
/// interpreter is killed with its child, and the next move starts a fresh one.
fn run_warm(
    warm: &mut Option<Box<Warm>>,
    (command, sandbox): (&str, Option<&Sandbox>),
    dir: &Path,
    deadline: Duration,
    ticket: Ticket<'_>,
) -> (Ran, String, Duration) {
    let started = Instant::now();
    if warm.as_mut().is_some_and(|w| w.running.exited().is_some()) {
        *warm = None;
    }
    let w = match warm {
        Some(w) => w,
        None => match start_warm(command, sandbox, dir, ticket) {
            Ok(w) => warm.insert(Box::new(w)),
            Err(why) => return (Ran::NotStarted(why), String::new(), started.elapsed()),
        },
    };
    let setup = started.elapsed();
    let mark = w.running.stderr_mark();
    let nonce = nonce();
    // The nonce goes with the request, but the interpreter reads it only once the move's child has
    // ended: the child, a copy of it, never knows it, so cannot end its own stderr early.
    let request = format!("run\n{nonce}\n").into_bytes();
    let heard = match w.stdin.send(request) {
        Ok(()) => wait_line(&w.lines, Instant::now() + deadline, ticket),
        Err(_) => Err(RecvTimeoutError::Disconnected),
    };
    let ran = match heard {
        Ok(Line::Text(line)) => match read_report(&line) {
            Some(exit) => {
                let marker = format!("\u{1}gridarena:{nonce}\u{1}");
                match w
                    .running
                    .stderr_until(mark, marker.as_bytes(), STDERR_SETTLE)
                {
                    Some(stderr) => return (Ran::Exited(exit), stderr_tail(&stderr), setup),
                    // Its stderr did not come through: as a move it could not report.
                    None => Ran::NotStarted(
                        "its interpreter's stderr did not come through; the next move starts a \
                         fresh interpreter"
                            .to_string(),
                    ),
                }
            }
            None => Ran::NotStarted(format!(
                "its interpreter said something unreadable ({:?}); the next move starts a fresh one",
                String::from_utf8_lossy(&line)
            )),
        },
        Ok(Line::TooLong { .. }) => Ran::NotStarted(
            "its interpreter said something unreadable; the next move starts a fresh one"
                .to_string(),
        ),
        Err(RecvTimeoutError::Timeout) => Ran::Killed,
        Err(RecvTimeoutError::Disconnected) => {
            // The interpreter itself ended in the middle of a move (killed for its folder's quota, or
            // by the script where no PID namespace keeps it out of reach): the move ends as it did.
            match w.running.wait_for(Duration::from_secs(1)) {
                Some(exit) => Ran::Exited(exit),
                None => Ran::NotStarted("its interpreter stopped answering".to_string()),
            }
        }
    };
    // Anything but a reported end: the interpreter and whatever its child left go together.
    w.running.kill();
    let stderr = stderr_tail(&w.running.stderr_since(mark));
    *warm = None;
    (ran, stderr, setup)
}

/// Starts a warm interpreter with `command` in `dir` and waits for it to say it is ready.
fn start_warm(
    command: &str,
    sandbox: Option<&Sandbox>,
    dir: &Path,
    ticket: Ticket<'_>,
) -> Result<Warm, String> {
    let Started {
        running,
        stdin,
        lines,
    } = Running::start_in(command, dir, Wiring::Lines, sandbox)?;
    let (Some(stdin), Some(lines)) = (stdin, lines) else {
        return Err("its interpreter's stdin and stdout could not be connected".to_string());
    };
    let mut warm = Warm {
        running,
        stdin,
        lines,
    };
    match wait_line(&warm.lines, Instant::now() + WARM_START_LIMIT, ticket) {
        Ok(Line::Text(line)) if line == b"ready" => Ok(warm),
        heard => {
            warm.running.kill();
            let stderr = stderr_tail(&warm.running.stderr_since(0));
            let why = match heard {
                Err(RecvTimeoutError::Timeout) if ticket.cancelled() => {
                    "its interpreter's start was cancelled".to_string()
                }
                Err(RecvTimeoutError::Timeout) => format!(
                    "its interpreter was not ready within {} s",
                    WARM_START_LIMIT.as_secs()
                ),
                _ => "its interpreter did not start".to_string(),
            };
            Err(if stderr.is_empty() {
                why
            } else {
                format!("{why}: {stderr}")
            })
        }
    }
}

/// The next line by `deadline`; a cancelled `ticket` ends the wait as the deadline does.
fn wait_line(
    lines: &Receiver<Line>,
    deadline: Instant,
    ticket: Ticket<'_>,
) -> Result<Line, RecvTimeoutError> {
    loop {
        if ticket.cancelled() {
            return Err(RecvTimeoutError::Timeout);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left.min(POLL)) {
            Err(RecvTimeoutError::Timeout) if !left.is_zero() => {}
            other => return other,
        }
    }
}

/// A move's end as the warm interpreter reports it: `STATUS CPU_MICROSECONDS`.
fn read_report(line: &[u8]) -> Option<Exit> {
    let text = std::str::from_utf8(line).ok()?;
    let (status, cpu) = text.trim().split_once(' ')?;
    Some(Exit::reported(
        status.parse().ok()?,
        Duration::from_micros(cpu.parse().ok()?),
    ))
}

/// A word no move's stderr holds by chance, nor by the script's guess: 128 random bits from the
/// kernel (the time, this process and a count where it has none to give).
fn nonce() -> String {
    let mut bytes = [0u8; 16];
    // SAFETY: getrandom writes at most `bytes.len()` bytes into the buffer it is given.
    let got = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    if got == bytes.len() as isize {
        return bytes.iter().map(|b| format!("{b:02x}")).collect();
    }
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{nanos:x}-{:x}-{count:x}", std::process::id())
}
