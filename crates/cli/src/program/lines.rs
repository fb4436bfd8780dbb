//! The line format: one process per game, a request per line on stdin, an answer per line on stdout.

use super::process::{Line, Running, Started, Wiring};
use super::{exit_failure, millis, Moved};
use gridarena_engine::halma::program::stderr_tail;
use gridarena_engine::halma::protocol::parse_response;
use gridarena_engine::halma::{Answer, ProgramFailure};
use std::io::Write;
use std::path::Path;
use std::process::ChildStdin;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running bot: its process, its stdin, and the lines it has written.
pub(super) struct Bot {
    running: Running,
    stdin: ChildStdin,
    lines: Receiver<Line>,
}

/// Asks the game's bot (starting it when there is none, or the last one died) for the move `body`,
/// killing it after `deadline`.
pub(super) fn play(
    bot: &mut Option<Bot>,
    command: &str,
    dir: &Path,
    body: String,
    deadline: Duration,
) -> Moved {
    let mut moved = Moved::asked(body);
    let fail = Moved::failed;
    if bot.as_mut().is_some_and(|b| b.running.exited().is_some()) {
        // It ended after its last answer: this move gets a new one, which reads the whole state anyway.
        *bot = None;
    }
    let b = match bot {
        Some(b) => b,
        None => match Running::start(command, dir, Wiring::Lines) {
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
                return fail(moved, ProgramFailure::NotStarted { why });
            }
            Err(why) => return fail(moved, ProgramFailure::NotStarted { why }),
        },
    };
    // Lines it wrote between moves answer nothing that was asked: they are dropped, never taken as
    // this move's answer.
    while b.lines.try_recv().is_ok() {}
    let mark = b.running.stderr_mark();
    let cpu_before = b.running.cpu_so_far();
    let start = Instant::now();
    let sent = b
        .stdin
        .write_all(moved.request.as_bytes())
        .and_then(|()| b.stdin.write_all(b"\n"))
        .and_then(|()| b.stdin.flush());
    let line = match sent {
        Ok(()) => b
            .lines
            .recv_timeout(deadline.saturating_sub(start.elapsed())),
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
            fail(moved, ProgramFailure::TooLarge { bytes })
        }
        Err(RecvTimeoutError::Timeout) => {
            b.running.kill();
            moved.stderr = stderr_tail(&b.running.stderr_since(mark));
            *bot = None;
            fail(
                moved,
                ProgramFailure::TimedOut {
                    after_ms: millis(deadline),
                },
            )
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
            fail(moved, failure)
        }
    }
}
