//! A GTP engine in a child process, for the GTP tests and the GNU Go bench: one client, so both speak
//! to engines the same way.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Debian's GNU Go.
pub const GNUGO: &str = "/usr/games/gnugo";

/// A GTP engine in a child process; dropping it sends `quit` and waits for the process.
pub struct Engine {
    name: &'static str,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    pub fn start(name: &'static str, program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Engine {
            name,
            child,
            stdin,
            stdout,
        }
    }

    /// GNU Go at `level`, under GridArena's rules (area scoring, positional superko, no suicide).
    /// Panics, saying how to install it, when it is missing: a skipped check would hide a lost one.
    pub fn gnugo(level: u8) -> Engine {
        assert!(
            std::path::Path::new(GNUGO).exists(),
            "GNU Go is missing ({GNUGO}): run scripts/setup.sh --browser to install it"
        );
        let level = level.to_string();
        Engine::start(
            "GNU Go",
            GNUGO,
            &[
                "--mode",
                "gtp",
                "--chinese-rules",
                "--positional-superko",
                "--forbid-suicide",
                "--level",
                &level,
            ],
        )
    }

    /// Sends one command; `Ok(text)` for `=`, `Err(text)` for `?`.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").expect("the engine's stdin");
        self.stdin.flush().expect("the engine's stdin");
        let mut response = String::new();
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .expect("the engine's stdout");
            assert!(n > 0, "{} closed its output after {command:?}", self.name);
            if line.trim().is_empty() && !response.is_empty() {
                break;
            }
            response.push_str(&line);
        }
        let response = response.trim_end().to_string();
        match response.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(response),
        }
    }

    /// Sends one command that must succeed, and returns its text.
    pub fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("{} refused {command:?}: {e}", self.name))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}
