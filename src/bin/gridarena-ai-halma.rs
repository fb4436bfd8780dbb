//! The built-in Halma AIs' own module: the rules and the AI, no page and no UI framework. The page's Web
//! Workers load it (see `gridarena::ai_worker`) the first time a game asks a built-in AI, or when the page
//! is idle after its first board, so the page's own download carries no search; a page whose browser
//! cannot run workers loads it on its own thread instead.

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    console_error_panic_hook::set_once();
}

/// The answer to one job (see `gridarena::halma::builtin`).
#[wasm_bindgen]
pub fn answer(job: &str) -> String {
    gridarena::halma::builtin::halma_builtin_answer(job)
}
