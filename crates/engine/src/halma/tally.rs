//! One side's answers over a game (or a match, or a tournament): how often it was asked, how often a
//! reply came in time, how often it had no move, and how long it took.
//!
//! The arena page, `gridarena halma match` and the tournament all count through this one type, so the
//! figures a student sees in the page, in the CLI's summary and in a tournament's table mean the same.
//! A side "answered" when a reply reached the referee in time, whatever it said: an HTTP 500 is an answer,
//! a refused connection or a time-out is not. That is what tells a dead entry from a broken one.

use super::TeamError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// One kind of error a side made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cause {
    /// Ticks that had it.
    pub count: u32,
    /// The latest message of this kind, clipped: a web AI's error can quote what it sent.
    pub example: String,
}

/// The longest message a [`Cause`] or a tournament's log keeps, in characters.
const MAX_EXAMPLE: usize = 300;

/// How one side answered: the ticks it was asked in, those it answered in time, its errors by kind and
/// its answer times.
///
/// The answer times are kept for the median and the mean but never serialized: a tournament bundle's log
/// already has every answer's milliseconds ([`AnswerTally::set_times_ms`] puts them back).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerTally {
    /// Ticks it was asked in.
    pub asked: u32,
    /// Ticks a reply came in time.
    pub answered: u32,
    /// Ticks with an error: no move, an unreadable answer or an illegal move.
    pub errors: u32,
    /// The errors by their code (`timed_out`, `request_failed`, `jump_over_empty`, ...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub causes: BTreeMap<String, Cause>,
    /// Each in-time answer's time, in microseconds, in the order they came.
    #[serde(skip)]
    times_us: Vec<u32>,
}

impl AnswerTally {
    /// The side was asked for a move.
    pub fn ask(&mut self) {
        self.asked = self.asked.saturating_add(1);
    }

    /// A reply came in time, `took` after the request.
    pub fn answer(&mut self, took: Duration) {
        self.answered = self.answered.saturating_add(1);
        self.times_us
            .push(u32::try_from(took.as_micros()).unwrap_or(u32::MAX));
    }

    /// The side had an error this tick (one per tick counts: the referee reports at most one per side).
    pub fn error(&mut self, e: &TeamError) {
        self.errors = self.errors.saturating_add(1);
        let cause = self.causes.entry(e.code.clone()).or_default();
        cause.count = cause.count.saturating_add(1);
        cause.example = clip(&e.to_string());
    }

    /// Replaces the answer times by whole milliseconds, as a tournament's log keeps them.
    pub fn set_times_ms(&mut self, ms: impl IntoIterator<Item = u32>) {
        self.times_us = ms.into_iter().map(|m| m.saturating_mul(1000)).collect();
    }

    /// The latest answer's time, in milliseconds.
    pub fn last_ms(&self) -> Option<f64> {
        self.times_us.last().map(|&us| f64::from(us) / 1000.0)
    }

    /// The mean answer time, in milliseconds, if anything was answered in time.
    pub fn mean_ms(&self) -> Option<f64> {
        if self.times_us.is_empty() {
            return None;
        }
        let total: f64 = self.times_us.iter().map(|&us| f64::from(us)).sum();
        Some(total / self.times_us.len() as f64 / 1000.0)
    }

    /// The median answer time in whole milliseconds (the lower of the two middle ones for an even
    /// count), as a tournament's table shows it.
    pub fn median_ms(&self) -> Option<u32> {
        let mut ms: Vec<u32> = self.times_us.iter().map(|&us| us / 1000).collect();
        if ms.is_empty() {
            return None;
        }
        let middle = (ms.len() - 1) / 2;
        let (_, m, _) = ms.select_nth_unstable(middle);
        Some(*m)
    }

    /// Adds another game's figures: a match's or a tournament entry's totals.
    pub fn add(&mut self, other: &AnswerTally) {
        self.asked = self.asked.saturating_add(other.asked);
        self.answered = self.answered.saturating_add(other.answered);
        self.errors = self.errors.saturating_add(other.errors);
        for (code, cause) in &other.causes {
            let mine = self.causes.entry(code.clone()).or_default();
            mine.count = mine.count.saturating_add(cause.count);
            mine.example.clone_from(&cause.example);
        }
        self.times_us.extend_from_slice(&other.times_us);
    }

    /// The kinds of error, the most frequent first (ties by code).
    pub fn causes_by_count(&self) -> Vec<(&str, &Cause)> {
        let mut causes: Vec<_> = self.causes.iter().map(|(c, k)| (c.as_str(), k)).collect();
        causes.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
        causes
    }
}

/// `message` cut to [`MAX_EXAMPLE`] characters, keeping its start (what failed) and its end (a
/// program's last lines of stderr, where a traceback names the bug).
pub fn clip(message: &str) -> String {
    let count = message.chars().count();
    if count <= MAX_EXAMPLE {
        return message.to_string();
    }
    let head = MAX_EXAMPLE * 2 / 5;
    let tail = MAX_EXAMPLE - head - 1;
    let start: String = message.chars().take(head).collect();
    let end: String = message.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::{ErrorKind, Team};

    fn error(code: &str, message: &str) -> TeamError {
        TeamError {
            team: Team::Red,
            kind: ErrorKind::NoMove,
            code: code.to_string(),
            message: message.to_string(),
            submitted: None,
        }
    }

    #[test]
    fn answer_times_give_the_latest_the_mean_and_the_median() {
        let mut t = AnswerTally::default();
        assert_eq!(
            (t.last_ms(), t.mean_ms(), t.median_ms()),
            (None, None, None)
        );
        for ms in [4.0, 1.5, 9.25, 2.0] {
            t.ask();
            t.answer(Duration::from_secs_f64(ms / 1000.0));
        }
        t.ask();
        assert_eq!((t.asked, t.answered), (5, 4));
        assert_eq!(t.last_ms(), Some(2.0));
        assert_eq!(t.mean_ms(), Some(4.1875));
        // 1, 2, 4, 9 whole ms: the lower middle.
        assert_eq!(t.median_ms(), Some(2));
        t.set_times_ms([7, 3, 5]);
        assert_eq!((t.median_ms(), t.mean_ms()), (Some(5), Some(5.0)));
    }

    #[test]
    fn errors_are_counted_by_kind_with_the_latest_message_and_added_up() {
        let mut a = AnswerTally::default();
        a.error(&error("timed_out", "timed out after 5 ms"));
        a.error(&error("request_failed", "connection refused"));
        a.error(&error("timed_out", "timed out after 7 ms"));
        let mut b = AnswerTally::default();
        b.error(&error("request_failed", "HTTP 500"));
        b.ask();
        b.answer(Duration::from_millis(3));
        a.add(&b);
        assert_eq!(a.errors, 4);
        assert_eq!(a.answered, 1);
        let causes = a.causes_by_count();
        assert_eq!(causes[0].0, "request_failed");
        assert_eq!(causes[0].1.count, 2);
        assert!(causes[0].1.example.contains("HTTP 500"));
        assert!(causes[1].1.example.contains("7 ms"));
        let long = "x".repeat(1000);
        a.error(&error("crashed", &long));
        assert_eq!(a.causes["crashed"].example.chars().count(), MAX_EXAMPLE);
    }

    #[test]
    fn a_long_message_keeps_its_start_and_its_end() {
        assert_eq!(clip("short"), "short");
        let long = format!(
            "the program crashed (exit status 1); the end of its stderr: {}NameError: name 'x' is not defined",
            "  File \"agent.py\", line 9\n".repeat(40)
        );
        let clipped = clip(&long);
        assert_eq!(clipped.chars().count(), MAX_EXAMPLE);
        assert!(
            clipped.starts_with("the program crashed (exit status 1)"),
            "{clipped}"
        );
        assert!(
            clipped.ends_with("NameError: name 'x' is not defined"),
            "{clipped}"
        );
        assert!(clipped.contains('…'));
    }

    #[test]
    fn a_bundles_side_reads_as_a_tally() {
        let t: AnswerTally =
            serde_json::from_str(r#"{"asked":3,"answered":2,"errors":1}"#).unwrap();
        assert_eq!((t.asked, t.answered, t.errors), (3, 2, 1));
        assert!(t.causes.is_empty());
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"asked":3,"answered":2,"errors":1}"#
        );
    }
}
