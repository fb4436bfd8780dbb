//! The Go page. A module of its own (started by the script in index.html), so its download carries no
//! other game; its built-in AI thinks in the AI module (`gridarena-ai-go`), and the parts its first board
//! does not show (the game records and the new-game form) are split off it ([`parts`]).

mod parts;

use gridarena::go::GoPage;
use leptos::prelude::*;

fn page() -> impl IntoView {
    view! { <GoPage parts=parts::all() /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
    gridarena::ai_worker::preload_when_idle(gridarena::go::builtin::MODULE);
}
