//! The native half of the wasm-vs-native move-generation benchmark (`benches/wasm_vs_native.sh`), and a
//! standalone report of native move-generation speed.
//!
//! For each position of `benches/workload/mod.rs` and each of `legal_moves` and `count_moves`, it picks a
//! number of calls that takes about `--round-ms` milliseconds, runs one round to warm up, then times
//! `--rounds` rounds. Output, one line per measurement:
//!
//! `<position> <function> <moves per call> <checksum> <calls per round> <moves per round> <median s> <best s>`
//!
//! `benches/wasm_vs_native.mjs` runs this binary one round at a time (with `--calls` fixed), alternating
//! with rounds of the same calls in the wasm module (`examples/movegen_wasm.rs`), which must count exactly
//! the same moves.
//!
//! `cargo run --release -p gridarena-engine --example movegen_native [-- --rounds 7 --round-ms 200]`.
//! `--only NAME` measures one position, `--function legal_moves|count_moves` one function, `--calls N`
//! sets the calls per round instead of calibrating; `--show` prints the positions instead.

#[path = "../benches/workload/mod.rs"]
mod workload;

use std::time::Instant;
use workload::{checksum, run_count_moves, run_legal_moves, Bench};

fn main() {
    let mut rounds: usize = 7;
    let mut round_ms: f64 = 200.0;
    let mut show = false;
    let mut only: Option<String> = None;
    let mut function: Option<String> = None;
    let mut fixed_calls: Option<u32> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> f64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match arg.as_str() {
            "--rounds" => rounds = value("--rounds").max(1.0) as usize,
            "--round-ms" => round_ms = value("--round-ms").max(1.0),
            "--show" => show = true,
            "--only" => only = Some(args.next().expect("--only needs a position name")),
            "--function" => function = Some(args.next().expect("--function needs a name")),
            "--calls" => fixed_calls = Some(value("--calls").max(1.0) as u32),
            other => {
                panic!("unknown argument {other} (see the comment at the top of movegen_native.rs)")
            }
        }
    }

    if let Some(f) = &function {
        assert!(
            f == "legal_moves" || f == "count_moves",
            "--function {f}: expected legal_moves or count_moves"
        );
    }
    let mut benches = workload::benches();
    if let Some(name) = &only {
        benches.retain(|b| b.name == name);
        assert!(!benches.is_empty(), "no position is called {name}");
    }
    for b in &benches {
        b.check();
    }
    if show {
        for b in &benches {
            println!(
                "{}: {} moves for {}\n{}",
                b.name, b.expected, b.team, b.position
            );
        }
        return;
    }

    println!("# position function moves_per_call checksum calls_per_round moves_per_round median_s best_s");
    let mut buf = Vec::new();
    for b in &benches {
        buf.clear();
        b.position.legal_moves(b.team, &mut buf);
        let sum = checksum(&buf);
        let legal = |calls: u32| run_legal_moves(b, calls, &mut Vec::new());
        let count = |calls: u32| run_count_moves(b, calls);
        for (name, run) in [
            ("legal_moves", &legal as &dyn Fn(u32) -> u64),
            ("count_moves", &count),
        ] {
            if function.as_ref().is_some_and(|f| f != name) {
                continue;
            }
            let calls = fixed_calls.unwrap_or_else(|| calibrate(run, round_ms / 1000.0));
            let (total, median, best) = measure(b, run, calls, rounds);
            println!(
                "{} {name} {} {sum:016x} {calls} {total} {median:.6} {best:.6}",
                b.name, b.expected
            );
        }
    }
}

/// A number of calls that takes about `secs`.
fn calibrate(run: &dyn Fn(u32) -> u64, secs: f64) -> u32 {
    let mut calls = 1u32;
    loop {
        let t = Instant::now();
        run(calls);
        let took = t.elapsed().as_secs_f64();
        if took >= secs / 4.0 || calls >= 1 << 30 {
            return ((calls as f64 * secs / took.max(1e-9)) as u32).max(1);
        }
        calls = calls.saturating_mul(2);
    }
}

/// One warm-up round, then `rounds` timed rounds: the moves per round, the median and the best time.
fn measure(b: &Bench, run: &dyn Fn(u32) -> u64, calls: u32, rounds: usize) -> (u64, f64, f64) {
    let expected = u64::from(calls) * b.expected as u64;
    assert_eq!(
        run(calls),
        expected,
        "{}: wrong total in the warm-up",
        b.name
    );
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            let total = run(calls);
            let took = t.elapsed().as_secs_f64();
            assert_eq!(total, expected, "{}: wrong total", b.name);
            took
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (expected, times[times.len() / 2], times[0])
}
