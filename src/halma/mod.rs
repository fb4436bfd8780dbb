//! The Halma arena page: view models (plain Rust, tested natively) and the components that draw them.

mod arena;
mod board;
pub mod board_view;
pub mod builtin;
mod controls;
pub mod messages;
pub mod player;
mod player_picker;
pub mod prefs;
pub mod replay;
pub mod session;
mod ticker;
pub mod web_ai;

pub use arena::ArenaPage;
