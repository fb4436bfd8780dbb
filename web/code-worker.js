// The code-player Worker (an ES module worker, one per code player): receives the page's messages, lets
// code-runtime.mjs answer them one at a time, and posts the replies. The protocol is described at the top of
// code-runtime.mjs.
//
// Built by esbuild into dist/code/worker.js (--bundle --splitting --format=esm): acorn becomes a chunk that
// only JavaScript players load; Pyodide is not bundled: the runtime imports `${pyodideUrl}pyodide.mjs` at
// run time, by default from dist/pyodide/ next to dist/code/.
//
// Before any student code runs, the runtime closes the network (fetch, XMLHttpRequest, WebSocket, ...; see
// closeNetwork) once Pyodide has loaded its own files. Here, at once: the worker's postMessage is kept for
// the replies and taken away from the student's code, so it cannot post answers of its own; and only
// messages the page really sent (isTrusted) are obeyed, not events the student's code dispatches.
import { CodeRuntime, noteUncaught } from './code-runtime.mjs';
// The Python runner, one source with the command line's (esbuild's text loader makes each a string).
import FUNCTION_PY from './runners/function.py';
import COURSE_PY from './runners/course.py';

const scope = globalThis;
const post = scope.postMessage.bind(scope);
for (let o = scope; o; o = Object.getPrototypeOf(o)) {
  if (Object.prototype.hasOwnProperty.call(o, 'postMessage')) {
    try {
      delete o.postMessage;
    } catch {
      // not configurable: shadowed below
    }
  }
}
Object.defineProperty(scope, 'postMessage', {
  value: function postMessage() {
    throw new Error('postMessage is closed to code players: return the move from move()');
  },
  writable: false,
  configurable: false,
  enumerable: false,
});

const runtime = new CodeRuntime({
  onProgress: (text) => post({ kind: 'progress', text }),
  pyodideUrl: new URL('../pyodide/', import.meta.url).href,
  pythonSources: [['function.py', FUNCTION_PY], ['course.py', COURSE_PY]],
});

let queue = Promise.resolve();
scope.addEventListener('message', (event) => {
  if (!event.isTrusted) return;
  const msg = event.data;
  queue = queue
    .then(() => runtime.handle(msg))
    .then(
      (reply) => {
        if (reply) post(reply);
      },
      (error) => {
        // a failure of the runtime itself: say so rather than leave the page waiting
        const message = `the code-player runtime failed: ${error?.message ?? error}`;
        if (msg?.kind === 'move') post({ kind: 'answer', id: msg.id, ok: false, code: 'crashed', message, output: '', outputChars: 0, ms: 0, restart: true });
        else post({ kind: 'failed', code: 'could_not_start', message, output: '', outputChars: 0, restart: true });
      },
    );
});

// Errors the student's code throws outside the call of move (timers, promises nobody awaits) stay in this
// worker: they go to the output of the move in progress, and the page hears only of the moves.
// preventDefault and stopImmediatePropagation are taken now: code that replaces Event.prototype's (a no-op
// preventDefault, then reportError) would otherwise let its own error event reach the page, which reads an
// error event as the worker failing, with the code's words. Capturing listeners run before any the code
// adds.
const apply = Reflect.apply;
const preventDefault = Event.prototype.preventDefault;
const stopImmediate = Event.prototype.stopImmediatePropagation;
const swallow = (event) => {
  apply(preventDefault, event, []);
  apply(stopImmediate, event, []);
};
scope.addEventListener(
  'error',
  (event) => {
    swallow(event);
    noteUncaught(event.error ?? event.message);
  },
  true,
);
scope.addEventListener(
  'unhandledrejection',
  (event) => {
    swallow(event);
    noteUncaught(event.reason);
  },
  true,
);
