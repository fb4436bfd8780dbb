//! The Go page's lazy parts: the game records and the new-game form, each cut into a module of its own
//! (`dist/split/gridarena-go/split_<name>.wasm`, src/lazy.rs) and named in the page list, `pages.json`.
//! Declared in the page's own bin, never in the library (see `gridarena-halma/parts.rs`).

use gridarena::go::{self, GoParts};

gridarena::split_part!(records, RECORDS, go::Records, go::RecordsProps);
gridarena::split_part!(setup_form, SETUP_FORM, go::SetupForm, go::SetupFormProps);

/// Every part, handed to the page.
pub fn all() -> GoParts {
    GoParts {
        records: RECORDS,
        setup_form: SETUP_FORM,
    }
}
