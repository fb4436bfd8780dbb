//! Code players: a student's own Python or JavaScript, run by the page in a Web Worker of its own and
//! asked for moves with the web protocol's request (docs/code-players.md).
//!
//! The page keeps the AIs ([`store`]), starts and asks them ([`player`], over [`worker`]), and offers an
//! editor to write them (the "Write an AI" page, [`page`]). The worker's own code is JavaScript
//! (`web/code-worker.js`), bundled into `dist/code/` at build time with Pyodide beside it; none of it
//! loads until a code player is in a game.

pub mod ai;
pub mod ask_panel;
pub mod bundle;
mod editor;
mod new_ai;
mod page;
pub mod player;
pub mod store;
pub mod templates;
mod test_panel;
mod transfer;
pub mod trial;
pub mod worker;

pub use page::CodePage;

/// The address of a file the build put in `dist/`, relative to the page (dist/ may live under any
/// sub-path of a static host).
pub(crate) fn asset_url(path: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    web_sys::Url::new_with_base(path, &base)
        .map(|u| u.href())
        .unwrap_or_else(|_| path.to_string())
}
