//! The Online Go page: mounts it. A module of its own (see src/main.rs): it shares the Go page's board
//! and rules code but not its AI or SGF, and adds the server's protocol.

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::online::OnlinePage);
}
