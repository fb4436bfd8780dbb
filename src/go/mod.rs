//! The Go page: a local game against a person on the same screen or the built-in Monte-Carlo AI.
//!
//! `session` is the plain-Rust view model and `display` what the page shows of it (both tested natively);
//! `builtin` is the AI as a job for a Web Worker; the rest are components, one a file. The rules are the
//! engine's `go` module.

mod actions;
pub mod builtin;
mod display;
pub(crate) mod goban;
mod page;
pub(crate) mod players;
mod records;
pub mod session;
mod setup_form;

pub use page::{GoPage, GoParts};
pub use records::{Records, RecordsProps};
pub use setup_form::{SetupForm, SetupFormProps};

use crate::now_ms as now;
