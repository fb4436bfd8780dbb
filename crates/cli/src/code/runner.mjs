// The command line's side of the JavaScript function runner. crates/cli/src/code/function.rs runs
// `node --input-type=module -e` on this file, with SHARED_RUNNER (the text of web/runners/function.mjs,
// the source the page's worker runs) defined before it: one process per side per game, in the game's
// folder inside the sandbox. What a move is (seeding, the global `files`, printing, failures, the answer)
// is the shared runner's; this file loads the player's modules the way node can, closes node's network and
// speaks the lines protocol.
//   in:  {"seed": "123", "main": "main.js", "outputChars": 8000}   then one request object per move
//   out: one reply per line (crates/engine/src/halma/code/reply.rs: RunnerReply): after the import, then
//        per move
// The student's console is captured by the runner and travels in the reply; process.stdout and
// process.stderr go to stderr, which gridarena adds to what the code printed.
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import dns from 'node:dns';
import readline from 'node:readline';
import vm from 'node:vm';
import { Console } from 'node:console';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const GAME = process.cwd();
const GAME_URL = pathToFileURL(GAME + path.sep).href;
const REFUSED = 'is not allowed: a code player imports only its own files';

// A player's .js file is an ES module, as in the page, whatever package.json says; and it imports only
// its own JavaScript files by a relative path, as the page's check allows (no packages, no node: modules).
register(
  'data:text/javascript,' +
    encodeURIComponent(`
      let root = '';
      export function initialize(data) { root = data.root; }
      export async function resolve(specifier, context, next) {
        const parent = context.parentURL || '';
        if (!parent.startsWith(root) || !/\\.m?js$/.test(parent)) return next(specifier, context);
        const from = decodeURIComponent(parent.slice(root.length));
        if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
          throw new Error(from + ': ' + JSON.stringify(specifier) + ' ${REFUSED}, with a relative path written out such as ./helper.js (it has no network and no packages)');
        }
        let found;
        try {
          found = await next(specifier, context);
        } catch {
          found = { url: '' };
        }
        if (!found.url.startsWith(root) || !/\\.m?js$/.test(found.url)) {
          throw new Error(from + ': ' + JSON.stringify(specifier) + " is not one of the player's JavaScript files (read data files with files.text() or files.bytes())");
        }
        return found;
      }
      export async function load(url, context, next) {
        if (url.startsWith(root) && /\\.m?js$/.test(url)) return next(url, { ...context, format: 'module' });
        return next(url, context);
      }`),
  { data: { root: GAME_URL } },
);

const protoWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => process.stderr.write(...args);
globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });

// The shared runner first: its record of attempts takes its intrinsics before any student code runs.
const { JsPlayer, attemptRecord, noteUncaught } = await import(
  `data:text/javascript;base64,${Buffer.from(SHARED_RUNNER).toString('base64')}`
);
const attempts = attemptRecord();
const refuse = (what) => {
  attempts.record(what);
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

// What reaches node's own modules or native code past the import check above, with no import: closed
// before any player code runs, as the page's worker has none of them.
for (const name of ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen']) {
  const closed = () => {
    throw new Error(`process.${name} ${REFUSED}`);
  };
  Object.defineProperty(process, name, { value: closed, writable: false, configurable: false });
}

// An error thrown outside a move's call (a timer, a promise nobody awaited) goes to the output of the move
// in progress, as in the page's worker, rather than ending the process.
process.on('uncaughtException', (e) => noteUncaught(e));
process.on('unhandledRejection', (e) => noteUncaught(e));

/** The player's files, by path in its folder, in order (the page is handed the same list). */
function playerFiles() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) out.push({ path: path.relative(GAME, full).split(path.sep).join('/'), bytes: new Uint8Array(fs.readFileSync(full)) });
    }
  };
  walk(GAME);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** How node's import of the main module failed, where the host rather than the code is to name it: an
 * import the page's check refuses (could_not_start), or a file that does not parse (syntax_error). */
function hostFailure(e, files) {
  const message = String(e?.message ?? '');
  if (message.includes(REFUSED) || message.includes("is not one of the player's JavaScript files")) {
    const at = /^([^:]+): /.exec(message);
    return { ok: false, code: 'could_not_start', message, ...(at ? { file: at[1] } : {}) };
  }
  if (e instanceof SyntaxError) {
    for (const f of files) {
      if (!/\.m?js$/.test(f.path)) continue;
      const source = new TextDecoder().decode(f.bytes);
      const error = compileError(source);
      if (!error) continue;
      const line = errorLine(source);
      return { ok: false, code: 'syntax_error', message: `${f.path} line ${line}: SyntaxError: ${error.message}`, file: f.path, line };
    }
  }
  return null;
}

/** The SyntaxError of compiling `source` as a module, or null. */
function compileError(source) {
  try {
    new vm.SourceTextModule(source);
    return null;
  } catch (e) {
    return e instanceof SyntaxError ? e : null;
  }
}

/** The line of `source`'s syntax error. Node names no line for a module that does not parse, so it is
 * found as the first n for which the first n lines fail otherwise than by ending too soon (a parse stops
 * at its first bad token whatever follows it): a binary search, a few compiles. */
function errorLine(source) {
  const lines = source.split('\n');
  const failsBy = (n) => {
    const e = compileError(lines.slice(0, n).join('\n'));
    return e !== null && !/end of input|Unterminated|missing \) after/i.test(e.message);
  };
  let lo = 1;
  let hi = lines.length;
  if (!failsBy(hi)) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsBy(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const answer = (reply) => new Promise((done) => protoWrite(JSON.stringify(reply) + '\n', done));

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let player = null;
for await (const line of lines) {
  if (!player) {
    const config = JSON.parse(line);
    const files = playerFiles();
    const urls = new Map(
      files.filter((f) => /\.m?js$/.test(f.path)).map((f) => [pathToFileURL(path.join(GAME, f.path)).href, f.path]),
    );
    // The host sends its cap (the engine's MAX_OUTPUT_CHARS): a runner with a cap of its own would drift.
    if (!Number.isSafeInteger(config.outputChars)) throw new Error('the host sent no outputChars');
    player = new JsPlayer({
      seed: config.seed,
      files,
      urls,
      outputChars: config.outputChars,
      takeAttempts: () => attempts.take(true),
    });
    let refused = null;
    const reply = await player.load(config.main, async () => {
      try {
        return await import(pathToFileURL(path.join(GAME, config.main)).href);
      } catch (e) {
        refused = hostFailure(e, files);
        throw e;
      }
    });
    const said = refused ? { ...refused, output: reply.output, outputChars: reply.outputChars } : reply;
    await answer(said);
    if (!said.ok) break;
    continue;
  }
  await answer(await player.play(line));
}
process.exit(0);
