//! One run of the built `gridarena` binary, for the end-to-end tests: stdin fed on a writer thread,
//! stdout and stderr collected, and what every run must satisfy checked (an exit status, no signal, no
//! panic).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;

/// What a finished run of the binary left behind.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `gridarena args...` with `stdin`, in `dir` when given (else the test's working directory).
/// Panics when the binary dies of a signal or panics.
pub fn run(args: &[&str], stdin: impl Into<Vec<u8>>, dir: Option<&Path>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gridarena"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().expect("the binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.into();
    // A writer thread: large inputs would otherwise deadlock against a full stdout pipe. The binary may
    // stop reading early (a size cap, quit, a won game), so a failed write is expected, not an error.
    let writer = thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary runs");
    writer.join().expect("the writer thread finishes");
    let run = Run {
        code: out
            .status
            .code()
            .expect("the binary exits with a status, not a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "gridarena {args:?} panicked: {run:?}"
    );
    run
}
