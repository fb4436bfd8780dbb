//! The classroom tournament page, and the Compare page: mounts the one the address names. A module of its
//! own (started by the script in index.html), so its download carries only the tournament and the Halma
//! pieces it reuses; built-in entries think in the AI module (`gridarena-ai-halma`).

fn main() {
    console_error_panic_hook::set_once();
    // The Compare page (`#/compare`) plays its games with the tournament's clock: it is served here too.
    if gridarena::page_in_address() == "compare" {
        gridarena::mount(gridarena::tournament::ComparePage);
    } else {
        gridarena::mount(gridarena::tournament::TournamentPage);
    }
    gridarena::ai_worker::preload_when_idle(gridarena::halma::builtin::MODULE);
}
