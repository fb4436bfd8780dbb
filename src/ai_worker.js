// The built-in AIs' worker. The page builds it from a Blob, with GLUE (defined above this text) set to the
// URL of the page's own wasm-bindgen module and ANSWER to the name of the export that answers a job. The page
// sends its compiled WebAssembly.Module as the first message: the worker runs the very wasm the page runs,
// without fetching or compiling it again. Every later message is a job (a string); each reply is the
// answer (a string), in order. If the module cannot start, one { failed } object says why and the page
// plays on its own thread.
let app;
onmessage = async ({ data }) => {
  if (!app) {
    app = import(GLUE).then(async (m) => {
      await m.default({ module_or_path: data });
      return m;
    });
    app.catch((e) => postMessage({ failed: String(e) }));
    return;
  }
  let m;
  try {
    m = await app;
  } catch {
    return;
  }
  postMessage(m[ANSWER](data));
};
