//! Code players: a student's own Python or JavaScript, run by the page in a Web Worker of its own and
//! asked for moves with the web protocol's request (docs/code-players.md).
//!
//! The page keeps the AIs ([`store`]), starts and asks them ([`player`], over [`worker`]), and offers an
//! editor to write them (the "Write an AI" page, [`page`]). The worker's own code is JavaScript
//! (`web/code-worker.js`), bundled into `dist/code/` at build time with Pyodide beside it; none of it
//! loads until a code player is in a game.

pub mod ai;
mod ai_list;
mod ai_list_panel;
pub mod ask_panel;
mod code_actions;
mod code_head;
mod editor;
mod file_tabs;
pub mod host;
mod links;
pub mod memory;
mod new_ai;
mod page;
mod page_state;
pub mod player;
pub mod seat;
pub mod store;
pub mod templates;
mod test_panel;
pub mod transfer;
pub mod trial;
mod versions;
pub mod worker;

pub use page::CodePage;

use wasm_bindgen::prelude::*;

/// One move's result, the same type on the command line: the answer for the referee, and what the
/// inspector shows (the engine reads a worker's reply into it, crates/engine/src/halma/code/reply.rs).
pub use gridarena_engine::halma::code::CodeMove;

#[wasm_bindgen(inline_js = "export function import_module(url) { return import(url); }")]
extern "C" {
    /// `import(url)`: wasm has no syntax of its own for loading a module later.
    #[wasm_bindgen(catch)]
    fn import_module(url: &str) -> Result<js_sys::Promise, JsValue>;
}

/// Loads the ES module at `path` (relative to the page) and returns its namespace.
pub(crate) async fn load_module(path: &str) -> Result<JsValue, String> {
    let url = asset_url(path);
    let promise = import_module(&url).map_err(crate::ai_worker::js_error)?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| format!("{path} did not load: {}", crate::ai_worker::js_error(e)))
}

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
