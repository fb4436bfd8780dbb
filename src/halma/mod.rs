//! The Halma arena page: view models (plain Rust, tested natively) and the components that draw them.

pub mod answer_times;
mod arena;
mod arena_keys;
pub mod arena_model;
pub mod asker;
mod beat;
pub mod board;
mod board_paint;
pub mod board_view;
pub mod builtin;
mod controls;
mod debug_marks;
mod human_actions;
mod inspector;
mod latency_panel;
mod message_field;
pub mod messages;
mod notice_line;
pub mod player;
mod player_picker;
mod position_editor;
pub mod prefs;
pub mod replay;
mod replay_bar;
pub mod scrubber;
pub mod session;
mod setup_form;
mod ticker;
mod time_chart;
pub mod web_ai;

pub use arena::ArenaPage;
