// End-to-end tests of the Go page on the release build, in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openApp } from './harness.mjs';

let server, browser;
before(async () => {
  server = await serveDist('/sub/path/');
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

const GOBAN = '[data-testid=goban] .pt';
const point = (v) => `[data-testid=goban] .pt[data-vertex="${v}"]`;
const stone = (v, color) => `[data-testid=goban] .stone.${color}[data-vertex="${v}"]`;
const stones = (page) => page.locator('[data-testid=goban] .stone').count();
const status = (page) => page.textContent('[data-testid=go-status]');

/** The Go page, with a new game as chosen. */
async function openGo({ size = '9', opponent = 'person', color, init, viewport } = {}) {
  const { page, errors } = await openApp(browser, `${server.url}#/go`, init, GOBAN);
  if (viewport) await page.setViewportSize(viewport);
  await page.selectOption('[data-testid=go-size]', size);
  await page.selectOption('[data-testid=go-opponent]', opponent);
  if (color) await page.selectOption('[data-testid=go-color]', color);
  await page.click('[data-testid=go-new-game]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=goban] .pt').length === n,
    Number(size) ** 2);
  return { page, errors };
}

test('the Go page is reached from the start page and draws a 9x9 goban', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.click('nav a[href="#/go"]');
  await page.waitForSelector(GOBAN);
  assert.equal(await page.locator(GOBAN).count(), 81);
  assert.equal(await page.getAttribute('nav a[href="#/go"]', 'aria-current'), 'page');
  // A real goban: star points, coordinates on all four sides (no letter I), wood, no stones yet.
  assert.equal(await page.locator('[data-testid=goban] .star').count(), 5);
  const coords = await page.locator('[data-testid=goban] .coords text').allTextContents();
  assert.equal(coords.length, 36);
  assert.ok(coords.includes('J') && !coords.includes('I') && coords.includes('9'));
  assert.equal(await stones(page), 0);
  // The clock waits for the first move: a page left open loses no one any time.
  assert.equal(await page.textContent('[data-testid=player-black] [data-testid=clock]'), '5:00');
  // Back to the arena with the browser's back button.
  await page.goBack();
  await page.waitForSelector('[data-testid=board] .cell');
  assert.deepEqual(errors, []);
  await page.close();
});

test('two people: clicks play, a capture is counted, a refusal is explained, two passes count the game', async () => {
  const { page, errors } = await openGo();
  for (const v of ['A2', 'A1', 'B1']) await page.click(point(v));
  // B1 took the last liberty of the white stone on A1.
  assert.equal(await page.locator(stone('A1', 'white')).count(), 0);
  assert.equal(await page.textContent('[data-testid=player-black] [data-testid=captures]'), '1');
  assert.equal(await stones(page), 2);
  assert.equal(await page.locator('[data-testid=last-move]').count(), 1);
  assert.match(await page.textContent('[data-testid=go-moves]'), /Move 3: Black B1/);
  // White may not play where a stone is, nor retake into suicide.
  await page.click(point('B1'));
  assert.match(await status(page), /B1 is occupied by a black stone/);
  await page.click(point('A1'));
  assert.match(await status(page), /suicide/i);
  assert.match(await page.textContent('[data-testid=go-area]'), /Black 81 · White 0 \+ komi 0.5 → B\+80.5/);
  await page.click('[data-testid=pass]');
  await page.click('[data-testid=pass]');
  assert.match(await status(page), /Black wins by 80.5 points \(B\+80.5\)/);
  assert.ok(await page.isDisabled('[data-testid=pass]'));
  // Undo is allowed between people: the game goes on.
  await page.click('[data-testid=undo]');
  assert.match(await status(page), /took back 1 move/);
  assert.ok(!(await page.isDisabled('[data-testid=pass]')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('against the built-in AI: it answers from its worker, and undo takes back both moves', async () => {
  const { page, errors } = await openGo({ opponent: '2000', color: 'black' });
  assert.match(await page.textContent('[data-testid=player-white]'), /GridArena MCTS/);
  await page.fill('[data-testid=typed-move]', 'e5');
  await page.press('[data-testid=typed-move]', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=goban] .stone').length === 2,
    null, { timeout: 30_000 });
  assert.equal(await page.locator(stone('E5', 'black')).count(), 1);
  assert.match(await status(page), /White played [A-J]\d/);
  await page.click('[data-testid=undo]');
  assert.equal(await stones(page), 0);
  assert.match(await status(page), /took back 2 moves; Black to play/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the AI plays first when the person takes White, and the page stays responsive while it thinks', async () => {
  const { page, errors } = await openGo({ size: '19', opponent: '30000', color: 'white' });
  // While the strong AI thinks on 19x19, the page still answers: toggling the area view works at once.
  const t0 = Date.now();
  await page.click('[data-testid=show-area]');
  assert.ok(await page.isChecked('[data-testid=show-area]'));
  const responsive = Date.now() - t0;
  assert.ok(responsive < 1000, `a click took ${responsive} ms while the AI was thinking`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=goban] .stone').length === 1,
    null, { timeout: 60_000 });
  assert.equal(await page.locator('[data-testid=goban] .stone.black').count(), 1);
  assert.equal(await page.locator('[data-testid=goban] .star').count(), 9);
  assert.deepEqual(errors, []);
  await page.close();
});

test('resigning asks first, then ends the game', async () => {
  const { page, errors } = await openGo();
  await page.click(point('C3'));
  await page.click('[data-testid=resign]');
  await page.click('[data-testid=resign-no]');
  assert.equal(await page.locator('[data-testid=resign-yes]').count(), 0);
  await page.click('[data-testid=resign]');
  await page.click('[data-testid=resign-yes]');
  assert.match(await status(page), /Black wins by resignation \(B\+R\)/);
  await page.click(point('D4'));
  assert.match(await status(page), /the game is over \(B\+R\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the move clock: a player who runs out of the 5 minutes loses', async () => {
  // The page's clock is performance.now(); the test moves it forward instead of waiting five minutes.
  const init = () => {
    const real = performance.now.bind(performance);
    window.__skew = 0;
    performance.now = () => real() + window.__skew;
  };
  const { page, errors } = await openGo({ init });
  await page.click(point('E5'));
  await page.evaluate(() => { window.__skew = 4 * 60 * 1000 + 40_000; });
  await page.waitForFunction(() => /^0:[12]\d$/.test(
    document.querySelector('[data-testid=player-white] [data-testid=clock]').textContent));
  assert.match(await page.getAttribute('[data-testid=player-white] [data-testid=clock]', 'class'), /urgent/);
  await page.evaluate(() => { window.__skew += 30_000; });
  await page.waitForFunction(() => /B\+T/.test(document.querySelector('[data-testid=go-status]').textContent));
  assert.match(await status(page), /Black wins on time \(B\+T\)/);
  assert.ok(await page.isDisabled('[data-testid=undo]'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the move clock does not run before the first move, and runs from it', async () => {
  // The page's clock is performance.now(); the test moves it forward instead of waiting minutes.
  const init = () => {
    const real = performance.now.bind(performance);
    window.__skew = 0;
    performance.now = () => real() + window.__skew;
  };
  const { page, errors } = await openGo({ init });
  const clock = (c) => page.textContent(`[data-testid=player-${c}] [data-testid=clock]`);
  // Four minutes pass with nobody moving: both clocks still show the whole 5:00, Black's says it waits.
  await page.evaluate(() => { window.__skew = 4 * 60 * 1000; });
  await page.waitForTimeout(600);
  assert.equal(await clock('black'), '5:00');
  assert.equal(await clock('white'), '5:00');
  assert.match(await page.getAttribute('[data-testid=player-black] [data-testid=clock]', 'class'), /waiting/);
  // Black's first move starts White's clock.
  await page.click(point('E5'));
  await page.evaluate(() => { window.__skew += 65_000; });
  await page.waitForFunction(() => /^3:5\d$/.test(
    document.querySelector('[data-testid=player-white] [data-testid=clock]').textContent));
  assert.doesNotMatch(await page.getAttribute('[data-testid=player-white] [data-testid=clock]', 'class'), /waiting/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('SGF: a game downloads, loads back on a fresh page, and a broken file is refused with the board kept', async () => {
  const { page, errors } = await openGo({ size: '13' });
  for (const v of ['D4', 'K10', 'pass']) {
    if (v === 'pass') await page.click('[data-testid=pass]');
    else await page.click(point(v));
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=sgf-download]')]);
  assert.match(download.suggestedFilename(), /^gridarena-go-13x13-\d{4}-\d\d-\d\d\.sgf$/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sgf-'));
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /^\(;FF\[4\]GM\[1\]/);
  assert.match(text, /SZ\[13\]KM\[0.5\]/);
  assert.match(text, /;B\[dj\];W\[jd\];B\[\]\)/);
  await page.close();

  const fresh = await openGo();
  await fresh.page.setInputFiles('[data-testid=sgf-load]', file);
  await fresh.page.waitForFunction(() => document.querySelectorAll('[data-testid=goban] .pt').length === 169);
  assert.match(await status(fresh.page), /loaded a 13x13 game of 3 moves: White to play/);
  assert.equal(await fresh.page.locator(stone('D4', 'black')).count(), 1);
  assert.equal(await fresh.page.locator(stone('K10', 'white')).count(), 1);
  assert.equal(await fresh.page.inputValue('[data-testid=go-size]'), '13');

  const broken = path.join(dir, 'broken.sgf');
  fs.writeFileSync(broken, '(;GM[1]SZ[13];B[dj];W[dj])');
  await fresh.page.setInputFiles('[data-testid=sgf-load]', broken);
  await fresh.page.waitForFunction(() => /broken\.sgf/.test(document.querySelector('[data-testid=go-status]').textContent));
  assert.match(await status(fresh.page), /broken\.sgf: .*occupied/);
  assert.equal(await stones(fresh.page), 2);
  assert.deepEqual([...errors, ...fresh.errors], []);
  await fresh.page.close();
});

test('on a phone the 19x19 board fits the width', async () => {
  const { page, errors } = await openGo({ size: '19', viewport: { width: 390, height: 844 } });
  const box = await page.locator('[data-testid=goban]').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board width ${box.width}`);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= 390, `the page scrolls sideways: ${scroll}`);
  await page.click(point('Q16'));
  assert.equal(await page.locator(stone('Q16', 'black')).count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Online Go on a static host without the server says what is missing', async () => {
  const { page, errors } = await openApp(browser, `${server.url}#/online`, undefined, '[data-testid=online-name]');
  await page.fill('[data-testid=online-name]', 'Ada');
  await page.click('[data-testid=online-register]');
  await page.waitForFunction(() => document.querySelector('[data-testid=online-register-error]').textContent !== '');
  assert.match(await page.textContent('[data-testid=online-register-error]'), /gridarena serve/);
  assert.equal(await page.getAttribute('nav a[href="#/online"]', 'aria-current'), 'page');
  assert.deepEqual(errors, []);
  await page.close();
});
