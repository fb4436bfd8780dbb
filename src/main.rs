//! Mounts the app; everything else is in the library so tests can reach it.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(gridarena::App);
}
