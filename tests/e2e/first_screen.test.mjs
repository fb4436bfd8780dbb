// The first screen of every page, at a phone's, a laptop's and a projector's size (issue 52, items 8 and 9):
// nothing overflows its box, its panel or the window, and the screen shows, without scrolling, what the page
// is, who plays and what to press. Each screen is saved as a PNG (the folder is printed) for a person to
// look at; the checks below are what fails the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist, launch } from './harness.mjs';

let server, browser;
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'gridarena-first-screen-'));
before(async () => {
  server = await serveDist('/');
  browser = await launch();
  console.log(`first-screen screenshots: ${shots}`);
});
after(async () => { await browser?.close(); server?.close(); });

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1366, height: 900 },
  { name: 'projector', width: 1920, height: 1080 },
];

/**
 * Every page: its address, what shows it has started (the lazy parts of its first screen included), and
 * what its first screen must show whole: the page's name (the header's link to the page, marked current),
 * who plays, and what to press. Each entry of `players` and `press` is one selector that must match a
 * visible element inside the window.
 */
const PAGES = [
  { page: 'Halma arena', hash: '', ready: '[data-testid=new-game]',
    players: ['[data-testid=player-red]', '[data-testid=player-blue]'],
    press: ['[data-testid=step]', '[data-testid=run]', '[data-testid=board]'] },
  { page: 'Go', hash: 'go', ready: '[data-testid=go-new-game]',
    players: ['[data-testid=player-black]', '[data-testid=player-white]'],
    press: ['[data-testid=goban]', '[data-testid=pass]'] },
  { page: 'Online Go', hash: 'online', ready: '[data-testid=online-register]',
    players: ['[data-testid=online-name]'],
    press: ['[data-testid=online-register]'] },
  { page: 'HyperChess', hash: 'hyperchess', ready: '[data-testid=hc-new]',
    players: ['[data-testid=hc-opponent]'],
    press: ['[data-testid=hc-new]', '[data-testid=hc-slice]'] },
  { page: 'Tournament', hash: 'tournament', ready: '[data-testid=start]',
    players: ['.t-roster legend', '[data-testid=entry-name]'],
    press: ['[data-testid=start]'] },
  { page: 'Compare', hash: 'compare', ready: '[data-testid=compare-start]',
    players: ['[data-testid=compare-a]', '[data-testid=compare-b]'],
    press: ['[data-testid=compare-start]'] },
  { page: 'Test an AI', hash: 'doctor', ready: '[data-testid=doctor-url]',
    players: ['[data-testid=doctor-url]'],
    press: ['[data-testid=doctor-run]'] },
  { page: 'Write an AI', hash: 'code', ready: '[data-testid=new-ai-create]',
    players: ['[data-testid=new-ai-name]', '[data-testid=new-ai-template]'],
    press: ['[data-testid=new-ai-create]'],
    // Before an AI is made: what to do, in the editor's place, and no bare line-number gutter.
    says: /choose a starter/i, hidden: ['[data-testid=editor] .cm-gutters'] },
];

/**
 * Run in the page: every element that overflows, named by a short selector with why. An element overflows
 * when its content is wider than its box (and the box does not scroll), when it reaches past the window's
 * sides, or when it sticks out of the panel around it (a menu wider than its column); and the page itself
 * when it scrolls sideways. What sits in a scrolling box may run past it: that is what the box is for.
 */
function layoutFaults() {
  const one = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += `#${e.id}`;
    if (e.dataset?.testid) s += `[data-testid="${e.dataset.testid}"]`;
    const classes = [...e.classList].slice(0, 3);
    if (classes.length) s += `.${classes.join('.')}`;
    return s;
  };
  const name = (e) => {
    const parts = [];
    for (let a = e; a && a !== document.body && parts.length < 3; a = a.parentElement) parts.unshift(one(a));
    return parts.join(' > ');
  };
  const scrolls = (a) => /auto|scroll/.test(getComputedStyle(a).overflowX);
  const PANELS = 'fieldset, aside, details, dialog, form, .controls, .setup, .replay, .editor, .code-main, '
    + '.go-player, .messages, .t-card, .doctor-check, [role=menu], [role=listbox], [role=dialog]';
  const faults = [];
  // An element inside one already named for the same fault is not named again: the outermost says it.
  const named = { content: new Set(), window: new Set(), panel: new Set() };
  const inNamed = (e, kind) => {
    for (let a = e.parentElement; a; a = a.parentElement) if (named[kind].has(a)) return true;
    return false;
  };
  const fault = (e, kind, text) => {
    if (!inNamed(e, kind)) faults.push(text);
    named[kind].add(e);
  };
  const root = document.documentElement;
  const width = root.clientWidth;
  if (root.scrollWidth > width + 1) {
    faults.push(`the page scrolls sideways: ${root.scrollWidth}px of content in a ${width}px window`);
  }
  for (const e of document.body.querySelectorAll('*')) {
    // An SVG drawing's parts are its own business; the drawing itself is checked.
    if (e instanceof SVGElement && !(e instanceof SVGSVGElement)) continue;
    const style = getComputedStyle(e);
    if (style.display === 'none' || style.display === 'contents' || style.visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const field = /^(INPUT|TEXTAREA|SELECT)$/.test(e.tagName);
    if (!field && !scrolls(e) && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
      fault(e, 'content', `${name(e)}: its content is ${e.scrollWidth}px wide in a ${e.clientWidth}px box`);
    }
    let inScroller = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (scrolls(a)) { inScroller = true; break; }
    }
    if (inScroller || style.position === 'fixed') continue;
    if (r.left < -1 || r.right > width + 1) {
      fault(e, 'window', `${name(e)}: reaches past the window (${Math.round(r.left)} to ${Math.round(r.right)} of ${width}px)`);
    }
    const panel = e.parentElement?.closest(PANELS);
    if (panel) {
      const p = panel.getBoundingClientRect();
      if (r.left < p.left - 1 || r.right > p.right + 1) {
        fault(e, 'panel', `${name(e)}: sticks out of its panel ${one(panel)} (${Math.round(r.left)} to `
          + `${Math.round(r.right)}, the panel ${Math.round(p.left)} to ${Math.round(p.right)})`);
      }
    }
  }
  return faults;
}

/** Run in the page: for each selector, why no element it matches is seen whole in the first screen (none
 *  when one is). */
function notShown(selectors) {
  const missing = [];
  for (const selector of selectors) {
    const all = [...document.querySelectorAll(selector)];
    if (!all.length) { missing.push(`${selector}: not on the page`); continue; }
    const seen = all.some((e) => {
      const r = e.getBoundingClientRect();
      const style = getComputedStyle(e);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden'
        && r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= document.documentElement.clientWidth + 1;
    });
    if (!seen) {
      const r = all[0].getBoundingClientRect();
      missing.push(`${selector}: not in the first screen (top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)}, `
        + `window ${innerHeight}px high)`);
    }
  }
  return missing;
}

/** Run in the page: the selectors that match an element seen on the screen (none should). */
function shownOf(selectors) {
  return selectors.filter((s) => [...document.querySelectorAll(s)].some((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  }));
}

/** Run in the page: whether a visible element in <main> says `pattern`, whole in the first screen. */
function saysInFirstScreen([source, flags]) {
  const pattern = new RegExp(source, flags);
  return [...document.querySelectorAll('main *')].some((e) => {
    if (!pattern.test(e.textContent) || [...e.children].some((c) => pattern.test(c.textContent))) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
  });
}

for (const { page: title, hash, ready, players, press, says, hidden = [] } of PAGES) {
  test(`the first screen of ${title} says what it is, who plays and what to press, and nothing overflows`, async () => {
    const problems = [];
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}#/${hash}`);
      await page.waitForSelector(ready);
      // Fonts and the lazy parts settle; a late layout change would show in the checks.
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(300);
      const file = path.join(shots, `${hash || 'arena'}-${size.name}-${size.width}x${size.height}.png`);
      await page.screenshot({ path: file });
      const current = await page.textContent('header.top nav a[aria-current=page]');
      if (current?.trim() !== title) problems.push(`${size.name}: the header names the page "${current}"`);
      const said = [
        ...(await page.evaluate(notShown, ['header.top nav a[aria-current=page]'])).map((m) => `the page's name ${m}`),
        ...(await page.evaluate(notShown, players)).map((m) => `who plays: ${m}`),
        ...(await page.evaluate(notShown, press)).map((m) => `what to press: ${m}`),
        ...(await page.evaluate(layoutFaults)).map((m) => `overflow: ${m}`),
        ...(await page.evaluate(shownOf, hidden)).map((s) => `shown, and should not be: ${s}`),
        ...errors.map((m) => `page error: ${m}`),
      ];
      if (says && !(await page.evaluate(saysInFirstScreen, [says.source, says.flags]))) {
        said.push(`nothing in the first screen says ${says}`);
      }
      problems.push(...said.map((m) => `${size.name} ${size.width}x${size.height}: ${m}`));
      await page.close();
    }
    assert.deepEqual(problems, [], `${title}: see the screenshots in ${shots}`);
  });
}
