// Benchmark of a class of code entries, on the tournament page (release build) and through the CLI; prints:
// 1. A class of N course-format Python entries (ai/course/halma_course.py, each made distinct by a
//    `# student K` line, so each has its own SHA-256 and its own interpreter in the page's pool,
//    src/tournament/pool.rs) imported as a roster on #/tournament and played there: Swiss, R rounds, preset
//    classic with the course's camp rules (the only game the course format's files describe), tick
//    TICK_MS (a deadline only: a tick of code entries ends once both have answered), games at once as the
//    page suggests for this machine's cores (one per core but one) unless CONCURRENCY says. The page holds
//    each tick of code entries to at least 80 ms so the wall stays watchable (PACE_MS, driver.rs); the
//    benchmark clicks "Skip to the end of the round" as each round starts, which drops that floor, so the
//    games run at the players' speed (PACE=1 keeps the floor). No roll call (ROLL_CALL=1 calls and times
//    it first). Wall time from Start to "is over" (interpreter starts included), games, games per minute,
//    seconds per game (wall x games at once / games), ticks per game and the code's median move time (from
//    the tournament's bundle), memory: the peak total RSS and PSS (/proc/PID/smaps_rollup, shared pages
//    counted once) of Chromium's processes, sampled every second, the page's JS heap (CDP
//    Performance.getMetrics; the workers' heaps are not in it), and the peak of live workers (each code
//    entry's seat is a worker; no house bot here) against the pool's cap as the page computes it from
//    navigator.deviceMemory (pool::cap_for).
// 2. The same roster through the CLI (`gridarena halma tournament ... --out TMPDIR`, the binary from
//    GRIDARENA_BIN, by default the release build in $CARGO_TARGET_DIR, ../../target/release or
//    ../../target/debug), the same settings and seed, the same games at once: wall time, games per minute,
//    seconds per game, the peak total RSS and PSS of its process tree, sampled every 200 ms (the course
//    script runs in a python3 process per move, about 0.15 s each: a sample catches one now and then).
// 3. Games per minute of one code entry against builtin:greedy, page and CLI side by side: a Python function
//    entry (ai/page/halma_function.py), a Python course entry and a JavaScript function entry
//    (ai/page/halma_function.js), each in a double round robin with the house bot (2 games, seats swapped,
//    same settings as above): wall time, games per minute, the first game (the page's includes starting
//    the interpreter) and the second apart, the code's median move time. H2H=0 skips it.
// Then a summary: seconds per game, and from it the Swiss rounds of a 30-entry class (CLASS) that fit a
// 45-minute lesson (LESSON_MIN) on a 4-core laptop, assuming its 4 cores give twice this 2-core machine's
// games at once: rounds x ceil(games per round / games at once) x seconds per game.
// Run: (cd tests/e2e && node bench_class.mjs [entries] [rounds])   after `trunk build --release` and
// `cargo build -p gridarena-cli --release` (defaults: 30 entries, 1 round). Env: GRIDARENA_BIN,
// CONCURRENCY, TICK_MS (default 1000), SEED (1), PACE=1, ROLL_CALL=1, H2H=0, CLASS, LESSON_MIN, CHROMIUM.
// Progress goes to stderr, the figures to stdout. A 6-entry run takes about 5 minutes on two cores.
import { serveDist, launch, openApp, root, cliBin } from './harness.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';

const ENTRIES = Math.max(2, Number(process.argv[2] || 30));
const ROUNDS = Math.max(1, Number(process.argv[3] || 1));
const TICK_MS = Number(process.env.TICK_MS || 1000);
const SEED = Number(process.env.SEED || 1);
const PACE = process.env.PACE === '1';
const ROLL_CALL = process.env.ROLL_CALL === '1';
const H2H = process.env.H2H !== '0';
const CLASS = Number(process.env.CLASS || 30);
const LESSON_MIN = Number(process.env.LESSON_MIN || 45);
// The page holds a tick of code entries and house bots to at least this (driver.rs, PACE_MS).
const PAGE_PACE_MS = 80;
const LOAD_AT_START = os.loadavg();

const BIN = cliBin();
if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: cargo build -p gridarena-cli --release, or set GRIDARENA_BIN`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gridarena-bench-class-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
const log = (s) => process.stderr.write(`bench_class: ${s}\n`);
const out = (s = '') => process.stdout.write(`${s}\n`);

const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const code = (language, format, main, text) => ({ language, format, main, files: { [main]: text } });
const COURSE = read('ai/course/halma_course.py');
const pad = (k) => String(k).padStart(2, '0');
const CLASS_ROSTER = { entries: Array.from({ length: ENTRIES }, (_, i) => ({
  name: `S${pad(i + 1)}`,
  code: code('python', 'course', 'halma_course.py', `${COURSE}\n# student ${i + 1}\n`),
})) };
const H2H_ENTRIES = [
  { name: 'PyFn', label: 'Python function', code: code('python', 'function', 'main.py', read('ai/page/halma_function.py')) },
  { name: 'Course', label: 'Python course', code: code('python', 'course', 'halma_course.py', COURSE) },
  { name: 'Js', label: 'JavaScript function', code: code('javascript', 'function', 'main.js', read('ai/page/halma_function.js')) },
];

// ---------------------------------------------------------------------------------------------------------
// Memory of a process tree, from /proc

function processTable() {
  const table = new Map(); // pid -> ppid
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), Number(fields[1]));
    } catch { /* gone */ }
  }
  return table;
}

function descendants(rootPid) {
  const table = processTable();
  const children = new Map();
  for (const [pid, ppid] of table) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const found = [];
  const todo = [...(children.get(rootPid) || [])];
  while (todo.length) {
    const pid = todo.pop();
    found.push(pid);
    todo.push(...(children.get(pid) || []));
  }
  return found;
}

/** kB of one field (`VmRSS:`, `Pss:`) in a /proc file, or null. */
function field(file, name) {
  try {
    const m = fs.readFileSync(file, 'utf8').match(new RegExp(`^${name}\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Samples the memory of `pids()` every `ms`; `stop()` returns the peaks in MB. */
function sampler(pids, extra, ms = 1000) {
  const peak = { rss: 0, pss: 0, pssReadable: true, processes: 0, samples: 0, extra: {} };
  const tick = async () => {
    let rss = 0;
    let pss = 0;
    const list = pids();
    for (const pid of list) {
      const r = field(`/proc/${pid}/status`, 'VmRSS:');
      if (r === null) continue; // gone, or a kernel thread
      const p = field(`/proc/${pid}/smaps_rollup`, 'Pss:');
      if (p === null && fs.existsSync(`/proc/${pid}`)) peak.pssReadable = false;
      rss += r;
      pss += p ?? r;
    }
    peak.rss = Math.max(peak.rss, rss / 1024);
    peak.pss = Math.max(peak.pss, pss / 1024);
    peak.processes = Math.max(peak.processes, list.length);
    peak.samples += 1;
    if (extra) {
      try {
        for (const [k, v] of Object.entries(await extra())) peak.extra[k] = Math.max(peak.extra[k] || 0, v);
      } catch { /* the page is busy or gone */ }
    }
  };
  const timer = setInterval(tick, ms);
  tick();
  return { stop: () => { clearInterval(timer); return peak; } };
}

// ---------------------------------------------------------------------------------------------------------
// Figures from a tournament's bundle (the page's export or the CLI's bundle.json): ticks per game, the code's
// answer times, errors and endings.

function bundleFigures(bundle, codeNames) {
  const entries = bundle.roster.entries;
  const ticks = [];
  const ms = [];
  let errors = 0;
  const kinds = {};
  let firstError = null;
  const endings = {};
  for (const g of bundle.games) {
    ticks.push(g.ticks);
    const kind = g.ending.kind;
    endings[kind] = (endings[kind] || 0) + 1;
    const names = [entries[g.fixture.red]?.name, entries[g.fixture.blue]?.name];
    for (const t of g.log.ticks) {
      t.forEach((a, side) => {
        if (!a || !codeNames.has(names[side])) return;
        if (a.code) {
          errors += 1;
          kinds[a.code] = (kinds[a.code] || 0) + 1;
          firstError ??= `${names[side]}: ${a.code}${a.message ? `: ${a.message}` : ''}`;
        }
        else if (a.ms !== undefined) ms.push(a.ms);
      });
    }
  }
  return { ticks, moveMs: median(ms), moves: ms.length, errors, kinds, firstError, endings };
}

function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '-');

// ---------------------------------------------------------------------------------------------------------
// The page

const browserPids = () => descendants(process.pid).filter((pid) => {
  try {
    return !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('gridarena');
  } catch {
    return false;
  }
});

/**
 * Imports `roster` on a fresh page (a context of its own: fresh storage), sets the settings, starts the
 * tournament and waits for its end. Returns the wall time, the finish time of each game, the settings
 * used, memory peaks and the bundle.
 */
async function pageTournament(browser, url, roster, settings, { memory = false, rollCall = false } = {}) {
  const { page, errors } = await openApp(browser, `${url}#/tournament`, undefined, '[data-testid=entry-name]');
  let liveWorkers = 0;
  let peakWorkers = 0;
  let workersStarted = 0;
  page.on('worker', (w) => {
    workersStarted += 1;
    liveWorkers += 1;
    peakWorkers = Math.max(peakWorkers, liveWorkers);
    w.on('close', () => { liveWorkers -= 1; });
  });
  const n = roster.entries.length;
  await page.setInputFiles('[data-testid=import-roster]', {
    name: 'class.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(roster)),
  });
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid=roster] li').length === k, n);
  await page.selectOption('[data-testid=format]', settings.format);
  if (settings.format === 'swiss') await page.fill('[data-testid=rounds]', String(settings.rounds));
  await page.selectOption('[data-testid=preset]', 'classic');
  await page.selectOption('[data-testid=camp-rules]', 'course');
  await page.fill('[data-testid=tick]', String(settings.tickMs));
  await page.fill('[data-testid=seed]', String(settings.seed));
  if (settings.concurrency) await page.fill('[data-testid=concurrency]', String(settings.concurrency));
  await page.check('[data-testid=code-only]');
  const concurrency = Number(await page.inputValue('[data-testid=concurrency]'));
  const machine = await page.evaluate(() => ({ cores: navigator.hardwareConcurrency, memoryGb: navigator.deviceMemory }));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heap = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (name) => (metrics.find((m) => m.name === name)?.value || 0) / 2 ** 20;
    return { jsHeapUsed: get('JSHeapUsedSize'), jsHeapTotal: get('JSHeapTotalSize'), workers: liveWorkers };
  };
  const mem = memory ? sampler(browserPids, heap) : null;
  let rollCallS = null;
  if (rollCall) {
    const t = performance.now();
    await page.click('[data-testid=roll-call-run]');
    await page.waitForFunction((k) => {
      const rows = [...document.querySelectorAll('[data-testid=roll-entry]')];
      return rows.length === k && rows.every((e) => /green|red/.test(e.className));
    }, n, { timeout: 0 });
    rollCallS = (performance.now() - t) / 1000;
    log(`roll call: ${f1(rollCallS)} s`);
  }
  const t0 = performance.now();
  await page.click('[data-testid=start]');
  await page.waitForSelector('[data-testid=t-status]');
  const finishes = []; // seconds from the start at which the finished count went up
  let round = null;
  let status = '';
  let lastSaid = 0;
  for (;;) {
    status = await page.textContent('[data-testid=t-status]');
    const done = Number((status.match(/(\d+) of \d+ games finished/) || [])[1] || 0);
    const t = (performance.now() - t0) / 1000;
    while (finishes.length < done) finishes.push(t);
    if (/is over/.test(status)) break;
    const r = (status.match(/^Round (\d+)/) || [])[1];
    if (!PACE && r !== undefined && r !== round) {
      round = r;
      await page.click('[data-testid=skip-round]').catch(() => {});
    }
    if (t - lastSaid > 30) {
      lastSaid = t;
      log(`${f0(t)} s: ${status}${memory ? ` (${liveWorkers} workers)` : ''}`);
    }
    await new Promise((ok) => setTimeout(ok, 250));
  }
  const wall = (performance.now() - t0) / 1000;
  const peaks = mem?.stop();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-bundle]')]);
  const file = path.join(tmp, `page-bundle-${Date.now()}.json`);
  await download.saveAs(file);
  const bundle = JSON.parse(fs.readFileSync(file, 'utf8'));
  const said = errors.filter((e) => !/Failed to load resource|ERR_|net::/.test(e));
  await page.close();
  return { wall, finishes, status, concurrency, machine, peaks, bundle, workersStarted, peakWorkers, rollCallS, said };
}

// ---------------------------------------------------------------------------------------------------------
// The CLI

async function cliTournament(roster, settings, { memory = false } = {}) {
  const dir = fs.mkdtempSync(path.join(tmp, 'cli-'));
  const rosterFile = path.join(dir, 'roster.json');
  fs.writeFileSync(rosterFile, JSON.stringify(roster));
  const args = ['halma', 'tournament', rosterFile, '--format', settings.format,
    ...(settings.format === 'swiss' ? ['--rounds', String(settings.rounds)] : []),
    '--preset', 'classic', '--camp-rules', 'course', '--tick-ms', String(settings.tickMs),
    '--concurrency', String(settings.concurrency), '--seed', String(settings.seed), '--code-only', '--verbose',
    '--out', path.join(dir, 'out')];
  const t0 = performance.now();
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const finishes = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  let partial = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    // --verbose: one line per finished game, "game N (round R): ...".
    const lines = (partial + d).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      if (/^game \d+ \(round/.test(line.replace(/^.*\r/, ''))) finishes.push((performance.now() - t0) / 1000);
    }
  });
  // Every 200 ms: the course script's python3 process lives about 0.15 s a move.
  const mem = memory ? sampler(() => [child.pid, ...descendants(child.pid)], null, 200) : null;
  const code = await new Promise((ok) => child.on('close', ok));
  const wall = (performance.now() - t0) / 1000;
  const peaks = mem?.stop();
  if (code !== 0) throw new Error(`${BIN} ${args.join(' ')} exited ${code}:\n${stderr}\n${stdout}`);
  const bundle = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'bundle.json'), 'utf8'));
  return { wall, finishes, peaks, bundle, stdout, stderr, command: `gridarena ${args.join(' ')}` };
}

// ---------------------------------------------------------------------------------------------------------

function rates(r, concurrency) {
  const games = r.bundle.games.length;
  return { games, gpm: games / (r.wall / 60), perGame: r.wall / games, slot: (r.wall * concurrency) / games };
}

const server = await serveDist('/');
const browser = await launch();
const results = {};
try {
  // 1. The class on the page.
  const settings = { format: 'swiss', rounds: ROUNDS, tickMs: TICK_MS, seed: SEED,
    concurrency: process.env.CONCURRENCY ? Number(process.env.CONCURRENCY) : null };
  log(`page: ${ENTRIES} course entries, Swiss ${ROUNDS} round(s)`);
  const page = await pageTournament(browser, server.url, CLASS_ROSTER, settings, { memory: true, rollCall: ROLL_CALL });
  settings.concurrency = page.concurrency;
  results.page = page;
  log(`page: ${f1(page.wall)} s, ${page.bundle.games.length} games`);

  // 2. The same through the CLI.
  log(`CLI: the same roster, ${page.concurrency} game(s) at once`);
  const cli = await cliTournament(CLASS_ROSTER, settings, { memory: true });
  results.cli = cli;
  log(`CLI: ${f1(cli.wall)} s`);

  // 3. One code entry against greedy, page and CLI.
  const h2h = [];
  if (H2H) {
    for (const e of H2H_ENTRIES) {
      const roster = { entries: [{ name: e.name, code: e.code }, { name: 'Greedy', player: 'builtin:greedy' }] };
      const s = { ...settings, format: 'double' };
      log(`${e.label} vs greedy: page`);
      const p = await pageTournament(browser, server.url, roster, s);
      log(`${e.label} vs greedy: CLI`);
      const c = await cliTournament(roster, s);
      h2h.push({ e, p, c });
    }
  }

  // ------------------------------------------------------------------------------------------------------
  const names = new Set(CLASS_ROSTER.entries.map((e) => e.name));
  const pr = rates(page, page.concurrency);
  const cr = rates(cli, page.concurrency);
  const pf = bundleFigures(page.bundle, names);
  const cf = bundleFigures(cli.bundle, names);
  const cores = os.cpus().length;
  out(`bench_class: ${ENTRIES} course-format Python entries (distinct hashes), Swiss ${ROUNDS} round(s), classic preset, `
    + `course camp rules, tick ${TICK_MS} ms, seed ${SEED}, ${page.concurrency} game(s) at once, code only`);
  out(`machine: ${cores} cores (navigator: ${page.machine.cores} cores, deviceMemory ${page.machine.memoryGb} GB), `
    + `load average at start ${LOAD_AT_START.map((x) => x.toFixed(2)).join(' ')}, at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  out(`page: ${PACE ? `the page's ${PAGE_PACE_MS} ms pace kept (PACE=1)` : `"Skip to the end of the round" clicked as each round starts (no ${PAGE_PACE_MS} ms pace: the players' speed)`}; `
    + `${ROLL_CALL ? `roll call first: ${f1(page.rollCallS)} s (not in the wall time)` : 'no roll call'}; CLI: ${BIN}`);
  out();
  out('1-2. The class                  page (Chromium)      CLI');
  const row = (label, a, b) => out(`  ${label.padEnd(30)}${String(a).padEnd(20)} ${b}`);
  row('wall time (s)', f1(page.wall), f1(cli.wall));
  row('games played', pr.games, cr.games);
  row('games per minute', f1(pr.gpm), f1(cr.gpm));
  row('seconds per game (wall/games)', f1(pr.perGame), f1(cr.perGame));
  row('seconds per game per slot', f1(pr.slot), f1(cr.slot));
  row('ticks per game (mean)', f0(mean(pf.ticks)), f0(mean(cf.ticks)));
  row('code move, median (ms)', f1(pf.moveMs), f1(cf.moveMs));
  row('code error ticks', `${pf.errors} ${JSON.stringify(pf.kinds)}`, `${cf.errors} ${JSON.stringify(cf.kinds)}`);
  if (pf.firstError) out(`  page's first error: ${pf.firstError.slice(0, 200)}`);
  if (cf.firstError) out(`  CLI's first error: ${cf.firstError.slice(0, 200)}`);
  row('endings', JSON.stringify(pf.endings), JSON.stringify(cf.endings));
  row('peak RSS, process tree (MB)', `${f0(page.peaks.rss)} (${page.peaks.processes} procs)`, `${f0(cli.peaks.rss)} (${cli.peaks.processes} procs)`);
  row('peak PSS, process tree (MB)', page.peaks.pssReadable ? f0(page.peaks.pss) : 'unreadable', cli.peaks.pssReadable ? f0(cli.peaks.pss) : 'unreadable');
  row('page JS heap, peak used/total', `${f0(page.peaks.extra.jsHeapUsed)}/${f0(page.peaks.extra.jsHeapTotal)} MB`, '-');
  const cap = Number.isFinite(page.machine.memoryGb) && page.machine.memoryGb > 0
    ? Math.min(16, Math.max(2, Math.floor(page.machine.memoryGb * 2))) : 8;
  row('live workers, peak (pool cap)', `${page.peakWorkers} (cap ${cap})`, '-');
  row('workers started', page.workersStarted, '-');
  if (!PACE) {
    out(`  with the page's ${PAGE_PACE_MS} ms pace (no skip) a game of ${f0(mean(pf.ticks))} ticks takes at least `
      + `${f1((mean(pf.ticks) * PAGE_PACE_MS) / 1000)} s`);
  }
  if (page.said.length) out(`  page console errors/warnings: ${page.said.length} (first: ${page.said[0].slice(0, 160)})`);

  if (h2h.length) {
    out();
    out('3. One code entry vs builtin:greedy, double round robin (2 games), same settings');
    out('  entry                 where  wall s  games/min  game 1 s  game 2 s  ticks/game  move ms  errors');
    for (const { e, p, c } of h2h) {
      for (const [where, r] of [['page', p], ['CLI', c]]) {
        const f = bundleFigures(r.bundle, new Set([e.name]));
        const g = r.finishes;
        out(`  ${e.label.padEnd(22)}${where.padEnd(7)}${f1(r.wall).padStart(6)}  ${f1(rates(r, 1).gpm).padStart(9)}  `
          + `${f1(g[0]).padStart(8)}  ${f1(g[1] - g[0]).padStart(8)}  ${f0(mean(f.ticks)).padStart(10)}  `
          + `${f1(f.moveMs).padStart(7)}  ${String(f.errors).padStart(6)}`);
      }
    }
    out('  (the page\'s game 1 includes starting the entry\'s interpreter; game 2 reuses it)');
  }

  // The lesson: Swiss rounds of CLASS entries in LESSON_MIN minutes on a 4-core laptop, assumed to give
  // twice this machine's games at once.
  out();
  out(`Summary: a game takes ${f1(pr.slot)} s on the page and ${f1(cr.slot)} s through the CLI `
    + `(per game slot, ${page.concurrency} at once on ${cores} cores).`);
  const perRound = Math.floor(CLASS / 2);
  const laptop = 2 * page.concurrency;
  for (const [where, r] of [['page', pr], ['CLI', cr]]) {
    const roundS = Math.ceil(perRound / laptop) * r.slot;
    const rounds = Math.floor((LESSON_MIN * 60) / roundS);
    out(`  ${where}: ${CLASS} entries, Swiss: ${perRound} games a round / ${laptop} at once x ${f1(r.slot)} s `
      + `= ${f1(roundS / 60)} min a round -> ${rounds} round(s) in ${LESSON_MIN} min`
      + (rounds >= 1 ? ` (${rounds} x ${f1(roundS / 60)} = ${f1((rounds * roundS) / 60)} min)` : ' (not one: fewer entries or a shorter turn limit)'));
  }
  out(`  Assumption: a 4-core laptop plays ${laptop} games at once, twice this ${cores}-core machine's ${page.concurrency} `
    + `(the page suggests one game per core but one), at the same seconds per game.`);
  out(`  CLI command: ${cli.command.replace(/\S*roster\.json/, 'ROSTER.json').replace(/--out \S+/, '--out DIR')}`);
} finally {
  await browser.close();
  server.close();
}
