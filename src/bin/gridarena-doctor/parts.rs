//! The endpoint doctor page's lazy part: the report's view, cut into a module of its own
//! (`dist/split/gridarena-doctor/split_report_view.wasm`, src/lazy.rs) and named in the page list,
//! `pages.json`. Declared in the page's own bin, never in the library (see `gridarena-halma/parts.rs`).

use gridarena::doctor::{self, ReportViewProps};
use gridarena::lazy::Split;

gridarena::split_part!(
    report_view,
    REPORT_VIEW,
    doctor::ReportView,
    doctor::ReportViewProps
);

/// The report's view, handed to the page.
pub fn report_view() -> Split<ReportViewProps> {
    REPORT_VIEW
}
