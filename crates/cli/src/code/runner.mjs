// GridArena's runner for a JavaScript function-format code entry on the command line (crates/cli/src/code).
// One process per side per game, run as `node --input-type=module -e THIS` in the game's folder. It speaks
// one JSON line in, one JSON line out on stdin and stdout; the student's console and process.stdout go to
// stderr, which gridarena keeps as what the code printed.
//   in:  {"seed": "123", "main": "main.js"}   then one request object per move
//   out: {"ok": true} after the import, then {"ok": true, "body": "<move JSON>"} per move,
//        or {"ok": false, "code": "<CodeFailure code>", "message": "..."}
// The failures, Math.random's generator and the global `files` are the page's (web/code-runtime.mjs).
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import dns from 'node:dns';
import readline from 'node:readline';
import { Console } from 'node:console';
import { register } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';

const GAME = process.cwd();
const GAME_URL = pathToFileURL(GAME + path.sep).href;

// A .js file of the player's is an ES module, as in the page, whatever package.json says.
register(
  'data:text/javascript,' +
    encodeURIComponent(`
      let root = '';
      export function initialize(data) { root = data.root; }
      export async function load(url, context, next) {
        if (url.startsWith(root) && /\\.m?js$/.test(url)) return next(url, { ...context, format: 'module' });
        return next(url, context);
      }`),
  { data: { root: GAME_URL } },
);

const protoWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => process.stderr.write(...args);
globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });

const attempts = [];
const refuse = (what) => {
  attempts.push(what);
  throw new Error(`network access is closed to code players (${what})`);
};
globalThis.fetch = () => refuse('fetch');
globalThis.WebSocket = function WebSocket() {
  refuse('WebSocket');
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  if (first && typeof first === 'object' && typeof first.path === 'string') return connect.apply(this, args);
  if (typeof first === 'string' && !/^\d+$/.test(first)) return connect.apply(this, args);
  return refuse('a socket');
};
dns.lookup = () => refuse('dns.lookup');
dns.promises.lookup = () => refuse('dns.lookup');

/** A seeded replacement for Math.random: sfc32, its state drawn from the u64 seed by splitmix64. */
function seededRandom(seed) {
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

/** The player's own files, by relative path, as the page's global `files` gives them. */
function inGame(p) {
  const full = path.resolve(GAME, String(p));
  if (!full.startsWith(GAME + path.sep)) throw new Error(`${p} is not one of the player's files`);
  return full;
}
globalThis.files = Object.freeze({
  text: (p) => fs.readFileSync(inGame(p), 'utf8'),
  bytes: (p) => new Uint8Array(fs.readFileSync(inGame(p))),
  list: () => {
    const out = [];
    const walk = (dir) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else out.push(path.relative(GAME, full).split(path.sep).join('/'));
      }
    };
    walk(GAME);
    return out.sort();
  },
});

/** A stack with the player's frames only, each named by its path in the game's folder. */
function studentStack(e) {
  const text = String(e?.stack ?? e);
  const lines = text.split('\n');
  const kept = [];
  for (const line of lines) {
    if (/^\s+at /.test(line)) {
      if (!line.includes(GAME_URL) && !line.includes(GAME + path.sep)) continue;
    }
    kept.push(line.split(GAME_URL).join('').split(GAME + path.sep).join(''));
  }
  return kept.join('\n').trimEnd();
}

function describe(value) {
  const kind = typeof value;
  if (kind === 'function') return 'a function';
  if (kind === 'symbol') return 'a symbol';
  if (kind === 'bigint') return `${value}n (a bigint)`;
  return `${String(value).slice(0, 80)} (a ${kind})`;
}

function failure(e) {
  if (e instanceof SyntaxError) {
    // Node names the file and line of a module that does not parse on the stack's first line.
    const at = /^(file:\/\/\S+?):(\d+)$/m.exec(String(e.stack ?? ''));
    let where = '';
    if (at) {
      let file = at[1];
      try {
        file = path.relative(GAME, fileURLToPath(file));
      } catch {}
      where = `${file} line ${at[2]}: `;
    }
    if (where) return { ok: false, code: 'syntax_error', message: `${where}SyntaxError: ${e.message}` };
  }
  if (e instanceof RangeError && /allocation|array length|string length|out of memory|Array buffer/i.test(e.message)) {
    return { ok: false, code: 'out_of_memory', message: `${e.name}: ${e.message}` };
  }
  return { ok: false, code: 'exception', message: studentStack(e) };
}

const network = () => ({ ok: false, code: 'network', message: [...new Set(attempts)].join(', ') });

async function start(config) {
  Math.random = seededRandom(config.seed);
  let mod;
  try {
    mod = await import(pathToFileURL(path.join(GAME, config.main)).href);
  } catch (e) {
    return [null, failure(e)];
  }
  if (attempts.length) return [null, network()];
  let move = mod.move;
  if (typeof move !== 'function' && typeof mod.default === 'function') move = mod.default;
  if (typeof move !== 'function' && typeof mod.default?.move === 'function') move = mod.default.move.bind(mod.default);
  if (typeof move !== 'function') {
    return [null, { ok: false, code: 'no_move_function', message: `${config.main} defines no function move(request): export it, as in  export function move(request) { … }` }];
  }
  return [move, { ok: true }];
}

async function play(move, line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    return { ok: false, code: 'could_not_start', message: `the request is not JSON: ${e.message}` };
  }
  let value;
  try {
    value = await Reflect.apply(move, undefined, [request]);
  } catch (e) {
    if (attempts.length) return network();
    return failure(e);
  }
  if (attempts.length) return network();
  let body;
  try {
    body = value === undefined ? 'null' : JSON.stringify(value);
  } catch (e) {
    return { ok: false, code: 'malformed_answer', message: `move returned ${describe(value)}, which cannot be sent as JSON: ${e.message}` };
  }
  if (body === undefined) return { ok: false, code: 'malformed_answer', message: `move returned ${describe(value)}, which cannot be sent as JSON` };
  return { ok: true, body };
}

const answer = (reply) => new Promise((done) => protoWrite(JSON.stringify(reply) + '\n', done));

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let move = null;
let started = false;
for await (const line of lines) {
  if (!started) {
    started = true;
    const [found, reply] = await start(JSON.parse(line));
    await answer(reply);
    if (!found) break;
    move = found;
    continue;
  }
  attempts.length = 0;
  await answer(await play(move, line));
}
process.exit(0);
