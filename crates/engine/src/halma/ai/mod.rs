//! The built-in AIs: players compiled into the engine, so that a page with nothing installed, or the
//! command line, can run a whole game.
//!
//! - [`BuiltIn::Greedy`]: the course's sample AIs: move a piece toward a free destination square, the
//!   longest advance first. Microseconds a call, and a fair sparring partner.
//! - [`BuiltIn::SearchLite`]: the same search on a thirtieth of the budget: a step up from greedy
//!   that a student's first search should beat, and so a tournament's middle milestone.
//! - [`BuiltIn::Search`]: alpha-beta with iterative deepening under a node budget ([`Search`]).
//!
//! Both are pure functions of the position, the turn mode, the team and a seed: no clock, no thread, no
//! random source but [`crate::SplitMix64`], so a recorded game replays identically on every platform and the
//! cost of a call is bounded by the budget, not by the machine.
//!
//! ```
//! use gridarena_engine::halma::ai::BuiltIn;
//! use gridarena_engine::halma::{Answer, Game, Preset, Team};
//!
//! let mut game = Game::new(&Preset::Arena.rules(), 1).unwrap();
//! let ai: BuiltIn = "search".parse().unwrap();
//! let answer = |team, seed| {
//!     let path = ai.choose(game.position(), game.mode(), team, seed).expect("a legal move");
//!     Answer::Move(path)
//! };
//! let (r, b) = (answer(Team::Red, 1), answer(Team::Blue, 2));
//! let outcome = game.tick(r, b).unwrap();
//! assert!(outcome.errors.is_empty());
//! ```

mod collide;
mod eval;
mod field;
mod greedy;
mod search;

pub use search::{Search, SearchReport};

use super::{Answer, Game, Mode, Move, NoMove, Path, Position, Team};
use std::fmt;

/// A built-in player, by the name the page and the command line use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltIn {
    /// Moves a piece toward a free destination square, preferring the longest advance.
    Greedy,
    /// Looks ahead with alpha-beta search under [`Search::LITE`]'s node budget.
    SearchLite,
    /// Looks ahead with alpha-beta search under [`Search::DEFAULT`]'s node budget.
    Search,
}

impl BuiltIn {
    /// Every built-in AI, weakest first.
    pub const ALL: [BuiltIn; 3] = [BuiltIn::Greedy, BuiltIn::SearchLite, BuiltIn::Search];

    /// The name used on the command line, in replays and in the page's player choice.
    pub fn name(self) -> &'static str {
        match self {
            BuiltIn::Greedy => "greedy",
            BuiltIn::SearchLite => "search-lite",
            BuiltIn::Search => "search",
        }
    }

    /// `team`'s move as a chain of landing squares, or `None` only if `team` has no legal move.
    ///
    /// `mode` is the game's (`Game::mode`): in simultaneous ticks a square the opponent may also land on
    /// risks a collision, in alternating turns it does not. The same arguments give the same move on every
    /// platform; vary `seed` (say with the turn) for games that differ.
    pub fn choose(self, position: &Position, mode: Mode, team: Team, seed: u64) -> Option<Path> {
        match self {
            BuiltIn::Greedy => {
                let mv = greedy::greedy_move(position, team, seed)?;
                path_of(position, team, mv)
            }
            BuiltIn::SearchLite => Search::LITE.choose(position, mode, team, seed),
            BuiltIn::Search => Search::DEFAULT.choose(position, mode, team, seed),
        }
    }

    /// `team`'s answer in `game`: [`choose`](Self::choose)'s move, or, when there is none, the failure the
    /// page's worker and the command line both report, so the two say the same words.
    pub fn answer(self, game: &Game, team: Team, seed: u64) -> Answer {
        match self.choose(game.position(), game.mode(), team, seed) {
            Some(path) => Answer::Move(path),
            None => Answer::NoMove(NoMove::Failed(format!("{team} has no legal move"))),
        }
    }
}

/// The multiplier that spreads a game's turns over the seed space (the golden-ratio constant).
const TICK_SEED_MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// The seed both teams' built-in AIs play tick `turn` of a game of `game_seed` with, before the team is
/// mixed in ([`team_seed`]). Each tick's seed differs, so an AI does not repeat the same tie-breaks all
/// game; the page and the command-line runner both use it, so a seed gives the same game in both.
pub fn tick_seed(game_seed: u64, turn: u32) -> u64 {
    game_seed ^ u64::from(turn).wrapping_mul(TICK_SEED_MULTIPLIER)
}

/// `team`'s built-in AI seed in a tick whose seed is `tick_seed`.
pub fn team_seed(tick_seed: u64, team: Team) -> u64 {
    tick_seed ^ team as u64
}

impl fmt::Display for BuiltIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BuiltIn {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BuiltIn::ALL
            .into_iter()
            .find(|ai| ai.name() == s)
            .ok_or_else(|| {
                format!("unknown built-in AI {s:?}: expected greedy, search-lite or search")
            })
    }
}

/// The chain of landings for a move the AI chose from the generator's list. `Position::path` finds one for
/// every generated move; should it ever not, any legal move is better than none, so the first that has a
/// path is played instead.
fn path_of(position: &Position, team: Team, mv: Move) -> Option<Path> {
    position.path(team, mv).or_else(|| {
        position
            .moves(team)
            .into_iter()
            .find_map(|m| position.path(team, m))
    })
}
