// Tests of the code-player runtime (web/code-runtime.mjs) under Node: `node --test web/test/` (Node 20).
// Python runs in Pyodide from web/node_modules/pyodide (loaded once for the whole file, a few seconds);
// JavaScript players run as data: URL modules (Node's import() takes no blob: URLs; the browser tests check
// blob: URLs in the real worker). The runtime closes the network and eval in this process, as it does in the
// worker, so these tests run with the sandbox on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeRuntime, badPath, closeNetwork, seededRandom } from '../code-runtime.mjs';
import { PYTHON_SOURCES } from './sources.mjs';

const PYODIDE = fileURLToPath(new URL('../node_modules/pyodide/', import.meta.url));
const COURSE_STARTER = fileURLToPath(new URL('../../ai/course/halma_course.py', import.meta.url));
const progress = [];
const rt = new CodeRuntime({ onProgress: (text) => progress.push(text), pythonSources: PYTHON_SOURCES });
let nextId = 1;

function start(files, extra = {}) {
  return rt.handle({
    kind: 'start', lang: 'python', format: 'function', main: 'main.py', seed: '12345', pyodideUrl: PYODIDE,
    limits: { outputChars: 2000, memoryMb: 1024 }, files, ...extra,
  });
}
const move = (request = { team: 'red' }, input) =>
  rt.handle({ kind: 'move', id: nextId++, request: JSON.stringify(request), input });
const py = (text) => [{ path: 'main.py', text }];

test('Python: a function AI answers; its module state persists through a game and is fresh after reset', async (t) => {
  const t0 = performance.now();
  const ready = await start(py(`
import random
print("loading")
calls = 0
def move(request):
    global calls
    calls += 1
    return {"team": request["team"], "calls": calls, "r": random.randrange(10**9)}
`));
  assert.equal(ready.kind, 'ready', JSON.stringify(ready));
  assert.equal(ready.output, 'loading\n');
  assert.ok(progress[0].startsWith('Loading Python'), 'a progress message while Pyodide loads');
  t.diagnostic(`Pyodide load + first start: ${Math.round(performance.now() - t0)} ms`);
  const a1 = await move();
  assert.equal(a1.kind, 'answer');
  assert.equal(a1.id, nextId - 1);
  assert.equal(a1.ok, true, JSON.stringify(a1));
  const b1 = JSON.parse(a1.body);
  assert.equal(b1.team, 'red');
  assert.equal(b1.calls, 1);
  assert.equal(typeof a1.ms, 'number');
  const b2 = JSON.parse((await move()).body);
  assert.equal(b2.calls, 2, 'module state persists between moves');
  assert.notEqual(b2.r, b1.r);

  const again = await rt.handle({ kind: 'reset', seed: '12345' });
  assert.equal(again.kind, 'ready');
  assert.equal(again.output, 'loading\n', 'the top level runs again');
  const c1 = JSON.parse((await move()).body);
  assert.equal(c1.calls, 1, 'fresh module state after reset');
  assert.equal(c1.r, b1.r, 'the same seed gives the same random numbers');
  await rt.handle({ kind: 'reset', seed: '999' });
  assert.notEqual(JSON.parse((await move()).body).r, b1.r, 'another seed, other numbers');

  const none = await rt.handle({ kind: 'move', id: 77, request: 'null' });
  assert.equal(none.id, 77);
  assert.equal(none.code, 'exception');
  assert.match(none.message, /File "main\.py", line 8, in move\n.*\n.*\nTypeError: 'NoneType' object is not subscriptable$/);
});

test('Python: move returning None answers null; a set is a malformed answer', async () => {
  await start(py('def move(request):\n    return request.get("give")\n'));
  assert.equal((await move({})).body, 'null');
  assert.equal((await move({ give: [1, 'a'] })).body, '[1, "a"]');
  await start(py('def move(request):\n    return {1, 2}\n'));
  const a = await move();
  assert.equal(a.ok, false);
  assert.equal(a.code, 'malformed_answer');
  assert.match(a.message, /set/);
  await start(py('def move(request):\n    return float("nan")\n'));
  assert.equal((await move()).code, 'malformed_answer', 'NaN is not JSON');
});

test('Python: a syntax error names the file, line and column', async () => {
  const r = await start([
    { path: 'main.py', text: 'import helper\ndef move(request):\n    return 1\n' },
    { path: 'helper.py', text: 'x = 1\n\ndef f(:\n    pass\n' },
  ]);
  assert.equal(r.kind, 'failed');
  assert.equal(r.code, 'syntax_error');
  assert.equal(r.file, 'helper.py');
  assert.equal(r.line, 3);
  assert.equal(r.column, 7);
  assert.equal(r.message, 'helper.py line 3, column 7: SyntaxError: invalid syntax');
  const m = await move();
  assert.equal(m.ok, false, 'no player after a failed start');
});

test('Python: exceptions give a traceback of the student\'s files only', async () => {
  const r = await start([
    { path: 'main.py', text: 'import helper\n\nhelper.setup()\n\ndef move(request):\n    return 1\n' },
    { path: 'helper.py', text: 'import json\n\ndef setup():\n    json.loads("{")\n' },
  ]);
  assert.equal(r.kind, 'failed');
  assert.equal(r.code, 'exception');
  assert.match(r.message, /File "main\.py", line 3, in <module>/);
  assert.match(r.message, /File "helper\.py", line 4, in setup/);
  assert.match(r.message, /JSONDecodeError/);
  assert.doesNotMatch(r.message, /gridarena|importlib|\/lib\/python|pyodide|json\/decoder/);

  await start([
    { path: 'main.py', text: 'from lib.calc import ratio\n\ndef move(request):\n    total = 0\n    return ratio(1, total)\n' },
    { path: 'lib/__init__.py', text: '' },
    { path: 'lib/calc.py', text: 'def ratio(a, b):\n    return a / b\n' },
  ]);
  const a = await move();
  assert.equal(a.ok, false);
  assert.equal(a.code, 'exception');
  assert.equal(a.message, [
    'Traceback (most recent call last):',
    '  File "main.py", line 5, in move',
    '    return ratio(1, total)',
    '  File "lib/calc.py", line 2, in ratio',
    '    return a / b',
    '           ~~^~~',
    'ZeroDivisionError: division by zero',
  ].join('\n'));
  assert.equal(a.file, 'lib/calc.py');
  assert.equal(a.line, 2);

  const nm = await start(py('def mov(request):\n    return 1\n'));
  assert.equal(nm.code, 'no_move_function');
  assert.equal(nm.message, 'main.py defines no function move(request)');
});

test('Python: a multi-file AI imports a helper and reads a pickled table; bad paths are refused', async () => {
  const r = await start([
    { path: 'main.py', text: 'import pickle, helper\nwith open("data/book.pkl", "rb") as f:\n    BOOK = pickle.load(f)\ndef move(request):\n    return {"book": BOOK, "h": helper.twice(21), "file": __file__}\n' },
    { path: 'helper.py', text: 'def twice(x):\n    return 2 * x\n' },
    // pickle.dumps({'openings': [[1, 2], [3, 4]], 'name': 'book'}, protocol=2)
    { path: 'data/book.pkl', base64: 'gAJ9cQAoWAgAAABvcGVuaW5nc3EBXXECKF1xAyhLAUsCZV1xBChLA0sEZWVYBAAAAG5hbWVxBVgEAAAAYm9va3EGdS4=' },
  ]);
  assert.equal(r.kind, 'ready', JSON.stringify(r));
  const body = JSON.parse((await move()).body);
  assert.deepEqual(body.book, { openings: [[1, 2], [3, 4]], name: 'book' });
  assert.equal(body.h, 42);
  assert.equal(body.file, '/game/main.py');

  for (const path of ['../evil.py', '/etc/passwd', 'a/../../b.py', 'C:\\x.py', 'a//b.py']) {
    const bad = await start([{ path: 'main.py', text: 'def move(r):\n    return 1\n' }, { path, text: '' }]);
    assert.equal(bad.kind, 'failed', path);
    assert.equal(bad.code, 'could_not_start', path);
  }
  assert.equal(badPath('lib/util.py'), null);
  assert.match(badPath('../x'), /'\.\.'/);
  assert.equal((await start(py('x = 1\n'), { main: 'other.py' })).code, 'could_not_start');
});

test('Python: print output is captured in order and a 10 MB print is capped cheaply', async () => {
  await start(py(`
import sys
def move(request):
    print("one")
    sys.stderr.write("two\\n")
    print("three", file=sys.stdout)
    if request.get("big"):
        print("x" * 10_000_000)
    return 0
`));
  const a = await move();
  assert.equal(a.output, 'one\ntwo\nthree\n');
  assert.equal(a.outputChars, 14);
  const t0 = performance.now();
  const big = await move({ big: true });
  const ms = performance.now() - t0;
  assert.equal(big.ok, true);
  assert.equal(big.outputChars, 14 + 10_000_001);
  assert.ok(big.output.startsWith('one\ntwo\nthree\nxxx'));
  assert.ok(big.output.length < 2100, `output kept to the cap: ${big.output.length}`);
  assert.ok(big.output.endsWith(`\n… ${big.outputChars - 2000} more characters not kept\n`), big.output.slice(-60));
  assert.ok(ms < 3000, `a 10 MB print takes ${Math.round(ms)} ms`);
});

test('Python: the network is closed, even when the code catches the error', async () => {
  await start(py(`
def move(request):
    how = request["how"]
    try:
        if how == "js.fetch":
            import js
            js.fetch("http://127.0.0.1:9/")
        elif how == "open_url":
            from pyodide.http import open_url
            open_url("http://127.0.0.1:9/")
        elif how == "urllib":
            import urllib.request
            urllib.request.urlopen("http://127.0.0.1:9/", timeout=1)
        elif how == "socket":
            import socket
            socket.create_connection(("127.0.0.1", 9), timeout=1)
        elif how == "proto":
            import js
            js.Object.getPrototypeOf(js).fetch("http://127.0.0.1:9/")
    except BaseException as e:
        print("caught", type(e).__name__)
    return "fine"
`));
  for (const [how, what] of [['js.fetch', 'fetch'], ['open_url', 'pyodide.http.open_url'], ['urllib', 'socket.'], ['socket', 'socket.create_connection']]) {
    const a = await move({ how });
    assert.equal(a.ok, false, how);
    assert.equal(a.code, 'network', how);
    assert.ok(a.message.includes(what), `${how}: ${a.message}`);
    assert.match(a.output, /caught/);
  }
  const a = await move({ how: 'proto' });
  assert.equal(a.code, undefined, 'nothing left on the prototype to call');
  assert.equal(a.ok, true);
  assert.equal((await move({ how: 'none' })).ok, true);

  const top = await start(py('import js\ntry:\n    js.fetch("http://127.0.0.1:9/")\nexcept Exception:\n    pass\ndef move(r):\n    return 1\n'));
  assert.equal(top.kind, 'failed');
  assert.equal(top.code, 'network');
  assert.throws(() => fetch('http://127.0.0.1:9/'), /network access is closed to code players \(fetch\)/);
  assert.equal(Object.getOwnPropertyDescriptor(globalThis, 'fetch').configurable, false);
});

test('Python: MemoryError is out_of_memory', async () => {
  await start(py('def move(request):\n    big = [0] * (2 ** 30)\n    return len(big)\n'));
  const a = await move();
  assert.equal(a.ok, false);
  assert.equal(a.code, 'out_of_memory');
  assert.match(a.message, /MemoryError/);
  assert.equal(a.restart, undefined);
  assert.equal((await rt.handle({ kind: 'reset', seed: '1' })).kind, 'ready', 'the worker goes on');
});

test('Python: memory is bounded while the move runs, not checked after it', async () => {
  // 1.5 GB fits WebAssembly's 4 GB, not the player's 1 GB: refused as it is asked for, and the move goes on.
  await start(py(`
def move(request):
    try:
        big = bytearray(1536 * 2 ** 20)
        print("allocated", len(big))
    except MemoryError:
        print("refused")
    return None
`));
  const a = await move();
  assert.equal(a.ok, true, JSON.stringify(a));
  assert.match(a.output, /refused/);
  assert.equal((await rt.handle({ kind: 'reset', seed: '1' })).kind, 'ready', 'the worker goes on');
});

const COURSE = `
import os, sys
mode = open("input.txt").read().strip()
print("mode", mode)
if mode == "exit3":
    print("bad input", file=sys.stderr)
    sys.exit(3)
if mode == "noisy":
    print("y" * 5000)
    print("last words", file=sys.stderr)
    sys.exit(2)
if mode == "exit0":
    sys.exit(0)
if mode == "none":
    pass
elif mode == "link":
    os.symlink("/game/main.py", "output.txt")
elif mode == "huge":
    open("output.txt", "w").write("x" * 70000)
else:
    n = int(open("count.txt").read()) if os.path.exists("count.txt") else 0
    open("count.txt", "w").write(str(n + 1))
    os.makedirs("memo", exist_ok=True)
    open("memo/last.txt", "w").write(mode)
    import helper
    open("output.txt", "w").write(helper.answer(n))
`;

test('Python course format: output.txt is the answer; side files persist and are sent; failures', async () => {
  const r = await start([
    { path: 'main.py', text: COURSE },
    { path: 'helper.py', text: 'def answer(n):\n    return "E 0,%d 1,1\\n" % n\n' },
    { path: 'notes.txt', text: 'kept as it is' },
  ], { format: 'course' });
  assert.equal(r.kind, 'ready', JSON.stringify(r));
  const a = await move(null, 'play');
  assert.equal(a.ok, true, JSON.stringify(a));
  assert.equal(a.body, 'E 0,0 1,1\n');
  assert.equal(a.output, 'mode play\n');
  const side = (ans) => Object.fromEntries(ans.sideFiles.map((f) => [f.path, Buffer.from(f.base64, 'base64').toString()]));
  assert.deepEqual(side(a), { 'count.txt': '1', 'memo/last.txt': 'play' });
  const b = await move(null, 'again');
  assert.equal(b.body, 'E 0,1 1,1\n', 'count.txt persisted from the previous move');
  assert.deepEqual(side(b), { 'count.txt': '2', 'memo/last.txt': 'again' });

  const none = await move(null, 'none');
  assert.equal(none.ok, false);
  assert.equal(none.code, 'no_output', 'output.txt of the previous move was deleted');
  assert.deepEqual(side(none), { 'count.txt': '2', 'memo/last.txt': 'again' });
  const exit3 = await move(null, 'exit3');
  assert.equal(exit3.code, 'crashed');
  assert.match(exit3.message, /^the program exited with status 3/);
  assert.match(exit3.message, /bad input/);
  const noisy = await move(null, 'noisy');
  assert.equal(noisy.code, 'crashed');
  assert.match(noisy.message, /^the program exited with status 2; the end of its output:\ny+\nlast words$/, 'the end of the output, past the cap');
  assert.equal((await move(null, 'exit0')).code, 'no_output', 'sys.exit(0) is a normal end');
  assert.equal((await move(null, 'link')).code, 'no_output', 'a symlink is not read');
  assert.equal((await move(null, 'huge')).code, 'output_too_large');

  // a restarted worker gets the side files back; a reset starts without them
  const restarted = await start([
    { path: 'main.py', text: COURSE },
    { path: 'helper.py', text: 'def answer(n):\n    return "E 0,%d 1,1\\n" % n\n' },
    ...b.sideFiles.map((f) => ({ ...f, side: true })),
  ], { format: 'course' });
  assert.equal(restarted.kind, 'ready');
  assert.equal((await move(null, 'go')).body, 'E 0,2 1,1\n');
  await rt.handle({ kind: 'reset', seed: '5' });
  const fresh = await move(null, 'go');
  assert.equal(fresh.body, 'E 0,0 1,1\n');
  assert.deepEqual(side(fresh), { 'count.txt': '1', 'memo/last.txt': 'go' });

  const syn = await start(py('print(1\n'), { format: 'course' });
  assert.equal(syn.code, 'syntax_error');
  assert.equal(syn.line, 1);
});

// What students leave open: CPython flushes and closes it when the process exits, and the page does at the
// end of each course move.
const LEFT_OPEN = `
import sys, atexit
mode = open("input.txt").read()
if mode == "w+":
    out = open("output.txt", "w+")
    out.write("E 1,1 2,2\\n")
elif mode == "stdout":
    sys.stdout = open("output.txt", "w")
    print("E 1,1 2,3")
elif mode == "atexit":
    log = open("log.txt", "a")
    atexit.register(lambda: log.write("bye\\n"))
    atexit.register(lambda: open("output.txt", "w").write("E 1,1 2,4\\n"))
elif mode == "raise":
    table = open("table.txt", "w")
    table.write("learned")
    atexit.register(lambda: print("handler ran"))
    raise ValueError("after writing the table")
print("after", mode, file=sys.stderr)
`;

test('Python course format: a move ends as a process exits: files left open are flushed and closed, atexit runs', async () => {
  const r = await start([{ path: 'main.py', text: LEFT_OPEN }], { format: 'course' });
  assert.equal(r.kind, 'ready', JSON.stringify(r));
  const w = await move(null, 'w+');
  assert.equal(w.ok, true, JSON.stringify(w));
  assert.equal(w.body, 'E 1,1 2,2\n', 'out = open("output.txt", "w+") never closed');
  const so = await move(null, 'stdout');
  assert.equal(so.ok, true, JSON.stringify(so));
  assert.equal(so.body, 'E 1,1 2,3\n', 'sys.stdout = open("output.txt", "w") and print');
  const after = await move(null, 'w+');
  assert.match(after.output, /^after w\+\n$/, 'sys.stdout and sys.stderr are the page\'s again');
  const side = (ans) => Object.fromEntries(ans.sideFiles.map((f) => [f.path, Buffer.from(f.base64, 'base64').toString()]));
  for (const n of [1, 2]) {
    const a = await move(null, 'atexit');
    assert.equal(a.ok, true, JSON.stringify(a));
    assert.equal(a.body, 'E 1,1 2,4\n', 'an atexit handler wrote output.txt');
    assert.equal(side(a)['log.txt'], 'bye\n'.repeat(n), 'each handler runs once, at the end of the move that registered it');
  }
  const x = await move(null, 'raise');
  // As a process that raises: the traceback on stderr and exit status 1 (the command line's name too).
  assert.equal(x.code, 'crashed');
  assert.match(x.message, /exited with status 1/);
  assert.match(x.output, /ValueError: after writing the table/);
  assert.match(x.output, /handler ran/);
  assert.equal(side(x)['table.txt'], 'learned', 'a file left open is flushed even when the script raised');
});

function startPosition() {
  const rows = [];
  for (let y = 0; y < 16; y++) {
    let row = '';
    for (let x = 0; x < 16; x++) {
      const black = x <= 4 && y <= 4 && x + y <= 5;
      const white = 15 - x <= 4 && 15 - y <= 4 && 30 - x - y <= 5;
      row += black ? 'B' : white ? 'W' : '.';
    }
    rows.push(row);
  }
  return `GAME\nBLACK\n300.0\n${rows.join('\n')}\n`;
}

test('Python course format: the real course starter plays a move, the same as native python3', async (t) => {
  const input = startPosition();
  assert.equal((input.slice(input.indexOf('.0\n')).match(/B/g) || []).length, 19);
  const r = await start([{ path: 'halma_course.py', text: readFileSync(COURSE_STARTER, 'utf8') }], { format: 'course', main: 'halma_course.py' });
  assert.equal(r.kind, 'ready', JSON.stringify(r));
  const a = await move(null, input);
  assert.equal(a.ok, true, JSON.stringify(a));
  assert.match(a.body, /^(E \d+,\d+ \d+,\d+\n|(J \d+,\d+ \d+,\d+\n)+)$/);
  assert.deepEqual(a.sideFiles, []);
  const second = await move(null, input.replace('BLACK', 'WHITE'));
  assert.equal(second.ok, true);
  assert.match(second.body, /^(E|J) 1\d?,1\d? /, 'White moves from the bottom-right camp');

  const dir = mkdtempSync(join(tmpdir(), 'course-'));
  try {
    writeFileSync(join(dir, 'input.txt'), input);
    const t0 = performance.now();
    const native = spawnSync('python3', [COURSE_STARTER], { cwd: dir, encoding: 'utf8' });
    const nativeMs = performance.now() - t0;
    if (native.error) {
      t.diagnostic('python3 not found: no comparison with native Python');
      return;
    }
    assert.equal(native.status, 0, native.stderr);
    assert.equal(a.body, readFileSync(join(dir, 'output.txt'), 'utf8'), 'the same move as native python3');
    t.diagnostic(`course starter, one move: Pyodide ${a.ms} ms (in the runtime), native python3 ${Math.round(nativeMs)} ms (whole process)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ----- JavaScript players -----

const js = (files, extra = {}) => rt.handle({
  kind: 'start', lang: 'javascript', format: 'function', main: 'main.js', seed: '7', limits: { outputChars: 2000, memoryMb: 1024 }, files, ...extra,
});

test('JavaScript: a multi-file function AI answers, keeps state, reads files, is fresh after reset', async () => {
  const r = await js([
    { path: 'main.js', text: `import { twice } from './lib/util.js';
import * as again from "./lib/util.js";
console.log('loading', { a: 1 });
let calls = 0;
const table = JSON.parse(files.text('table.json'));
export async function move(request) {
  calls++;
  console.warn('move', calls);
  return { team: request.team, calls, t: twice(table.x), same: again.twice === twice, bytes: [...files.bytes('b.bin')], r: Math.random() };
}
` },
    { path: 'lib/util.js', text: 'export const twice = (x) => 2 * x;\n' },
    { path: 'table.json', text: '{"x": 21}' },
    { path: 'b.bin', base64: 'AQID' },
  ]);
  assert.equal(r.kind, 'ready', JSON.stringify(r));
  assert.equal(r.output, 'loading {"a":1}\n');
  const a = await move();
  assert.equal(a.ok, true, JSON.stringify(a));
  const body = JSON.parse(a.body);
  assert.deepEqual({ ...body, r: 0 }, { team: 'red', calls: 1, t: 42, same: true, bytes: [1, 2, 3], r: 0 });
  assert.equal(a.output, 'move 1\n');
  assert.equal(JSON.parse((await move()).body).calls, 2);
  assert.equal((await rt.handle({ kind: 'reset', seed: '7' })).kind, 'ready');
  const c = JSON.parse((await move()).body);
  assert.equal(c.calls, 1, 'fresh module after reset');
  assert.equal(c.r, body.r, 'Math.random is seeded per game');
  assert.equal(seededRandom('7')(), seededRandom('7')());
  assert.notEqual(seededRandom('7')(), seededRandom('8')());
});

test('JavaScript: syntax errors, refused imports, cycles, exceptions, malformed answers, network', async () => {
  const syn = await js([{ path: 'main.js', text: 'export function move(r) {\n  return r +;\n}\n' }]);
  assert.equal(syn.code, 'syntax_error');
  assert.equal(syn.file, 'main.js');
  assert.equal(syn.line, 2);
  assert.equal(syn.column, 13);
  assert.equal(syn.message, 'main.js line 2, column 13: SyntaxError: Unexpected token');

  for (const text of ["import x from 'https://example.com/x.js';", "import fs from 'node:fs';", 'const u = "./a.js"; import(u);', "import('http://example.com/');"]) {
    const r = await js([{ path: 'main.js', text: `${text}\nexport function move() { return 1; }\n` }]);
    assert.equal(r.code, 'could_not_start', text);
    assert.match(r.message, /relative path/);
  }
  const missing = await js([{ path: 'main.js', text: "import './nope.js';\nexport function move() {}\n" }]);
  assert.match(missing.message, /not one of the player's JavaScript files/);
  const cyc = await js([
    { path: 'main.js', text: "import './a.js';\nexport function move() {}\n" },
    { path: 'a.js', text: "import './b.js';\n" },
    { path: 'b.js', text: "import './a.js';\n" },
  ]);
  assert.equal(cyc.code, 'could_not_start');
  assert.match(cyc.message, /cycle \(a\.js → b\.js → a\.js\)/);
  assert.equal((await js([{ path: 'main.js', text: 'export const x = 1;\n' }])).code, 'no_move_function');

  await js([
    { path: 'main.js', text: "import { risky } from './risky.js';\nexport function move(request) {\n  if (request.big) return new Uint8Array(2 ** 40);\n  if (request.fn) return () => 1;\n  if (request.big2) return 1n;\n  if (request.net) { try { fetch('http://127.0.0.1:9/'); } catch {} return 1; }\n  if (request.eval) return eval('1 + 1');\n  return risky(request);\n}\n" },
    { path: 'risky.js', text: 'export function risky(request) {\n  return request.missing.field;\n}\n' },
  ]);
  const ex = await move({});
  assert.equal(ex.code, 'exception');
  assert.equal(ex.file, 'risky.js');
  assert.equal(ex.line, 2);
  assert.match(ex.message, /^TypeError: Cannot read properties of undefined \(reading 'field'\)\n {4}at risky \(risky\.js:2:26\)\n {4}at move \(main\.js:8:10\)$/);
  assert.equal((await move({ big: 1 })).code, 'out_of_memory');
  assert.equal((await move({ fn: 1 })).code, 'malformed_answer');
  assert.equal((await move({ big2: 1 })).code, 'malformed_answer');
  const net = await move({ net: 1 });
  assert.equal(net.code, 'network');
  assert.match(net.message, /^fetch$/);
  const ev = await move({ eval: 1 });
  assert.equal(ev.code, 'exception');
  assert.match(ev.message, /eval is closed to code players/);
  assert.throws(() => new Function('return 1'), /closed to code players/);
  assert.ok((() => {}) instanceof Function, 'Function still works as a name');
});

test('closeNetwork replaces the APIs wherever they were on the prototype chain and locks the replacements', () => {
  const proto = { fetch() { return 'real'; }, importScripts() {}, get indexedDB() { return {}; } };
  const g = Object.create(proto);
  g.WebSocket = function WebSocket() {};
  const navProto = { sendBeacon() { return true; } };
  g.navigator = Object.create(navProto);
  closeNetwork(g);
  assert.throws(() => g.fetch('x'), /closed to code players \(fetch\)/);
  assert.throws(() => proto.fetch('x'), /closed to code players \(fetch\)/, 'the prototype holds the closed one');
  assert.throws(() => new g.WebSocket('ws://x'), /WebSocket/);
  assert.throws(() => g.indexedDB, /indexedDB/);
  assert.throws(() => Object.getOwnPropertyDescriptor(proto, 'indexedDB').get.call(g), /indexedDB/);
  assert.throws(() => g.navigator.sendBeacon('x'), /sendBeacon/);
  assert.throws(() => navProto.sendBeacon('x'), /sendBeacon/);
  assert.throws(() => Object.defineProperty(g, 'fetch', { value: () => 'again' }), TypeError);
  assert.throws(() => Object.defineProperty(proto, 'fetch', { value: () => 'again' }), TypeError);
});

// last: a limit far under the default
test('Python: wasm memory past limits.memoryMb is refused as it grows: out_of_memory, and the worker goes on', async () => {
  await start(py('keep = []\ndef move(request):\n    keep.append(bytearray(96 * 2**20))\n    return len(keep)\n'), { limits: { outputChars: 2000, memoryMb: 64 } });
  const a = await move();
  assert.equal(a.ok, false);
  assert.equal(a.code, 'out_of_memory');
  assert.match(a.message, /MemoryError/);
  assert.equal(a.restart, undefined, 'the heap never grew past the limit: nothing to replace');
  const b = await move();
  assert.equal(b.code, 'out_of_memory');
});
