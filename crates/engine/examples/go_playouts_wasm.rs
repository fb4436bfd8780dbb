//! Go light playouts as WebAssembly, for `benches/go_wasm.sh`: the wasm figure beside criterion's native
//! one (`benches/go.rs`).
//!
//! A `cdylib` with one plain export, no wasm-bindgen: `go_playouts(size, n, seed)` plays `n` playouts
//! from the empty board and returns the sum of black's areas (so the work cannot be optimised away, and
//! two runs can be compared).

use gridarena_engine::go::{BoardSize, Game};
use gridarena_engine::SplitMix64;

/// The sum of black's area over `n` playouts on an empty `size` board; 0 for an unsupported size.
#[no_mangle]
pub extern "C" fn go_playouts(size: u32, n: u32, seed: u64) -> u64 {
    let Ok(size) = BoardSize::new(size) else {
        return 0;
    };
    let game = Game::new(size);
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| u64::from(game.playout(&mut rng).black))
        .sum()
}
