//! The HyperChess page: mounts it, and exports what its AI worker calls. A module of its own (started by
//! the script in index.html), so its download carries no other game.

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    console_error_panic_hook::set_once();
    // The AI's Web Worker loads this same module to call its export: there is no page to mount.
    if web_sys::window().is_none() {
        return;
    }
    gridarena::mount(gridarena::hyperchess::HyperChessPage);
}

/// The built-in HyperChess AI's move for a job; the worker calls it (see
/// `gridarena::hyperchess::builtin`).
#[wasm_bindgen]
pub fn hyperchess_builtin_answer(job: &str) -> String {
    gridarena::hyperchess::builtin::hyperchess_builtin_answer(job)
}
