//! The Go page: a local game against a person on the same screen or the built-in Monte-Carlo AI.
//!
//! `session` is the plain-Rust view model (tested natively); `builtin` is the AI as a job for a Web
//! Worker; the rest are components. The rules are the engine's `go` module.

mod ai;
pub mod builtin;
pub(crate) mod goban;
mod page;
pub(crate) mod players;
pub mod session;
mod setup_form;

pub use page::GoPage;

use crate::now_ms as now;
