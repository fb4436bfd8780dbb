//! The Halma arena page: view models (plain Rust, tested natively) and the components that draw them.

mod arena;
mod board;
pub mod board_view;
mod controls;
mod files;
pub mod messages;
pub mod player;
pub mod replay;
pub mod session;

pub use arena::ArenaPage;
