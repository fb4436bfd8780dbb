#!/usr/bin/env bash
# Move generation in moves per second, native vs WebAssembly under Node, on the positions of
# benches/workload/mod.rs. Builds examples/movegen_native (native) and examples/movegen_wasm (a cdylib
# for wasm32-unknown-unknown) in the release profile, then runs wasm_vs_native.mjs, which measures both,
# position by position, checks that they generate identical moves and prints the ratio.
#
#   crates/engine/benches/wasm_vs_native.sh [rounds] [round_ms]     (defaults 9 and 100)
#
# Needs node (20 or later) and the wasm32-unknown-unknown target. Exit status 1 if the two disagree.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."

cargo build --release -p gridarena-engine --example movegen_native
cargo build --release -p gridarena-engine --example movegen_wasm --target wasm32-unknown-unknown

target=$(cargo metadata --format-version 1 --no-deps |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')

echo "node $(node --version), $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
node "$here/wasm_vs_native.mjs" \
  "$target/release/examples/movegen_native" \
  "$target/wasm32-unknown-unknown/release/examples/movegen_wasm.wasm" \
  "${1:-9}" "${2:-100}"
