//! Command-line value parsers that more than one subcommand uses.
//!
//! A module of their own, below the subcommands, so that `halma` and `match_cmd` both use them without
//! importing each other.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use gridarena_cli::program::{Clock, OutOfTime};
use gridarena_engine::halma::code::ClockSettings;
use gridarena_engine::halma::{CampRules, Preset, Team};
use std::time::Duration;

/// Presets are listed from the engine, so a new preset reaches `--help` and validation without a CLI edit.
pub fn preset_parser() -> impl TypedValueParser<Value = Preset> {
    PossibleValuesParser::new(Preset::ALL.map(Preset::name)).try_map(|s| s.parse::<Preset>())
}

/// The teams, listed from the engine as the presets are.
pub fn team_parser() -> impl TypedValueParser<Value = Team> {
    PossibleValuesParser::new(Team::ALL.map(Team::name)).try_map(|s| s.parse::<Team>())
}

/// The camp rules, listed from the engine.
pub fn camp_rules_parser() -> impl TypedValueParser<Value = CampRules> {
    PossibleValuesParser::new(CampRules::ALL.map(CampRules::name))
        .try_map(|s| s.parse::<CampRules>())
}

/// `--first`: the team that opens an alternating game, or `None` to draw it from the game's seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct First(pub Option<Team>);

/// `drawn`, `red` or `blue`.
pub fn first_parser() -> impl TypedValueParser<Value = First> {
    PossibleValuesParser::new(["drawn", "red", "blue"]).try_map(|s| match s.as_str() {
        "drawn" => Ok(First(None)),
        team => team.parse::<Team>().map(|t| First(Some(t))),
    })
}

/// The help of `--camp-rules`, shared by the subcommands.
pub const CAMP_RULES_HELP: &str = "The camp rules: seed (a piece in its destination camp may not leave it) or course (USC CSCI 561, classic preset only: also a move from outside one's own camp may not end in it, and while a piece is in one's own camp a piece must move out of it, or else further from one's own corner)";

/// The help of `--first`, shared by the subcommands.
pub const FIRST_HELP: &str = "Who opens an alternating game: drawn (from each game's seed), red or blue. The course's Black is red (the top-left camp) and its White is blue (the bottom-right camp); in the course White opens, so --first blue";

/// The rule settings beyond the preset, as `match` and `tournament` take them.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct RuleArgs {
    #[arg(long, value_name = "RULES", default_value = "seed",
        value_parser = camp_rules_parser(), help = CAMP_RULES_HELP)]
    pub camp_rules: CampRules,
    #[arg(long, value_name = "TEAM", default_value = "drawn",
        value_parser = first_parser(), help = FIRST_HELP)]
    pub first: First,
}

/// A program player's clock, as `match`, `tournament` and `bridge` take it.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct ClockArgs {
    /// A program's play time per game in seconds, charged after each move (CPU time where reported;
    /// a game's moves may also take 3 times it in wall time)
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0, value_parser = parse_seconds)]
    clock: f64,
    /// How long a program's move may run past its time left before it is killed, in seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds)]
    grace: f64,
}

impl ClockArgs {
    /// The clock, with what a spent one costs.
    pub fn clock(&self, out_of_time: OutOfTime) -> Clock {
        Clock {
            total: Duration::from_secs_f64(self.clock),
            grace: Duration::from_secs_f64(self.grace),
            out_of_time,
        }
    }

    /// The clock as a tournament's settings keep it: whole milliseconds, rounded, which is how its
    /// bundle stores it, so a run and its resumption play the same clock.
    pub fn settings(&self) -> ClockSettings {
        let millis = |seconds: f64| (seconds * 1000.0).round() as u64;
        ClockSettings::from_millis(millis(self.clock), millis(self.grace))
    }
}

/// Seconds, fractions allowed, from a millisecond to a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    seconds_within(text, &(0.001..=86_400.0))
}

/// The shortest and longest time an AI may be given to think about one move, in seconds.
pub const THINK_SECONDS: std::ops::RangeInclusive<f64> = 0.05..=60.0;

/// A think time a move (`--ai-seconds` of HyperChess, `--house-seconds` of the server): seconds within
/// [`THINK_SECONDS`].
pub fn think_seconds(text: &str) -> Result<f64, String> {
    seconds_within(text, &THINK_SECONDS)
}

/// A number of seconds in `range`; the error names the text as given and the range.
fn seconds_within(text: &str, range: &std::ops::RangeInclusive<f64>) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !range.contains(&seconds) {
        return Err(format!(
            "{} seconds is outside {} to {}",
            text.trim(),
            range.start(),
            range.end()
        ));
    }
    Ok(seconds)
}
