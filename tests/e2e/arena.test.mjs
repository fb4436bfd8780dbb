// End-to-end tests of the Halma arena page on the release build, in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openApp, cell, root, gatedContext } from './harness.mjs';

let server, browser;
before(async () => {
  // A sub-path, as on a static host: the build must not assume it is served from "/".
  server = await serveDist('/some/sub/path/');
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

// A tick long enough for a built-in AI to answer on a busy machine (load 4 on 2 cores), its worker's start
// and the AI module's load included: a test whose moves must be enacted, or must not time out, must not
// hang on a tick finishing in time. Step ends as soon as both answers are in, so it costs nothing unless
// an AI is slow. Every new game here starts with it; a test that wants a short tick sets it after.
const ROOMY = '3000';
const roomyTick = async (page) => {
  await page.locator('[data-testid=speed]').fill(ROOMY);
  assert.equal(await page.textContent('[data-testid=tick-ms]'), ROOMY);
};

async function newGame(page, { preset, red, blue, seed }) {
  await roomyTick(page);
  if (red) await page.selectOption('[data-testid=player-red]', red);
  if (blue) await page.selectOption('[data-testid=player-blue]', blue);
  if (preset) await page.selectOption('[data-testid=preset]', preset);
  if (seed !== undefined) await page.fill('[data-testid=seed]', String(seed));
  await page.click('[data-testid=new-game]');
}

test('the page renders the 18x18 arena board and the message field', async () => {
  const { page, errors } = await openApp(browser, server.url);
  assert.equal(await page.locator('[data-testid=board] .cell').count(), 18 * 18);
  assert.equal(await page.locator('[data-testid=board] .cell.piece.red').count(), 12);
  assert.equal(await page.locator('[data-testid=board] .cell.piece.blue').count(), 12);
  assert.match(await page.textContent('[data-testid=messages]'), /Turn 0/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('greedy against greedy on mini at the fastest speed ends with HALMATE', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await newGame(page, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 4 });
  assert.equal(await page.locator('[data-testid=board] .cell').count(), 64);
  // Each AI's first move at the roomy tick, by Step (which ends once the answer is in): its worker starts
  // and loads the AI module, which on a busy machine takes longer than a 50 ms tick and is no part of
  // what the fastest speed is about. The game is the same: the seed and the moves are.
  for (const turn of [1, 2]) {
    await page.click('[data-testid=step]');
    await page.waitForFunction(
      (t) => new RegExp(`^Turn ${t}$`, 'm').test([...document.querySelectorAll('[data-testid=messages] p')]
        .map((p) => p.textContent).join('\n')),
      turn, { timeout: 60_000 });
  }
  await page.locator('[data-testid=speed]').fill('50');
  assert.equal(await page.textContent('[data-testid=tick-ms]'), '50');
  await page.click('[data-testid=run]');
  // The event, not the clock: the game's result line, however long its ticks took. About 43 ticks of
  // 50 ms are 2 s on an idle machine; a busy one runs them late, and an answer that misses its tick only
  // makes the game longer (the turn limit ends any game, with a result line of its own), so the wait is
  // generous and nothing here times a tick or counts the moves that missed one.
  await page.waitForSelector('[data-testid=messages] p.result', { timeout: 300_000 });
  const result = await page.textContent('[data-testid=messages] p.result');
  if (await page.locator('[data-testid=messages-older]').count()) await page.click('[data-testid=messages-older]');
  const shown = await page.textContent('[data-testid=messages]');
  assert.match(result, /HALMATE/, `the game ended without HALMATE (${(shown.match(/timed out/g) ?? []).length} `
    + `moves timed out): ${shown.slice(0, 400)}`);
  // After the end no more ticks are played: Run stops and Step is disabled.
  await page.waitForSelector('[data-testid=stop]:disabled', { timeout: 10_000 });
  assert.ok(await page.isDisabled('[data-testid=step]'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a human move made by clicking is enacted', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await newGame(page, { preset: 'arena', red: 'human', blue: 'builtin:greedy', seed: 1 });
  await page.click('[data-testid=step]');
  assert.match(await page.textContent('[data-testid=notice]'), /waiting for red/);
  // An illegal click is explained: a jump over an empty square.
  await page.click(cell(2, 15));
  await page.click(cell(4, 13));
  assert.match(await page.textContent('[data-testid=notice]'), /empty square/);
  await page.click(cell(2, 13));
  await page.click('[data-testid=confirm]');
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent));
  assert.match(await page.textContent('[data-testid=messages]'), /red: \(2,15\) -> \(2,13\)/);
  assert.match(await page.getAttribute(cell(2, 13), 'class'), /piece red/);
  assert.doesNotMatch(await page.getAttribute(cell(2, 15), 'class'), /piece/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the board is drawn on a canvas and played from the keyboard, one square at a time', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await newGame(page, { preset: 'arena', red: 'human', blue: 'builtin:greedy', seed: 1 });
  await page.click('[data-testid=step]');
  // One tab stop for the board; the arrow keys move it, Enter and Space choose the focused square.
  assert.equal(await page.locator('[data-testid=board] .cell[tabindex="0"]').count(), 1);
  await page.focus('[data-testid=board] .cell[tabindex="0"]');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowUp');
  const focused = () => page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.equal(await focused(), '(2,15) red piece');
  await page.keyboard.press('Enter');
  // The names say what the outlines show: the chosen piece, and where it can go.
  assert.equal(await focused(), '(2,15) red piece, in the move being made');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), '(2,13) empty, the chosen piece can go here');
  await page.keyboard.press(' ');
  assert.match(await page.getAttribute(cell(2, 13), 'class'), /draft/);
  assert.equal(await page.locator('[data-testid=board] .cell[tabindex="0"]').count(), 1);
  await page.click('[data-testid=confirm]');
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent));
  assert.match(await page.textContent('[data-testid=messages]'), /red: \(2,15\) -> \(2,13\)/);
  assert.equal(await page.getAttribute(cell(2, 13), 'aria-label'), '(2,13) red piece');
  // The canvases show what the squares say: the piece's colour at its centre on the board's canvas,
  // clear where nothing stands, and under it the board's light and dark squares.
  // One readback of each whole canvas (several would draw the browser's warning).
  const [[red, clear], [under, light, dark]] = await page.evaluate(() => [
    ['.board-canvas', [[2, 13], [9, 9]]],
    ['.board-squares', [[2, 13], [9, 9], [9, 8]]],
  ].map(([selector, squares]) => {
    const c = document.querySelector(selector);
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const at = ([x, y]) => {
      const s = c.width / 18;
      const i = 4 * (Math.floor((y + 0.5) * s) * c.width + Math.floor((x + 0.5) * s));
      return [...data.slice(i, i + 4)];
    };
    return squares.map(at);
  }));
  assert.deepEqual(red, [0xcc, 0x00, 0x99, 255]);
  assert.deepEqual(clear, [0, 0, 0, 0]);
  assert.deepEqual(under, [0xe0, 0xd2, 0xb4, 255], '(2,13) is a dark square');
  assert.deepEqual(light, [0xf3, 0xea, 0xd8, 255]);
  assert.deepEqual(dark, [0xe0, 0xd2, 0xb4, 255]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a tick redraws only the squares it changed, and the canvas then shows what a whole redraw shows', async () => {
  // Counts the canvas's clips: a tick that redraws some squares clips to them.
  const { page, errors } = await openApp(browser, server.url, () => {
    const clip = CanvasRenderingContext2D.prototype.clip;
    window.clips = 0;
    CanvasRenderingContext2D.prototype.clip = function (...args) {
      window.clips++;
      return clip.apply(this, args);
    };
  });
  await newGame(page, { preset: 'arena', red: 'builtin:greedy', blue: 'builtin:search', seed: 7 });
  for (let n = 1; n <= 14; n++) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((k) => (document.querySelector('[data-testid=game-info]')?.textContent ?? '')
      .endsWith(`turn ${k}`), n);
  }
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await frames();
  assert.ok(await page.evaluate(() => window.clips) >= 14, 'each tick redrew only the squares it changed');
  // Read through a copy: a second readback of the board's own canvas would draw the browser's warning.
  const pixels = () => page.evaluate(() => {
    const c = document.querySelector('.board-canvas');
    const copy = document.createElement('canvas');
    [copy.width, copy.height] = [c.width, c.height];
    const ctx = copy.getContext('2d');
    ctx.drawImage(c, 0, 0);
    return { side: c.width, data: Array.from(ctx.getImageData(0, 0, c.width, c.height).data) };
  });
  const ticked = await pixels();
  // Another size and back: the board is drawn whole, twice.
  await page.setViewportSize({ width: 800, height: 700 });
  await frames();
  await page.setViewportSize({ width: 1100, height: 1000 });
  await frames();
  const whole = await pixels();
  assert.equal(whole.side, ticked.side);
  // The same picture: a disc or a line left over, or one missing, differs by a third or more of full
  // strength where it stands. Edges may differ by a few 255ths: the browser anti-aliases a clipped
  // drawing its own way.
  const premultiplied = (d, i, k) => (k === 3 ? d[i + 3] : d[i + k] * d[i + 3] / 255);
  let worst = 0;
  let inked = 0;
  for (let i = 0; i < ticked.data.length; i += 4) {
    if (ticked.data[i + 3] === 255) inked++;
    for (let k = 0; k < 4; k++) {
      worst = Math.max(worst, Math.abs(premultiplied(ticked.data, i, k) - premultiplied(whole.data, i, k)));
    }
  }
  assert.ok(inked > 24 * 400, `the pieces are drawn (${inked} opaque pixels)`);
  assert.ok(worst <= 16, `a pixel differs from a whole redraw by ${worst.toFixed(0)} of 255`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the message field shows the latest 10 ticks until the older ones are asked for', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await newGame(page, { preset: 'arena', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 7 });
  await page.locator('[data-testid=speed]').fill('50');
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => Number(/turn (\d+)/.exec(
    (document.querySelector('[data-testid=game-info]')?.textContent ?? ''))[1]) >= 15, null, { timeout: 30_000 });
  await page.click('[data-testid=stop]');
  // Stopped: Run is offered again, and the tick in progress ends once its answers are in (or at its 50 ms
  // deadline): wait until the turn has stood still for a whole second, not a fixed time a busy machine
  // may overrun.
  await page.waitForFunction(() => !document.querySelector('[data-testid=run]').disabled);
  await page.waitForFunction(() => {
    const turn = document.querySelector('[data-testid=game-info]').textContent;
    if (window.lastTurn !== turn) { window.lastTurn = turn; window.turnSince = performance.now(); }
    return performance.now() - window.turnSince >= 1000;
  }, null, { polling: 50, timeout: 15_000 });
  const turn = Number(/turn (\d+)/.exec(await page.textContent('[data-testid=game-info]'))[1]);
  const blocks = () => page.locator('[data-testid=messages] .tick-lines').count();
  assert.equal(await blocks(), 10);
  assert.match(await page.textContent('[data-testid=messages] .tick-lines'), new RegExp(`^Turn ${turn}(?!\\d)`));
  await page.click('[data-testid=messages-older]');
  assert.equal(await blocks(), turn);
  assert.match(await page.textContent('[data-testid=messages]'), /Turn 1(?!\d)/);
  assert.equal(await page.locator('[data-testid=messages-older]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the course camp rules and first mover come from the link, follow the form and a bad one is named', async () => {
  const { page, errors } = await openApp(browser,
    `${server.url}?red=human&blue=human&preset=classic&camp=course&first=blue`);
  assert.equal(await page.inputValue('[data-testid=camp-rules]'), 'course');
  assert.equal(await page.inputValue('[data-testid=first-move]'), 'blue');
  // The first game is already played under them: blue (the course's White) opens.
  await page.click('[data-testid=step]');
  assert.match(await page.textContent('[data-testid=notice]'), /waiting for blue/);
  // A change in the form goes into the link at once, and a reload keeps it.
  await page.selectOption('[data-testid=first-move]', 'red');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('first') === 'red');
  assert.equal(new URL(page.url()).searchParams.get('camp'), 'course');
  await page.reload();
  await page.waitForSelector('[data-testid=board] .cell');
  assert.equal(await page.inputValue('[data-testid=first-move]'), 'red');
  await page.click('[data-testid=step]');
  assert.match(await page.textContent('[data-testid=notice]'), /waiting for red/);
  await page.selectOption('[data-testid=first-move]', 'drawn');
  await page.selectOption('[data-testid=camp-rules]', 'seed');
  await page.waitForFunction(() => !/camp=|first=/.test(location.search));
  await page.goto(`${server.url}?red=human&blue=human&preset=classic&camp=usc`);
  await page.waitForSelector('[data-testid=board] .cell');
  assert.match(await page.textContent('[data-testid=notice]'), /camp in the link: unknown camp rules "usc"/);
  assert.equal(await page.inputValue('[data-testid=camp-rules]'), 'seed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a downloaded record loads back and steps through the same game', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await newGame(page, { preset: 'arena', red: 'builtin:search', blue: 'builtin:greedy', seed: 9 });
  // A tick ends when its answers arrive from the AIs' workers: Step is disabled until then.
  for (let i = 1; i <= 5; i++) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((n) => document.querySelector('[data-testid=messages]').textContent
      .includes(`Turn ${n}`), i);
  }
  const live = await page.getAttribute('[data-testid=board]', 'class');
  const boardAt5 = await page.$$eval('[data-testid=board] .cell', (cs) => cs.map((c) => c.className).join('|'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rec-')), download.suggestedFilename());
  await download.saveAs(file);
  assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 6, 'a header and five ticks');

  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForSelector('[data-testid=scrubber]');
  assert.match(await page.textContent('[data-testid=notice]'), /5 ticks/);
  assert.equal(await page.textContent('[data-testid=replay-at]'), '0');
  await page.click('[data-testid=step]');
  assert.equal(await page.textContent('[data-testid=replay-at]'), '1');
  await page.locator('[data-testid=scrubber]').fill('5');
  assert.equal(await page.textContent('[data-testid=replay-at]'), '5');
  const replayAt5 = await page.$$eval('[data-testid=board] .cell', (cs) => cs.map((c) => c.className).join('|'));
  assert.equal(replayAt5, boardAt5);
  assert.ok(live);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a collision square blinks both team colours (from a record made with the CLI)', async () => {
  const state = JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures/halma/collision-state.json'), 'utf8'));
  const tick = JSON.parse(execFileSync(path.join(root, 'target/debug/gridarena'), ['halma', 'tick'], {
    input: JSON.stringify({
      state,
      red: { from: { x: 2, y: 4 }, to: [{ x: 3, y: 4 }] },
      blue: { from: { x: 4, y: 4 }, to: [{ x: 3, y: 4 }] },
    }),
  }));
  assert.deepEqual(tick.outcome.collisions, [{ x: 3, y: 4 }]);
  const header = { type: 'header', format: 'gridarena-halma-record', version: 1, engine: 'test', preset: null,
    seed: 0, players: { red: 'human', blue: 'human' }, state };
  const record = [header, { type: 'tick', outcome: tick.outcome, state: tick.state }]
    .map((l) => JSON.stringify(l)).join('\n');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rec-')), 'collision.jsonl');
  fs.writeFileSync(file, record);

  const { page, errors } = await openApp(browser, server.url);
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForSelector('[data-testid=scrubber]');
  await page.click('[data-testid=step]');
  const square = page.locator(cell(3, 4));
  assert.match(await square.getAttribute('class'), /collision/);
  assert.equal(await square.textContent(), '5', 'the damage is shown');
  // The blink: the disc's colour alternates between the two team colours.
  const colours = new Set();
  for (let i = 0; i < 12 && colours.size < 2; i++) {
    colours.add(await square.evaluate((el) => getComputedStyle(el, '::after').backgroundColor));
    await page.waitForTimeout(100);
  }
  assert.deepEqual([...colours].sort(), ['rgb(0, 102, 153)', 'rgb(204, 0, 153)']);
  assert.match(await page.textContent('[data-testid=messages]'), /Collision at \(3,4\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a malformed record is refused with its line, and the live game is untouched', async () => {
  const { page } = await openApp(browser, server.url);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rec-')), 'bad.jsonl');
  fs.writeFileSync(file, '{"type":"tick"}\n<script>alert(1)</script>\n');
  await page.setInputFiles('[data-testid=load]', file);
  await page.waitForFunction(() => /line 1/.test(document.querySelector('[data-testid=notice]').textContent));
  assert.equal(await page.locator('[data-testid=scrubber]').count(), 0);
  assert.equal(await page.locator('[data-testid=board] .cell').count(), 324);
  await page.close();
});

/** Run in the page before its scripts: counts the workers it starts, in window.workersStarted. */
function countWorkers() {
  const Native = window.Worker;
  window.workersStarted = 0;
  window.Worker = class extends Native {
    constructor(...args) { super(...args); window.workersStarted += 1; }
  };
}

test('built-in AIs think in Web Workers, one per team, off the page thread', async () => {
  const { page, errors } = await openApp(browser, server.url, countWorkers);
  await newGame(page, { preset: 'arena', red: 'builtin:search', blue: 'builtin:greedy', seed: 3 });
  for (let i = 1; i <= 3; i++) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((n) => document.querySelector('[data-testid=messages]').textContent
      .includes(`Turn ${n}`), i);
  }
  assert.equal(await page.evaluate(() => window.workersStarted), 2, 'one worker per team, reused');
  assert.doesNotMatch(await page.textContent('[data-testid=messages]'), /no move enacted|failed|timed out/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the built-in AIs come in a module of their own, not in the page\'s; without it the game goes on and says why', async () => {
  // The page's own download carries no AI: its workers load gridarena-ai-halma (fetched ahead when the
  // page is idle), and never the page's module a second time.
  const context = await browser.newContext();
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=board] .cell');
  await newGame(page, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:search', seed: 2 });
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent));
  assert.doesNotMatch(await page.textContent('[data-testid=messages]'), /failed|timed out/);
  assert.ok(fetched.some((p) => p.endsWith('/gridarena-ai-halma_bg.wasm')), fetched.join(' '));
  assert.equal(fetched.filter((p) => p.endsWith('/gridarena-halma_bg.wasm')).length, 1, fetched.join(' '));
  assert.ok(!fetched.some((p) => /gridarena-ai-(go|hyperchess)/.test(p)), 'no other game\'s AI');
  await context.close();

  // A host that lost the AI module: each built-in's move fails with the reason, and the game goes on.
  const broken = await browser.newContext();
  await broken.route(/gridarena-ai-halma/, (r) => r.fulfill({ status: 404, body: 'gone' }));
  const page2 = await broken.newPage();
  await page2.goto(server.url);
  await page2.waitForSelector('[data-testid=board] .cell');
  await newGame(page2, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 2 });
  await page2.click('[data-testid=step]');
  await page2.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent));
  assert.match(await page2.textContent('[data-testid=messages]'), /the AI module did not load/);
  await broken.close();
});

test('the parts a first board does not show come after it, in modules of their own; one that does not load says so, and Try again loads it', async () => {
  const { context, fetched, gate } = await gatedContext(browser, /\/split\/gridarena-halma\/split_inspector\.wasm$/);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=board] .cell');
  // The parts' loader is fetched with the page (index.html names the split pages, scripts/split.sh).
  assert.equal(await page.locator('link[rel=modulepreload][href$="split/gridarena-halma/__wasm_split.js"]').count(), 1);
  // The new-game form, the replay bar and the position editor arrive once the page is idle, each from
  // dist/split/gridarena-halma/ beside the page's module (here under a sub-path).
  await page.waitForSelector('[data-testid=new-game]');
  await page.waitForSelector('[data-testid=download]');
  await page.waitForSelector('[data-testid=edit-position]');
  for (const part of ['setup_form', 'replay_bar', 'position_editor']) {
    assert.ok(fetched.includes(`/some/sub/path/split/gridarena-halma/split_${part}.wasm`), fetched.join(' '));
  }
  // The inspector's module is refused: that is said, and the game goes on without it.
  await page.waitForSelector('[data-testid=lazy-failed]');
  assert.match(await page.textContent('[data-testid=lazy-failed]'), /Error, the inspector did not load/);
  await newGame(page, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 2 });
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent));
  gate.open();
  await page.click('[data-testid=lazy-failed] button');
  await page.waitForSelector('[data-testid=inspector]');
  assert.equal(await page.locator('[data-testid=lazy-failed], [data-testid=lazy-loading]').count(), 0);
  assert.equal(fetched.filter((p) => p.endsWith('/gridarena-halma_bg.wasm')).length, 1, fetched.join(' '));
  await context.close();
});

test('the arena plays without its clock in the first download: calls made while it loads keep their order, and one that does not load is said', async () => {
  const { context, fetched, gate } = await gatedContext(browser, /\/split\/gridarena-halma\/split_clock\.wasm$/);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=board] .cell');
  await page.waitForSelector('[data-testid=new-game]');
  // The clock's module is refused (the page tried it once idle): Step says so and nothing is played.
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Error, the arena's clock did not load/
    .test(document.querySelector('[data-testid=notice]').textContent));
  assert.doesNotMatch(await page.textContent('[data-testid=messages]'), /Turn 1/);
  // While it loads, a new game's reset and a Step wait for it, in that order: the Step plays the new game.
  gate.mode = 'hold';
  await newGame(page, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 2 });
  await page.click('[data-testid=step]');
  assert.equal(await page.locator('[data-testid=board] .cell').count(), 64);
  await page.waitForTimeout(300);
  assert.doesNotMatch(await page.textContent('[data-testid=messages]'), /Turn 1/);
  gate.open();
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent));
  assert.doesNotMatch(await page.textContent('[data-testid=notice]'), /did not load/);
  // Once in, the clock answers at once.
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 2/.test(document.querySelector('[data-testid=messages]').textContent));
  assert.ok(fetched.some((p) => p.endsWith('/split/gridarena-halma/split_clock.wasm')), fetched.join(' '));
  assert.equal(fetched.filter((p) => p.endsWith('/gridarena-halma_bg.wasm')).length, 1, fetched.join(' '));
  await context.close();
});

test('Run clicked while the clock loads plays whole ticks once it is in, not the beats it missed', async () => {
  const { context, gate } = await gatedContext(browser, /\/split\/gridarena-halma\/split_clock\.wasm$/, 'hold');
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=new-game]');
  await newGame(page, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 2 });
  // Ticks with room for the first one's worker start and module load on a busy machine (no move may time
  // out here), and still five beats missed while the clock is held.
  await page.locator('[data-testid=speed]').fill('1000');
  await page.click('[data-testid=run]');
  // Five beats pass while the clock is held: none of them may end a tick that has not had its time.
  await page.waitForTimeout(5 * 1000);
  gate.open();
  await page.waitForFunction(() => /Turn 3/.test(document.querySelector('[data-testid=messages]').textContent),
    null, { timeout: 15_000 });
  await page.click('[data-testid=stop]');
  const text = await page.textContent('[data-testid=messages]');
  assert.doesNotMatch(text, /timed out|no move enacted/, text.slice(0, 600));
  await context.close();
});

test('without Web Workers the built-in AIs play on the page thread', async () => {
  const { page, errors } = await openApp(browser, server.url, () => { delete window.Worker; });
  await newGame(page, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:search', seed: 2 });
  // The page loads the AI module on its own thread for the first move: a Step before that is done has
  // no tick to start.
  for (const n of [1, 2]) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((n) => document.querySelector('[data-testid=messages]').textContent
      .includes(`Turn ${n}`), n);
  }
  assert.doesNotMatch(await page.textContent('[data-testid=messages]'), /failed|timed out/);
  // The fallback is announced once on the console, and nothing else goes wrong.
  assert.equal(errors.length, 1);
  assert.match(errors[0], /page thread/);
  await page.close();
});

test('a worker whose AI module did not load is replaced at the next job, not given up for the page thread', async () => {
  // The AI module's wasm is refused (a network hiccup) for the first tick: both teams' workers fail, and
  // that tick is answered, or said to fail, on the page's thread. Once it loads again, the next tick
  // starts a fresh worker for each team, and they think there, not on the page's thread.
  const { context, gate } = await gatedContext(browser, '**/gridarena-ai-halma_bg.wasm', 'refuse');
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') errors.push(m.text());
  });
  await page.addInitScript(countWorkers);
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=board] .cell');
  // The arena preset: both teams move every tick.
  await newGame(page, { preset: 'arena', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 2 });
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent));
  assert.equal(await page.evaluate(() => window.workersStarted), 2);
  gate.open();
  for (const n of [2, 3]) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((n) => document.querySelector('[data-testid=messages]').textContent
      .includes(`Turn ${n}`), n);
  }
  assert.equal(await page.evaluate(() => window.workersStarted), 4, 'a fresh worker per team, then reused');
  const text = await page.textContent('[data-testid=messages]');
  const after = text.slice(0, text.indexOf('Turn 1'));
  assert.doesNotMatch(after, /failed|timed out|did not load/, after);
  assert.ok(errors.length >= 1 && errors.every((e) => /the next job starts another|Failed to load resource/.test(e)),
    errors.join('\n'));
  assert.ok(!errors.some((e) => /page thread/.test(e)), errors.join('\n'));
  await context.close();
});

for (const [name, width, height] of [['a phone', 375, 667], ['a projector', 1920, 1080]]) {
  test(`the page fits ${name} (${width}x${height}): no sideways scrolling, the whole board and Step in reach`, async () => {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=board] .cell');
    const layout = await page.evaluate(() => {
      const box = (s) => document.querySelector(s).getBoundingClientRect();
      const board = box('[data-testid=board]');
      return { scrollWidth: document.documentElement.scrollWidth, board: [board.left, board.right, board.width],
        step: box('[data-testid=step]').width, cell: box('[data-testid=board] .cell').width };
    });
    assert.ok(layout.scrollWidth <= width, `page ${layout.scrollWidth} px wide`);
    assert.ok(layout.board[0] >= 0 && layout.board[1] <= width, `board at ${layout.board}`);
    // Squares big enough to tap on a phone and to see from the back of a room.
    assert.ok(layout.cell >= (width < 600 ? 18 : 40), `squares ${layout.cell} px`);
    assert.ok(layout.step > 0);
    await page.close();
  });
}

test('"Continue from here" on a replay tick starts a new game from that exact state with the setup\'s players', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await newGame(page, { preset: 'mini', red: 'builtin:greedy', blue: 'builtin:greedy', seed: 4 });
  for (let k = 1; k <= 4; k++) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((n) => (document.querySelector('[data-testid=game-info]')?.textContent ?? '').endsWith(`turn ${n}`), k);
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  await page.setInputFiles('[data-testid=load]', await download.path());
  await page.waitForSelector('[data-testid=scrubber]');
  await page.locator('[data-testid=scrubber]').fill('2');
  const pieces = () => page.$$eval('[data-testid=board] .cell.piece', (cells) =>
    cells.map((c) => `${c.dataset.x},${c.dataset.y} ${c.className.includes('red') ? 'red' : 'blue'}`).sort());
  const atTwo = await pieces();
  // The student's AI takes red's seat from here.
  await page.selectOption('[data-testid=player-red]', 'human');
  await page.click('[data-testid=continue-here]');
  await page.waitForSelector('[data-testid=scrubber]', { state: 'detached' });
  assert.match(await page.textContent('[data-testid=game-info]'), /turn 2$/);
  assert.deepEqual(await pieces(), atTwo);
  assert.match(await page.textContent('[data-testid=notice]'), /A new game from tick 2 of the record/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the position editor: pieces placed and removed by clicking, an impossible position refused with its reason, a legal one played and kept in the link', async () => {
  const { page, errors } = await openApp(browser,
    `${server.url}?red=builtin:greedy&blue=builtin:greedy&preset=mini`);
  const check = (re) => page.waitForFunction((src) =>
    new RegExp(src).test(document.querySelector('[data-testid=edit-check]')?.textContent ?? ''), re.source);
  await page.click('[data-testid=edit-position]');
  // The editor opens on the board shown: the live game's start.
  await check(/^a legal position: (red|blue) to move, 10 red and 10 blue pieces$/);
  await page.click('[data-testid=edit-clear]');
  await check(/^Impossible: red has no pieces\.$/);
  assert.ok(await page.isDisabled('[data-testid=play-from-here]'));
  // A red and a blue piece on one square: only a simultaneous game's collision does that.
  await page.click('[data-testid=tool-red]');
  await page.click(cell(3, 3));
  await page.click('[data-testid=tool-blue]');
  await page.click(cell(3, 3));
  await check(/^Impossible: red and blue share \(3,3\): only a simultaneous game's collision/);
  await page.waitForSelector(`${cell(3, 3)}.flagged`);
  assert.ok(await page.isDisabled('[data-testid=play-from-here]'));
  // The blue piece goes again; damage is refused on an empty square and impossible where nothing collides.
  await page.click(cell(3, 3));
  await page.click('[data-testid=tool-damage-up]');
  await page.click(cell(5, 5));
  await page.waitForFunction(() => /Not changed: no piece on \(5,5\) to damage/.test(
    document.querySelector('[data-testid=notice]').textContent));
  await page.click('[data-testid=tool-blue]');
  await page.click(cell(5, 5));
  await page.click('[data-testid=tool-damage-up]');
  await page.click(cell(3, 3));
  await check(/^Impossible: the red piece on \(3,3\) is damaged/);
  await page.click('[data-testid=tool-damage-down]');
  await page.click(cell(3, 3));
  await page.selectOption('[data-testid=edit-to-move]', 'blue');
  await check(/^a legal position: blue to move, 1 red and 1 blue pieces$/);
  // The position is in the link as it is edited.
  await page.waitForFunction(() => new URL(location.href).searchParams.get('pos') === 'blue.3-3.5-5');
  const link = page.url();
  // Keyboard: Enter on a focused square uses the tool too (here it puts a blue piece on (0,0) and takes it off).
  await page.click('[data-testid=tool-blue]');
  await page.focus(cell(0, 0));
  await page.keyboard.press('Enter');
  await check(/1 red and 2 blue pieces$/);
  await page.keyboard.press('Enter');
  await check(/1 red and 1 blue pieces$/);
  await page.click('[data-testid=play-from-here]');
  await page.waitForSelector('[data-testid=edit-position]');
  assert.match(await page.textContent('[data-testid=game-info]'), /turn 0$/);
  assert.match(await page.getAttribute(cell(3, 3), 'class'), /piece red/);
  assert.match(await page.getAttribute(cell(5, 5), 'class'), /piece blue/);
  assert.match(await page.textContent('[data-testid=notice]'), /A new game from the edited position/);
  // The edited position plays: blue, to move, makes the first move.
  await roomyTick(page);
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => (document.querySelector('[data-testid=game-info]')?.textContent ?? '').endsWith('turn 1'));
  assert.match(await page.textContent('[data-testid=messages]'), /blue: \(5,5\) ->/);
  assert.equal(await page.locator('[data-testid=board] .cell.piece.blue').count(), 1);
  // The link reopens the position in the editor.
  await page.goto(link);
  await check(/^a legal position: blue to move, 1 red and 1 blue pieces$/);
  assert.match(await page.getAttribute(cell(3, 3), 'class'), /piece red/);
  // A position that does not fit the board is named, and the page opens as without it.
  await page.goto(`${server.url}?red=human&blue=human&preset=mini&pos=blue.3-3.9-9`);
  await page.waitForSelector('[data-testid=edit-position]');
  assert.match(await page.textContent('[data-testid=notice]'),
    /pos in the link: position "blue\.3-3\.9-9": blue piece \(9,9\) is off the 8x8 mini board/);
  assert.equal(await page.locator('[data-testid=board] .cell.piece').count(), 20);
  assert.deepEqual(errors, []);
  await page.close();
});
