//! The game settings `gridarena halma match` and `compare` both take: the preset and its rules, the
//! tick, the turn limit, a program's clock, what errors cost, the seed and whether code may run
//! unconfined. One struct flattened into both commands, so a flag, its default and its check are
//! written once; each command keeps only its players and what it does with the games.

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
    /// The run's seed: every game's seed comes from it [default: random, printed on stderr]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Run a code player even where this machine cannot confine it (no Landlock, seccomp or
    /// unprivileged namespaces): it could then reach your files, sockets or processes, so only for
    /// code you trust
    #[arg(long)]
    pub unconfined_code: bool,
}

impl GameArgs {
    /// The settings of one game with no tournament around it: the rules, the error policy and the
    /// course clock every game of the command is played under.
    pub fn settings(&self) -> Settings {
        Settings {
            clock: self.clock.settings(),
            ..Settings::single_game(
                self.preset,
                self.tick_ms,
                self.max_turns,
                self.policy,
                self.rules.camp_rules,
                self.rules.first.0,
            )
        }
    }

    /// A program's or code entry's clock: the settings' course clock, with what a spent one costs.
    pub fn clock(&self) -> Clock {
        Clock::of(self.settings().clock, self.out_of_time)
    }

    /// Whether a spent clock loses the game (`--out-of-time lose`), rather than the later moves.
    pub fn out_of_time_loss(&self) -> bool {
        self.out_of_time == OutOfTime::Lose
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use std::time::Duration;

    /// A command of nothing but the game settings, as match and compare flatten them.
    #[derive(Parser)]
    struct Only {
        #[command(flatten)]
        game: GameArgs,
    }

    fn parse(args: &str) -> GameArgs {
        Only::try_parse_from(std::iter::once("x").chain(args.split_whitespace()))
            .unwrap()
            .game
    }

    #[test]
    fn the_seed_the_sandbox_flag_and_the_clock_are_game_settings() {
        let plain = parse("");
        assert_eq!((plain.seed, plain.unconfined_code), (None, false));
        assert_eq!(plain.settings().clock, Settings::default().clock);
        let game =
            parse("--seed 7 --unconfined-code --clock 2.5 --grace 0.25 --out-of-time no-move");
        assert_eq!((game.seed, game.unconfined_code), (Some(7), true));
        let settings = game.settings();
        assert_eq!(
            (settings.clock.total, settings.clock.grace),
            (Duration::from_millis(2500), Duration::from_millis(250))
        );
        let clock = game.clock();
        assert_eq!(
            (clock.total, clock.grace, clock.out_of_time),
            (
                settings.clock.total,
                settings.clock.grace,
                OutOfTime::NoMove
            )
        );
        assert!(!game.out_of_time_loss());
    }
}
