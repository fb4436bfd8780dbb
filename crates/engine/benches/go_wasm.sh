#!/usr/bin/env bash
# Go light playouts per second as WebAssembly under Node (one core), the wasm figure beside criterion's
# native one (`cargo bench -p gridarena-engine --bench go`).
#
#   crates/engine/benches/go_wasm.sh [size] [playouts]     (defaults 9 and 20000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
cargo build --release -p gridarena-engine --example go_playouts_wasm --target wasm32-unknown-unknown
target=$(cargo metadata --format-version 1 --no-deps |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')
node --input-type=module - "$target/wasm32-unknown-unknown/release/examples/go_playouts_wasm.wasm" "${1:-9}" "${2:-20000}" <<'JS'
import { readFileSync } from "node:fs";
const [path, size, n] = process.argv.slice(2).map((a, i) => (i ? Number(a) : a));
const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
const run = (k, seed) => instance.exports.go_playouts(size, k, BigInt(seed));
if (run(10, 1) === 0n) throw new Error(`size ${size} is not supported`);
run(Math.min(n, 2000), 2); // warm-up
const best = [];
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  run(n, 3 + r);
  best.push(n / ((performance.now() - t0) / 1000));
}
best.sort((a, b) => b - a);
console.log(`${size}x${size} light playouts, wasm under node ${process.version}: best ${Math.round(best[0])}/s, `
  + `median ${Math.round(best[2])}/s over 5 rounds of ${n}`);
JS
