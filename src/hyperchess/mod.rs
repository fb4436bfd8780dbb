//! The HyperChess page: `session` is the plain-Rust state and `view` the board as drawn (both tested
//! natively); the rest are components, one a file. The rules are the engine's `hyperchess` module.

mod board;
mod file_bar;
mod new_game;
mod page;
pub mod session;
pub mod view;

pub use page::HyperChessPage;
