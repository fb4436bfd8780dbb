// End-to-end tests of the HyperChess page on the release build, in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
