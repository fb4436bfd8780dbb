//! The endpoint doctor page ("Test an AI"): mounts it. A module of its own (started by the script in index.html), so its
//! download carries only the battery and the fetch that sends it.

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::doctor::DoctorPage);
}
