//! Halma: the arena's simultaneous two-team game and the classic alternating game, on one engine.
//!
//! The layers, from the inside out:
//! - [`Square`], [`Team`], [`Piece`]: the vocabulary.
//! - [`Position`]: where the pieces stand and which squares each team must reach. It generates legal
//!   moves ([`Move`]: a piece's origin and final square) and checks a submitted [`Path`].
//! - [`Game`]: a position plus the turn, who moves, and the result. Its referee takes one [`Answer`] per
//!   team and returns a [`TickOutcome`] the UI renders without recomputing any rule.
//! - [`GameLoop`]: a game driven from outside, tick by tick: whom to ask, which answers count. The page,
//!   the command-line runner and tournaments all play through it.
//! - [`Match`] ([`play`]): a game loop with its players' wires, their tally, the error policy and the
//!   log: what every host holds.
//! - [`tick_clock`]: how long a host waits for a tick's answers, and when it ends the tick.
//! - [`protocol`]: the seeds' JSON request and the hostile-input parser for an AI's answer.
//!
//! Every move is judged against the board as it stood at the start of the turn: the opponent's
//! simultaneous move never helps or hinders a jump.
//!
//! ```
//! use gridarena_engine::halma::{protocol::parse_response, Answer, Game, Preset, Team};
//!
//! let mut game = Game::new(&Preset::Arena.rules(), 7).unwrap();
//! assert_eq!(game.position().count_moves(Team::Red), 33);
//!
//! // Both teams step their front corner piece forward; both moves are enacted together.
//! let red = parse_response(br#"{"from":{"x":2,"y":14},"to":[{"x":2,"y":13}]}"#);
//! let blue = parse_response(br#"{"from":{"x":15,"y":14},"to":[{"x":15,"y":13}]}"#);
//! let outcome = game.tick(Answer::from(red), Answer::from(blue)).unwrap();
//! assert_eq!((outcome.turn, outcome.moves.len()), (1, 2));
//!
//! // A jump over an empty square is refused with a reason, and then neither team moves.
//! let red = parse_response(br#"{"from":{"x":2,"y":15},"to":[{"x":2,"y":11}]}"#);
//! let blue = parse_response(br#"{"from":{"x":16,"y":14},"to":[{"x":16,"y":13}]}"#);
//! let outcome = game.tick(Answer::from(red), Answer::from(blue)).unwrap();
//! assert!(outcome.moves.is_empty());
//! assert_eq!(outcome.errors[0].team, Team::Red);
//! assert_eq!(outcome.errors[0].code, "not_a_jump");
//! ```

pub mod ai;
pub mod code;
pub mod course;
pub mod debug;
pub mod doctor;
pub mod edit;
pub mod exchange;
mod game;
pub mod game_loop;
mod movegen;
mod path;
mod perft;
pub mod play;
pub mod player;
mod point;
mod position;
pub mod program;
pub mod protocol;
pub mod record;
mod rules;
mod square;
mod state;
pub mod tally;
mod team;
pub mod tick_clock;
mod validate;

pub use code::CodeFailure;
pub use exchange::{ContentType, Exchange, Verdict, Wire};
pub use game::{
    Answer, DamagedPiece, EnactedMove, ErrorKind, Game, GameResult, NoMove, TeamError, TickOutcome,
    TickRefused,
};
pub use game_loop::{Ask, GameLoop, LoopError};
pub use path::Path;
pub use perft::perft;
pub use play::Match;
pub use player::{AiPlayer, PlayerError};
pub use point::{PieceJson, Point};
pub use position::{Piece, Position, SetupError};
pub use program::{Program, ProgramFailure, ProgramFormat};
pub use protocol::{AiRequest, ResponseError, MAX_RESPONSE_BYTES};
pub use rules::{CampRules, Mode, Preset, Rules, COLLISION_DAMAGE, DEFAULT_TURN_LIMIT};
pub use square::{Square, MAX_BOARD_SIZE, MIN_BOARD_SIZE};
pub use state::{GameState, TeamState, STATE_VERSION};
pub use tally::AnswerTally;
pub use team::{Team, Teams};
pub use validate::MoveError;

/// A legal move, identified by the piece's square and its final square.
///
/// Two jump chains that end on the same square are the same move: what matters to the game is where the
/// piece ends, and counting moves this way is what the published perft figures do. [`Position::path`]
/// turns a `Move` back into a chain of landing squares for the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square the piece starts on.
    pub from: Square,
    /// The square the piece ends on.
    pub to: Square,
}

impl Move {
    /// Whether the move is one step to a neighbouring square (otherwise it is a chain of jumps).
    pub fn is_step(self) -> bool {
        self.from.chebyshev(self.to) == 1
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}->{}", self.from, self.to)
    }
}
