//! GridArena's shared rules code.
//!
//! Every game's rules and referee live here, once, so the browser app, the command-line tool and the server
//! can never disagree about what is legal. The crate does no I/O, has no web or async dependencies and must
//! not panic on any input: everything that comes from outside is parsed into a checked type first, and a
//! refusal is an error value that says what was wrong.

pub mod compare;
pub mod go;
pub mod halma;
pub mod hyperchess;
mod rng;
mod sort;
pub mod tournament;

pub use rng::SplitMix64;
