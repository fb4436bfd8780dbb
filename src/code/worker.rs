//! The Web Worker a code player runs in (`code/worker.js` in `dist/`, built from `web/code-worker.js`):
//! starting it, the messages it takes and the ones it sends (docs/code-players.md has the protocol).
//!
//! The worker is the sandbox: it has no page, no storage, and it closes the network before the
//! student's code runs. Terminating it is the only way to stop a move that runs on, so a
//! [`CodeWorker`] terminates its worker when dropped.

use super::ai::{CodeFile, Source};
use super::{asset_url, memory};
use crate::ai_worker::{error_event_text, js_error};
use gridarena_engine::halma::code::source::{MAX_BYTES, MAX_FILES};
use gridarena_engine::halma::code::RunnerReply;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

/// How much of a move's printing the page keeps: the engine's cap, the command line's too.
pub use gridarena_engine::halma::code::MAX_OUTPUT_CHARS;
/// The most memory one player may use, in megabytes: a Python player's WebAssembly heap, which its
/// worker refuses to grow past it; a JavaScript player's worker, as the page measures it ([`memory`]).
pub const MAX_MEMORY_MB: u32 = 1024;
/// The longest message the page reads from a worker: an answer (64 KiB), the printed output it
/// keeps and a course player's folder (2 MB, as base64), escaped, with room to spare. The worker
/// shares its realm with the student's code, so its messages say what the code wants them to: the
/// page reads none longer than this, and keeps of the rest only what its own caps allow.
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

/// What the worker said.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// Loading news ("Loading Python ...").
    Progress { text: String },
    /// The code is loaded and checked, and takes moves.
    Ready { load_ms: f64 },
    /// The code cannot play: a syntax error, an exception at import, no `move` ...
    Failed { code: String, message: String },
    /// One move's result.
    Answer(Reply),
}

impl Message {
    /// Reads a message's JSON text. By hand, through a `Value`, as the page reads all its JSON: a
    /// derived reader for a tagged enum would add kilobytes to the arena's start page.
    pub fn read(text: &str) -> Result<Message, String> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(format!(
                "a message of {} bytes, over the {MAX_MESSAGE_BYTES} it may send",
                text.len()
            ));
        }
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let field = |k: &str| {
            value
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        match value.get("kind").and_then(Value::as_str) {
            Some("progress") => Ok(Message::Progress {
                text: field("text"),
            }),
            Some("ready") => Ok(Message::Ready {
                load_ms: value.get("loadMs").and_then(Value::as_f64).unwrap_or(0.0),
            }),
            Some("failed") => Ok(Message::Failed {
                code: field("code"),
                message: field("message"),
            }),
            Some("answer") => serde_json::from_value::<Reply>(value)
                .map_err(|e| e.to_string())?
                .capped()
                .map(Message::Answer),
            other => Err(format!("unknown kind {other:?}")),
        }
    }
}

/// What one move came to, as the worker reports it: the runner's reply, read the same way on the command
/// line ([`RunnerReply`]), and what only the page's worker says.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reply {
    pub id: u32,
    #[serde(flatten)]
    pub runner: RunnerReply,
    /// The worker's time for the move; the page replaces it with its own ([`super::player`]).
    #[serde(default)]
    pub ms: f64,
    /// Course format: the files the program keeps in its folder, to carry over a restart.
    #[serde(default)]
    pub side_files: Option<Vec<CodeFile>>,
    /// The worker cannot go on (its memory grew past the cap): it must be replaced.
    #[serde(default)]
    pub restart: bool,
}

impl Reply {
    /// What the page keeps of a reply, whatever the worker claims: the printed output cut to
    /// [`MAX_OUTPUT_CHARS`] (its count at least what was sent), and a course player's folder within
    /// an AI's own limits, else why not. Its time is the page's to measure ([`super::player`]).
    fn capped(mut self) -> Result<Reply, String> {
        let runner = &mut self.runner;
        let sent = runner.output.chars().count();
        if sent > MAX_OUTPUT_CHARS {
            runner.output = runner.output.chars().take(MAX_OUTPUT_CHARS).collect();
        }
        runner.output_chars = runner.output_chars.max(sent as u64);
        if let Some(files) = &self.side_files {
            let bytes: usize = files
                .iter()
                .map(|f| {
                    f.path.len()
                        + f.text.as_ref().map_or(0, String::len)
                        + f.base64.as_ref().map_or(0, |b| b.len() / 4 * 3)
                })
                .sum();
            if files.len() > MAX_FILES || bytes > MAX_BYTES {
                return Err(format!(
                    "its folder holds {} files and {bytes} bytes: an AI's folder may hold at most \
                     {MAX_FILES} files and {} MB",
                    files.len(),
                    MAX_BYTES / 1_000_000
                ));
            }
        }
        Ok(self)
    }
}

/// A file as the start message carries it: `side` marks what a course player wrote in its folder
/// before a restart, so that the next game starts without it.
#[derive(Serialize)]
struct FileOut<'a> {
    #[serde(flatten)]
    file: &'a CodeFile,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    side: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Limits {
    output_chars: usize,
    memory_mb: u32,
}

/// The messages the page sends. Written with the page's one JSON writer (`to_string`), as every JSON
/// the page writes is.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Out<'a> {
    #[serde(rename_all = "camelCase")]
    Start {
        lang: &'static str,
        format: &'static str,
        main: &'a str,
        files: Vec<FileOut<'a>>,
        seed: String,
        pyodide_url: String,
        limits: Limits,
    },
    Reset {
        seed: String,
    },
    Move {
        id: u32,
        request: &'a str,
        input: Option<&'a str>,
    },
}

fn text(message: &Out<'_>) -> String {
    serde_json::to_string(message).unwrap_or_default()
}

/// The start message for `source`, played with `seed`, with `side` files (what a course player wrote
/// in its folder before a restart) written after its own and marked, so that the next game starts
/// without them.
pub fn start_message(source: &Source, seed: u64, side: &[CodeFile]) -> String {
    // The originals first (a reset goes back to them), then what the program wrote over them.
    let mine = source
        .files
        .iter()
        .map(|file| FileOut { file, side: false });
    let theirs = side.iter().map(|file| FileOut { file, side: true });
    text(&Out::Start {
        lang: source.lang.key(),
        format: source.format.key(),
        main: &source.main,
        files: mine.chain(theirs).collect(),
        seed: seed.to_string(),
        pyodide_url: asset_url("pyodide/"),
        limits: Limits {
            output_chars: MAX_OUTPUT_CHARS,
            memory_mb: MAX_MEMORY_MB,
        },
    })
}

/// The reset message: the same code, a new game.
pub fn reset_message(seed: u64) -> String {
    text(&Out::Reset {
        seed: seed.to_string(),
    })
}

/// A move: the request JSON, and for the course format the text of `input.txt`.
pub fn move_message(id: u32, request: &str, input: Option<&str>) -> String {
    text(&Out::Move { id, request, input })
}

/// A running worker; dropping it terminates it. A JavaScript player's worker is watched by the page's
/// measure of its memory ([`memory`]) from its start message on: measured past the player's limit
/// while a move runs, it is ended and the move answers `out_of_memory` (`restart`, so the player
/// starts a fresh one); while its code loads, the code cannot play (`failed`, `out_of_memory`); between
/// moves, it is ended when the next move is asked, which answers `out_of_memory`.
pub struct CodeWorker {
    worker: Worker,
    tracked: Rc<RefCell<Tracked>>,
    said: Rc<dyn Fn(Message)>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

/// What the page knows of its worker, from what it posted and what came back, for the memory watch.
#[derive(Default)]
struct Tracked {
    /// The worker's address ends with `#` and this ([`memory::worker_tag`]).
    tag: String,
    /// A JavaScript player's memory limit in MB (from its start message): its worker is watched.
    limit_mb: Option<u32>,
    watch: Option<memory::Watch>,
    /// The move posted and not answered yet.
    in_flight: Option<u32>,
    /// A start or a reset posted, and the worker not ready yet.
    loading: bool,
    /// Measured past the limit between moves: why, for the next move.
    over: Option<String>,
}

impl CodeWorker {
    /// Starts a worker; `on_message` receives what it says, and a worker that breaks (its script did
    /// not load, or it crashed) is a [`Message::Failed`] with the code `could_not_start`.
    pub fn spawn(on_message: impl Fn(Message) + Clone + 'static) -> Result<CodeWorker, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let tag = memory::worker_tag();
        let url = format!("{}#{tag}", asset_url("code/worker.js"));
        let worker = Worker::new_with_options(&url, &options).map_err(js_error)?;
        let tracked = Rc::new(RefCell::new(Tracked {
            tag,
            ..Tracked::default()
        }));
        let said: Rc<dyn Fn(Message)> = Rc::new(on_message.clone());
        let (heard, told) = (tracked.clone(), said.clone());
        let on_data = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let text = js_sys::JSON::stringify(&ev.data())
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default();
            let message = match Message::read(&text) {
                Ok(message) => message,
                Err(e) => Message::Failed {
                    code: "malformed_answer".into(),
                    message: format!("the code's worker sent a message the page cannot read: {e}"),
                },
            };
            heard.borrow_mut().heard(&message);
            told(message);
        });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            let why = error_event_text(&ev, "the code's worker (code/worker.js) did not load");
            on_message(Message::Failed {
                code: "could_not_start".into(),
                message: why,
            });
        });
        worker.set_onmessage(Some(on_data.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(CodeWorker {
            worker,
            tracked,
            said,
            _on_message: on_data,
            _on_error: on_error,
        })
    }

    pub fn post(&self, message: &str) -> Result<(), String> {
        let value = js_sys::JSON::parse(message).map_err(js_error)?;
        let field = |value: &JsValue, key: &str| {
            js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
        };
        match field(&value, "kind").as_string().as_deref() {
            Some("start") => {
                let limits = field(&value, "limits");
                let limit_mb = field(&limits, "memoryMb").as_f64().unwrap_or(0.0);
                let mut tracked = self.tracked.borrow_mut();
                if field(&value, "lang").as_string().as_deref() == Some("javascript")
                    && limit_mb >= 1.0
                {
                    tracked.limit_mb = Some(limit_mb.min(f64::from(u32::MAX)) as u32);
                }
                tracked.loading = true;
                tracked.over = None;
            }
            Some("reset") => {
                // The code starts afresh: what it kept is dropped with its module.
                let mut tracked = self.tracked.borrow_mut();
                tracked.loading = true;
                tracked.over = None;
            }
            Some("move") => {
                let id = field(&value, "id").as_f64().unwrap_or(0.0) as u32;
                let over = self.tracked.borrow_mut().over.take();
                if let Some(why) = over {
                    // Measured past the limit since the last move: this move is not asked. Answered
                    // after this returns, since the caller may be in the middle of its own work.
                    self.worker.terminate();
                    let said = self.said.clone();
                    wasm_bindgen_futures::spawn_local(async move {
                        said(Message::Answer(out_of_memory(id, why)));
                    });
                    return Ok(());
                }
                self.tracked.borrow_mut().in_flight = Some(id);
            }
            _ => {}
        }
        self.watch_memory();
        self.worker.post_message(&value).map_err(js_error)
    }

    /// Starts the watch of a JavaScript player's worker, where the page can measure and none runs.
    fn watch_memory(&self) {
        let (tag, limit_mb) = {
            let tracked = self.tracked.borrow();
            match tracked.limit_mb {
                Some(limit) if tracked.watch.is_none() => (tracked.tag.clone(), limit),
                _ => return,
            }
        };
        let tracked = Rc::downgrade(&self.tracked);
        let (worker, said) = (self.worker.clone(), self.said.clone());
        let watch = memory::watch(&tag, limit_mb, move |bytes| {
            let Some(tracked) = tracked.upgrade() else {
                return;
            };
            let over = |when: &str, then: &str| {
                format!(
                    "the page measured this player's worker at {} MB {when}, more than the \
                     {limit_mb} MB a player may use{then}",
                    (bytes / 1_048_576.0).round()
                )
            };
            let said_now = {
                let mut tracked = tracked.borrow_mut();
                tracked.watch = None;
                if let Some(id) = tracked.in_flight.take() {
                    let why = over(
                        "while the move ran",
                        "; its worker was ended, and a fresh one plays the next move",
                    );
                    Some(Message::Answer(out_of_memory(id, why)))
                } else if tracked.loading {
                    Some(Message::Failed {
                        code: "out_of_memory".into(),
                        message: over(
                            "while its code loaded",
                            " (does the top level of the main file build a large table?)",
                        ),
                    })
                } else {
                    tracked.over = Some(over(
                        "between moves",
                        " (what the code keeps from move to move); its worker was ended before \
                         this move, and a fresh one plays the next",
                    ));
                    None
                }
            };
            if let Some(message) = said_now {
                worker.set_onmessage(None);
                worker.terminate();
                said(message);
            }
        });
        self.tracked.borrow_mut().watch = watch;
    }
}

/// The answer to move `id` of a worker the page ended for its memory: `restart`, so the player starts
/// a fresh one.
fn out_of_memory(id: u32, why: String) -> Reply {
    Reply {
        id,
        runner: RunnerReply {
            ok: false,
            code: Some("out_of_memory".into()),
            message: Some(why),
            ..RunnerReply::default()
        },
        restart: true,
        ..Reply::default()
    }
}

impl Tracked {
    /// Notes what the worker said: an answer ends its move, readiness or a failure its loading.
    fn heard(&mut self, message: &Message) {
        match message {
            Message::Answer(reply) if self.in_flight == Some(reply.id) => self.in_flight = None,
            Message::Ready { .. } | Message::Failed { .. } => self.loading = false,
            _ => {}
        }
    }
}

impl Drop for CodeWorker {
    fn drop(&mut self) {
        self.tracked.borrow_mut().watch = None;
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workers_messages_read() {
        let ready = Message::read(r#"{"kind":"ready","loadMs":12.5}"#).unwrap();
        assert_eq!(ready, Message::Ready { load_ms: 12.5 });
        let failed =
            Message::read(r#"{"kind":"failed","code":"syntax_error","message":"m.py line 1"}"#);
        assert_eq!(
            failed,
            Ok(Message::Failed {
                code: "syntax_error".into(),
                message: "m.py line 1".into()
            })
        );
        let answer = Message::read(
            r#"{"kind":"answer","id":3,"ok":false,"code":"exception","message":"Traceback",
                "output":"hi\n","outputChars":3,"ms":4,"sideFiles":[{"path":"t.bin","base64":"AA=="}]}"#,
        )
        .unwrap();
        let Message::Answer(reply) = answer else {
            panic!("{answer:?}")
        };
        assert_eq!(
            (reply.id, reply.runner.ok, reply.runner.output_chars),
            (3, false, 3)
        );
        assert_eq!(reply.side_files.unwrap()[0].base64.as_deref(), Some("AA=="));
        assert!(Message::read(r#"{"kind":"gossip"}"#).is_err());
        assert_eq!(
            move_message(3, "{}", Some("GAME")),
            r#"{"kind":"move","id":3,"request":"{}","input":"GAME"}"#
        );
        assert_eq!(reset_message(9), r#"{"kind":"reset","seed":"9"}"#);
        assert!(Message::read("not json").is_err());
    }

    #[test]
    fn the_page_keeps_of_a_reply_only_what_its_caps_allow() {
        // A worker whose code raised the runtime's cap: 30,000 characters sent, 10 claimed.
        let printed = "é".repeat(30_000);
        let text = format!(
            r#"{{"kind":"answer","id":1,"ok":true,"body":"null","output":"{printed}","outputChars":10,"ms":0}}"#
        );
        let Ok(Message::Answer(reply)) = Message::read(&text) else {
            panic!("an answer")
        };
        assert_eq!(reply.runner.output.chars().count(), MAX_OUTPUT_CHARS);
        assert_eq!(reply.runner.output_chars, 30_000);
        // A message past the page's cap is not read at all.
        let huge = format!(
            r#"{{"kind":"answer","id":1,"ok":true,"output":"{}"}}"#,
            "x".repeat(MAX_MESSAGE_BYTES)
        );
        let refused = Message::read(&huge).expect_err("too long");
        assert!(refused.contains("over the"), "{refused}");
        // A course folder past an AI's limits is refused by name.
        let files: Vec<String> = (0..=MAX_FILES)
            .map(|i| format!(r#"{{"path":"f{i}.txt","text":"x"}}"#))
            .collect();
        let text = format!(
            r#"{{"kind":"answer","id":1,"ok":true,"sideFiles":[{}]}}"#,
            files.join(",")
        );
        let refused = Message::read(&text).expect_err("too many files");
        assert!(refused.contains("201 files"), "{refused}");
    }
}
