// A whole game between the two starter AIs (ai/python against ai/php), played through the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openApp, startAi } from './harness.mjs';
import { closedPort } from './hostile.mjs';

let server, browser;
const children = [];

before(async () => {
  server = await serveDist('/');
  browser = await launch();
});
after(async () => {
  for (const c of children) c.kill();
  await browser?.close();
  server?.close();
});

test('the Python starter plays a whole mini game against the PHP starter through the page', async () => {
  const [py, php] = [await closedPort(), await closedPort()];
  const pyUrl = `http://127.0.0.1:${py}/`;
  const phpUrl = `http://127.0.0.1:${php}/`;
  children.push(await startAi('python3', ['ai/python/halma_ai.py', '--port', String(py)], pyUrl));
  children.push(await startAi('php', ['-S', `127.0.0.1:${php}`, 'ai/php/index.php'], phpUrl));

  const { page, errors } = await openApp(browser, `${server.url}?red=${encodeURIComponent(pyUrl)}`
    + `&blue=${encodeURIComponent(phpUrl)}&preset=mini`);
  await page.fill('[data-testid=seed]', '3');
  await page.click('[data-testid=new-game]');
  // Every tick must be answered (no errors, below), so each has room for a busy machine (load 4 on 2
  // cores) to run both servers: Step by Step, each ending as soon as both answers are in, until the end.
  await page.locator('[data-testid=speed]').fill('3000');
  const over = () => /HALMATE|a draw/.test(document.querySelector('[data-testid=messages]').textContent);
  const started = Date.now();
  while (!(await page.evaluate(over))) {
    assert.ok(Date.now() - started < 180_000, 'the game ended within 3 minutes');
    const turn = Number(/turn (\d+)/.exec(await page.textContent('[data-testid=game-info]'))[1]);
    await page.click('[data-testid=step]');
    await page.waitForFunction((t) => /HALMATE|a draw/.test(document.querySelector('[data-testid=messages]').textContent)
      || Number(/turn (\d+)/.exec(document.querySelector('[data-testid=game-info]').textContent)[1]) > t,
    turn, { timeout: 30_000 });
  }

  // Every tick of the record: a move from the side to move, and no error at all.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rec-')), 'game.jsonl');
  await download.saveAs(file);
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines[0].players.red, pyUrl);
  assert.equal(lines[0].players.blue, phpUrl);
  const ticks = lines.filter((l) => l.type === 'tick');
  assert.ok(ticks.length > 10, `${ticks.length} ticks: ${await page.textContent("[data-testid=messages]")}`);
  for (const t of ticks) {
    assert.deepEqual(t.outcome.errors, [], `turn ${t.outcome.turn}`);
    assert.equal(t.outcome.moves.length, 1, `turn ${t.outcome.turn}`);
  }
  assert.equal(lines.at(-1).type, 'result');
  assert.match(await page.textContent('[data-testid=latency]'), /red: \d+ ms .* blue: \d+ ms/);
  assert.deepEqual(errors, []);
  await page.close();
});
