//! Plays ticks on the page: sends a tick's requests, collects the answers as they arrive, and enacts the
//! tick at its deadline (Run) or as soon as every answer is in (Step, or the last tick after Stop).
//!
//! The seed's timing, for every kind of player: all requests leave at the same moment, an answer that
//! misses the deadline (the tick length) counts as no move, and a late answer is dropped, never applied
//! to a later tick. The rules stay in [`Session`] and the engine; this only owns timers and workers.
//! A tick is sent and awaited as the tournament's are ([`Tick`]: the engine's `TickClock` through a
//! [`TickWait`]): Step's tick ends once its answers are in, Run's at its length (or at the beat, a
//! worker's timer that keeps time in a hidden tab, whichever comes first).
//!
//! This, the askers of every kind of player and the session's tick are most of the arena's code, and a
//! first board needs none of them: the page asks for a [`Call`] and its bin splits [`run`] off the start
//! page's first download (`split_fn!`, `src/lazy.rs`), loaded once the page is idle.

use super::asker::{self, Asker, Question, Reach};
use super::builtin;
use super::messages::{Line, Tone};
use super::player::Player;
use super::session::{Ask, Session};
use super::tick::{Send, Tick};
use crate::alarm::Alarm;
use crate::code::seat::SeatStatus;
use crate::tick_alarm::TickAlarm;
use crate::tick_wait::TickWait;
use gridarena_engine::halma::tick_clock::Pace;
use gridarena_engine::halma::{Team, Teams};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// How long a tick waits for its answers before Step shows it is busy.
const BUSY_AFTER_MS: u64 = 200;

/// What the page asks of its tick machinery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// The game's players changed: code players start loading now rather than at the first tick.
    Prepare,
    /// Step: one tick, enacted as soon as every answer is in, or at the deadline.
    Step,
    /// One beat of Run's interval: the tick in progress ends, and the next begins.
    Beat,
    /// Run was switched on: the first tick begins now rather than one interval later.
    Run,
    /// Run was switched off: the tick in progress still ends, as soon as its answers are in.
    Stop,
    /// A new game or a loaded replay: the tick in progress is abandoned and thinking AIs are stopped.
    Reset,
}

/// A call and the ticker it is for: what the split function takes.
pub type Asked = (Ticker, Call);

/// Does what the page asked.
pub fn run((ticker, call): Asked) {
    match call {
        Call::Prepare => ticker.prepare(),
        Call::Step => ticker.step(),
        Call::Beat => ticker.beat(),
        Call::Run => ticker.run(),
        Call::Stop => ticker.stop(),
        Call::Reset => ticker.reset(),
    }
}

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
    /// How each team's player is asked (a code team's seat stays open across games).
    askers: Teams<Asker>,
    /// Whether a tick was asked for while a code player loads: begun once all are ready.
    held: bool,
    /// Whether the notice line shows a code player's loading, to clear once all are ready.
    loading_said: bool,
    /// The tick in progress's wait: told each answer, it ends the tick when the engine's clock says.
    wait: Option<TickWait>,
    /// The timer every tick's wait sleeps on, lent to each in turn: a tick makes no timer of its own
    /// (issue 38).
    alarm: TickAlarm,
    /// Step's busy look, shown once a tick has waited [`BUSY_AFTER_MS`]; cancelled when the tick ends
    /// (one timer, made once and set again for each tick: issue 38).
    busy: Option<Alarm>,
}

impl State {
    /// Stops the AIs still thinking and cancels the requests still open: their answers would be for a
    /// tick that is over.
    fn stop_thinking(&self, waited_ms: f64) {
        for team in Team::ALL {
            self.askers[team].stop(waited_ms);
        }
    }

    /// The tick is over: its wait gives up and its timer must not run.
    fn disarm(&mut self) {
        if let Some(wait) = self.wait.take() {
            wait.cancel();
        }
        if let Some(t) = &mut self.busy {
            t.cancel();
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
    fn step(self) {
        if !self.tick_in_progress() {
            self.begin(true);
        }
    }

    /// One beat of Run's interval: the tick in progress ends here (its deadline), and the next begins.
    fn beat(self) {
        if self.tick_in_progress() {
            self.finish();
        }
        if self.running.get_untracked() && self.session.with_untracked(Session::ready) {
            self.begin(false);
        } else if self.running.get_untracked() && self.session.with_untracked(Session::is_over) {
            self.running.set(false);
        }
    }

    /// Run was switched on: the first tick begins now rather than one interval later (unless Run was
    /// switched off again while the clock loaded).
    fn run(self) {
        if self.running.get_untracked()
            && !self.tick_in_progress()
            && self.session.with_untracked(Session::ready)
        {
            self.begin(false);
        }
    }

    /// Run was switched off: the tick in progress still ends, as soon as its answers are in.
    fn stop(self) {
        if let Some(wait) = self.state.with_value(|s| s.wait.clone()) {
            wait.hurry();
        }
    }

    /// A new game or a loaded replay: the tick in progress is abandoned and thinking AIs are stopped.
    fn reset(self) {
        self.state.update_value(|s| {
            s.stop_thinking(0.0);
            s.disarm();
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
        // Every player's message is written first, the state both teams' carry once; then each is sent
        // (sending keeps what went out in the session, which must not be read meanwhile).
        let questions = self.session.with_untracked(|s| {
            let state = builtin::TickState::written(s.game(), s.state_json());
            asks.into_iter()
                .filter_map(|ask| self.question(ask, s, &state))
                .collect::<Vec<_>>()
        });
        let pace = if eager {
            Pace::Early { min_ms: 0 }
        } else {
            Pace::WaitOut
        };
        // Every player is cut at the tick, as the arena has always played.
        let sends = questions
            .into_iter()
            .map(|(ask, question)| Send {
                team: ask.request.team,
                turn: ask.request.turn,
                question,
                limit_ms: ask.time_limit_ms,
                on_clock: false,
            })
            .collect();
        self.state.update_value(State::disarm);
        let (tick, shown) = self.state.with_value(|s| {
            Tick::send((u64::from(ms), pace), sends, &s.askers, &s.alarm, {
                move |team, round, asked, latency| self.deliver(round, team, asked, latency)
            })
        });
        // Kept now, so a request that times out still shows what was sent.
        self.session.update_untracked(|s| {
            for (team, round, sent) in shown {
                s.keep_wire(round, team, sent.to, sent.text, sent.wire);
            }
        });
        let wait = tick.wait().clone();
        self.state.update_value(|s| s.wait = Some(wait.clone()));
        self.arm_busy();
        spawn_local(async move {
            // Cancelled when the tick ends otherwise: at Run's beat, or by a new game.
            let stop = move |team: Team, ms: f64| {
                let _ = self.state.try_with_value(|s| s.askers[team].stop(ms));
            };
            if tick.end(stop).await.is_some() && self.is_current(&wait) {
                self.finish();
            }
        });
    }

    /// Whether `wait` is the tick in progress's.
    fn is_current(self, wait: &TickWait) -> bool {
        self.state
            .try_with_value(|s| s.wait.as_ref().is_some_and(|w| w.same(wait)))
            .unwrap_or(false)
    }

    /// Sets Step's busy look to show once the tick has waited [`BUSY_AFTER_MS`], unless it shows already.
    fn arm_busy(self) {
        if self.awaiting_answers.get_untracked() {
            return;
        }
        self.state.update_value(|s| {
            s.busy
                .get_or_insert_with(|| {
                    Alarm::new(move || {
                        let waiting = self
                            .state
                            .try_with_value(|s| s.wait.as_ref().is_some_and(TickWait::awaiting));
                        if waiting == Some(true) && !self.awaiting_answers.get_untracked() {
                            self.awaiting_answers.set(true);
                        }
                    })
                })
                .set(BUSY_AFTER_MS as u32);
        });
    }

    fn not_busy(self) {
        if self.awaiting_answers.get_untracked() {
            self.awaiting_answers.set(false);
        }
    }

    /// What `ask`'s player is sent this tick, `state` being the tick's game state (a human is sent
    /// nothing).
    fn question(
        self,
        ask: Ask,
        s: &Session,
        state: &builtin::TickState,
    ) -> Option<(Ask, Question)> {
        let reach = match &ask.player {
            Player::BuiltIn(ai) => Reach::BuiltIn(*ai),
            Player::Web(url) => Reach::Web(url),
            Player::Code(_) => Reach::Code,
            Player::Human => return None,
        };
        let question = Question::for_move(reach, s.playing(), &ask.request, state);
        Some((ask, question))
    }

    /// Gets the code players of the game on the page ready: loading starts now rather than at the first
    /// tick.
    fn prepare(self) {
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
            self.state.with_value(|s| match &players[team] {
                Player::Code(code) => {
                    let label = code.to_string();
                    s.askers[team].seat(&label, seed, move |status| self.code_status(team, status));
                }
                _ => s.askers[team].close_seat(),
            });
        }
        movers.into_iter().find_map(|team| {
            let (label, status) = self.state.with_value(|s| s.askers[team].seat_status())?;
            match status {
                SeatStatus::Loading(text) if text.is_empty() => {
                    Some(format!("{team}: starting {label}…"))
                }
                SeatStatus::Loading(text) => Some(format!("{team} ({label}): {text}")),
                _ => None,
            }
        })
    }

    /// A code player's status changed: the page says how loading goes, or why a player cannot play, and
    /// a held tick begins once every code player is ready.
    fn code_status(self, team: Team, status: &SeatStatus) {
        if let SeatStatus::Failed(failure) = status {
            let label = self
                .state
                .try_with_value(|s| s.askers[team].seat_status().map(|(l, _)| l));
            if let Some(Some(label)) = label {
                self.say(
                    Tone::Error,
                    format!("{team} ({label}) cannot play: {failure}"),
                );
            }
        }
        match self.code_loading() {
            Some(text) => {
                if matches!(status, SeatStatus::Loading(_)) {
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
                if said && !matches!(status, SeatStatus::Failed(_)) {
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

    /// Hands `team`'s answer for tick `round`, `latency` ms after the tick began, to the session (what
    /// came over the wire kept for the inspector). Returns whether the session took it.
    fn deliver(self, round: u32, team: Team, asked: asker::Asked, latency: f64) -> bool {
        let _ = self
            .session
            .try_update_untracked(|s| s.keep_answer_wire(round, team, asked.wire));
        let mut taken = false;
        let _ = self
            .session
            .try_update_untracked(|s| taken = s.deliver(round, team, asked.answer, latency));
        taken
    }

    /// Enacts the tick in progress with what has arrived.
    fn finish(self) {
        let waited = u64::from(self.tick_ms.get_untracked());
        // A fresh worker takes the next job of a team whose worker is stopped here.
        self.state.with_value(|s| s.stop_thinking(waited as f64));
        self.state.update_value(State::disarm);
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
