// A tournament of students' code on the tournament page (issue 36): code entries handed in as files and
// as a code link; a roster imported as JSON with a Python function entry, a Python course entry, a
// JavaScript entry, one with a syntax error, one that loops for ever and one that tries the network, and
// two house bots. The roll call runs each code entry once; the tournament plays with interpreters reused
// across games, survives a reload, and ends with standings (each code entry's hash), a replay and a
// bundle that carries every entry's code. The same roster through the CLI (`gridarena halma tournament`,
// the debug build) gives a table of the same shape, and each side's bundle resumes in the other. Release
// build, headless Chromium, Pyodide from dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { serveDist, launch, openApp, root, storedGames } from './harness.mjs';

let server, browser;
before(async () => {
  server = await serveDist('/');
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const text = (page, id) => page.textContent(`[data-testid=${id}]`);
const code = (language, format, main, files) => ({ language, format, main, files });

const ROSTER = { entries: [
  { name: 'PyFn', code: code('python', 'function', 'main.py', { 'main.py': read('ai/page/halma_function.py') }) },
  { name: 'Course', code: code('python', 'course', 'halma_course.py', { 'halma_course.py': read('ai/course/halma_course.py') }) },
  { name: 'Js', code: code('javascript', 'function', 'main.js', { 'main.js': read('ai/page/halma_function.js') }) },
  { name: 'Broken', code: code('python', 'function', 'main.py', { 'main.py': 'def move(request):\n    return (\n\nx = 1\n' }) },
  { name: 'Loop', code: code('javascript', 'function', 'main.js', { 'main.js': 'export function move(request) {\n  for (;;) {}\n}\n' }) },
  { name: 'Net', code: code('python', 'function', 'main.py', {
    'main.py': 'import js\n\ndef move(request):\n    js.fetch("http://127.0.0.1:9/")\n    return None\n' }) },
  { name: 'Greedy', player: 'builtin:greedy' },
  { name: 'Search', player: 'builtin:search' },
] };
const CODE = ROSTER.entries.filter((e) => e.code).map((e) => e.name);

async function saved(page, id) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${id}]`)]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tournament-code-')), download.suggestedFilename());
  await download.saveAs(file);
  return fs.readFileSync(file, 'utf8');
}

test('homework comes in as files, a folder of sub-folders and a code link, one entry each, named after it', async () => {
  const { page, errors } = await openApp(browser, `${server.url}#/tournament`, undefined, '[data-testid=entry-name]');
  await page.setInputFiles('[data-testid=code-files]', [
    { name: 'ada.py', mimeType: 'text/x-python', buffer: Buffer.from(read('ai/page/halma_function.py')) },
    { name: 'bo.js', mimeType: 'text/javascript', buffer: Buffer.from(read('ai/page/halma_function.js')) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not code') },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=code-summary]').length === 2);
  assert.match(await text(page, 't-notice'), /2 code entries added: ada, bo\. Not added: notes\.txt: no main file/);
  const summaries = await page.locator('[data-testid=code-summary]').allTextContents();
  assert.match(summaries[0], /^Python · function · \d+ KB · [0-9a-f]{12}$/);
  assert.match(summaries[1], /^JavaScript · function · \d+ KB · [0-9a-f]{12}$/);
  // A roster with code is too big for the link: the address carries none, and says so.
  assert.doesNotMatch(page.url(), /roster=/);
  assert.match(await text(page, 'roster-link-note'), /too much for the page's link/);

  // A student's code link, as the "Write an AI" page makes it: the name comes with it, made distinct.
  const link = await page.evaluate(async (source) => {
    const zip = await import(new URL('./code/zip.js', document.baseURI).href);
    return `${location.origin}/#/code?ai=${await zip.packLink(JSON.stringify({ name: 'Ada', source }))}`;
  }, { lang: 'javascript', format: 'function', main: 'main.js', files: [{ path: 'main.js', text: read('ai/page/halma_function.js') }] });
  await page.fill('[data-testid=code-link-in]', link);
  await page.click('[data-testid=code-link-add]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=code-summary]').length === 3);
  assert.deepEqual(await page.locator('[data-testid=roster] .t-name').allTextContents(), ['ada', 'bo', 'Ada 2']);
  await page.fill('[data-testid=code-link-in]', 'https://example.org/#/code');
  await page.click('[data-testid=code-link-add]');
  assert.match(await text(page, 't-notice'), /not a code link/);

  // Opened read-only: the files with their sizes, the main file shown.
  await page.locator('[data-testid=open-code]').first().click();
  assert.match(await text(page, 'code-view'), /ada's code \(read-only\)/);
  assert.match(await text(page, 'code-text'), /def move\(request\)/);
  await page.click('[data-testid=code-view-close]');
  assert.equal(await page.locator('[data-testid=code-view]').count(), 0);

  // Kept over a reload (IndexedDB: localStorage cannot hold a class's code).
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=code-summary]').length === 3);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a class of code entries: roll call, a tournament with a reload, standings with hashes, replays and the bundle', async () => {
  const { page, errors } = await openApp(browser, `${server.url}#/tournament`, undefined, '[data-testid=entry-name]');
  let workers = 0;
  page.on('worker', () => { workers += 1; });
  await page.setInputFiles('[data-testid=import-roster]', {
    name: 'class.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(ROSTER)),
  });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=roster] li').length === 8);
  assert.equal(await page.locator('[data-testid=code-summary]').count(), 6);
  assert.match(await page.locator('[data-testid=code-summary]').nth(1).textContent(), /^Python · course · \d+ KB/);

  // The course format plays the classic game with the course's camp rules.
  await page.selectOption('[data-testid=format]', 'swiss');
  await page.fill('[data-testid=rounds]', '2');
  await page.selectOption('[data-testid=preset]', 'classic');
  await page.selectOption('[data-testid=camp-rules]', 'course');
  await page.fill('[data-testid=tick]', '1000');
  await page.fill('[data-testid=turns]', '10');
  await page.fill('[data-testid=concurrency]', '2');
  await page.check('[data-testid=code-only]');

  // The roll call: each code entry runs once on the start position in its own worker.
  await page.click('[data-testid=roll-call-run]');
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid=roll-entry]')];
    return rows.length === 8 && rows.every((e) => /green|red/.test(e.className));
  }, null, { timeout: 100_000 });
  const rows = page.locator('[data-testid=roll-entry]');
  const roll = {};
  for (let i = 0; i < 8; i++) {
    roll[await rows.nth(i).locator('.t-name').textContent()] =
      { green: /green/.test(await rows.nth(i).getAttribute('class')), said: await rows.nth(i).textContent() };
  }
  for (const name of ['PyFn', 'Course', 'Js']) {
    assert.ok(roll[name].green, roll[name].said);
    assert.match(roll[name].said, /moved \(\d+,\d+\).* in \d+ ms/, roll[name].said);
  }
  for (const name of ['Greedy', 'Search']) assert.ok(roll[name].green, roll[name].said);
  assert.ok(!roll.Broken.green);
  assert.match(roll.Broken.said, /syntax error.*line 2/, roll.Broken.said);
  assert.ok(!roll.Loop.green);
  assert.match(roll.Loop.said, /no answer within 3000 ms/, roll.Loop.said);
  assert.ok(!roll.Net.green);
  assert.match(roll.Net.said, /network/, roll.Net.said);

  // Everyone plays: a broken entry loses its games, it does not stop the tournament.
  await page.click('[data-testid=start]');
  await page.waitForSelector('[data-testid=t-status]');
  await page.waitForFunction(() => /^Round \d+ of \d+: [2-9] of 8/.test(document.querySelector('[data-testid=t-status]').textContent),
    null, { timeout: 120_000 });
  // A reload mid-tournament resumes it from the browser's storage. The bundle is stored after each game
  // without blocking the page, so a game that finished a moment before the reload may not be in it yet:
  // it is played again from its seed, as every game in progress is. Two games can end on the same tick,
  // so the reload waits until the stored bundle holds a finished game, which must then stay.
  await page.waitForFunction(storedGames, 1, { timeout: 30_000 });
  await page.reload();
  await page.waitForSelector('[data-testid=t-status]');
  const resumed = await text(page, 't-status');
  assert.match(resumed, /[1-9] of 8 games finished|is over/, resumed);
  await page.waitForFunction(() => /is over/.test(document.querySelector('[data-testid=t-status]').textContent),
    null, { timeout: 150_000 });
  assert.match(await text(page, 't-status'), /8 of 8 games finished/);
  assert.ok(workers > 0, 'code entries run in workers');

  // Standings with every entry, each code entry with its hash.
  assert.equal(await page.locator('[data-testid=standings-row]').count(), 8);
  const hashes = await page.locator('[data-testid=standings-hash]').allTextContents();
  assert.equal(hashes.length, 6);
  for (const h of hashes) assert.match(h, /^[0-9a-f]{12}$/);

  // A replay opens from the bundle's records.
  await page.locator('[data-testid=replay]').first().click();
  await page.waitForSelector('[data-testid=replay-view] [data-testid=board] .cell');

  // The bundle carries every entry's code, as it was handed in.
  const bundle = JSON.parse(await saved(page, 'export-bundle'));
  assert.equal(bundle.games.length, 8);
  assert.equal(bundle.settings.codeOnly, true);
  const entries = Object.fromEntries(bundle.roster.entries.map((e) => [e.name, e]));
  for (const e of ROSTER.entries.filter((x) => x.code)) {
    const got = entries[e.name].code;
    assert.equal(got.main, e.code.main, e.name);
    assert.equal(got.files[e.code.main], e.code.files[e.code.main], e.name);
  }
  assert.equal(CODE.length, 6);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_|net::/.test(e)), []);
  await page.close();
});

// Hangs on its second move only (the mini board alternates, so a player is asked at turn 1 or turn 2,
// not both): a function entry's module state is lost when its worker is killed, so the turn in the
// request is what makes it hang once.
const HANG_ONCE = `${read('ai/page/halma_function.py')}

_play = move


def move(request):
    if request["turn"] in (1, 2):
        while True:
            pass
    return _play(request)
`;

test('a code entry whose move hangs once plays its next move: the tick waits for its fresh worker', async () => {
  const { page, errors } = await openApp(browser, `${server.url}#/tournament`, undefined, '[data-testid=entry-name]');
  const roster = { entries: [
    { name: 'HangOnce', code: code('python', 'function', 'main.py', { 'main.py': HANG_ONCE }) },
    { name: 'Greedy', player: 'builtin:greedy' },
  ] };
  await page.setInputFiles('[data-testid=import-roster]', {
    name: 'hang.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(roster)),
  });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=roster] li').length === 2);
  // Ticks of 1 s: reloading Python after the hang takes longer (3 to 7 s), so a tick that did not wait
  // for it would cut the next move off too, and restart it again, and so on to the game's end.
  await page.selectOption('[data-testid=format]', 'round-robin');
  await page.selectOption('[data-testid=preset]', 'mini');
  await page.fill('[data-testid=tick]', '1000');
  await page.fill('[data-testid=turns]', '8');
  await page.selectOption('[data-testid=policy]', 'lenient');
  await page.click('[data-testid=start]');
  await page.waitForSelector('[data-testid=t-status]');
  await page.waitForFunction(() => /is over/.test(document.querySelector('[data-testid=t-status]').textContent),
    null, { timeout: 120_000 });

  await page.locator('[data-testid=replay]').first().click();
  await page.waitForSelector('[data-testid=replay-view] [data-testid=board] .cell');
  const lines = (await saved(page, 'download-record')).trim().split('\n').map((l) => JSON.parse(l));
  const ticks = lines.filter((l) => l.type === 'tick').map((l) => l.outcome);
  assert.equal(ticks.length, 8);
  const said = JSON.stringify(ticks.map((t) => [t.turn, t.movers, t.moves.map((m) => m.team), t.errors]));
  // The second or third tick (a tick's turn counts it) is the only one cut off.
  const hung = ticks.filter((t) => t.errors.some((e) => e.code === 'timed_out'));
  assert.equal(hung.length, 1, said);
  assert.ok([2, 3].includes(hung[0].turn), said);
  const team = hung[0].errors.find((e) => e.code === 'timed_out').team;
  // Its moves after it are all played, the first once its fresh worker had loaded.
  const after = ticks.filter((t) => t.turn > hung[0].turn && t.movers.includes(team));
  assert.ok(after.length >= 2, said);
  for (const t of after) {
    assert.deepEqual(t.errors, [], said);
    assert.ok(t.moves.some((m) => m.team === team), said);
  }
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_|net::/.test(e)), []);
  await page.close();
});

/** `bundle` (text) with only its first `k` games, cut as text: its seeds are 64-bit integers, which
 * JSON.parse and JSON.stringify in JavaScript would round (the page and the CLI read them exactly). */
function firstGames(bundle, k) {
  const start = bundle.lastIndexOf('"games":[') + '"games":['.length;
  const ends = []; // where each game ends
  let depth = 0, inString = false, i = start;
  for (; i < bundle.length; i++) {
    const c = bundle[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) break; // the array's end
      if (--depth === 0) ends.push(i);
    }
  }
  return bundle.slice(0, k === 0 ? start : ends[k - 1] + 1) + bundle.slice(i);
}

test('the same roster through the CLI: a table of the same shape, and each bundle resumes in the other', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tournament-cross-'));
  const bin = path.join(root, 'target', 'debug', 'gridarena');
  const cli = (args) => spawnSync(bin, ['halma', 'tournament', ...args], { encoding: 'utf8', timeout: 240_000 });
  const roster = path.join(dir, 'class.json');
  fs.writeFileSync(roster, JSON.stringify(ROSTER));
  const played = path.join(dir, 'cli');
  const run = cli([roster, '--format', 'swiss', '--rounds', '2', '--preset', 'classic', '--camp-rules', 'course',
    '--tick-ms', '1000', '--max-turns', '10', '--concurrency', '2', '--code-only', '--seed', '7', '--out', played]);
  assert.equal(run.status, 0, run.stderr);
  const cliCsv = fs.readFileSync(path.join(played, 'standings.csv'), 'utf8').trim().split('\n');
  const cliText = fs.readFileSync(path.join(played, 'bundle.json'), 'utf8');
  const cliBundle = JSON.parse(cliText);
  assert.equal(cliBundle.games.length, 8);

  // The CLI's bundle, cut back to its first three games (a tournament stopped half-way), resumes in the
  // page from the file alone: every entry's code comes with it.
  const { page, errors } = await openApp(browser, `${server.url}#/tournament`, undefined, '[data-testid=entry-name]');
  // Given as a roster, a tournament says what it is.
  await page.setInputFiles('[data-testid=import-roster]', {
    name: 'bundle.json', mimeType: 'application/json', buffer: Buffer.from(cliText),
  });
  // The file is read asynchronously: wait for its notice rather than reading it at once.
  await page.waitForFunction(() => /bundle\.json/.test(document.querySelector('[data-testid=t-notice]')?.textContent ?? ''));
  assert.match(await text(page, 't-notice'), /bundle\.json is a tournament, not a roster: continue it with "Resume a tournament"/);
  await page.setInputFiles('[data-testid=resume-bundle]', {
    name: 'bundle.json', mimeType: 'application/json',
    buffer: Buffer.from(firstGames(cliText, 3)),
  });
  await page.waitForFunction(() => /Resumed|resume|bundle\.json:/.test(document.querySelector('[data-testid=t-notice]').textContent));
  assert.match(await text(page, 't-notice'), /Resumed bundle\.json: 3 of 8 games already played/);
  await page.waitForFunction(() => /is over/.test(document.querySelector('[data-testid=t-status]').textContent),
    null, { timeout: 150_000 });
  assert.match(await text(page, 't-status'), /8 of 8 games finished/);
  assert.equal((await page.locator('[data-testid=standings-hash]').allTextContents()).length, 6);

  // The page's table has the CLI's shape: the same columns, a row per entry, the same entries.
  const pageCsv = (await saved(page, 'export-csv')).trim().split('\n');
  assert.equal(pageCsv[0], cliCsv[0]);
  assert.equal(pageCsv.length, cliCsv.length);
  const names = (rows) => rows.slice(1).map((r) => r.split(',')[1]).sort();
  assert.deepEqual(names(pageCsv), names(cliCsv));

  // The page's bundle, cut back to five games, resumes in the CLI given in place of the roster.
  const pageText = await saved(page, 'export-bundle');
  const pageBundle = JSON.parse(pageText);
  assert.equal(pageBundle.games.length, 8);
  assert.deepEqual(pageBundle.games.slice(0, 3), cliBundle.games.slice(0, 3));
  const exported = path.join(dir, 'tournament.json');
  fs.writeFileSync(exported, firstGames(pageText, 5));
  assert.equal(JSON.parse(firstGames(pageText, 5)).games.length, 5);
  const back = cli([exported, '--out', path.join(dir, 'back')]);
  assert.equal(back.status, 0, back.stderr);
  assert.match(back.stderr, /resuming: 5 of 8 games already played/);
  const finished = JSON.parse(fs.readFileSync(path.join(dir, 'back', 'bundle.json'), 'utf8'));
  assert.equal(finished.games.length, 8);
  assert.equal(fs.readFileSync(path.join(dir, 'back', 'standings.csv'), 'utf8').split('\n')[0], cliCsv[0]);

  assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_|net::/.test(e)), []);
  await page.close();
});
