//! The HyperChess page: mounts it. A module of its own (started by the script in index.html), so its download carries no
//! other game.

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::hyperchess::HyperChessPage);
}
