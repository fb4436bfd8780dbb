//! One move in the course's format: write `input.txt`, run the agent, read `output.txt`.

use super::cancel::Ticket;
use super::process::{Running, Wiring};
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
use std::time::Duration;

/// Runs `command` once in `dir` for the move `ask` (in `sandbox` for a code entry), killing it after
/// `deadline` or once `ticket` is cancelled.
pub(super) fn play(
    (command, sandbox): (&str, Option<&Sandbox>),
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
    let mut running = match Running::start_in(command, dir, Wiring::Files, sandbox) {
        Ok(started) => started.running,
        Err(why) => return moved.failed(ProgramFailure::NotStarted { why }),
    };
    let Some(exit) = running.wait_unless(deadline, ticket) else {
        running.kill();
        moved.stderr = stderr_tail(&running.stderr_since(0));
        return moved.failed(ProgramFailure::TimedOut {
            after_ms: millis(deadline),
        });
    };
    moved.answered = true;
    moved.cpu = Some(exit.cpu);
    // Whatever the agent left running is ended with its move.
    running.kill();
    moved.stderr = stderr_tail(&running.stderr_since(0));
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
