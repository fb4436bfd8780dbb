// Programs served as web AIs by `gridarena halma bridge` (the debug build), played through the page: the
// course-format Python starter plays red in a classic game, a crashing program's error reaches the page,
// the endpoint doctor passes the bridge, and a page from anywhere else gets nothing from it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { serveDist, launch, openApp, root } from './harness.mjs';

// Cargo's target folder, as cargo itself finds it.
const bin = path.join(process.env.CARGO_TARGET_DIR || path.join(root, 'target'), 'debug', 'gridarena');
let server, browser;
const children = [];
const closers = [];

before(async () => {
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run \`cargo build -p gridarena-cli\` first`);
  server = await serveDist('/');
  browser = await launch();
});
after(async () => {
  for (const c of children) c.kill();
  for (const c of closers) await c();
  await browser?.close();
  server?.close();
});

/** Starts `gridarena halma bridge --dir DIR FLAGS -- COMMAND` (course format unless FLAGS say) on a free
 *  port; returns the address it printed (its secret key in the path, given to the page whole, as a
 *  student copies it) and its stderr so far (one line per move). The child is killed in `after`. */
async function bridge(dir, command, flags = []) {
  const format = flags.includes('--format') ? [] : ['--format', 'course'];
  const child = spawn(bin, ['halma', 'bridge', '--port', '0', ...format, '--dir', dir, ...flags, '--', ...command],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const log = { text: '' };
  child.stderr.on('data', (d) => { log.text += d; });
  // It prints its address once it listens: the first line's last word.
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(out.split('\n')[0].trim().split(' ').pop());
    });
    child.on('exit', (code) => fail(new Error(`the bridge exited (${code}): ${log.text}`)));
  });
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/[\w-]{22,}\/$/, url);
  return { url, log };
}

const messages = (page) => page.textContent('[data-testid=messages]');
const turnIs = (page, n) => page.waitForFunction((k) => document.querySelector('[data-testid=game-info]')
  .textContent.endsWith(`turn ${k}`), n, { timeout: 15_000 });

/** Red the web AI at `url`, blue greedy, classic preset, seed 1, 3000 ms ticks (room for a bridged program
 *  to start and answer on a busy machine; Step ends once both answers are in); `ticks` Steps played. */
async function classicGame(url, ticks) {
  const { page, errors } = await openApp(browser, server.url);
  await page.locator('[data-testid=speed]').fill('3000');
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

  // "Ask about this position" from red's exchange asks the bridged program again, in a game of its own,
  // and a built-in AI about the same position.
  const [asking] = await Promise.all([
    page.waitForEvent('popup'),
    red.locator('[data-testid=inspector-ask]').click(),
  ]);
  await asking.waitForSelector('[data-testid=ask-panel]');
  assert.equal(await asking.inputValue('[data-testid=ask-ai]'), 'web');
  assert.equal(await asking.inputValue('[data-testid=ask-url]'), course.url);
  assert.equal(await asking.inputValue('[data-testid=ask-team]'), 'red');
  await asking.click('[data-testid=ask-go]');
  await asking.waitForSelector('[data-testid=ask-verdict]', { timeout: 30_000 });
  assert.match(await asking.textContent('[data-testid=ask-verdict]'), /^legal: /);
  assert.match(await asking.textContent('[data-testid=ask-how]'), /^HTTP 200 in \d+ ms \(text\/plain\)/);
  // The bridge logged the asked move as a game of its own.
  for (let i = 0; i < 50 && course.log.text.trim().split('\n').length <= ticks / 2; i++) {
    await new Promise((done) => setTimeout(done, 100));
  }
  const games = new Set(course.log.text.trim().split('\n').map((l) => l.split(' ')[1]));
  assert.equal(games.size, 2, course.log.text);
  await asking.selectOption('[data-testid=ask-ai]', 'builtin:search');
  assert.equal(await asking.locator('[data-testid=ask-url]').count(), 0);
  await asking.click('[data-testid=ask-go]');
  await asking.waitForFunction(() => /on this page/.test(document.querySelector('[data-testid=ask-how]')?.textContent ?? ''));
  assert.match(await asking.textContent('[data-testid=ask-verdict]'), /^legal: /);
  await asking.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bridged program that crashes: HTTP 502 for red in the messages, its stderr in the inspector when shared', async () => {
  const crash = await bridge('tests/fixtures/programs', ['sh', 'crash.sh'], ['--share-stderr']);
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

test('the endpoint doctor passes a bridge: CORS, preflight and both content types', async () => {
  const lines = await bridge('ai', ['python3', 'lines/halma_lines.py'], ['--format', 'lines']);
  // The tick is the bridge's time limit for the program (timeLimitMs): room for a busy machine to start
  // Python (load 4 on 2 cores), which costs nothing when it answers sooner.
  const link = `${server.url}#/doctor?url=${encodeURIComponent(lines.url)}&type=json&tick=3000`;
  const { page } = await openApp(browser, link, undefined, '[data-testid=doctor-url]');
  await page.waitForSelector('[data-testid=doctor-summary]', { timeout: 120_000 });
  const checks = await page.$$eval('[data-testid^=check-]', (rows) => Object.fromEntries(rows.map((r) => [
    r.dataset.testid.slice('check-'.length), `${r.dataset.status}: ${r.textContent}`])));
  for (const id of ['reachable', 'cors', 'text-plain', 'json', 'preflight', 'legal-start']) {
    assert.match(checks[id] || '', /^passed/, `${id}: ${JSON.stringify(checks)}`);
  }
  await page.close();
});

test("the page's tournament plays a bridged program: green in the roll call, its games to their end", async () => {
  const lines = await bridge('ai', ['python3', 'lines/halma_lines.py'], ['--format', 'lines']);
  const { page, errors } = await openApp(browser, `${server.url}#/tournament`, undefined, '[data-testid=entry-name]');
  await page.fill('[data-testid=paste]', `Bridged ${lines.url}\nGreedy builtin:greedy\n`);
  await page.click('[data-testid=paste-add]');
  await page.selectOption('[data-testid=preset]', 'mini');
  // The tick is also the bridge's time limit for the program (timeLimitMs): room for a busy machine to
  // start Python each move, where a timed-out roll call or move would fail the checks below.
  await page.fill('[data-testid=tick]', '2500');
  await page.fill('[data-testid=turns]', '6');
  await page.click('[data-testid=roll-call-run]');
  await page.waitForFunction(() => ![...document.querySelectorAll('[data-testid=roll-entry]')]
    .some((e) => /asking/.test(e.textContent)), null, { timeout: 15_000 });
  const entries = page.locator('[data-testid=roll-entry]');
  for (const i of [0, 1]) {
    assert.match(await entries.nth(i).getAttribute('class'), /green/, await entries.nth(i).textContent());
  }
  await page.click('[data-testid=start]');
  await page.waitForFunction(() => /is over/.test(document.querySelector('[data-testid=t-status]')?.textContent),
    null, { timeout: 120_000 });
  assert.match(await page.textContent('[data-testid=t-status]'), /(\d+) of \1 games? finished/);
  assert.match(lines.log.text, /^game \S+ (red|blue) turn \d+: /m, lines.log.text);
  assert.doesNotMatch(lines.log.text, /refused|no move/, lines.log.text);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|CORS|ERR_|net::/.test(e)), []);
  await page.close();
});

/** A server of one blank page on a free loopback port; returns its port. */
async function blankPage() {
  const s = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>somewhere else</title>');
  });
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  closers.push(() => s.close());
  return s.address().port;
}

test('a page from another site gets nothing from the bridge, nor one that reaches it under a name of its own', async () => {
  // `head -n 1` echoes the request: a move the bridge would log, had the program been run.
  const echo = await bridge('tests/fixtures/programs', ['head', '-n', '1'], ['--format', 'lines']);
  const bridgePort = new URL(echo.url).port;
  const pagePort = await blankPage();
  // Two names of this computer's loopback that are not its own: a site a student visits, and a site
  // whose name its owner points at 127.0.0.1 (DNS rebinding).
  const named = await launch(['--host-resolver-rules=MAP elsewhere.test 127.0.0.1, MAP rebound.test 127.0.0.1']);
  closers.push(() => named.close());
  const page = await named.newPage();
  const body = JSON.stringify({ boardSize: 16, pieces: [{ x: 0, y: 0 }], destinations: [{ x: 15, y: 15 }],
    enemy: [{ x: 15, y: 15 }], enemydestinations: [{ x: 0, y: 0 }], gameId: 'e2e', turn: 0 });
  const ask = (url, type) => page.evaluate(async ([url, body, type]) => {
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': type }, body });
      return { status: r.status, text: await r.text() };
    } catch (e) {
      return { failed: `${e.name}: ${e.message}` };
    }
  }, [url, body, type]);

  await page.goto(`http://elsewhere.test:${pagePort}/`);
  for (const type of ['text/plain', 'application/json']) {
    const answer = await ask(echo.url, type);
    assert.match(answer.failed || '', /TypeError/, `${type}: the page read ${JSON.stringify(answer)}`);
  }
  // Even a request it may not read (no-cors) never reaches the program.
  await page.evaluate(([url, body]) => fetch(url, { method: 'POST', mode: 'no-cors', body }).catch(() => {}),
    [echo.url, body]);

  // The same bridge under another name: the page's own origin, so it may read the refusal.
  const rebound = `http://rebound.test:${bridgePort}/`;
  const first = await page.goto(rebound);
  assert.equal(first.status(), 421);
  const answer = await ask(rebound, 'text/plain');
  assert.equal(answer.status, 421, JSON.stringify(answer));
  assert.match(JSON.parse(answer.text).error, /Host "rebound\.test:\d+"/);

  // A moment for a program the bridge ran by mistake to log its game, then the refusal's log line, waited
  // for as an event rather than assumed within that moment (a busy machine may overrun it).
  await new Promise((ok) => setTimeout(ok, 300));
  for (const until = Date.now() + 10_000; !/^refused: .*elsewhere\.test/m.test(echo.log.text) && Date.now() < until;) {
    await new Promise((ok) => setTimeout(ok, 50));
  }
  assert.doesNotMatch(echo.log.text, /^game /m, `the program was run:\n${echo.log.text}`);
  assert.match(echo.log.text, /^refused: .*elsewhere\.test/m, echo.log.text);
  await page.close();

  // GridArena's page on this computer still gets its answers from the same bridge, at its address
  // only: without its key, the page is told why and the program is not run.
  const own = await openApp(browser, server.url);
  const keyless = await own.page.evaluate(async ([url, body]) => {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body });
    return { status: r.status, text: await r.text() };
  }, [`http://127.0.0.1:${bridgePort}/`, body]);
  assert.equal(keyless.status, 403, JSON.stringify(keyless));
  assert.match(JSON.parse(keyless.text).error, /address it printed/);
  assert.doesNotMatch(echo.log.text, /^game /m, `the program was run:\n${echo.log.text}`);
  const mine = await own.page.evaluate(async ([url, body]) => {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body });
    return { status: r.status, json: await r.json() };
  }, [echo.url, body]);
  assert.equal(mine.status, 502, JSON.stringify(mine));
  assert.equal(mine.json.code, 'missing_field', JSON.stringify(mine));
  assert.match(echo.log.text, /^game e2e red turn 0: /m, echo.log.text);
  await own.page.close();
});
