// End-to-end tests of the HyperChess page on the release build, in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { serveDist, launch, openApp, root } from './harness.mjs';

let server, browser;
before(async () => {
  server = await serveDist('/hc/');
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

const at = (x, y, z) => `[data-testid=hc-board] button[data-x="${x}"][data-y="${y}"][data-z="${z}"]`;
const status = (page) => page.textContent('[data-testid=hc-status]');
const notice = (page) => page.textContent('[data-testid=hc-notice]');
const open = (browser) => openApp(browser, `${server.url}#/hyperchess`, undefined, '[data-testid=hc-slice]');

test('load a Map file and make a capture by clicking', async () => {
  const { page, errors } = await open(browser);
  await page.setInputFiles('[data-testid=hc-load-map]', path.join(root, 'maps/hyperchess/small.map'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=hc-slice]').length === 3);
  assert.match(await notice(page), /New game on small\.map: White moves first/);
  assert.equal(await page.locator('[data-testid=hc-board] button').count(), 27);

  // White's pawn steps out a level; its targets are shown first.
  await page.click(at(1, 1, 0));
  assert.match(await notice(page), /WPawn at \(1 1 0\) can go to \d+ places/);
  assert.ok((await page.getAttribute(at(1, 1, 1), 'class')).includes('target'));
  await page.click(at(1, 1, 1));
  assert.match(await status(page), /Black to move/);
  // Black may not move White's pieces; an illegal destination is explained.
  await page.click(at(1, 1, 1));
  assert.match(await notice(page), /belongs to White/);
  await page.click(at(1, 0, 2));
  await page.click(at(1, 0, 0));
  assert.match(await notice(page), /BKing at \(1 0 2\) cannot move to \(1 0 0\)/);
  await page.click(at(1, 0, 2));
  await page.click(at(1, 0, 1));
  // The capture.
  await page.click(at(1, 1, 1));
  await page.click(at(1, 1, 2));
  assert.match(await notice(page), /taking BPawn/);
  assert.equal(await page.textContent('[data-testid=hc-lost-black]'), 'Black has lost: ♟');
  assert.equal(await page.textContent(at(1, 1, 2)), '♙');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the holed map leaves holes; a saved game and a currentstate file load back', async () => {
  const { page, errors } = await open(browser);
  await page.selectOption('[data-testid=hc-map]', '1');
  await page.click('[data-testid=hc-new]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=hc-board] button').length === 116);
  assert.equal(await page.locator('[data-testid=hc-board] .hc-hole').count(), 9);
  await page.click(at(0, 3, 0));
  await page.click(at(0, 2, 0));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-'));
  const save = async (button) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    const file = path.join(dir, d.suggestedFilename());
    await d.saveAs(file);
    return file;
  };
  const saved = await save('[data-testid=hc-save]');
  assert.match(fs.readFileSync(saved, 'utf8'), /^HyperChess save 1\nturn Black\ncaptured\n116\n/);
  const state = await save('[data-testid=hc-currentstate]');
  assert.match(fs.readFileSync(state, 'utf8'), /^0\t0\t0\tnull\n/);

  await page.click('[data-testid=hc-new]');
  assert.match(await status(page), /White to move/);
  await page.setInputFiles('[data-testid=hc-load-save]', saved);
  await page.waitForFunction(() => /Black to move/.test(document.querySelector('[data-testid=hc-status]').textContent));
  assert.equal(await page.textContent(at(0, 2, 0)), '♙');

  await page.setInputFiles('[data-testid=hc-load-state]', state);
  await page.waitForFunction(() => /Viewing/.test(document.querySelector('[data-testid=hc-status]').textContent));
  assert.equal(await page.locator('[data-testid=hc-board] button').count(), 116);
  await page.click('[data-testid=hc-back]');
  assert.match(await status(page), /Black to move/);

  // A broken Map file is refused with its line.
  const bad = path.join(dir, 'bad.map');
  fs.writeFileSync(bad, '2\n0 -1 1 -1 -1 -1 -1\n1 -1 -1 -1 -1 -1 -1\n');
  await page.setInputFiles('[data-testid=hc-load-map]', bad);
  await page.waitForFunction(() => /bad\.map/.test(document.querySelector('[data-testid=hc-notice]').textContent));
  assert.match(await notice(page), /bad\.map: line 2: node 0 has node 1 to its right, but node 1 has nothing to its left/);
  assert.match(await status(page), /Black to move/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Runs `gridarena hyperchess ARGS` in `dir` with its viewer on a free port (stdin piped, for the terminal
 *  game's moves), and waits for the viewer's address. */
async function startViewer(args, dir) {
  const bin = path.join(root, 'target', 'debug', 'gridarena');
  const child = spawn(bin, ['hyperchess', ...args, '--port', '0', '--dist', path.join(root, 'dist')],
    { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  for (let i = 0; !/Watch the game at \S+/.test(out); i++) {
    if (i > 100 || child.exitCode !== null) throw new Error(`no viewer:\n${out}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
  return { child, url: out.match(/Watch the game at (\S+)/)[1] };
}

const symbolAt = (page, x, y, z) => page.textContent(at(x, y, z));

test('the live view follows a terminal game move by move', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridarena-live-'));
  const viewer = await startViewer(['builtin:small', '--view'], dir);
  try {
    const { page, errors } = await openApp(browser, viewer.url, undefined, '[data-testid=hc-slice]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=hc-board] button').length === 27);
    assert.match(await status(page), /Live view/);
    const moves = [
      ['1 1 0', '1 1 1', /Black to move/, /WPawn \(1 1 0\) → \(1 1 1\)/],
      ['1 1 2', '1 2 2', /White to move/, /BPawn \(1 1 2\) → \(1 2 2\)/],
      ['0 2 0', '0 1 0', /Black to move/, /WRook \(0 2 0\) → \(0 1 0\)/],
    ];
    for (const [from, to, turn, last] of moves) {
      viewer.child.stdin.write(`${from}\n${to}\n`);
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid=hc-last]').textContent),
        last.source);
      assert.match(await status(page), turn);
      const [x, y, z] = to.split(' ').map(Number);
      assert.ok((await page.getAttribute(at(x, y, z), 'class')).includes('last'));
      assert.notEqual((await symbolAt(page, x, y, z)).trim(), '');
    }
    // A click explains that moves are made in the terminal, not here.
    await page.click(at(1, 0, 0));
    assert.match(await notice(page), /played elsewhere/);
    assert.deepEqual(errors, []);
  } finally {
    viewer.child.kill();
  }
});

test('a broken currentstate shows its error and the last good board stays', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridarena-live-'));
  const state = path.join(dir, 'currentstate');
  fs.writeFileSync(state, '0\t0\t0\tWKing\n1\t0\t0\tnull\n2\t0\t0\tBKing\n');
  const viewer = await startViewer(['view', dir], os.tmpdir());
  try {
    const { page, errors } = await openApp(browser, viewer.url, undefined, '[data-testid=hc-slice]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=hc-board] button').length === 3);
    // Another program writes a board with one location twice.
    fs.writeFileSync(state, '0 0 0 WKing\n0 0 0 BKing\n');
    await page.waitForFunction(() => /line 2/.test(document.querySelector('[data-testid=hc-notice]').textContent));
    assert.match(await notice(page), /last good board/);
    assert.equal(await page.locator('[data-testid=hc-board] button').count(), 3);
    assert.equal((await symbolAt(page, 2, 0, 0)).trim(), '♚');
    // Mended: the new board shows, one move on from the last good one, and the error goes.
    fs.writeFileSync(state, '0 0 0 null\n1 0 0 WKing\n2 0 0 BKing\n');
    await page.waitForFunction(() => document.querySelector('[data-testid=hc-notice]').textContent === '');
    assert.match(await page.textContent('[data-testid=hc-last]'), /WKing \(0 0 0\) → \(1 0 0\)/);
    assert.match(await status(page), /Black to move/);
    assert.deepEqual(errors, []);
  } finally {
    viewer.child.kill();
  }
});

test('the live view on a static host says that no game is served there, not that it is trying again', async () => {
  // The static server has no stream: the browser refuses it for good and will not try again.
  const { page } = await openApp(browser, `${server.url}#/hyperchess?live`, undefined, '[data-testid=hc-status]');
  await page.waitForFunction(() => /No live game is served here/.test(document.querySelector('[data-testid=hc-notice]').textContent));
  assert.doesNotMatch(await notice(page), /trying again/);
  assert.match(await notice(page), /hyperchess view DIR/);
});

test('a refused AI answer is said once, and the AI is not asked again until the position changes', async () => {
  // Every worker's answer becomes a move from an empty node, which the session refuses. Before, the page
  // asked the same deterministic search again at once, forever.
  const init = () => {
    window.jobs = 0;
    window.Worker = class extends Worker {
      postMessage(m) {
        if (typeof m === 'string') window.jobs += 1;
        super.postMessage(m);
      }
      set onmessage(f) {
        super.onmessage = f && ((e) => f(typeof e.data === 'string' ? new MessageEvent('message', { data: '2 2 2 0 0 0' }) : e));
      }
    };
  };
  const { page } = await openApp(browser, `${server.url}#/hyperchess`, init, '[data-testid=hc-slice]');
  await page.selectOption('[data-testid=hc-map]', { label: 'small 3x3x3' });
  await page.selectOption('[data-testid=hc-opponent]', 'ai-black');
  await page.click('[data-testid=hc-new]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=hc-board] button').length === 27);
  await page.click(at(1, 1, 0));
  await page.click(at(1, 1, 1));
  await page.waitForFunction(() => /the AI's move was refused/.test(document.querySelector('[data-testid=hc-notice]').textContent));
  await page.waitForTimeout(1000);
  assert.equal(await page.evaluate(() => window.jobs), 1);
  assert.match(await notice(page), /the AI's move was refused/);
  // The page no longer says the AI is thinking, and a click says what to do.
  assert.match(await status(page), /Black \(the AI\) could not move/);
  await page.click(at(1, 1, 2));
  assert.match(await notice(page), /start a new game/);
  // A new game is a new position: the AI is asked again.
  await page.selectOption('[data-testid=hc-opponent]', 'ai-white');
  await page.click('[data-testid=hc-new]');
  await page.waitForFunction(() => window.jobs === 2);
});

test('the 3D view draws every node of the standard map, turns, and a click moves a piece', async () => {
  const { page, errors } = await open(browser);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.click('[data-testid=hc-3d-toggle]');
  await page.waitForSelector('[data-testid=hc-3d]');
  const node = (x, y, z) => `[data-testid=hc-3d] .hc-node[data-x="${x}"][data-y="${y}"][data-z="${z}"]`;
  assert.equal(await page.locator('[data-testid=hc-3d] .hc-node').count(), 125);
  assert.equal(await page.locator('[data-testid=hc-3d] .hc-node text:not(:empty)').count(), 40, '20 pieces a side');
  // A drag turns the board: the nodes move on the screen.
  const before = await page.locator(node(2, 3, 0)).boundingBox();
  const svg = await page.locator('[data-testid=hc-3d]').boundingBox();
  await page.mouse.move(svg.x + 20, svg.y + 20);
  await page.mouse.down();
  await page.mouse.move(svg.x + 80, svg.y + 40, { steps: 5 });
  await page.mouse.up();
  const after = await page.locator(node(2, 3, 0)).boundingBox();
  assert.notDeepEqual(before, after);
  // White's pawn in front of the King steps forward, by two clicks as on the flat board.
  await page.click(node(2, 3, 0));
  assert.match(await notice(page), /WPawn at \(2 3 0\) can go to/);
  assert.match(await page.getAttribute(node(2, 2, 0), 'class'), /target/);
  await page.click(node(2, 2, 0));
  assert.match(await status(page), /Black to move/);
  assert.equal((await page.textContent(node(2, 2, 0))).trim(), '♙');
  // The flat board shows the same position.
  await page.click('[data-testid=hc-3d-toggle]');
  assert.equal((await page.textContent(at(2, 2, 0))).trim(), '♙');
  // The 3D board is a part of its own, loaded after the page (src/lazy.rs), never with its first board.
  assert.ok(!fetched.some((p) => p.endsWith('/gridarena-hyperchess_bg.wasm')), fetched.join(' '));
  const part = await page.evaluate(() => performance.getEntriesByType('resource')
    .some((e) => e.name.endsWith('/split/gridarena-hyperchess/split_board3d.wasm')));
  assert.ok(part, 'the 3D board came from dist/split/gridarena-hyperchess/');
  assert.deepEqual(errors, []);
});

test('a person plays the built-in AI, which answers from its worker', async () => {
  const { page, errors } = await open(browser);
  await page.selectOption('[data-testid=hc-map]', { label: 'small 3x3x3' });
  await page.selectOption('[data-testid=hc-opponent]', 'ai-black');
  await page.selectOption('[data-testid=hc-strength]', '0');
  await page.click('[data-testid=hc-new]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=hc-board] button').length === 27);
  assert.match(await notice(page), /the AI plays Black/);
  await page.click(at(1, 1, 0));
  await page.click(at(1, 1, 1));
  // Black's answer comes from the worker; then it is White's turn again.
  await page.waitForFunction(() => /The AI: Black/.test(document.querySelector('[data-testid=hc-notice]').textContent));
  assert.match(await status(page), /White to move/);
  assert.equal(await page.locator('[data-testid=hc-board] button.last').count(), 2);
  assert.deepEqual(errors, [], 'no warning: the worker answered, not the page thread');
});
