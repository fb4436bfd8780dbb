//! The Halma arena page (the start page). A module of its own (started by the script in index.html), so
//! its download carries no other game; its built-in AIs think in the AI module (`gridarena-ai-halma`),
//! and the parts its first board does not show are split off it (`src/lazy.rs`, `dist/split/`).

use gridarena::halma::ticker::{self, Asked};
use gridarena::halma::{self, ArenaPage, ArenaParts};
use leptos::prelude::*;

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

fn page() -> impl IntoView {
    let parts = ArenaParts {
        clock: CLOCK,
        setup_form: SETUP_FORM,
        replay_bar: REPLAY_BAR,
        inspector: INSPECTOR,
        position_editor: POSITION_EDITOR,
        time_chart: TIME_CHART,
        debug_marks: DEBUG_MARKS,
    };
    view! { <ArenaPage parts=parts /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
    gridarena::ai_worker::preload_when_idle(halma::builtin::MODULE);
}
