//! Plays ticks on the page: sends a tick's requests, collects the answers as they arrive, and enacts the
//! tick at its deadline (Run) or as soon as every answer is in (Step, or the last tick after Stop).
//!
//! The seed's timing, for every kind of player: all requests leave at the same moment, an answer that
//! misses the deadline (the tick length) counts as no move, and a late answer is dropped, never applied
//! to a later tick. The rules stay in [`Session`] and the engine; this only owns timers and workers.

use super::builtin;
use super::messages::{Line, Tone};
use super::player::Player;
use super::session::{Ask, Session};
use super::web_ai;
use crate::ai_worker::{AiWorker, Reply};
use crate::code::ai::{CodeRef, Format};
use crate::code::player::{CodePlayer, Moved, Status};
use crate::code::store;
use crate::now_ms as now;
use gridarena_engine::halma::{Answer, CodeFailure, ContentType, NoMove, Team, Teams, Wire};
use leptos::prelude::*;
use std::time::Duration;
use web_sys::AbortController;

/// How long a tick waits for its answers before Step shows it is busy.
const BUSY_AFTER_MS: u64 = 200;

/// The page's tick machinery. Copy: every callback holds its own handle.
#[derive(Clone, Copy)]
pub struct Ticker {
    session: RwSignal<Session>,
    notice: RwSignal<Option<Line>>,
    running: RwSignal<bool>,
    tick_ms: RwSignal<u32>,
    /// What the page is told about whether a tick is waiting for answers. Beginning a tick and taking
    /// answers change nothing on the board, so they update the session without notifying it, and only
    /// this signal tells the page; the session itself ([`Ticker::tick_in_progress`]) is the truth. It is
    /// raised only once a tick has waited [`BUSY_AFTER_MS`]: a tick answered sooner (the built-in AIs,
    /// a fast endpoint) then costs the page one render, not three (Step greyed out and back).
    awaiting_answers: RwSignal<bool>,
    state: StoredValue<State, LocalStorage>,
}

#[derive(Default)]
struct State {
    /// One worker per team, started on the team's first built-in job.
    workers: Teams<Option<AiWorker>>,
    /// The job each team's worker is on, with its tick; at most one per team.
    jobs: Teams<Option<(u32, String)>>,
    /// Each team's web request in flight, with its tick; at most one per team.
    requests: Teams<Option<(u32, AbortController)>>,
    /// Set once a worker fails: built-in AIs then answer on the page thread (slower, still correct).
    no_workers: bool,
    /// Each code team's player, with what it runs, or why it cannot run.
    code: Teams<Option<(CodeRef, Result<CodePlayer, String>)>>,
    /// The tick each code team's move in flight belongs to.
    code_moves: Teams<Option<u32>>,
    /// Whether a tick was asked for while a code player loads: begun once all are ready.
    held: bool,
    /// Whether the notice line shows a code player's loading, to clear once all are ready.
    loading_said: bool,
    /// When the tick in progress began (`performance.now()`), and whether it ends once all answers are in.
    started: f64,
    eager: bool,
    /// Changes with every tick begun and every reset, across games, so a deadline timer can tell whether
    /// its tick is still the one in progress (a tick's own name, its turn, starts again with each game).
    generation: u64,
}

impl State {
    /// Terminates the workers still thinking and cancels the web requests still open: their answers
    /// would be for a tick that is over.
    fn stop_thinking(&mut self, waited_ms: f64) {
        for team in Team::ALL {
            if self.code_moves[team].take().is_some() {
                if let Some((_, Ok(player))) = &self.code[team] {
                    player.cancel(waited_ms);
                }
            }
            if self.jobs[team].take().is_some() {
                self.workers[team] = None;
            }
            if let Some((_, request)) = self.requests[team].take() {
                request.abort();
            }
        }
    }
}

impl Ticker {
    pub fn new(
        session: RwSignal<Session>,
        notice: RwSignal<Option<Line>>,
        running: RwSignal<bool>,
        tick_ms: RwSignal<u32>,
    ) -> Ticker {
        Ticker {
            session,
            notice,
            running,
            tick_ms,
            awaiting_answers: RwSignal::new(false),
            state: StoredValue::new_local(State::default()),
        }
    }

    /// Whether a tick is waiting for its answers (reactive).
    pub fn awaiting_answers(&self) -> Signal<bool> {
        self.awaiting_answers.into()
    }

    fn tick_in_progress(&self) -> bool {
        self.session.with_untracked(|s| s.round().is_some())
    }

    /// Step: one tick, enacted as soon as every answer is in, or at the deadline.
    pub fn step(self) {
        if !self.tick_in_progress() {
            self.begin(true);
        }
    }

    /// One beat of Run's interval: the tick in progress ends here (its deadline), and the next begins.
    pub fn beat(self) {
        if self.tick_in_progress() {
            self.finish();
        }
        if self.running.get_untracked() && self.session.with_untracked(Session::ready) {
            self.begin(false);
        } else if self.running.get_untracked() && self.session.with_untracked(Session::is_over) {
            self.running.set(false);
        }
    }

    /// Run was switched on: the first tick begins now rather than one interval later.
    pub fn run(self) {
        if !self.tick_in_progress() && self.session.with_untracked(Session::ready) {
            self.begin(false);
        }
    }

    /// Run was switched off: the tick in progress still ends, as soon as its answers are in.
    pub fn stop(self) {
        if !self.tick_in_progress() {
            return;
        }
        self.state.update_value(|s| s.eager = true);
        if self.session.with_untracked(|s| s.awaiting().is_empty()) {
            self.finish();
        } else {
            self.arm_deadline();
        }
    }

    /// A new game or a loaded replay: the tick in progress is abandoned and thinking AIs are stopped.
    pub fn reset(self) {
        self.state.update_value(|s| {
            s.stop_thinking(0.0);
            s.generation += 1;
            s.held = false;
        });
        self.not_busy();
    }

    fn begin(self, eager: bool) {
        if let Some(loading) = self.code_loading() {
            self.state.update_value(|s| {
                s.held = true;
                s.loading_said = true;
            });
            self.say(Tone::Info, loading);
            return;
        }
        let ms = self.tick_ms.get_untracked();
        let mut begun = Err(String::new());
        self.session
            .update_untracked(|s| begun = s.begin_tick(u64::from(ms)));
        let asks = match begun {
            Ok(asks) => asks,
            Err(why) => {
                self.say(Tone::Info, why);
                return;
            }
        };
        self.state.update_value(|s| {
            s.started = now();
            s.eager = eager;
            s.generation += 1;
        });
        self.show_busy_later();
        for ask in asks {
            self.send(ask);
        }
        let answered = self.session.with_untracked(|s| s.awaiting().is_empty());
        if eager && answered {
            self.finish();
        } else if eager {
            self.arm_deadline();
        }
    }

    /// Says the tick is busy if it is still waiting [`BUSY_AFTER_MS`] from now.
    fn show_busy_later(self) {
        let generation = self.state.with_value(|s| s.generation);
        set_timeout(
            move || {
                let same = self.state.try_with_value(|s| s.generation) == Some(generation);
                if same && self.tick_in_progress() {
                    self.awaiting_answers.set(true);
                }
            },
            Duration::from_millis(BUSY_AFTER_MS),
        );
    }

    fn not_busy(self) {
        if self.awaiting_answers.get_untracked() {
            self.awaiting_answers.set(false);
        }
    }

    /// Ends the tick in progress at the deadline unless it has ended by then.
    fn arm_deadline(self) {
        let (generation, started) = self.state.with_value(|s| (s.generation, s.started));
        let left = f64::from(self.tick_ms.get_untracked()) - (now() - started);
        set_timeout(
            move || {
                if self.tick_in_progress() && self.state.with_value(|s| s.generation) == generation
                {
                    self.finish();
                }
            },
            Duration::from_millis(left.max(0.0) as u64),
        );
    }

    fn send(self, ask: Ask) {
        match ask.player {
            Player::BuiltIn(ai) => {
                let job = self.session.with_untracked(|s| {
                    builtin::job(ai, s.game(), ask.request.team, ask.request.seed)
                });
                let request = ask.request;
                if !self.post(request.team, request.turn, &job) {
                    let answer = builtin::read_reply(&builtin::halma_builtin_answer(&job));
                    self.deliver(request.turn, request.team, answer);
                }
            }
            Player::Web(url) => self.fetch(
                ask.request.team,
                ask.request.turn,
                url,
                ask.content_type,
                ask.time_limit_ms,
            ),
            Player::Code(_) => self.ask_code(ask.request.team, ask.request.turn, ask.time_limit_ms),
            Player::Human => {}
        }
    }

    /// Gets the code players of the game on the page ready: loading starts now rather than at the first
    /// tick.
    pub fn prepare(self) {
        if let Some(loading) = self.code_loading() {
            self.state.update_value(|s| s.loading_said = true);
            self.say(Tone::Info, loading);
        }
    }

    /// Starts, switches or resets the code players so that each code team runs what its label names,
    /// for this game. Returns what the page must wait for: a code player of a mover still loading.
    fn code_loading(self) -> Option<String> {
        let (players, seed, movers) = self
            .session
            .with_untracked(|s| (s.players().clone(), s.seed(), s.game().movers()));
        for team in Team::ALL {
            let Player::Code(code) = &players[team] else {
                self.state.update_value(|s| s.code[team] = None);
                continue;
            };
            let current = self.state.with_value(|s| match &s.code[team] {
                Some((r, Ok(p))) if r == code => Some(Some(p.clone())),
                Some((r, Err(_))) if r == code => Some(None),
                _ => None,
            });
            match current {
                // Another game: the same code again if it is unchanged, fresh module state.
                Some(Some(player)) if player.seed() != seed => match store::source_of(code) {
                    Ok(source) if source == player.source() => player.new_game(seed),
                    found => self.start_code(team, code.clone(), found, seed),
                },
                Some(_) => {}
                None => self.start_code(team, code.clone(), store::source_of(code), seed),
            }
        }
        movers.into_iter().find_map(|team| {
            self.state.with_value(|s| match &s.code[team] {
                Some((code, Ok(player))) => match player.status() {
                    Status::Loading(text) if text.is_empty() => {
                        Some(format!("{team}: starting {code}…"))
                    }
                    Status::Loading(text) => Some(format!("{team} ({code}): {text}")),
                    _ => None,
                },
                _ => None,
            })
        })
    }

    fn start_code(
        self,
        team: Team,
        code: CodeRef,
        source: Result<crate::code::ai::Source, String>,
        seed: u64,
    ) {
        let player = source.map(|source| {
            CodePlayer::start(source, seed, move |status| {
                // Heard after whatever changed it is done, never inside it.
                let status = status.clone();
                leptos::task::spawn_local(async move { self.code_status(team, status) });
            })
        });
        if let Err(why) = &player {
            self.say(Tone::Error, format!("{team} ({code}) cannot play: {why}"));
        }
        self.state
            .update_value(|s| s.code[team] = Some((code, player)));
    }

    /// A code player's status changed: the page says how loading goes, or why a player cannot play, and
    /// a held tick begins once every code player is ready.
    fn code_status(self, team: Team, status: Status) {
        if let Status::Failed(failure) = &status {
            let code = self
                .state
                .try_with_value(|s| s.code[team].as_ref().map(|(c, _)| c.to_string()));
            if let Some(Some(code)) = code {
                self.say(
                    Tone::Error,
                    format!("{team} ({code}) cannot play: {failure}"),
                );
            }
        }
        match self.code_loading() {
            Some(text) => {
                if matches!(status, Status::Loading(_)) {
                    self.state.update_value(|s| s.loading_said = true);
                    self.say(Tone::Info, text);
                }
            }
            None => {
                let Some((held, said)) = self.state.try_update_value(|s| {
                    (
                        std::mem::take(&mut s.held),
                        std::mem::take(&mut s.loading_said),
                    )
                }) else {
                    return;
                };
                if said && !matches!(status, Status::Failed(_)) {
                    self.notice.set(None);
                }
                // Run's next beat begins the tick, so that it gets a whole tick length; a Step
                // begins it now.
                let stepped = held && !self.running.get_untracked();
                if stepped
                    && !self.tick_in_progress()
                    && self.session.with_untracked(Session::ready)
                {
                    self.begin(true);
                }
            }
        }
    }

    /// Asks `team`'s code player for its move in tick `round`; the answer is delivered when it comes.
    fn ask_code(self, team: Team, round: u32, deadline_ms: u64) {
        let found = self.state.with_value(|s| s.code[team].clone());
        let (code, player) = match found {
            Some((code, Ok(player))) => (code, player),
            Some((_, Err(why))) => {
                let failure = CodeFailure::NotStarted { why };
                self.deliver(round, team, Answer::NoMove(NoMove::Code(failure)));
                return;
            }
            None => return,
        };
        let request = self
            .session
            .with_untracked(|s| s.request_body(team, deadline_ms));
        let input = match player.source().format {
            Format::Function => None,
            Format::Course => match self
                .session
                .with_untracked(|s| player.course_input(s.game(), team))
            {
                Ok(text) => Some(text),
                Err(why) => {
                    let failure = CodeFailure::NotStarted { why };
                    self.deliver(round, team, Answer::NoMove(NoMove::Code(failure)));
                    return;
                }
            },
        };
        // What the code is given: the request, or input.txt for the course format.
        let shown = input.clone().unwrap_or_else(|| request.clone());
        let label = code.to_string();
        let sent = Wire::sent(ContentType::TextPlain, deadline_ms);
        let (l, b) = (label.clone(), shown.clone());
        self.session
            .update_untracked(|s| s.keep_wire(round, team, l, b, sent.clone()));
        self.state
            .update_value(|s| s.code_moves[team] = Some(round));
        player.ask(&request, input.as_deref(), move |moved: Moved| {
            let current = self
                .state
                .try_update_value(|s| match s.code_moves[team] {
                    Some(r) if r == round => s.code_moves[team].take().is_some(),
                    _ => false,
                })
                .unwrap_or(false);
            if !current {
                return;
            }
            let wire = Wire {
                ms: moved.ms.map(|ms| ms.round() as u32),
                body: moved.body,
                stderr: moved.output,
                ..sent
            };
            let _ = self
                .session
                .try_update_untracked(|s| s.keep_wire(round, team, label, shown, wire));
            self.deliver(round, team, moved.answer);
        });
    }

    /// Sends `team`'s request to its web AI; the answer, or why there is none, is delivered when it comes.
    fn fetch(
        self,
        team: Team,
        round: u32,
        url: String,
        content_type: ContentType,
        deadline_ms: u64,
    ) {
        let body = self
            .session
            .with_untracked(|s| s.request_body(team, deadline_ms));
        let controller = match AbortController::new() {
            Ok(c) => c,
            Err(_) => {
                let why = "this browser cannot cancel requests (no AbortController)".to_string();
                self.deliver(round, team, Answer::NoMove(NoMove::Failed(why)));
                return;
            }
        };
        let signal = controller.signal();
        self.state
            .update_value(|s| s.requests[team] = Some((round, controller)));
        // Kept now, so a request that times out still shows what was sent.
        let sent = Wire::sent(content_type, deadline_ms);
        let (u, b) = (url.clone(), body.clone());
        self.session
            .update_untracked(|s| s.keep_wire(round, team, u, b, sent));
        leptos::task::spawn_local(async move {
            let (answer, wire) =
                web_ai::ask_wire(&url, content_type, body.clone(), &signal, deadline_ms).await;
            // Only the request still in flight for this tick may answer; a cancelled one is already
            // counted as timed out.
            let current = self
                .state
                .try_update_value(|s| match &s.requests[team] {
                    Some((r, _)) if *r == round => s.requests[team].take().is_some(),
                    _ => false,
                })
                .unwrap_or(false);
            // A timed-out request's exchange is kept too: the inspector says what was sent.
            let _ = self
                .session
                .try_update_untracked(|s| s.keep_wire(round, team, url, body, wire));
            if current {
                self.deliver(round, team, answer);
            }
        });
    }

    /// Gives `job` to `team`'s worker, starting it if needed; false if there is no worker to give it to.
    fn post(self, team: Team, round: u32, job: &str) -> bool {
        if self.state.with_value(|s| s.no_workers) {
            return false;
        }
        if self.state.with_value(|s| s.workers[team].is_none()) {
            match AiWorker::spawn(builtin::EXPORT, move |reply| self.on_reply(team, reply)) {
                Ok(w) => self.state.update_value(|s| s.workers[team] = Some(w)),
                Err(why) => {
                    self.workers_failed(&why);
                    return false;
                }
            }
        }
        let posted = self
            .state
            .with_value(|s| s.workers[team].as_ref().map(|w| w.post(job)));
        match posted {
            Some(Ok(())) => {
                self.state
                    .update_value(|s| s.jobs[team] = Some((round, job.to_string())));
                true
            }
            Some(Err(why)) => {
                self.workers_failed(&why);
                false
            }
            None => false,
        }
    }

    fn on_reply(self, team: Team, reply: Reply) {
        match reply {
            Reply::Answer(text) => {
                let Some((round, _)) = self
                    .state
                    .try_update_value(|s| s.jobs[team].take())
                    .flatten()
                else {
                    return;
                };
                self.deliver(round, team, builtin::read_reply(&text));
            }
            Reply::Failed(why) => {
                // The job it was on is answered here instead, so the tick does not lose it.
                let job = self
                    .state
                    .try_update_value(|s| s.jobs[team].take())
                    .flatten();
                self.workers_failed(&why);
                if let Some((round, job)) = job {
                    let answer = builtin::read_reply(&builtin::halma_builtin_answer(&job));
                    self.deliver(round, team, answer);
                }
            }
        }
    }

    fn workers_failed(self, why: &str) {
        leptos::logging::warn!("built-in AIs run on the page thread: their worker failed: {why}");
        // Dropping a worker from inside its own callback is safe: wasm-bindgen keeps the running closure.
        let workers = self.state.try_update_value(|s| {
            s.no_workers = true;
            std::mem::take(&mut s.workers)
        });
        drop(workers);
    }

    fn deliver(self, round: u32, team: Team, answer: Answer) {
        let latency = now() - self.state.with_value(|s| s.started);
        let mut complete = false;
        self.session.update_untracked(|s| {
            if s.deliver(round, team, answer, latency) {
                complete = s.awaiting().is_empty();
            }
        });
        if complete && self.state.with_value(|s| s.eager) {
            self.finish();
        }
    }

    /// Enacts the tick in progress with what has arrived.
    fn finish(self) {
        let waited = u64::from(self.tick_ms.get_untracked());
        // A fresh worker takes the next job of a team whose worker is stopped here.
        self.state.update_value(|s| s.stop_thinking(waited as f64));
        let mut result = Ok(false);
        self.session
            .update(|s| result = s.finish_tick(waited).map(|o| o.result.is_some()));
        self.not_busy();
        match result {
            Ok(over) => {
                if self.notice.with_untracked(Option::is_some) {
                    self.notice.set(None);
                }
                if over {
                    self.running.set(false);
                }
            }
            Err(why) => self.say(Tone::Info, why),
        }
    }

    fn say(self, tone: Tone, text: String) {
        self.notice.set(Some(Line { tone, text }));
    }
}
