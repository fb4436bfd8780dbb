//! The browser app is built in the next issue; until then this binary only proves the root package links
//! against the engine.

fn main() {
    let rules = gridarena_engine::halma::Preset::default().rules();
    println!(
        "GridArena: the browser app is not built yet. The {}x{} arena engine is ready; try the `gridarena` CLI.",
        rules.board_size, rules.board_size
    );
}
