//! The Halma arena page (the start page). A module of its own (started by the script in index.html), so
//! its download carries no other game; its built-in AIs think in the AI module (`gridarena-ai-halma`),
//! and the parts its first board does not show are split off it ([`parts`]).

mod parts;

use gridarena::halma::{self, ArenaPage};
use leptos::prelude::*;

fn page() -> impl IntoView {
    view! { <ArenaPage parts=parts::all() /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
    gridarena::ai_worker::preload_when_idle(halma::builtin::MODULE);
}
