// The endpoint doctor page (#/doctor) against real endpoints: the Python starter, and Node endpoints that
// make the two mistakes students make most (no CORS header; a Flask-style refusal of text/plain).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { serveDist, launch, openApp, startAi } from './harness.mjs';
import { closedPort } from './hostile.mjs';

let server, browser;
const children = [];
const closers = [];

/**
 * A legal move for the asked team: one step of one of its pieces to an empty square on the board (a step
 * is legal for any piece, damaged or not), never out of its destination (the camp rule).
 */
function stepMove(request) {
  const size = request.boardSize;
  const key = (p) => `${p.x},${p.y}`;
  const taken = new Set([...request.pieces, ...request.enemy].map(key));
  const home = new Set(request.destinations.map(key));
  for (const p of request.pieces) {
    for (const [dx, dy] of [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]]) {
      const to = { x: p.x + dx, y: p.y + dy };
      if (to.x < 0 || to.y < 0 || to.x >= size || to.y >= size || taken.has(key(to))) continue;
      if (home.has(key(p)) && !home.has(key(to))) continue;
      return { from: { x: p.x, y: p.y }, to: [to] };
    }
  }
  throw new Error('no step');
}

/**
 * A Node endpoint that answers moves. `cors`: whether it sends Access-Control-Allow-Origin (and answers
 * the preflight); `refusesText`: answers 415 to a text/plain body, as Flask's request.get_json() does.
 */
async function startNode({ cors = true, refusesText = false }) {
  const log = [];
  const s = http.createServer((req, res) => {
    log.push({ method: req.method, type: req.headers['content-type'] });
    const headers = cors ? { 'access-control-allow-origin': '*' } : {};
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors ? { ...headers, 'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': 'Content-Type' } : {});
      return res.end();
    }
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      if (refusesText && !/application\/json/.test(req.headers['content-type'] || '')) {
        res.writeHead(415, { ...headers, 'content-type': 'text/html' });
        return res.end('<h1>Unsupported Media Type</h1>');
      }
      let move;
      try {
        move = stepMove(JSON.parse(body));
      } catch (e) {
        res.writeHead(400, { ...headers, 'content-type': 'text/plain' });
        return res.end(`bad request: ${e.message}`);
      }
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify(move));
    });
  });
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  closers.push(() => s.close());
  return { url: `http://127.0.0.1:${s.address().port}/`, log };
}

before(async () => {
  server = await serveDist('/');
  browser = await launch();
});
after(async () => {
  for (const c of children) c.kill();
  for (const c of closers) c();
  await browser?.close();
  server?.close();
});

/** Opens the doctor on `url` (the link starts the battery) and waits for its summary. */
async function diagnose(url, type = 'text', tick = 1000) {
  const link = `${server.url}#/doctor?url=${encodeURIComponent(url)}&type=${type}&tick=${tick}`;
  const { page, errors } = await openApp(browser, link, undefined, '[data-testid=doctor-url]');
  await page.waitForSelector('[data-testid=doctor-summary]', { timeout: 120_000 });
  const checks = await page.$$eval('[data-testid^=check-]', (rows) => rows.map((r) => ({
    id: r.dataset.testid.slice('check-'.length), status: r.dataset.status, text: r.textContent,
  })));
  const summary = await page.textContent('[data-testid=doctor-summary]');
  const status = (id) => {
    const c = checks.find((c) => c.id === id);
    assert.ok(c, `no check ${id} in ${JSON.stringify(checks)}`);
    return c.status;
  };
  return { page, errors, checks, summary, status, text: (id) => checks.find((c) => c.id === id).text };
}

// What the browser logs about the doctor's own requests (a 400 answer, a CORS refusal) is not an error of the page.
const pageErrors = (errors) => errors.filter((e) => !/Failed to load resource|CORS|ERR_|net::/.test(e));

const failedIds = (checks) => checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.text}`);

test('the Python starter passes every check, sent as text/plain and as application/json', async () => {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}/`;
  children.push(await startAi('python3', ['ai/python/halma_ai.py', '--port', String(port), '--quiet'], url));
  for (const type of ['text', 'json']) {
    const { page, errors, checks, summary, status } = await diagnose(url, type);
    assert.deepEqual(failedIds(checks), [], type);
    assert.equal(summary, 'every check passed');
    assert.equal(checks.length, 15);
    for (const id of ['address', 'reachable', 'cors', 'legal-start', 'legal-jump-chain', 'latency']) {
      assert.equal(status(id), 'passed', `${type} ${id}`);
    }
    // The form shows what the link gave.
    assert.equal(await page.inputValue('[data-testid=doctor-url]'), url);
    assert.equal(await page.inputValue('[data-testid=doctor-type]'), type);
    assert.deepEqual(pageErrors(errors), []);
    await page.close();
  }
});

test('an endpoint without Access-Control-Allow-Origin fails the cors check, with the header in its fix', async () => {
  const ai = await startNode({ cors: false });
  const { page, status, text, summary } = await diagnose(ai.url);
  assert.equal(status('cors'), 'failed');
  assert.match(text('cors'), /Fix: .*Access-Control-Allow-Origin/);
  assert.equal(status('reachable'), 'passed');
  assert.match(summary, /^\d+ checks? failed$/);
  // The page also asked in no-cors mode, which is how it told CORS from silence.
  assert.ok(ai.log.length >= 2, JSON.stringify(ai.log));
  await page.close();
});

test('a Flask-style endpoint is told about text/plain and 415, and passes as application/json', async () => {
  const ai = await startNode({ refusesText: true });
  const text = await diagnose(ai.url, 'text');
  assert.deepEqual(failedIds(text.checks).map((f) => f.split(':')[0]), ['text-plain']);
  assert.match(text.text('text-plain'), /415/);
  assert.match(text.text('text-plain'), /application\/json/);
  assert.equal(text.summary, '1 check failed');
  // The positions were still judged, sent the way the endpoint reads.
  assert.equal(text.status('legal-start'), 'passed');
  await text.page.close();

  const json = await diagnose(ai.url, 'json');
  assert.deepEqual(failedIds(json.checks), []);
  assert.equal(json.summary, 'every check passed');
  assert.equal(json.status('text-plain'), 'note');
  await json.page.close();
});

test('a blocked port fails the address and sends nothing; nothing listening fails reachable', async () => {
  const blocked = await diagnose('http://127.0.0.1:6000/');
  assert.equal(blocked.status('address'), 'failed');
  assert.match(blocked.text('address'), /port 6000/);
  assert.ok(blocked.checks.slice(1).every((c) => c.status === 'skipped'), JSON.stringify(blocked.checks));
  assert.equal(blocked.summary, '1 check failed');
  await blocked.page.close();

  const port = await closedPort();
  const silent = await diagnose(`http://127.0.0.1:${port}/`);
  assert.equal(silent.status('address'), 'passed');
  assert.equal(silent.status('reachable'), 'failed');
  assert.match(silent.text('reachable'), /Failed to fetch/);
  assert.equal(silent.status('latency'), 'skipped');
  await silent.page.close();
});

test('the form refuses a bad tick with a clear message, and runs from its button', async () => {
  const ai = await startNode({});
  const { page, errors } = await openApp(browser, `${server.url}#/doctor`, undefined, '[data-testid=doctor-url]');
  assert.equal(await page.inputValue('[data-testid=doctor-tick]'), '1000');
  assert.equal(await page.inputValue('[data-testid=doctor-type]'), 'text');
  await page.fill('[data-testid=doctor-url]', ai.url);
  await page.fill('[data-testid=doctor-tick]', 'soon');
  await page.click('[data-testid=doctor-run]');
  assert.match(await page.textContent('[data-testid=doctor-problem]'), /"soon" is not a whole number of milliseconds/);
  await page.fill('[data-testid=doctor-tick]', '20');
  await page.click('[data-testid=doctor-run]');
  assert.match(await page.textContent('[data-testid=doctor-problem]'), /between 50 and 60000 ms/);
  assert.equal(ai.log.length, 0);

  await page.fill('[data-testid=doctor-tick]', '500');
  await page.click('[data-testid=doctor-run]');
  await page.waitForFunction(() => /^request \d+ of about \d+: /.test(
    document.querySelector('[data-testid=doctor-progress]').textContent));
  await page.waitForSelector('[data-testid=doctor-summary]', { timeout: 120_000 });
  assert.equal(await page.textContent('[data-testid=doctor-progress]'), '');
  assert.equal(await page.textContent('[data-testid=doctor-summary]'), 'every check passed');
  assert.equal(await page.textContent('[data-testid=doctor-problem]'), '');
  assert.ok(ai.log.length >= 29, `${ai.log.length} requests`);

  // Copy report: the report's text on the clipboard (a stand-in that keeps what it is given) ...
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: {
      writeText: (t) => { window.copiedReport = t; return Promise.resolve(); },
    } });
  });
  await page.click('[data-testid=doctor-copy]');
  await page.waitForSelector('[data-testid=doctor-copied]');
  const copied = await page.evaluate(() => window.copiedReport);
  assert.match(copied, /^http:\/\/127\.0\.0\.1:\d+\/ \(text\/plain, tick 500 ms\)\n/);
  assert.match(copied, /\nPASS  A legal move in the starting position: /);
  assert.match(copied, /every check passed\n$/);
  // ... and where the browser refuses, in a box to copy by hand.
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: {
      writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')),
    } });
  });
  await page.click('[data-testid=doctor-copy]');
  await page.waitForSelector('[data-testid=doctor-copy-text]');
  assert.equal(await page.inputValue('[data-testid=doctor-copy-text]'), copied);
  assert.deepEqual(pageErrors(errors), []);
  await page.close();
});
