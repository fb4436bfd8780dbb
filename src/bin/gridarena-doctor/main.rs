//! The endpoint doctor page ("Test an AI"): mounts it. A module of its own (started by the script in
//! index.html), so its download carries only the battery and the fetch that sends it; the report's view
//! is split off it ([`parts`]).

mod parts;

use gridarena::doctor::DoctorPage;
use leptos::prelude::*;

fn page() -> impl IntoView {
    view! { <DoctorPage report_view=parts::report_view() /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
}
