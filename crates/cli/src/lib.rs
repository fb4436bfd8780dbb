//! The library half of the `gridarena` command: the headless match runner, so that benches and tests
//! drive exactly the code `gridarena halma match` runs.
//!
//! - [`runner`]: players (`builtin:NAME` or a URL), the game loop with the browser page's timing and
//!   seeding rules, per-team statistics.
//! - [`compare`]: two players' games with seats swapped, several at once, until the engine's stop rule
//!   says one is stronger (`gridarena halma compare`).
//! - [`code`]: code entries (a student's Python or JavaScript) run with this machine's interpreters, sandboxed.
//! - [`probe`]: the endpoint doctor's requests (`gridarena halma probe`), judged by the engine's battery.
//! - [`terminal`]: outside text made safe to print.
//! - [`durable`]: files written whole and synced, so that neither a kill nor a power cut loses them.
//! - [`io`]: stdin, JSON and exit codes for the command, and [`io::read_capped`], the one way anything
//!   from outside (stdin, a roster, a code entry's files, a program's `output.txt`) is read under a cap.
//! - [`web`]: the HTTP client for web AIs: the page's request, cut at the tick's deadline, every failure a
//!   clear reason.

pub mod bridge;
pub mod code;
pub mod compare;
pub mod durable;
pub mod io;
pub mod probe;
pub mod program;
pub mod queue;
pub mod runner;
pub mod terminal;
pub mod tournament;
pub mod web;
