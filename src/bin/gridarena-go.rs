//! The Go page. A module of its own (started by the script in index.html), so its download carries no
//! other game; its built-in AI thinks in the AI module (`gridarena-ai-go`).

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::go::GoPage);
    gridarena::ai_worker::preload_when_idle(gridarena::go::builtin::MODULE);
}
