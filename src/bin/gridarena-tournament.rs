//! The classroom tournament page, and the Compare page: mounts the one the address names, and exports what its built-in AIs' workers call. A module of
//! its own (started by the script in index.html), so its download carries only the tournament and the Halma pieces it reuses.

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    console_error_panic_hook::set_once();
    // The built-in AIs' Web Workers load this same module to call its export: there is no page to mount.
    if web_sys::window().is_none() {
        return;
    }
    // The Compare page (`#/compare`) plays its games with the tournament's clock: it is served here too.
    if gridarena::page_in_address() == "compare" {
        gridarena::mount(gridarena::tournament::ComparePage);
    } else {
        gridarena::mount(gridarena::tournament::TournamentPage);
    }
}

/// A built-in Halma AI's answer to a job; the workers call it (see `gridarena::halma::builtin`).
#[wasm_bindgen]
pub fn halma_builtin_answer(job: &str) -> String {
    gridarena::halma::builtin::halma_builtin_answer(job)
}
