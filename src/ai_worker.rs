//! A Web Worker that runs built-in AIs, so a search of a few milliseconds never delays the page.
//!
//! The worker loads a game's AI module (`src/bin/gridarena-ai-*.rs`: the game's rules and AI, no page),
//! named when the worker starts, and answers each job by calling its export `answer`. A page's own
//! module carries no AI, so its first download is smaller and a worker never starts the UI framework. One worker per Halma team
//! lets both teams think at the same moment, as two web AIs would. Terminating a worker is the only way
//! to stop a computation, so a page does that to an AI whose answer it no longer wants.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker, WorkerOptions, WorkerType};

#[wasm_bindgen]
extern "C" {
    type ImportMeta;
    #[wasm_bindgen(method, getter)]
    fn url(this: &ImportMeta) -> String;
    /// `import.meta` of the wasm-bindgen module that loaded this wasm: the AI modules lie beside it.
    #[wasm_bindgen(thread_local_v2, js_namespace = import, js_name = meta)]
    static IMPORT_META: ImportMeta;
}

#[wasm_bindgen(inline_js = "
const loaded = new Map();
export function ai_answer_here(js, job) {
  if (!loaded.has(js)) {
    const start = import(js).then(async (m) => { await m.default(); return m; });
    start.catch(() => loaded.delete(js));
    loaded.set(js, start);
  }
  return loaded.get(js).then((m) => m.answer(job));
}
const warmed = new Set();
export function ai_preload(js) {
  if (warmed.has(js)) return;
  warmed.add(js);
  const go = () => {
    for (const url of [js, js.replace(/\\.js$/, '_bg.wasm')]) fetch(url).catch(() => {});
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(go, { timeout: 2000 });
  else setTimeout(go, 200);
}")]
extern "C" {
    /// Loads the AI module at `js` on the page's own thread (once) and answers `job` with it: for a
    /// browser that cannot run the workers.
    fn ai_answer_here(js: &str, job: &str) -> js_sys::Promise;
    /// Fetches the AI module's files once the page is idle, so the first tick finds them in the cache.
    fn ai_preload(js: &str);
}

/// What an AI module's reply starts with when the AI has no move to give, followed by why: each game's
/// `builtin` writes and reads it, and a module that did not load answers with it too.
pub(crate) const NO_MOVE: &str = "error: ";

/// The JavaScript of the AI module `module` (`gridarena-ai-halma`), beside the page's own module
/// (dist/ may live under any sub-path of a host).
fn module_url(module: &str) -> String {
    let page = IMPORT_META.with(ImportMeta::url);
    let file = format!("./{module}.js");
    Url::new_with_base(&file, &page)
        .map(|u| u.href())
        .unwrap_or(file)
}

/// Fetches the AI module `module` when the page is idle after its first board: a page that runs
/// built-in AIs calls it once it is mounted, so its first game's first tick waits for no download.
pub fn preload_when_idle(module: &str) {
    ai_preload(&module_url(module));
}

/// The AI module's answer to `job`, worked out on this thread (the module is loaded once): slower, and
/// the page waits while it thinks, so only for a browser where workers cannot run.
pub(crate) async fn answer_here(module: &str, job: &str) -> String {
    let promise = ai_answer_here(&module_url(module), job);
    match wasm_bindgen_futures::JsFuture::from(promise).await {
        Ok(reply) => reply.as_string().unwrap_or_default(),
        Err(e) => format!("{NO_MOVE}the AI module did not load: {}", js_error(e)),
    }
}

/// What a worker said.
pub enum Reply {
    /// The answer body for the oldest job not yet answered.
    Answer(String),
    /// The worker cannot run (its module did not load, or it crashed); it will answer nothing more.
    Failed(String),
}

/// A running worker; dropping it terminates it.
pub struct AiWorker {
    worker: Worker,
    script_url: String,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl AiWorker {
    /// Starts a worker that answers each job with the AI module `module`; `on_reply` receives
    /// everything it says.
    pub fn spawn(
        module: &'static str,
        on_reply: impl Fn(Reply) + Clone + 'static,
    ) -> Result<AiWorker, String> {
        let source = format!(
            "const GLUE = {};\n{}",
            serde_json::Value::from(module_url(module)),
            include_str!("ai_worker.js")
        );
        let parts = js_sys::Array::of1(&JsValue::from_str(&source));
        let options = BlobPropertyBag::new();
        options.set_type("text/javascript");
        let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(js_error)?;
        let script_url = Url::create_object_url_with_blob(&blob).map_err(js_error)?;
        let worker_options = WorkerOptions::new();
        worker_options.set_type(WorkerType::Module);
        let worker = match Worker::new_with_options(&script_url, &worker_options) {
            Ok(w) => w,
            Err(e) => {
                let _ = Url::revoke_object_url(&script_url);
                return Err(js_error(e));
            }
        };
        let reply = on_reply.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data();
            match data.as_string() {
                Some(text) => reply(Reply::Answer(text)),
                None => {
                    let why = js_sys::Reflect::get(&data, &"failed".into())
                        .ok()
                        .and_then(|v| v.as_string())
                        .unwrap_or_else(|| "the worker sent an unexpected message".to_string());
                    reply(Reply::Failed(why));
                }
            }
        });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            let why = error_event_text(&ev, "the worker could not start");
            on_reply(Reply::Failed(why));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(AiWorker {
            worker,
            script_url,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends one job, a string the export reads.
    pub fn post(&self, job: &str) -> Result<(), String> {
        self.worker
            .post_message(&JsValue::from_str(job))
            .map_err(js_error)
    }
}

impl Drop for AiWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
        let _ = Url::revoke_object_url(&self.script_url);
    }
}

/// What a worker's `error` event says (a script that did not load, an exception nobody caught), or
/// `otherwise`; the event is marked handled, so the browser does not report it again.
pub(crate) fn error_event_text(ev: &web_sys::Event, otherwise: &str) -> String {
    ev.prevent_default();
    ev.dyn_ref::<web_sys::ErrorEvent>()
        .map(|e| e.message())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| otherwise.to_string())
}

/// A JavaScript exception's message.
pub(crate) fn js_error(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_string())
}
