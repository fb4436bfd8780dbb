// The built-in AIs' worker. The page builds it from a Blob, with GLUE (defined above this text) set to the
// URL of a game's AI module (the wasm-bindgen JavaScript of src/bin/gridarena-ai-*.rs). The module loads as
// the worker starts, fetching its wasm from beside GLUE. Every message is a job (a string) for the
// module's `answer`; each reply is the answer (a string), in order: jobs that come while the module loads
// wait on the same promise, which hands them on in the order they came. If the module cannot start, one
// { failed } object says why and the page answers on its own thread.
const app = import(GLUE).then(async (m) => {
  await m.default();
  return m;
});
app.catch((e) => postMessage({ failed: String(e) }));
onmessage = async ({ data }) => {
  let m;
  try {
    m = await app;
  } catch {
    return;
  }
  postMessage(m.answer(data));
};
