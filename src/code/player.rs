//! A code player: one student's AI running in its own Web Worker, asked for one move at a time.
//!
//! - **Loading.** The worker loads the runtime (Pyodide, about 6 MB the first time, then from the
//!   browser's cache) and checks the code before the game; a player that cannot play (a syntax error,
//!   no `move`) says so at once and answers every move with that failure.
//! - **Games.** A new game resets the code in the same worker (fresh module state, the game's seed),
//!   rather than loading the runtime again.
//! - **Deadlines.** The caller owns them (the tick): a move it no longer wants is
//!   [`cancel`](CodePlayer::cancel)led, which terminates the worker and starts a fresh one. What a
//!   restart loses: the function format's module state (variables kept between moves). A course
//!   player's side files are carried over. A course-format move also has its clock's own deadline (its
//!   time left plus the grace, [`CourseClock::deadline`]), which the player keeps itself, as the CLI's
//!   program player does: past it the move is cut off, has spent the clock, and answers `timed_out`. So
//!   a host that plays it on its clock (the tournament, by the engine's plan) only waits for its answer.
//! - **The course clock.** A course-format player has a clock a game (the course's 300 s and 10 s of
//!   grace, or a tournament's own from its settings), kept by the engine's [`CourseClock`] as the CLI
//!   keeps a program's: the page cannot measure a worker's CPU time, so each
//!   move is charged its wall time as the page measured it (the time waited for a move that was cut
//!   off); once spent, every move is `out_of_time` without asking.

use super::ai::{CodeFile, Format, Source};
use super::worker::{move_message, reset_message, start_message, CodeWorker, Message, Reply};
use super::CodeMove;
use gridarena_engine::halma::code::{Charge, ClockSettings, CourseClock};
use gridarena_engine::halma::course::input_txt;
use gridarena_engine::halma::{Answer, CodeFailure, Game, NoMove, ProgramFailure, Team};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// How long the code may take to get ready (its module's top level, after the runtime has loaded and
/// said so), in milliseconds: past it, an endless loop there would hold a game up for ever.
pub const LOAD_LIMIT_MS: u32 = 20_000;

/// Where a player stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Loading the runtime or the code; the text says what (for the page to show).
    Loading(String),
    Ready,
    /// It cannot play this game: every move answers this.
    Failed(CodeFailure),
}

type OnStatus = Rc<dyn Fn(&Status)>;
type OnMoved = Box<dyn FnOnce(CodeMove)>;

/// A handle on a code player; clones share it.
#[derive(Clone)]
pub struct CodePlayer {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    source: Source,
    seed: u64,
    worker: Option<CodeWorker>,
    status: Status,
    /// A course player's files kept in its folder, carried over a restart.
    side_files: Vec<CodeFile>,
    /// The move asked and not answered yet; its message waits here while the code loads.
    pending: Option<(u32, String, OnMoved)>,
    /// When the pending move was posted to a ready worker, by the page's clock: the page times each
    /// move itself, since the worker's own clock is the student's code's to replace.
    sent_at: Option<f64>,
    /// Course format: cuts the pending move off at its clock's own deadline; dropped (cancelled) once
    /// the move is answered or dropped.
    clock_deadline: Option<gloo_timers::callback::Timeout>,
    next_id: u32,
    /// Course format: the clock for this game (the settings it was started with).
    clock: CourseClock,
    on_status: OnStatus,
    /// Promises waiting for the player to be ready or failed ([`CodePlayer::settled`]).
    waiting: Vec<js_sys::Function>,
    /// Fails the loading when it runs past [`LOAD_LIMIT_MS`]; dropped (cancelled) once it settles.
    load_deadline: Option<gloo_timers::callback::Timeout>,
}

impl CodePlayer {
    /// Starts `source` for a game seeded with `seed`, a course-format player on a clock of `clock` a
    /// game; `on_status` hears every change of [`Status`].
    pub fn start(
        source: Source,
        seed: u64,
        clock: ClockSettings,
        on_status: impl Fn(&Status) + 'static,
    ) -> CodePlayer {
        let player = CodePlayer {
            inner: Rc::new(RefCell::new(Inner {
                source,
                seed,
                worker: None,
                status: Status::Loading(String::new()),
                side_files: Vec::new(),
                pending: None,
                sent_at: None,
                clock_deadline: None,
                next_id: 0,
                clock: CourseClock::new(clock),
                on_status: Rc::new(on_status),
                waiting: Vec::new(),
                load_deadline: None,
            })),
        };
        player.spawn();
        player
    }

    pub fn status(&self) -> Status {
        self.inner.borrow().status.clone()
    }

    pub fn source(&self) -> Source {
        self.inner.borrow().source.clone()
    }

    pub fn seed(&self) -> u64 {
        self.inner.borrow().seed
    }

    /// The settings of its clock, the same for every game.
    pub fn clock_settings(&self) -> ClockSettings {
        self.inner.borrow().clock.settings()
    }

    /// A new game seeded with `seed`: fresh module state, no side files, a full clock.
    pub fn new_game(&self, seed: u64) {
        let live = {
            let mut inner = self.inner.borrow_mut();
            inner.seed = seed;
            inner.side_files.clear();
            inner.clock.new_game();
            inner.pending = None;
            inner.clock_deadline = None;
            inner.worker.is_some() && inner.status == Status::Ready
        };
        if live {
            self.set_status(Status::Loading(String::new()));
            let sent = {
                let inner = self.inner.borrow();
                inner.worker.as_ref().map(|w| w.post(&reset_message(seed)))
            };
            if matches!(sent, Some(Ok(()))) {
                self.arm_load_deadline();
                return;
            }
        }
        self.restart();
    }

    /// Starts (again) the wait for the code to be ready: the runtime's own progress re-arms it, so a
    /// slow first download of Python is not cut short, but a module that never finishes its top level is.
    fn arm_load_deadline(&self) {
        let weak = Rc::downgrade(&self.inner);
        let timer = gloo_timers::callback::Timeout::new(LOAD_LIMIT_MS, move || {
            let Some(inner) = weak.upgrade() else { return };
            let player = CodePlayer { inner };
            // This very timer: not dropped while it runs.
            if let Some(running) = player.inner.borrow_mut().load_deadline.take() {
                running.forget();
            }
            if !matches!(player.status(), Status::Loading(_)) {
                return;
            }
            let worker = player.inner.borrow_mut().worker.take();
            drop(worker);
            player.fail(CodeFailure::NotStarted {
                why: format!(
                    "the code was not ready {} s after Python or JavaScript had loaded: does the top \
                     level of the main file loop for ever, or compute for long? (Work kept between \
                     moves belongs in move(), or in a data file.)",
                    LOAD_LIMIT_MS / 1000
                ),
            });
        });
        self.inner.borrow_mut().load_deadline = Some(timer);
    }

    /// The text of `input.txt` for this player's next move as `team` in `game` (course format), or why
    /// the game cannot be written so: `single` asks the course's one-move check (`SINGLE`, a roll
    /// call's), else a game's move (`GAME`, first or later as the clock counts).
    pub fn course_input(&self, game: &Game, team: Team, single: bool) -> Result<String, String> {
        let inner = self.inner.borrow();
        let left = inner.clock.time_left().as_secs_f64();
        let occasion = inner.clock.occasion(single);
        input_txt(game, team, left, occasion).map_err(|e| e.to_string())
    }

    /// Asks for a move: `request` is the web protocol's request JSON, `input` the course format's
    /// `input.txt`. `on_moved` gets the result, at once where the player cannot play.
    pub fn ask(
        &self,
        request: &str,
        input: Option<&str>,
        on_moved: impl FnOnce(CodeMove) + 'static,
    ) {
        let refusal = {
            let inner = self.inner.borrow();
            match &inner.status {
                Status::Failed(failure) => Some(Answer::NoMove(NoMove::Code(failure.clone()))),
                _ if inner.source.format == Format::Course && inner.clock.spent() => {
                    Some(Answer::NoMove(NoMove::Program(ProgramFailure::OutOfTime)))
                }
                _ => None,
            }
        };
        if let Some(answer) = refusal {
            on_moved(CodeMove::failed(answer));
            return;
        }
        let ready = {
            let mut inner = self.inner.borrow_mut();
            inner.next_id += 1;
            let id = inner.next_id;
            let message = move_message(id, request, input);
            inner.pending = Some((id, message, Box::new(on_moved)));
            inner.status == Status::Ready
        };
        if ready {
            self.send_pending();
        }
    }

    /// Drops the move in progress, if any, charging `waited_ms` to a course clock: the worker is
    /// terminated (the only way to stop code that runs on) and a fresh one started. Returns whether
    /// a move was in progress.
    pub fn cancel(&self, waited_ms: f64) -> bool {
        let had = {
            let mut inner = self.inner.borrow_mut();
            let had = inner.pending.take().is_some();
            inner.clock_deadline = None;
            if had && inner.source.format == Format::Course {
                inner.clock.charge(wall_charge(waited_ms));
            }
            had
        };
        if had {
            self.restart();
        }
        had
    }

    fn spawn(&self) {
        let weak = Rc::downgrade(&self.inner);
        let spawned = CodeWorker::spawn(move |message| {
            if let Some(inner) = weak.upgrade() {
                CodePlayer { inner }.on_message(message);
            }
        });
        match spawned {
            Ok(worker) => {
                let start = {
                    let inner = self.inner.borrow();
                    start_message(&inner.source, inner.seed, &inner.side_files)
                };
                let posted = worker.post(&start);
                self.inner.borrow_mut().worker = Some(worker);
                match posted {
                    Ok(()) => self.arm_load_deadline(),
                    Err(why) => self.fail(CodeFailure::NotStarted { why }),
                }
            }
            Err(why) => self.fail(CodeFailure::NotStarted {
                why: format!("no Web Worker could be started: {why}"),
            }),
        }
    }

    /// A fresh worker with the same code, seed and side files.
    fn restart(&self) {
        let old = self.inner.borrow_mut().worker.take();
        drop(old);
        self.set_status(Status::Loading(String::new()));
        self.spawn();
    }

    fn fail(&self, failure: CodeFailure) {
        self.inner.borrow_mut().load_deadline = None;
        self.set_status(Status::Failed(failure.clone()));
        let pending = self.inner.borrow_mut().pending.take();
        if let Some((_, _, on_moved)) = pending {
            on_moved(CodeMove::failed(Answer::NoMove(NoMove::Code(failure))));
        }
    }

    fn set_status(&self, status: Status) {
        let (on_status, settled) = {
            let mut inner = self.inner.borrow_mut();
            if inner.status == status {
                return;
            }
            inner.status = status.clone();
            let settled = if matches!(status, Status::Loading(_)) {
                Vec::new()
            } else {
                std::mem::take(&mut inner.waiting)
            };
            (inner.on_status.clone(), settled)
        };
        on_status(&status);
        for resolve in settled {
            let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
        }
    }

    /// Waits until the player is ready or has failed, and says which.
    pub async fn settled(&self) -> Status {
        if !matches!(self.status(), Status::Loading(_)) {
            return self.status();
        }
        let inner = self.inner.clone();
        let promise =
            js_sys::Promise::new(&mut |resolve, _| inner.borrow_mut().waiting.push(resolve));
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        self.status()
    }

    /// Asks for a move and waits for it, at most `deadline_ms` once the code is ready: a move still
    /// running then is cancelled (the worker restarts) and is `timed_out`.
    pub async fn ask_within(
        &self,
        request: &str,
        input: Option<&str>,
        deadline_ms: u64,
    ) -> CodeMove {
        self.settled().await;
        let result: Rc<RefCell<Option<CodeMove>>> = Rc::default();
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let (got, done) = (result.clone(), resolve.clone());
            self.ask(request, input, move |moved| {
                *got.borrow_mut() = Some(moved);
                let _ = done.call0(&wasm_bindgen::JsValue::UNDEFINED);
            });
            let (player, got) = (self.clone(), result.clone());
            let timer = gloo_timers::callback::Timeout::new(
                deadline_ms.min(u64::from(u32::MAX)) as u32,
                move || {
                    if got.borrow().is_none() && player.cancel(deadline_ms as f64) {
                        *got.borrow_mut() =
                            Some(CodeMove::failed(Answer::NoMove(NoMove::TimedOut {
                                after_ms: deadline_ms,
                            })));
                        let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
                    }
                },
            );
            timer.forget();
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        let moved = result.borrow_mut().take();
        moved.unwrap_or_else(|| CodeMove::failed(Answer::NoMove(NoMove::Missing)))
    }

    fn send_pending(&self) {
        let posted = {
            let mut inner = self.inner.borrow_mut();
            let posted = match (&inner.pending, &inner.worker) {
                (Some((id, message, _)), Some(worker)) => Some((*id, worker.post(message))),
                _ => None,
            };
            if posted.is_some() {
                inner.sent_at = Some(crate::now_ms());
            }
            posted
        };
        match posted {
            Some((_, Err(why))) => self.fail(CodeFailure::NotStarted { why }),
            Some((id, Ok(()))) => self.arm_clock_deadline(id),
            None => {}
        }
    }

    /// Course format: cuts move `id` off at its clock's own deadline (time left plus the grace), as
    /// the CLI kills a program there. The move has then spent the clock, and answers `timed_out`; the
    /// worker restarts. A caller's shorter deadline (the arena's tick) cancels it before.
    fn arm_clock_deadline(&self, id: u32) {
        let after = {
            let inner = self.inner.borrow();
            if inner.source.format != Format::Course {
                return;
            }
            inner.clock.deadline(None).after
        };
        let after_ms = u64::try_from(after.as_millis()).unwrap_or(u64::MAX);
        let weak = Rc::downgrade(&self.inner);
        let timer = gloo_timers::callback::Timeout::new(
            after_ms.min(u64::from(u32::MAX)) as u32,
            move || {
                let Some(inner) = weak.upgrade() else { return };
                CodePlayer { inner }.clock_ran_out(id, after_ms);
            },
        );
        self.inner.borrow_mut().clock_deadline = Some(timer);
    }

    /// Move `id` ran to its clock's deadline (`after_ms`): cut off, the clock spent, `timed_out`.
    fn clock_ran_out(&self, id: u32, after_ms: u64) {
        let on_moved = {
            let mut inner = self.inner.borrow_mut();
            // This very timer: not dropped while it runs.
            if let Some(running) = inner.clock_deadline.take() {
                running.forget();
            }
            match &inner.pending {
                Some((pending, _, _)) if *pending == id => {}
                _ => return,
            }
            let sent_at = inner.sent_at.take().unwrap_or_else(crate::now_ms);
            let mut charge = wall_charge(crate::now_ms() - sent_at);
            charge.killed_at_clock_deadline = true;
            inner.clock.charge(charge);
            inner.pending.take().map(|(_, _, f)| f)
        };
        self.restart();
        if let Some(on_moved) = on_moved {
            let failure = ProgramFailure::TimedOut { after_ms };
            on_moved(CodeMove::failed(Answer::NoMove(NoMove::Program(failure))));
        }
    }

    fn on_message(&self, message: Message) {
        match message {
            Message::Progress { text } => {
                self.arm_load_deadline();
                self.set_status(Status::Loading(text));
            }
            Message::Ready { .. } => {
                self.inner.borrow_mut().load_deadline = None;
                self.set_status(Status::Ready);
                self.send_pending();
            }
            Message::Failed { code, message } => {
                self.fail(CodeFailure::from_code(&code, message));
            }
            Message::Answer(reply) => self.on_reply(reply),
        }
    }

    fn on_reply(&self, mut reply: Reply) {
        let (on_moved, format) = {
            let mut inner = self.inner.borrow_mut();
            match &inner.pending {
                Some((id, _, _)) if *id == reply.id => {}
                // An answer to a move that was dropped.
                _ => return,
            }
            let on_moved = inner.pending.take().map(|(_, _, f)| f);
            inner.clock_deadline = None;
            // The page's time from posting the move to its answer, whatever the worker says it took.
            let sent_at = inner.sent_at.take().unwrap_or_else(crate::now_ms);
            reply.ms = (crate::now_ms() - sent_at).max(0.0);
            if inner.source.format == Format::Course {
                inner.clock.charge(wall_charge(reply.ms));
                if let Some(files) = &reply.side_files {
                    inner.side_files.clone_from(files);
                }
            }
            (on_moved, inner.source.format)
        };
        if reply.restart {
            self.restart();
        }
        if let Some(on_moved) = on_moved {
            on_moved(moved_of(format, reply));
        }
    }
}

/// A move's charge to the course clock: `ms` of wall time measured by the page (a worker's CPU time
/// cannot be), never killed at the clock's deadline since the page's caller owns the deadlines.
fn wall_charge(ms: f64) -> Charge {
    // `try_from_secs_f64` refuses a NaN and a negative (zero then) and a time too long (all of it).
    let wall = Duration::try_from_secs_f64(ms.max(0.0) / 1000.0).unwrap_or(if ms > 0.0 {
        Duration::MAX
    } else {
        Duration::ZERO
    });
    Charge {
        cpu: None,
        wall,
        killed_at_clock_deadline: false,
    }
}

/// The referee's answer and the inspector's view of what a worker replied for a move: the engine's
/// reading, the same as the command line's, timed by the page.
pub fn moved_of(format: Format, reply: Reply) -> CodeMove {
    reply.runner.into_move(format, Some(reply.ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::code::RunnerReply;

    fn reply(ok: bool, body: Option<&str>, code: Option<&str>) -> Reply {
        Reply {
            id: 1,
            runner: RunnerReply {
                ok,
                body: body.map(str::to_string),
                code: code.map(str::to_string),
                message: Some("why".into()),
                output: "printed\n".into(),
                output_chars: 8,
            },
            ms: 3.0,
            ..Reply::default()
        }
    }

    #[test]
    fn the_page_charges_wall_ms_whatever_it_measured() {
        assert_eq!(wall_charge(1500.0).wall, Duration::from_millis(1500));
        assert_eq!(wall_charge(1500.0).cpu, None);
        assert_eq!(wall_charge(-3.0).wall, Duration::ZERO);
        assert_eq!(wall_charge(f64::NAN).wall, Duration::ZERO);
        assert_eq!(wall_charge(f64::INFINITY).wall, Duration::MAX);
        let mut clock = CourseClock::default();
        clock.charge(wall_charge(299_999.0));
        assert!(!clock.spent());
        clock.charge(wall_charge(1.0));
        assert!(clock.spent(), "the course's 300 s");
    }

    #[test]
    fn a_reply_is_read_by_the_engine_and_timed_by_the_page() {
        // The reading itself is the engine's (halma::code::reply), tested there for both hosts.
        let good = r#"{"from":{"x":2,"y":14},"to":[{"x":2,"y":13}]}"#;
        let moved = moved_of(Format::Function, reply(true, Some(good), None));
        assert!(matches!(moved.answer, Answer::Move(_)), "{moved:?}");
        assert_eq!(moved.printed.as_deref(), Some("printed\n"));
        assert_eq!(moved.ms, Some(3.0));
        let failed = moved_of(Format::Course, reply(false, None, Some("no_output")));
        let Answer::NoMove(no_move) = failed.answer else {
            panic!("{failed:?}")
        };
        assert_eq!(no_move.code(), "no_output");
        let json = r#"{"kind":"answer","id":4,"ok":true,"body":"null","output":"hi\n","outputChars":3,"ms":9}"#;
        let parsed: Reply = serde_json::from_str(json).expect("a worker's answer");
        assert_eq!(parsed.id, 4);
        assert_eq!(parsed.runner.output_chars, 3);
        assert_eq!(
            moved_of(Format::Function, parsed).answer,
            Answer::NoMove(NoMove::Missing)
        );
    }
}
