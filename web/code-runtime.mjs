// GridArena code-player runtime: runs a student's Halma AI (Python through Pyodide, or JavaScript) and
// answers the page's messages. It is the logic of the code-player Worker (code-worker.js drives it there)
// and runs under Node too (web/test/runtime.test.mjs), so it touches no Worker-only API itself.
//
// Messages (plain objects with `kind`; seeds are decimal strings, a u64 does not fit a JS number):
//   page → worker
//     {kind:'start', lang:'python'|'javascript', format:'function'|'course', main:'main.py',
//      files:[{path, text} | {path, base64, side?:true}], seed:'12345', pyodideUrl:'…/dist/pyodide/',
//      limits:{outputChars:20000, memoryMb:1024}}
//        `side:true` marks a file the program wrote in an earlier move (a `sideFiles` entry resent after a
//        restart): it is put in the folder for this game, but a later `reset` starts without it.
//     {kind:'move', id, request:'<request JSON>', input:'<input.txt text, course format>'}
//     {kind:'reset', seed:'999'}                         a new game with the same files
//   worker → page
//     {kind:'progress', text}                            while Pyodide loads
//     {kind:'ready', loadMs, output, outputChars}        output: what the module printed while imported
//     {kind:'failed', code, message, file?, line?, column?, output, outputChars, restart?}
//        code: syntax_error | exception | no_move_function | could_not_start | network | out_of_memory
//     {kind:'answer', id, ok:true, body, output, outputChars, ms, sideFiles?}
//     {kind:'answer', id, ok:false, code, message, file?, line?, output, outputChars, ms, restart?, sideFiles?}
//        code: exception | network | out_of_memory | malformed_answer | crashed | no_output | output_too_large
//        restart:true: this worker cannot be trusted any more (its wasm memory grew past limits.memoryMb and
//        cannot shrink, or Pyodide itself failed): the page should replace it.
//     Course format: every answer, ok or not, carries `sideFiles` (the files the program created or changed in
//     its folder, base64; [] when none), except when they come to more than 1 MiB: then there is no
//     `sideFiles` and the output ends with a line saying they are not kept across a restart.
//
// What the student's code can and cannot do:
// - The network is closed (closeNetwork below) once Pyodide has loaded its own files and before any Python
//   module (pyodide.http, pyxhr) or student code takes a reference to it: fetch, XMLHttpRequest, WebSocket,
//   EventSource, importScripts, WebTransport, Worker, navigator.storage, ... are replaced, on the global
//   object and on every prototype that held them, by functions that record the attempt and throw; so is
//   Pyodide's package loader (pyodide_js.loadPackage). Any attempt fails the move (code `network`), even if
//   the code caught the error, and one made between two moves (a timer, a promise) fails the next. Python's
//   socket functions and pyodide.http count the same way, and so does Python's way out to JavaScript code
//   built from strings (js.eval, pyodide.code.run_js, js.Function), closed before Pyodide loads.
// - A dynamic import() of a URL cannot be removed from JavaScript. So JavaScript sources are checked when
//   they load: `import … from` and `import(…)` may only name the player's own files with a relative path
//   ('./helper.js'); anything else (a URL, a package name, a computed import(x)) is refused with
//   could_not_start. Code built from strings (eval, new Function, setTimeout('…')) is closed too
//   (closeCodeFromStrings), since it could call import() where the check cannot see it.
// - JavaScript modules import each other with relative specifiers; each file becomes a blob: URL (a data: URL
//   under Node) with its relative specifiers rewritten to the URLs of the files it imports. Other files
//   (JSON, binary tables) are read through the global `files`: files.text('table.json'),
//   files.bytes('table.bin') (a Uint8Array), files.list(). Python reads them as real files: the game's
//   folder is the current directory and on sys.path.
// - Randomness is seeded per game: Python random.seed(int(seed)); JavaScript's Math.random is replaced by a
//   seeded sfc32 generator. (crypto.getRandomValues is not seeded.)

import { JsPlayer, attemptRecord, finishOutput, noteUncaught, seededRandom } from './runners/function.mjs';

export { noteUncaught, seededRandom };

export const LOADING_PYTHON = 'Loading Python (about 6 MB, once; the browser keeps it)…';
export const DEFAULT_LIMITS = Object.freeze({ outputChars: 20000, memoryMb: 1024 });
const GAME = '/game';
const SIDE_FILES_CAP = 1 << 20;

const inNode = typeof process !== 'undefined' && !!process.versions?.node;
const now = () => performance.now();

// ---------------------------------------------------------------------------------------------------------
// Closing the network

// What the student's code tried, in order, for the whole life of this realm: {what, strings}. `strings`
// marks code built from strings (eval, new Function, setTimeout('…')): for a JavaScript player that is an
// exception of its own code, for a Python player a way out of Python into JavaScript that could import()
// anything, so a try at the network.
const attempts = attemptRecord();
// Taken before any student code runs: a Python player reaches this realm's globals through its `js`
// module and could replace JSON.parse or String.prototype.includes before the runtime reads its reply.
const apply = Reflect.apply;
const jsonParse = JSON.parse;
const strIncludes = String.prototype.includes;
const isArray = Array.isArray;

function closedError(what) {
  return new Error(`network access is closed to code players (${what})`);
}

function recordAttempt(what, strings = false) {
  attempts.record(what, strings);
}

/** The APIs on the global object that reach the network (or storage shared with other pages, or other
 * threads that would not be closed). Functions and constructors become throwing functions; the objects
 * (indexedDB, caches, fonts) become throwing getters. */
export const CLOSED_FUNCTIONS = [
  'fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'importScripts', 'WebTransport',
  'Worker', 'SharedWorker', 'BroadcastChannel', 'FontFace', 'RTCPeerConnection', 'webkitRTCPeerConnection',
];
export const CLOSED_OBJECTS = ['indexedDB', 'caches', 'fonts'];
const CLOSED_NAVIGATOR = ['sendBeacon', 'serviceWorker'];
/** Storage shared with the site's pages (the origin's private file system, its quota; storage buckets,
 * whose caches also fetch: Cache.add(url)) and locks shared with its other workers and pages. */
const CLOSED_NAVIGATOR_OBJECTS = ['storage', 'storageBuckets', 'locks'];
/** Pyodide's own JavaScript API (the `pyodide_js` module in Python) and its internals: what loads packages
 * from a URL, and Node's sockets. */
const CLOSED_PYODIDE = ['loadPackage', 'loadPackagesFromImports', 'useNodeSockFS'];
const CLOSED_PYODIDE_API = ['loadBinaryFile', 'loadDynlib', 'install', 'initializeNodeSockFS'];

function lock(obj, name, descriptor) {
  try {
    Object.defineProperty(obj, name, { enumerable: false, configurable: false, ...descriptor });
  } catch {
    try {
      obj[name] = descriptor.value;
    } catch {
      // nothing more can be done about this one
    }
  }
}

/** Put `descriptor` in place of `name` on `obj` and wherever else on its prototype chain `name` lives (an
 * API may be a prototype's, WorkerGlobalScope.prototype's, not the worker's own), locked: the original is
 * then reachable nowhere, not even as Object.getPrototypeOf(self).fetch, and each way to it is the closed
 * one. */
function replaceEverywhere(obj, name, descriptor) {
  for (let o = Object.getPrototypeOf(obj); o; o = Object.getPrototypeOf(o)) {
    if (!Object.prototype.hasOwnProperty.call(o, name)) continue;
    try {
      delete o[name];
    } catch {
      // non-configurable: overwritten below where possible
    }
    lock(o, name, descriptor);
  }
  try {
    delete obj[name];
  } catch {
    // as above
  }
  lock(obj, name, descriptor);
}

function closedFunction(what) {
  const f = function () {
    recordAttempt(what);
    throw closedError(what);
  };
  Object.defineProperty(f, 'name', { value: what.replace(/^.*\./, '') });
  return f;
}

const closedRealms = new WeakSet();

/**
 * Bounds every WebAssembly memory of realm `g` at `limit()` bytes while a move runs, not after it: Pyodide
 * grows its heap through WebAssembly.Memory.prototype.grow, so a grow past the limit throws, the allocation
 * fails and Python raises MemoryError (out_of_memory) with the heap still under the limit. The method is
 * made unwritable and unconfigurable before the student's code runs, and calls the original through
 * references taken now, so code that replaces Reflect, Function.prototype.call or the buffer getters later
 * cannot reach the original or change what it measures.
 */
export function capMemoryGrowth(limit, g = globalThis) {
  const proto = g.WebAssembly.Memory.prototype;
  const grow = proto.grow;
  const apply = Reflect.apply;
  const bufferOf = Object.getOwnPropertyDescriptor(proto, 'buffer').get;
  const lengthOf = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
  const sharedLengthOf = typeof SharedArrayBuffer === 'function'
    ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get : null;
  Object.defineProperty(proto, 'grow', {
    value: function cappedGrow(pages) {
      const buffer = apply(bufferOf, this, []);
      let bytes;
      try {
        bytes = apply(lengthOf, buffer, []);
      } catch {
        bytes = sharedLengthOf ? apply(sharedLengthOf, buffer, []) : Infinity;
      }
      const cap = limit();
      if (bytes + Number(pages) * 65536 > cap) {
        throw new RangeError(`out of memory: a player may use ${Math.round(cap / 1048576)} MB`);
      }
      return apply(grow, this, [pages]);
    },
    writable: false, configurable: false, enumerable: false,
  });
}

/** Replace every network API of `g` (the worker's global) by a function or getter that records the attempt
 * and throws, on `g` and on every prototype of its chain that held the original, non-configurable.
 * Idempotent. */
export function closeNetwork(g = globalThis) {
  if (closedRealms.has(g)) return;
  closedRealms.add(g);
  for (const name of CLOSED_FUNCTIONS) {
    replaceEverywhere(g, name, { value: closedFunction(name), writable: false });
  }
  for (const name of CLOSED_OBJECTS) {
    replaceEverywhere(g, name, {
      get() {
        recordAttempt(name);
        throw closedError(name);
      },
    });
  }
  const nav = g.navigator;
  if (nav && typeof nav === 'object') {
    for (const name of CLOSED_NAVIGATOR) {
      replaceEverywhere(nav, name, { value: closedFunction(`navigator.${name}`), writable: false });
    }
    for (const name of CLOSED_NAVIGATOR_OBJECTS) {
      const what = `navigator.${name}`;
      replaceEverywhere(nav, name, {
        get() {
          recordAttempt(what);
          throw closedError(what);
        },
      });
    }
  }
}

/** Close what Pyodide's JavaScript API offers for the network: Python reaches it as `pyodide_js`. */
function closePyodide(py) {
  for (const name of CLOSED_PYODIDE) {
    replaceEverywhere(py, name, { value: closedFunction(`pyodide.${name}`), writable: false });
  }
  const api = py._api;
  if (api && typeof api === 'object') {
    for (const name of CLOSED_PYODIDE_API) {
      replaceEverywhere(api, name, { value: closedFunction(`pyodide._api.${name}`), writable: false });
    }
  }
}

const stringCodeClosed = new WeakSet();

/** Close eval, the Function constructors and string timers: code built from strings could call import()
 * with a URL, which closeNetwork cannot take away. `Function` stays usable as a name (instanceof,
 * Function.prototype.call...). */
export function closeCodeFromStrings(g = globalThis) {
  if (stringCodeClosed.has(g)) return;
  stringCodeClosed.add(g);
  const refuse = (what) => {
    const f = function () {
      recordAttempt(what, true);
      throw new Error(`${what} is closed to code players (code built from strings could reach the network)`);
    };
    return f;
  };
  lock(g, 'eval', { value: refuse('eval'), writable: false });
  const ctors = [
    g.Function,
    Object.getPrototypeOf(async function () {}).constructor,
    Object.getPrototypeOf(function* () {}).constructor,
    Object.getPrototypeOf(async function* () {}).constructor,
  ];
  for (const ctor of ctors) {
    const stub = refuse(`new ${ctor.name}`);
    Object.defineProperty(stub, 'name', { value: ctor.name });
    Object.defineProperty(stub, 'prototype', { value: ctor.prototype, writable: false });
    lock(ctor.prototype, 'constructor', { value: stub, writable: false });
    if (ctor === g.Function) lock(g, 'Function', { value: stub, writable: false });
  }
  for (const name of ['setTimeout', 'setInterval']) {
    const original = g[name];
    if (typeof original !== 'function') continue;
    const wrapped = function (handler, ...rest) {
      if (typeof handler !== 'function') {
        if (typeof handler === 'string') recordAttempt(`${name} with a string`, true);
        throw new TypeError(`${name} needs a function: code from strings is closed to code players`);
      }
      return Reflect.apply(original, g, [handler, ...rest]);
    };
    Object.defineProperty(wrapped, 'name', { value: name });
    replaceEverywhere(g, name, { value: wrapped, writable: false });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers

/** Why `path` cannot be a player's file, or null when it can. */
export function badPath(path) {
  if (typeof path !== 'string' || path === '') return 'a file has no name';
  if (/[\0-\x1f]/.test(path)) return `${JSON.stringify(path)}: control characters are not allowed in file names`;
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path))
    return `${path}: absolute paths are not allowed; give paths relative to the player's folder`;
  if (path.includes('\\')) return `${path}: separate folders with '/', not '\\'`;
  const parts = path.split('/');
  if (parts.includes('..')) return `${path}: '..' is not allowed in file paths`;
  if (parts.some((p) => p === '' || p === '.')) return `${path}: empty or '.' folder names are not allowed`;
  return null;
}

function decodeBase64(s) {
  if (inNode) return new Uint8Array(Buffer.from(s, 'base64'));
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function encodeBase64(bytes) {
  if (inNode) return Buffer.from(bytes).toString('base64');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// ---------------------------------------------------------------------------------------------------------
// The runtime

export class CodeRuntime {
  /**
   * @param {object} [options]
   * @param {(text: string) => void} [options.onProgress] called with progress texts while Pyodide loads
   * @param {boolean} [options.sandbox] close the network and code-from-strings before student code runs
   *   (default true; the tests under Node keep it on too)
   * @param {string} [options.pyodideUrl] where Pyodide lives when the start message names no pyodideUrl
   * @param {boolean} [options.dataUrls] JavaScript modules as data: URLs rather than blob: URLs (default: under
   *   Node, whose import() does not take blob: URLs)
   */
  constructor(options = {}) {
    this.onProgress = options.onProgress || (() => {});
    this.sandbox = options.sandbox !== false;
    this.defaultPyodideUrl = options.pyodideUrl;
    this.dataUrls = options.dataUrls ?? inNode;
    // The Python runner's sources, [name, text] in order (web/runners/function.py, then course.py): the
    // host hands them in (the worker bundles them; the tests under Node read the files), so this module
    // needs no way to load text of its own.
    this.pythonSources = options.pythonSources ?? null;
    this.py = null; // the Pyodide instance, once loaded
    this.rt = null; // the _gridarena module
    this.pyLow = ''; // what Python wrote below sys.stdout (os.write(1, ...)), this step
    this.acorn = null;
    this.game = null; // {lang, format, main, files: [{path, bytes, side}], seed, limits}
    this.ready = false; // a player is loaded and can move
    this.broken = null; // why this runtime cannot go on (Pyodide failed)
    this.js = null; // {urls: Map url → path}, for revoking blob: URLs
    this.jsPlayer = null; // the shared runner's player (web/runners/function.mjs)
    this.gameCount = 0;
  }

  /** The attempts at the network since the last step was answered, and none from now on: a try made
   * between two steps (a timer, a promise, a Python task) refuses the next. Code built from strings counts for
   * Python only (see `attempts`). */
  takeAttempts() {
    return attempts.take(this.game?.lang === 'python');
  }

  /** Answer one message from the page; returns the reply (or null for none). */
  async handle(msg) {
    switch (msg?.kind) {
      case 'start':
        return this.start(msg);
      case 'move':
        return this.move(msg);
      case 'reset':
        return this.reset(msg);
      default:
        return { kind: 'failed', code: 'could_not_start', message: `unknown message kind ${JSON.stringify(msg?.kind)}`, output: '', outputChars: 0 };
    }
  }

  async start(msg) {
    const t0 = now();
    this.ready = false;
    const fail = (message, extra = {}) => ({ kind: 'failed', code: 'could_not_start', message, output: '', outputChars: 0, ...extra });
    const lang = msg.lang;
    const format = msg.format ?? 'function';
    const main = msg.main;
    if (lang !== 'python' && lang !== 'javascript') return fail(`unknown language ${JSON.stringify(lang)}: python or javascript`);
    if (format !== 'function' && format !== 'course') return fail(`unknown format ${JSON.stringify(format)}: function or course`);
    if (format === 'course' && lang !== 'python') return fail('the course format is for Python players only');
    if (!Array.isArray(msg.files) || msg.files.length === 0) return fail('the player has no files');
    const files = [];
    const seen = new Set();
    for (const f of msg.files) {
      const why = badPath(f?.path);
      if (why) return fail(why);
      if (seen.has(f.path)) return fail(`${f.path} is given twice`);
      seen.add(f.path);
      let bytes;
      if (typeof f.text === 'string') bytes = new TextEncoder().encode(f.text);
      else if (typeof f.base64 === 'string') {
        try {
          bytes = decodeBase64(f.base64);
        } catch {
          return fail(`${f.path}: its base64 content cannot be decoded`);
        }
      } else return fail(`${f.path} has neither text nor base64 content`);
      files.push({ path: f.path, bytes, side: !!f.side });
    }
    if (typeof main !== 'string' || !files.some((f) => f.path === main && !f.side))
      return fail(`the main file ${JSON.stringify(main)} is not among the player's files`);
    if (lang === 'python' && !main.endsWith('.py')) return fail(`${main}: a Python player's main file ends in .py`);
    if (lang === 'javascript' && !/\.m?js$/.test(main)) return fail(`${main}: a JavaScript player's main file ends in .js or .mjs`);
    const limits = {
      outputChars: Math.max(0, Number(msg.limits?.outputChars ?? DEFAULT_LIMITS.outputChars) || 0),
      memoryMb: Number(msg.limits?.memoryMb) > 0 ? Number(msg.limits.memoryMb) : DEFAULT_LIMITS.memoryMb,
    };
    this.game = { lang, format, main, files, seed: String(msg.seed ?? '0'), limits };

    try {
      if (lang === 'python') await this.loadPython(msg.pyodideUrl ?? this.defaultPyodideUrl);
      else if (!this.acorn) this.acorn = await import('acorn');
    } catch (e) {
      return fail(`${lang === 'python' ? 'Python (Pyodide)' : 'the JavaScript checker'} could not be loaded: ${e?.message ?? e}`);
    }
    if (this.broken) return fail(this.broken, { restart: true });
    if (this.sandbox) {
      closeNetwork(globalThis);
      closeCodeFromStrings(globalThis);
    }
    const reply = await this.newGame();
    if (reply.kind === 'ready') reply.loadMs = Math.round(now() - t0);
    return reply;
  }

  async reset(msg) {
    const t0 = now();
    if (!this.game) return { kind: 'failed', code: 'could_not_start', message: 'reset before start', output: '', outputChars: 0 };
    if (this.broken) return { kind: 'failed', code: 'could_not_start', message: this.broken, output: '', outputChars: 0, restart: true };
    this.ready = false;
    if (msg.seed !== undefined) this.game.seed = String(msg.seed);
    // a new game starts from the files the player handed in, without what an earlier game wrote
    this.game.files = this.game.files.filter((f) => !f.side);
    const reply = await this.newGame();
    if (reply.kind === 'ready') reply.loadMs = Math.round(now() - t0);
    return reply;
  }

  async newGame() {
    this.gameCount++;
    attempts.take(true); // attempts up to here belong to an earlier game
    return this.game.lang === 'python' ? this.pyNewGame() : this.jsNewGame();
  }

  async move(msg) {
    const t0 = now();
    const id = msg.id;
    let r;
    if (!this.ready) {
      r = {
        ok: false, code: 'crashed', output: '', outputChars: 0,
        message: this.broken || 'no player is loaded (its start failed or was not sent)',
        ...(this.broken ? { restart: true } : {}),
      };
    } else if (this.game.lang === 'python') r = this.pyMove(msg);
    else r = await this.jsMove(msg);
    return { kind: 'answer', id, ...r, ms: Math.round((now() - t0) * 10) / 10 };
  }

  // ----- Python -----

  async loadPython(url) {
    if (this.py) return;
    if (!url) throw new Error('no pyodideUrl was given');
    if (!Array.isArray(this.pythonSources)) throw new Error("the Python runner's sources were not given");
    if (!url.endsWith('/')) url += '/';
    this.onProgress(LOADING_PYTHON);
    // Before Pyodide loads: it keeps a Function constructor of its own (its API's tests.Function), which must
    // be the closed one.
    if (this.sandbox) closeCodeFromStrings(globalThis);
    // Once per realm, before Python's heap first grows.
    if (!this.memoryCapped) {
      capMemoryGrowth(() => (this.game?.limits.memoryMb ?? DEFAULT_LIMITS.memoryMb) * 1048576);
      this.memoryCapped = true;
    }
    const { loadPyodide } = await import(url + 'pyodide.mjs');
    const quiet = () => {};
    const py = await loadPyodide({ indexURL: url, stdout: quiet, stderr: quiet, env: { HOME: GAME } });
    // Pyodide has loaded its files (with fetch, in a browser) and no Python module has taken a JavaScript
    // function yet: close the network now, so that what pyodide.http imports (fetch, XMLHttpRequest) is the
    // closed one, as is everything any later import takes.
    if (this.sandbox) {
      closeNetwork(globalThis);
      closePyodide(py);
    }
    this.onProgress('Starting Python…');
    py.setStdout({ batched: (s) => this.lowOutput(s) });
    py.setStderr({ batched: (s) => this.lowOutput(s) });
    py.setStdin({ stdin: () => null });
    py.FS.mkdirTree(GAME);
    py.globals.set('_gridarena_sources', py.toPy(this.pythonSources));
    // Python's network attempts are recorded in this realm too, where Python code cannot take them back.
    py.globals.set('_gridarena_record', (what) => recordAttempt(`${what}`));
    py.runPython(`
import sys, types
_gridarena = types.ModuleType('_gridarena')
_gridarena.__file__ = '<gridarena>'
sys.modules['_gridarena'] = _gridarena
for _name, _source in _gridarena_sources:
    exec(compile(_source, '<gridarena %s>' % _name, 'exec'), _gridarena.__dict__)
_gridarena.configure('${GAME}', _gridarena_record)
del _gridarena, _gridarena_sources, _gridarena_record, _name, _source`);
    const mod = py.pyimport('_gridarena');
    this.rt = {};
    for (const name of ['clear_game', 'new_game', 'move_function', 'move_course']) this.rt[name] = mod[name].copy();
    mod.destroy();
    this.py = py;
  }

  lowOutput(s) {
    if (this.pyLow.length < 1 << 20) this.pyLow += `${s}\n`;
  }

  /** Call a Python entry point; returns its result object, or marks the runtime broken. */
  pyCall(name, ...args) {
    this.pyLow = '';
    let r;
    try {
      r = jsonParse(this.rt[name](this.game.limits.outputChars, ...args));
    } catch (e) {
      this.broken = `Python stopped working (${String(e?.message ?? e).split('\n').slice(-2).join(' ').trim()}); the player must be restarted`;
      this.ready = false;
      return { ok: false, code: 'crashed', message: this.broken, restart: true, output: '', outputChars: 0 };
    }
    let total = r.total;
    let kept = r.kept;
    if (this.pyLow) {
      total += this.pyLow.length;
      const room = this.game.limits.outputChars - kept.length;
      if (room > 0) kept += this.pyLow.slice(0, room);
    }
    const out = { ...r, output: finishOutput(kept, total), outputChars: total };
    delete out.kept;
    delete out.total;
    delete out.net;
    // The attempts this realm recorded (Python's own are recorded here too, by its audit hook: see
    // configure in web/runners/function.py), then the names Python kept, for their words.
    const tried = this.takeAttempts();
    let names = tried.names;
    const net = isArray(r.net) ? r.net : [];
    for (let i = 0; i < net.length; i++) {
      const what = `${net[i]}`;
      if (names === '') names = what;
      else if (!apply(strIncludes, names, [what])) names = `${names}, ${what}`;
    }
    if (tried.count > 0 || net.length > 0) return this.networkFailure(names, out);
    const memory = this.py._module.HEAP8.buffer.byteLength;
    if (memory > this.game.limits.memoryMb * 1048576) {
      this.broken = `the player used ${Math.round(memory / 1048576)} MB of memory, more than the ${this.game.limits.memoryMb} MB allowed; the player must be restarted`;
      return { ...out, ok: false, code: 'out_of_memory', message: this.broken, restart: true };
    }
    return out;
  }

  networkFailure(names, out) {
    const keep = {};
    if (out.side) keep.side = out.side;
    if (out.sideOver) keep.sideOver = out.sideOver;
    return {
      ok: false, code: 'network', output: out.output, outputChars: out.outputChars, ...keep,
      // The page words it ("the code tried to reach the network (fetch): ..."): just what was tried.
      message: names,
    };
  }

  async pyNewGame() {
    const { py, game } = this;
    try {
      this.rt.clear_game();
      for (const f of game.files) {
        const full = `${GAME}/${f.path}`;
        const dir = full.slice(0, full.lastIndexOf('/'));
        if (dir !== GAME) py.FS.mkdirTree(dir);
        py.FS.writeFile(full, f.bytes);
      }
    } catch (e) {
      return { kind: 'failed', code: 'could_not_start', message: `the player's files could not be written: ${e?.message ?? e}`, output: '', outputChars: 0 };
    }
    const config = {
      main: game.main,
      format: game.format,
      seed: game.seed,
      originals: game.files.filter((f) => !f.side).map((f) => f.path),
    };
    const r = this.pyCall('new_game', JSON.stringify(config));
    if (!r.ok) return { kind: 'failed', ...stripOk(r) };
    this.ready = true;
    return { kind: 'ready', output: r.output, outputChars: r.outputChars };
  }

  pyMove(msg) {
    const course = this.game.format === 'course';
    const r = course ? this.pyCall('move_course', String(msg.input ?? '')) : this.pyCall('move_function', String(msg.request ?? 'null'));
    const out = { ...r };
    if (course) {
      delete out.side;
      delete out.sideOver;
      if (r.side) out.sideFiles = r.side;
      else if (r.sideOver) out.output += 'The files this program wrote come to more than 1 MiB: they are not kept across a restart of the player.\n';
    }
    if (out.ok) {
      for (const k of ['code', 'message', 'file', 'line', 'column']) delete out[k];
    }
    return out;
  }

  // ----- JavaScript -----

  async jsNewGame() {
    const { game } = this;
    if (this.js) for (const url of this.js.urls.keys()) if (url.startsWith('blob:')) URL.revokeObjectURL(url);
    this.js = null;
    const fail = (code, message, extra = {}) => ({ kind: 'failed', code, message, output: '', outputChars: 0, ...extra });

    // parse every JavaScript file: syntax, and what it imports
    const sources = new Map();
    const decoder = new TextDecoder();
    for (const f of game.files) if (/\.m?js$/.test(f.path)) sources.set(f.path, decoder.decode(f.bytes));
    const parsed = new Map(); // path → {source, imports: [{start, end, target}]}
    for (const [path, source] of sources) {
      let ast;
      try {
        ast = this.acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true, allowHashBang: true });
      } catch (e) {
        const line = e.loc?.line;
        const column = e.loc ? e.loc.column + 1 : undefined;
        const what = String(e.message).replace(/\s*\(\d+:\d+\)$/, '');
        const where = line ? `${path} line ${line}${column ? `, column ${column}` : ''}` : path;
        return fail('syntax_error', `${where}: SyntaxError: ${what}`, { file: path, line, column });
      }
      const imports = [];
      let refused = null;
      walk(ast, (node) => {
        if (refused) return;
        let src = null;
        if ((node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source) src = node.source;
        else if (node.type === 'ImportExpression') src = node.source;
        else return;
        const spec = literalString(src);
        const target = spec === null ? null : resolveRelative(path, spec);
        if (target === null) {
          const shown = spec === null ? 'a computed import(…)' : JSON.stringify(spec);
          refused = fail('could_not_start',
            `${path} line ${node.loc.start.line}: ${shown} is not allowed: a code player imports only its own files, with a relative path written out such as './helper.js' (it has no network and no packages)`,
            { file: path, line: node.loc.start.line, column: node.loc.start.column + 1 });
          return;
        }
        if (!sources.has(target)) {
          refused = fail('could_not_start',
            `${path} line ${node.loc.start.line}: ${JSON.stringify(spec)} is not one of the player's JavaScript files${game.files.some((f) => f.path === target) ? ' (read data files with files.text() or files.bytes())' : ''}`,
            { file: path, line: node.loc.start.line, column: node.loc.start.column + 1 });
          return;
        }
        imports.push({ start: src.start, end: src.end, target });
      });
      if (refused) return refused;
      parsed.set(path, { source, imports });
    }

    // modules in dependency order, from the main file; a cycle cannot be expressed with blob URLs
    const order = [];
    const state = new Map(); // path → 'open' | 'done'
    const stack = [];
    let cycle = null;
    const visit = (p) => {
      if (cycle) return;
      if (state.get(p) === 'done') return;
      if (state.get(p) === 'open') {
        cycle = [...stack.slice(stack.indexOf(p)), p];
        return;
      }
      state.set(p, 'open');
      stack.push(p);
      for (const imp of parsed.get(p).imports) visit(imp.target);
      stack.pop();
      state.set(p, 'done');
      order.push(p);
    };
    visit(game.main);
    if (cycle) return fail('could_not_start', `the player's modules import each other in a cycle (${cycle.join(' → ')}); code players cannot load cyclic imports: move what they share into a third file`);

    const urls = new Map(); // url → path
    const urlOf = new Map(); // path → url
    for (const p of order) {
      const { source, imports } = parsed.get(p);
      let text = source;
      for (const imp of [...imports].sort((a, b) => b.start - a.start)) {
        text = text.slice(0, imp.start) + JSON.stringify(urlOf.get(imp.target)) + text.slice(imp.end);
      }
      text += `\n// game ${this.gameCount}\n//# sourceURL=${p}\n`;
      const url = this.dataUrls
        ? `data:text/javascript;base64,${encodeBase64(new TextEncoder().encode(text))}`
        : URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
      urls.set(url, p);
      urlOf.set(p, url);
    }
    this.js = { urls };
    // From here the shared runner decides (web/runners/function.mjs), as it does on the command line.
    this.jsPlayer = new JsPlayer({
      seed: game.seed,
      files: game.files,
      urls,
      outputChars: game.limits.outputChars,
      takeAttempts: () => this.takeAttempts(),
    });
    const r = await this.jsPlayer.load(game.main, () => import(urlOf.get(game.main)));
    if (!r.ok) return { kind: 'failed', ...stripOk(r) };
    this.ready = true;
    return { kind: 'ready', output: r.output, outputChars: r.outputChars };
  }

  async jsMove(msg) {
    return this.jsPlayer.play(msg.request);
  }
}

function stripOk(r) {
  const { ok, side, sideOver, ...rest } = r;
  return rest;
}

function literalString(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

/** The player's file that `spec` (written in `from`) names, or null unless it is a relative specifier. */
function resolveRelative(from, spec) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

function walk(node, visit) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit);
    return;
  }
  if (typeof node.type !== 'string') return;
  visit(node);
  for (const key in node) {
    if (key === 'loc') continue;
    const v = node[key];
    if (v && typeof v === 'object') walk(v, visit);
  }
}
