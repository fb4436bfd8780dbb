// The hostile-code suite in the page (docs/code-players.md): a student's code that tries, in one move, every
// way out of its Web Worker the page must close (tests/fixtures/hostile/page_escapes.py and .js; the command
// line's side is crates/cli/tests/hostile_code.rs). Each language's AI is played for real in the arena, with a
// local HTTP listener of this test's as the place to reach, and checked afterwards:
// - the listener heard nothing (no connection, no request, no WebSocket upgrade);
// - the move is refused as `network`, the attempts alone refusing it (the code caught every error), and the
//   refusal names each API tried, even one the code tried to hide from the worker's bookkeeping;
// - every try printed a `refused <what>: <why>` line and none said ESCAPED;
// - what the page kept of the printed text is at most its own cap (8,000 characters and its note), though the
//   code raised the worker's; the page charged the move its own time, though the code stopped the worker's
//   clock; and nothing the code forged (an answer, an error event) reached the page.
// Every problem is gathered and the test fails once, naming each; one a try found in the page is marked HOLE
// (docs/code-players.md names those still open). Release build, headless Chromium, Pyodide from dist/. Every
// wait is for an event, with generous timeouts (a loaded 2-core machine loads Pyodide slowly).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openApp, root } from './harness.mjs';

/** The page's cap on what it keeps of a move's printed text (src/code/worker.rs, MAX_OUTPUT_CHARS). */
const PAGE_CAP = 8000;
/** The fixtures' clock try spins this long with the worker's clock stopped (SPIN_S, SPIN_MS). */
const SPIN_MS = 500;
const WAIT = 240_000;

let server, browser;
before(async () => {
  server = await serveDist('/sub/');
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

/**
 * What the code must not reach: an HTTP listener on a free loopback port that logs every connection, request
 * and upgrade (a WebSocket's), and answers each request as an open server would (CORS allowed), so a try that
 * got through would not fail for want of an answer.
 */
async function startTarget() {
  const heard = [];
  const sockets = new Set();
  const listener = http.createServer((req, res) => {
    heard.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    res.end('reached');
  });
  listener.on('connection', (s) => {
    heard.push(`a connection from port ${s.remotePort}`);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  listener.on('upgrade', (req, s) => {
    heard.push(`upgrade ${req.headers.upgrade} ${req.url}`);
    s.destroy();
  });
  await new Promise((ok) => listener.listen(0, '127.0.0.1', ok));
  const { port } = listener.address();
  return {
    heard,
    target: { url: `http://127.0.0.1:${port}/`, ws: `ws://127.0.0.1:${port}/`, port },
    close: () => { for (const s of sockets) s.destroy(); listener.close(); },
  };
}

// The fixtures' two ways past the worker's error listener, to raise an error event the page hears.
const ERROR_EVENT_WAYS = ['Event.prototype.preventDefault replaced', 'a capturing listener that stops it first']
  .map((way) => `an error event to the page (${way})`);

// Each try as its fixture names it: every one must print `refused <what>: <why>`.
const TRIES = {
  python: [
    'js.fetch', 'synchronous js.XMLHttpRequest', 'pyodide.http.open_url', 'pyodide.http.pyfetch',
    'pyodide.http.pyxhr', 'js.WebSocket', 'js.EventSource', 'js.importScripts', 'js.Worker', 'js.eval',
    'pyodide.code.run_js', 'js.Function', 'js.navigator.sendBeacon', 'js.indexedDB', 'js.caches',
    'js.navigator.storage', 'js.navigator.locks', 'js.BroadcastChannel', "the worker's prototype's fetch",
    'pyodide_js.loadPackage', 'socket.create_connection', "_socket below the runner's socket",
    'urllib.request.urlopen', 'js.postMessage (a forged answer)', "the prototype's postMessage (a forged answer)",
    ...ERROR_EVENT_WAYS, "hiding an attempt (the runner's NET list)", 'the clock (js.performance.now)',
    "the output cap (the runner's CAPTURE.cap)",
  ],
  javascript: [
    'fetch', 'synchronous XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'importScripts',
    'new Worker', 'eval', 'new Function', 'the async function constructor', 'the generator function constructor',
    'setTimeout with a string', 'setInterval with a string', 'navigator.sendBeacon', 'fetchLater', 'indexedDB',
    'caches', 'navigator.storage', 'navigator.storageBuckets', 'navigator.locks', 'navigator.serviceWorker',
    'BroadcastChannel', 'FontFace', 'Object.getPrototypeOf(self).fetch', "the first prototype's fetch",
    'ShadowRealm (a fresh realm)', 'postMessage (a forged answer)', "the prototype's postMessage (a forged answer)",
    ...ERROR_EVENT_WAYS, 'hiding an attempt (Array.prototype.push)', 'the clock (performance.now)',
    'the output cap (String.prototype.slice)',
  ],
};

// What the page's `network` refusal must name (the worker's names for what was tried). The last of each is
// the attempt the code hid from the worker's bookkeeping right after making it.
const NAMED = {
  python: [
    'fetch', 'XMLHttpRequest', 'pyodide.http.open_url', 'pyodide.http.pyfetch', 'WebSocket', 'EventSource',
    'importScripts', 'Worker', 'eval', 'new Function', 'navigator.sendBeacon', 'indexedDB', 'caches',
    'navigator.storage', 'navigator.locks', 'BroadcastChannel', 'pyodide.loadPackage',
    'socket.create_connection', 'socket.connect', 'urllib.request', 'http.client.connect', 'socket.getaddrinfo',
  ],
  javascript: [
    'fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'importScripts', 'Worker',
    'navigator.sendBeacon', 'indexedDB', 'caches', 'navigator.storage', 'navigator.storageBuckets',
    'navigator.locks', 'BroadcastChannel', 'FontFace', 'SharedWorker',
  ],
};
const HIDDEN = { python: 'socket.getaddrinfo', javascript: 'SharedWorker' };

/** An AI as the page keeps it. */
function ai(name, lang, main, files) {
  return { name, draft: { lang, format: 'function', main, files }, versions: [] };
}

/** Opens the arena with `ais` kept in the browser's storage. */
async function openWith(ais, hash) {
  const init = `if (!sessionStorage.getItem('seeded')) {
    localStorage.setItem('gridarena.code.ais', ${JSON.stringify(JSON.stringify(ais))});
    sessionStorage.setItem('seeded', '1');
  }`;
  return openApp(browser, server.url + hash, init);
}

const turnOf = (page) => page.evaluate(
  () => Number(/turn (\d+)/.exec(document.querySelector('[data-testid=game-info]')?.textContent ?? '')?.[1] ?? -1));

/** One step of the game: clicks Step and waits until the turn has moved on. */
async function step(page) {
  const before = await turnOf(page);
  await page.click('[data-testid=step]');
  await page.waitForFunction((n) => {
    const m = /turn (\d+)/.exec(document.querySelector('[data-testid=game-info]')?.textContent ?? '');
    return m && Number(m[1]) > n;
  }, before, { timeout: WAIT });
}

/** Red's exchange at the latest tick, as the inspector shows it (null parts where it shows none). */
async function redExchange(page) {
  return page.evaluate(() => {
    const e = document.querySelector('[data-testid=exchange-red]');
    const text = (id) => e?.querySelector(`[data-testid=${id}]`)?.textContent ?? null;
    return { verdict: text('inspector-verdict'), status: text('inspector-status'), printed: text('inspector-output') };
  });
}

/** All the page shows, the printed text too: a forged answer would show there. */
const shown = (page) => page.evaluate(() => document.body.textContent);

for (const [lang, main, fixture] of [
  ['python', 'main.py', 'page_escapes.py'],
  ['javascript', 'main.js', 'page_escapes.js'],
]) {
  test(`${lang}: no way out of the page's worker gets through, and every try is refused as network`, async () => {
    const target = await startTarget();
    const problems = [];
    try {
      const hostile = ai('hostile', lang, main, [
        { path: main, text: fs.readFileSync(path.join(root, 'tests/fixtures/hostile', fixture), 'utf8') },
        { path: 'target.json', text: JSON.stringify(target.target) },
      ]);
      const { page, errors } = await openWith([hostile], '?red=code%3Ahostile&blue=builtin%3Agreedy&preset=mini&first=red');
      await page.locator('[data-testid=speed]').fill('3000');
      await page.click('[data-testid=inspector] summary');
      // Red's first ask may come before the code players' module or the worker is ready (a failure that is
      // not the code's): step until red's move has printed the fixture's lines.
      let first = null;
      for (let i = 0; i < 12 && !first; i++) {
        await step(page);
        const red = await redExchange(page);
        if (/^(refused|ESCAPED) /m.test(red.printed ?? '')) first = red;
      }
      assert.ok(first, `red never played the fixture's move:\n${await page.textContent('[data-testid=messages]')}`);
      // Red's next move (the fixtures try only once): by its answer, whatever the first move's worker sent
      // the page before it (a forged answer, an error event) has been heard.
      for (let i = 0; i < 2; i++) await step(page);
      const second = await redExchange(page);

      // 1. Nothing reached the listener.
      if (target.heard.length) problems.push(`the listener was reached: ${target.heard.join('; ')}`);

      // 2. Refused as network, naming each API tried.
      const verdict = first.verdict ?? '';
      if (!/^the code tried to reach the network \(/.test(verdict)) {
        problems.push(`the move was not refused as network; its verdict: ${verdict}`);
      }
      for (const name of NAMED[lang]) {
        if (verdict.includes(name)) continue;
        problems.push(name === HIDDEN[lang]
          ? `HOLE: an attempt the code hid is not counted: the refusal does not name ${name}, which the code tried and then took off the worker's record (see the fixture's "hiding an attempt" try)`
          : `the refusal does not name ${name}`);
      }

      // 3. A refused line for every try, none ESCAPED, nothing else before the flood.
      const printed = first.printed;
      const lines = printed.split('\n').filter((l) => /^(refused|ESCAPED) /.test(l));
      for (const line of lines.filter((l) => l.startsWith('ESCAPED '))) problems.push(`HOLE: ${line}`);
      for (const what of TRIES[lang]) {
        const said = lines.filter((l) => l.startsWith(`refused ${what}: `) || l === `ESCAPED ${what}` || l.startsWith(`ESCAPED ${what}: `));
        if (said.length !== 1) problems.push(`the try "${what}" printed ${said.length} lines`);
      }
      if (lines.length !== TRIES[lang].length) {
        problems.push(`${lines.length} lines for ${TRIES[lang].length} tries:\n${lines.join('\n')}`);
      }

      // 4. The page's own cap on the printed text, though the code raised the worker's.
      const note = /\n?… \d+ more characters not kept\s*$/.exec(printed);
      const kept = [...(note ? printed.slice(0, note.index) : printed)].length;
      if (!note) problems.push('the printed text has no note of what was not kept');
      if (kept > PAGE_CAP) problems.push(`HOLE: the page kept ${kept} characters of printed text, more than its ${PAGE_CAP}`);

      // 5. The page's own clock, though the code stopped the worker's.
      const ms = Number(/answered in ([\d.]+) ms/.exec(first.status ?? '')?.[1]);
      if (!(ms >= SPIN_MS)) problems.push(`HOLE: the page charged ${first.status} for a move that spun ${SPIN_MS} ms with the worker's clock stopped`);

      // 6. Nothing forged reached the page: its text shows nowhere, and red's next move is asked of its code
      //    as any other.
      const all = await shown(page);
      const at = all.indexOf('FORGED');
      if (at >= 0) {
        const count = all.split('FORGED').length - 1;
        const how = /Uncaught Error: FORGED/.test(all)
          ? "an error event: the worker's error listener cancels each with preventDefault, which the code made do nothing, so the error went on to the page's Worker object, whose onerror took it for the worker failing to load"
          : 'a forged answer';
        problems.push(`HOLE: what the code forged reached the page (${how}): the page shows the code's text ${count} times, as in "…${all.slice(Math.max(0, at - 60), at + 100)}…"; red's next move: ${second.verdict}`);
      } else if (/could not start/.test(second.verdict ?? '')) {
        problems.push(`red's next move: ${second.verdict}`);
      }
      if (errors.length) problems.push(`the page reported: ${errors.join(' | ')}`);

      if (problems.length) {
        console.log(`--- ${lang}: red's move\nverdict: ${verdict}\nstatus: ${first.status}\nprinted:\n${printed.split('\n').filter((l) => !/^x{100}/.test(l)).join('\n')}\nnext move: ${second.verdict}`);
      }
      assert.deepEqual(problems, [], `${problems.length} problems:\n${problems.join('\n')}`);
      await page.close();
    } finally {
      target.close();
    }
  });
}
