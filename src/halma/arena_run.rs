//! The arena's clock as the page drives it: each call to the lazily loaded tick machinery
//! ([`ticker::run`]), Step and Run (one beat per tick length, from a worker's timer, so a hidden tab keeps
//! time), and code players loading as soon as they are chosen. The ticker's API is unchanged here.

use super::arena_state::ArenaState;
use super::beat::{tab_hidden, Beat};
use super::late_beats::{LateBeats, LateNote};
use super::player::Player;
use super::replay::Replay;
use super::ticker::{self, Call, Ticker};
use crate::lazy::{InOrder, Split};
use gridarena_engine::halma::Team;
use leptos::prelude::*;

/// The page's handle on its clock. Copy: every handler takes its own.
#[derive(Clone, Copy)]
pub struct ArenaClock {
    state: ArenaState,
    ticker: Ticker,
    clock: InOrder<ticker::Asked>,
}

impl ArenaClock {
    /// The clock over `state`, loading the tick machinery from `split` once the page is idle.
    pub fn new(state: ArenaState, split: Split<ticker::Asked, ()>) -> ArenaClock {
        let ticker = Ticker::new(state.session, state.notice, state.running, state.tick_ms);
        let clock = InOrder::new(split, move || {
            state.running.set(false);
            state.error(
                "Error, the arena's clock did not load (the network or the server refused it): Step or Run to try again."
                    .into(),
            );
        });
        clock.preload();
        ArenaClock {
            state,
            ticker,
            clock,
        }
    }

    pub fn tick(self, call: Call) {
        self.clock.call((self.ticker, call));
    }

    /// Whether Step waits for the answers of a tick in progress.
    pub fn awaiting_answers(self) -> Signal<bool> {
        self.ticker.awaiting_answers()
    }

    /// A Step (`eager`) or one beat of Run: a replay shows its next tick; a live game plays one.
    pub fn advance(self, eager: bool) {
        let replay = self.state.replay;
        if replay.with_untracked(Option::is_none) {
            return self.tick(if eager { Call::Step } else { Call::Beat });
        }
        let mut more = false;
        replay.update(|r| more = r.as_mut().is_some_and(Replay::advance));
        if !more {
            self.state.running.set(false);
        }
    }

    /// A code player starts loading (Python: a few MB, once) as soon as it is chosen or a game begins,
    /// not at the first tick. A first board of other players does not wait for the clock.
    pub fn prepare_code_players(self) {
        let session = self.state.session;
        let game_setup = Memo::new(move |_| session.with(|s| (s.players().clone(), s.seed())));
        Effect::new(move |asked: Option<()>| {
            let code = game_setup.with(|(players, _)| {
                Team::ALL
                    .into_iter()
                    .any(|t| matches!(players[t], Player::Code(_)))
            });
            if asked.is_some() || code {
                self.tick(Call::Prepare);
            }
        });
    }

    /// Run: a new beat whenever Run or the speed changes. A beat that still comes late is said, not
    /// hidden, until enough on-time beats follow: the returned signal holds that note. The beat starts
    /// once Run's first tick has begun: after the clock loads where it is not in yet, so the first tick
    /// gets its whole length rather than ending at a beat that came while it loaded.
    pub fn run_beats(self) -> RwSignal<Option<String>> {
        let (running, tick_ms, replay) =
            (self.state.running, self.state.tick_ms, self.state.replay);
        let interval = StoredValue::new_local(None::<Beat>);
        // Which switch of Run or the speed a beat is started for: a beat waiting for the clock is not
        // started once another has replaced it.
        let switched = StoredValue::new_local(0_u64);
        let late = RwSignal::new(None::<String>);
        Effect::new(move |was_on: Option<bool>| {
            let ms = tick_ms.get();
            let on = running.get();
            interval.set_value(None);
            switched.update_value(|n| *n += 1);
            let this = switched.get_value();
            let start_beat = move || {
                if !running.get_untracked() || switched.try_get_value() != Some(this) {
                    return;
                }
                let mut beats = LateBeats::new(ms, crate::now_ms());
                interval.set_value(Some(Beat::start(ms, move || {
                    match beats.beat(crate::now_ms(), tab_hidden()) {
                        LateNote::Keep => {}
                        LateNote::Show(note) => late.set(Some(note)),
                        LateNote::Clear => late.set(None),
                    }
                    self.advance(false);
                })));
            };
            if !on {
                if was_on == Some(true) {
                    self.tick(Call::Stop);
                }
            } else if was_on != Some(true) && replay.with_untracked(Option::is_none) {
                late.set(None);
                self.clock
                    .call_then((self.ticker, Call::Run), Some(Box::new(start_beat)));
            } else {
                if was_on != Some(true) {
                    late.set(None);
                }
                start_beat();
            }
            on
        });
        on_cleanup(move || interval.set_value(None));
        late
    }
}
