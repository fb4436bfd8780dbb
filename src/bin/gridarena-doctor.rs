//! The endpoint doctor page ("Test an AI"): mounts it. A module of its own (started by the script in
//! index.html), so its download carries only the battery and the fetch that sends it; the report's view
//! is split off it (`src/lazy.rs`, `dist/split/`).

use gridarena::doctor::{self, DoctorPage};
use leptos::prelude::*;

gridarena::split_part!(
    report_view,
    REPORT_VIEW,
    doctor::ReportView,
    doctor::ReportViewProps
);

fn page() -> impl IntoView {
    view! { <DoctorPage report_view=REPORT_VIEW /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
}
