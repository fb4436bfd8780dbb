//! The Halma arena's lazy parts: what its first board does not show, each cut into a module of its own
//! (`dist/split/gridarena-halma/split_<name>.wasm`, src/lazy.rs) and named in the page list, `pages.json`.
//!
//! They are declared here, in the page's own bin, rather than in the library: a split point is a root of
//! every module it is linked into, so one in the library would carry the part into every page. A folder
//! per page with a `parts.rs` lets a reader see from the source tree which parts each page has.

use gridarena::halma::ticker::{self, Asked};
use gridarena::halma::{self, ArenaParts};

// The tick machinery: the page calls it through `lazy::InOrder`, so a reset and a step keep their order.
gridarena::split_fn!(clock, CLOCK, |asked: Asked| -> () { ticker::run(asked) });

gridarena::split_part!(
    setup_form,
    SETUP_FORM,
    halma::SetupForm,
    halma::SetupFormProps
);
gridarena::split_part!(
    replay_bar,
    REPLAY_BAR,
    halma::ReplayBar,
    halma::ReplayBarProps
);
gridarena::split_part!(
    inspector,
    INSPECTOR,
    halma::Inspector,
    halma::InspectorProps
);
gridarena::split_part!(
    position_editor,
    POSITION_EDITOR,
    halma::PositionEditor,
    halma::PositionEditorProps
);
gridarena::split_part!(
    time_chart,
    TIME_CHART,
    halma::TimeChart,
    halma::TimeChartProps
);
gridarena::split_part!(
    debug_marks,
    DEBUG_MARKS,
    halma::DebugMarks,
    halma::DebugMarksProps
);

/// Every part, handed to the page.
pub fn all() -> ArenaParts {
    ArenaParts {
        clock: CLOCK,
        setup_form: SETUP_FORM,
        replay_bar: REPLAY_BAR,
        inspector: INSPECTOR,
        position_editor: POSITION_EDITOR,
        time_chart: TIME_CHART,
        debug_marks: DEBUG_MARKS,
    }
}
