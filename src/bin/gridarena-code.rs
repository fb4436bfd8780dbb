//! The "Write an AI" page: mounts it, and exports the code players to the other pages. A module of its
//! own (started by the script in index.html), so the editor's page carries no game but the Halma pieces
//! its tests use; the editor itself, Pyodide and the code players' worker load from `dist/code/` and
//! `dist/pyodide/` only when this page asks for them.
//!
//! The arena loads this module too, once a code player is in its game (`gridarena::code::seat`): then
//! there is no editor to mount, only [`CodeSeat`]s to serve, so the arena's own download carries none of
//! the code players' code.

use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    console_error_panic_hook::set_once();
    if gridarena::page_in_address() == "code" {
        gridarena::mount(gridarena::code::CodePage);
    }
}

/// One code player of another page's game (see `gridarena::code::host`). Its JavaScript class is what
/// `gridarena::code::seat` holds; freeing it terminates the player's worker.
#[wasm_bindgen]
pub struct CodeSeat(gridarena::code::host::HostedPlayer);

#[wasm_bindgen]
impl CodeSeat {
    /// Starts what `label` names for a game seeded with `seed` (decimal: a u64 does not fit a JavaScript
    /// number); `on_status(words, text)` hears `loading`, `ready` and `failed`.
    #[wasm_bindgen(constructor)]
    pub fn new(label: &str, seed: &str, on_status: js_sys::Function) -> CodeSeat {
        let seed = seed.parse().unwrap_or_default();
        CodeSeat(gridarena::code::host::HostedPlayer::open(
            label, seed, on_status,
        ))
    }

    /// Starts `source` (an AI's files as JSON, as a roster carries them) under the name `label`, on a
    /// clock of `clock_ms` a game and `grace_ms` of grace (the tournament's): a tournament's code entry.
    /// A new game resets this very code; nothing is looked up in the browser.
    #[wasm_bindgen(js_name = fromSource)]
    pub fn from_source(
        label: &str,
        source: &str,
        seed: &str,
        clock_ms: f64,
        grace_ms: f64,
        on_status: js_sys::Function,
    ) -> CodeSeat {
        let seed = seed.parse().unwrap_or_default();
        let clock = gridarena::code::host::clock_from_millis(clock_ms, grace_ms);
        CodeSeat(gridarena::code::host::HostedPlayer::from_source(
            label, source, seed, clock, on_status,
        ))
    }

    /// A new game seeded with `seed`, on a clock of `clock_ms` and `grace_ms` (code handed over whole).
    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self, seed: &str, clock_ms: f64, grace_ms: f64) {
        let clock = gridarena::code::host::clock_from_millis(clock_ms, grace_ms);
        self.0.new_game(seed.parse().unwrap_or_default(), clock);
    }

    /// Asks for `team`'s move on `occasion` (`game` or `single`, see
    /// `gridarena::code::host::occasion_word`); `on_answer` gets one object; returns what the code is
    /// given.
    pub fn ask(
        &self,
        request: &str,
        state: &str,
        team: &str,
        occasion: &str,
        on_answer: js_sys::Function,
    ) -> String {
        self.0.ask(request, state, team, occasion, on_answer)
    }

    pub fn cancel(&self, waited_ms: f64) -> bool {
        self.0.cancel(waited_ms)
    }
}
