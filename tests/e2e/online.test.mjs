// End-to-end test of Online Go: the real server (`gridarena serve`, serving the release build of the app)
// and two Chromium contexts, as two people on two machines, who meet in the lobby and play a short 9x9
// game to two passes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startGridarena } from './harness.mjs';

let server, browser, base;

before(async () => {
  server = await startGridarena();
  base = server.base;
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); });

/** A person on their own machine: a fresh browser context (its own localStorage) in the lobby. */
async function person(name) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${base}#/online`);
  await page.fill('[data-testid=online-name]', name);
  await page.click('[data-testid=online-register]');
  await page.waitForSelector('[data-testid=online-me]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=online-link]').textContent);
  return { page, errors, context };
}

const status = (p) => p.page.textContent('[data-testid=online-status]');
const stones = (p) => p.page.locator('[data-testid=goban] .stone').count();

test('two people meet in the lobby and play a 9x9 game to two passes', async () => {
  const ada = await person('Ada');
  const bob = await person('Bob');
  assert.match(await ada.page.textContent('[data-testid=online-me]'), /Signed in as Ada/);

  await ada.page.selectOption('[data-testid=online-color]', 'black');
  await ada.page.click('[data-testid=online-seek]');
  await ada.page.waitForSelector('[data-testid=online-waiting]');
  assert.match(await ada.page.textContent('[data-testid=online-waiting]'), /Waiting for an opponent: 9x9, Black/);
  await bob.page.click('[data-testid=online-seek]');

  for (const p of [ada, bob]) await p.page.waitForSelector('[data-testid=goban] .pt');
  assert.match(await ada.page.textContent('[data-testid=online-black]'), /Ada \(you\)/);
  assert.match(await bob.page.textContent('[data-testid=online-white]'), /Bob \(you\)/);
  assert.match(await status(ada), /Your move/);
  // Bob may not move out of turn: the page explains without asking the server.
  await bob.page.click('[data-testid=goban] .pt[data-vertex="E5"]');
  assert.match(await bob.page.textContent('[data-testid=online-notice]'), /turn/);

  const play = async (p, other, vertex, n) => {
    await p.page.click(`[data-testid=goban] .pt[data-vertex="${vertex}"]`);
    for (const q of [p, other]) {
      await q.page.waitForFunction((k) => document.querySelectorAll('[data-testid=goban] .stone').length === k, n);
    }
  };
  await play(ada, bob, 'E5', 1);
  await play(bob, ada, 'C3', 2);
  await play(ada, bob, 'G7', 3);
  assert.match(await status(bob), /Your move/);
  assert.match(await ada.page.textContent('[data-testid=online-white] .clock'), /^[45]:\d\d$/);

  // A spectator watches the game, sees its stones, and stops watching: back to the lobby.
  const cy = await person('Cy');
  await cy.page.fill('[data-testid=online-watch-id]', '1');
  await cy.page.press('[data-testid=online-watch-id]', 'Enter');
  await cy.page.waitForFunction(() => document.querySelectorAll('[data-testid=goban] .stone').length === 3);
  assert.match(await cy.page.textContent('[data-testid=online-title]'), /\(watching\)/);
  assert.equal(await cy.page.locator('[data-testid=online-unwatch]').count(), 1);
  assert.equal(await ada.page.locator('[data-testid=online-unwatch]').count(), 0, 'a player does not watch');
  await cy.page.click('[data-testid=online-unwatch]');
  await cy.page.waitForSelector('[data-testid=online-watch-id]');
  assert.equal(await cy.page.locator('[data-testid=goban]').count(), 0);

  // Seven more stones, so that the game counts in the records (ten moves at least).
  await play(bob, ada, 'C7', 4);
  await play(ada, bob, 'G3', 5);
  await play(bob, ada, 'A1', 6);
  await play(ada, bob, 'E3', 7);
  await play(bob, ada, 'A9', 8);
  await play(ada, bob, 'E7', 9);
  await play(bob, ada, 'J1', 10);

  await ada.page.click('[data-testid=online-pass]');
  await bob.page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid=online-status]').textContent));
  await bob.page.click('[data-testid=online-pass]');
  for (const p of [ada, bob]) {
    await p.page.waitForFunction(() => /wins/.test(document.querySelector('[data-testid=online-status]').textContent));
  }
  // The server counted it: both pages say the same winner, with the margin.
  const said = (await status(ada)).match(/(Black \(Ada\)|White \(Bob\)) wins by .*\(([BW])\+\d+(\.5)?\)/);
  assert.ok(said, await status(ada));
  assert.match(await status(bob), new RegExp(`${said[1].replace(/[()]/g, '\\$&')} wins by`));
  assert.equal(await stones(ada), 10);
  const [winner, loser] = said[2] === 'B' ? ['Ada', 'Bob'] : ['Bob', 'Ada'];

  // Records: the winner won once, the loser lost once; the lobby's leaderboard shows them.
  await ada.page.click('[data-testid=online-leave]');
  await ada.page.waitForFunction((w) => new RegExp(w).test(document.querySelector('[data-testid=online-leaderboard]').textContent), winner);
  const record = async (name) => (await fetch(`${base}api/players/${encodeURIComponent(name)}`)).json();
  assert.deepEqual([(await record(winner)).wins, (await record(winner)).losses], [1, 0]);
  assert.deepEqual([(await record(loser)).wins, (await record(loser)).losses], [0, 1]);
  const sgf = await (await fetch(`${base}api/games/1/sgf`)).text();
  assert.match(sgf, /;B\[ee\];W\[cg\];B\[gc\];W\[cc\];B\[gg\];W\[ai\];B\[eg\];W\[aa\];B\[ec\];W\[ii\];B\[\];W\[\]/);
  assert.match(sgf, new RegExp(`RE\\[${said[2]}\\+`));

  assert.deepEqual([...ada.errors, ...bob.errors, ...cy.errors], []);
  await ada.context.close();
  await bob.context.close();
  await cy.context.close();
});

test('a taken name, or one with characters names may not have, is refused in the form', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}#/online`);
  for (const [name, why] of [['bob', /taken/], ['<b>Eve</b>', /letters|character/i]]) {
    await page.fill('[data-testid=online-name]', name);
    await page.click('[data-testid=online-register]');
    await page.waitForFunction(() => document.querySelector('[data-testid=online-register-error]').textContent !== '');
    assert.match(await page.textContent('[data-testid=online-register-error]'), why);
    // The refused name is shown as text, never as HTML.
    assert.equal(await page.locator('[data-testid=online-register-error] b').count(), 0);
  }
  await context.close();
});

test("a person who finds nobody waiting plays the server's AI, which answers at once", async () => {
  const dee = await person('Dee');
  assert.match(await dee.page.textContent('[data-testid=online-house]'), /^Play 🤖 GridArena$/);
  await dee.page.selectOption('[data-testid=online-color]', 'black');
  await dee.page.click('[data-testid=online-seek]');
  await dee.page.waitForSelector('[data-testid=online-waiting]');
  // Nobody comes: from the waiting line, the house instead.
  assert.match(await dee.page.textContent('[data-testid=online-waiting-house]'), /or play 🤖 GridArena/);
  await dee.page.click('[data-testid=online-waiting-house]');
  await dee.page.waitForSelector('[data-testid=goban] .pt');
  assert.match(await dee.page.textContent('[data-testid=online-black]'), /Dee \(you\)/);
  assert.match(await dee.page.textContent('[data-testid=online-white]'), /🤖 GridArena/);
  assert.match(await status(dee), /Your move/);
  for (const [vertex, n] of [['E5', 2], ['C3', 4]]) {
    await dee.page.click(`[data-testid=goban] .pt[data-vertex="${vertex}"]`);
    await dee.page.waitForFunction((k) => document.querySelectorAll('[data-testid=goban] .stone').length === k, n,
      { timeout: 30_000 });
    await dee.page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid=online-status]').textContent));
  }
  // One house game at a time: the lobby's button says why not while this one is on.
  await dee.page.click('[data-testid=online-leave]');
  await dee.page.click('[data-testid=online-house]');
  await dee.page.waitForFunction(() => /already/.test(document.querySelector('[data-testid=online-notice]').textContent));
  assert.deepEqual(dee.errors, []);
  await dee.context.close();
});
