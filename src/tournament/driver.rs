//! The tournament's clock: one task per game in progress, each playing its game tick by tick, and the
//! roll call's requests. The rules stay in [`Run`] and the engine; this file only waits and fetches.
//!
//! A tick with a web AI lasts the tick length, as in the arena's Run (a fair deadline for every entry);
//! a tick of built-ins only ends as soon as they have answered, but no sooner than [`PACE_MS`], so the
//! wall stays watchable. "Skip to the end of the round" drops both waits for the current round: each tick
//! ends as soon as its answers are in (web AIs still get at most the tick length). That rule is the
//! engine's `TickClock`; each tick is sent and awaited as the arena's are ([`Tick`]), its answers handed
//! to the game ([`Control::deliver`]); a paused game and one waiting for a seat in the pool await a
//! [`Bell`]. Nothing looks again and again.
//!
//! Each entry is given what the engine's plan says ([`gridarena_engine::tournament::plan`], which
//! `gridarena halma tournament` obeys too): web AIs, built-ins and function-format code are cut at the
//! tick, while a course-format entry plays on its course clock. Its code player cuts its move off at the
//! clock's own deadline, so the tick waits for its answer, however long past the tick length, as the
//! command line's does; the other side's move is cut at the tick meanwhile.
//!
//! Code entries are asked like house bots (a tick ends once both have answered), each in a seat of the
//! code players' module opened from the entry's own code. The seats come from a [`Pool`] kept across
//! games and roll calls: a game waits until its code entries' seats are free and ready (loading an
//! interpreter is not a move's time), and gives them back when it ends. So does each tick, for a seat
//! whose worker was restarted when its last move was cut off.

use super::job::Job;
use super::pool::{self, Machine, Pool, Strain};
use super::roll_call::{self, Check};
use super::runner::{Run, TickEnd};
use super::store;
use crate::bell::Bell;
use crate::code::player::LOAD_LIMIT_MS;
use crate::code::seat::{Seat, SeatStatus};
use crate::halma::asker::{self, Asker, Question};
use crate::halma::tick::{Send, Tick};
use crate::lazy::{InOrder, Split};
use crate::notice::{Line, Tone};
use crate::now_ms;
use crate::tick_alarm::TickAlarm;
use crate::tick_wait::TickWait;
use crate::web_ai;
use gridarena_engine::halma::code::{ClockSettings, HashedSource};
use gridarena_engine::halma::play::Deadline;
use gridarena_engine::halma::tick_clock::Pace;
use gridarena_engine::halma::{AiPlayer, Answer, NoMove, Team, Teams};
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::plan::EntryPlan;
use gridarena_engine::tournament::settings::Settings;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;
use std::sync::Arc;

/// The shortest tick of built-ins alone, in ms: quicker than that the wall is a blur.
pub const PACE_MS: f64 = 80.0;

/// A job asked of the clock, with the clock to do it on: the argument of [`super::jobs::run`], the
/// function the tournament page's bin splits off.
pub type Asked = (Control, Job);

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
    /// Each game's tick in progress, told its answers as they land (and cancelled with the tournament).
    waits: StoredValue<Vec<(usize, TickWait)>, LocalStorage>,
    /// Rung when what a waiting game looks for may have changed: a pause lifted, a seat given back to
    /// the pool, the tournament replaced.
    bell: StoredValue<Bell, LocalStorage>,
    /// The code entries' seats (their interpreters), kept across games and roll calls.
    pool: StoredValue<Pool<Seat>, LocalStorage>,
    /// How the machine keeps up, for the wall.
    pub strain: RwSignal<Strain>,
    /// Whether the run is kept in this browser (a tournament) or not (a comparison).
    saves: bool,
    /// What runs the page's [`Job`]s, in the order they are asked: split off the tournament page's
    /// first download.
    jobs: InOrder<Asked>,
}

impl Control {
    /// A tournament's clock; `jobs` runs what the page asks of it ([`super::jobs::run`], split off the
    /// page).
    pub fn new(notice: RwSignal<Option<Line>>, jobs: Split<Asked, ()>) -> Control {
        Control {
            run: RwSignal::new(None),
            paused: RwSignal::new(false),
            fast_round: RwSignal::new(None),
            epoch: RwSignal::new(0),
            log: RwSignal::new(Vec::new()),
            notice,
            waits: StoredValue::new_local(Vec::new()),
            bell: StoredValue::new_local(Bell::new()),
            pool: StoredValue::new_local(Pool::new(pool::cap_for(device_memory()))),
            strain: RwSignal::new(Strain::default()),
            saves: true,
            jobs: InOrder::new(jobs, move || {
                notice.set(Some(Line::new(
                    Tone::Error,
                    "Error, the tournament's clock did not load (the network or the server refused it): try again.",
                )))
            }),
        }
    }

    /// The clock of a comparison (`#/compare`): nothing is kept in this browser, and every game plays
    /// as fast as its players answer (no pace, web AIs' ticks end once they have answered). The Compare
    /// page keeps the clock in its own module, so `jobs` is [`super::jobs::HERE`], which runs them at
    /// once.
    pub fn for_compare(notice: RwSignal<Option<Line>>, jobs: Split<Asked, ()>) -> Control {
        Control {
            saves: false,
            ..Control::new(notice, jobs)
        }
    }

    /// Does `job` once its code is in (at once where it already is), after the jobs asked before it; a
    /// module that does not load is said in the notice, and the same click tries again.
    pub fn ask(self, job: Job) {
        self.jobs.call((self, job));
    }

    /// Whether jobs wait for their module (reactive): Start waits for them.
    pub fn asking(self) -> bool {
        self.jobs.loading()
    }

    /// Loads what runs the page's jobs once the page is idle, so the first click finds it in.
    pub fn preload_jobs(self) {
        self.jobs.preload();
    }

    /// The machine as the wall's verdict reads it.
    pub fn machine(self) -> Machine {
        Machine {
            games: self.run.with(|r| r.as_ref().map_or(0, |r| r.live().len())),
            cores: cores().unwrap_or(4),
            cap: self.pool.with_value(Pool::cap),
        }
    }

    /// Seats `code` (a game's code entries, by team: name and code) in `askers` for a game seeded with
    /// `seed` and played on the course `clock`, each from the pool: its seat reused with a fresh game, or
    /// a new one opened. Waits while the pool has no room (polling, as seats come back only when games end), then until every seat is
    /// ready or has failed (loading an interpreter is not the code's time). Returns the pool's numbers
    /// for the seats, to give back, and the seats; `None` once the tournament is replaced meanwhile.
    async fn seat_code(
        self,
        code: &[(Team, String, Arc<HashedSource>)],
        seed: u64,
        clock: ClockSettings,
        askers: &Teams<Asker>,
        still: impl Fn() -> bool,
    ) -> Option<(Vec<u64>, Vec<Seat>)> {
        // The pool's key for a code: its SHA-256, worked out when the code was read.
        let keys: Vec<&str> = code.iter().map(|(_, _, s)| s.sha256()).collect();
        let mut waiting = false;
        let taken = loop {
            if !still() {
                if waiting {
                    self.strain.update(|s| s.waiting_for_seats -= 1);
                }
                return None;
            }
            if let Some(Some((taken, closed))) = self.pool.try_update_value(|p| p.take(&keys)) {
                // Closed: their workers are terminated as the last handles go.
                drop(closed);
                break taken;
            }
            if !waiting {
                waiting = true;
                self.strain.update(|s| s.waiting_for_seats += 1);
            }
            // A seat comes back when a game ends, and that rings the bell.
            self.bell.get_value().rung().await;
        };
        if waiting {
            self.strain.update(|s| s.waiting_for_seats -= 1);
        }
        let mut seats = Vec::new();
        let mut ids = Vec::new();
        for ((team, name, source), t) in code.iter().zip(taken) {
            let seat = match t.seat {
                // A seat whose code cannot start stays as it is: it answers every move so at once,
                // rather than loading its interpreter again to fail again.
                Some(seat) if matches!(seat.status(), SeatStatus::Failed(_)) => seat,
                Some(seat) => {
                    seat.new_game_on_clock(seed, clock);
                    seat
                }
                None => {
                    let seat = Seat::open_source(name, source, seed, clock, |_| {});
                    self.pool.update_value(|p| p.fill(t.id, seat.clone()));
                    seat
                }
            };
            askers[*team].put_seat(seat.clone());
            seats.push(seat);
            ids.push(t.id);
        }
        for seat in &seats {
            seat.settled().await;
        }
        Some((ids, seats))
    }

    /// Gives the seats `ids` back to the pool, taking them out of `askers` (a move still running is
    /// cut off).
    fn unseat(self, ids: &[u64], askers: &Teams<Asker>) {
        for team in Team::ALL {
            askers[team].take_seat();
        }
        self.pool.update_value(|p| {
            for &id in ids {
                p.give_back(id);
            }
        });
        // A game waiting for room in the pool may find it now.
        self.bell.with_value(Bell::ring);
    }

    fn current(&self, epoch: u64) -> bool {
        self.epoch.get_untracked() == epoch
    }

    /// Plays `t` from where it stands (a new tournament, or one read back from its bundle).
    pub fn play(self, t: Tournament) {
        self.epoch.update(|e| *e += 1);
        self.wake_all();
        self.paused.set(false);
        self.fast_round.set(None);
        self.log.set(Vec::new());
        self.run.set(Some(Run::new(t)));
        if !self.saves {
            self.fast_round.set(Some(usize::MAX));
        }
        self.save();
        self.start_games();
    }

    /// Stops the games in progress and starts no more, keeping the finished ones on screen (a
    /// comparison that has its answer).
    pub fn halt(self) {
        self.epoch.update(|e| *e += 1);
        self.wake_all();
        let closed = self.pool.try_update_value(Pool::clear);
        drop(closed);
    }

    /// Stops the tournament and forgets it; its interpreters are closed.
    pub fn clear(self) {
        self.epoch.update(|e| *e += 1);
        self.wake_all();
        self.run.set(None);
        self.strain.set(Strain::default());
        let closed = self.pool.try_update_value(Pool::clear);
        drop(closed);
        spawn_local(store::clear_bundle());
    }

    fn save(self) {
        if !self.saves {
            return;
        }
        let Some(bundle) = self
            .run
            .with_untracked(|r| r.as_ref().map(|r| r.tournament.to_bundle()))
        else {
            return;
        };
        let notice = self.notice;
        spawn_local(async move {
            if let Err(why) = store::save_bundle(&bundle).await {
                notice.set(Some(Line::new(
                    Tone::Error,
                    format!("The tournament could not be saved, so a reload would lose it: {why}. Export the bundle to keep it."),
                )));
            }
        });
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

    /// Plays game `number` to its end: its code entries seated from the pool first, and given back
    /// to it after.
    async fn game(self, number: usize, epoch: u64) {
        // How this game's players are asked: built-in AIs think in workers of their own, dropped
        // (terminated) with the game; code entries in seats from the pool.
        let askers: Teams<Asker> = Teams::default();
        let Some((code, seed, clock)) = self.run.with_untracked(|r| {
            let r = r.as_ref()?;
            let names = r.tournament.names();
            let code: Vec<(Team, String, Arc<HashedSource>)> = r
                .code_entries(number)
                .into_iter()
                .map(|(team, entry, source)| {
                    (team, names.get(entry).cloned().unwrap_or_default(), source)
                })
                .collect();
            let clock = r.tournament.settings().clock;
            Some((code, r.game(number)?.fixture.seed, clock))
        }) else {
            return;
        };
        let (ids, seats) = if code.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            match self
                .seat_code(&code, seed, clock, &askers, move || self.current(epoch))
                .await
            {
                Some(seated) => seated,
                None => return,
            }
        };
        self.ticks(number, epoch, &askers, &seats).await;
        self.unseat(&ids, &askers);
    }

    /// Plays game `number`'s ticks to its end (or until the tournament is replaced); `seats` are its code
    /// entries' seats.
    async fn ticks(self, number: usize, epoch: u64, askers: &Teams<Asker>, seats: &[Seat]) {
        let Some((tick_ms, round, course_clock)) = self.run.with_untracked(|r| {
            let r = r.as_ref()?;
            Some((
                r.tournament.settings().tick_ms,
                r.game(number)?.fixture.round,
                r.tournament.settings().clock,
            ))
        }) else {
            return;
        };
        let tick = tick_ms as f64;
        // The timer each tick's wait sleeps on, one for the game: a tick makes none (issue 38).
        let alarm = TickAlarm::new();
        loop {
            while self.paused.get_untracked() && self.current(epoch) {
                self.bell.get_value().rung().await;
            }
            if !self.current(epoch) {
                return;
            }
            // A seat whose move was cut off at the last tick's end is loading a fresh worker: the
            // next move waits for it, as the arena's does, rather than cost the code a second move.
            ready(seats).await;
            if !self.current(epoch) {
                return;
            }
            let fast = self.fast_round.get_untracked().is_some_and(|r| round <= r);
            let Some(requests) = self
                .run
                // Beginning a tick and taking answers change nothing on screen: only the tick's end redraws.
                .try_update_untracked(|r| r.as_mut().and_then(|r| r.begin(number)))
                .flatten()
            else {
                return;
            };
            let has_web = requests
                .iter()
                .any(|r| matches!(r.to, Question::Web { .. }));
            // Code cut at the tick: the machine's strain is read from its answers against the tick
            // they must fit.
            let code_at_tick: Vec<Team> = requests
                .iter()
                .filter(|r| {
                    matches!(r.to, Question::Code { .. }) && r.deadline != Deadline::CourseClock
                })
                .map(|r| r.team)
                .collect();
            // When the tick ends is the engine's rule, as on the arena and the command line: a web
            // tick waits out the tick (unless skipping); a built-in or code tick only the pace.
            let pace = match (fast, has_web) {
                (true, _) => Pace::Early { min_ms: 0 },
                (false, true) => Pace::WaitOut,
                (false, false) => Pace::Early {
                    min_ms: PACE_MS.min(tick) as u64,
                },
            };
            let sends = requests
                .into_iter()
                // A course entry plays on its clock: not cut at the tick, which waits for it, at
                // most as long as a whole clock can run.
                .map(|r| Send {
                    team: r.team,
                    turn: r.turn,
                    limit_ms: roll_call::wait_ms(r.deadline, course_clock),
                    on_clock: r.deadline == Deadline::CourseClock,
                    question: r.to,
                })
                .collect();
            let timed: Teams<bool> = Teams::from_fn(|t| code_at_tick.contains(&t));
            let (this_tick, _) = Tick::send((tick_ms, pace), sends, askers, &alarm, {
                move |team, turn, asked: asker::Asked, _| {
                    let ms = answered_ms(&asked.answer, asked.elapsed_ms);
                    if timed[team] {
                        self.strain
                            .update_untracked(|s| s.answered(asked.elapsed_ms, tick_ms));
                    }
                    self.deliver(number, epoch, turn, team, asked.answer, ms)
                }
            });
            let wait = this_tick.wait().clone();
            self.waits.update_value(|w| {
                w.retain(|(n, _)| *n != number);
                w.push((number, wait.clone()));
            });
            let stop = |team: Team, ms: f64| askers[team].stop(ms);
            let over = this_tick.end(stop).await;
            self.waits
                .update_value(|w| w.retain(|(_, w)| !w.same(&wait)));
            // A tick given up (the tournament replaced): whatever is still thinking is stopped.
            let ran = over.unwrap_or_else(|| {
                let ran = wait.elapsed_ms();
                for team in Team::ALL {
                    askers[team].stop(ran);
                }
                ran
            });
            if !self.current(epoch) {
                return;
            }
            let waited = ran as u64;
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
    /// Hands `team`'s answer for tick `turn` to game `number`, unless the tournament was replaced.
    /// Returns whether the game took it.
    fn deliver(
        self,
        number: usize,
        epoch: u64,
        turn: u32,
        team: Team,
        answer: Answer,
        ms: Option<u32>,
    ) -> bool {
        if !self.current(epoch) {
            return false;
        }
        let mut taken = false;
        self.run.update_untracked(|r| {
            if let Some(r) = r {
                taken = r.deliver(number, turn, team, answer, ms);
            }
        });
        taken
    }

    /// Pauses the tournament's games at their next tick, or resumes them.
    pub fn toggle_pause(self) {
        self.paused.update(|p| *p = !*p);
        self.bell.with_value(Bell::ring);
    }

    /// The tournament is replaced or stopped: every game's tick gives up, and every waiting game looks
    /// again (and finds it is no longer current).
    fn wake_all(self) {
        let waits = self
            .waits
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        for (_, wait) in waits {
            wait.cancel();
        }
        self.bell.with_value(Bell::ring);
    }
}

/// Waits until none of `seats` is loading (a worker restarting after a move was cut off, or a new
/// game's reset), each by its [`Seat::settled`], for at most [`LOAD_LIMIT_MS`]: a seat still loading
/// then is asked anyway, and its move is cut off at the tick's end as any other. Returns at once when
/// none is loading.
async fn ready(seats: &[Seat]) {
    let loading: Vec<&Seat> = seats
        .iter()
        .filter(|s| matches!(s.status(), SeatStatus::Loading(_)))
        .collect();
    if loading.is_empty() {
        return;
    }
    let settled: js_sys::Array = loading
        .into_iter()
        .map(|seat| {
            let seat = seat.clone();
            wasm_bindgen_futures::future_to_promise(async move {
                seat.settled().await;
                Ok(wasm_bindgen::JsValue::UNDEFINED)
            })
        })
        .collect();
    let first = js_sys::Promise::race(&js_sys::Array::of2(
        &js_sys::Promise::all(&settled),
        &timer(LOAD_LIMIT_MS),
    ));
    let _ = wasm_bindgen_futures::JsFuture::from(first).await;
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

/// A navigator's number, where the browser gives it.
fn navigator_number(key: &str) -> Option<f64> {
    let window: wasm_bindgen::JsValue = web_sys::window()?.into();
    let navigator = js_sys::Reflect::get(&window, &"navigator".into()).ok()?;
    js_sys::Reflect::get(&navigator, &key.into()).ok()?.as_f64()
}

/// The machine's logical cores (`navigator.hardwareConcurrency`).
pub fn cores() -> Option<u32> {
    navigator_number("hardwareConcurrency")
        .filter(|n| *n >= 1.0)
        .map(|n| n as u32)
}

/// The machine's memory in GB, as the browser rounds it (`navigator.deviceMemory`; Chromium only).
fn device_memory() -> Option<f64> {
    navigator_number("deviceMemory")
}

/// The roll call of one code entry: its seat from the pool, started on the tournament's first game,
/// asked once on the start position what its plan says (a course entry `SINGLE`, on its clock; function
/// code the first game's request, within three ticks), then given back (warm for the tournament).
async fn check_code(
    ctl: Control,
    entry: roll_call::Entry,
    source: Arc<HashedSource>,
    settings: Settings,
    still: impl Fn() -> bool + Copy,
) -> Check {
    let plan = entry.plan;
    let askers: Teams<Asker> = Teams::default();
    let code = [(Team::Red, entry.name.clone(), source)];
    let Some((ids, _)) = ctl
        .seat_code(&code, settings.seed, settings.clock, &askers, still)
        .await
    else {
        return Check::Waiting;
    };
    let status = askers
        .red
        .seat_status()
        .map_or(SeatStatus::Ready, |(_, s)| s);
    let check = match status {
        SeatStatus::Failed(why) => roll_call::judge_code(
            &settings,
            &plan,
            Answer::NoMove(NoMove::Replayed {
                code: "could_not_start".to_string(),
                message: why,
            }),
            None,
        ),
        _ => match roll_call::question(&entry, &settings) {
            None => Check::Green("not asked".to_string()),
            Some(Err(why)) => Check::Red {
                reason: why,
                fix: String::new(),
            },
            Some(Ok(question)) => {
                let wait = plan_wait(&plan, &settings);
                let got: Rc<std::cell::RefCell<Option<(Answer, f64)>>> = Rc::default();
                let answered = {
                    let got = got.clone();
                    js_sys::Promise::new(&mut |resolve, _| {
                        let got = got.clone();
                        askers.red.ask(question.clone(), wait, move |asked| {
                            *got.borrow_mut() = Some((asked.answer, asked.elapsed_ms));
                            let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
                        });
                    })
                };
                let first = js_sys::Promise::race(&js_sys::Array::of2(
                    &answered,
                    &timer(wait.min(u64::from(u32::MAX)) as u32),
                ));
                let _ = wasm_bindgen_futures::JsFuture::from(first).await;
                let got = got.borrow_mut().take();
                match got {
                    Some((answer, ms)) => {
                        let ms = answered_ms(&answer, ms);
                        roll_call::judge_code(&settings, &plan, answer, ms)
                    }
                    None => roll_call::judge_code(
                        &settings,
                        &plan,
                        Answer::NoMove(NoMove::TimedOut { after_ms: wait }),
                        None,
                    ),
                }
            }
        },
    };
    ctl.unseat(&ids, &askers);
    check
}

/// Calls the roll: every entry's check in `checks` (in roster order), each asked what its plan says:
/// web entries as their answers come (labelled as the roster says), code entries as their seats answer
/// (as many at once as there are cores to spare; names are the entries' own). `calls` counts the roll
/// calls, so an answer to an earlier one is not taken for this one's.
pub fn roll_call(
    ctl: Control,
    entries: Vec<roll_call::Entry>,
    settings: Settings,
    checks: RwSignal<Vec<Check>>,
    calls: RwSignal<u64>,
) {
    calls.update(|n| *n += 1);
    let call = calls.get_untracked();
    let protocol = store::page_protocol();
    let initial: Vec<Check> = entries
        .iter()
        .map(|e| roll_call::before_asking(&e.player, &protocol).unwrap_or(Check::Waiting))
        .collect();
    checks.set(initial);
    let mut code = std::collections::VecDeque::new();
    for (i, entry) in entries.into_iter().enumerate() {
        if checks.with_untracked(|c| c.get(i) != Some(&Check::Waiting)) {
            continue;
        }
        if let AiPlayer::Code(source) = &entry.player {
            let source = Arc::clone(source);
            code.push_back((i, entry, source));
            continue;
        }
        let (url, content_type, body) = match roll_call::question(&entry, &settings) {
            Some(Ok(Question::Web {
                url,
                content_type,
                body,
            })) => (url, content_type, body),
            Some(Err(why)) => {
                checks.update(|c| {
                    c[i] = Check::Red {
                        reason: why.clone(),
                        fix: String::new(),
                    }
                });
                continue;
            }
            _ => continue,
        };
        let (settings, plan) = (settings.clone(), entry.plan);
        spawn_local(async move {
            let Ok(abort) = web_sys::AbortController::new() else {
                return;
            };
            let wait = plan_wait(&plan, &settings);
            let signal = abort.signal();
            let timer = gloo_timers::callback::Timeout::new(wait as u32, move || abort.abort());
            let sent = now_ms();
            let (answer, _) = web_ai::ask_wire(&url, content_type, body, &signal, wait).await;
            drop(timer);
            let ms = answered_ms(&answer, now_ms() - sent);
            let check = roll_call::judge(&settings, &plan, answer, ms);
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
    // Code entries in a few lanes, each taking the next entry when its last is checked.
    let lanes = pool::games_for(cores()).min(code.len() as u32);
    let queue = Rc::new(std::cell::RefCell::new(code));
    let still = move || calls.get_untracked() == call;
    for _ in 0..lanes {
        let (queue, settings) = (queue.clone(), settings.clone());
        spawn_local(async move {
            loop {
                let next = queue.borrow_mut().pop_front();
                let Some((i, entry, source)) = next else {
                    return;
                };
                let check = check_code(ctl, entry, source, settings.clone(), still).await;
                if !still() {
                    return;
                }
                checks.update(|c| {
                    if let Some(slot) = c.get_mut(i) {
                        *slot = check;
                    }
                });
            }
        });
    }
}

/// How long the roll call waits for `plan`'s entry (its roll call's deadline; the tick where it has
/// none, which no asked entry lacks).
fn plan_wait(plan: &EntryPlan, settings: &Settings) -> u64 {
    plan.roll_call.map_or(settings.tick_ms, |call| {
        roll_call::wait_ms(call.deadline, settings.clock)
    })
}
