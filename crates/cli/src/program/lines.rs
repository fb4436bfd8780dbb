//! The line format: one process per game, a request per line on stdin, an answer per line on stdout.

use super::cancel::Ticket;
use super::process::{Line, Running, Started, Wiring};
use super::{exit_failure, millis, Moved};
use crate::code::sandbox::Sandbox;
use gridarena_engine::halma::program::stderr_tail;
use gridarena_engine::halma::protocol::parse_response;
use gridarena_engine::halma::{Answer, ProgramFailure};
use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// A running bot: its process, its stdin, and the lines it has written.
pub(super) struct Bot {
    running: Running,
    stdin: Sender<Vec<u8>>,
    lines: Receiver<Line>,
}

/// The most lines written between two moves that are dropped before a request: a program that writes
/// without end is not drained forever (its next line is then taken as its answer, and judged).
const MAX_STALE_LINES: usize = 1024;

/// Asks the game's bot (starting it when there is none, or the last one died) for the move `body`,
/// killing it after `deadline` or once `ticket` is cancelled.
pub(super) fn play(
    bot: &mut Option<Bot>,
    command: &str,
    sandbox: Option<&Sandbox>,
    dir: &Path,
    body: String,
    deadline: Duration,
    ticket: Ticket<'_>,
) -> Moved {
    let mut moved = Moved::asked(body);
    if bot.as_mut().is_some_and(|b| b.running.exited().is_some()) {
        // It ended after its last answer: this move gets a new one, which reads the whole state anyway.
        *bot = None;
    }
    let b = match bot {
        Some(b) => b,
        None => match Running::start_in(command, dir, Wiring::Lines, sandbox) {
            Ok(Started {
                running,
                stdin: Some(stdin),
                lines: Some(lines),
            }) => bot.insert(Bot {
                running,
                stdin,
                lines,
            }),
            Ok(_) => {
                let why = "its stdin and stdout could not be connected".to_string();
                return moved.failed(ProgramFailure::NotStarted { why });
            }
            Err(why) => return moved.failed(ProgramFailure::NotStarted { why }),
        },
    };
    // Lines it wrote between moves answer nothing that was asked: they are dropped, never taken as
    // this move's answer.
    for _ in 0..MAX_STALE_LINES {
        if b.lines.try_recv().is_err() {
            break;
        }
    }
    let mark = b.running.stderr_mark();
    let cpu_before = b.running.cpu_so_far();
    let start = Instant::now();
    let mut line = moved.request.clone().into_bytes();
    line.push(b'\n');
    let line = match b.stdin.send(line) {
        Ok(()) => answer(b, start + deadline, ticket),
        // The writer ended: its stdin is closed.
        Err(_) => Err(RecvTimeoutError::Disconnected),
    };
    let cpu = |b: &Bot| match (cpu_before, b.running.cpu_so_far()) {
        (Some(before), Some(after)) => Some(after.saturating_sub(before)),
        _ => None,
    };
    match line {
        Ok(Line::Text(bytes)) => {
            moved.answered = true;
            moved.cpu = cpu(b);
            moved.stderr = stderr_tail(&b.running.stderr_since(mark));
            moved.output = Some(String::from_utf8_lossy(&bytes).into_owned());
            moved.answer = Answer::from(parse_response(&bytes));
            moved
        }
        Ok(Line::TooLong { bytes }) => {
            moved.answered = true;
            moved.cpu = cpu(b);
            b.running.kill();
            moved.stderr = stderr_tail(&b.running.stderr_since(mark));
            *bot = None;
            moved.failed(ProgramFailure::TooLarge { bytes })
        }
        Err(RecvTimeoutError::Timeout) => {
            b.running.kill();
            moved.stderr = stderr_tail(&b.running.stderr_since(mark));
            *bot = None;
            moved.failed(ProgramFailure::TimedOut {
                after_ms: millis(deadline),
            })
        }
        Err(RecvTimeoutError::Disconnected) => {
            // Its stdout closed or its stdin broke: it exited, or is about to.
            let exit = b.running.wait_for(Duration::from_secs(1));
            b.running.kill();
            moved.answered = true;
            moved.cpu = cpu(b);
            moved.stderr = stderr_tail(&b.running.stderr_since(mark));
            let stderr = moved.stderr.clone();
            let failure = match exit {
                Some(exit) if !exit.success() => exit_failure(&exit, stderr),
                _ => ProgramFailure::NoOutput { stderr },
            };
            *bot = None;
            moved.failed(failure)
        }
    }
}

/// How often a wait for an answer checks that the request could be written at all, and its ticket.
const WRITE_CHECK: Duration = super::cancel::POLL;

/// The bot's next line, by `deadline`. A request that could not be written (the bot closed its stdin)
/// ends the wait at once, as its exit does, rather than at the deadline; a cancelled `ticket` ends it
/// as the deadline does (the bot is then killed).
fn answer(b: &Bot, deadline: Instant, ticket: Ticket<'_>) -> Result<Line, RecvTimeoutError> {
    loop {
        if ticket.cancelled() {
            return Err(RecvTimeoutError::Timeout);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match b.lines.recv_timeout(left.min(WRITE_CHECK)) {
            Err(RecvTimeoutError::Timeout) if !left.is_zero() => {
                // The writer thread is gone only when a write failed.
                if b.stdin.send(Vec::new()).is_err() {
                    return Err(RecvTimeoutError::Disconnected);
                }
            }
            other => return other,
        }
    }
}
