// Benchmark of Compare: games per second of builtin:search against builtin:greedy, in the page
// (#/compare, release build, headless Chromium) and through the CLI (`gridarena halma compare`, the binary
// from GRIDARENA_BIN, by default the release build in $CARGO_TARGET_DIR, ../../target/release or
// ../../target/debug), on the same machine, the same games: preset PRESET (arena), seed SEED (1), GAMES
// games (50) with no early stop in either (the CLI's --min-games GAMES; the page stops by the rule, so
// the page's figure is over the games it counted, as it reports them), CONCURRENCY games at once in both
// (default 2). The page's figure is its own ("N games in T s: R games per second", from Start to the
// verdict); the CLI's is the one it prints. Prints the machine's load average beside them.
// Run: (cd tests/e2e && node bench_compare.mjs)   after `trunk build --release` and
// `cargo build -p gridarena-cli --release`. Env: GRIDARENA_BIN, PRESET, SEED, GAMES, CONCURRENCY, CHROMIUM.
import { serveDist, launch, openApp, cliBin } from './harness.mjs';
import os from 'node:os';
import { spawnSync } from 'node:child_process';

const PRESET = process.env.PRESET || 'arena';
const SEED = Number(process.env.SEED || 1);
const GAMES = Number(process.env.GAMES || 50);
const CONCURRENCY = Number(process.env.CONCURRENCY || 2);

async function page() {
  const server = await serveDist('/');
  const browser = await launch();
  try {
    const setup = `?a=builtin%3Asearch&b=builtin%3Agreedy&preset=${PRESET}&games=${GAMES}&concurrency=${CONCURRENCY}&seed=${SEED}`;
    const { page, errors } = await openApp(browser, `${server.url}#/compare${setup}`, undefined, '[data-testid=compare-start]');
    await page.click('[data-testid=compare-start]');
    await page.waitForFunction(() => /games per second/.test(document.querySelector('[data-testid=compare-rate]')?.textContent ?? ''),
      null, { timeout: 600_000 });
    const rate = await page.textContent('[data-testid=compare-rate]');
    const verdict = await page.textContent('[data-testid=compare-verdict]');
    const score = await page.textContent('[data-testid=compare-score]');
    if (errors.length) console.error('page errors:', errors);
    return { rate, verdict, score };
  } finally {
    await browser.close();
    server.close();
  }
}

function cli(minGames) {
  const args = ['halma', 'compare', 'builtin:search', 'builtin:greedy', '--preset', PRESET, '--seed', String(SEED),
    '--games', String(GAMES), '--concurrency', String(CONCURRENCY), '--min-games', String(minGames)];
  const r = spawnSync(cliBin(), args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gridarena ${args.join(' ')}: ${r.stderr}`);
  const line = r.stdout.split('\n').find((l) => /games\/s/.test(l));
  return `${line}  (gridarena ${args.slice(2).join(' ')})`;
}

console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(`settings: search vs greedy, ${PRESET}, seed ${SEED}, at most ${GAMES} games, ${CONCURRENCY} at once`);
const p = await page();
console.log(`page: ${p.rate} ${p.verdict} ${p.score}`);
console.log(`cli (stop rule as the page): ${cli(10)}`);
console.log(`cli (all games):             ${cli(GAMES)}`);
console.log(`load average after: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
