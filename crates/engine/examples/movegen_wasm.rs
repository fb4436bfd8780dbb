//! The WebAssembly half of the wasm-vs-native move-generation benchmark (`benches/wasm_vs_native.sh`).
//!
//! A `cdylib` with plain C-ABI exports, no wasm-bindgen: `benches/wasm_vs_native.mjs` instantiates it
//! under Node and times the calls with `performance.now()`. It runs the very loop the native half
//! (`examples/movegen_native.rs`) times, from the same file (`benches/workload/mod.rs`).
//!
//! Build: `cargo build --release -p gridarena-engine --example movegen_wasm --target wasm32-unknown-unknown`.
//!
//! Exports (an index out of range gives 0 and an empty name, never a trap):
//! - `bench_count()`: how many positions there are.
//! - `bench_name_ptr(i)`, `bench_name_len(i)`: position `i`'s name, UTF-8 in the module's memory.
//! - `bench_moves(i)`: the legal moves on position `i`.
//! - `bench_checksum(i)`: the checksum of that move list in generated order (a BigInt in JS).
//! - `bench_legal_moves(i, calls)`, `bench_count_moves(i, calls)`: the moves generated (counted) by
//!   `calls` calls (a BigInt in JS).

#[path = "../benches/workload/mod.rs"]
mod workload;

use gridarena_engine::halma::Move;
use std::cell::RefCell;
use workload::Bench;

thread_local! {
    static BENCHES: Vec<Bench> = {
        let benches = workload::benches();
        for b in &benches {
            b.check();
        }
        benches
    };
    static BUF: RefCell<Vec<Move>> = const { RefCell::new(Vec::new()) };
}

/// `f` applied to position `i`, or `default` if there is none.
fn with_bench<T>(i: u32, default: T, f: impl FnOnce(&Bench) -> T) -> T {
    BENCHES.with(|benches| benches.get(i as usize).map_or(default, f))
}

#[no_mangle]
pub extern "C" fn bench_count() -> u32 {
    BENCHES.with(|benches| benches.len() as u32)
}

#[no_mangle]
pub extern "C" fn bench_name_ptr(i: u32) -> *const u8 {
    with_bench(i, "".as_ptr(), |b| b.name.as_ptr())
}

#[no_mangle]
pub extern "C" fn bench_name_len(i: u32) -> u32 {
    with_bench(i, 0, |b| b.name.len() as u32)
}

#[no_mangle]
pub extern "C" fn bench_moves(i: u32) -> u32 {
    with_bench(i, 0, |b| b.expected as u32)
}

#[no_mangle]
pub extern "C" fn bench_checksum(i: u32) -> u64 {
    with_bench(i, 0, |b| {
        let mut moves = Vec::new();
        b.position.legal_moves(b.team, &mut moves);
        workload::checksum(&moves)
    })
}

#[no_mangle]
pub extern "C" fn bench_legal_moves(i: u32, calls: u32) -> u64 {
    with_bench(i, 0, |b| {
        BUF.with(|buf| workload::run_legal_moves(b, calls, &mut buf.borrow_mut()))
    })
}

#[no_mangle]
pub extern "C" fn bench_count_moves(i: u32, calls: u32) -> u64 {
    with_bench(i, 0, |b| workload::run_count_moves(b, calls))
}
