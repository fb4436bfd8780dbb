//! Mounts the app; everything else is in the library so tests can reach it.

fn main() {
    console_error_panic_hook::set_once();
    // The built-in AIs' Web Worker loads this same module to call its exports: there is no page to mount.
    if web_sys::window().is_none() {
        return;
    }
    leptos::mount::mount_to_body(gridarena::App);
}
