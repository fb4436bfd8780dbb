//! A tournament's settings: the format, the game, the pace and what an entry's errors cost.
//!
//! The page's form and the CLI's flags fill the same [`Settings`], and the bundle stores it, so a
//! tournament resumed anywhere is played under the settings it started with. Every value is checked by
//! [`Settings::check`], since a bundle or a link can carry anything.

use super::pairing::Format;
use crate::halma::play::Policy;
use crate::halma::{CampRules, Preset, Team};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The shortest tick: a built-in AI answers in well under it; a web AI on loopback takes about 1 ms.
pub const MIN_TICK_MS: u64 = 1;
/// The longest tick: ten minutes, as for `gridarena halma match`.
pub const MAX_TICK_MS: u64 = 600_000;
/// The most games at once: every game of a round of the largest Swiss (half of
/// [`super::MAX_ENTRIES`]), as a queue's workers on a lab's machines play them together. One machine
/// plays well about one game a core; the page and the CLI suggest that, and take more only when asked.
pub const MAX_CONCURRENCY: u32 = (super::MAX_ENTRIES / 2) as u32;
/// The most games one entry plays at once.
pub const MAX_PER_ENTRY: u32 = 16;
/// The longest game allowed, in ticks.
pub const MAX_TURNS: u32 = 100_000;
/// Games in a row without an answer after which an entry is withdrawn, unless the settings say otherwise.
pub const DEFAULT_WITHDRAW_AFTER: u32 = 3;

/// Everything that decides how a tournament is played, besides who plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[serde(with = "as_text")]
    pub format: Format,
    pub preset: Preset,
    /// How long each answer is waited for.
    pub tick_ms: u64,
    /// Ticks after which a game is a draw; `None` keeps the preset's limit.
    #[serde(default)]
    pub max_turns: Option<u32>,
    /// Games played at once.
    pub concurrency: u32,
    /// Games one entry plays at once: 1 keeps a single-threaded AI server from being asked twice in a tick.
    pub per_entry: u32,
    #[serde(with = "as_text")]
    pub policy: Policy,
    /// Games in a row without a single answer after which an entry is withdrawn; `None` never withdraws.
    #[serde(default)]
    pub withdraw_after: Option<u32>,
    /// The tournament's seed: every game's seed comes from it ([`super::pairing::game_seed`]).
    pub seed: u64,
    /// The seed's camp rules, or (classic preset only) the USC CSCI 561 course's on top of them.
    #[serde(default, skip_serializing_if = "CampRules::is_seed")]
    pub camp_rules: CampRules,
    /// The team that opens every game (alternating presets only); `None` draws it from each game's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_mover: Option<Team>,
    /// Only code entries and built-in AIs may play: a final where nobody can drive a web endpoint or a
    /// program by hand, and every entry's code is fixed (and hashed) when it starts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub code_only: bool,
    /// Built-in AIs every entry plays twice, for grading ([`super::milestone`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub milestones: Vec<super::milestone::Milestone>,
    /// The course clock of every entry that plays on one (course-format code, programs): its play time
    /// a game and its grace. In the settings, not in each host, so that the same roster and settings
    /// play the same games in the page and on the command line; a bundle from before it was kept
    /// reads as the course's 300 s and 10 s.
    #[serde(default)]
    pub clock: crate::halma::code::ClockSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            format: Format::RoundRobin,
            preset: Preset::Arena,
            tick_ms: 1000,
            max_turns: None,
            concurrency: 4,
            per_entry: 1,
            policy: Policy::default(),
            withdraw_after: Some(DEFAULT_WITHDRAW_AFTER),
            seed: 1,
            camp_rules: CampRules::Seed,
            first_mover: None,
            code_only: false,
            milestones: Vec::new(),
            clock: crate::halma::code::ClockSettings::default(),
        }
    }
}

impl Settings {
    /// The settings of one game with no tournament around it (`gridarena halma match`, `compare`): the
    /// rules and the error policy, no schedule, no withdrawals.
    pub fn single_game(
        preset: Preset,
        tick_ms: u64,
        max_turns: Option<u32>,
        policy: Policy,
        camp_rules: CampRules,
        first_mover: Option<Team>,
    ) -> Settings {
        Settings {
            preset,
            tick_ms,
            max_turns,
            concurrency: 1,
            policy,
            withdraw_after: None,
            seed: 0,
            camp_rules,
            first_mover,
            ..Settings::default()
        }
    }

    /// The first value out of range, said for a person.
    pub fn check(&self) -> Result<(), String> {
        let range = |what: &str, value: u64, low: u64, high: u64| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(format!(
                    "{what} is {value}; it must be from {low} to {high}."
                ))
            }
        };
        range(
            "The tick length (ms)",
            self.tick_ms,
            MIN_TICK_MS,
            MAX_TICK_MS,
        )?;
        if let Some(turns) = self.max_turns {
            range("The turn limit", turns.into(), 1, MAX_TURNS.into())?;
        }
        range(
            "The number of games at once",
            self.concurrency.into(),
            1,
            MAX_CONCURRENCY.into(),
        )?;
        range(
            "The number of games one entry plays at once",
            self.per_entry.into(),
            1,
            MAX_PER_ENTRY.into(),
        )?;
        if let Format::Swiss { rounds } = self.format {
            range("The number of Swiss rounds", rounds.into(), 1, 1000)?;
        }
        if let Policy::Strict { errors } | Policy::Consecutive { errors } = self.policy {
            range(
                "The error policy's count",
                errors.into(),
                1,
                MAX_TURNS.into(),
            )?;
        }
        if let Some(k) = self.withdraw_after {
            range("Withdraw after (games)", k.into(), 1, 1000)?;
        }
        super::milestone::check(&self.milestones)?;
        let millis = |d: core::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        range(
            "The course clock (ms a game)",
            millis(self.clock.total),
            crate::halma::code::clock::MIN_CLOCK_MS,
            crate::halma::code::clock::MAX_CLOCK_MS,
        )?;
        range(
            "The course clock's grace (ms)",
            millis(self.clock.grace),
            crate::halma::code::clock::MIN_CLOCK_MS,
            crate::halma::code::clock::MAX_CLOCK_MS,
        )?;
        self.rules().check_options()?;
        Ok(())
    }

    /// The rules every game of the tournament starts from.
    pub fn rules(&self) -> crate::halma::Rules {
        let mut rules = self.preset.rules();
        if let Some(turns) = self.max_turns {
            rules.turn_limit = turns;
        }
        rules.camp_rules = self.camp_rules;
        rules.first_mover = self.first_mover;
        rules
    }
}

/// Serde through `Display` and `FromStr`, so the bundle spells formats and policies as the CLI does.
mod as_text {
    use super::*;

    pub fn serialize<T: fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: fmt::Display,
        D: Deserializer<'de>,
    {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_json_and_are_checked() {
        let settings = Settings {
            format: Format::Swiss { rounds: 5 },
            policy: Policy::Strict { errors: 2 },
            max_turns: Some(300),
            ..Settings::default()
        };
        let json = serde_json::to_string(&settings).unwrap();
        assert!(json.contains(r#""format":"swiss:5""#) && json.contains(r#""policy":"strict:2""#));
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), settings);
        // A bundle's settings are what they were: an old one that says lenient stays lenient.
        let old = json.replace(r#""policy":"strict:2""#, r#""policy":"lenient""#);
        assert_eq!(
            serde_json::from_str::<Settings>(&old).unwrap().policy,
            Policy::Lenient
        );
        assert_eq!(settings.rules().turn_limit, 300);
        assert!(settings.check().is_ok());
        let bad = Settings {
            concurrency: 0,
            ..Settings::default()
        };
        assert_eq!(
            bad.check().unwrap_err(),
            "The number of games at once is 0; it must be from 1 to 256."
        );
    }

    #[test]
    fn course_rules_and_a_first_mover_are_carried_into_the_rules_and_checked() {
        let old = serde_json::to_string(&Settings::default()).unwrap();
        assert!(
            !old.contains("campRules") && !old.contains("firstMover"),
            "{old}"
        );
        let course = Settings {
            preset: Preset::Classic,
            camp_rules: CampRules::Course,
            first_mover: Some(Team::Blue),
            ..Settings::default()
        };
        let json = serde_json::to_string(&course).unwrap();
        assert!(
            json.contains(r#""campRules":"course""#) && json.contains(r#""firstMover":"blue""#)
        );
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), course);
        assert!(course.check().is_ok());
        let rules = course.rules();
        assert_eq!(
            (rules.camp_rules, rules.first_mover),
            (CampRules::Course, Some(Team::Blue))
        );
        let mini = Settings {
            preset: Preset::Mini,
            ..course.clone()
        };
        assert!(mini.check().unwrap_err().contains("classic preset only"));
        let arena = Settings {
            camp_rules: CampRules::Seed,
            ..Settings::default()
        };
        assert!(arena.check().is_ok());
        let arena_first = Settings {
            first_mover: Some(Team::Red),
            ..arena
        };
        assert!(arena_first.check().unwrap_err().contains("alternating"));
    }

    #[test]
    fn the_course_clock_is_kept_with_the_settings_and_an_old_bundle_reads_the_courses() {
        use crate::halma::code::ClockSettings;
        let default = serde_json::to_string(&Settings::default()).unwrap();
        assert!(
            default.contains(r#""clock":{"totalMs":300000,"graceMs":10000}"#),
            "{default}"
        );
        let short = Settings {
            clock: ClockSettings::from_millis(60_000, 2_000),
            ..Settings::default()
        };
        let json = serde_json::to_string(&short).unwrap();
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), short);
        assert!(short.check().is_ok());
        // A bundle from before the clock was in the settings: the course's clock.
        let old = default.replace(r#","clock":{"totalMs":300000,"graceMs":10000}"#, "");
        assert!(!old.contains("clock"), "{old}");
        assert_eq!(
            serde_json::from_str::<Settings>(&old).unwrap().clock,
            ClockSettings::default()
        );
        let zero = Settings {
            clock: ClockSettings::from_millis(0, 10_000),
            ..Settings::default()
        };
        assert_eq!(
            zero.check().unwrap_err(),
            "The course clock (ms a game) is 0; it must be from 1 to 86400000."
        );
        let absurd = Settings {
            clock: ClockSettings::from_millis(300_000, 90_000_000),
            ..Settings::default()
        };
        assert_eq!(
            absurd.check().unwrap_err(),
            "The course clock's grace (ms) is 90000000; it must be from 1 to 86400000."
        );
    }
}
