// Web AI players in the page: hostile endpoints give a named error and no move, and the game goes on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp } from './harness.mjs';
import { startHostile, closedPort } from './hostile.mjs';

let server, browser, hostile, refused;
before(async () => {
  server = await serveDist('/');
  browser = await launch();
  hostile = await startHostile();
  refused = `http://127.0.0.1:${await closedPort()}/`;
});
after(async () => { await browser?.close(); server?.close(); hostile?.close(); });

const messages = (page) => page.textContent('[data-testid=messages]');
const turnIs = (page, n) => page.waitForFunction((k) => document.querySelector('[data-testid=game-info]')
  .textContent.endsWith(`turn ${k}`), n, { timeout: 15_000 });

// A tick long enough for any answer to arrive, or fail, on a busy machine (load 4 on 2 cores): Step ends
// as soon as both answers are in, so a long tick costs nothing unless an AI is slow. A test whose outcome
// is a missed deadline uses a short one instead (the hostile server answers far later, or never).
const ROOMY = 3000;
const SHORT = 300;

/** A page with red as the web AI at `url` and blue greedy, on the arena preset with `ms` ticks. */
async function webGame(url, ms = ROOMY) {
  const { page, errors } = await openApp(browser, server.url);
  await page.locator('[data-testid=speed]').fill(String(ms));
  assert.equal(await page.textContent('[data-testid=tick-ms]'), String(ms));
  await page.selectOption('[data-testid=player-red]', 'web');
  await page.fill('[data-testid=url-red]', url);
  await page.press('[data-testid=url-red]', 'Enter');
  await page.selectOption('[data-testid=player-blue]', 'builtin:greedy');
  await page.fill('[data-testid=seed]', '1');
  await page.click('[data-testid=new-game]');
  return { page, errors };
}

const cases = [
  // The only cases whose outcome is the deadline: a 300 ms tick, and an answer 1500 ms late or none.
  ['an answer after the deadline', '/slow', /red: no move: no answer: timed out after 300 ms/, SHORT],
  ['HTTP 500', '/status-500', /red: no move: request failed: HTTP 500/],
  ['an HTML body', '/html', /red: no move: unreadable answer: the answer is not valid JSON/],
  ['an empty body', '/empty', /red: no move: unreadable answer: the answer is empty/],
  ['invalid JSON', '/bad-json', /red: no move: unreadable answer: the answer is not valid JSON/],
  ['JSON of the wrong shape', '/wrong-shape', /red: no move: unreadable answer: the answer has no "from"/],
  ['an array of moves', '/array', /red: no move: unreadable answer: the answer is a JSON array/],
  ['a negative coordinate', '/negative', /red: invalid move: .*\(-1,13\)/],
  ['a huge coordinate', '/huge', /red: no move: unreadable answer: "to\[0\]\.x" is .*far outside any board/],
  ['a fractional coordinate', '/fraction', /red: no move: unreadable answer: "to\[0\]\.x" is 2\.5/],
  ['a move of two pieces', '/two-pieces', /red: invalid move: /],
  ['a 10 MB body', '/ten-mb', /red: no move: unreadable answer: the answer is \d+ bytes; at most 65536/],
  ['a missing CORS header', '/no-cors', /red: no move: request failed: connection refused or blocked by CORS/],
  ['a redirect loop', '/redirect-loop', /red: no move: request failed: .*redirect/],
  ['a server that never answers', '/never-answers', /red: no move: no answer: timed out after 300 ms/, SHORT],
];

for (const [what, path, expected, ms] of cases) {
  test(`a web AI giving ${what}: a named error, no move, and the game goes on`, async () => {
    const { page, errors } = await webGame(hostile.url(path), ms);
    await page.click('[data-testid=step]');
    await turnIs(page, 1);
    const text = await messages(page);
    assert.match(text, /Error, /, text);
    assert.match(text.replace(/Error, /g, ''), expected);
    assert.match(text, /red: no move enacted/);
    // Nothing the AI sent is ever rendered as markup.
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.equal(await page.locator('[data-testid=messages] b, [data-testid=messages] script').count(), 0);
    await page.click('[data-testid=step]');
    await turnIs(page, 2);
    // Only the browser's own network log may mention the failures.
    assert.deepEqual(errors.filter((e) => !/Failed to load resource|CORS|ERR_|net::/.test(e)), []);
    await page.close();
  });
}

test('a web AI that refuses connections: a named error, and the game goes on', async () => {
  const { page } = await webGame(refused);
  await page.click('[data-testid=step]');
  await turnIs(page, 1);
  assert.match(await messages(page), /red: no move: request failed: connection refused or blocked by CORS/);
  await page.click('[data-testid=step]');
  await turnIs(page, 2);
  await page.close();
});

test('a good web AI plays its move, sent as text/plain (no preflight), and its latency is shown', async () => {
  const { page, errors } = await webGame(hostile.url('/good'));
  hostile.log.length = 0;
  await page.click('[data-testid=step]');
  await turnIs(page, 1);
  assert.deepEqual(hostile.log.map((r) => [r.method, r.path, r.type]), [['POST', '/good', 'text/plain']]);
  assert.match(await messages(page), /red: \(2,14\) -> \(2,13\)/);
  assert.match(await page.textContent('[data-testid=latency]'), /red: \d+ ms \(average \d+ ms\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the player setup is kept in the page URL and in localStorage', async () => {
  const url = hostile.url('/good');
  const { page } = await webGame(url);
  const link = new URL(page.url());
  assert.equal(link.searchParams.get('red'), url);
  assert.equal(link.searchParams.get('blue'), 'builtin:greedy');
  // A fresh visit without the query comes back with the stored setup.
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=board] .cell');
  assert.equal(await page.inputValue('[data-testid=url-red]'), url);
  // A shared link wins over what is stored.
  await page.goto(`${server.url}?red=human&blue=builtin%3Asearch&preset=mini`);
  await page.waitForSelector('[data-testid=board] .cell');
  assert.equal(await page.inputValue('[data-testid=player-red]'), 'human');
  assert.equal(await page.inputValue('[data-testid=player-blue]'), 'builtin:search');
  assert.equal(await page.locator('[data-testid=board] .cell').count(), 64);
  // A bad link is reported, not half-applied.
  await page.goto(`${server.url}?red=ftp%3A%2F%2Fx`);
  await page.waitForSelector('[data-testid=board] .cell');
  assert.match(await page.textContent('[data-testid=notice]'), /red player in the link/);
  await page.close();
});

test('an invalid web AI address is explained and changes nothing', async () => {
  const { page } = await openApp(browser, server.url);
  await page.selectOption('[data-testid=player-red]', 'web');
  await page.fill('[data-testid=url-red]', 'javascript:alert(1)');
  await page.press('[data-testid=url-red]', 'Enter');
  assert.match(await page.textContent('[data-testid=notice]'), /must start with http:\/\/ or https:\/\//);
  await page.close();
});

test('debug marks: the chosen team\'s are drawn on their squares, live and in a replay; a malformed field is a warning and the move stands', async () => {
  const marked = (page) => page.$$eval('[data-testid=board] .cell.marked', (cells) =>
    cells.map((c) => `${c.dataset.x},${c.dataset.y}: ${c.getAttribute('aria-label').replace(/^.*, marked /, '')}`));
  const { page, errors } = await webGame(hostile.url('/debug'));
  await page.click('[data-testid=step]');
  await turnIs(page, 1);
  // None shown until a team is chosen.
  assert.deepEqual(await marked(page), []);
  // The time chart: red's answer against the tick's deadline, its thinking (thinkMs 0) apart from the network.
  assert.match(await page.textContent('[data-testid=time-slowest]'), /tick 1: red \d+ of 3000 ms \(thought 0, network \d+\)/);
  await page.selectOption('[data-testid=debug-team]', 'red');
  assert.deepEqual(await marked(page), ['2,13: green +1', '2,14: orange arrow to (4,12) 2']);
  assert.equal(await page.textContent('[data-testid=debug-line]'), 'red thinks: best of 5: <b>+1</b>');
  // Red's move stands, marks or not (whether it is enacted is for blue's answer too, under the arena's rule).
  assert.doesNotMatch(await messages(page), /red: no move:|red: invalid move/);
  await page.selectOption('[data-testid=debug-team]', 'blue');
  assert.deepEqual(await marked(page), []);
  assert.equal(await page.textContent('[data-testid=debug-line]'), 'blue\'s answer in this tick has no debug marks.');

  // The record keeps the answers, marks included: a replay of it draws them at the same tick.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  await page.setInputFiles('[data-testid=load]', await download.path());
  await page.waitForSelector('[data-testid=scrubber]');
  await page.locator('[data-testid=scrubber]').fill('1');
  await page.selectOption('[data-testid=debug-team]', 'red');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=board] .cell.marked').length === 2);
  assert.deepEqual(await marked(page), ['2,13: green +1', '2,14: orange arrow to (4,12) 2']);
  assert.deepEqual(errors, []);
  await page.close();

  const bad = await webGame(hostile.url('/bad-debug'));
  await bad.page.click('[data-testid=step]');
  await turnIs(bad.page, 1);
  await bad.page.selectOption('[data-testid=debug-team]', 'red');
  const warnings = await bad.page.locator('[data-testid=debug-warning]').allTextContents();
  assert.equal(warnings.length, 3, warnings.join('\n'));
  assert.match(warnings[0], /^red's debug field: "debug.text" is a number/);
  assert.match(warnings[1], /"debug.marks\[0\]" has "at" .*not a square of the 18x18 board: not drawn/);
  assert.match(warnings[2], /"debug.marks\[1\]" has the colour "url\(javascript:aler…", not one of green, red/);
  // The good mark is drawn, its label as text.
  assert.deepEqual(await marked(bad.page), ['1,1: green <img …']);
  assert.equal(await bad.page.locator('[data-testid=board] img').count(), 0);
  const text = await messages(bad.page);
  assert.doesNotMatch(text, /red: no move:|red: invalid move/);
  assert.deepEqual(bad.errors, []);
  await bad.page.close();
});
