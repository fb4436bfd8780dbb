//! The Go page: mounts it, and exports what its AI worker calls. A module of its own (started by the script in index.html),
//! so its download carries no other game.

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    console_error_panic_hook::set_once();
    // The AI's Web Worker loads this same module to call its export: there is no page to mount.
    if web_sys::window().is_none() {
        return;
    }
    gridarena::mount(gridarena::go::GoPage);
}

/// The built-in Go AI's move for a job; the worker calls it (see `gridarena::go::builtin`).
#[wasm_bindgen]
pub fn go_builtin_answer(job: &str) -> String {
    gridarena::go::builtin::go_builtin_answer(job)
}
