// The Compare page end to end (#/compare, a module of its own): search against greedy on
// the small board stops early with search ahead, its score and 95% interval shown; every counted game is
// listed and replays; the positions where the two parted are listed and open the replay there. A web AI
// takes part over HTTP as it does in the arena: one that answers every request with an error loses.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp } from './harness.mjs';
import { startHostile } from './hostile.mjs';

let server, browser;

before(async () => {
  server = await serveDist('/');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

// Waits for the run's verdict, which must be an early stop with A stronger; the games it took.
async function stoppedWithAStronger(page) {
  await page.waitForFunction(() => /Stopped early|All \d+ games/.test(document.querySelector('[data-testid=compare-verdict]')?.textContent ?? ''),
    null, { timeout: 180_000 });
  const verdict = await text(page, 'compare-verdict');
  const match = verdict.match(/^Stopped early after (\d+) games: A is stronger\.$/);
  assert.ok(match, verdict);
  return { n: Number(match[1]), verdict };
}

test('a Compare run of search against greedy stops early with search ahead and its interval shown', async () => {
  const setup = '?a=builtin%3Asearch&b=builtin%3Agreedy&preset=mini&games=40&min-games=12&concurrency=2&seed=1';
  const { page, errors } = await openApp(browser, `${server.url}#/compare${setup}`, undefined, '[data-testid=compare-start]');
  assert.equal(await page.getAttribute('nav a[data-page=compare]', 'aria-current'), 'page');
  // The setup came from the link.
  assert.equal(await page.inputValue('[data-testid=compare-preset]'), 'mini');
  assert.equal(await page.inputValue('[data-testid=compare-games]'), '40');
  assert.equal(await page.inputValue('[data-testid=compare-min-games]'), '12');
  assert.match(await page.textContent('.compare .hint code'), /--games 40 --min-games 12 --seed 1/);

  // A bad field says what is wrong and starts nothing.
  await page.fill('[data-testid=compare-games]', 'ten');
  await page.click('[data-testid=compare-start]');
  await page.waitForFunction(() => /Games must be/.test(document.querySelector('[data-testid=compare-error]').textContent));
  assert.equal(await page.locator('[data-testid=compare-live]').count(), 0);
  await page.fill('[data-testid=compare-games]', '40');
  await page.fill('[data-testid=compare-min-games]', 'many');
  await page.click('[data-testid=compare-start]');
  await page.waitForFunction(() => /fewest games before an early stop must be/
    .test(document.querySelector('[data-testid=compare-error]').textContent));
  await page.fill('[data-testid=compare-min-games]', '12');

  await page.click('[data-testid=compare-start]');
  const { n, verdict } = await stoppedWithAStronger(page);
  // Not before the 12th game, as the form said (the default is 10).
  assert.ok(n >= 12 && n < 40 && n % 2 === 0, verdict);
  // A's share and its interval, above a half.
  const score = await text(page, 'compare-score');
  const s = score.match(/^A (\d+)% \[(\d+)%–(\d+)%\] after (\d+) games$/);
  assert.ok(s, score);
  const [share, low, high, games] = s.slice(1).map(Number);
  assert.equal(games, n);
  assert.ok(low > 50 && low <= share && share <= high, score);
  // The run's time and rate, once it has ended.
  await page.waitForFunction(() => /games per second/.test(document.querySelector('[data-testid=compare-rate]').textContent));
  // Every counted game is listed, seats alternating.
  const rows = page.locator('[data-testid=compare-game]');
  assert.equal(await rows.count(), n);
  assert.match(await rows.nth(0).textContent(), /^1red/);
  assert.match(await rows.nth(1).textContent(), /^2blue/);

  // A game's replay opens and steps.
  await rows.nth(1).locator('[data-testid=compare-replay]').click();
  await page.waitForSelector('[data-testid=replay-view] [data-testid=board] .cell');
  await page.click('[data-testid=replay-step]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=replay-lines] li').length > 0);
  await page.click('[data-testid=close-replay]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=replay-view]'));

  // Where the two parted: listed, and the replay opens at that position.
  const parted = page.locator('[data-testid=parted-line]');
  assert.ok(await parted.count() >= 1);
  assert.match(await parted.nth(0).textContent(), /^Games \d+ and \d+, turn \d+, (red|blue): A played .*, B played /);
  await parted.nth(0).locator('[data-testid=parted-a]').click();
  await page.waitForSelector('[data-testid=replay-view] [data-testid=board] .cell');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Compare run against a web AI that always fails counts its games, asks it over HTTP and says A is stronger', async () => {
  const hostile = await startHostile();
  try {
    const b = encodeURIComponent(hostile.url('/status-500'));
    const setup = `?a=builtin%3Agreedy&b=${b}&preset=mini&games=20&min-games=10&concurrency=2&seed=3`;
    const { page, errors } = await openApp(browser, `${server.url}#/compare${setup}`, undefined, '[data-testid=compare-start]');
    assert.equal(await page.inputValue('[data-testid=compare-b]'), hostile.url('/status-500'));
    await page.click('[data-testid=compare-start]');
    const { n } = await stoppedWithAStronger(page);
    // Every game was played against B through its endpoint, posted as the arena posts (text/plain, the
    // default: no CORS preflight).
    const asked = hostile.log.filter((r) => r.path === '/status-500' && r.method === 'POST');
    assert.ok(asked.length >= n, `${asked.length} requests for ${n} games`);
    assert.ok(asked.every((r) => r.type === 'text/plain'), JSON.stringify(asked.slice(0, 3)));
    const rows = page.locator('[data-testid=compare-game]');
    assert.equal(await rows.count(), n);
    // B never moves, so its pieces never leave A's goal: each game runs to the turn limit, and B's errors
    // lose it, in either seat, with the last of them quoted.
    for (const k of [0, 1]) {
      assert.match(await rows.nth(k).textContent(), /A wins\d+.*lost \(its errors stalled the game.*HTTP 500/);
    }
    // A game's replay shows what B's endpoint answered.
    await rows.nth(0).locator('[data-testid=compare-replay]').click();
    await page.waitForSelector('[data-testid=replay-view] [data-testid=board] .cell');
    await page.click('[data-testid=replay-step]');
    await page.waitForFunction(() => /500/.test(document.querySelector('[data-testid=replay-lines]')?.textContent ?? ''));
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    hostile.close();
  }
});
