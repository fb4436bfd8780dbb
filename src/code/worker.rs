//! The Web Worker a code player runs in (`code/worker.js` in `dist/`, built from `web/code-worker.js`):
//! starting it, the messages it takes and the ones it sends (docs/code-players.md has the protocol).
//!
//! The worker is the sandbox: it has no page, no storage, and it closes the network before the
//! student's code runs. Terminating it is the only way to stop a move that runs on, so a
//! [`CodeWorker`] terminates its worker when dropped.

use super::ai::{CodeFile, Source};
use super::asset_url;
use serde::Deserialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

/// The most characters of a move's printed output the worker keeps (it counts the rest).
pub const MAX_OUTPUT_CHARS: usize = 8000;
/// The most memory one Python player may grow to, in megabytes, before it is restarted.
pub const MAX_MEMORY_MB: u32 = 1024;

/// What the worker said.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Message {
    /// Loading news ("Loading Python ...").
    Progress { text: String },
    /// The code is loaded and checked, and takes moves.
    #[serde(rename_all = "camelCase")]
    Ready {
        #[serde(default)]
        load_ms: f64,
    },
    /// The code cannot play: a syntax error, an exception at import, no `move` ...
    Failed {
        code: String,
        message: String,
        #[serde(default)]
        output: String,
    },
    /// One move's result.
    Answer(Reply),
}

/// What one move came to, as the worker reports it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reply {
    pub id: u32,
    pub ok: bool,
    /// The answer's text: `move`'s JSON, or `output.txt` (course).
    #[serde(default)]
    pub body: Option<String>,
    /// Why the move failed, when it did.
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    /// What the code printed during the move (capped).
    #[serde(default)]
    pub output: String,
    /// How many characters it printed in all.
    #[serde(default)]
    pub output_chars: u64,
    /// The worker's time for the move.
    #[serde(default)]
    pub ms: f64,
    /// Course format: the files the program keeps in its folder, to carry over a restart.
    #[serde(default)]
    pub side_files: Option<Vec<CodeFile>>,
    /// The worker cannot go on (its memory grew past the cap): it must be replaced.
    #[serde(default)]
    pub restart: bool,
}

/// The start message for `source`, played with `seed`, with `side` files (what a course player wrote
/// in its folder before a restart) written after its own and marked, so that the next game starts
/// without them.
pub fn start_message(source: &Source, seed: u64, side: &[CodeFile]) -> Value {
    // The originals first (a reset goes back to them), then what the program wrote over them.
    let mut files: Vec<Value> = source.files.iter().map(|f| json!(f)).collect();
    for file in side {
        let mut value = json!(file);
        value["side"] = json!(true);
        files.push(value);
    }
    json!({
        "kind": "start",
        "lang": source.lang.key(),
        "format": source.format.key(),
        "main": source.main,
        "files": files,
        "seed": seed.to_string(),
        "pyodideUrl": asset_url("pyodide/"),
        "limits": { "outputChars": MAX_OUTPUT_CHARS, "memoryMb": MAX_MEMORY_MB },
    })
}

/// The reset message: the same code, a new game.
pub fn reset_message(seed: u64) -> Value {
    json!({ "kind": "reset", "seed": seed.to_string() })
}

/// A move: the request JSON, and for the course format the text of `input.txt`.
pub fn move_message(id: u32, request: &str, input: Option<&str>) -> Value {
    json!({ "kind": "move", "id": id, "request": request, "input": input })
}

/// A running worker; dropping it terminates it.
pub struct CodeWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl CodeWorker {
    /// Starts a worker; `on_message` receives what it says, and a worker that breaks (its script did
    /// not load, or it crashed) is a [`Message::Failed`] with the code `could_not_start`.
    pub fn spawn(on_message: impl Fn(Message) + Clone + 'static) -> Result<CodeWorker, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker =
            Worker::new_with_options(&asset_url("code/worker.js"), &options).map_err(js_error)?;
        let said = on_message.clone();
        let on_data = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let text = js_sys::JSON::stringify(&ev.data())
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default();
            match serde_json::from_str::<Message>(&text) {
                Ok(message) => said(message),
                Err(e) => said(Message::Failed {
                    code: "could_not_start".into(),
                    message: format!("the code's worker sent a message the page cannot read: {e}"),
                    output: String::new(),
                }),
            }
        });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            ev.prevent_default();
            let why = ev
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "the code's worker (code/worker.js) did not load".to_string());
            on_message(Message::Failed {
                code: "could_not_start".into(),
                message: why,
                output: String::new(),
            });
        });
        worker.set_onmessage(Some(on_data.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(CodeWorker {
            worker,
            _on_message: on_data,
            _on_error: on_error,
        })
    }

    pub fn post(&self, message: &Value) -> Result<(), String> {
        let value = js_sys::JSON::parse(&message.to_string()).map_err(js_error)?;
        self.worker.post_message(&value).map_err(js_error)
    }
}

impl Drop for CodeWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

fn js_error(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workers_messages_read() {
        let ready: Message = serde_json::from_str(r#"{"kind":"ready","loadMs":12.5}"#).unwrap();
        assert_eq!(ready, Message::Ready { load_ms: 12.5 });
        let answer: Message = serde_json::from_str(
            r#"{"kind":"answer","id":3,"ok":false,"code":"exception","message":"Traceback",
                "output":"hi\n","outputChars":3,"ms":4,"sideFiles":[{"path":"t.bin","base64":"AA=="}]}"#,
        )
        .unwrap();
        let Message::Answer(reply) = answer else {
            panic!("{answer:?}")
        };
        assert_eq!((reply.id, reply.ok, reply.output_chars), (3, false, 3));
        assert_eq!(reply.side_files.unwrap()[0].base64.as_deref(), Some("AA=="));
        assert!(serde_json::from_str::<Message>(r#"{"kind":"gossip"}"#).is_err());
    }
}
