//! The Go page. A module of its own (started by the script in index.html), so its download carries no
//! other game; its built-in AI thinks in the AI module (`gridarena-ai-go`), and the parts its first board
//! does not show (the game records and the new-game form) are split off it (`src/lazy.rs`, `dist/split/`).

use gridarena::go::{self, GoPage, GoParts};
use leptos::prelude::*;

gridarena::split_part!(records, RECORDS, go::Records, go::RecordsProps);
gridarena::split_part!(setup_form, SETUP_FORM, go::SetupForm, go::SetupFormProps);

fn page() -> impl IntoView {
    let parts = GoParts {
        records: RECORDS,
        setup_form: SETUP_FORM,
    };
    view! { <GoPage parts=parts /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
    gridarena::ai_worker::preload_when_idle(gridarena::go::builtin::MODULE);
}
