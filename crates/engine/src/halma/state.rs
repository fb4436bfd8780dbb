//! The game-state format: what `gridarena halma tick` reads and writes and what replays record.
//!
//! It is the unchecked, serialisable face of a [`Game`](super::Game): anything may arrive here from a
//! file, so [`Game::from_state`](super::Game::from_state) checks it all before a game is built from it.

use super::point::{PieceJson, Point};
use super::{CampRules, GameResult, Mode, Preset};
use serde::{Deserialize, Serialize};

/// The version written into every state; bumped when the format changes incompatibly.
pub const STATE_VERSION: u32 = 1;

fn state_version() -> u32 {
    STATE_VERSION
}

/// A whole game at one moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameState {
    #[serde(default = "state_version")]
    pub version: u32,
    /// The preset the game was created from; `null` for a custom setup.
    #[serde(default)]
    pub preset: Option<Preset>,
    pub board_size: i64,
    pub mode: Mode,
    #[serde(default)]
    pub camp_rule: bool,
    /// The course's camp rules on top of the seed's; absent (the seed's alone) in older states.
    #[serde(default, skip_serializing_if = "CampRules::is_seed")]
    pub camp_rules: CampRules,
    pub turn_limit: u32,
    /// Ticks played so far.
    pub turn: u32,
    /// The team to move next in an alternating game; `null` in a simultaneous one.
    #[serde(default)]
    pub to_move: Option<super::Team>,
    /// How the game ended; `null` while it goes on.
    #[serde(default)]
    pub result: Option<GameResult>,
    pub red: TeamState,
    pub blue: TeamState,
}

/// One team's pieces and destination squares.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamState {
    pub pieces: Vec<PieceJson>,
    pub destinations: Vec<Point>,
}
