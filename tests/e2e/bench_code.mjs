// Benchmark of the code players (docs/code-players.md) on the release build; prints:
// 1. Python's load in Chromium: from `new Worker(code/worker.js)` and its `start` message (Python, function
//    format, the function starter) to `ready`, with nothing cached and again in the same context (from the
//    browser's HTTP cache, revalidated: the server below answers as the real one does, `Cache-Control:
//    no-cache` with ETag/Last-Modified and 304s), in a new profile (disk cache, as a user's browser) and in a
//    Playwright context (memory cache, as the tests run); the bytes the first load transfers, raw and gzipped.
// 2. A move in the course format (ai/course/halma_course.py, input.txt/output.txt) on the same classic
//    positions: native CPython, one process per move (what the course's referee pays) and in one process
//    (runpy, the interpreter's own cost), against the page's worker (its own `ms` and the round trip from
//    the page); whether native and page chose the same moves.
// 3. A move in the function format (ai/page/halma_function.py and .js, move(request) with the web
//    protocol's request) on the same positions: native CPython and Node in-process against the page's
//    Python and JavaScript workers.
// The positions are spread over a game of the course starter against itself, played natively (16x16, the
// course's camps). Each per-move figure: median over the positions after one warm-up move, with min and max.
// The page only gives the origin the workers start from (the app at #/code); they are started as the app
// starts them (src/code/worker.rs), one at a time. About a minute on two cores.
// Run: (cd tests/e2e && node bench_code.mjs [positions])   after `trunk build --release` (default 20).
import { launch, root } from './harness.mjs';
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';

const POSITIONS = Math.max(2, Number(process.argv[2] || 20));
const CACHED_LOADS = 3;
const MAX_PLIES = 400;
// The interpreter itself, not a launcher in front of it (pyenv's shim, a shell script, adds about 0.1 s to
// every process): what `python3` on PATH runs.
const PYTHON_ON_PATH = process.env.PYTHON || 'python3';
const PYTHON = spawnSync(PYTHON_ON_PATH, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim()
  || PYTHON_ON_PATH;
const PYTHON_VERSION = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' }).stdout.trim();
const LOAD_AT_START = os.loadavg()[0];
const dist = path.join(root, 'dist');
const COURSE = path.join(root, 'ai/course/halma_course.py');
const FUNCTION_PY = path.join(root, 'ai/page/halma_function.py');
const FUNCTION_JS = path.join(root, 'ai/page/halma_function.js');
for (const f of ['index.html', 'code/worker.js', 'pyodide/pyodide.mjs']) {
  if (!fs.existsSync(path.join(dist, f))) throw new Error(`dist/${f} is missing: run \`trunk build --release\` first`);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gridarena-bench-code-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
// launch()'s flags (harness.mjs), for the one persistent context below, which launch() cannot give.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const log = (s) => process.stderr.write(`bench_code: ${s}\n`);

// ---------------------------------------------------------------------------------------------------------
// Statistics

const sorted = (xs) => [...xs].sort((a, b) => a - b);
function stats(xs) {
  const s = sorted(xs);
  const n = s.length;
  const median = n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
  return { median, min: s[0], max: s[n - 1], n };
}

// ---------------------------------------------------------------------------------------------------------
// A static server for dist/ that lets the browser cache: every answer carries ETag, Last-Modified and
// `Cache-Control: no-cache` (the real server's default: the browser keeps the file and revalidates it), and a
// matching If-None-Match or If-Modified-Since is answered 304 without a body. Every request is logged.

const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.zip': 'application/zip', '.txt': 'text/plain',
};
function serveCached() {
  const requests = []; // {path, status, bytes, file}
  const server = http.createServer((req, res) => {
    let url;
    try {
      url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400);
      return res.end();
    }
    let file = path.join(dist, url.slice(1) || 'index.html');
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = path.join(dist, 'index.html');
    }
    const st = fs.statSync(file);
    const mtime = Math.floor(st.mtimeMs / 1000) * 1000;
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    const headers = {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      'cache-control': 'no-cache', etag, 'last-modified': new Date(mtime).toUTCString(),
    };
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const fresh = inm !== undefined
      ? inm.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === etag || t === '*')
      : ims !== undefined && Date.parse(ims) >= mtime;
    if (fresh) {
      requests.push({ path: url, status: 304, bytes: 0, file });
      res.writeHead(304, headers);
      return res.end();
    }
    requests.push({ path: url, status: 200, bytes: st.size, file });
    res.writeHead(200, { ...headers, 'content-length': st.size });
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({
    url: `http://127.0.0.1:${server.address().port}/`, requests, close: () => server.close(),
  })));
}

// ---------------------------------------------------------------------------------------------------------
// The positions: the course starter against itself, natively

const SIZE = 16;
const BLACK_CAMP = [];
for (let y = 0; y < 5; y++) for (let x = 0; x < 5; x++) if (x + y <= 5) BLACK_CAMP.push([x, y]);
const WHITE_CAMP = BLACK_CAMP.map(([x, y]) => [SIZE - 1 - x, SIZE - 1 - y]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
const CAMP = { B: BLACK_CAMP, W: WHITE_CAMP };
const OTHER = { B: 'W', W: 'B' };

function startBoard() {
  const b = Array.from({ length: SIZE }, () => Array(SIZE).fill('.'));
  for (const [x, y] of BLACK_CAMP) b[y][x] = 'B';
  for (const [x, y] of WHITE_CAMP) b[y][x] = 'W';
  return b.map((r) => r.join(''));
}
const inputText = (board, colour) => `GAME\n${colour === 'B' ? 'BLACK' : 'WHITE'}\n300.0\n${board.join('\n')}\n`;

const courseDir = path.join(tmp, 'course');
fs.mkdirSync(courseDir);
fs.copyFileSync(COURSE, path.join(courseDir, 'halma_course.py'));

/** Runs the course script once, as the referee does: a python3 process in its folder on `input`;
 * {ms (spawn to exit), out (output.txt)}. */
function runCourseProcess(input) {
  fs.writeFileSync(path.join(courseDir, 'input.txt'), input);
  fs.rmSync(path.join(courseDir, 'output.txt'), { force: true });
  const t0 = performance.now();
  const r = spawnSync(PYTHON, ['halma_course.py'], { cwd: courseDir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  let out = null;
  try {
    out = fs.readFileSync(path.join(courseDir, 'output.txt'), 'utf8');
  } catch { /* no move */ }
  return { ms, out, status: r.status, stderr: String(r.stderr) };
}

// One python3 process for many moves:
// - `play`: the course script against itself from `items` (the start position), each move as the referee
//   makes it (input.txt written, the script run as __main__ in its folder, output.txt read, its move applied
//   from the first square to the last), until a side fills the other camp or MAX_PLIES; in one process with
//   runpy rather than a process a move, which gives the same moves in a few seconds;
// - `course`: the script run with runpy on each input.txt of `items` (written, run, output.txt read, as the
//   worker does), each timed: the interpreter's own cost;
// - `function`: the starter imported and move() called on each request of `items` (the request parsed and
//   the answer serialised, its prints captured, as the worker does), each timed.
const DRIVER = String.raw`
import contextlib, importlib.util, io, json, os, runpy, sys, time
mode, script, data, result = sys.argv[1:5]
sys.argv = [script]
items = json.load(open(data))
out = []


def course_move(text):
    if os.path.exists('output.txt'):
        os.remove('output.txt')
    with open('input.txt', 'w', newline='') as f:
        f.write(text)
    try:
        runpy.run_path(script, run_name='__main__')
    except SystemExit:
        pass
    try:
        with open('output.txt') as f:
            return f.read()
    except FileNotFoundError:
        return None


if mode == 'play':
    os.chdir(os.path.dirname(script))
    board = [list(row) for row in items['board']]
    colour, other = 'B', 'W'
    goal = {'B': items['white'], 'W': items['black']}
    for ply in range(items['maxPlies']):
        rows = [''.join(r) for r in board]
        move = course_move('GAME\n%s\n300.0\n%s\n' % ('BLACK' if colour == 'B' else 'WHITE', '\n'.join(rows)))
        if move is None:
            break
        out.append({'board': rows, 'colour': colour, 'ply': ply, 'out': move})
        lines = [line.split() for line in move.strip().splitlines()]
        x0, y0 = map(int, lines[0][1].split(','))
        x1, y1 = map(int, lines[-1][2].split(','))
        assert board[y0][x0] == colour and board[y1][x1] == '.', move
        board[y0][x0], board[y1][x1] = '.', colour
        if all(board[y][x] == colour for x, y in goal[colour]):
            break
        colour, other = other, colour
elif mode == 'course':
    os.chdir(os.path.dirname(script))
    for text in items:
        t0 = time.perf_counter()
        move = course_move(text)
        out.append({'ms': (time.perf_counter() - t0) * 1000, 'out': move})
else:
    spec = importlib.util.spec_from_file_location('halma_function', script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for req in items:
        printed = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(printed):
            body = json.dumps(module.move(json.loads(req)), allow_nan=False)
        out.append({'ms': (time.perf_counter() - t0) * 1000, 'out': body})
with open(result, 'w') as f:
    json.dump(out, f)
`;
const driver = path.join(tmp, 'driver.py');
fs.writeFileSync(driver, DRIVER);
function inProcess(mode, script, items) {
  const data = path.join(tmp, `${mode}-in.json`);
  const result = path.join(tmp, `${mode}-out.json`);
  fs.writeFileSync(data, JSON.stringify(items));
  const r = spawnSync(PYTHON, [driver, mode, script, data, result], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`the ${mode} driver failed: ${r.stderr}`);
  return JSON.parse(fs.readFileSync(result, 'utf8'));
}

log('playing the course starter against itself natively...');
const game = inProcess('play', path.join(courseDir, 'halma_course.py'),
  { board: startBoard(), black: BLACK_CAMP, white: WHITE_CAMP, maxPlies: MAX_PLIES }); // {board, colour, ply}
const last = game[game.length - 1];
const ended = game.length < MAX_PLIES ? `${last.colour === 'B' ? 'BLACK' : 'WHITE'} filled the other camp at ply ${last.ply}` : `stopped at ${MAX_PLIES} plies`;
log(`a game of ${game.length} plies (${ended})`);
// POSITIONS spread evenly over the game, and a warm-up position (the one after the first) before them.
const picked = Array.from({ length: POSITIONS }, (_, i) => game[Math.round((i * (game.length - 1)) / (POSITIONS - 1))]);
const warmup = game[1];
const positions = [warmup, ...picked];
const inputs = positions.map((p) => inputText(p.board, p.colour));

function request({ board, colour, ply }) {
  const piecesOf = (c) => {
    const out = [];
    for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) if (board[y][x] === c) out.push({ x, y, damage: 0 });
    return out;
  };
  const squares = (camp) => camp.map(([x, y]) => ({ x, y }));
  return JSON.stringify({
    boardSize: SIZE, pieces: piecesOf(colour), destinations: squares(CAMP[OTHER[colour]]),
    enemy: piecesOf(OTHER[colour]), enemydestinations: squares(CAMP[colour]),
    team: colour === 'B' ? 'red' : 'blue', turn: ply, preset: 'classic', campRule: true, timeLimitMs: 1000,
  });
}
const requests = positions.map(request);

// ---------------------------------------------------------------------------------------------------------
// Native figures

log('native course, one process per move...');
const nativeProcess = inputs.map(runCourseProcess);

log('native course, in one process...');
const nativeInProcess = inProcess('course', path.join(courseDir, 'halma_course.py'), inputs);
log('native function format, Python and Node...');
const nativeFunctionPy = inProcess('function', FUNCTION_PY, requests);
const nativeFunctionJs = [];
{
  const { move } = await import(pathToFileURL(FUNCTION_JS).href);
  const original = console.log;
  for (const req of requests) {
    console.log = () => {}; // the starter prints a line a move; the worker captures it, here it is dropped
    const t0 = performance.now();
    const body = JSON.stringify(move(JSON.parse(req)) ?? null);
    const ms = performance.now() - t0;
    console.log = original;
    nativeFunctionJs.push({ ms, out: body });
  }
}

// ---------------------------------------------------------------------------------------------------------
// The page: workers started from the app's origin (the page at #/code), as the app starts them

const server = await serveCached();

async function openCodePage(context) {
  const page = await context.newPage();
  await page.goto(`${server.url}#/code`);
  await page.waitForSelector('[data-testid=code-page]', { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => {
    const workers = new Map();
    let next = 0;
    const within = (p, ms, what) => Promise.race([p, new Promise((_, no) => setTimeout(() => no(new Error(`${what}: no answer in ${ms} ms`)), ms))]);
    // Starts a worker and sends `start`; resolves with the page's time to `ready` and the worker's loadMs.
    window.benchStart = (start) => {
      const id = next++;
      const t0 = performance.now();
      const w = new Worker(new URL('code/worker.js', location.href), { type: 'module' });
      workers.set(id, w);
      const ready = new Promise((ok, no) => {
        w.onmessage = (e) => {
          const m = e.data;
          if (m.kind === 'ready') ok({ id, ms: performance.now() - t0, loadMs: m.loadMs });
          else if (m.kind === 'failed') no(new Error(`${m.code}: ${m.message}`));
        };
        w.onerror = (e) => no(new Error(`the worker failed: ${e.message}`));
      });
      w.postMessage({ ...start, pyodideUrl: new URL('pyodide/', location.href).href });
      return within(ready, 180_000, 'start');
    };
    // Sends the moves one at a time; for each, the round trip seen here and the worker's own ms.
    window.benchMoves = async (id, moves) => {
      const w = workers.get(id);
      const out = [];
      for (const m of moves) {
        const t0 = performance.now();
        const a = await within(new Promise((ok) => {
          w.onmessage = (e) => { if (e.data.kind === 'answer') ok(e.data); };
          w.postMessage(m);
        }), 60_000, 'move');
        out.push({ rt: performance.now() - t0, ms: a.ms, ok: a.ok, body: a.body, code: a.code, message: a.message });
      }
      return out;
    };
    window.benchStop = (id) => {
      workers.get(id)?.terminate();
      workers.delete(id);
    };
  });
  return page;
}

const fileText = (f) => fs.readFileSync(f, 'utf8');
const startFunctionPy = {
  kind: 'start', lang: 'python', format: 'function', main: 'main.py',
  files: [{ path: 'main.py', text: fileText(FUNCTION_PY) }], seed: '1', limits: { outputChars: 8000, memoryMb: 1024 },
};
const startCourse = {
  kind: 'start', lang: 'python', format: 'course', main: 'halma_course.py',
  files: [{ path: 'halma_course.py', text: fileText(COURSE) }], seed: '1', limits: { outputChars: 8000, memoryMb: 1024 },
};
const startFunctionJs = {
  kind: 'start', lang: 'javascript', format: 'function', main: 'main.js',
  files: [{ path: 'main.js', text: fileText(FUNCTION_JS) }], seed: '1', limits: { outputChars: 8000, memoryMb: 1024 },
};
const since = (mark) => server.requests.slice(mark).filter((r) => /^\/(pyodide|code)\//.test(r.path));

/** Python's load in `context`, whose HTTP cache is empty: the first load, then CACHED_LOADS more in the same
 * page (each in a new worker, the previous one terminated: as the page restarts a player). Returns the figures
 * and the page with the last worker still running. */
async function pythonLoads(context) {
  const opened = server.requests.length;
  const page = await openCodePage(context);
  let mark = server.requests.length;
  const pyodideBefore = server.requests.slice(opened, mark).filter((r) => r.path.startsWith('/pyodide/')).length;
  const first = await page.evaluate((s) => window.benchStart(s), startFunctionPy);
  const firstRequests = since(mark);
  const cached = [];
  const cachedRequests = [];
  let worker = first.id;
  for (let i = 0; i < CACHED_LOADS; i++) {
    await page.evaluate((id) => window.benchStop(id), worker);
    mark = server.requests.length;
    const r = await page.evaluate((s) => window.benchStart(s), startFunctionPy);
    cached.push(r);
    cachedRequests.push(...since(mark));
    worker = r.id;
  }
  return { page, worker, pyodideBefore, first, firstRequests, cached, cachedRequests };
}

// 1. Python's load. A user's browser keeps its cache on disk: a new profile (a persistent context, launched
// with the harness's flags) is that browser with nothing cached. Playwright's usual contexts (browser.newContext(),
// as the tests use) cache in memory only, where Chromium keeps no entry over an eighth of the cache's size:
// there the 9.6 MB pyodide.asm.wasm is fetched again at every load. Both are measured; the first is the figure.
log('Python load in a new profile (disk cache), first and from the cache...');
const profile = fs.mkdtempSync(path.join(tmp, 'profile-'));
const persistent = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS,
});
const disk = await pythonLoads(persistent);
await persistent.close();

log('Python load in a Playwright context (memory cache), first and again; then the moves...');
const browser = await launch();
const browserVersion = browser.version();
const context = await browser.newContext();
const memory = await pythonLoads(context);
const { page } = memory;
const pyWorker = memory.worker;

const firstBytes = disk.firstRequests.filter((r) => r.status === 200);
const files = [...new Map(firstBytes.map((r) => [r.path, r])).values()];
const rawBytes = firstBytes.reduce((s, r) => s + r.bytes, 0);
const gz = new Map(files.map((r) => [r.path, gzipSync(fs.readFileSync(r.file), { level: 9 }).length]));
const gzBytes = firstBytes.reduce((s, r) => s + gz.get(r.path), 0);

// 3b. The Python function format, in the last worker loaded (the starter is already imported).
log('page: Python function format...');
const moveMsgs = requests.map((request, id) => ({ kind: 'move', id, request }));
const pageFunctionPy = await page.evaluate(([id, m]) => window.benchMoves(id, m), [pyWorker, moveMsgs]);
await page.evaluate((id) => window.benchStop(id), pyWorker);

// 2c. The course format.
log('page: course format...');
const course = await page.evaluate((s) => window.benchStart(s), startCourse);
const courseMsgs = inputs.map((input, id) => ({ kind: 'move', id, request: requests[id], input }));
const pageCourse = await page.evaluate(([id, m]) => window.benchMoves(id, m), [course.id, courseMsgs]);
await page.evaluate((id) => window.benchStop(id), course.id);

// 3c. JavaScript.
log('page: JavaScript function format...');
const js = await page.evaluate((s) => window.benchStart(s), startFunctionJs);
const pageFunctionJs = await page.evaluate(([id, m]) => window.benchMoves(id, m), [js.id, moveMsgs]);
await page.evaluate((id) => window.benchStop(id), js.id);
await context.close();
await browser.close();
server.close();

// ---------------------------------------------------------------------------------------------------------
// Checks and figures

for (const [name, rs] of [['page course', pageCourse], ['page Python function', pageFunctionPy], ['page JavaScript function', pageFunctionJs]]) {
  const bad = rs.find((r) => !r.ok);
  if (bad) throw new Error(`${name}: a move failed: ${bad.code}: ${bad.message}`);
}
const timed = (xs, f) => xs.slice(1).map(f); // without the warm-up move
const canon = (body) => JSON.stringify(JSON.parse(body));
const differing = (a, b, fa, fb) => a.map((x, i) => i).filter((i) => i > 0 && fa(a[i]) !== fb(b[i]));
const courseDiff = differing(nativeProcess, pageCourse, (r) => r.out, (r) => r.body);
const courseDiffIn = differing(nativeProcess, nativeInProcess, (r) => r.out, (r) => r.out);
const pyDiff = differing(nativeFunctionPy, pageFunctionPy, (r) => canon(r.out), (r) => canon(r.body));
const jsDiff = differing(nativeFunctionJs, pageFunctionJs, (r) => canon(r.out), (r) => canon(r.body));
const pyJsDiff = differing(nativeFunctionPy, nativeFunctionJs, (r) => canon(r.out), (r) => canon(r.out));

const rows = [];
const row = (name, xs) => {
  const s = stats(xs);
  rows.push({ name, ...s });
  return s;
};
const f1 = (x) => x.toFixed(1);
const f2 = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const kb = (x) => `${(x / 1000).toFixed(1)} KB`;

const o = [];
const plies = picked.map((p) => p.ply);
o.push(`machine: ${os.cpus().length} cores, load average ${LOAD_AT_START.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end; `
  + `Chromium ${browserVersion}; ${PYTHON_VERSION} (${PYTHON}); Node ${process.versions.node}`);
o.push(`positions: ${POSITIONS} of a ${game.length}-ply game of the course starter against itself (16x16, course camps), `
  + `plies ${plies.join(',')}; BLACK to move in ${picked.filter((p) => p.colour === 'B').length}; `
  + `one warm-up move (ply ${warmup.ply}) before each series, not counted`);
o.push('');
o.push('1. Python (Pyodide) load in Chromium: new Worker + start (function format, the starter) to ready; '
  + 'served from this machine, so the transfer itself costs next to nothing');
const count = (rs, st) => rs.filter((r) => r.status === st).length;
const sent = (rs) => kb(rs.reduce((s, r) => s + r.bytes, 0));
for (const [label, key, l] of [['a new profile (disk cache, as a user\'s browser)', '', disk],
  ['a Playwright context (memory cache)', "'", memory]]) {
  const c = stats(l.cached.map((r) => r.ms));
  row(`1a${key} Python load, nothing cached${key ? ', mem' : ''}`, [l.first.ms]);
  row(`1b${key} Python load, from the cache${key ? ', mem' : ''}`, l.cached.map((r) => r.ms));
  o.push(`   in ${label}:`);
  o.push(`   (a${key}) first load, nothing cached: ${f1(l.first.ms)} ms (the worker's own loadMs ${l.first.loadMs}; `
    + `Pyodide files the page fetched before: ${l.pyodideBefore})`);
  o.push(`   (b${key}) again in the same context, ${CACHED_LOADS} loads: median ${f1(c.median)} ms (min ${f1(c.min)}, max ${f1(c.max)}; `
    + `worker loadMs ${l.cached.map((r) => r.loadMs).join(', ')})`);
  o.push(`        their requests: ${l.cachedRequests.length}, answered 304 ${count(l.cachedRequests, 304)}, `
    + `200 ${count(l.cachedRequests, 200)} (${sent(l.cachedRequests)} sent${count(l.cachedRequests, 200) ? `: ${[...new Set(l.cachedRequests.filter((r) => r.status === 200).map((r) => r.path))].join(', ')}` : ''})`);
}
o.push(`   first load transferred: ${kb(rawBytes)} raw, ${kb(gzBytes)} with gzip -9, in ${firstBytes.length} responses:`);
for (const r of files.sort((a, b) => b.bytes - a.bytes)) {
  o.push(`     ${r.path.padEnd(34)} ${kb(r.bytes).padStart(10)}  gzip -9 ${kb(gz.get(r.path)).padStart(10)}`);
}
o.push('');
o.push('2. A move in the course format (halma_course.py, input.txt -> output.txt), same positions');
const a2 = row('2a course, native, process per move', timed(nativeProcess, (r) => r.ms));
const b2 = row('2b course, native, in-process (runpy)', timed(nativeInProcess, (r) => r.ms));
const c2 = row('2c course, page worker ms', timed(pageCourse, (r) => r.ms));
const d2 = row('2c course, page round trip', timed(pageCourse, (r) => r.rt));
o.push(`   (a) native, python3 spawned per move (spawn to exit): median ${f2(a2.median)} ms`);
o.push(`   (b) native, one python3, runpy per move:              median ${f2(b2.median)} ms`);
o.push(`   (c) page worker: its own ms median ${f2(c2.median)} ms; round trip from the page median ${f2(d2.median)} ms`);
o.push(`   ratios of medians: worker ms / (a) ${(c2.median / a2.median).toFixed(2)}, worker ms / (b) ${(c2.median / b2.median).toFixed(2)}; `
  + `round trip / (a) ${(d2.median / a2.median).toFixed(2)}, round trip / (b) ${(d2.median / b2.median).toFixed(2)}`);
o.push(`   same move text native (process) and page: ${courseDiff.length ? `NO, ${courseDiff.length} differ (positions ${courseDiff.join(',')})` : `yes, all ${POSITIONS}`}; `
  + `native process and in-process: ${courseDiffIn.length ? `NO, ${courseDiffIn.length} differ` : 'yes'}`);
for (const i of courseDiff.slice(0, 3)) {
  o.push(`     position ${i}: native ${JSON.stringify(nativeProcess[i].out)}  page ${JSON.stringify(pageCourse[i].body)}`);
}
o.push('');
o.push('3. A move in the function format (move(request), the web protocol request), same positions');
const a3 = row('3a Python function, native in-process', timed(nativeFunctionPy, (r) => r.ms));
const b3 = row('3b Python function, page worker ms', timed(pageFunctionPy, (r) => r.ms));
const b3r = row('3b Python function, page round trip', timed(pageFunctionPy, (r) => r.rt));
const c3 = row('3c JavaScript, page worker ms', timed(pageFunctionJs, (r) => r.ms));
const c3r = row('3c JavaScript, page round trip', timed(pageFunctionJs, (r) => r.rt));
const d3 = row('3d JavaScript, native Node in-process', timed(nativeFunctionJs, (r) => r.ms));
o.push(`   (a) native python3, in-process:  median ${f2(a3.median)} ms`);
o.push(`   (b) page Python worker:          ms median ${f2(b3.median)}, round trip ${f2(b3r.median)}; `
  + `/ (a): ${(b3.median / a3.median).toFixed(2)} and ${(b3r.median / a3.median).toFixed(2)}`);
o.push(`   (c) page JavaScript worker:      ms median ${f2(c3.median)}, round trip ${f2(c3r.median)}; `
  + `/ (d): ${(c3.median / d3.median).toFixed(2)} and ${(c3r.median / d3.median).toFixed(2)}`);
o.push(`   (d) native Node, in-process:     median ${f2(d3.median)} ms`);
o.push(`   same move native and page: Python ${pyDiff.length ? `NO, ${pyDiff.length} differ` : `yes, all ${POSITIONS}`}; `
  + `JavaScript ${jsDiff.length ? `NO, ${jsDiff.length} differ` : `yes, all ${POSITIONS}`}; `
  + `the Python and JavaScript starters choose the same move in ${POSITIONS - pyJsDiff.length} of ${POSITIONS}`);
o.push('   (the worker\'s ms is rounded to 0.1 ms; the page\'s clock, not cross-origin isolated, to 0.1 ms)');
o.push('');
o.push(`${'figure (ms)'.padEnd(42)}${'median'.padStart(9)}${'min'.padStart(9)}${'max'.padStart(9)}${'n'.padStart(4)}`);
for (const r of rows) {
  o.push(`${r.name.padEnd(42)}${f2(r.median).padStart(9)}${f2(r.min).padStart(9)}${f2(r.max).padStart(9)}${String(r.n).padStart(4)}`);
}
console.log(o.join('\n'));
