//! A code player in a game on another page than the editor's (the arena): a thin handle on a `CodeSeat`
//! of the code players' own module (`gridarena-code`, see [`super::host`]), which this page imports the
//! first time a code player is chosen. The arena's start page therefore carries nothing of the code
//! players but this file: their worker's messages, the course format and the stored AIs' reader all
//! come with that module, on demand, beside Pyodide.

use super::ai::Source;
use super::host::clock_millis;
use super::CodeMove;
use gridarena_engine::halma::code::ClockSettings;
use gridarena_engine::halma::protocol::parse_response;
use gridarena_engine::halma::{Answer, CodeFailure, NoMove, Team};
use gridarena_engine::tournament::plan::Occasion;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(inline_js = "
let loaded;
export function load_code_module(js, wasm) {
  loaded ??= import(js).then(async (m) => { await m.default({ module_or_path: wasm }); return m; });
  return loaded;
}")]
extern "C" {
    /// Imports and starts the code players' module once per page; every seat shares it.
    fn load_code_module(js: &str, wasm: &str) -> js_sys::Promise;

    /// The module's `CodeSeat` (`src/bin/gridarena-code.rs`).
    type JsSeat;
    #[wasm_bindgen(method, js_name = newGame)]
    fn new_game(this: &JsSeat, seed: &str, clock_ms: f64, grace_ms: f64);
    #[wasm_bindgen(method, catch)]
    fn ask(
        this: &JsSeat,
        request: &str,
        state: &str,
        team: &str,
        occasion: &str,
        on_answer: &js_sys::Function,
    ) -> Result<String, JsValue>;
    #[wasm_bindgen(method)]
    fn cancel(this: &JsSeat, waited_ms: f64) -> bool;
    #[wasm_bindgen(method)]
    fn free(this: &JsSeat);
}

/// Where a seat stands.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatStatus {
    /// Loading the module, the runtime or the code; the text says what, when there is something to say.
    Loading(String),
    Ready,
    /// It cannot play this game (every move answers why); the text is the failure's.
    Failed(String),
}

type OnStatus = Rc<dyn Fn(&SeatStatus)>;

/// A handle on one code player; clones share it.
#[derive(Clone)]
pub struct Seat {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    label: String,
    /// Code handed over whole (its [`Source`] as JSON), or `None` for code the label names in this
    /// browser's storage.
    source: Option<String>,
    seed: u64,
    /// A course-format player's clock: the course's, or the tournament's for its code entries.
    clock: ClockSettings,
    status: SeatStatus,
    js: Option<JsSeat>,
    on_status: OnStatus,
    /// The callback the module's seat reports its status through.
    heard: Option<Closure<dyn FnMut(String, String)>>,
    /// Promises waiting for the seat to be ready or failed ([`Seat::settled`]).
    waiting: Vec<js_sys::Function>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Nobody waits for a seat that is gone.
        for resolve in self.waiting.drain(..) {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
        // Frees the module's seat, which terminates the player's worker.
        if let Some(js) = self.js.take() {
            js.free();
        }
    }
}

impl Seat {
    /// Starts the AI `label` names (`code:NAME`, `code:NAME@v3`) for a game seeded with `seed`, loading
    /// the code players' module first if this page has not yet; `on_status` hears every change.
    pub fn open(label: &str, seed: u64, on_status: impl Fn(&SeatStatus) + 'static) -> Seat {
        Seat::start(
            label,
            None,
            seed,
            ClockSettings::default(),
            Rc::new(on_status),
        )
    }

    /// Starts `source` under the name `label` (what the inspector and the page call it) for a game
    /// seeded with `seed`, on `clock` (the tournament's settings'): code the page holds itself, as a
    /// tournament's code entry, rather than an AI kept in this browser. A new game resets this very code.
    pub fn open_source(
        label: &str,
        source: &Source,
        seed: u64,
        clock: ClockSettings,
        on_status: impl Fn(&SeatStatus) + 'static,
    ) -> Seat {
        let json = serde_json::to_string(source).unwrap_or_default();
        Seat::start(label, Some(json), seed, clock, Rc::new(on_status))
    }

    fn start(
        label: &str,
        source: Option<String>,
        seed: u64,
        clock: ClockSettings,
        on_status: OnStatus,
    ) -> Seat {
        let seat = Seat {
            inner: Rc::new(RefCell::new(Inner {
                label: label.to_string(),
                source,
                seed,
                clock,
                status: SeatStatus::Loading("loading the code players' module…".to_string()),
                js: None,
                on_status,
                heard: None,
                waiting: Vec::new(),
            })),
        };
        let weak = Rc::downgrade(&seat.inner);
        wasm_bindgen_futures::spawn_local(async move {
            let loaded = wasm_bindgen_futures::JsFuture::from(load_code_module(
                &super::asset_url("gridarena-code.js"),
                &super::asset_url("gridarena-code_bg.wasm"),
            ))
            .await;
            let Some(inner) = weak.upgrade() else { return };
            let seat = Seat { inner };
            match loaded {
                Ok(module) => seat.connect(&module),
                Err(e) => seat.set_status(SeatStatus::Failed(format!(
                    "the code players' module (gridarena-code.js) did not load: {}",
                    crate::ai_worker::js_error(e)
                ))),
            }
        });
        seat
    }

    /// Makes the module's seat, now that the module is here.
    fn connect(&self, module: &JsValue) {
        let weak = Rc::downgrade(&self.inner);
        let heard =
            Closure::<dyn FnMut(String, String)>::new(move |words: String, text: String| {
                let status = match words.as_str() {
                    "ready" => SeatStatus::Ready,
                    "failed" => SeatStatus::Failed(text),
                    _ => SeatStatus::Loading(text),
                };
                // Heard after the module's call returns, never inside it.
                let weak = weak.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Some(inner) = weak.upgrade() {
                        Seat { inner }.set_status(status);
                    }
                });
            });
        let (label, source, seed, clock) = {
            let inner = self.inner.borrow();
            (
                inner.label.clone(),
                inner.source.clone(),
                inner.seed.to_string(),
                clock_millis(inner.clock),
            )
        };
        let made = js_sys::Reflect::get(module, &"CodeSeat".into())
            .ok()
            .and_then(|c| c.dyn_into::<js_sys::Function>().ok())
            .ok_or_else(|| "the code players' module has no CodeSeat".to_string())
            .and_then(|class| match source {
                None => {
                    let args = js_sys::Array::of3(
                        &label.into(),
                        &seed.into(),
                        heard.as_ref().unchecked_ref(),
                    );
                    js_sys::Reflect::construct(&class, &args).map_err(crate::ai_worker::js_error)
                }
                Some(json) => {
                    let from_source = js_sys::Reflect::get(&class, &"fromSource".into())
                        .ok()
                        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                        .ok_or("the code players' module has no CodeSeat.fromSource")?;
                    let args = js_sys::Array::new();
                    for arg in [
                        label.into(),
                        json.into(),
                        seed.into(),
                        clock.0.into(),
                        clock.1.into(),
                    ] {
                        args.push(&arg);
                    }
                    args.push(heard.as_ref().unchecked_ref());
                    from_source
                        .apply(&class, &args)
                        .map_err(crate::ai_worker::js_error)
                }
            });
        match made {
            Ok(js) => {
                let mut inner = self.inner.borrow_mut();
                inner.js = Some(js.unchecked_into());
                inner.heard = Some(heard);
            }
            Err(why) => self.set_status(SeatStatus::Failed(why)),
        }
    }

    fn set_status(&self, status: SeatStatus) {
        let (on_status, settled) = {
            let mut inner = self.inner.borrow_mut();
            if inner.status == status {
                return;
            }
            inner.status = status.clone();
            let settled = if matches!(status, SeatStatus::Loading(_)) {
                Vec::new()
            } else {
                std::mem::take(&mut inner.waiting)
            };
            (inner.on_status.clone(), settled)
        };
        on_status(&status);
        for resolve in settled {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }

    /// Waits until the seat is ready or has failed (or is dropped), and says where it stands.
    pub async fn settled(&self) -> SeatStatus {
        if !matches!(self.status(), SeatStatus::Loading(_)) {
            return self.status();
        }
        let promise = {
            let inner = Rc::downgrade(&self.inner);
            js_sys::Promise::new(&mut |resolve, _| match inner.upgrade() {
                Some(inner) => inner.borrow_mut().waiting.push(resolve),
                None => {
                    let _ = resolve.call0(&JsValue::UNDEFINED);
                }
            })
        };
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        self.status()
    }

    pub fn label(&self) -> String {
        self.inner.borrow().label.clone()
    }

    pub fn seed(&self) -> u64 {
        self.inner.borrow().seed
    }

    pub fn status(&self) -> SeatStatus {
        self.inner.borrow().status.clone()
    }

    /// A new game seeded with `seed`: fresh module state (or the AI as it is kept now, if it was edited).
    /// Until the module's seat says otherwise, the seat is loading again: a tick must not begin on the
    /// word of the last game.
    pub fn new_game(&self, seed: u64) {
        let clock = self.inner.borrow().clock;
        self.new_game_on_clock(seed, clock);
    }

    /// A new game seeded with `seed`, code handed over whole on `clock` (a tournament's): a seat kept
    /// warm from a roll call on other settings plays the tournament's clock all the same.
    pub fn new_game_on_clock(&self, seed: u64, clock: ClockSettings) {
        let mut inner = self.inner.borrow_mut();
        inner.seed = seed;
        inner.clock = clock;
        // Before the module is here, the seat it makes takes the new seed and clock.
        if inner.js.is_some() {
            inner.status = SeatStatus::Loading(String::new());
        }
        if let Some(js) = &inner.js {
            let (clock_ms, grace_ms) = clock_millis(clock);
            js.new_game(&seed.to_string(), clock_ms, grace_ms);
        }
    }

    /// Asks for `team`'s move on `occasion` (a game's, or the course's one-move check): `request` is
    /// the web protocol's request, `state` the game's state as records keep it. `on_answer` gets the
    /// result after this returns, never inside it. Returns what the code is given (the request, or the
    /// course format's `input.txt`).
    pub fn ask(
        &self,
        request: &str,
        state: &str,
        team: Team,
        occasion: Occasion,
        on_answer: impl FnOnce(CodeMove) + 'static,
    ) -> String {
        let on_answer = Rc::new(RefCell::new(Some(on_answer)));
        let answer = {
            let on_answer = on_answer.clone();
            move |moved: CodeMove| {
                let taken = on_answer.borrow_mut().take();
                if let Some(f) = taken {
                    wasm_bindgen_futures::spawn_local(async move { f(moved) });
                }
            }
        };
        let asked = {
            let inner = self.inner.borrow();
            match (&inner.js, &inner.status) {
                (Some(js), _) => {
                    let reply = answer.clone();
                    let callback = Closure::once_into_js(move |object: JsValue| {
                        reply(read_answer(&object));
                    });
                    let occasion = super::host::occasion_word(occasion);
                    js.ask(
                        request,
                        state,
                        team.name(),
                        occasion,
                        callback.unchecked_ref(),
                    )
                    .map_err(crate::ai_worker::js_error)
                }
                (None, SeatStatus::Failed(why)) => Err(why.clone()),
                (None, _) => Err("the code players' module has not loaded yet".to_string()),
            }
        };
        match asked {
            Ok(shown) => shown,
            Err(why) => {
                let failure = CodeFailure::NotStarted { why };
                answer(CodeMove::failed(Answer::NoMove(NoMove::Code(failure))));
                request.to_string()
            }
        }
    }

    /// Drops the move in progress, charging `waited_ms` to a course clock: the player's worker restarts.
    /// Returns whether a move was in progress.
    ///
    /// The seat is loading again from here on, as after [`Seat::new_game`]: the module's seat says so only
    /// later (its status comes after the call), and Run's beat begins the next tick in the same task
    /// that cut this move off. On the word of the killed worker, that tick asked the one still loading,
    /// timed out too and restarted it again: a hang cost two moves.
    pub fn cancel(&self, waited_ms: f64) -> bool {
        let restarted = self
            .inner
            .borrow()
            .js
            .as_ref()
            .is_some_and(|js| js.cancel(waited_ms));
        if restarted {
            self.inner.borrow_mut().status = SeatStatus::Loading(String::new());
        }
        restarted
    }
}

/// Reads the module's answer object (see `super::host::answer_object`).
fn read_answer(object: &JsValue) -> CodeMove {
    let text = |key: &str| {
        js_sys::Reflect::get(object, &key.into())
            .ok()
            .and_then(|v| v.as_string())
    };
    let answer = match text("move") {
        Some(json) => Answer::from(parse_response(json.as_bytes())),
        None => Answer::NoMove(NoMove::Replayed {
            code: text("code").unwrap_or_else(|| "could_not_start".to_string()),
            message: text("message")
                .unwrap_or_else(|| "the code player gave no answer".to_string()),
        }),
    };
    CodeMove {
        answer,
        body: text("body"),
        printed: text("output"),
        ms: js_sys::Reflect::get(object, &"ms".into())
            .ok()
            .and_then(|v| v.as_f64()),
    }
}
