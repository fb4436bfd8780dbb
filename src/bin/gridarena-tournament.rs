//! The classroom tournament page, and the Compare page: mounts the one the address names. A module of its
//! own (started by the script in index.html), so its download carries only the tournament and the Halma
//! pieces it reuses; built-in entries think in the AI module (`gridarena-ai-halma`), and the view of a
//! tournament in progress is split off it (`src/lazy.rs`, `dist/split/`).

use gridarena::tournament::{self, ComparePage, TournamentPage};
use leptos::prelude::*;

gridarena::split_part!(
    running,
    RUNNING,
    tournament::Running,
    tournament::RunningProps
);

fn tournament_page() -> impl IntoView {
    view! { <TournamentPage running_view=RUNNING /> }
}

fn main() {
    console_error_panic_hook::set_once();
    // The Compare page (`#/compare`) plays its games with the tournament's clock: it is served here too.
    if gridarena::page_in_address() == "compare" {
        gridarena::mount(ComparePage);
    } else {
        gridarena::mount(tournament_page);
    }
    gridarena::ai_worker::preload_when_idle(gridarena::halma::builtin::MODULE);
}
