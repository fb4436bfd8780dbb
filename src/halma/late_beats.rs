//! Whether Run's beats keep time, plain Rust tested natively: a beat that comes late puts up a note
//! (why, and by how much), and the note comes down only after enough on-time beats in a row, so it stays
//! long enough to be read and one hiccup does not leave it up for the rest of the game.

use super::beat::{late_note, ON_TIME_TO_CLEAR};

/// What a beat does to the late note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LateNote {
    /// It stays as it is.
    Keep,
    /// It says this.
    Show(String),
    /// It comes down.
    Clear,
}

/// The time of the last beat and the on-time beats since the last late one.
#[derive(Clone, Debug)]
pub struct LateBeats {
    tick_ms: u32,
    previous_ms: f64,
    on_time: u32,
}

impl LateBeats {
    /// Beats every `tick_ms`, started at `now_ms`.
    pub fn new(tick_ms: u32, now_ms: f64) -> LateBeats {
        LateBeats {
            tick_ms,
            previous_ms: now_ms,
            on_time: 0,
        }
    }

    /// A beat at `now_ms`, the tab `hidden` or not.
    pub fn beat(&mut self, now_ms: f64, hidden: bool) -> LateNote {
        let gap = now_ms - self.previous_ms;
        self.previous_ms = now_ms;
        if let Some(note) = late_note(gap, self.tick_ms, hidden) {
            self.on_time = 0;
            return LateNote::Show(note);
        }
        self.on_time += 1;
        if self.on_time == ON_TIME_TO_CLEAR {
            LateNote::Clear
        } else {
            LateNote::Keep
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_beat_shows_a_note_that_stays_until_enough_on_time_beats() {
        let mut beats = LateBeats::new(1000, 0.0);
        assert_eq!(beats.beat(1000.0, false), LateNote::Keep);
        let LateNote::Show(note) = beats.beat(4000.0, true) else {
            panic!("a 3 s gap is late");
        };
        assert!(note.contains("3000 ms instead of 1000"), "{note}");
        let mut now = 4000.0;
        for _ in 1..ON_TIME_TO_CLEAR {
            now += 1000.0;
            assert_eq!(beats.beat(now, false), LateNote::Keep);
        }
        assert_eq!(beats.beat(now + 1000.0, false), LateNote::Clear);
        // Only once: later on-time beats leave the (already cleared) note alone.
        assert_eq!(beats.beat(now + 2000.0, false), LateNote::Keep);
    }

    #[test]
    fn a_late_beat_starts_the_count_again() {
        let mut beats = LateBeats::new(500, 0.0);
        let mut now = 0.0;
        for _ in 0..ON_TIME_TO_CLEAR - 1 {
            now += 500.0;
            beats.beat(now, false);
        }
        now += 2000.0;
        assert!(matches!(beats.beat(now, false), LateNote::Show(_)));
        now += 500.0;
        assert_eq!(beats.beat(now, false), LateNote::Keep);
    }
}
