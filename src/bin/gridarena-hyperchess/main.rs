//! The HyperChess page. A module of its own (started by the script in index.html), so its download
//! carries no other game; its built-in AI thinks in the AI module (`gridarena-ai-hyperchess`), and the
//! parts its first board does not show (the live view, the new-game form, the files bar and the 3D board)
//! are split off it ([`parts`]).

mod parts;

use gridarena::hyperchess::{self, HyperChessPage};
use leptos::prelude::*;

fn page() -> impl IntoView {
    view! { <HyperChessPage parts=parts::all() /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
    gridarena::ai_worker::preload_when_idle(hyperchess::builtin::MODULE);
}
