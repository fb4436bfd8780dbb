//! The game settings `gridarena halma match` and `compare` both take: the preset and its rules, the
//! tick, the turn limit, a program's clock and what errors cost. One struct flattened into both
//! commands, so a flag, its default and its check are written once.

use clap::Args;
use gridarena_cli::program::{Clock, OutOfTime};
use gridarena_engine::halma::play::Policy;
use gridarena_engine::halma::Preset;
use gridarena_engine::tournament::settings::Settings;

/// The longest tick accepted: ten minutes.
const MAX_TICK_MS: u64 = 600_000;

/// The game settings of a match or a comparison. Each command may reword a flag's help where it
/// means more there (`mut_arg` on its own struct); the flag, its default and its values stay these.
#[derive(Clone, Copy, Debug, Args)]
pub struct GameArgs {
    /// The board and how turns go
    #[arg(long, value_parser = crate::args::preset_parser(), default_value = "arena")]
    pub preset: Preset,
    #[command(flatten)]
    pub rules: crate::args::RuleArgs,
    /// The tick length in milliseconds: how long each answer is waited for
    #[arg(long, value_name = "N", default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(1..=MAX_TICK_MS))]
    pub tick_ms: u64,
    /// Ticks after which a game is a draw [default: the preset's, 1000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_turns: Option<u32>,
    #[command(flatten)]
    pub clock: crate::args::ClockArgs,
    /// What a program's spent clock costs: lose (the game, as in the course) or no-move (every later move)
    #[arg(long, value_name = "POLICY", default_value = "lose", value_parser = clap::value_parser!(OutOfTime))]
    pub out_of_time: OutOfTime,
    /// What errors cost: lenient (the tick), consecutive:N (N in a row forfeit the game) or strict:N (the
    /// N-th in a game forfeits it); under every policy the side with more error ticks loses at the turn limit
    #[arg(long, value_name = "POLICY", default_value = "lenient", value_parser = str::parse::<Policy>)]
    pub policy: Policy,
}

impl GameArgs {
    /// The settings of one game with no tournament around it: the rules and the error policy every
    /// game of the command is played under.
    pub fn settings(&self) -> Settings {
        Settings::single_game(
            self.preset,
            self.tick_ms,
            self.max_turns,
            self.policy,
            self.rules.camp_rules,
            self.rules.first.0,
        )
    }

    /// A program player's clock, with what a spent one costs.
    pub fn clock(&self) -> Clock {
        self.clock.clock(self.out_of_time)
    }

    /// Whether a spent clock loses the game (`--out-of-time lose`), rather than the later moves.
    pub fn out_of_time_loss(&self) -> bool {
        self.out_of_time == OutOfTime::Lose
    }
}
