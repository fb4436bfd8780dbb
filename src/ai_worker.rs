//! A Web Worker that runs built-in AIs, so a search of a few milliseconds never delays the page.
//!
//! The worker runs the page's own compiled wasm module (no second download, nothing extra to build) and answers
//! each job by calling one of the module's exports, named when the worker starts: Halma's
//! `halma_builtin_answer` or Go's `go_builtin_answer`. One worker per Halma team lets both teams think at the
//! same moment, as two web AIs would. Terminating a worker is the only way to stop a computation, so a page
//! does that to an AI whose answer it no longer wants.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker, WorkerOptions, WorkerType};

#[wasm_bindgen]
extern "C" {
    type ImportMeta;
    #[wasm_bindgen(method, getter)]
    fn url(this: &ImportMeta) -> String;
    /// `import.meta` of the wasm-bindgen module that loaded this wasm: its URL is what the worker imports.
    #[wasm_bindgen(thread_local_v2, js_namespace = import, js_name = meta)]
    static IMPORT_META: ImportMeta;
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
    /// Starts a worker that answers each job with the module's function `export`; `on_reply` receives
    /// everything it says.
    pub fn spawn(
        export: &'static str,
        on_reply: impl Fn(Reply) + Clone + 'static,
    ) -> Result<AiWorker, String> {
        let glue = IMPORT_META.with(ImportMeta::url);
        let source = format!(
            "const GLUE = {};\nconst ANSWER = {};\n{}",
            serde_json::Value::from(glue),
            serde_json::Value::from(export),
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
        if let Err(e) = worker.post_message(&wasm_bindgen::module()) {
            worker.terminate();
            let _ = Url::revoke_object_url(&script_url);
            return Err(js_error(e));
        }
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
