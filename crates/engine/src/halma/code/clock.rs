//! The course clock: a code or program player's play time for one game, and what is left of it.
//!
//! The CLI runs a program with the machine's processes and the page runs code in a Web Worker, but a
//! student's AI must run out of time by the same rules in both, so the rules live here, with no clock
//! source and no I/O (like [`game_loop`](crate::halma::game_loop)): the host measures each move and
//! [`charge`](CourseClock::charge)s what it measured.
//!
//! - A game has [`ClockSettings::total`] of play time. Each move is charged its CPU time where the host
//!   can measure it (the CLI, where the system reports it), else its wall time (the page, or a system
//!   without CPU times); [`Measured`] says which.
//! - The wall time of a game's moves is capped too, at [`ClockSettings::wall_factor`] times the clock:
//!   CPU time misses what a program waits for, and the work of a process it detached.
//! - A move may run its time left plus [`ClockSettings::grace`]
//!   ([`deadline`](CourseClock::deadline)); a move killed at that deadline has used all of its clock.
//!   A move cut sooner (a shorter limit of the host's, a cancel) is charged what it used.
//! - Once [`spent`](CourseClock::spent), the player is out of time: the host answers `out_of_time`
//!   without asking (and the CLI also for an answer that came after the clock ran out).
//! - `input.txt` says the time left and the [`Occasion`] ([`occasion`](CourseClock::occasion)): the
//!   first move of a game, a later one, or a single move asked outside a game.

use crate::halma::course::Occasion;
use core::time::Duration;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The course's play time for one game.
pub const DEFAULT_CLOCK: Duration = Duration::from_secs(300);

/// A game's moves may take this many times the clock in wall time. CPU time misses the work of a process
/// the program detached (nobody waits for it) and a program that waits rather than computes spends
/// none, so without a cap on wall time such a program would never run out; three times leaves a fair
/// program room on a busy machine.
pub const WALL_FACTOR: u32 = 3;

/// The default grace after the time left before a move is killed: a move that overruns by a little
/// (a slow start of the interpreter on a busy machine) still has its answer read, and is charged it.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(10);

/// How a move's time was measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Measured {
    /// CPU time (user and system) of the program's processes.
    #[default]
    Cpu,
    /// Wall time, where the host could not measure CPU time (or the wall cap was reached).
    Wall,
}

impl fmt::Display for Measured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Measured::Cpu => "CPU time",
            Measured::Wall => "wall time",
        })
    }
}

/// The shortest play time or grace a tournament's settings take: a millisecond, as `--clock` and
/// `--grace` take it.
pub const MIN_CLOCK_MS: u64 = 1;
/// The longest play time or grace a tournament's settings take: a day, as `--clock` and `--grace` take
/// it. A longer clock is a typing slip, and would hold a game up for days.
pub const MAX_CLOCK_MS: u64 = 86_400_000;

/// A clock's settings, the same for every game.
///
/// A tournament keeps them in its settings, so that its bundle plays the same clock wherever it is
/// resumed: serialized as `{"totalMs": 300000, "graceMs": 10000}`, whole milliseconds, either missing
/// read as the course's. The wall factor is not stored: it is always [`WALL_FACTOR`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClockSettings {
    /// Play time per game.
    #[serde(rename = "totalMs", with = "millis")]
    pub total: Duration,
    /// How long past its time left a move may run before it is killed.
    #[serde(rename = "graceMs", with = "millis")]
    pub grace: Duration,
    /// The wall time of a game's moves is capped at this many times `total`.
    #[serde(skip)]
    pub wall_factor: u32,
}

impl ClockSettings {
    /// The clock a tournament's settings hold: `total` and `grace` in whole milliseconds, which is
    /// how its bundle stores them, so a resumed tournament plays the very same clock.
    pub fn from_millis(total_ms: u64, grace_ms: u64) -> ClockSettings {
        ClockSettings {
            total: Duration::from_millis(total_ms),
            grace: Duration::from_millis(grace_ms),
            wall_factor: WALL_FACTOR,
        }
    }
}

/// A [`Duration`] as whole milliseconds (sub-millisecond parts dropped).
mod millis {
    use core::time::Duration;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}

impl Default for ClockSettings {
    /// The course's: [`DEFAULT_CLOCK`], [`DEFAULT_GRACE`], [`WALL_FACTOR`].
    fn default() -> ClockSettings {
        ClockSettings {
            total: DEFAULT_CLOCK,
            grace: DEFAULT_GRACE,
            wall_factor: WALL_FACTOR,
        }
    }
}

/// When a move is killed, counted from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub after: Duration,
    /// Whether it is the clock's own deadline (time left plus grace), rather than the host's shorter
    /// limit: a move killed at the clock's own has used all of its clock.
    pub own: bool,
}

/// What one move came to, as the host measured it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charge {
    /// The move's CPU time, where the host measured it; else its wall time is charged.
    pub cpu: Option<Duration>,
    /// The move's wall time, from asking to its answer (or kill, or cancel).
    pub wall: Duration,
    /// Whether the move was killed at the clock's own deadline ([`Deadline::own`]), not cut sooner
    /// by a shorter limit or a cancel: it then used all of the clock.
    pub killed_at_clock_deadline: bool,
}

/// One player's clock: its settings and the current (or last) game's use of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourseClock {
    settings: ClockSettings,
    used: Duration,
    /// The wall time of the game's moves so far.
    wall: Duration,
    /// How the last charged move was measured.
    measured: Measured,
    /// Moves charged this game.
    moves: u32,
}

impl Default for CourseClock {
    fn default() -> CourseClock {
        CourseClock::new(ClockSettings::default())
    }
}

impl CourseClock {
    /// A full clock with `settings`.
    pub fn new(settings: ClockSettings) -> CourseClock {
        CourseClock {
            settings,
            used: Duration::ZERO,
            wall: Duration::ZERO,
            measured: Measured::default(),
            moves: 0,
        }
    }

    /// A new game: a full clock, and its next move is the game's first.
    pub fn new_game(&mut self) {
        *self = CourseClock::new(self.settings);
    }

    pub fn settings(&self) -> ClockSettings {
        self.settings
    }

    /// The play time per game.
    pub fn total(&self) -> Duration {
        self.settings.total
    }

    /// The play time used this game, at most the total (for display).
    pub fn used(&self) -> Duration {
        self.used.min(self.settings.total)
    }

    /// How the last charged move was measured.
    pub fn measured(&self) -> Measured {
        self.measured
    }

    /// The moves charged this game.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    fn wall_total(&self) -> Duration {
        self.settings
            .total
            .checked_mul(self.settings.wall_factor)
            .unwrap_or(Duration::MAX)
    }

    /// What is left of the clock: the lesser of the play time left and the wall time left.
    pub fn time_left(&self) -> Duration {
        let play = self.settings.total.saturating_sub(self.used);
        play.min(self.wall_total().saturating_sub(self.wall))
    }

    /// Whether the clock is spent: the player is out of time for the rest of the game.
    pub fn spent(&self) -> bool {
        self.time_left().is_zero()
    }

    /// What the next move is, for `input.txt`: `single` is a move asked outside a game (the roll call).
    pub fn occasion(&self, single: bool) -> Occasion {
        match (single, self.moves) {
            (true, _) => Occasion::Single,
            (false, 0) => Occasion::FirstMove,
            _ => Occasion::LaterMove,
        }
    }

    /// When the next move is killed: at its time left plus the grace, or at the host's `limit` for this
    /// move where that is sooner.
    pub fn deadline(&self, limit: Option<Duration>) -> Deadline {
        let own = self.time_left().saturating_add(self.settings.grace);
        match limit {
            Some(limit) if limit < own => Deadline {
                after: limit,
                own: false,
            },
            _ => Deadline {
                after: own,
                own: true,
            },
        }
    }

    /// Charges a move: its CPU time where measured, else its wall time. A game whose moves' wall time
    /// reaches the cap, or a move killed at the clock's own deadline, spends the whole clock.
    pub fn charge(&mut self, charge: Charge) {
        let (charged, measured) = match charge.cpu {
            Some(cpu) => (cpu, Measured::Cpu),
            None => (charge.wall, Measured::Wall),
        };
        self.moves = self.moves.saturating_add(1);
        self.used = self.used.saturating_add(charged);
        self.wall = self.wall.saturating_add(charge.wall);
        self.measured = measured;
        if self.wall >= self.wall_total() {
            // Its wall time is spent, and with it its clock.
            self.used = self.used.max(self.settings.total);
            self.measured = Measured::Wall;
        }
        if charge.killed_at_clock_deadline {
            // It ran past all of its time left and the grace.
            self.used = self.used.max(self.settings.total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    fn clock(total: u64, grace: u64, wall_factor: u32) -> CourseClock {
        CourseClock::new(ClockSettings {
            total: S(total),
            grace: S(grace),
            wall_factor,
        })
    }

    fn cpu(cpu: u64, wall: u64) -> Charge {
        Charge {
            cpu: Some(S(cpu)),
            wall: S(wall),
            killed_at_clock_deadline: false,
        }
    }

    #[test]
    fn the_defaults_are_the_courses() {
        let c = CourseClock::default();
        assert_eq!(c.total(), S(300));
        assert_eq!(c.settings().grace, S(10));
        assert_eq!(c.settings().wall_factor, 3);
        assert_eq!(c.time_left(), S(300));
        assert_eq!(c.used(), Duration::ZERO);
        assert!(!c.spent());
    }

    #[test]
    fn cpu_time_is_charged_where_measured_else_wall_time() {
        let mut c = clock(100, 10, 3);
        c.charge(cpu(4, 9));
        assert_eq!((c.used(), c.measured()), (S(4), Measured::Cpu));
        assert_eq!(c.time_left(), S(96));
        c.charge(Charge {
            cpu: None,
            wall: S(6),
            killed_at_clock_deadline: false,
        });
        assert_eq!((c.used(), c.measured()), (S(10), Measured::Wall));
        assert_eq!(c.time_left(), S(90));
        assert_eq!(Measured::Cpu.to_string(), "CPU time");
        assert_eq!(Measured::Wall.to_string(), "wall time");
    }

    #[test]
    fn a_spent_clock_stays_spent_and_used_shows_at_most_the_total() {
        let mut c = clock(10, 1, 3);
        c.charge(cpu(9, 9));
        assert!(!c.spent());
        c.charge(cpu(3, 3));
        assert!(c.spent());
        assert_eq!(c.time_left(), Duration::ZERO);
        assert_eq!(c.used(), S(10));
        c.charge(cpu(0, 0));
        assert!(c.spent());
    }

    #[test]
    fn wall_time_left_bounds_the_time_left_and_its_cap_spends_the_clock() {
        let mut c = clock(10, 1, 3);
        // Little CPU time, much waiting: the wall time left (30 - 25) is the lesser.
        c.charge(cpu(1, 25));
        assert_eq!(c.time_left(), S(5));
        assert_eq!(c.measured(), Measured::Cpu);
        assert!(!c.spent());
        c.charge(cpu(1, 5));
        assert!(c.spent());
        assert_eq!(c.used(), S(10));
        assert_eq!(c.measured(), Measured::Wall, "the cap is wall time's");
    }

    #[test]
    fn the_deadline_is_the_time_left_plus_grace_unless_the_limit_is_sooner() {
        let mut c = clock(100, 10, 3);
        c.charge(cpu(40, 40));
        let own = Deadline {
            after: S(70),
            own: true,
        };
        assert_eq!(c.deadline(None), own);
        assert_eq!(c.deadline(Some(S(70))), own, "a tie is the clock's own");
        assert_eq!(c.deadline(Some(S(500))), own);
        assert_eq!(
            c.deadline(Some(Duration::from_millis(1))),
            Deadline {
                after: Duration::from_millis(1),
                own: false,
            }
        );
        // A spent clock still gives the grace (though the hosts refuse to ask).
        c.charge(cpu(60, 60));
        assert_eq!(c.deadline(None).after, S(10));
    }

    #[test]
    fn a_kill_at_the_clocks_deadline_spends_it_and_a_kill_at_a_shorter_limit_charges_what_it_used()
    {
        let mut cut = clock(100, 10, 3);
        // Killed at a host's limit of 2 s: charged its 2 s, not the clock.
        let deadline = cut.deadline(Some(S(2)));
        cut.charge(Charge {
            cpu: Some(S(2)),
            wall: deadline.after,
            killed_at_clock_deadline: deadline.own,
        });
        assert_eq!(cut.used(), S(2));
        assert!(!cut.spent());

        let mut killed = clock(100, 10, 3);
        // Killed at 110 s having used little CPU (it slept): all of the clock is gone all the same.
        let deadline = killed.deadline(None);
        killed.charge(Charge {
            cpu: Some(S(1)),
            wall: deadline.after,
            killed_at_clock_deadline: deadline.own,
        });
        assert_eq!(killed.used(), S(100));
        assert!(killed.spent());
    }

    #[test]
    fn occasions_go_first_move_then_later_moves_and_single_whenever_asked() {
        let mut c = clock(100, 10, 3);
        assert_eq!(c.occasion(true), Occasion::Single);
        assert_eq!(c.occasion(false), Occasion::FirstMove);
        c.charge(cpu(1, 1));
        assert_eq!(c.moves(), 1);
        assert_eq!(c.occasion(false), Occasion::LaterMove);
        assert_eq!(c.occasion(true), Occasion::Single);
        c.charge(cpu(1, 1));
        assert_eq!(c.occasion(false), Occasion::LaterMove);
    }

    #[test]
    fn a_new_game_has_a_full_clock_and_a_first_move_with_the_same_settings() {
        let mut c = clock(10, 2, 4);
        c.charge(Charge {
            cpu: None,
            wall: S(50),
            killed_at_clock_deadline: true,
        });
        assert!(c.spent());
        c.new_game();
        assert_eq!(c, clock(10, 2, 4));
        assert_eq!(c.time_left(), S(10));
        assert_eq!(c.occasion(false), Occasion::FirstMove);
        assert_eq!(c.measured(), Measured::Cpu);
    }

    #[test]
    fn huge_settings_saturate_rather_than_overflow() {
        let mut c = CourseClock::new(ClockSettings {
            total: Duration::MAX,
            grace: Duration::MAX,
            wall_factor: u32::MAX,
        });
        assert_eq!(c.deadline(None).after, Duration::MAX);
        c.charge(cpu(u64::MAX, u64::MAX));
        assert!(!c.spent());
        assert_eq!(c.used(), S(u64::MAX));
    }

    #[test]
    fn settings_are_stored_in_whole_milliseconds_and_missing_ones_are_the_courses() {
        let settings = ClockSettings::from_millis(120_000, 2_500);
        let json = serde_json::to_string(&settings).unwrap();
        assert_eq!(json, r#"{"totalMs":120000,"graceMs":2500}"#);
        assert_eq!(
            serde_json::from_str::<ClockSettings>(&json).unwrap(),
            settings
        );
        // The wall factor is not stored: it is always the course's.
        assert_eq!(settings.wall_factor, WALL_FACTOR);
        assert_eq!(
            serde_json::from_str::<ClockSettings>("{}").unwrap(),
            ClockSettings::default()
        );
        let total_only: ClockSettings = serde_json::from_str(r#"{"totalMs":60000}"#).unwrap();
        assert_eq!((total_only.total, total_only.grace), (S(60), DEFAULT_GRACE));
        assert!(serde_json::from_str::<ClockSettings>(r#"{"totalMs":-1}"#).is_err());
    }
}
