//! The Online Go page: a client of the `gridarena serve` server (docs/online.md), on the Go page's board.
//! The messages are the engine's [`gridarena_engine::go::online`], the same types the server writes.
//!
//! `lobby` and `game_view` are the plain view models, tested natively; `api` (HTTP and the kept
//! identity) and `socket` (the WebSocket) talk to the server; the rest are components: `page` (name form
//! or lobby), `register`, `lobby_view` with `lobby_bar`, `seek_form`, `watch_form` and `leaderboard`,
//! and `board` with `player_panel` for a game.

mod api;
mod board;
pub mod game_view;
mod leaderboard;
mod lobby;
mod lobby_bar;
mod lobby_view;
mod page;
mod player_panel;
mod register;
mod seek_form;
mod socket;
mod watch_form;

pub use board::{OnlineBoard, OnlineBoardProps};
pub use page::OnlinePage;
