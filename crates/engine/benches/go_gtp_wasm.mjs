#!/usr/bin/env node
// A GTP engine in Node around the Go AI compiled to WebAssembly (examples/go_gtp_wasm.rs): the GNU Go
// bench plays it like the native `gridarena go gtp`, to measure the AI as the page runs it.
//
//   node crates/engine/benches/go_gtp_wasm.mjs MODULE.wasm [--seed N] [--resign-below R]
//
// It knows the commands a match needs (protocol_version, name, version, list_commands, known_command,
// quit, boardsize, clear_board, komi, play, genmove, time_settings, time_left, final_score). Without
// time_settings each genmove runs the engine's default playouts. On stderr, after each genmove: the
// simulations and the time it took.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const seed = BigInt(option("--seed", "0"));
const resignBelow = Number(option("--resign-below", "0.05"));
const { instance } = await WebAssembly.instantiate(readFileSync(args[0]), {
  env: { now: () => performance.now() },
});
const go = instance.exports;

const COLUMNS = "ABCDEFGHJKLMNOPQRST";
let size = 9;
let komiHalf = 1;
const restart = () => go.go_new(size, komiHalf, seed);
restart();

const colour = (text) => {
  const t = (text ?? "").toLowerCase();
  if (t === "b" || t === "black") return 0;
  if (t === "w" || t === "white") return 1;
  return null;
};
const vertex = (text) => {
  const t = (text ?? "").toUpperCase();
  if (t === "PASS") return [-1, -1];
  const x = COLUMNS.indexOf(t[0]);
  const y = Number(t.slice(1)) - 1;
  return x >= 0 && x < size && Number.isInteger(y) && y >= 0 && y < size ? [x, y] : null;
};
const name = (code) =>
  code === -1 ? "pass" : code === -2 ? "resign" : `${COLUMNS[code % 32]}${Math.floor(code / 32) + 1}`;
const COMMANDS = [
  "protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
  "clear_board", "komi", "play", "genmove", "time_settings", "time_left", "final_score",
];

function execute(words) {
  const [command, ...rest] = words;
  switch (command) {
    case "protocol_version": return "2";
    case "name": return "GridArena (wasm)";
    case "version": return "1";
    case "known_command": return String(COMMANDS.includes(rest[0]));
    case "list_commands": return COMMANDS.join("\n");
    case "quit": return "";
    case "boardsize": {
      const n = Number(rest[0]);
      if (!Number.isInteger(n) || n < 2 || n > 19) throw new Error("unacceptable size");
      size = n;
      restart();
      return "";
    }
    case "clear_board": restart(); return "";
    case "komi": {
      const k = Number(rest[0]);
      if (!Number.isFinite(k) || !Number.isInteger(k * 2)) throw new Error("syntax error");
      komiHalf = k * 2;
      go.go_komi(komiHalf);
      return "";
    }
    case "play": {
      const c = colour(rest[0]);
      const v = vertex(rest[1]);
      if (c === null || v === null) throw new Error("syntax error");
      if (go.go_play(c, v[0], v[1]) !== 0) throw new Error("illegal move");
      return "";
    }
    case "genmove": {
      const c = colour(rest[0]);
      if (c === null) throw new Error("syntax error");
      const started = performance.now();
      const mv = name(go.go_genmove(c, resignBelow));
      const ms = performance.now() - started;
      process.stderr.write(`wasm: ${mv} ${go.go_playouts()} playouts ${ms.toFixed(0)} ms\n`);
      return mv;
    }
    case "time_settings": {
      const [main, byo, stones] = rest.map(Number);
      if (![main, byo, stones].every(Number.isFinite)) throw new Error("syntax error");
      go.go_time_settings(main, byo, stones);
      return "";
    }
    case "time_left": {
      const c = colour(rest[0]);
      const [left, stones] = rest.slice(1).map(Number);
      if (c === null || !Number.isFinite(left) || !Number.isFinite(stones)) throw new Error("syntax error");
      go.go_time_left(c, left, stones);
      return "";
    }
    case "final_score": {
      const ptr = go.go_score_ptr();
      const bytes = new Uint8Array(go.memory.buffer, ptr, go.go_score_len());
      return new TextDecoder().decode(bytes);
    }
    default: throw new Error("unknown command");
  }
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const words = line.replace(/#.*/, "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) continue;
  const id = /^\d+$/.test(words[0]) ? words.shift() : "";
  try {
    const text = execute(words);
    process.stdout.write(`=${id} ${text}\n\n`);
  } catch (e) {
    process.stdout.write(`?${id} ${e.message}\n\n`);
  }
  if (words[0] === "quit") break;
}
process.exit(0);
