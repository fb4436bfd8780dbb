//! HyperChess: chess in three dimensions on a board that is a graph of nodes, read from a Map file.
//!
//! - [`Coord`], [`Dir`]: locations and the six link directions (left -x, right +x, up -y, down +y, in -z,
//!   out +z).
//! - [`Board`]: the nodes reachable from the origin, each with six optional links and perhaps a [`Piece`];
//!   [`parse_map`] ([`parse_map_bytes`] for raw file bytes) reads a Map file and refuses a malformed or
//!   contradictory one with the line and reason ([`MapError`]). Its `Display` is the seed's "currentstate".
//! - [`Game`]: whose turn it is, legal targets, moves, captures and the [`Outcome`]; [`Game::save`] and
//!   [`Game::load`] round-trip all of it. [`parse_state`] reads any currentstate file for viewing
//!   ([`StateError`] names the line).
//! - [`maps::SHIPPED`]: the maps in maps/hyperchess/, built in.
//! - [`ai`]: the built-in opponent, alpha-beta on material and mobility ([`ai::choose`]).
//! - [`live`]: the live view's messages, and the [`live::Follower`] that reads them off a changing
//!   currentstate.
//!
//! The rules and every decision on the seed's open points are in docs/hyperchess.md.
//!
//! ```
//! use gridarena_engine::hyperchess::{maps, parse_map, Coord, Game};
//!
//! let mut game = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
//! // White's pawn in front of the king on the lowest level steps forward (up is -y).
//! let from = Coord::new(2, 3, 0);
//! assert!(game.targets(from).unwrap().contains(&Coord::new(2, 2, 0)));
//! game.play(from, Coord::new(2, 2, 0)).unwrap();
//! // It is Black's turn: White's pieces are not theirs to move.
//! assert!(game.targets(Coord::new(2, 2, 0)).is_err());
//! assert_eq!(Game::load(&game.save()).unwrap(), game);
//! ```

pub mod ai;
mod board;
mod coord;
mod error;
mod game;
pub mod live;
pub mod map;
pub mod maps;
pub mod moves;
mod outcome;
mod piece;
mod save;

pub use board::{Board, Node};
pub use coord::{Coord, Dir};
pub use error::{MoveError, SetupError};
pub use game::{Game, Played};
pub use map::{parse as parse_map, parse_bytes as parse_map_bytes, MapError, MapErrorKind};
pub use outcome::Outcome;
pub use piece::{Kind, Piece, Side};
pub use save::{parse_state, parse_state_bytes, LoadError, StateError, StateErrorKind, StateLine};
