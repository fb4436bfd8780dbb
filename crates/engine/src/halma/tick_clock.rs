//! When a tick ends: the one rule every host's driver obeys, with no clock inside.
//!
//! A [`GameLoop`](super::GameLoop) says who is asked and what their answers do; this says how long the
//! host waits for them. The page's arena, its tournament and Compare, and the command line each used to
//! decide that in their own loop, and drifted (a course entry cut at the tick in one, run on its clock in
//! the other). Now a driver makes a [`TickClock`] when it sends a tick's requests, tells it each answer
//! as it arrives and each moment it wakes, and does what [`TickClock::next`] says: end the tick now, or
//! sleep until a given time unless an answer comes first. Time is passed in, in milliseconds since the
//! tick began, so every rule here is tested without waiting.
//!
//! - Each asked side has its own cut-off: the tick's length for most players, its own clock's deadline
//!   for a program or a course entry (whose time is its clock, not the tick). A side not in by its
//!   cut-off has no move ([`TickClock::cut_off`]); the host stops it.
//! - [`Pace::WaitOut`]: the tick lasts its length even when every answer is in (the arena's Run, a
//!   tournament tick with a web AI): every side had the same time, and the board moves at the pace set.
//! - [`Pace::Early`]: the tick ends as soon as every asked side has answered or been cut off, but not
//!   before `min_ms` (built-ins on the tournament's wall, Step, headless matches with 0).
//! - Either way a side still within its own cut-off is waited for: a course entry's long move holds the
//!   tick rather than lose its turn to the tick's length.

use super::{Team, Teams};

/// How long a tick lasts once its answers are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// It lasts its whole length.
    WaitOut,
    /// It ends once every side is in or cut off, and no sooner than `min_ms`.
    Early { min_ms: u64 },
}

/// Where one side of the tick stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Not asked this tick.
    Idle,
    /// Asked: waited for until `cut_ms` after the tick began, or, with `None`, until it answers (its
    /// own clock cuts it: a program player kills its move at its course clock's deadline).
    Waiting { cut_ms: Option<u64> },
    /// Its answer is in.
    Answered,
}

/// What the driver does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// End the tick now, with what has arrived.
    End,
    /// Sleep until `at_ms` after the tick began, or until the next answer, whichever comes first; then
    /// ask again.
    WakeAt { at_ms: u64 },
    /// Sleep until the next answer: a side with no cut-off of the host's is still out.
    Await,
}

/// The timing of one tick: its length, its pace, and each asked side's cut-off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TickClock {
    length_ms: u64,
    pace: Pace,
    sides: Teams<Side>,
}

impl TickClock {
    /// A tick of `length_ms` at `pace`, nobody asked yet.
    pub fn new(length_ms: u64, pace: Pace) -> TickClock {
        TickClock {
            length_ms,
            pace,
            sides: Teams::from_fn(|_| Side::Idle),
        }
    }

    /// The tick's length.
    pub fn length_ms(&self) -> u64 {
        self.length_ms
    }

    /// `team` is asked and waited for until the tick's length.
    pub fn ask(&mut self, team: Team) {
        self.ask_until(team, Some(self.length_ms));
    }

    /// `team` is asked and waited for until `cut_ms` after the tick began (its own clock's deadline,
    /// which may be shorter or longer than the tick), or with `None` until it answers: the player cuts
    /// itself on its own clock.
    pub fn ask_until(&mut self, team: Team, cut_ms: Option<u64>) {
        self.sides[team] = Side::Waiting { cut_ms };
    }

    /// `team`'s cut-off, while it is waited for and the host cuts it.
    pub fn cut_ms(&self, team: Team) -> Option<u64> {
        match self.sides[team] {
            Side::Waiting { cut_ms } => cut_ms,
            _ => None,
        }
    }

    /// `team`'s answer is in (an answer from a side not waited for changes nothing).
    pub fn answered(&mut self, team: Team) {
        if matches!(self.sides[team], Side::Waiting { .. }) {
            self.sides[team] = Side::Answered;
        }
    }

    /// From now on the tick ends as soon as its answers are in (Run switched off mid-tick, "skip to the
    /// end of the round"): the sides still waited for keep their cut-offs.
    pub fn hurry(&mut self) {
        self.pace = Pace::Early { min_ms: 0 };
    }

    /// The pace it is at now.
    pub fn pace(&self) -> Pace {
        self.pace
    }

    /// Whether `team` was asked and has neither answered nor been cut off at `elapsed_ms`.
    pub fn waiting(&self, team: Team, elapsed_ms: u64) -> bool {
        matches!(self.sides[team], Side::Waiting { cut_ms } if cut_ms.is_none_or(|c| elapsed_ms < c))
    }

    /// Whether `team` was asked and is past its cut-off at `elapsed_ms` with no answer: no move.
    pub fn cut_off(&self, team: Team, elapsed_ms: u64) -> bool {
        matches!(self.sides[team], Side::Waiting { cut_ms: Some(c) } if elapsed_ms >= c)
    }

    /// Whether any side is still waited for at `elapsed_ms`.
    pub fn awaiting(&self, elapsed_ms: u64) -> bool {
        Team::ALL.into_iter().any(|t| self.waiting(t, elapsed_ms))
    }

    /// What to do at `elapsed_ms` after the tick began.
    pub fn next(&self, elapsed_ms: u64) -> Next {
        let floor = match self.pace {
            Pace::WaitOut => self.length_ms,
            Pace::Early { min_ms } => min_ms,
        };
        let waited: Vec<Team> = Team::ALL
            .into_iter()
            .filter(|&t| self.waiting(t, elapsed_ms))
            .collect();
        if waited.iter().any(|&t| self.cut_ms(t).is_none()) {
            return Next::Await;
        }
        // The latest cut-off among the sides still waited for: an answer wakes the driver sooner.
        let last_cut = waited.iter().filter_map(|&t| self.cut_ms(t)).max();
        let at_ms = last_cut.map_or(floor, |cut| cut.max(floor));
        if elapsed_ms >= at_ms {
            Next::End
        } else {
            Next::WakeAt { at_ms }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_tick_lasts_its_length_though_both_answered_at_once() {
        let mut c = TickClock::new(1000, Pace::WaitOut);
        c.ask(Team::Red);
        c.ask(Team::Blue);
        assert_eq!(c.next(0), Next::WakeAt { at_ms: 1000 });
        c.answered(Team::Red);
        c.answered(Team::Blue);
        assert!(!c.awaiting(5));
        assert_eq!(c.next(5), Next::WakeAt { at_ms: 1000 });
        assert_eq!(c.next(1000), Next::End);
    }

    #[test]
    fn an_early_tick_ends_with_its_last_answer_but_not_before_its_pace() {
        let mut c = TickClock::new(1000, Pace::Early { min_ms: 80 });
        c.ask(Team::Red);
        c.ask(Team::Blue);
        c.answered(Team::Red);
        assert_eq!(c.next(3), Next::WakeAt { at_ms: 1000 });
        c.answered(Team::Blue);
        assert_eq!(c.next(4), Next::WakeAt { at_ms: 80 });
        assert_eq!(c.next(80), Next::End);
        let mut headless = TickClock::new(1000, Pace::Early { min_ms: 0 });
        headless.ask(Team::Blue);
        headless.answered(Team::Blue);
        assert_eq!(headless.next(0), Next::End);
    }

    #[test]
    fn a_side_that_never_answers_is_cut_off_at_its_deadline() {
        let mut c = TickClock::new(300, Pace::Early { min_ms: 0 });
        c.ask(Team::Red);
        c.ask(Team::Blue);
        c.answered(Team::Blue);
        assert!(c.waiting(Team::Red, 299));
        assert_eq!(c.next(299), Next::WakeAt { at_ms: 300 });
        assert_eq!(c.next(300), Next::End);
        assert!(c.cut_off(Team::Red, 300));
        assert!(!c.cut_off(Team::Blue, 300), "its answer is in");
    }

    #[test]
    fn a_course_entry_on_its_own_clock_holds_the_tick_past_its_length() {
        // A web AI cut at the 5 s tick, a course entry with 290 s left on its clock.
        let mut c = TickClock::new(5000, Pace::WaitOut);
        c.ask(Team::Red);
        c.ask_until(Team::Blue, Some(290_000));
        assert_eq!(c.next(5000), Next::WakeAt { at_ms: 290_000 });
        assert!(c.cut_off(Team::Red, 5000));
        assert!(c.waiting(Team::Blue, 5000));
        c.answered(Team::Blue);
        assert_eq!(
            c.next(7400),
            Next::End,
            "its 7.4 s move is in: the tick is over"
        );
        assert_eq!(c.next(290_000), Next::End);
    }

    #[test]
    fn a_short_own_deadline_does_not_shorten_a_waited_out_tick() {
        let mut c = TickClock::new(1000, Pace::WaitOut);
        c.ask_until(Team::Red, Some(200));
        assert_eq!(c.next(200), Next::WakeAt { at_ms: 1000 });
        assert!(c.cut_off(Team::Red, 200));
    }

    #[test]
    fn hurrying_ends_the_tick_once_its_answers_are_in() {
        let mut c = TickClock::new(1000, Pace::WaitOut);
        c.ask(Team::Red);
        c.hurry();
        assert_eq!(c.next(10), Next::WakeAt { at_ms: 1000 }, "red is still out");
        c.answered(Team::Red);
        assert_eq!(c.next(11), Next::End);
    }

    #[test]
    fn an_answer_from_a_side_not_asked_changes_nothing() {
        let mut c = TickClock::new(500, Pace::Early { min_ms: 0 });
        c.ask(Team::Red);
        c.answered(Team::Blue);
        assert!(c.awaiting(1));
        assert_eq!(c.next(1), Next::WakeAt { at_ms: 500 });
        assert_eq!(c.cut_ms(Team::Blue), None);
    }

    #[test]
    fn a_tick_nobody_is_asked_in_ends_at_its_pace() {
        // A person's turn alone in Step, or every mover already submitted.
        assert_eq!(
            TickClock::new(900, Pace::Early { min_ms: 0 }).next(0),
            Next::End
        );
        assert_eq!(
            TickClock::new(900, Pace::WaitOut).next(0),
            Next::WakeAt { at_ms: 900 }
        );
    }

    #[test]
    fn a_side_on_its_own_clock_is_awaited_without_a_cut_of_the_hosts() {
        let mut c = TickClock::new(200, Pace::Early { min_ms: 0 });
        c.ask(Team::Red);
        c.ask_until(Team::Blue, None);
        assert_eq!(c.cut_ms(Team::Blue), None);
        assert_eq!(c.next(10), Next::Await);
        c.answered(Team::Red);
        // Far past the tick, the program is still out: only its answer ends the tick.
        assert!(c.waiting(Team::Blue, 1_000_000) && !c.cut_off(Team::Blue, 1_000_000));
        assert_eq!(c.next(1_000_000), Next::Await);
        c.answered(Team::Blue);
        assert_eq!(c.next(1_000_001), Next::End);
    }
}
