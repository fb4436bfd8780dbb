// Browser benchmark on the release build: time from navigation to the first rendered board, and the time
// the page spends per arena tick, render included. Targets: under 300 ms and under 4 ms.
// Run: (cd tests/e2e && node bench.mjs [ticks])   after `trunk build --release`.
import { serveDist, launch } from './harness.mjs';

const ticks = Number(process.argv[2] || 200);
const server = await serveDist('/');
const browser = await launch();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const loads = [];
for (let i = 0; i < 7; i++) {
  const page = await browser.newPage();
  await page.goto(server.url, { waitUntil: 'commit' });
  // performance.now() counts from navigation start.
  loads.push(await page.evaluate(() => new Promise((done) => {
    const seen = () => document.querySelectorAll('[data-testid=board] .cell').length === 324;
    if (seen()) return done(performance.now());
    new MutationObserver((_, obs) => { if (seen()) { obs.disconnect(); done(performance.now()); } })
      .observe(document.body, { childList: true, subtree: true });
  })));
  await page.close();
}

async function perTick(red, blue) {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=board] .cell');
  await page.selectOption('[data-testid=player-red]', red);
  await page.selectOption('[data-testid=player-blue]', blue);
  await page.fill('[data-testid=seed]', '7');
  await page.click('[data-testid=new-game]');
  // Each tick: press Step, let the reactive updates run, and force style and layout so rendering counts.
  return page.evaluate(async (n) => {
    const step = document.querySelector('[data-testid=step]');
    const flush = () => new Promise((r) => setTimeout(r, 0));
    const times = [];
    for (let i = 0; i < n && !step.disabled; i++) {
      const t0 = performance.now();
      step.click();
      await Promise.resolve();
      document.body.offsetHeight;
      getComputedStyle(document.querySelector('.cell')).color;
      times.push(performance.now() - t0);
      await flush();
    }
    times.sort((a, b) => a - b);
    return { n: times.length, median: times[times.length >> 1], p95: times[Math.floor(times.length * 0.95)],
      mean: times.reduce((a, b) => a + b, 0) / times.length };
  }, ticks);
}

const greedy = await perTick('builtin:greedy', 'builtin:greedy');
const search = await perTick('builtin:search', 'builtin:greedy');
await browser.close();
server.close();

const ms = (x) => `${x.toFixed(2)} ms`;
console.log(`navigation to first rendered 18x18 board: median ${ms(median(loads))} over ${loads.length} loads `
  + `(min ${ms(Math.min(...loads))}, max ${ms(Math.max(...loads))}); target < 300 ms`);
for (const [name, r] of [['greedy vs greedy', greedy], ['search vs greedy', search]]) {
  console.log(`arena tick, ${name}: median ${ms(r.median)}, mean ${ms(r.mean)}, p95 ${ms(r.p95)} over ${r.n} ticks`);
}
console.log('target: the page spends under 4 ms per tick (render included); the search AI\'s own thinking is '
  + 'bounded by its node budget and counted in the search figure');
