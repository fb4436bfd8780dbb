//! The Compare page (`#/compare`): two players' games on the compare schedule, played by the
//! tournament's clock. A module of its own (started by the script in index.html), so the tournament
//! page's first download carries none of it; built-in players think in the AI module
//! (`gridarena-ai-halma`).

use gridarena::tournament::ComparePage;

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(ComparePage);
    gridarena::ai_worker::preload_when_idle(gridarena::halma::builtin::MODULE);
}
