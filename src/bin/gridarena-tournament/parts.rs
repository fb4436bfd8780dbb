//! The tournament page's lazy parts: its clock (what starts, resumes and plays a tournament, and calls
//! the roll) and the view of a tournament in progress, each cut into a module of its own
//! (`dist/split/gridarena-tournament/split_<name>.wasm`, src/lazy.rs) and named in the page list,
//! `pages.json`. Declared in the page's own bin, never in the library (see `gridarena-halma/parts.rs`).

use gridarena::lazy::Split;
use gridarena::tournament::{self, jobs, Asked, RunningProps};

gridarena::split_part!(
    running,
    RUNNING,
    tournament::Running,
    tournament::RunningProps
);

// The page calls it through `lazy::InOrder`, so a resume and a start keep their order.
gridarena::split_fn!(clock, CLOCK, |asked: Asked| -> () { jobs::run(asked) });

/// The view of a tournament in progress.
pub fn running() -> Split<RunningProps> {
    RUNNING
}

/// The tournament's clock.
pub fn clock() -> Split<Asked, ()> {
    CLOCK
}
