//! A game of Halma: its setup, its state, who moves, and the request an AI is sent.
//!
//! The referee's tick lives in the `tick` submodule as a list of named steps, and what a tick takes and
//! gives in `outcome`, so that each reads in one sitting.

mod outcome;
mod tick;

pub use outcome::{
    Answer, DamagedPiece, EnactedMove, ErrorKind, GameResult, NoMove, TeamError, TickOutcome,
    TickRefused,
};

use super::point::{square_on, PieceJson, Point};
use super::protocol::{board_size, AiRequest};
use super::state::{GameState, TeamState, STATE_VERSION};
use super::{Mode, Piece, Position, Preset, Rules, SetupError, Square, Team, Teams};

/// A game of Halma in progress: the position, the turn, whose move it is, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    preset: Option<Preset>,
    mode: Mode,
    turn_limit: u32,
    turn: u32,
    to_move: Option<Team>,
    result: Option<GameResult>,
    position: Position,
}

impl Game {
    /// A new game; in an alternating game `seed` draws the first mover unless the rules name one.
    pub fn new(rules: &Rules, seed: u64) -> Result<Game, SetupError> {
        let pieces = rules.start.map(|_, squares| {
            squares
                .iter()
                .map(|&square| Piece { square, damage: 0 })
                .collect()
        });
        let position = Position::new(
            rules.board_size,
            rules.camp_rule,
            pieces,
            rules.destinations.clone(),
        )?
        .with_camp_rules(rules.camp_rules)?;
        for s in &rules.start.red {
            if rules.start.blue.contains(s) {
                return Err(SetupError::StartsOverlap { square: *s });
            }
        }
        if rules.turn_limit == 0 {
            return Err(SetupError::ZeroTurnLimit);
        }
        Ok(Game {
            preset: rules.preset,
            mode: rules.mode,
            turn_limit: rules.turn_limit,
            turn: 0,
            to_move: (rules.mode == Mode::Alternating).then(|| rules.opener(seed)),
            result: None,
            position,
        })
    }

    /// A game from a recorded state, checked in full.
    pub fn from_state(state: &GameState) -> Result<Game, SetupError> {
        if state.version != STATE_VERSION {
            return Err(SetupError::UnsupportedVersion {
                found: state.version,
            });
        }
        let size = board_size(state.board_size)?;
        let team_parts =
            |team: Team, ts: &TeamState| -> Result<(Vec<Piece>, Vec<Square>), SetupError> {
                let pieces = ts
                    .pieces
                    .iter()
                    .map(|p| p.to_piece(team, size))
                    .collect::<Result<_, _>>()?;
                let dests = ts
                    .destinations
                    .iter()
                    .map(|&p| square_on(format!("{team} destination"), p, size))
                    .collect::<Result<_, _>>()?;
                Ok((pieces, dests))
            };
        let (red_pieces, red_dests) = team_parts(Team::Red, &state.red)?;
        let (blue_pieces, blue_dests) = team_parts(Team::Blue, &state.blue)?;
        let position = Position::new(
            size,
            state.camp_rule,
            Teams {
                red: red_pieces,
                blue: blue_pieces,
            },
            Teams {
                red: red_dests,
                blue: blue_dests,
            },
        )?
        .with_camp_rules(state.camp_rules)?;
        if state.turn_limit == 0 {
            return Err(SetupError::ZeroTurnLimit);
        }
        if state.result.is_none() && state.turn >= state.turn_limit {
            return Err(SetupError::TurnLimitPassed {
                turn: state.turn,
                turn_limit: state.turn_limit,
            });
        }
        match (state.mode, state.to_move) {
            (Mode::Alternating, None) => return Err(SetupError::MissingToMove),
            (Mode::Simultaneous, Some(_)) => return Err(SetupError::UnexpectedToMove),
            _ => {}
        }
        Ok(Game {
            preset: state.preset,
            mode: state.mode,
            turn_limit: state.turn_limit,
            turn: state.turn,
            to_move: state.to_move,
            result: state.result,
            position,
        })
    }

    /// The game as its serialisable state.
    pub fn state(&self) -> GameState {
        let team = |t: Team| TeamState {
            pieces: self
                .position
                .pieces(t)
                .iter()
                .map(|&p| PieceJson::from(p))
                .collect(),
            destinations: self
                .position
                .destinations(t)
                .iter()
                .map(|&s| Point::from(s))
                .collect(),
        };
        GameState {
            version: STATE_VERSION,
            preset: self.preset,
            board_size: self.position.size().into(),
            mode: self.mode,
            camp_rule: self.position.camp_rule(),
            camp_rules: self.position.camp_rules(),
            turn_limit: self.turn_limit,
            turn: self.turn,
            to_move: self.to_move,
            result: self.result,
            red: team(Team::Red),
            blue: team(Team::Blue),
        }
    }

    /// The board.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The preset the game was created from, if any.
    pub fn preset(&self) -> Option<Preset> {
        self.preset
    }

    /// Simultaneous or alternating.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Ticks played so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Ticks after which the game is a draw.
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// In an alternating game, the team to move.
    pub fn to_move(&self) -> Option<Team> {
        self.to_move
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The teams asked for a move on the next tick: both, the one to move, or none once the game is over.
    pub fn movers(&self) -> Vec<Team> {
        match (self.result, self.to_move) {
            (Some(_), _) => vec![],
            (None, Some(t)) => vec![t],
            (None, None) => Team::ALL.to_vec(),
        }
    }

    /// The request to send to `team`'s AI.
    pub fn request(&self, team: Team) -> AiRequest {
        let pieces = |t: Team| {
            self.position
                .pieces(t)
                .iter()
                .map(|&p| PieceJson::from(p))
                .collect()
        };
        let dests = |t: Team| {
            self.position
                .destinations(t)
                .iter()
                .map(|&s| Point::from(s))
                .collect()
        };
        AiRequest {
            board_size: self.position.size().into(),
            pieces: pieces(team),
            destinations: dests(team),
            enemy: pieces(team.other()),
            enemy_destinations: dests(team.other()),
            team: Some(team),
            turn: Some(self.turn),
            preset: self.preset,
            camp_rule: Some(self.position.camp_rule()),
            camp_rules: Some(self.position.camp_rules()).filter(|c| !c.is_seed()),
            time_limit_ms: None,
            game_id: None,
        }
    }
}
