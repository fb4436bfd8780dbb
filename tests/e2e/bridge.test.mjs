// Programs served as web AIs by `gridarena halma bridge` (the debug build), played through the page: the
// course-format Python starter plays red in a classic game, and a crashing program's error reaches the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openApp, startAi, root } from './harness.mjs';
import { closedPort } from './hostile.mjs';

const bin = path.join(root, 'target', 'debug', 'gridarena');
let server, browser;
const children = [];

before(async () => {
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run \`cargo build -p gridarena-cli\` first`);
  server = await serveDist('/');
  browser = await launch();
});
after(async () => {
  for (const c of children) c.kill();
  await browser?.close();
  server?.close();
});

/** Starts `gridarena halma bridge --format course --dir DIR -- COMMAND` on a free port; returns its URL and
 *  its stderr so far (one line per move). The child is killed in `after`. */
async function bridge(dir, command) {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}/`;
  const child = await startAi(bin, ['halma', 'bridge', '--port', String(port), '--format', 'course',
    '--dir', dir, '--', ...command], url);
  children.push(child);
  const log = { text: '' };
  child.stderr.on('data', (d) => { log.text += d; });
  return { url, log };
}

const messages = (page) => page.textContent('[data-testid=messages]');
const turnIs = (page, n) => page.waitForFunction((k) => document.querySelector('[data-testid=game-info]')
  .textContent.endsWith(`turn ${k}`), n, { timeout: 15_000 });

/** Red the web AI at `url`, blue greedy, classic preset, seed 1, 1500 ms ticks; `ticks` Steps played. */
async function classicGame(url, ticks) {
  const { page, errors } = await openApp(browser, server.url);
  await page.locator('[data-testid=speed]').fill('1500');
  await page.selectOption('[data-testid=player-red]', 'web');
  await page.fill('[data-testid=url-red]', url);
  await page.press('[data-testid=url-red]', 'Enter');
  await page.selectOption('[data-testid=player-blue]', 'builtin:greedy');
  await page.selectOption('[data-testid=preset]', 'classic');
  await page.fill('[data-testid=seed]', '1');
  await page.click('[data-testid=new-game]');
  assert.equal(await page.locator('[data-testid=board] .cell').count(), 256);
  for (let i = 1; i <= ticks; i++) {
    await page.click('[data-testid=step]');
    await turnIs(page, i);
  }
  return { page, errors };
}

/** Red's pieces on the board, as "x,y". */
const redPieces = (page) => page.$$eval('[data-testid=board] .cell.piece.red',
  (cells) => cells.map((c) => `${c.dataset.x},${c.dataset.y}`));
// Red's camp in the classic preset (the course's BLACK): the top-left corner.
const inRedCamp = (sq) => { const [x, y] = sq.split(',').map(Number); return x <= 4 && y <= 4 && x + y <= 5; };

/** Opens the inspector on tick `k`. */
async function inspect(page, k) {
  if (!(await page.locator('[data-testid=inspector]').evaluate((d) => d.open))) {
    await page.click('[data-testid=inspector] summary');
  }
  await page.fill('[data-testid=inspector-tick]', String(k));
  await page.press('[data-testid=inspector-tick]', 'Enter');
}

test('the course-format Python starter, bridged, plays red in a classic game through the page', async () => {
  const course = await bridge('ai/course', ['python3', 'halma_course.py']);
  const ticks = 6;
  const { page, errors } = await classicGame(course.url, ticks);
  assert.equal(new URL(page.url()).searchParams.get('red'), course.url);
  assert.equal(new URL(page.url()).searchParams.get('blue'), 'builtin:greedy');
  assert.equal(await page.inputValue('[data-testid=preset]'), 'classic');

  // Alternating turns: red moved in half the ticks, each move enacted, never an error for red.
  const text = await messages(page);
  assert.doesNotMatch(text, /Error, red|red: no move/, text);
  const redMoves = (text.match(/red: \(\d+,\d+\) ->/g) || []).length;
  assert.equal(redMoves, ticks / 2, text);
  const pieces = await redPieces(page);
  assert.equal(pieces.length, 19);
  assert.ok(pieces.filter((sq) => !inRedCamp(sq)).length >= 1, `red never left its camp: ${pieces}`);

  // The inspector shows a red exchange with the bridge: HTTP 200 and an enacted move.
  const redTicks = [];
  for (let k = 1; k <= ticks; k++) {
    await inspect(page, k);
    if (await page.locator('[data-testid=exchange-red]').count()) redTicks.push(k);
  }
  assert.equal(redTicks.length, ticks / 2, `red was asked at ticks ${redTicks}`);
  await inspect(page, redTicks[0]);
  const red = page.locator('[data-testid=exchange-red]');
  assert.match(await red.locator('[data-testid=inspector-status]').textContent(), /^HTTP 200 in \d+ ms/);
  assert.match(await red.locator('[data-testid=inspector-verdict]').textContent(), /^enacted/);
  assert.ok(JSON.parse(await red.locator('[data-testid=inspector-answer]').textContent()).from);

  // The bridge logged each of red's moves, at red's turns, and nothing else.
  const logged = course.log.text.trim().split('\n');
  assert.equal(logged.length, ticks / 2, course.log.text);
  for (const line of logged) assert.match(line, /^game \S+ red turn \d+: .* \(\d+ ms\)$/, course.log.text);
  assert.deepEqual(logged.map((l) => Number(l.match(/ turn (\d+):/)[1])), redTicks.map((k) => k - 1));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bridged program that crashes: HTTP 502 for red in the messages, its stderr in the inspector', async () => {
  const crash = await bridge('tests/fixtures/programs', ['sh', 'crash.sh']);
  const { page, errors } = await classicGame(crash.url, 2);
  const text = await messages(page);
  // The message names the status and its reason phrase only (not the bridge's JSON body).
  assert.match(text, /Error, red: no move: request failed: HTTP 502 Bad Gateway/, text);
  assert.match(text, /red: no move enacted/);
  assert.doesNotMatch(text, /Error, blue/);

  // The inspector shows the bridge's answer as received: the program's crash, NameError included.
  let tick = 0;
  for (let k = 1; k <= 2 && !tick; k++) {
    await inspect(page, k);
    if (await page.locator('[data-testid=exchange-red]').count()) tick = k;
  }
  assert.ok(tick, 'no red exchange in the inspector');
  const red = page.locator('[data-testid=exchange-red]');
  assert.match(await red.locator('[data-testid=inspector-status]').textContent(), /^HTTP 502 in \d+ ms/);
  assert.match(await red.locator('[data-testid=inspector-verdict]').textContent(), /HTTP 502 Bad Gateway/);
  const body = JSON.parse(await red.locator('[data-testid=inspector-answer]').textContent());
  assert.equal(body.code, 'crashed');
  assert.match(body.error, /the program crashed \(exit status 1\).*NameError/s);
  // The log line carries the program's stderr as it is, so it spans its lines.
  assert.match(crash.log.text, /^game \S+ red turn \d+: .*crashed.*NameError.*\(\d+ ms\)$/ms, crash.log.text);
  // Only the browser's own network log may mention the failure.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|502/.test(e)), []);
  await page.close();
});
