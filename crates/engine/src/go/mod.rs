//! Go: the rules engine behind the Go section, the GTP engine and the Monte-Carlo players.
//!
//! The layers, from the inside out:
//! - [`Color`], [`Point`], [`BoardSize`], [`Move`]: the vocabulary, with GTP's spelling of points
//!   ("D4", A1 bottom-left, no letter I) and moves ("pass").
//! - [`Board`]: stones, chains and liberties, captures, suicide and the simple-ko point; area counting
//!   ([`Board::score`], [`Board::owners`]) and light random playouts ([`Board::playout`]).
//! - [`Game`]: a board plus whose turn it is, positional superko over the whole history, captures,
//!   passes, resignation, time-outs, undo and the result ([`GameResult`], SGF's "B+3.5", "W+R", "B+T").
//! - [`Mcts`]: the built-in AI, with its [`Memory`] between moves and a [`Clock`] to budget its time.
//! - [`online`]: the messages of online play (docs/online.md), shared by the server and the page.
//!
//! The rules and every decision the seed left open are written down in docs/go.md.
//!
//! ```
//! use gridarena_engine::go::{BoardSize, Color, Game, Move, MoveError, Point};
//!
//! let mut game = Game::new(BoardSize::NINE);
//! let d4 = Move::from_gtp("D4", game.size()).unwrap();
//! game.play(d4).unwrap();
//! assert_eq!(game.to_move(), Color::White);
//!
//! // An illegal move is refused with a reason, and nothing changes.
//! let err = game.play(d4).unwrap_err();
//! assert!(matches!(err, MoveError::Occupied { .. }));
//! assert_eq!(err.to_string(), "D4 is occupied by a black stone");
//!
//! // Two passes end the game; the area count decides it (komi 0.5 for White).
//! game.play(Move::Pass).unwrap();
//! game.play(Move::Pass).unwrap();
//! assert_eq!(game.result().unwrap().to_string(), "B+80.5");
//! # assert_eq!(Point::from_gtp("J9", game.size()).unwrap().to_gtp(), "J9");
//! ```

mod board;
pub mod clock;
mod color;
mod error;
mod game;
pub mod mcts;
pub mod online;
mod playout;
mod point;
mod policy;
mod score;
pub mod sgf;
mod zobrist;

pub use board::Board;
pub use clock::{Clock, ClockError, TimeControl};
pub use color::{Color, ColorError};
pub use error::{MoveError, ReplayError, SetupError, UndoError};
pub use game::Game;
pub use mcts::{Decision, Mcts, Memory, Reason};
pub use point::{BoardSize, Move, Point, VertexError, MAX_BOARD_SIZE, MIN_BOARD_SIZE};
pub use score::{GameResult, Komi, KomiError, Owners, Score};
