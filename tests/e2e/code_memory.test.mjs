// A JavaScript code player's memory, as the page measures it (src/code/memory.rs, docs/code-players.md):
// where the page is cross-origin isolated, the browser's performance.measureUserAgentSpecificMemory()
// names each code worker, and one measured past the player's 1 GB is ended, its move `out of memory`;
// a fresh worker plays on and the tab lives. Where the page is not isolated, the page says that it
// cannot measure. Release build, headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp } from './harness.mjs';

let isolated, plain, browser;
before(async () => {
  isolated = await serveDist('/sub/', { isolated: true });
  plain = await serveDist('/sub/', { isolated: false });
  browser = await launch();
});
after(async () => { await browser?.close(); isolated?.close(); plain?.close(); });

/** An AI as the page keeps it: one file. */
function ai(name, text) {
  return { name, draft: { lang: 'javascript', format: 'function', main: 'main.js', files: [{ path: 'main.js', text }] }, versions: [] };
}

/** Opens `url` with `ais` kept in the browser's storage. */
async function openWith(url, ais, ready) {
  const init = `if (!sessionStorage.getItem('seeded')) {
    localStorage.setItem('gridarena.code.ais', ${JSON.stringify(JSON.stringify(ais))});
    sessionStorage.setItem('seeded', '1');
  }`;
  return openApp(browser, url, init, ready);
}

/** What red's code printed at tick `tick`, from the inspector ('' for none). */
async function printedAt(page, tick) {
  await page.fill('[data-testid=inspector-tick]', String(tick));
  await page.press('[data-testid=inspector-tick]', 'Enter');
  const output = await page.$('[data-testid=exchange-red] [data-testid=inspector-output]');
  return output ? output.textContent() : '';
}

// Keeps 128 MB more of JavaScript arrays at each move, up to 1.5 GB: past the 1 GB a player may use,
// short of the about 4 GB at which the browser ends the whole tab. Each move says how many moves its
// worker has played.
const HOG = `
const kept = [];
let moves = 0;
export function move(request) {
  moves += 1;
  if (kept.length < 12 * 256) {
    for (let i = 0; i < 256; i++) kept.push(new Array(1 << 16).fill(moves + i / 1000));
  }
  console.log('move ' + moves + ' of this worker, ' + kept.length / 2 + ' MB kept');
  return null;
}
`;

test('a JavaScript player measured past its memory is ended out of memory, and a fresh worker plays on', async () => {
  const { page, errors } = await openWith(`${isolated.url}?red=code%3Ahog&blue=builtin%3Agreedy&turns=2000`, [ai('hog', HOG)]);
  let crashed = false;
  page.on('crash', () => { crashed = true; });
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  // Ticks of 3 s, the arena's longest: a move cut off on a busy machine would restart the worker, and
  // what it kept with it.
  await page.locator('[data-testid=speed]').fill('3000');
  await page.click('[data-testid=run]');
  // The browser answers a measurement 10 to 20 s after it is asked: the worker passes 1 GB at its 8th
  // move, and is found at most a few measurements later.
  await page.waitForFunction(
    () => /out of memory/.test(document.querySelector('[data-testid=messages]')?.textContent ?? ''),
    null, { timeout: 150_000, polling: 500 });
  const text = await page.textContent('[data-testid=messages]');
  assert.match(text, /Error, red: no move: out of memory: the page measured this player's worker at \d+ MB (while the move ran|between moves), more than the 1024 MB a player may use/, text);
  // The tick it happened at: the latest "Turn N" line before the failure (the field shows the latest first).
  const before = text.slice(0, text.indexOf('out of memory'));
  const turns = [...before.matchAll(/Turn (\d+)/g)];
  const failed = Number(turns[turns.length - 1][1]);
  await page.waitForFunction(
    (n) => Number(/turn (\d+)/.exec(document.querySelector('[data-testid=game-info]')?.textContent ?? '')?.[1]) >= n,
    failed + 3, { timeout: 60_000 });
  await page.click('[data-testid=stop]');
  await page.click('[data-testid=inspector] summary');
  // After: a fresh worker's first move, nothing kept. Looked for around the failure's tick, not at a
  // fixed offset: on a busy machine the failure's line may come a tick away from where a quiet one
  // writes it.
  let fresh = '';
  let freshAt = failed - 1;
  for (; freshAt <= failed + 3; freshAt++) {
    fresh = await printedAt(page, freshAt);
    if (/move 1 of this worker/.test(fresh)) break;
  }
  assert.match(fresh, /move 1 of this worker, 128 MB kept/);
  // Before: the worker that grew, many moves in, the last tick before the fresh one that printed.
  let grown = '';
  for (let tick = freshAt - 1; tick >= freshAt - 4 && !/move \d+ of this worker/.test(grown); tick--) {
    grown = await printedAt(page, tick);
  }
  assert.match(grown, /move (\d+) of this worker/);
  assert.ok(Number(/move (\d+) of this worker/.exec(grown)[1]) >= 8, grown);
  assert.equal(crashed, false);
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.deepEqual(errors, []);
  await page.close();
});

// One move that keeps allocating, pausing between allocations (it awaits a timer), until it holds 1.5 GB,
// and then waits: it never answers by itself.
const HOG_IN_ONE_MOVE = `
const kept = [];
export async function move(request) {
  for (;;) {
    if (kept.length < 12 * 256) {
      for (let i = 0; i < 64; i++) kept.push(new Array(1 << 16).fill(kept.length + 0.5));
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
`;

test('a move that grows past the memory while it runs is ended out of memory (a tournament\'s roll call)', async () => {
  const { page, errors } = await openApp(browser, `${isolated.url}#/tournament`, undefined, '[data-testid=entry-name]');
  let crashed = false;
  page.on('crash', () => { crashed = true; });
  const roster = { entries: [
    { name: 'Hog', code: { language: 'javascript', format: 'function', main: 'main.js', files: { 'main.js': HOG_IN_ONE_MOVE } } },
    { name: 'Greedy', player: 'builtin:greedy' },
  ] };
  await page.setInputFiles('[data-testid=import-roster]', {
    name: 'hog.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(roster)),
  });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=roster] li').length === 2);
  // The roll call waits three ticks for each entry's first move: 90 s here, time for the browser's
  // measures (one each 10 to 20 s) to find the move past 1 GB before its deadline.
  await page.fill('[data-testid=tick]', '30000');
  await page.click('[data-testid=roll-call-run]');
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid=roll-entry]')];
    return rows.length === 2 && rows.every((e) => /green|red/.test(e.className));
  }, null, { timeout: 120_000, polling: 500 });
  const hog = page.locator('[data-testid=roll-entry]').filter({ hasText: 'Hog' });
  assert.match(await hog.getAttribute('class'), /red/);
  assert.match(await hog.textContent(),
    /out of memory: the page measured this player's worker at \d+ MB while the move ran, more than the 1024 MB a player may use/);
  assert.equal(crashed, false);
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_|net::/.test(e)), []);
  await page.close();
});

test('the code page says whether it can measure a JavaScript player\'s memory', async () => {
  const ready = '[data-testid=code-limits]';
  const measured = await openWith(`${isolated.url}#/code`, [], ready);
  assert.match(await measured.page.textContent(ready), /JavaScript: the browser measures each player's worker every 10 to 20 s/);
  await measured.page.close();
  const unmeasured = await openWith(`${plain.url}#/code`, [], ready);
  assert.match(await unmeasured.page.textContent(ready), /JavaScript: not measured here\. This page is not cross-origin isolated/);
  assert.deepEqual(unmeasured.errors, []);
  await unmeasured.page.close();
});
