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
const attempts = [];

function closedError(what) {
  return new Error(`network access is closed to code players (${what})`);
}

function recordAttempt(what, strings = false) {
  attempts.push({ what, strings });
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
// Output capture (JavaScript players; Python players capture inside Python)

class Capture {
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

function finishOutput(kept, total) {
  if (total <= kept.length) return kept;
  const sep = kept && !kept.endsWith('\n') ? '\n' : '';
  return `${kept}${sep}… ${total - kept.length} more characters not kept\n`;
}

let activeCapture = null; // the capture of the JavaScript move (or import) in progress
let stackMapper = (s) => s;

function formatValue(v, nested) {
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
 * to the output of the move in progress, if any (the worker's error events call this). */
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

let consoleInstalled = false;
function installConsole() {
  if (consoleInstalled || typeof console === 'undefined') return;
  consoleInstalled = true;
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table']) {
    const original = typeof console[m] === 'function' ? console[m].bind(console) : () => {};
    console[m] = (...args) => {
      if (activeCapture) activeCapture.write(`${formatArgs(args)}\n`);
      else original(...args);
    };
  }
  const originalAssert = typeof console.assert === 'function' ? console.assert.bind(console) : () => {};
  console.assert = (cond, ...args) => {
    if (cond) return;
    if (activeCapture) activeCapture.write(`Assertion failed${args.length ? `: ${formatArgs(args)}` : ''}\n`);
    else originalAssert(cond, ...args);
  };
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

function lastLines(text, maxChars = 1200, maxLines = 20) {
  let t = text.length > maxChars ? text.slice(-maxChars) : text;
  const lines = t.split('\n');
  if (lines.length > maxLines) t = lines.slice(-maxLines).join('\n');
  return t.trimEnd();
}

// ---------------------------------------------------------------------------------------------------------
// The Python side, run once in Pyodide after it loads (module _gridarena)

const RUNTIME_PY = String.raw`
import sys, os, io, json, types, builtins, importlib, importlib.util, importlib.machinery
import traceback, linecache, base64, stat, random, shutil, reprlib, atexit, weakref

GAME = '/game'
OUTPUT_CAP = 64 * 1024
SIDE_CAP = 1 << 20
TAIL = 2000
NET = []
STDLIB_PATH = [p for p in sys.path if p not in ('', '.', '/home/pyodide')]


class Capture:
    def __init__(self):
        self.reset(20000)

    def reset(self, cap):
        self.cap = cap
        self.parts = []
        self.kept = 0
        self.total = 0
        self.tail = []
        self.tail_len = 0

    def write(self, s):
        n = len(s)
        self.total += n
        room = self.cap - self.kept
        if room > 0:
            self.parts.append(s[:room] if n > room else s)
            self.kept += min(n, room)
            if n <= room:
                return
            s = s[room:]
            n -= room
        if n:
            # past the cap: keep only the end, for the message of a crash
            self.tail.append(s if n <= TAIL else s[-TAIL:])
            self.tail_len += min(n, TAIL)
            if self.tail_len > 4 * TAIL:
                t = ''.join(self.tail)[-TAIL:]
                self.tail = [t]
                self.tail_len = len(t)

    def end(self):
        if self.tail_len:
            return ''.join(self.tail)[-TAIL:]
        return ''.join(self.parts)[-TAIL:]


CAPTURE = Capture()


class _Bytes:
    def write(self, b):
        CAPTURE.write(bytes(b).decode('utf-8', 'replace'))
        return len(b)

    def flush(self):
        pass


class Stream(io.TextIOBase):
    encoding = 'utf-8'
    errors = 'strict'

    def __init__(self, name):
        self._name = name
        self.buffer = _Bytes()

    @property
    def name(self):
        return self._name

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not ' + type(s).__name__)
        CAPTURE.write(s)
        return len(s)

    def writable(self):
        return True

    def isatty(self):
        return False

    def flush(self):
        pass


STDOUT = Stream('<stdout>')
STDERR = Stream('<stderr>')


# --- the network, seen from Python -------------------------------------------------------------------

def _closed(what):
    def closed(*args, **kwargs):
        NET.append(what)
        raise OSError('network access is closed to code players (' + what + ')')
    closed.__name__ = what.rsplit('.', 1)[-1]
    return closed


def close_network():
    import socket, _socket
    for name in ('create_connection', 'create_server', 'getaddrinfo', 'gethostbyname', 'gethostbyname_ex',
                 'gethostbyaddr', 'getnameinfo'):
        f = _closed('socket.' + name)
        setattr(socket, name, f)
        if hasattr(_socket, name):
            setattr(_socket, name, f)
    for name in ('connect', 'connect_ex', 'sendto', 'bind'):
        setattr(socket.socket, name, _closed('socket.' + name))
    # (_socket.socket itself stays: socket.socket calls it; in the browser its connect goes through the
    # closed WebSocket)
    # pyodide.http keeps the fetch and XMLHttpRequest it saw when imported: imported before the worker closed
    # them (it is not, but should a Pyodide import it while loading), it would keep the real ones, so it is
    # imported afresh here, after they are closed
    for name in [m for m in sys.modules if m == 'pyodide.http' or m.startswith('pyodide.http.')]:
        del sys.modules[name]
    try:
        import pyodide.http as http
        for name in ('pyfetch', 'open_url'):
            if hasattr(http, name):
                setattr(http, name, _closed('pyodide.http.' + name))
    except ImportError:
        pass


close_network()


# --- the player's files and modules ------------------------------------------------------------------

def inside(path):
    return isinstance(path, str) and (path == GAME or path.startswith(GAME + '/'))


def rel(path):
    return os.path.relpath(path, GAME) if inside(path) else path


class StudentLoader(importlib.machinery.SourceFileLoader):
    """Compiles the player's modules with their path relative to the game folder as the file name, so a
    traceback reads File "main.py", line 12; never writes or reads __pycache__."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return compile(self.get_data(path), rel(path), 'exec', dont_inherit=True)


def _path_hook(entry):
    p = os.path.abspath(entry or '.')
    if inside(p):
        return importlib.machinery.FileFinder(p, (StudentLoader, ['.py']))
    raise ImportError('not a player folder')


sys.path_hooks.insert(0, _path_hook)
sys.path_importer_cache.clear()
sys.dont_write_bytecode = True


class State:
    main = None
    format = None
    module = None
    originals = {}


def purge():
    """Forget the player's modules (sys.modules) so the next import runs them afresh."""
    for name, m in list(sys.modules.items()):
        try:
            mine = inside(getattr(m, '__file__', None))
            if not mine:
                paths = getattr(m, '__path__', None)
                mine = paths is not None and any(inside(p) for p in list(paths))
        except Exception:
            mine = False
        if mine:
            del sys.modules[name]
    for key in list(sys.path_importer_cache):
        if inside(key):
            del sys.path_importer_cache[key]
    importlib.invalidate_caches()
    linecache.clearcache()


def set_path(main):
    main_dir = os.path.dirname(os.path.join(GAME, main))
    first = [main_dir] if main_dir != GAME else []
    sys.path[:] = first + [GAME] + STDLIB_PATH


def remove(path):
    if os.path.lexists(path):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


# --- errors ------------------------------------------------------------------------------------------

def _student_frame(f):
    name = f.filename or ''
    return not name.startswith('<') and not os.path.isabs(name)


def _filter(te, seen):
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if _student_frame(f)])
    _filter(te.__cause__, seen)
    _filter(te.__context__, seen)
    for x in getattr(te, 'exceptions', None) or []:
        _filter(x, seen)


def traceback_text(e):
    os.chdir(GAME)  # the student's files are found relative to it (linecache)
    te = traceback.TracebackException.from_exception(e)
    _filter(te, set())
    return ''.join(te.format()).rstrip('\n'), te


def syntax_failure(e, code='syntax_error'):
    where = e.filename or '?'
    if e.lineno:
        where += ' line %d' % e.lineno
        if e.offset:
            where += ', column %d' % e.offset
    d = {'ok': False, 'code': code,
         'message': '%s: %s: %s' % (where, type(e).__name__, e.msg)}
    if e.filename:
        d['file'] = e.filename
    if e.lineno:
        d['line'] = e.lineno
    if e.offset:
        d['column'] = e.offset
    return d


def failure(e):
    if isinstance(e, SyntaxError) and e.filename and not e.filename.startswith('<') \
            and not os.path.isabs(e.filename):
        return syntax_failure(e)
    text, te = traceback_text(e)
    code = 'out_of_memory' if isinstance(e, MemoryError) else 'exception'
    d = {'ok': False, 'code': code, 'message': text}
    if te.stack:
        d['file'] = te.stack[-1].filename
        d['line'] = te.stack[-1].lineno
    return d


def exit_status(e):
    c = e.code
    if c is None:
        return 0
    if isinstance(c, int):
        return c
    try:
        STDERR.write(str(c) + '\n')
    except Exception:
        pass
    return 1


def crashed(status):
    end = CAPTURE.end().rstrip()
    lines = end.split('\n')
    if len(lines) > 20:
        end = '\n'.join(lines[-20:])
    msg = status if isinstance(status, str) else 'the program exited with status %d' % status
    if end:
        msg += '; the end of its output:\n' + end
    return {'ok': False, 'code': 'crashed', 'message': msg}


def describe(value):
    return '%s (a %s)' % (reprlib.repr(value), type(value).__name__)


# --- entry points, called from JavaScript; each returns a JSON text ----------------------------------

def _entry(fn):
    def run(cap, *args):
        CAPTURE.reset(cap)
        sys.stdout = STDOUT
        sys.stderr = STDERR
        del NET[:]
        try:
            os.chdir(GAME)
        except OSError:
            pass
        try:
            r = fn(*args)
        except BaseException as e:  # a failure of this runtime rather than of the player
            r = {'ok': False, 'code': 'crashed', 'message': 'the runtime failed: ' + repr(e)}
        sys.stdout = STDOUT
        sys.stderr = STDERR
        r['kept'] = ''.join(CAPTURE.parts)
        r['total'] = CAPTURE.total
        r['net'] = list(NET)
        return json.dumps(r)
    run.__name__ = fn.__name__
    return run


def clear_game():
    purge()
    os.chdir('/')
    remove(GAME)
    os.makedirs(GAME)
    os.chdir(GAME)


@_entry
def new_game(config):
    c = json.loads(config)
    State.main = c['main']
    State.format = c['format']
    State.module = None
    State.originals = {}
    for p in c['originals']:
        with open(os.path.join(GAME, p), 'rb') as f:
            State.originals[p] = f.read()
    purge()
    set_path(State.main)
    sys.argv = [State.main]
    try:
        random.seed(int(c['seed']))
    except (TypeError, ValueError):
        random.seed(0)
    for p in c['python']:
        with open(os.path.join(GAME, p), 'rb') as f:
            source = f.read()
        try:
            compile(source, p, 'exec', dont_inherit=True)
        except SyntaxError as e:
            return syntax_failure(e)
        except ValueError as e:
            return {'ok': False, 'code': 'syntax_error', 'file': p, 'message': '%s: %s' % (p, e)}
    if State.format == 'function':
        return import_main()
    return {'ok': True}


def import_main():
    main = State.main
    path = os.path.join(GAME, main)
    stem = os.path.splitext(os.path.basename(main))[0]
    loader = StudentLoader(stem, path)
    spec = importlib.util.spec_from_file_location(stem, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[stem] = module
    try:
        loader.exec_module(module)
    except SystemExit as e:
        sys.modules.pop(stem, None)
        return {'ok': False, 'code': 'exception',
                'message': '%s called sys.exit(%r) while being imported' % (main, e.code)}
    except BaseException as e:
        sys.modules.pop(stem, None)
        return failure(e)
    if not callable(getattr(module, 'move', None)):
        return {'ok': False, 'code': 'no_move_function', 'file': main,
                'message': '%s defines no function move(request)' % main}
    State.module = module
    return {'ok': True}


@_entry
def move_function(request):
    try:
        req = json.loads(request)
    except ValueError as e:
        return {'ok': False, 'code': 'crashed', 'message': 'the request is not JSON: %s' % e}
    try:
        result = State.module.move(req)
    except SystemExit as e:
        exit_status(e)  # a message given to sys.exit goes to the output, as in Python
        return crashed('move called sys.exit(%r): a function player returns its move instead' % (e.code,))
    except BaseException as e:
        return failure(e)
    try:
        body = json.dumps(result, allow_nan=False)
    except Exception as e:
        return {'ok': False, 'code': 'malformed_answer',
                'message': 'move returned %s, which cannot be sent as JSON: %s' % (describe(result), e)}
    return {'ok': True, 'body': body}


@_entry
def move_course(input_text):
    main = State.main
    for name in ('input.txt', 'output.txt'):
        remove(os.path.join(GAME, name))
    with open(os.path.join(GAME, 'input.txt'), 'w', encoding='utf-8', newline='') as f:
        f.write(input_text)
    purge()
    set_path(main)
    path = os.path.join(GAME, main)
    r = run_main(main, path)
    r.update(side_files())
    return r


def run_main(main, path):
    try:
        with open(path, 'rb') as f:
            code = compile(f.read(), main, 'exec', dont_inherit=True)
    except SyntaxError as e:
        return syntax_failure(e, 'exception')
    except OSError as e:
        return {'ok': False, 'code': 'crashed', 'message': 'cannot read %s: %s' % (main, e)}
    module = types.ModuleType('__main__')
    module.__file__ = path
    module.__builtins__ = builtins
    module.__spec__ = None
    module.__loader__ = None
    module.__package__ = ''
    module.__cached__ = None
    saved_main, saved_argv = sys.modules.get('__main__'), sys.argv
    sys.modules['__main__'] = module
    sys.argv = [main]
    status = 0
    failed = None
    process = Process()
    try:
        exec(code, module.__dict__)
    except SystemExit as e:
        status = exit_status(e)
    except BaseException as e:
        failed = failure(e)
    finally:
        process.exit()
        sys.modules['__main__'] = saved_main
        sys.argv = saved_argv
        try:
            os.chdir(GAME)
        except OSError:
            pass
    if failed:
        return failed
    if status:
        return crashed(status)
    out = os.path.join(GAME, 'output.txt')
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        return {'ok': False, 'code': 'no_output', 'message': 'the program ended without writing output.txt'}
    if not stat.S_ISREG(st.st_mode):
        return {'ok': False, 'code': 'no_output',
                'message': 'output.txt is not a regular file (a link, a folder or a pipe)'}
    if st.st_size > OUTPUT_CAP:
        return {'ok': False, 'code': 'output_too_large',
                'message': 'output.txt holds %d bytes; at most %d are read' % (st.st_size, OUTPUT_CAP)}
    with open(out, 'rb') as f:
        data = f.read(OUTPUT_CAP + 1)
    if len(data) > OUTPUT_CAP:
        return {'ok': False, 'code': 'output_too_large',
                'message': 'output.txt holds more than %d bytes' % OUTPUT_CAP}
    return {'ok': True, 'body': data.decode('utf-8', 'replace')}


class Process:
    """One course move seen as the process it is on a computer: the files the script opens and the atexit
    handlers it registers are noted (builtins.open and atexit.register, replaced while it runs), and exit()
    does what the interpreter does when a process ends, in its order: the handlers run (last registered
    first), sys.stdout and sys.stderr are flushed, and every file still open is flushed and closed. Students
    leave output.txt open (out = open("output.txt", "w"); out.write(move), or sys.stdout = open(...) and
    print) and rely on that; in a live interpreter nothing ends, so without it their output.txt stays
    empty."""

    def __init__(self):
        self.files = []  # weak references: a file the script drops is closed then, as CPython does
        self.handlers = []
        self.saved = (builtins.open, io.open, atexit.register, atexit.unregister)
        real_open = builtins.open

        def open(*args, **kwargs):
            f = real_open(*args, **kwargs)
            try:
                self.files.append(weakref.ref(f))
            except TypeError:
                pass
            return f

        def register(func, *args, **kwargs):
            self.handlers.append((func, args, kwargs))
            return func

        def unregister(func):
            self.handlers[:] = [h for h in self.handlers if h[0] != func]

        open.__doc__ = real_open.__doc__
        builtins.open = io.open = open
        atexit.register = register
        atexit.unregister = unregister

    def exit(self):
        builtins.open, io.open, atexit.register, atexit.unregister = self.saved
        while self.handlers:
            func, args, kwargs = self.handlers.pop()
            try:
                func(*args, **kwargs)
            except SystemExit:
                pass
            except BaseException as e:
                try:
                    text, _ = traceback_text(e)
                    STDERR.write('Exception ignored in atexit callback %r:\n%s\n' % (func, text))
                except Exception:
                    pass
        for stream in (sys.stdout, sys.stderr):
            if stream is not STDOUT and stream is not STDERR:
                try:
                    stream.flush()
                except Exception:
                    pass
        sys.stdout = STDOUT
        sys.stderr = STDERR
        for ref in reversed(self.files):
            f = ref()
            if f is not None:
                try:
                    f.close()
                except Exception:
                    pass
        self.files = []


def side_files():
    """Every regular file in the game folder that the program created or changed (not input.txt or
    output.txt), base64, or sideOver when they come to more than SIDE_CAP bytes."""
    out = []
    total = 0
    for root, dirs, names in os.walk(GAME):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__' and not os.path.islink(os.path.join(root, d)))
        for name in sorted(names):
            path = os.path.join(root, name)
            r = os.path.relpath(path, GAME)
            if r in ('input.txt', 'output.txt'):
                continue
            try:
                if not stat.S_ISREG(os.lstat(path).st_mode):
                    continue
                with open(path, 'rb') as f:
                    data = f.read(SIDE_CAP + 1)
            except OSError:
                continue
            if State.originals.get(r) == data:
                continue
            total += len(data)
            if total > SIDE_CAP:
                return {'sideOver': True}
            out.append({'path': r, 'base64': base64.b64encode(data).decode('ascii')})
    return {'side': out}
`;

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
    this.py = null; // the Pyodide instance, once loaded
    this.rt = null; // the _gridarena module
    this.pyLow = ''; // what Python wrote below sys.stdout (os.write(1, ...)), this step
    this.acorn = null;
    this.game = null; // {lang, format, main, files: [{path, bytes, side}], seed, limits}
    this.ready = false; // a player is loaded and can move
    this.broken = null; // why this runtime cannot go on (Pyodide failed)
    this.js = null; // {urls: Map url → path, paths: Set, move}
    this.gameCount = 0;
    this.attemptsSeen = 0; // attempts up to here belong to steps already answered (or to an earlier game)
  }

  /** The attempts at the network since the last step was answered, and none from now on: a try made
   * between two steps (a timer, a promise, a Python task) refuses the next. Code built from strings counts for
   * Python only (see `attempts`). */
  takeAttempts() {
    const python = this.game?.lang === 'python';
    const tried = attempts.slice(this.attemptsSeen).filter((a) => python || !a.strings).map((a) => a.what);
    this.attemptsSeen = attempts.length;
    return tried;
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
    installConsole();
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
    this.attemptsSeen = attempts.length;
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
    py.globals.set('_gridarena_source', RUNTIME_PY);
    py.runPython(`
import sys, types
_gridarena = types.ModuleType('_gridarena')
_gridarena.__file__ = '<gridarena>'
sys.modules['_gridarena'] = _gridarena
exec(compile(_gridarena_source, '<gridarena>', 'exec'), _gridarena.__dict__)
del _gridarena, _gridarena_source`);
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
      r = JSON.parse(this.rt[name](this.game.limits.outputChars, ...args));
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
    const tried = [...this.takeAttempts(), ...(r.net || [])];
    if (tried.length) return this.networkFailure(tried, out);
    const memory = this.py._module.HEAP8.buffer.byteLength;
    if (memory > this.game.limits.memoryMb * 1048576) {
      this.broken = `the player used ${Math.round(memory / 1048576)} MB of memory, more than the ${this.game.limits.memoryMb} MB allowed; the player must be restarted`;
      return { ...out, ok: false, code: 'out_of_memory', message: this.broken, restart: true };
    }
    return out;
  }

  networkFailure(tried, out) {
    const names = [...new Set(tried)].join(', ');
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
      python: game.files.filter((f) => f.path.endsWith('.py')).map((f) => f.path),
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
    Math.random = seededRandom(game.seed);
    installFiles(game.files);
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
    this.js = { urls, paths: new Set(sources.keys()), move: null };
    stackMapper = (s) => this.jsMapStack(s).text;

    const capture = new Capture(game.limits.outputChars);
    let mod;
    let failure = null;
    activeCapture = capture;
    try {
      mod = await import(urlOf.get(game.main));
    } catch (e) {
      failure = this.jsFailure(e);
    } finally {
      activeCapture = null;
    }
    const output = { output: finishOutput(capture.kept, capture.total), outputChars: capture.total };
    const tried = this.takeAttempts();
    if (tried.length) return { kind: 'failed', ...stripOk(this.networkFailure(tried, output)) };
    if (failure) return { kind: 'failed', ...stripOk(failure), ...output };
    let move = mod.move;
    if (typeof move !== 'function' && typeof mod.default === 'function') move = mod.default;
    if (typeof move !== 'function' && typeof mod.default?.move === 'function') move = mod.default.move.bind(mod.default);
    if (typeof move !== 'function') {
      return { kind: 'failed', code: 'no_move_function', file: game.main, message: `${game.main} defines no function move(request): export it, as in  export function move(request) { … }`, ...output };
    }
    this.js.move = move;
    this.ready = true;
    return { kind: 'ready', ...output };
  }

  async jsMove(msg) {
    const { limits } = this.game;
    let request;
    try {
      request = JSON.parse(String(msg.request ?? 'null'));
    } catch (e) {
      return { ok: false, code: 'crashed', message: `the request is not JSON: ${e.message}`, output: '', outputChars: 0 };
    }
    const capture = new Capture(limits.outputChars);
    let value;
    let r = null;
    activeCapture = capture;
    try {
      value = await Reflect.apply(this.js.move, undefined, [request]);
    } catch (e) {
      r = this.jsFailure(e);
    } finally {
      activeCapture = null;
    }
    const output = { output: finishOutput(capture.kept, capture.total), outputChars: capture.total };
    const tried = this.takeAttempts();
    if (tried.length) return this.networkFailure(tried, output);
    if (r) return { ...r, ...output };
    let body;
    try {
      body = value === undefined ? 'null' : JSON.stringify(value);
    } catch (e) {
      return { ok: false, code: 'malformed_answer', message: `move returned ${describeJs(value)}, which cannot be sent as JSON: ${e.message}`, ...output };
    }
    if (body === undefined) return { ok: false, code: 'malformed_answer', message: `move returned ${describeJs(value)}, which cannot be sent as JSON`, ...output };
    return { ok: true, body, ...output };
  }

  /** A JavaScript error as an answer: out_of_memory for failed allocations, else exception with the stack
   * limited to the player's files (named by their paths). */
  jsFailure(e) {
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
    const { text, file, line } = this.jsMapStack(e.stack || `${e.name}: ${e.message}`);
    const r = { ok: false, code: 'exception', message: text };
    if (file) Object.assign(r, { file, line });
    return r;
  }

  /** Keep the message of a V8 stack and the frames in the player's files, with paths for URLs. */
  jsMapStack(stack) {
    const js = this.js;
    const swap = (s) => {
      if (!js) return s;
      for (const [url, path] of js.urls) if (s.includes(url)) s = s.split(url).join(path);
      return s;
    };
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
      if (!m || !js?.paths.has(m[1])) continue;
      if (!file) {
        file = m[1];
        line = Number(m[2]);
      }
      frames.push(l);
    }
    return { text: [...head, ...frames].join('\n'), file, line };
  }
}

function stripOk(r) {
  const { ok, side, sideOver, ...rest } = r;
  return rest;
}

function describeJs(value) {
  if (typeof value === 'function') return `a function (${value.name || 'anonymous'})`;
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return `a BigInt (${value}n)`;
  if (value && typeof value === 'object') return `an object of type ${value.constructor?.name ?? 'Object'}`;
  return String(value);
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

function installFiles(files) {
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
    list: () => [...store.keys()],
  });
  Object.defineProperty(globalThis, 'files', { value: api, writable: false, configurable: true, enumerable: false });
}
