//! Code players: a student's Python or JavaScript AI, run by the page in a Web Worker or by the CLI
//! with the machine's interpreters (docs/code-players.md).
//!
//! Running the code is the front-ends' business; the engine holds what they share: the AI's files and
//! their checks ([`source`]), the files with their hash worked out once ([`hashed`]), the names of
//! what can go wrong ([`failure`]), what a move came to ([`reply`]), and the course clock both hosts keep the same way ([`clock`]).

pub mod clock;
pub mod failure;
pub mod hashed;
pub mod reply;
pub mod source;

pub use clock::{Charge, ClockSettings, CourseClock, Deadline, Measured};
pub use failure::CodeFailure;
pub use hashed::HashedSource;
pub use reply::{CodeMove, RunnerReply, MAX_OUTPUT_CHARS};
pub use source::{CodeFile, Format, Lang, Source};
