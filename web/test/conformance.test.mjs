// The conformance suite, page side: each case of tests/fixtures/conformance/cases.json played by the page's
// code-player runtime (the worker's code, web/code-runtime.mjs with the runners of web/runners/), under
// Node as web/test/runtime.test.mjs runs it. crates/cli/tests/conformance.rs plays the same cases on the
// command line: one case, both hosts, the same moves, failure names and printed text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CodeRuntime } from '../code-runtime.mjs';
import { PYTHON_SOURCES } from './sources.mjs';

const PYODIDE = fileURLToPath(new URL('../node_modules/pyodide/', import.meta.url));
const CASES = JSON.parse(readFileSync(new URL('../../tests/fixtures/conformance/cases.json', import.meta.url), 'utf8'));
/** A course move's input.txt: "CLASSIC" is the classic start, red to move first with the full clock (the
 * command line's test checks that its game writes exactly this file). */
const INPUTS = { CLASSIC: readFileSync(new URL('../../tests/fixtures/conformance/classic_input.txt', import.meta.url), 'utf8') };
/** The cap both hosts keep of a move's printing (MAX_OUTPUT_CHARS in crates/engine/src/halma/code/reply.rs). */
const OUTPUT_CHARS = 8000;

const rt = new CodeRuntime({ pythonSources: PYTHON_SOURCES });
let nextId = 1;

/** Checks one reply against what the case expects of it. */
function expectReply(where, reply, want) {
  const printed = reply.output ?? '';
  if ('printed' in want) assert.equal(printed, want.printed ?? '', `${where}: printed text`);
  for (const part of want.printed_contains ?? []) assert.ok(printed.includes(part), `${where}: ${JSON.stringify(part)} not printed in ${JSON.stringify(printed)}`);
  if (want.code) {
    assert.equal(reply.ok === true, false, `${where}: should fail ${want.code}: ${JSON.stringify(reply)}`);
    assert.equal(reply.code, want.code, `${where}: ${reply.message}`);
    for (const part of want.message ?? []) assert.ok(String(reply.message).includes(part), `${where}: ${JSON.stringify(part)} not in ${JSON.stringify(reply.message)}`);
    for (const part of want.absent ?? []) assert.ok(!String(reply.message).includes(part), `${where}: ${JSON.stringify(part)} in ${JSON.stringify(reply.message)}`);
    return;
  }
  assert.notEqual(reply.ok, false, `${where}: ${JSON.stringify(reply)}`);
  if ('body' in want) {
    // A function's answer is JSON (its spacing is the language's); a course answer is output.txt's text.
    if (typeof want.body === 'string') assert.equal(reply.body, want.body, `${where}: output.txt`);
    else assert.deepEqual(JSON.parse(reply.body), want.body, `${where}: the answer`);
  }
}

for (const c of CASES) {
  test(`conformance (page): ${c.name}`, async () => {
    const files = Object.entries(c.files).map(([path, text]) => ({ path, text }));
    const started = await rt.handle({
      kind: 'start', lang: c.lang, format: c.format, main: c.main, seed: c.seed, pyodideUrl: PYODIDE,
      limits: { outputChars: OUTPUT_CHARS, memoryMb: 1024 }, files,
    });
    expectReply('start', { ...started, ok: started.kind === 'ready' }, c.start);
    if (started.kind !== 'ready') return;
    for (const [i, m] of c.moves.entries()) {
      const reply = await rt.handle({ kind: 'move', id: nextId++, request: JSON.stringify(m.request ?? null), input: INPUTS[m.input] });
      expectReply(`move ${i + 1}`, reply, m);
    }
  });
}
