//! The classroom tournament page. A module of its own (started by the script in index.html), so its
//! download carries only the tournament and the Halma pieces it reuses; built-in entries think in the
//! AI module (`gridarena-ai-halma`). Its first download is the set-up view: the tournament's clock and
//! the view of a tournament in progress are split off it ([`parts`]).

mod parts;

use gridarena::tournament::TournamentPage;
use leptos::prelude::*;

fn tournament_page() -> impl IntoView {
    view! { <TournamentPage running_view=parts::running() jobs=parts::clock() /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(tournament_page);
    gridarena::ai_worker::preload_when_idle(gridarena::halma::builtin::MODULE);
}
