//! A run of the built `gridarena` binary with its own environment and a time limit: for the tests where
//! a wrong answer is a hang, so a failure is a message rather than a test that never ends.
// Each test binary that includes this uses part of it.
#![allow(dead_code)]

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What a finished run left behind.
#[derive(Debug)]
pub struct Timed {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Starts `gridarena args...` with `env` added to its environment, stdin empty, output piped.
pub fn start(args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gridarena"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Waits at most `limit` for `child`; `None` (the child killed) when it did not end by then.
pub fn finish(mut child: Child, limit: Duration) -> Option<Timed> {
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                text = String::from_utf8_lossy(&bytes).into_owned();
            }
            text
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let status = status?;
    Some(Timed {
        code: status.code(),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// Runs `gridarena args...` with `env`, at most `limit`.
pub fn run(args: &[&str], env: &[(&str, &str)], limit: Duration) -> Option<Timed> {
    finish(start(args, env), limit)
}
