//! The HyperChess page. A module of its own (started by the script in index.html), so its download
//! carries no other game; its built-in AI thinks in the AI module (`gridarena-ai-hyperchess`).

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::hyperchess::HyperChessPage);
    gridarena::ai_worker::preload_when_idle(gridarena::hyperchess::builtin::MODULE);
}
