//! GridArena in the browser: one page per game, each its own wasm module (`src/bin/gridarena-*.rs`),
//! started by the script in `index.html` that picks one by the address.
//!
//! Components read plain view-model types (`halma::session::Session`, `go::session::GoSession`) that hold
//! no signals, so the pages' behaviour is tested natively; the rules come from the engine.

mod ai_player;
pub mod ai_worker;
pub(crate) mod alarm;
pub mod bell;
pub mod code;
pub mod doctor;
mod files;
pub mod go;
pub mod halma;
pub mod hyperchess;
pub mod lazy;
pub mod notice;
pub mod online;
mod thinker;
pub mod tick_alarm;
pub mod tick_wait;
pub mod tournament;
pub mod web_ai;
mod widgets;

#[cfg(test)]
mod test_waker;

use leptos::prelude::*;

/// Mounts a page into the document's `<main id="page">` (index.html holds the header around it), for as
/// long as the page is open.
pub fn mount<V: IntoView + 'static>(page: fn() -> V) {
    let Some(main) = document().get_element_by_id("page") else {
        leptos::logging::error!("index.html has no <main id=\"page\">");
        return;
    };
    let Ok(main) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(main) else {
        return;
    };
    leptos::mount::mount_to(main, page).forget();
}

/// The page the address names, as the script in index.html reads it: `code` for `#/code?ask=...`, the
/// empty string for the start page. A module that serves other pages too (the code players') mounts its
/// own page only where the address names it.
pub fn page_in_address() -> String {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let page = hash.trim_start_matches('#').trim_start_matches('/');
    let page = page.split('?').next().unwrap_or_default();
    page.strip_suffix('/').unwrap_or(page).to_string()
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
export function now_ms() { return typeof performance === 'object' ? performance.now() : Date.now(); }")]
extern "C" {
    /// The page's clock in milliseconds: monotonic where the browser has `performance`. One call into
    /// JavaScript: a tick reads the clock several times, and through `window()` and `performance()`
    /// each read was three calls and two handles.
    pub(crate) fn now_ms() -> f64;
}

/// A seed for a new game when the user gave none.
pub(crate) fn random_seed() -> u64 {
    // Two draws, since one f64 carries only 53 random bits.
    let draw = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    (draw() << 32) ^ draw()
}
