//! The HyperChess page as plain Rust, tested natively: `session` the game's state, `view` the board as
//! drawn, `scene` the board projected in 3D, `live` the live view of a game played elsewhere and
//! `builtin` the AI as a job for a Web Worker. The rest are components, one a file. The rules are the
//! engine's `hyperchess` module.

mod board;
mod board3d;
mod boards;
pub mod builtin;
mod file_bar;
pub mod live;
mod live_view;
mod new_game;
mod page;
pub mod scene;
pub mod session;
pub mod view;

pub use board3d::{Board3d, Board3dProps};
pub use file_bar::{FileBar, FileBarProps};
pub use live_view::{LiveView, LiveViewProps};
pub use new_game::{NewGameForm, NewGameFormProps};
pub use page::{HyperChessPage, HyperChessParts};
