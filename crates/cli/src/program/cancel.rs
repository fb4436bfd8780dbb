//! A move stopped from another thread: the bridge's "new game" for a game whose move is still running.
//!
//! The thread that runs a move owns its process, so it is the one that kills it: it watches a
//! [`Ticket`] while it waits and, once the ticket is cancelled, kills the program's group as it would
//! at a deadline. No other thread ever signals a group it does not own, so a cancel can never reach a
//! group whose leader was reaped and whose id was given to someone else.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How often a waiting move looks at its ticket: a cancelled move ends within about this long.
pub(super) const POLL: Duration = Duration::from_millis(50);

/// A player's cancels, counted: each one cancels every move asked before it.
#[derive(Debug, Default)]
pub(super) struct Cancels(AtomicU64);

impl Cancels {
    /// Cancels every move asked so far; the moves asked later run.
    pub(super) fn cancel(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// The ticket of a move asked now.
    pub(super) fn ticket(&self) -> Ticket<'_> {
        Ticket {
            cancels: self,
            seen: self.0.load(Ordering::SeqCst),
        }
    }
}

/// One move's view of its player's cancels.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ticket<'a> {
    cancels: &'a Cancels,
    seen: u64,
}

impl Ticket<'_> {
    /// Whether the move was cancelled since it was asked.
    pub(super) fn cancelled(&self) -> bool {
        self.cancels.0.load(Ordering::SeqCst) != self.seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_reaches_the_moves_asked_before_it_only() {
        let cancels = Cancels::default();
        let before = cancels.ticket();
        assert!(!before.cancelled());
        cancels.cancel();
        assert!(before.cancelled());
        assert!(!cancels.ticket().cancelled(), "a later move runs");
    }
}
