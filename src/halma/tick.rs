//! One tick of a Halma match in the page, as the arena, the tournament and Compare all play it: every
//! side's question sent at the same moment, each answer handed to the match as it lands, and the tick's
//! end awaited as the engine's [`TickClock`] says. What differs between the pages stays with them: what
//! begins a tick (Step, Run's beat, a tournament game's loop) and what its end does to the page.
//!
//! A side cut at the tick is stopped when the tick's length has passed while a side on its course clock
//! plays on (a course entry's long move holds the tick, as on the command line), and every side still
//! thinking is stopped when the tick ends: an answer for a tick that is over never arrives.

use super::asker::{Asked, Asker, Question, Sent};
use crate::tick_alarm::TickAlarm;
use crate::tick_wait::{TickWait, Woken};
use gridarena_engine::halma::tick_clock::{Pace, TickClock};
use gridarena_engine::halma::{Team, Teams};

/// One side's question in a tick.
pub struct Send {
    pub team: Team,
    /// The tick's id in the match ([`gridarena_engine::halma::Ask::turn`]), which its answer carries
    /// back.
    pub turn: u32,
    pub question: Question,
    /// How long its answer is waited for, in ms from the tick's start.
    pub limit_ms: u64,
    /// Whether it plays on its course clock: not cut at the tick's length, which it holds up instead.
    pub on_clock: bool,
}

/// A tick in play: its questions sent, its wait told each answer taken.
pub struct Tick {
    wait: TickWait,
    tick_ms: u64,
    on_clock: Teams<bool>,
}

impl Tick {
    /// Sends every question of a tick of `tick_ms` at `pace`, each through its side's asker, and returns
    /// the tick with what was shown of each question sent (built-in AIs show none). Each answer goes to
    /// `deliver` with its side, its tick and the milliseconds since the tick began; when the match takes
    /// it (`deliver` says so), the tick's wait is told. The wait sleeps on `alarm`, taken over from the
    /// tick before.
    pub fn send(
        (tick_ms, pace): (u64, Pace),
        sends: Vec<Send>,
        askers: &Teams<Asker>,
        alarm: &TickAlarm,
        deliver: impl Fn(Team, u32, Asked, f64) -> bool + Clone + 'static,
    ) -> (Tick, Vec<(Team, u32, Sent)>) {
        let mut clock = TickClock::new(tick_ms, pace);
        let mut on_clock = Teams::from_fn(|_| false);
        for s in &sends {
            clock.ask_until(s.team, Some(s.limit_ms));
            on_clock[s.team] = s.on_clock;
        }
        let wait = TickWait::new(clock, alarm);
        let mut shown = Vec::new();
        for s in sends {
            let (team, turn) = (s.team, s.turn);
            let (wait, deliver) = (wait.clone(), deliver.clone());
            let sent = askers[team].ask(s.question, s.limit_ms, move |asked| {
                if deliver(team, turn, asked, wait.elapsed_ms()) {
                    wait.answered(team);
                }
            });
            if let Some(sent) = sent {
                shown.push((team, turn, sent));
            }
        }
        let tick = Tick {
            wait,
            tick_ms,
            on_clock,
        };
        (tick, shown)
    }

    /// The tick's wait: hurried by Stop or "skip to the end of the round", cancelled by a new game.
    pub fn wait(&self) -> &TickWait {
        &self.wait
    }

    /// Waits for the tick's end, as its clock says, and stops every side still thinking (`stop` with
    /// the side and the milliseconds it was given: the tick, or for a side on its course clock the time
    /// the tick ran). Returns how long the tick ran, in ms, or `None` once it is cancelled.
    pub async fn end(&self, stop: impl Fn(Team, f64)) -> Option<f64> {
        let tick = self.tick_ms as f64;
        let cut_at_tick: Vec<Team> = Team::ALL
            .into_iter()
            .filter(|t| !self.on_clock[*t])
            .collect();
        let mut woken = if cut_at_tick.len() == Team::ALL.len() {
            self.wait.over().await
        } else {
            self.wait.over_or_at(self.tick_ms).await
        };
        if woken == Woken::Reached {
            // The tick is over for every move cut at it; a move on its course clock goes on.
            for &team in &cut_at_tick {
                stop(team, tick);
            }
            woken = self.wait.over().await;
        }
        let ran = match woken {
            Woken::Over(ms) => ms,
            _ => return None,
        };
        for team in Team::ALL {
            stop(team, if self.on_clock[team] { ran } else { tick });
        }
        Some(ran)
    }
}
