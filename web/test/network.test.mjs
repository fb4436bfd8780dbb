// Every way a Python player could reach the network from Pyodide, tried one per move under Node: the move
// is refused with `network` (even though the code catches the error) and nothing reaches the fake network
// below.
//
// A file of its own, so that its fake browser is in place before Pyodide loads (node --test runs each file
// in a process of its own). The network APIs live on the global object's prototype, as they may in a
// worker (WorkerGlobalScope.prototype): fetch, XMLHttpRequest (whose synchronous send returns a body at
// once, as a worker's does), WebSocket, EventSource; navigator has sendBeacon, storage, storageBuckets and
// locks. (Not importScripts: Pyodide's Emscripten part would take Node for a classic worker.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { CodeRuntime } from '../code-runtime.mjs';
import { PYTHON_SOURCES } from './sources.mjs';

const PYODIDE = fileURLToPath(new URL('../node_modules/pyodide/', import.meta.url));
const URL_ = 'http://127.0.0.1:9/secret';

/** What reached the fake network, in order. */
const reached = [];
globalThis.__reached = reached;
globalThis.self = globalThis;
const proto = Object.getPrototypeOf(globalThis);
delete globalThis.fetch;
Object.assign(proto, {
  fetch: function fetch(url) {
    reached.push(`fetch ${url}`);
    return Promise.resolve(new Response('secret body'));
  },
  XMLHttpRequest: class XMLHttpRequest {
    open(method, url) {
      this.url = url;
    }
    setRequestHeader() {}
    overrideMimeType() {}
    getAllResponseHeaders() {
      return 'content-type: text/plain\r\n';
    }
    getResponseHeader() {
      return 'text/plain';
    }
    send() {
      reached.push(`XMLHttpRequest ${this.url}`);
      this.status = 200;
      this.statusText = 'OK';
      this.readyState = 4;
      this.responseURL = this.url;
      this.response = 'secret body';
      this.responseText = 'secret body';
    }
  },
  WebSocket: class WebSocket {
    constructor(url) {
      reached.push(`WebSocket ${url}`);
    }
  },
  EventSource: class EventSource {
    constructor(url) {
      reached.push(`EventSource ${url}`);
    }
  },
});
const navProto = {
  userAgent: 'Node.js',
  sendBeacon(url) {
    reached.push(`sendBeacon ${url}`);
    return true;
  },
  get storage() {
    return { estimate: async () => ({ quota: 1 }), getDirectory: async () => reached.push('storage.getDirectory') };
  },
  get storageBuckets() {
    return { open: async () => reached.push('storageBuckets.open') };
  },
  get locks() {
    return { request: async () => reached.push('locks.request') };
  },
};
Object.defineProperty(globalThis, 'navigator', { value: Object.create(navProto), configurable: true, writable: true });

const rt = new CodeRuntime({ pythonSources: PYTHON_SOURCES });
let nextId = 1;
const start = (text) =>
  rt.handle({
    kind: 'start', lang: 'python', format: 'function', main: 'main.py', seed: '1', pyodideUrl: PYODIDE,
    limits: { outputChars: 4000, memoryMb: 1024 }, files: [{ path: 'main.py', text }],
  });
const move = (request) => rt.handle({ kind: 'move', id: nextId++, request: JSON.stringify(request) });

// Each path: the Python statements of one try, and the name the refusal must give.
const PATHS = {
  'pyodide.http.pyxhr.get': ['from pyodide.http import pyxhr\nr = pyxhr.get(URL)\nprint("body", r.text)', 'XMLHttpRequest'],
  'pyodide.http.XMLHttpRequest': ['import pyodide.http as h\nx = h.XMLHttpRequest.new()\nx.open("GET", URL, False)\nx.send()\nprint("body", x.response)', 'XMLHttpRequest'],
  'pyxhr.XMLHttpRequest': ['from pyodide.http import pyxhr\nx = pyxhr.XMLHttpRequest.new()\nx.open("GET", URL, False)\nx.send()', 'XMLHttpRequest'],
  '_pyfetch._jsfetch': ['from pyodide.http import _pyfetch\n_pyfetch._jsfetch(URL)', 'fetch'],
  'pyodide.http.open_url': ['from pyodide.http import open_url\nprint("body", open_url(URL).read())', 'open_url'],
  'pyodide.http.pyfetch': ['from pyodide.http import pyfetch\npyfetch(URL)', 'pyfetch'],
  'js.fetch': ['import js\njs.fetch(URL)', 'fetch'],
  'from js import fetch': ['from js import fetch\nfetch(URL)', 'fetch'],
  'js.XMLHttpRequest': ['import js\nx = js.XMLHttpRequest.new()\nx.open("GET", URL, False)\nx.send()', 'XMLHttpRequest'],
  'js.globalThis.fetch': ['import js\njs.globalThis.fetch(URL)', 'fetch'],
  'js.self.fetch': ['import js\njs.self.fetch(URL)', 'fetch'],
  'prototype fetch': ['import js\njs.Object.getPrototypeOf(js.globalThis).fetch(URL)', 'fetch'],
  'prototype XMLHttpRequest': ['import js\nx = js.Object.getPrototypeOf(js).XMLHttpRequest.new()\nx.open("GET", URL, False)\nx.send()', 'XMLHttpRequest'],
  'Reflect.get fetch': ['import js\njs.Reflect.get(js.Object.getPrototypeOf(js), "fetch")(URL)', 'fetch'],
  'js.importScripts': ['import js\njs.importScripts(URL)', 'importScripts'],
  'js.WebSocket': ['import js\njs.WebSocket.new("ws://127.0.0.1:9/")', 'WebSocket'],
  'js.EventSource': ['import js\njs.EventSource.new(URL)', 'EventSource'],
  'js.navigator.sendBeacon': ['import js\njs.navigator.sendBeacon(URL)', 'sendBeacon'],
  'js.eval': ['import js\njs.eval("fetch(\'" + URL + "\')")', 'eval'],
  'pyodide.code.run_js': ['from pyodide.code import run_js\nrun_js("fetch(\'" + URL + "\')")', 'eval'],
  'js.Function': ['import js\njs.Function("return fetch")()(URL)', 'Function'],
  'js.Function.new': ['import js\njs.Function.new("globalThis.__reached.push(\'Function.new\')")()', 'Function'],
  'a function\'s constructor': ['import js\njs.Object.getPrototypeOf(js.Math.max).constructor("globalThis.__reached.push(\'constructor\')")()', 'Function'],
  'setTimeout with a string': ['import js\njs.setTimeout("globalThis.__reached.push(\'setTimeout\')", 0)', 'setTimeout'],
  'pyodide_js API Function': ['import pyodide_js\npyodide_js._api.tests.Function("globalThis.__reached.push(\'tests.Function\')")()', 'Function'],
  'pyodide_js.loadPackage': ['import pyodide_js\npyodide_js.loadPackage(URL)', 'loadPackage'],
  'pyodide_js.loadPackagesFromImports': ['import pyodide_js\npyodide_js.loadPackagesFromImports("import numpy")', 'loadPackage'],
  'pyodide.ffi to Function': ['from pyodide.ffi import to_js\nto_js({}).constructor.constructor("return globalThis")().fetch(URL)', 'Function'],
};

test('Python: every path to the network from js, pyodide and pyodide_js is refused, and none reaches it', async () => {
  const cases = Object.entries(PATHS);
  const branches = cases
    .map(([name, [code]], i) => `        ${i ? 'elif' : 'if'} how == ${JSON.stringify(name)}:\n${code.split('\n').map((l) => `            ${l}`).join('\n')}`)
    .join('\n');
  const ready = await start(`URL = ${JSON.stringify(URL_)}\ndef move(request):\n    how = request["how"]\n    try:\n${branches}\n    except BaseException as e:\n        print("caught", type(e).__name__)\n    return None\n`);
  assert.equal(ready.kind, 'ready', JSON.stringify(ready));
  reached.length = 0;
  const leaks = [];
  for (const [name, [, what]] of cases) {
    const a = await move({ how: name });
    await new Promise((ok) => setTimeout(ok, 20)); // what a promise or a timer would reach afterwards
    const b = await move({ how: 'nothing' });
    if (reached.length) leaks.push(`${name} reached ${reached.join(', ')}`);
    else if (a.code !== 'network') leaks.push(`${name}: not refused as network (${a.ok ? 'ok' : `${a.code}: ${a.message}`}; printed ${a.output.trim()})`);
    else if (!a.message.includes(what)) leaks.push(`${name}: refused, but named ${a.message}`);
    else if (!b.ok) leaks.push(`${name}: the next move was refused too (${b.code}: ${b.message})`);
    reached.length = 0;
  }
  assert.deepEqual(leaks, []);
});

test('navigator.storage, storageBuckets and locks are closed, to Python and to JavaScript', async () => {
  const ready = await start('import js\ndef move(request):\n    try:\n        getattr(js.navigator, request["what"]).estimate()\n    except BaseException as e:\n        print("caught", type(e).__name__)\n    return None\n');
  assert.equal(ready.kind, 'ready', JSON.stringify(ready));
  for (const what of ['storage', 'storageBuckets', 'locks']) {
    const a = await move({ what });
    assert.equal(a.code, 'network', `${what}: ${JSON.stringify(a)}`);
    assert.match(a.message, new RegExp(`navigator\\.${what}`));
    assert.match(a.output, /caught/);
  }
  const js = await rt.handle({
    kind: 'start', lang: 'javascript', format: 'function', main: 'main.js', seed: '1', limits: { outputChars: 4000, memoryMb: 1024 },
    files: [{ path: 'main.js', text: 'export function move(r) {\n  try { navigator[r.what].request("x", () => 1); } catch {}\n  return null;\n}\n' }],
  });
  assert.equal(js.kind, 'ready', JSON.stringify(js));
  for (const what of ['storage', 'storageBuckets', 'locks']) {
    const a = await move({ what });
    assert.equal(a.code, 'network', `${what}: ${JSON.stringify(a)}`);
    assert.match(a.message, new RegExp(`navigator\\.${what}`));
  }
  assert.deepEqual(reached, []);
});
