//! The classroom tournament page. A module of its own (started by the script in index.html), so its
//! download carries only the tournament and the Halma pieces it reuses; built-in entries think in the
//! AI module (`gridarena-ai-halma`). Its first download is the set-up view: the tournament's clock
//! (what starts, resumes and plays a tournament, and calls the roll) and the view of a tournament in
//! progress are split off it (`src/lazy.rs`, `dist/split/`).

use gridarena::tournament::jobs::{self, Asked};
use gridarena::tournament::{self, TournamentPage};
use leptos::prelude::*;

gridarena::split_part!(
    running,
    RUNNING,
    tournament::Running,
    tournament::RunningProps
);

gridarena::split_fn!(clock, CLOCK, |asked: Asked| -> () { jobs::run(asked) });

fn tournament_page() -> impl IntoView {
    view! { <TournamentPage running_view=RUNNING jobs=CLOCK /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(tournament_page);
    gridarena::ai_worker::preload_when_idle(gridarena::halma::builtin::MODULE);
}
