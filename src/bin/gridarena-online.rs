//! The Online Go page: mounts it. A module of its own (started by the script in index.html): it shares the Go page's board
//! and rules code but not its AI or SGF, and adds the server's protocol.

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::online::OnlinePage);
}
