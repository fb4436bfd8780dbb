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
        self.try_send(command)
            .unwrap_or_else(|| panic!("{} closed its output after {command:?}", self.name))
    }

    /// [`Engine::send`], or `None` when the engine has exited (GNU Go 3.8 now and then dies of a
    /// segmentation fault in 19x19 games; a caller can start it again).
    pub fn try_send(&mut self, command: &str) -> Option<Result<String, String>> {
        writeln!(self.stdin, "{command}").ok()?;
        self.stdin.flush().ok()?;
        let mut response = String::new();
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .expect("the engine's stdout");
            if n == 0 {
                return None;
            }
            if line.trim().is_empty() && !response.is_empty() {
                break;
            }
            response.push_str(&line);
        }
        let response = response.trim_end().to_string();
        Some(match response.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(response),
        })
    }

    /// GNU Go's answer to `genmove`. GNU Go 3.8 now and then dies of a segmentation fault in 19x19
    /// games; then a new engine (from `restart`, told the game so far in `played`) is asked. Where it
    /// dies three times on the same position it passes instead, which is always legal, and the game
    /// goes on: the crash is GNU Go's own, and every move of the other side stays checked. `crashes`
    /// counts them over a game; more than 20 stop it.
    pub fn genmove_surviving_crashes(
        &mut self,
        genmove: &str,
        played: &[String],
        crashes: &mut u32,
        restart: impl Fn() -> Engine,
    ) -> String {
        for _ in 0..3 {
            if let Some(answer) = self.try_send(genmove) {
                return answer.unwrap_or_else(|e| panic!("{} refused {genmove}: {e}", self.name));
            }
            *crashes += 1;
            assert!(
                *crashes <= 20,
                "{} crashed {crashes} times in one game",
                self.name
            );
            eprintln!(
                "{} crashed after {} moves; starting it again",
                self.name,
                played.len()
            );
            *self = restart();
            for p in played {
                self.ok(p);
            }
        }
        eprintln!("{} keeps crashing here; it passes", self.name);
        "pass".to_string()
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
