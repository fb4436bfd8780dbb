//! How a match reaches each side's player, as far as the rules care: how its requests are labelled and
//! when its move is given up on. The match decides these once for every host (the page's arena and
//! tournament, `gridarena halma match` and the CLI's tournament), so the same player is asked alike
//! wherever it plays; the host only carries the request (a Web Worker, an HTTP POST, a process).

use crate::halma::code::ClockSettings;
use crate::halma::ContentType;

/// One side's wire: how its requests are labelled (a web AI reads the `Content-Type`), and where its
/// game move is cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seat {
    pub content_type: ContentType,
    pub cut: Cut,
}

impl Seat {
    /// A player cut at the tick, its requests labelled `content_type`.
    pub fn at_the_tick(content_type: ContentType) -> Seat {
        Seat {
            content_type,
            cut: Cut::AtTheTick,
        }
    }
}

/// Where a side's game move is given up on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cut {
    /// At the end of the tick: its request says `timeLimitMs` = the tick, and the tick does not wait
    /// longer. Built-in AIs, web AIs and function-format code.
    #[default]
    AtTheTick,
    /// When its course clock says: course-format code and programs budget their own 300 s over a game,
    /// and the tick waits for their move.
    CourseClock,
}

impl Cut {
    /// The deadline of a move asked in a tick of `tick_ms`.
    pub fn deadline(self, tick_ms: u64) -> Deadline {
        match self {
            Cut::AtTheTick => Deadline::Millis(tick_ms),
            Cut::CourseClock => Deadline::CourseClock,
        }
    }
}

/// When a question to a player is given up on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// This many milliseconds after it is asked (in a game, the tick): an answer after it is
    /// `timed out`, and the tick does not wait for it.
    Millis(u64),
    /// When the entry's course clock says ([`crate::halma::code::CourseClock::deadline`]: its time left
    /// plus the grace). The host waits for its answer until then, however long the tick is; a move
    /// killed there has spent its clock.
    CourseClock,
}

impl Deadline {
    /// The longest this deadline can make a host wait, in milliseconds, with a course clock of
    /// `clock`: the milliseconds, or a whole clock plus its grace (the time left is never more).
    pub fn longest_ms(self, clock: ClockSettings) -> u64 {
        match self {
            Deadline::Millis(ms) => ms,
            Deadline::CourseClock => {
                let longest = clock.total.saturating_add(clock.grace);
                u64::try_from(longest.as_millis()).unwrap_or(u64::MAX)
            }
        }
    }

    /// A limit of the host's own for this question: the milliseconds, or `None` where the course clock
    /// alone decides (what a program player takes as its `limit`).
    pub fn limit(self) -> Option<core::time::Duration> {
        match self {
            Deadline::Millis(ms) => Some(core::time::Duration::from_millis(ms)),
            Deadline::CourseClock => None,
        }
    }

    /// Whether an answer `latency_ms` after asking came in time for a game move: within the
    /// milliseconds, or at all for a course clock (the clock charges it, and says when it is spent).
    pub fn in_time(self, latency_ms: u64) -> bool {
        match self {
            Deadline::Millis(ms) => latency_ms <= ms,
            Deadline::CourseClock => true,
        }
    }
}
