// Code players in the page (docs/code-players.md): students' Python (Pyodide) and JavaScript AIs run in
// Web Workers of the page, play whole games in the arena, fail by name without stopping the game, and
// are written, tested, saved, shared and played from the "Write an AI" page. Release build, headless
// Chromium, Pyodide from dist/ (nothing from the network).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openApp, root } from './harness.mjs';
import { startHostile } from './hostile.mjs';

let server, browser;
before(async () => {
  server = await serveDist('/sub/');
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const fixture = (file) => read(`tests/fixtures/code/${file}`);
const GREEDY_PY = read('ai/page/halma_function.py');
const GREEDY_JS = read('ai/page/halma_function.js');
const COURSE_PY = read('ai/course/halma_course.py');

/** An AI as the page keeps it. */
function ai(name, lang, format, main, files) {
  return { name, draft: { lang, format, main, files }, versions: [] };
}

/** Opens `hash` with `ais` kept in the browser's storage. */
async function openWith(ais, hash, ready) {
  // Once per tab: a reload keeps what the page itself has kept since.
  const init = `if (!sessionStorage.getItem('seeded')) {
    localStorage.setItem('gridarena.code.ais', ${JSON.stringify(JSON.stringify(ais))});
    sessionStorage.setItem('seeded', '1');
  }`;
  return openApp(browser, server.url + hash, init, ready);
}

const messages = (page) => page.textContent('[data-testid=messages]');
const turnOf = async (page) => Number(/turn (\d+)/.exec(await page.textContent('[data-testid=game-info]'))[1]);

// A tick long enough for a code player to answer on a busy machine (load 4 on 2 cores), where a test asserts
// that no move of it failed: Step ends as soon as both answers are in, so it costs nothing unless one is slow.
const ROOMY = '3000';
const ended = (text) => /HALMATE|turn limit/.test(text);

/** Plays the game on the page Step by Step (ROOMY ticks) until it ends, within `timeout` ms; returns the
 *  message field. */
async function playToTheEnd(page, timeout) {
  await page.locator('[data-testid=speed]').fill(ROOMY);
  const until = Date.now() + timeout;
  const left = () => { assert.ok(Date.now() < until, `the game ended within ${timeout} ms`); return until - Date.now(); };
  while (!ended(await messages(page))) {
    const turn = await turnOf(page);
    await page.click('[data-testid=step]', { timeout: left() });
    await page.waitForFunction((t) => /HALMATE|turn limit/.test(document.querySelector('[data-testid=messages]').textContent)
      || Number(/turn (\d+)/.exec(document.querySelector('[data-testid=game-info]').textContent)[1]) > t,
    turn, { timeout: left() });
  }
  return messages(page);
}

test('a Python function AI plays a whole game in the arena, its output in the inspector', async () => {
  const py = ai('py', 'python', 'function', 'main.py', [{ path: 'main.py', text: GREEDY_PY }]);
  const { page, errors } = await openWith([py], '?red=code%3Apy&blue=builtin%3Agreedy&preset=mini');
  await page.fill('[data-testid=seed]', '4');
  await page.click('[data-testid=new-game]');
  const text = await playToTheEnd(page, 120_000);
  assert.match(text, /HALMATE/);
  assert.doesNotMatch(text, /Error, red/, text);
  // What move() printed is kept with the exchange.
  await page.click('[data-testid=inspector] summary');
  assert.match(await page.textContent('[data-testid=exchange-red] [data-testid=inspector-output]'), /turn \d+: \(/);
  assert.match(await page.textContent('[data-testid=exchange-red] h3'), /code:py/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the course starter, unchanged, plays the classic game as a course-format code player', async () => {
  const course = ai('hw', 'python', 'course', 'halma_course.py', [{ path: 'halma_course.py', text: COURSE_PY }]);
  const { page, errors } = await openWith([course],
    '?red=code%3Ahw&blue=builtin%3Agreedy&preset=classic&camp=course&first=red&turns=24');
  await page.click('[data-testid=new-game]');
  const text = await playToTheEnd(page, 150_000);
  assert.match(text, /turn limit|HALMATE/);
  assert.doesNotMatch(text, /Error, red/, text);
  // The inspector shows input.txt as what the program was given, and output.txt as its answer (tick 23
  // is red's: red moves on the odd ticks).
  await page.click('[data-testid=inspector] summary');
  await page.fill('[data-testid=inspector-tick]', '23');
  await page.press('[data-testid=inspector-tick]', 'Enter');
  assert.match(await page.textContent('[data-testid=exchange-red] [data-testid=inspector-request]'), /^GAME\nBLACK\n/);
  assert.match(await page.textContent('[data-testid=exchange-red] [data-testid=inspector-answer]'), /^[EJ] \d+,\d+ \d+,\d+/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a JavaScript AI plays a whole game in the arena', async () => {
  const js = ai('js', 'javascript', 'function', 'main.js', [{ path: 'main.js', text: GREEDY_JS }]);
  const { page, errors } = await openWith([js], '?red=builtin%3Agreedy&blue=code%3Ajs&preset=mini');
  await page.fill('[data-testid=seed]', '7');
  await page.click('[data-testid=new-game]');
  const text = await playToTheEnd(page, 60_000);
  assert.match(text, /HALMATE/);
  assert.doesNotMatch(text, /Error, blue/, text);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the arena downloads the code players\' module only once one is chosen, from the menu', async () => {
  const js = ai('js', 'javascript', 'function', 'main.js', [{ path: 'main.js', text: GREEDY_JS }]);
  const { page, errors } = await openWith([js], '?red=builtin%3Agreedy&blue=builtin%3Agreedy&preset=mini');
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /turn 1\b/.test((document.querySelector('[data-testid=game-info]')?.textContent ?? '')));
  assert.ok(!fetched.some((p) => /gridarena-code|\/code\/|pyodide/.test(p)), fetched.join(' '));
  // The menu lists the AI kept in this browser; choosing it loads the module, and it plays.
  await page.selectOption('[data-testid=player-blue]', 'code:js');
  await page.fill('[data-testid=seed]', '4');
  await page.click('[data-testid=new-game]');
  const text = await playToTheEnd(page, 60_000);
  assert.match(text, /HALMATE/);
  assert.doesNotMatch(text, /Error, blue/, text);
  assert.ok(fetched.some((p) => p.endsWith('/gridarena-code_bg.wasm')), fetched.join(' '));
  assert.deepEqual(errors, []);
  await page.close();
});

test('every failure of a Python AI is named and the game goes on', async () => {
  const bad = ai('bad', 'python', 'function', 'main.py', [
    { path: 'main.py', text: fixture('misbehaving.py') },
    { path: 'greedy.py', text: GREEDY_PY },
  ]);
  const broken = ai('broken', 'python', 'function', 'main.py', [{ path: 'main.py', text: fixture('broken.py') }]);
  const hang = ai('hang', 'python', 'function', 'main.py',
    [{ path: 'main.py', text: 'while True:\n    pass\n\ndef move(request):\n    return None\n' }]);
  const { page } = await openWith([bad, broken, hang], '?red=code%3Abad&blue=builtin%3Agreedy');
  await page.locator('[data-testid=speed]').fill('3000');
  await page.fill('[data-testid=seed]', '3');
  await page.click('[data-testid=new-game]');
  // Six steps: each turn misbehaves another way (tests/fixtures/code/misbehaving.py).
  for (let i = 1; i <= 6; i++) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((n) => new RegExp(`turn ${n}\\b`)
      .test((document.querySelector('[data-testid=game-info]')?.textContent ?? '')), i, { timeout: 60_000 });
  }
  const text = await messages(page);
  assert.match(text, /Error, red: no move: the code raised an exception: .*ZeroDivisionError: division by zero/s);
  assert.match(text, /File "main\.py", line \d+, in move/);
  assert.match(text, /Error, red: no move: the code tried to reach the network \(fetch/);
  assert.match(text, /Error, red: no move: no answer: timed out after 3000 ms/);
  assert.match(text, /Error, red: no move: out of memory/);
  // The 10 MB print (tick 4, the request's turn 3) was cut, and its move still counted.
  await page.click('[data-testid=inspector] summary');
  await page.fill('[data-testid=inspector-tick]', '4');
  await page.press('[data-testid=inspector-tick]', 'Enter');
  const out = await page.textContent('[data-testid=exchange-red] [data-testid=inspector-output]');
  assert.match(out, /^x{100}/);
  assert.match(out, /… 99\d{5} more characters not kept\s*$/);
  assert.match(await page.textContent('[data-testid=exchange-red] [data-testid=inspector-verdict]'), /^enacted/);
  // Blue played on throughout: the game went on.
  assert.ok(await turnOf(page) >= 6);

  // A syntax error is found before the game starts, with its file, line and column.
  await page.selectOption('[data-testid=player-red]', 'code:broken');
  await page.click('[data-testid=new-game]');
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /syntax error/.test(document.querySelector('[data-testid=messages]').textContent),
    null, { timeout: 60_000 });
  assert.match(await messages(page), /Error, red: no move: syntax error: main\.py line 1, column \d+/);

  // An endless loop at the top level cannot hold the game up: the code is given up on after 20 s, and
  // the game goes on.
  await page.selectOption('[data-testid=player-red]', 'code:hang');
  await page.click('[data-testid=new-game]');
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent),
    null, { timeout: 90_000 });
  assert.match(await messages(page), /Error, red: no move: the code could not start: the code was not ready 20 s after/);
  await page.close();
});

test('Python reaches no network in the worker, through what Pyodide kept or any other way', async () => {
  const hostile = await startHostile();
  try {
    const url = hostile.url('/good');
    // Each turn tries one way (and catches the error): a synchronous XMLHttpRequest through pyodide.http's
    // own (it would return the body at once), pyodide.http's private fetch, the worker's prototype, code
    // built from strings, Pyodide's own Function, the package loader, navigator.storage.
    const ways = [
      'from pyodide.http import pyxhr\n    print(pyxhr.get(URL).text)',
      'from pyodide.http import _pyfetch\n    _pyfetch._jsfetch(URL)',
      'import js\n    x = js.XMLHttpRequest.new()\n    x.open("GET", URL, False)\n    x.send()',
      // the first prototype of the worker's global that holds a fetch, if one does
      'import js\n    o = js.Object.getPrototypeOf(js.self)\n    while o and not js.Object.prototype.hasOwnProperty.call(o, "fetch"):\n        o = js.Object.getPrototypeOf(o)\n    (o or js.self).fetch(URL)',
      'from pyodide.code import run_js\n    run_js("fetch(\'" + URL + "\')")',
      'import pyodide_js\n    pyodide_js._api.tests.Function("return fetch")()(URL)',
      'import pyodide_js\n    pyodide_js.loadPackage(URL)',
      'import js\n    js.navigator.storage.getDirectory()',
    ];
    const branches = ways.map((w, i) => `    if way == ${i}:\n${w.split('\n').map((l) => `        ${l.replace(/^ {4}/, '')}\n`).join('')}`);
    const text = `from greedy import move as greedy\nURL = ${JSON.stringify(url)}\n\ndef attempt(way):\n${branches.join('')}\ndef move(request):\n    try:\n        attempt(request["turn"])\n    except BaseException as e:\n        print("caught", type(e).__name__)\n    return greedy(request)\n`;
    const net = ai('net', 'python', 'function', 'main.py', [{ path: 'main.py', text }, { path: 'greedy.py', text: GREEDY_PY }]);
    const { page, errors } = await openWith([net], '?red=code%3Anet&blue=builtin%3Agreedy');
    await page.locator('[data-testid=speed]').fill('5000');
    await page.click('[data-testid=new-game]');
    for (let i = 1; i <= ways.length; i++) {
      await page.click('[data-testid=step]');
      await page.waitForFunction((n) => new RegExp(`turn ${n}\\b`)
        .test((document.querySelector('[data-testid=game-info]')?.textContent ?? '')), i, { timeout: 60_000 });
    }
    const said = await messages(page);
    const refused = said.match(/Error, red: no move: the code tried to reach the network/g) ?? [];
    assert.equal(refused.length, ways.length, said);
    assert.deepEqual(hostile.log, [], 'nothing reached the server');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    hostile.close();
  }
});

test('a hang costs one move: the next tick waits for the fresh worker', async () => {
  // Loops at the request's turn 5 (tick 6), plays the starter's greedy move at every other.
  const loops = ai('loops', 'python', 'function', 'main.py', [
    { path: 'main.py', text: 'from greedy import move as greedy\n\ndef move(request):\n    if request["turn"] == 5:\n        while True:\n            pass\n    return greedy(request)\n' },
    { path: 'greedy.py', text: GREEDY_PY },
  ]);
  const { page, errors } = await openWith([loops], '?red=code%3Aloops&blue=builtin%3Agreedy');
  await page.fill('[data-testid=seed]', '5');
  await page.click('[data-testid=new-game]');
  // Step by Step to turn 9, each tick with room for a busy machine: only the hang may time out.
  await page.locator('[data-testid=speed]').fill(ROOMY);
  for (let n = 1; n <= 9; n++) {
    await page.click('[data-testid=step]', { timeout: 60_000 });
    await page.waitForFunction((k) => new RegExp(`turn ${k}$`).test(document.querySelector('[data-testid=game-info]').textContent),
      n, { timeout: 60_000 });
  }
  const text = await messages(page);
  assert.equal((text.match(/Error, red/g) ?? []).length, 1, text);
  assert.match(text, /Error, red: no move: no answer: timed out after 3000 ms/);
  // The timed-out move is tick 6's; tick 7 waited for the fresh worker and was answered.
  await page.click('[data-testid=inspector] summary');
  for (const [tick, verdict] of [[6, /^timed out/], [7, /^enacted/]]) {
    await page.fill('[data-testid=inspector-tick]', String(tick));
    await page.press('[data-testid=inspector-tick]', 'Enter');
    assert.match(await page.textContent('[data-testid=exchange-red] [data-testid=inspector-verdict]'), verdict, `tick ${tick}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the editor page: a new AI is tested, saved, kept over a reload, shared by link and played', async () => {
  const { page, errors } = await openApp(browser, `${server.url}#/code`, undefined, '[data-testid=code-page]');
  // Before any AI, the editor's place says what to do, naming the form, not its side: the list is at the
  // left on a wide screen and above on a phone.
  const empty = await page.textContent('[data-testid=code-empty]');
  assert.match(empty, /New AI form: choose a starter and press Create/);
  assert.doesNotMatch(empty, /\b(left|right|above|below)\b/i);
  await page.fill('[data-testid=new-ai-name]', 'Ada');
  await page.selectOption('[data-testid=new-ai-template]', 'python');
  await page.click('[data-testid=new-ai-create]');
  await page.waitForSelector('[data-testid=editor] .cm-content');
  assert.match(await page.textContent('[data-testid=editor] .cm-content'), /def move\(request\)/);

  // A change in the editor is kept at once: a reload finds it.
  await page.click('[data-testid=editor] .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n# my change\n');
  await page.click('[data-testid=code-save]');
  assert.match(await page.textContent('[data-testid=code-notice]'), /Saved Ada v1/);
  await page.reload();
  await page.waitForSelector('[data-testid=editor] .cm-content');
  assert.match(await page.textContent('[data-testid=editor] .cm-content'), /# my change/);
  assert.match(await page.textContent('[data-testid=code-versions] summary'), /\(1\)/);
  // Typing is kept a moment after the last key, or when the page is left: a reload at once loses nothing.
  await page.click('[data-testid=editor] .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# typed, then reloaded at once\n');
  await page.reload();
  await page.waitForSelector('[data-testid=editor] .cm-content');
  assert.match(await page.textContent('[data-testid=editor] .cm-content'), /# typed, then reloaded at once/);

  // Test: the doctor's four positions, each legal.
  await page.click('[data-testid=code-test]');
  await page.waitForFunction(() => /positions passed/.test(
    document.querySelector('[data-testid=code-test-status]').textContent), null, { timeout: 90_000 });
  assert.match(await page.textContent('[data-testid=code-test-status]'), /4 of 4 positions passed/);
  assert.equal(await page.locator('[data-testid=code-finding].passed').count(), 4);

  // A link carries the code; opened in a fresh browser it makes the same AI.
  await page.click('[data-testid=code-share]');
  const link = await page.inputValue('[data-testid=code-link]');
  assert.match(link, /#\/code\?ai=/);
  const other = await browser.newContext();
  const fresh = await other.newPage();
  await fresh.goto(link);
  await fresh.waitForSelector('[data-testid=editor] .cm-content');
  assert.match(await fresh.textContent('[data-testid=code-notice]'), /Opened the AI from the link as "Ada"/);
  assert.match(await fresh.textContent('[data-testid=editor] .cm-content'), /# my change/);
  await other.close();

  // Play: the arena with this AI against the opponent chosen.
  await page.selectOption('[data-testid=code-opponent]', 'code:Ada@v1');
  await page.click('[data-testid=code-play]');
  await page.waitForSelector('[data-testid=board] .cell');
  assert.equal(await page.inputValue('[data-testid=player-red]'), 'code:Ada');
  assert.equal(await page.inputValue('[data-testid=player-blue]'), 'code:Ada@v1');
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => /Turn 1/.test(document.querySelector('[data-testid=messages]').textContent),
    null, { timeout: 60_000 });
  assert.doesNotMatch(await messages(page), /Error/);

  // Ask about this position: the inspector opens the position before tick 1 on the editor's page, where
  // an AI is asked about it, with the referee's verdict.
  await page.click('[data-testid=inspector] summary');
  const [asking] = await Promise.all([
    page.waitForEvent('popup'),
    page.click('[data-testid=exchange-blue] [data-testid=inspector-ask]'),
  ]);
  await asking.waitForSelector('[data-testid=ask-panel]');
  assert.match(await asking.textContent('[data-testid=ask-panel]'), /turn 0/);
  assert.equal(await asking.inputValue('[data-testid=ask-team]'), 'blue');
  await asking.selectOption('[data-testid=ask-ai]', 'code:Ada@v1');
  await asking.click('[data-testid=ask-go]');
  await asking.waitForSelector('[data-testid=ask-verdict]', { timeout: 60_000 });
  assert.match(await asking.textContent('[data-testid=ask-verdict]'), /^legal: /);
  assert.match(await asking.textContent('[data-testid=ask-result]'), /Printed.*turn 0:/s);
  await asking.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a multi-file Python AI with a pickled table, imported as a .zip, passes its tests and plays', async () => {
  // bot/main.py, bot/greedy.py, bot/lib/strategy.py and bot/table.pkl (a pickled dict), zipped by Python.
  const zip = execFileSync('python3', ['-c', `
import io, pickle, sys, zipfile
out = io.BytesIO()
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("bot/main.py", open(sys.argv[1]).read())
    z.writestr("bot/greedy.py", open(sys.argv[2]).read())
    z.writestr("bot/lib/strategy.py", open(sys.argv[3]).read())
    z.writestr("bot/table.pkl", pickle.dumps({"play": True, "say": "hello from the pickle"}))
sys.stdout.buffer.write(out.getvalue())
`, path.join(root, 'tests/fixtures/code/multi_main.py'), path.join(root, 'ai/page/halma_function.py'),
  path.join(root, 'tests/fixtures/code/lib/strategy.py')]);
  const { page, errors } = await openApp(browser, `${server.url}#/code`, undefined, '[data-testid=code-page]');
  await page.setInputFiles('[data-testid=code-import]',
    [{ name: 'bot.zip', mimeType: 'application/zip', buffer: zip }]);
  await page.waitForFunction(() => /Imported/.test(document.querySelector('[data-testid=code-notice]').textContent));
  assert.match(await page.textContent('[data-testid=code-files]'), /main\.py \(main\).*table\.pkl \(\d+ bytes\)/s);
  await page.click('[data-testid=code-test]');
  await page.waitForFunction(() => /positions passed/.test(
    document.querySelector('[data-testid=code-test-status]').textContent), null, { timeout: 90_000 });
  assert.match(await page.textContent('[data-testid=code-test-status]'), /4 of 4/);
  assert.match(await page.textContent('[data-testid=code-findings]'), /table says hello from the pickle/);
  // And it plays a game in the arena.
  await page.click('[data-testid=code-play]');
  await page.waitForSelector('[data-testid=board] .cell');
  assert.equal(await page.inputValue('[data-testid=player-red]'), 'code:bot');
  const text = await playToTheEnd(page, 120_000);
  assert.doesNotMatch(text, /Error, red/, text);
  assert.deepEqual(errors, []);
  await page.close();
});
