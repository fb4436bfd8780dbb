//! The Halma arena page (the start page): mounts it, and exports what its AI worker calls. A module of its
//! own (started by the script in index.html), so its download carries no other game.

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    console_error_panic_hook::set_once();
    // The built-in AIs' Web Worker loads this same module to call its exports: there is no page to mount.
    if web_sys::window().is_none() {
        return;
    }
    gridarena::mount(gridarena::halma::ArenaPage);
}

/// A built-in Halma AI's answer to a job; the worker calls it (see `gridarena::halma::builtin`).
#[wasm_bindgen]
pub fn halma_builtin_answer(job: &str) -> String {
    gridarena::halma::builtin::halma_builtin_answer(job)
}
