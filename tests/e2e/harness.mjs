// Shared by the browser tests and the benchmark: a static server for dist/ and a headless Chromium.
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { closedPort } from './hostile.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// GRIDARENA_DIST serves another build (a benchmark's baseline, built from an older commit).
const dist = path.resolve(process.env.GRIDARENA_DIST || path.join(root, 'dist'));
const types = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.zip': 'application/zip', '.txt': 'text/plain',
};

/**
 * Serves dist/ on a free loopback port under `prefix` (a sub-path, as a static host might use). With
 * `isolated`, the page is cross-origin isolated (COOP and COEP headers, as `gridarena serve` sends them),
 * which gives it 5 µs timers rather than 100 µs ones (the benchmark times sub-millisecond work with them)
 * and the measure of its workers' memory (src/code/memory.rs). GRIDARENA_E2E_ISOLATED=1 makes that the
 * default, to run every test on an isolated page.
 */
export async function serveDist(prefix = '/', { isolated = process.env.GRIDARENA_E2E_ISOLATED === '1' } = {}) {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error('dist/ is missing: run `trunk build --release` first (scripts/test.sh does)');
  }
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!url.startsWith(prefix)) { res.writeHead(404); return res.end(); }
    let file = path.join(dist, url.slice(prefix.length) || 'index.html');
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = path.join(dist, 'index.html');
    }
    const isolation = isolated
      ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'credentialless' } : {};
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream', ...isolation });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}${prefix}`, close: () => server.close() };
}

/** Debian's Chromium, with the flags this closed network needs, and `extra` ones (such as
 *  `--host-resolver-rules`, to give a local server a name of its own). */
export async function launch(extra = []) {
  // Playwright gives every launch a fresh temporary profile of its own.
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extra],
  });
}

/**
 * Opens the app and waits for `ready` (by default the Halma board); page errors and console warnings fail
 * the test that reads `errors`. `init` runs in the page before the app (to wrap or remove browser APIs).
 */
export async function openApp(browser, url, init, ready = '[data-testid=board] .cell') {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 }, acceptDownloads: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') errors.push(m.text());
  });
  if (init) await page.addInitScript(init);
  await page.goto(url);
  await page.waitForSelector(ready);
  return { page, errors };
}

/**
 * A new browser context whose requests matching `pattern` are refused (a 404), held, or let through, as
 * `gate.mode` says ('refuse', 'hold' or 'pass'); `gate.open()` lets them through, the held ones too.
 * `fetched` lists the path of every request the context made.
 */
export async function gatedContext(browser, pattern, mode = 'refuse') {
  const context = await browser.newContext();
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const held = [];
  const gate = {
    mode,
    open() {
      gate.mode = 'pass';
      for (const r of held.splice(0)) r.continue();
    },
  };
  await context.route(pattern, (r) => {
    if (gate.mode === 'refuse') return r.fulfill({ status: 404, body: 'gone' });
    if (gate.mode === 'hold') return held.push(r);
    return r.continue();
  });
  return { context, fetched, gate };
}

/** Run in the tournament page: whether the tournament it keeps in IndexedDB holds `atLeast` finished games. */
export async function storedGames(atLeast) {
  const db = await new Promise((resolve, reject) => {
    const r = indexedDB.open('gridarena-tournament', 1);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const text = await new Promise((resolve, reject) => {
    const r = db.transaction('kept').objectStore('kept').get('gridarena.tournament.bundle');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  db.close();
  return typeof text === 'string' && JSON.parse(text).games.length >= atLeast;
}

export const cell = (x, y) => `[data-testid=board] .cell[data-x="${x}"][data-y="${y}"]`;

/** Starts `cmd` (from the repository root) and waits until `url` answers a CORS preflight; the child is
 *  returned for the caller to kill. */
export async function startAi(cmd, args, url) {
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url, { method: 'OPTIONS' });
      if (r.status < 500) return child;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${cmd} ${args.join(' ')} did not start: ${stderr}`);
}

/** Starts the real server (`gridarena serve`, the debug build) on dist/ with a fresh database and waits
 *  until its API answers; returns its base URL and a `close` that stops it. */
export async function startGridarena() {
  const bin = path.join(root, 'target', 'debug', 'gridarena');
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gridarena-e2e-')), 'e2e.sqlite3');
  const port = await closedPort();
  const server = spawn(bin, ['serve', '--port', String(port), '--db', db, '--dist', dist],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (d) => { log += d; });
  server.stderr.on('data', (d) => { log += d; });
  const base = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}api/leaderboard`)).ok) break;
    } catch { /* not up yet */ }
    if (i > 100 || server.exitCode !== null) throw new Error(`gridarena serve did not start:\n${log}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
  return { base, close: () => server.kill() };
}

/** The CLI for benchmarks: GRIDARENA_BIN, else the release build in $CARGO_TARGET_DIR, ../../target/release
 * or ../../target/debug (the first that exists). */
export function cliBin() {
  if (process.env.GRIDARENA_BIN) return process.env.GRIDARENA_BIN;
  const candidates = [
    process.env.CARGO_TARGET_DIR && path.join(process.env.CARGO_TARGET_DIR, 'release', 'gridarena'),
    path.join(root, 'target', 'release', 'gridarena'),
    path.join(root, 'target', 'debug', 'gridarena'),
  ].filter(Boolean);
  return candidates.find((f) => fs.existsSync(f)) || candidates[0];
}
