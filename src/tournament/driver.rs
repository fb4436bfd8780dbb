//! The tournament's clock: one task per game in progress, each playing its game tick by tick, and the
//! roll call's requests. The rules stay in [`Run`] and the engine; this file only waits and fetches.
//!
//! A tick with a web AI lasts the tick length, as in the arena's Run (a fair deadline for every entry);
//! a tick of built-ins only ends as soon as they have answered, but no sooner than [`PACE_MS`], so the
//! wall stays watchable. "Skip to the end of the round" drops both waits for the current round: each tick
//! ends as soon as its answers are in (web AIs still get at most the tick length). A tick that may end
//! early is woken by its last answer ([`Control::deliver`]), never by looking again and again.

use super::roll_call::{self, Check};
use super::runner::{Run, TickEnd};
use super::store;
use crate::halma::asker::{Asker, Question};
use crate::halma::web_ai;
use crate::notice::{Line, Tone};
use crate::now_ms;
use gridarena_engine::halma::{AiPlayer, Answer, NoMove, Team, Teams};
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::settings::Settings;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The shortest tick of built-ins alone, in ms: quicker than that the wall is a blur.
pub const PACE_MS: f64 = 80.0;

/// The finished-game lines kept for the page.
const LOG_LINES: usize = 8;

/// Everything the running page and its tasks share; all signals, so the handle is `Copy`.
#[derive(Clone, Copy)]
pub struct Control {
    pub run: RwSignal<Option<Run>>,
    pub paused: RwSignal<bool>,
    /// Rounds up to this one are played without waiting out the tick timer.
    pub fast_round: RwSignal<Option<usize>>,
    /// Changes when the tournament is replaced, so the old one's tasks stop.
    pub epoch: RwSignal<u64>,
    /// The latest finished games, newest first.
    pub log: RwSignal<Vec<String>>,
    pub notice: RwSignal<Option<Line>>,
    /// For each game waiting on its tick's answers, what wakes it once they are all in.
    wakers: StoredValue<Vec<(usize, js_sys::Function)>, LocalStorage>,
}

impl Control {
    pub fn new(notice: RwSignal<Option<Line>>) -> Control {
        Control {
            run: RwSignal::new(None),
            paused: RwSignal::new(false),
            fast_round: RwSignal::new(None),
            epoch: RwSignal::new(0),
            log: RwSignal::new(Vec::new()),
            notice,
            wakers: StoredValue::new_local(Vec::new()),
        }
    }

    fn current(&self, epoch: u64) -> bool {
        self.epoch.get_untracked() == epoch
    }

    /// Plays `t` from where it stands (a new tournament, or one read back from its bundle).
    pub fn play(self, t: Tournament) {
        self.epoch.update(|e| *e += 1);
        self.paused.set(false);
        self.fast_round.set(None);
        self.log.set(Vec::new());
        self.run.set(Some(Run::new(t)));
        self.save();
        self.start_games();
    }

    /// Stops the tournament and forgets it.
    pub fn clear(self) {
        self.epoch.update(|e| *e += 1);
        self.run.set(None);
        store::clear_bundle();
    }

    fn save(self) {
        let Some(bundle) = self
            .run
            .with_untracked(|r| r.as_ref().map(|r| r.tournament.to_bundle()))
        else {
            return;
        };
        if let Err(why) = store::save_bundle(&bundle) {
            self.notice.set(Some(Line::new(
                Tone::Error,
                format!("The tournament could not be saved, so a reload would lose it: {why}. Export the bundle to keep it."),
            )));
        }
    }

    /// Starts every game the schedule allows now, each in a task of its own.
    fn start_games(self) {
        let epoch = self.epoch.get_untracked();
        let started = self
            .run
            .try_update(|r| r.as_mut().map(Run::start_games))
            .flatten()
            .unwrap_or_default();
        for number in started {
            spawn_local(self.game(number, epoch));
        }
    }

    /// Plays game `number` to its end.
    async fn game(self, number: usize, epoch: u64) {
        let Some((tick_ms, round)) = self.run.with_untracked(|r| {
            let r = r.as_ref()?;
            Some((
                r.tournament.settings().tick_ms,
                r.game(number)?.game.fixture().round,
            ))
        }) else {
            return;
        };
        let tick = tick_ms as f64;
        // How this game's players are asked: built-in AIs think in workers of their own, dropped
        // (terminated) with the game.
        let askers: Teams<Asker> = Teams::default();
        loop {
            while self.paused.get_untracked() && self.current(epoch) {
                sleep(50).await;
            }
            if !self.current(epoch) {
                return;
            }
            let fast = self.fast_round.get_untracked().is_some_and(|r| round <= r);
            let start = now_ms();
            let Some(requests) = self
                .run
                // Beginning a tick and taking answers change nothing on screen: only the tick's end redraws.
                .try_update_untracked(|r| r.as_mut().and_then(|r| r.begin(number, None)))
                .flatten()
            else {
                return;
            };
            let has_web = requests
                .iter()
                .any(|r| matches!(r.to, Question::Web { .. }));
            let answered_all = self.waker(number);
            for request in requests {
                let (turn, team) = (request.turn, request.team);
                askers[team].ask(request.to, tick_ms, move |asked| {
                    let ms = answered_ms(&asked.answer, asked.elapsed_ms);
                    self.deliver(number, epoch, turn, team, asked.answer, ms);
                });
            }
            // A web tick waits out the tick (unless skipping); a built-in tick only the pace.
            let early = !has_web || fast;
            let pace = if fast { 0.0 } else { PACE_MS.min(tick) };
            loop {
                let waited = now_ms() - start;
                if waited >= tick || !self.current(epoch) {
                    break;
                }
                let answered = !self
                    .run
                    .with_untracked(|r| r.as_ref().is_some_and(|r| r.awaiting(number)));
                if early && answered && waited >= pace {
                    break;
                }
                if early && answered {
                    sleep((pace - waited).ceil() as u32).await;
                } else if early {
                    // Woken by the last answer, or by the deadline.
                    let deadline = timer((tick - waited).ceil() as u32);
                    let first =
                        js_sys::Promise::race(&js_sys::Array::of2(&deadline, &answered_all));
                    let _ = wasm_bindgen_futures::JsFuture::from(first).await;
                } else {
                    sleep((tick - waited).ceil() as u32).await;
                }
            }
            self.wakers
                .update_value(|w| w.retain(|(n, _)| *n != number));
            // An answer still on its way is for a tick that is over.
            for team in Team::ALL {
                askers[team].stop(tick);
            }
            if !self.current(epoch) {
                return;
            }
            let waited = (now_ms() - start).max(0.0) as u64;
            let ended = self
                .run
                .try_update(|r| r.as_mut().map(|r| r.end_tick(number, waited.min(tick_ms))));
            match ended.flatten() {
                Some(TickEnd::Continues) => {
                    // Give the page a frame even when every answer was instant.
                    if fast || !has_web {
                        sleep(0).await;
                    }
                }
                Some(TickEnd::Finished(said)) => {
                    self.log.update(|l| {
                        l.insert(0, said);
                        l.truncate(LOG_LINES);
                    });
                    self.save();
                    self.start_games();
                    return;
                }
                _ => return,
            }
        }
    }
}

impl Control {
    fn deliver(
        self,
        number: usize,
        epoch: u64,
        turn: u32,
        team: Team,
        answer: Answer,
        ms: Option<u32>,
    ) {
        if !self.current(epoch) {
            return;
        }
        let mut complete = false;
        self.run.update_untracked(|r| {
            if let Some(r) = r {
                r.deliver(number, turn, team, answer, ms);
                complete = !r.awaiting(number);
            }
        });
        if complete {
            let woken = self.wakers.try_update_value(|w| {
                w.iter()
                    .position(|(n, _)| *n == number)
                    .map(|i| w.remove(i).1)
            });
            if let Some(Some(wake)) = woken {
                let _ = wake.call0(&wasm_bindgen::JsValue::UNDEFINED);
            }
        }
    }

    /// A promise that [`Control::deliver`] resolves when game `number`'s tick has all its answers.
    fn waker(self, number: usize) -> js_sys::Promise {
        js_sys::Promise::new(&mut |resolve, _| {
            self.wakers.update_value(|w| {
                w.retain(|(n, _)| *n != number);
                w.push((number, resolve));
            });
        })
    }
}

/// Waits `ms` milliseconds on the browser's timer, letting the page draw meanwhile.
async fn sleep(ms: u32) {
    let _ = wasm_bindgen_futures::JsFuture::from(timer(ms)).await;
}

/// A promise resolved after `ms` milliseconds.
fn timer(ms: u32) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    })
}

/// The latency of an answer that came (a refused or timed-out request has none).
fn answered_ms(answer: &Answer, ms: f64) -> Option<u32> {
    match answer {
        Answer::NoMove(NoMove::Failed(_) | NoMove::TimedOut { .. }) => None,
        _ => Some(ms.max(0.0).round() as u32),
    }
}

/// Calls the roll: every entry's check in `checks` (in roster order), web entries as their answers come.
/// `calls` counts the roll calls, so an answer to an earlier one is not taken for this one's.
pub fn roll_call(
    players: Vec<AiPlayer>,
    settings: Settings,
    checks: RwSignal<Vec<Check>>,
    calls: RwSignal<u64>,
) {
    calls.update(|n| *n += 1);
    let call = calls.get_untracked();
    let protocol = store::page_protocol();
    let initial: Vec<Check> = players
        .iter()
        .map(|p| roll_call::before_asking(p, &protocol).unwrap_or(Check::Waiting))
        .collect();
    checks.set(initial);
    let request = roll_call::request(&settings);
    for (i, player) in players.into_iter().enumerate() {
        let AiPlayer::Web(url) = player else { continue };
        if checks.with_untracked(|c| c.get(i) != Some(&Check::Waiting)) {
            continue;
        }
        let (body, _) = match &request {
            Ok(r) => r.clone(),
            Err(why) => {
                checks.update(|c| {
                    c[i] = Check::Red {
                        reason: why.clone(),
                        fix: String::new(),
                    }
                });
                continue;
            }
        };
        let settings = settings.clone();
        spawn_local(async move {
            let Ok(abort) = web_sys::AbortController::new() else {
                return;
            };
            let deadline = roll_call::deadline_ms(&settings);
            let signal = abort.signal();
            let timer = gloo_timers::callback::Timeout::new(deadline as u32, move || abort.abort());
            let sent = now_ms();
            let answer = web_ai::ask(&url, body, &signal, deadline).await;
            drop(timer);
            let ms = answered_ms(&answer, now_ms() - sent);
            let check = roll_call::judge(&settings, answer, ms);
            if calls.get_untracked() != call {
                return;
            }
            checks.update(|c| {
                if let Some(slot) = c.get_mut(i) {
                    *slot = check;
                }
            });
        });
    }
}
