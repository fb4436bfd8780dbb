// Move generation, native vs WebAssembly under Node. Run it through wasm_vs_native.sh, which builds both.
//
//   node wasm_vs_native.mjs <movegen_native binary> <movegen_wasm.wasm> [rounds] [round_ms]
//
// Per position (benches/workload/mod.rs) and per function (legal_moves, count_moves):
// 1. the native binary calibrates the calls that take about round_ms;
// 2. then `rounds` times: one native round of exactly those calls (the binary is run with --calls and
//    times one warm-up and one measured round itself), then one wasm round of the same calls, timed with
//    performance.now() around the exported function.
// Alternating round by round keeps a change of machine load (other builds) from favouring one side.
// Reported: the best and the median round of each side; the ratio is taken on the best rounds, the
// least disturbed by other processes. Both sides must generate exactly the same moves: the move count,
// the checksum of the move list and every round's total are compared. Exit status 1 if any check
// fails; the targets (2x, then issue 16's 1.3x) are reported, not enforced.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [nativeBin, wasmPath, roundsArg = "9", roundMsArg = "100"] = process.argv.slice(2);
if (!nativeBin || !wasmPath) {
  console.error("usage: node wasm_vs_native.mjs <movegen_native> <movegen_wasm.wasm> [rounds] [round_ms]");
  process.exit(2);
}
const rounds = Math.max(1, Number(roundsArg));

const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const wasm = instance.exports;
const functions = { legal_moves: wasm.bench_legal_moves, count_moves: wasm.bench_count_moves };

const names = [];
for (let i = 0; i < wasm.bench_count(); i++) {
  const bytes = new Uint8Array(wasm.memory.buffer, wasm.bench_name_ptr(i), wasm.bench_name_len(i));
  names.push(new TextDecoder().decode(bytes));
}

let failed = false;
function check(ok, what) {
  if (!ok) {
    console.error(`MISMATCH: ${what}`);
    failed = true;
  }
}

// One measurement line of movegen_native, parsed.
function native(args) {
  const out = execFileSync(nativeBin, args, { encoding: "utf8" });
  const line = out.split("\n").find((l) => l.trim() && !l.startsWith("#"));
  const [name, fn, perCall, sum, calls, perRound, median, best] = line.trim().split(/\s+/);
  return { name, fn, perCall: Number(perCall), sum, calls: Number(calls), perRound: BigInt(perRound),
    median: Number(median), best: Number(best) };
}

// Let V8 tier the hot functions up from its baseline compiler before anything is timed.
const warmUntil = performance.now() + 1000;
while (performance.now() < warmUntil) {
  for (let i = 0; i < names.length; i++) {
    wasm.bench_legal_moves(i, 1000);
    wasm.bench_count_moves(i, 1000);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (let i = 0; i < names.length; i++) {
  for (const fn of Object.keys(functions)) {
    const base = ["--only", names[i], "--function", fn];
    const cal = native([...base, "--rounds", "1", "--round-ms", roundMsArg]);
    check(cal.name === names[i] && cal.fn === fn, `native measured ${cal.name} ${cal.fn}, not ${names[i]} ${fn}`);
    check(cal.perCall === wasm.bench_moves(i), `${names[i]}: moves per call native ${cal.perCall}, wasm ${wasm.bench_moves(i)}`);
    const wasmSum = BigInt.asUintN(64, wasm.bench_checksum(i)).toString(16).padStart(16, "0");
    check(cal.sum === wasmSum, `${names[i]}: move-list checksum native ${cal.sum}, wasm ${wasmSum}`);

    const run = functions[fn];
    check(run(i, cal.calls) === cal.perRound, `${names[i]} ${fn}: wasm warm-up total`);
    const nativeTimes = [];
    const wasmTimes = [];
    for (let r = 0; r < rounds; r++) {
      const n = native([...base, "--rounds", "1", "--calls", String(cal.calls)]);
      check(n.perRound === cal.perRound, `${names[i]} ${fn}: native round total`);
      nativeTimes.push(n.best);
      const t0 = performance.now();
      const total = run(i, cal.calls);
      const t1 = performance.now();
      check(total === cal.perRound, `${names[i]} ${fn}: wasm round total ${total}, native ${cal.perRound}`);
      wasmTimes.push((t1 - t0) / 1000);
    }
    const moves = Number(cal.perRound);
    rows.push({
      name: names[i], fn, perCall: cal.perCall,
      nativeBest: moves / Math.min(...nativeTimes), nativeMedian: moves / median(nativeTimes),
      wasmBest: moves / Math.min(...wasmTimes), wasmMedian: moves / median(wasmTimes),
    });
  }
}

const m = (x) => (x / 1e6).toFixed(1).padStart(7);
console.log(`${rounds} alternating rounds of ~${roundMsArg} ms; M moves/s on one thread, best (median)`);
console.log(`${"position".padEnd(16)} ${"function".padEnd(12)} ${"moves".padStart(5)}   ${"native".padEnd(16)}  ${"wasm".padEnd(16)}  native/wasm`);
for (const r of rows) {
  r.ratio = r.nativeBest / r.wasmBest;
  console.log(`${r.name.padEnd(16)} ${r.fn.padEnd(12)} ${String(r.perCall).padStart(5)}  ` +
    `${m(r.nativeBest)} (${m(r.nativeMedian)})  ${m(r.wasmBest)} (${m(r.wasmMedian)})  ${r.ratio.toFixed(2).padStart(6)}`);
}
const ratios = rows.map((r) => r.ratio);
const geomean = Math.exp(ratios.reduce((s, x) => s + Math.log(x), 0) / ratios.length);
const worst = Math.max(...ratios);
console.log(`native/wasm on the best rounds: geometric mean ${geomean.toFixed(2)}, worst ${worst.toFixed(2)}; ` +
  `first target (wasm within 2x of native): ${worst <= 2 ? "met" : "NOT met"}; ` +
  `issue 16's (within 1.3x): ${worst <= 1.3 ? "met" : "NOT met"} (it started at 1.52 geomean, 1.66 worst)`);
console.log(failed ? "CHECKS FAILED: native and wasm disagree" : "checks: native and wasm generated identical moves");
process.exit(failed ? 1 : 0);
