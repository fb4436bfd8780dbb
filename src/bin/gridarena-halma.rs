//! The Halma arena page (the start page). A module of its own (started by the script in index.html), so
//! its download carries no other game; its built-in AIs think in the AI module (`gridarena-ai-halma`).

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::halma::ArenaPage);
    gridarena::ai_worker::preload_when_idle(gridarena::halma::builtin::MODULE);
}
