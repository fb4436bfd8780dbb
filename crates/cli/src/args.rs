//! Command-line value parsers that more than one subcommand uses.
//!
//! A module of their own, below the subcommands, so that `halma` and `match_cmd` both use them without
//! importing each other.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use gridarena_engine::halma::{Preset, Team};

/// Presets are listed from the engine, so a new preset reaches `--help` and validation without a CLI edit.
pub fn preset_parser() -> impl TypedValueParser<Value = Preset> {
    PossibleValuesParser::new(Preset::ALL.map(Preset::name)).try_map(|s| s.parse::<Preset>())
}

/// The teams, listed from the engine as the presets are.
pub fn team_parser() -> impl TypedValueParser<Value = Team> {
    PossibleValuesParser::new(Team::ALL.map(Team::name)).try_map(|s| s.parse::<Team>())
}
