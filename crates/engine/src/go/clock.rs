//! How long the AI may think about a move: GTP's time controls (main time, then Canadian byo-yomi) and
//! the online server's move clock, turned into a think time per move.
//!
//! The engine keeps no clock of its own (it runs in the browser's wasm too): callers measure the time a
//! move took and report it with [`Clock::spend`], or set what a referee says is left with
//! [`Clock::set_left`] (GTP's `time_left`). [`Clock::budget`] is pure arithmetic on those figures.

use std::time::Duration;

/// Kept back from every budget: the time to send the move, and a search's last simulation.
const OVERHEAD: Duration = Duration::from_millis(50);

/// The share of a budget actually used, so that a slow machine or a busy controller still keeps time.
const SAFETY: f64 = 0.9;

/// The shortest think: a search that finds nothing in 10 ms finds little more in 5.
const MIN_THINK: Duration = Duration::from_millis(10);

/// Own moves expected before the end of the game, at least: main time is spread over this many moves
/// when the board is nearly full.
const MIN_MOVES_LEFT: u32 = 10;

/// A time control: `main` time for the whole game, then periods of `byo_yomi` time in which `stones`
/// moves must be played (Canadian byo-yomi; Japanese byo-yomi is the case of one stone a period).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub main: Duration,
    pub byo_yomi: Duration,
    pub stones: u32,
}

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockError {
    /// A time that is not a finite number of seconds from 0 to a year.
    BadTime(String),
    /// A stone count that is not a whole number from 0 to 1,000,000.
    BadStones(String),
}

impl std::fmt::Display for ClockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClockError::BadTime(t) => write!(f, "{t:?} is not a time in seconds from 0 to a year"),
            ClockError::BadStones(s) => {
                write!(f, "{s:?} is not a number of stones from 0 to 1000000")
            }
        }
    }
}

impl std::error::Error for ClockError {}

/// A time in seconds as GTP sends it ("300", "1.5"); a year at most, so no arithmetic overflows.
pub fn parse_seconds(text: &str) -> Result<Duration, ClockError> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && (0.0..=365.0 * 86_400.0).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| ClockError::BadTime(text.to_string()))
}

/// A stone count as GTP sends it.
pub fn parse_stones(text: &str) -> Result<u32, ClockError> {
    text.parse::<u32>()
        .ok()
        .filter(|&s| s <= 1_000_000)
        .ok_or_else(|| ClockError::BadStones(text.to_string()))
}

impl TimeControl {
    /// GTP's `time_settings main byo_yomi stones`, or `None` for "no time limit" (byo-yomi time and no
    /// stones, as the protocol defines it).
    pub fn from_gtp(
        main: &str,
        byo_yomi: &str,
        stones: &str,
    ) -> Result<Option<TimeControl>, ClockError> {
        Ok(TimeControl::new(
            parse_seconds(main)?,
            parse_seconds(byo_yomi)?,
            parse_stones(stones)?,
        ))
    }

    /// GTP's three figures as a time control, or `None` for "no time limit": byo-yomi time with no
    /// stones, as the protocol defines it.
    pub fn new(main: Duration, byo_yomi: Duration, stones: u32) -> Option<TimeControl> {
        let unlimited = !byo_yomi.is_zero() && stones == 0;
        (!unlimited).then_some(TimeControl {
            main,
            byo_yomi,
            stones,
        })
    }

    /// A clock that gives every move `limit` and no more (the online server's move clock).
    pub fn per_move(limit: Duration) -> TimeControl {
        TimeControl {
            main: Duration::ZERO,
            byo_yomi: limit,
            stones: 1,
        }
    }

    /// Whether moves are played in byo-yomi after the main time (otherwise the main time is all).
    fn has_byo_yomi(&self) -> bool {
        self.stones > 0 && !self.byo_yomi.is_zero()
    }
}

/// One player's clock under a [`TimeControl`]: the time left in the current stage and, in byo-yomi,
/// the moves still to play in the current period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    left: Duration,
    /// 0 in main time; in byo-yomi, the moves still to play in this period.
    stones: u32,
}

impl Clock {
    /// A clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let mut clock = Clock {
            control,
            left: control.main,
            stones: 0,
        };
        if control.main.is_zero() {
            clock.next_period();
        }
        clock
    }

    /// What a referee says is left (GTP's `time_left`): `stones` 0 means main time.
    pub fn set_left(&mut self, left: Duration, stones: u32) {
        self.left = left;
        self.stones = stones;
    }

    /// The time left in the current stage, and the moves to play in it (0 in main time).
    pub fn left(&self) -> (Duration, u32) {
        (self.left, self.stones)
    }

    /// Counts a move that took `used`: main time first, then byo-yomi periods.
    pub fn spend(&mut self, used: Duration) {
        let mut used = used;
        if self.stones == 0 {
            if used <= self.left || !self.control.has_byo_yomi() {
                self.left = self.left.saturating_sub(used);
                return;
            }
            used -= self.left;
            self.next_period();
        }
        self.left = self.left.saturating_sub(used);
        self.stones = self.stones.saturating_sub(1);
        if self.stones == 0 {
            self.next_period();
        }
    }

    fn next_period(&mut self) {
        if self.control.has_byo_yomi() {
            self.left = self.control.byo_yomi;
            self.stones = self.control.stones;
        }
    }

    /// How long to think about the next move, with `empty_points` empty points on the board: a share
    /// of the main time (spread over the moves the game may still need, plus one period's share when
    /// byo-yomi follows), or in byo-yomi the period's time over its stones; always with a margin.
    pub fn budget(&self, empty_points: u16) -> Duration {
        let per_move = if self.stones > 0 {
            self.left / self.stones
        } else {
            // About half the empty points get filled by each player before a game ends.
            let moves_left = (u32::from(empty_points) / 2).max(MIN_MOVES_LEFT);
            let byo_share = if self.control.has_byo_yomi() {
                self.control.byo_yomi / self.control.stones
            } else {
                Duration::ZERO
            };
            (self.left / moves_left + byo_share).min(self.left / 2 + byo_share)
        };
        per_move
            .mul_f64(SAFETY)
            .saturating_sub(OVERHEAD)
            .max(MIN_THINK)
    }
}

/// How long to think about the next move, with `empty_points` empty points on the board: `clock`'s
/// budget, at most `cap` (a player's own limit), either alone when the other is `None`; `None` when
/// neither applies (and a playout budget decides).
pub fn think_time(
    clock: Option<&Clock>,
    cap: Option<Duration>,
    empty_points: u16,
) -> Option<Duration> {
    match (cap, clock.map(|c| c.budget(empty_points))) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn a_second_a_move_gives_a_little_under_a_second() {
        let control = TimeControl::from_gtp("0", "1", "1").unwrap().unwrap();
        let mut clock = Clock::new(control);
        assert_eq!(clock.left(), (secs(1.0), 1));
        let b = clock.budget(81);
        assert!(b > secs(0.8) && b < secs(0.9), "{b:?}");
        clock.spend(secs(0.85));
        // Each move starts a new period.
        assert_eq!(clock.left(), (secs(1.0), 1));
    }

    #[test]
    fn main_time_is_spread_over_the_game_then_byo_yomi_takes_over() {
        let control = TimeControl::from_gtp("300", "30", "5").unwrap().unwrap();
        let mut clock = Clock::new(control);
        // 300 s over 40 moves plus a fifth of a period, with the margin.
        let b = clock.budget(81);
        assert_eq!(b, (secs(7.5) + secs(6.0)).mul_f64(SAFETY) - OVERHEAD);
        clock.spend(secs(299.0));
        assert_eq!(clock.left(), (secs(1.0), 0));
        // Overrunning the main time spends the first period's time and one of its stones.
        clock.spend(secs(3.0));
        assert_eq!(clock.left(), (secs(28.0), 4));
        assert_eq!(clock.budget(40), secs(7.0).mul_f64(SAFETY) - OVERHEAD);
        for _ in 0..4 {
            clock.spend(secs(1.0));
        }
        assert_eq!(clock.left(), (secs(30.0), 5));
    }

    #[test]
    fn absolute_time_never_spends_more_than_half_of_what_is_left() {
        let clock = Clock::new(TimeControl::from_gtp("10", "0", "0").unwrap().unwrap());
        assert_eq!(clock.budget(81), secs(0.25).mul_f64(SAFETY) - OVERHEAD);
        let mut late = clock;
        late.set_left(secs(1.0), 0);
        assert_eq!(late.budget(0), secs(0.1).mul_f64(SAFETY) - OVERHEAD);
        late.spend(secs(5.0));
        assert_eq!(late.left(), (Duration::ZERO, 0));
        assert_eq!(late.budget(30), MIN_THINK);
    }

    #[test]
    fn time_settings_are_checked() {
        assert_eq!(TimeControl::from_gtp("0", "5", "0"), Ok(None));
        assert!(matches!(
            TimeControl::from_gtp("-1", "0", "0"),
            Err(ClockError::BadTime(_))
        ));
        assert!(TimeControl::from_gtp("nan", "0", "0").is_err());
        assert!(TimeControl::from_gtp("1e300", "0", "0").is_err());
        assert!(matches!(
            TimeControl::from_gtp("1", "1", "1.5"),
            Err(ClockError::BadStones(_))
        ));
        assert_eq!(
            TimeControl::per_move(secs(300.0)),
            TimeControl::from_gtp("0", "300", "1").unwrap().unwrap()
        );
        let err = TimeControl::from_gtp("x", "0", "0").unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"x\" is not a time in seconds from 0 to a year"
        );
    }
}
