// GridArena's code-player runner for JavaScript: the one source of what a JavaScript player's move is, in
// both hosts. The page's worker runs it (web/code-runtime.mjs imports it; esbuild bundles it into
// dist/code/worker.js); the command line runs it in node inside its sandbox (crates/cli/src/code/function.rs
// embeds it, and crates/cli/src/code/runner.mjs imports it as a data: URL, so it imports nothing itself).
// Each host loads the player's modules its own way (blob: URLs checked with acorn in the page, file: URLs
// behind a resolve hook in node) and closes the network its own way, and hands this runner the result:
// what a move asks, prints, answers and fails with is decided here. The conformance suite
// (tests/fixtures/conformance/) checks the two hosts agree.

// Intrinsics taken when this module loads, before any student code runs: what the host records and
// decides with them cannot be changed by code that replaces Array.prototype.push, String.prototype.slice,
// a setter on Array.prototype's indices or Reflect.apply later.
const apply = Reflect.apply;
const mapSet = Map.prototype.set;
const mapGet = Map.prototype.get;
const mapHas = Map.prototype.has;

/**
 * The record of a realm's network attempts, append-only: `record(what, strings)` notes one (`strings`:
 * code built from strings, an attempt for a Python player only), `take(withStrings)` gives those since it
 * was last called as {count, names} (names joined with ", ", each once). Only primitives and the
 * intrinsics above are used, so the student's code, sharing the realm, cannot take an attempt off it.
 */
export function attemptRecord() {
  const log = new Map();
  let count = 0;
  let seen = 0;
  return {
    record(what, strings = false) {
      apply(mapSet, log, [count, { what: `${what}`, strings: strings === true }]);
      count += 1;
    },
    take(withStrings) {
      const names = new Map();
      let text = '';
      let taken = 0;
      for (; seen < count; seen++) {
        const a = apply(mapGet, log, [seen]);
        if (a.strings && !withStrings) continue;
        taken += 1;
        if (apply(mapHas, names, [a.what])) continue;
        apply(mapSet, names, [a.what, true]);
        text = text === '' ? a.what : `${text}, ${a.what}`;
      }
      return { count: taken, names: text };
    },
  };
}

/** A seeded replacement for Math.random: sfc32, its state drawn from the u64 seed by splitmix64. */
export function seededRandom(seed) {
  let x;
  try {
    x = BigInt.asUintN(64, BigInt(String(seed ?? '0')));
  } catch {
    x = 0n;
  }
  const mask = (1n << 64n) - 1n;
  const next = () => {
    x = (x + 0x9e3779b97f4a7c15n) & mask;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    return z ^ (z >> 31n);
  };
  const w1 = next();
  const w2 = next();
  let a = Number(w1 & 0xffffffffn) | 0;
  let b = Number(w1 >> 32n) | 0;
  let c = Number(w2 & 0xffffffffn) | 0;
  let d = 1;
  const step = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) step();
  return function random() {
    return step() / 4294967296;
  };
}

/** What the player prints: the first `cap` characters and a count of all. */
export class Capture {
  constructor(cap) {
    this.cap = cap;
    this.kept = '';
    this.total = 0;
  }
  write(s) {
    this.total += s.length;
    const room = this.cap - this.kept.length;
    if (room > 0) this.kept += s.length <= room ? s : s.slice(0, room);
  }
}

/** The printed text a host shows: what was kept, and how much more there was. */
export function finishOutput(kept, total) {
  if (total <= kept.length) return kept;
  const sep = kept && !kept.endsWith('\n') ? '\n' : '';
  return `${kept}${sep}… ${total - kept.length} more characters not kept\n`;
}

// The capture of the move (or import) in progress, and how stacks name the player's files: one player
// runs in a realm at a time.
let activeCapture = null;
let stackMapper = (s) => s;

export function formatValue(v, nested) {
  if (typeof v === 'string') return nested ? JSON.stringify(v) : v;
  if (v instanceof Error) return stackMapper(v.stack || String(v));
  if (typeof v === 'function') return `[Function: ${v.name || 'anonymous'}]`;
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || typeof v !== 'object') return String(v);
  try {
    if (v instanceof Map) return `Map(${v.size}) ${formatValue(Object.fromEntries(v), true)}`;
    if (v instanceof Set) return `Set(${v.size}) ${formatValue([...v], true)}`;
    const j = JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : x));
    if (j !== undefined) return j;
  } catch {
    // circular or hostile: fall through
  }
  try {
    return String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

function formatArgs(args) {
  return args.map((a) => formatValue(a, false)).join(' ');
}

/** An error the student's code threw outside the call of a move (a timer, a promise nobody awaited): written
 * to the output of the move in progress, if any (the page's worker error events and node's
 * uncaughtException call this). */
export function noteUncaught(error) {
  if (!activeCapture) return;
  let text;
  try {
    text = error instanceof Error ? stackMapper(error.stack || String(error)) : formatValue(error, true);
  } catch {
    text = '(an error that cannot be shown)';
  }
  activeCapture.write(`Uncaught ${text}\n`);
}

const consoles = new WeakSet();
/** The console of realm `g` writes to the capture of the move in progress (else where it wrote before). */
function installConsole(g) {
  const c = g.console;
  if (!c || consoles.has(c)) return;
  consoles.add(c);
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table']) {
    const original = typeof c[m] === 'function' ? c[m].bind(c) : () => {};
    c[m] = (...args) => {
      if (activeCapture) activeCapture.write(`${formatArgs(args)}\n`);
      else original(...args);
    };
  }
  const originalAssert = typeof c.assert === 'function' ? c.assert.bind(c) : () => {};
  c.assert = (cond, ...args) => {
    if (cond) return;
    if (activeCapture) activeCapture.write(`Assertion failed${args.length ? `: ${formatArgs(args)}` : ''}\n`);
    else originalAssert(cond, ...args);
  };
}

/** How a value the player returned is named in a malformed_answer. */
export function describe(value) {
  if (typeof value === 'function') return `a function (${value.name || 'anonymous'})`;
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return `a BigInt (${value}n)`;
  if (value && typeof value === 'object') return `an object of type ${value.constructor?.name ?? 'Object'}`;
  return String(value);
}

/** The global `files`: the player's own files, read-only, by their paths. */
function installFiles(g, files) {
  const store = new Map(files.map((f) => [f.path, f.bytes]));
  const get = (path) => {
    const p = String(path).replace(/^\.\//, '');
    const b = store.get(p);
    if (!b) throw new Error(`${path} is not one of the player's files`);
    return b;
  };
  const api = Object.freeze({
    text: (path) => new TextDecoder().decode(get(path)),
    bytes: (path) => get(path).slice(),
    has: (path) => store.has(String(path).replace(/^\.\//, '')),
    list: () => [...store.keys()].sort(),
  });
  Object.defineProperty(g, 'files', { value: api, writable: false, configurable: true, enumerable: false });
}

/**
 * Keep the message of a V8 stack and the frames in the player's files, each URL swapped for its path.
 * `urls` maps each module's URL (blob:, data: or file:) to the player's path.
 */
export function mapStack(stack, urls) {
  const swap = (s) => {
    for (const [url, path] of urls) if (s.includes(url)) s = s.split(url).join(path);
    return s;
  };
  const paths = new Set(urls.values());
  const lines = String(stack).split('\n');
  const head = [];
  const frames = [];
  let i = 0;
  for (; i < lines.length && !/^\s+at /.test(lines[i]); i++) head.push(swap(lines[i]));
  let file;
  let line;
  for (; i < lines.length; i++) {
    const l = swap(lines[i]);
    const m = /\(?([^\s()]+):(\d+):(\d+)\)?\s*$/.exec(l);
    if (!m || !paths.has(m[1])) continue;
    if (!file) {
      file = m[1];
      line = Number(m[2]);
    }
    frames.push(l);
  }
  return { text: [...head, ...frames].join('\n'), file, line };
}

/** A thrown value as a failed answer: out_of_memory for failed allocations, else exception with the
 * stack limited to the player's files. */
function failureOf(e, urls) {
  if (e instanceof RangeError && /allocation|array length|string length|out of memory|Array buffer/i.test(e.message)) {
    return { ok: false, code: 'out_of_memory', message: `${e.name}: ${e.message}` };
  }
  if (!(e instanceof Error)) {
    let shown;
    try {
      shown = typeof e === 'string' ? JSON.stringify(e) : formatValue(e, true);
    } catch {
      shown = '(a value that cannot be shown)';
    }
    return { ok: false, code: 'exception', message: `Uncaught ${shown}` };
  }
  const { text, file, line } = mapStack(e.stack || `${e.name}: ${e.message}`, urls);
  const r = { ok: false, code: 'exception', message: text };
  if (file) Object.assign(r, { file, line });
  return r;
}

/**
 * One JavaScript player's game in this realm.
 * - `files`: [{path, bytes}] the player handed in (the global `files` reads them);
 * - `urls`: Map of each module's URL to its path (for stacks);
 * - `takeAttempts()`: the network attempts the host saw since it was last asked, {count, names} (an
 *   attemptRecord's take): any fails the move `network`, even when the code caught the error.
 * Every reply is {ok, body | code, message, file?, line?} with the printed text as output (finished,
 * with the count of what was not kept) and outputChars.
 */
export class JsPlayer {
  constructor({ seed, files, urls, outputChars, takeAttempts, g = globalThis }) {
    this.urls = urls;
    this.outputChars = outputChars;
    this.takeAttempts = takeAttempts;
    this.move = null;
    g.Math.random = seededRandom(seed);
    installFiles(g, files);
    installConsole(g);
    stackMapper = (s) => mapStack(s, urls).text;
  }

  /** Runs `work` with the player's printing captured; returns [value, failure, output]. */
  async captured(work) {
    const capture = new Capture(this.outputChars);
    let value;
    let failed = null;
    activeCapture = capture;
    try {
      value = await work();
    } catch (e) {
      failed = failureOf(e, this.urls);
    } finally {
      activeCapture = null;
    }
    const output = { output: finishOutput(capture.kept, capture.total), outputChars: capture.total };
    const tried = this.takeAttempts();
    if (tried.count > 0) failed = { ok: false, code: 'network', message: tried.names };
    return [value, failed, output];
  }

  /** Imports the main module with the host's `importMain()` and finds its move function. */
  async load(main, importMain) {
    const [mod, failed, output] = await this.captured(importMain);
    if (failed) return { ...failed, ...output };
    let move = mod.move;
    if (typeof move !== 'function' && typeof mod.default === 'function') move = mod.default;
    if (typeof move !== 'function' && typeof mod.default?.move === 'function') move = mod.default.move.bind(mod.default);
    if (typeof move !== 'function') {
      return { ok: false, code: 'no_move_function', file: main, message: `${main} defines no function move(request): export it, as in  export function move(request) { … }`, ...output };
    }
    this.move = move;
    return { ok: true, ...output };
  }

  /** One move: `request` is the request's JSON text. */
  async play(request) {
    if (!this.move) return { ok: false, code: 'crashed', message: 'no player is loaded (its start failed)', output: '', outputChars: 0 };
    let parsed;
    try {
      parsed = JSON.parse(String(request ?? 'null'));
    } catch (e) {
      return { ok: false, code: 'crashed', message: `the request is not JSON: ${e.message}`, output: '', outputChars: 0 };
    }
    const move = this.move;
    const [value, failed, output] = await this.captured(() => Reflect.apply(move, undefined, [parsed]));
    if (failed) return { ...failed, ...output };
    let body;
    try {
      body = value === undefined ? 'null' : JSON.stringify(value);
    } catch (e) {
      return { ok: false, code: 'malformed_answer', message: `move returned ${describe(value)}, which cannot be sent as JSON: ${e.message}`, ...output };
    }
    if (body === undefined) return { ok: false, code: 'malformed_answer', message: `move returned ${describe(value)}, which cannot be sent as JSON`, ...output };
    return { ok: true, body, ...output };
  }
}
