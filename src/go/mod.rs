//! The Go page: a local game against a person on the same screen or the built-in Monte-Carlo AI.
//!
//! `session` is the plain-Rust view model (tested natively); `builtin` is the AI as a job for a Web
//! Worker; the rest are components. The rules are the engine's `go` module.

mod ai;
pub mod builtin;
mod goban;
mod page;
mod players;
pub mod session;
mod setup_form;

pub use page::GoPage;

/// The page's clock in milliseconds: monotonic where the browser has `performance`.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
