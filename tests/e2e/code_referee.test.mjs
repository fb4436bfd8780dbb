// The page is the only referee of a code player's numbers (docs/code-players.md): a worker shares its
// realm with the student's code, so whatever the code does to the runtime there (replacing
// performance.now, String.prototype.slice), the page times each move itself and keeps no more printed
// output than its own cap. Release build, headless Chromium, Pyodide from dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp } from './harness.mjs';

let server, browser;
before(async () => {
  server = await serveDist('/sub/');
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

/** An AI as the page keeps it: one file. */
function ai(name, lang, format, main, text) {
  return { name, draft: { lang, format, main, files: [{ path: main, text }] }, versions: [] };
}

/** Opens `hash` with `ais` kept in the browser's storage. */
async function openWith(ais, hash) {
  const init = `if (!sessionStorage.getItem('seeded')) {
    localStorage.setItem('gridarena.code.ais', ${JSON.stringify(JSON.stringify(ais))});
    sessionStorage.setItem('seeded', '1');
  }`;
  return openApp(browser, server.url + hash, init);
}

/** What red's code printed at tick `tick`, from the inspector. */
async function printedAt(page, tick) {
  await page.fill('[data-testid=inspector-tick]', String(tick));
  await page.press('[data-testid=inspector-tick]', 'Enter');
  return page.textContent('[data-testid=exchange-red] [data-testid=inspector-output]');
}

test('printed output is capped by the page, whatever the code does to the worker\'s strings', async () => {
  const loud = ai('loud', 'javascript', 'function', 'main.js', `
String.prototype.slice = function () { return String(this); };
export function move(request) {
  console.log('x'.repeat(1 << 20));
  return null;
}
`);
  const { page, errors } = await openWith([loud], '?red=code%3Aloud&blue=builtin%3Agreedy&preset=mini&first=red');
  await page.click('[data-testid=inspector] summary');
  // Red's first move may come while its worker still loads: step until red has answered with its print.
  const output = '[data-testid=exchange-red] [data-testid=inspector-output]';
  for (let step = 0; step < 8 && !(await page.$(output)); step++) {
    await page.click('[data-testid=step]');
    await page.waitForSelector(output, { timeout: 10_000 }).catch(() => {});
  }
  const printed = await page.textContent(output);
  assert.ok(printed.length < 9_000, `the page kept ${printed.length} characters of what the code printed`);
  assert.match(printed, /more characters not kept/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a course move is charged the page\'s time, even where the code stopped the worker\'s clock', async () => {
  // Each move says the time left it was given, stops performance.now in its worker, and spins 1.2 s.
  const frozen = ai('frozen', 'python', 'course', 'main.py', `
import time
lines = open('input.txt').read().split('\\n')
print('time left', lines[2])
try:
    import js
    from pyodide.ffi import create_proxy
    js.performance.now = create_proxy(lambda *a: 0)
    print('clock stopped')
except Exception as e:
    print('clock kept:', e)
start = time.time()
while time.time() - start < 1.2:
    pass
`);
  const { page, errors } = await openWith([frozen],
    '?red=code%3Afrozen&blue=builtin%3Agreedy&preset=classic&camp=course&first=red&turns=24');
  await page.locator('[data-testid=speed]').fill('3000');
  await page.click('[data-testid=run]');
  await page.waitForFunction(
    () => /turn (4|5|\d\d+)\b/.test(document.querySelector('[data-testid=game-info]')?.textContent ?? ''),
    null, { timeout: 120_000 });
  await page.click('[data-testid=stop]');
  await page.click('[data-testid=inspector] summary');
  const first = await printedAt(page, 1);
  const second = await printedAt(page, 3);
  // The code did stop its worker's clock: the runtime's own timing would charge it nothing.
  assert.match(second, /clock stopped/);
  const left = (text) => Number(/time left ([\d.]+)/.exec(text)?.[1]);
  assert.ok(left(first) >= 299, first);
  assert.ok(left(second) <= left(first) - 1.1, `charged ${left(first) - left(second)} s for a 1.2 s move:\n${second}`);
  assert.deepEqual(errors, []);
  await page.close();
});
