// The arena page for AI authors: the inspector (exact request, answer as received, curl), content types,
// the message field's history and filters, the turn limit, and the layout on a laptop screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openApp, startAi } from './harness.mjs';
import { startHostile, closedPort } from './hostile.mjs';

let server, browser, hostile, pyUrl;
const children = [];
const servers = [];

/** A Node endpoint in front of the Python starter: it keeps each request and the answer it passed on,
 *  and (with `json`) answers 415 unless the request is labelled application/json. */
async function front({ json = false } = {}) {
  const seen = [];
  const s = http.createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type' });
      return res.end();
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['content-type'];
      if (json && type !== 'application/json') {
        res.writeHead(415, cors);
        return res.end('send application/json');
      }
      const r = await fetch(pyUrl, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
      const answer = await r.text();
      seen.push({ body, type, answer });
      res.writeHead(r.status, { ...cors, 'content-type': 'application/json' });
      res.end(answer);
    });
  });
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  servers.push(s);
  return { url: `http://127.0.0.1:${s.address().port}/`, seen };
}

before(async () => {
  server = await serveDist('/');
  browser = await launch();
  hostile = await startHostile();
  const port = await closedPort();
  pyUrl = `http://127.0.0.1:${port}/`;
  children.push(await startAi('python3', ['ai/python/halma_ai.py', '--port', String(port)], pyUrl));
});
after(async () => {
  for (const c of children) c.kill();
  for (const s of servers) s.close();
  await browser?.close();
  server?.close();
  hostile?.close();
});

const turnIs = (page, n) => page.waitForFunction((k) => document.querySelector('[data-testid=game-info]')
  .textContent.endsWith(`turn ${k}`), n, { timeout: 20_000 });

/** Red a web AI at `url` (sent as `type`), blue greedy, arena preset, seed 1; `ticks` Steps played. */
async function webGame(url, { type = 'text', ticks = 0, viewport } = {}) {
  const { page, errors } = await openApp(browser, server.url);
  if (viewport) await page.setViewportSize(viewport);
  // Room for a busy machine (load 4 on 2 cores): Step ends as soon as both answers are in.
  await page.locator('[data-testid=speed]').fill('3000');
  await page.selectOption('[data-testid=player-red]', 'web');
  await page.fill('[data-testid=url-red]', url);
  await page.press('[data-testid=url-red]', 'Enter');
  await page.selectOption('[data-testid=type-red]', type);
  await page.selectOption('[data-testid=player-blue]', 'builtin:greedy');
  await page.fill('[data-testid=seed]', '1');
  await page.click('[data-testid=new-game]');
  for (let i = 1; i <= ticks; i++) {
    await page.click('[data-testid=step]');
    await turnIs(page, i);
  }
  return { page, errors };
}

/** Opens the inspector on tick `k`. */
async function inspect(page, k) {
  await page.click('[data-testid=inspector] summary');
  await page.fill('[data-testid=inspector-tick]', String(k));
  await page.press('[data-testid=inspector-tick]', 'Enter');
  await page.waitForSelector('[data-testid=inspector-request]');
}

test('the inspector shows tick 3 exactly as sent and received, and its curl command works', async () => {
  const endpoint = await front();
  const { page, errors } = await webGame(endpoint.url, { ticks: 5 });
  assert.equal(endpoint.seen.length, 5);
  await inspect(page, 3);
  const third = endpoint.seen[2];
  assert.equal(await page.textContent('[data-testid=inspector-request]'), third.body);
  assert.equal(await page.textContent('[data-testid=inspector-answer]'), third.answer);
  assert.match(await page.textContent('[data-testid=inspector-status]'), /^HTTP 200 in \d+ ms \(text\/plain\)$/);
  assert.match(await page.textContent('[data-testid=inspector-verdict]'), /^enacted/);
  const curl = await page.textContent('[data-testid=inspector-curl]');
  assert.match(curl, /^curl -sS -X POST /);
  // Asynchronously: the endpoint runs in this very process.
  const { stdout: out } = await promisify(execFile)('sh', ['-c', `${curl} -w '\\n%{http_code}'`]);
  const [answer, code] = [out.slice(0, out.lastIndexOf('\n')), out.slice(out.lastIndexOf('\n') + 1)];
  assert.equal(code, '200');
  assert.ok(JSON.parse(answer).from, answer);
  assert.equal(endpoint.seen.at(-1).body, third.body, 'curl sent the very same body');
  // Browsing: Prev goes to tick 2, Latest back to 5.
  await page.click('text=Prev');
  assert.equal(await page.inputValue('[data-testid=inspector-tick]'), '2');
  assert.equal(await page.textContent('[data-testid=inspector-request]'), endpoint.seen[1].body);
  await page.click('[data-testid=inspector-latest]');
  assert.equal(await page.inputValue('[data-testid=inspector-tick]'), '5');
  // Download test case: one tick's exchange as JSON.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=inspector-download]')]);
  assert.equal(download.suggestedFilename(), 'red-tick-5.json');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'case-')), 'case.json');
  await download.saveAs(file);
  const kase = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(kase.request, JSON.parse(endpoint.seen[4].body));
  assert.equal(kase.url, endpoint.url);
  assert.equal(kase.status, 200);
  assert.equal(kase.answer, endpoint.seen[4].answer);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a hostile answer shows in the inspector as text, never as markup', async () => {
  const { page } = await webGame(hostile.url('/markup'), { ticks: 1 });
  await inspect(page, 1);
  assert.equal(await page.textContent('[data-testid=inspector-answer]'),
    '<b>bold</b><img src=x onerror="window.pwned=1">');
  assert.equal(await page.locator('[data-testid=inspector] b, [data-testid=inspector] img').count(), 0);
  assert.match(await page.textContent('[data-testid=inspector-verdict]'), /^not JSON: /);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  await page.close();
});

test('a team sent as application/json plays against an endpoint that wants JSON', async () => {
  const endpoint = await front({ json: true });
  const { page, errors } = await webGame(endpoint.url, { type: 'json', ticks: 3 });
  assert.equal(endpoint.seen.length, 3);
  assert.ok(endpoint.seen.every((r) => r.type === 'application/json'));
  const text = await page.textContent('[data-testid=messages]');
  assert.doesNotMatch(text, /Error, red/);
  assert.equal((text.match(/red: \(\d+,\d+\) ->/g) || []).length, 3, text);
  assert.equal(new URL(page.url()).searchParams.get('redType'), 'json');
  await inspect(page, 2);
  assert.match(await page.textContent('[data-testid=inspector-status]'), /application\/json/);
  assert.match(await page.textContent('[data-testid=inspector-curl]'), /'Content-Type: application\/json'/);
  // The doctor link carries the address, the type and the tick length.
  const doctor = await page.getAttribute('[data-testid=doctor-red]', 'href');
  assert.equal(doctor, `#/doctor?url=${encodeURIComponent(endpoint.url)}&type=json&tick=3000`);
  assert.equal(await page.getAttribute('[data-testid=doctor-red]', 'target'), '_blank');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the message field keeps earlier ticks below the latest, and filters errors', async () => {
  const refused = `http://127.0.0.1:${await closedPort()}/`;
  const { page } = await webGame(refused, { ticks: 5 });
  const lines = await page.$$eval('[data-testid=messages] p', (ps) => ps.map((p) => p.textContent));
  assert.equal(lines[0], 'Turn 5');
  assert.ok(lines.includes('Turn 1'), lines.join('\n'));
  assert.ok(lines.indexOf('Turn 1') > lines.indexOf('Turn 2'));
  await page.check('[data-testid=messages-errors]');
  const errorsOnly = await page.$$eval('[data-testid=messages] p', (ps) => ps.map((p) => [p.className, p.textContent]));
  assert.ok(errorsOnly.length >= 5);
  assert.ok(errorsOnly.every(([c]) => c === 'error'), JSON.stringify(errorsOnly));
  assert.ok(errorsOnly.some(([, t]) => /^Turn 1: Error, red: no move: request failed/.test(t)), JSON.stringify(errorsOnly));
  await page.uncheck('[data-testid=messages-errors]');
  await page.selectOption('[data-testid=messages-team]', 'blue');
  const blue = await page.textContent('[data-testid=messages]');
  assert.doesNotMatch(blue, /red:/);
  assert.match(blue, /blue: no move enacted/);
  await page.close();
});

for (const viewport of [{ width: 1366, height: 768 }, { width: 1280, height: 800 }]) {
  test(`at ${viewport.width}x${viewport.height} the board, the messages and Step fit without scrolling`, async () => {
    const { page } = await openApp(browser, server.url);
    await page.setViewportSize(viewport);
    for (const id of ['board', 'messages', 'step', 'run', 'stop']) {
      const box = await page.locator(`[data-testid=${id}]`).boundingBox();
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width
        && box.y + box.height <= viewport.height, `${id}: ${JSON.stringify(box)}`);
    }
    await page.close();
  });
}

test('a turn limit of 5 ends the game at turn 5; a bad one is explained', async () => {
  const { page } = await openApp(browser, server.url);
  await page.selectOption('[data-testid=player-red]', 'builtin:greedy');
  await page.selectOption('[data-testid=player-blue]', 'builtin:greedy');
  await page.fill('[data-testid=turn-limit]', '0');
  await page.click('[data-testid=new-game]');
  assert.match(await page.textContent('[data-testid=notice]'), /turn limit "0" is not a whole number from 1 to 100000/);
  await page.fill('[data-testid=turn-limit]', '5');
  await page.click('[data-testid=new-game]');
  assert.equal(new URL(page.url()).searchParams.get('turns'), '5');
  await page.locator('[data-testid=speed]').fill('50');
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => document.querySelector('[data-testid=stop]').disabled, null, { timeout: 20_000 });
  assert.match(await page.textContent('[data-testid=game-info]'), /turn 5$/);
  assert.match(await page.textContent('[data-testid=messages]'), /draw|HALMATE/i);
  await page.close();
});

test('a late beat is said on the page, naming a hidden tab only when the tab is hidden', async () => {
  const { page } = await openApp(browser, server.url);
  await page.selectOption('[data-testid=player-red]', 'builtin:greedy');
  await page.selectOption('[data-testid=player-blue]', 'builtin:greedy');
  await page.click('[data-testid=new-game]');
  await page.locator('[data-testid=speed]').fill('100');
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => /turn ([3-9]|\d\d+)$/.test((document.querySelector('[data-testid=game-info]')?.textContent ?? '')));
  // Hold the page's thread for 700 ms: the worker keeps beating, and the next beat reaches the page late.
  const block = () => page.evaluate(() => { const t = performance.now(); while (performance.now() - t < 700) { /* busy */ } });
  await block();
  await page.waitForFunction(() => document.querySelector('[data-testid=late]').textContent !== '');
  assert.match(await page.textContent('[data-testid=late]'), /^ticks run late: the page is too busy .*; \d+ ms instead of 100$/);
  await page.evaluate(() => Object.defineProperty(document, 'hidden', { configurable: true, get: () => true }));
  await block();
  await page.waitForFunction(() => /hidden tab/.test(document.querySelector('[data-testid=late]').textContent));
  assert.match(await page.textContent('[data-testid=late]'), /^ticks run late: the browser slows timers in a hidden tab; \d+ ms instead of 100$/);
  // Twenty on-time beats in a row take the note down.
  await page.waitForFunction(() => document.querySelector('[data-testid=late]').textContent === '', null, { timeout: 15_000 });
  await page.click('[data-testid=stop]');
  await page.close();
});

test('a downloaded record, loaded as a replay, shows the tick\'s exchange in the inspector', async () => {
  const endpoint = await front();
  const { page, errors } = await webGame(endpoint.url, { ticks: 3 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rec-')), download.suggestedFilename());
  await download.saveAs(file);
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForSelector('[data-testid=scrubber]');
  await page.locator('[data-testid=scrubber]').fill('2');
  await inspect(page, 2);
  assert.equal(await page.textContent('[data-testid=inspector-request]'), endpoint.seen[1].body);
  assert.equal(await page.textContent('[data-testid=inspector-answer]'), endpoint.seen[1].answer);
  assert.match(await page.textContent('[data-testid=inspector-verdict]'), /^enacted/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a record made without exchanges says so in the inspector', async () => {
  const { page } = await openApp(browser, server.url);
  await page.selectOption('[data-testid=player-red]', 'builtin:greedy');
  await page.selectOption('[data-testid=player-blue]', 'builtin:greedy');
  await page.click('[data-testid=new-game]');
  await page.click('[data-testid=step]');
  await turnIs(page, 1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rec-')), download.suggestedFilename());
  await download.saveAs(file);
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForSelector('[data-testid=scrubber]');
  await page.locator('[data-testid=scrubber]').fill('1');
  await page.click('[data-testid=inspector] summary');
  // The panel fills once the browser has told the page it opened (the toggle event comes after the click).
  await page.waitForFunction(() => document.querySelector('[data-testid=inspector-none]')?.textContent);
  assert.match(await page.textContent('[data-testid=inspector-none]'),
    /Tick 1: the record holds no web AI exchanges for this tick/);
  await page.close();
});
