//! The Online Go page: a client of the `gridarena serve` server (docs/online.md), on the Go page's board.
//!
//! `protocol` and `game_view` are plain Rust, tested natively; `api` (HTTP and the kept identity) and
//! `socket` (the WebSocket) talk to the server; `page` and `board` are the components.

mod api;
mod board;
pub mod game_view;
mod page;
pub mod protocol;
mod socket;

pub use page::OnlinePage;
