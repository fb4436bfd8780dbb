//! The classroom tournament page: mounts it. A module of its own (see src/main.rs), so its download
//! carries only the tournament and the Halma pieces it reuses.

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::tournament::TournamentPage);
}
