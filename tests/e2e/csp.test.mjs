// The app served by the real server (`gridarena serve`), under its Content-Security-Policy: the Halma
// arena's inline entry script, its wasm, its Web Workers (built-in AIs, Run's beat) and a web AI at an
// address the user typed all work, and the browser reports no violation. (tests/e2e/online.test.mjs
// covers the Online Go page and its WebSocket through the same server.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, openApp, root, startAi, startGridarena } from './harness.mjs';
import { closedPort } from './hostile.mjs';

let server, browser, ai;

before(async () => {
  server = await startGridarena();
  browser = await launch();
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}/`;
  ai = { url, child: await startAi('python3', ['ai/python/halma_ai.py', '--port', String(port)], url) };
});
after(async () => { ai?.child.kill(); await browser?.close(); server?.close(); });

/** Records every CSP violation the page (or a worker it starts) reports. */
function watchViolations() {
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`);
  });
}

test('the Halma arena plays with built-in and web AIs under the server\'s CSP', async () => {
  const response = await fetch(server.base);
  const csp = response.headers.get('content-security-policy');
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' blob: 'sha256-/);
  assert.equal(response.headers.get('x-frame-options'), 'DENY');
  // Cross-origin isolated (docs/code-players.md, Memory): the page can measure its code workers' memory,
  // and a web AI at another origin is still fetched (with CORS).
  assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin');
  assert.equal(response.headers.get('cross-origin-embedder-policy'), 'credentialless');

  const { page, errors } = await openApp(browser,
    `${server.base}?red=${encodeURIComponent(ai.url)}&blue=builtin:search`, watchViolations);
  await page.fill('[data-testid=seed]', '5');
  await page.click('[data-testid=new-game]');
  // Run (its beat is a worker of its own) with ticks long enough for the search and the web AI to answer
  // on a busy machine (load 4 on 2 cores): no move may fail here. Two beats are enough to show the beat.
  await page.locator('[data-testid=speed]').fill('2000');
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => / turn [2-9]\d*$|turn \d{2,}$/
    .test((document.querySelector('[data-testid=game-info]')?.textContent ?? '')), null, { timeout: 30_000 });
  await page.click('[data-testid=stop]');
  const text = await page.textContent('[data-testid=messages]');
  assert.doesNotMatch(text, /Error, /, text);
  assert.match(await page.textContent('[data-testid=latency]'), /red: \d+ ms/);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Go page\'s AI (a Web Worker) answers under the server\'s CSP', async () => {
  const { page, errors } = await openApp(browser, `${server.base}#/go`, watchViolations,
    '[data-testid=goban] .pt');
  await page.selectOption('[data-testid=go-opponent]', '2000');
  await page.selectOption('[data-testid=go-color]', 'black');
  await page.click('[data-testid=go-new-game]');
  await page.fill('[data-testid=typed-move]', 'e5');
  await page.press('[data-testid=typed-move]', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=goban] .stone').length === 2,
    null, { timeout: 30_000 });
  assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('code players (Python and JavaScript, in Web Workers) play under the server\'s CSP', async () => {
  const starter = (file) => fs.readFileSync(path.join(root, file), 'utf8');
  const ais = [
    { name: 'py', draft: { lang: 'python', format: 'function', main: 'main.py',
      files: [{ path: 'main.py', text: starter('ai/page/halma_function.py') }] }, versions: [] },
    { name: 'js', draft: { lang: 'javascript', format: 'function', main: 'main.js',
      files: [{ path: 'main.js', text: starter('ai/page/halma_function.js') }] }, versions: [] },
  ];
  const init = `(${watchViolations})();
    localStorage.setItem('gridarena.code.ais', ${JSON.stringify(JSON.stringify(ais))});`;
  const { page, errors } = await openApp(browser, `${server.base}?red=code%3Apy&blue=code%3Ajs&preset=mini`, init);
  for (let i = 1; i <= 4; i++) {
    await page.click('[data-testid=step]');
    await page.waitForFunction((n) => new RegExp(`turn ${n}\\b`)
      .test((document.querySelector('[data-testid=game-info]')?.textContent ?? '')), i, { timeout: 60_000 });
  }
  assert.doesNotMatch(await page.textContent('[data-testid=messages]'), /Error/);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  assert.deepEqual(errors, []);
  await page.close();
});
