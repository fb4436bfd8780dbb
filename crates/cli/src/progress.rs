//! The progress bar on stderr, for `halma match` and `halma tournament`: drawn only on a terminal, and
//! out of the way of result lines that share it.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    on: bool,
    /// Whether result lines land on the same terminal, so the bar must make way for them.
    stdout_terminal: bool,
    drawn: bool,
    last: Option<Instant>,
}

impl Progress {
    const WIDTH: u64 = 30;
    /// Redraws at most this often, so thousands of fast games do not flood the terminal.
    const EVERY: Duration = Duration::from_millis(50);

    /// A bar that is drawn when `wanted` and stderr is a terminal.
    pub fn new(wanted: bool) -> Progress {
        Progress {
            on: wanted && io::stderr().is_terminal(),
            stdout_terminal: io::stdout().is_terminal(),
            drawn: false,
            last: None,
        }
    }

    /// Draws `[####....] done/total tail`, unless it was drawn a moment ago or everything is done.
    pub fn draw(&mut self, done: u64, total: u64, tail: &str) {
        if !self.on || done >= total {
            return;
        }
        let now = Instant::now();
        if self.drawn && self.last.is_some_and(|t| now - t < Self::EVERY) {
            return;
        }
        self.last = Some(now);
        let filled = (done * Self::WIDTH / total.max(1)).min(Self::WIDTH) as usize;
        let bar = format!(
            "{}{}",
            "#".repeat(filled),
            ".".repeat(Self::WIDTH as usize - filled)
        );
        let _ = write!(io::stderr(), "\r\x1b[K[{bar}] {done}/{total} {tail}");
        self.drawn = true;
    }

    /// Wipes the bar before a result line when both go to the same terminal.
    pub fn clear_for_stdout(&mut self) {
        if self.stdout_terminal {
            self.clear();
        }
    }

    /// Wipes the bar, so that other output starts on a clean line.
    pub fn clear(&mut self) {
        if self.drawn {
            let _ = write!(io::stderr(), "\r\x1b[K");
            self.drawn = false;
        }
    }
}
