//! Playing a comparison headless: the games of [`gridarena_engine::compare`]'s schedule, several at
//! once, each a match game played through [`play_game`] (the loop `gridarena halma match` and the
//! tournament play through), and the engine's stop rule read after each game.
//!
//! Games finish in any order when several run at once, but they are counted in the order of their
//! numbers: game `k` counts once games `0..k` have, and the stop rule is read after each counted game.
//! So where a run stops, and what it concludes, never depends on which game happened to finish first:
//! the same seed gives the same run at any `concurrency`. Games still in flight when the rule stops
//! the run are finished (a game cannot be cut short) and left out.

use crate::program::Clock;
use crate::runner::{check_players, play_game, seat, Played, Player, RunError};
use gridarena_engine::compare::{self, Counter, Outcome, ScoreTally, StopRule};
use gridarena_engine::halma::{AiPlayer, ContentType, Match, Team, Teams};
use gridarena_engine::tournament::game;
use gridarena_engine::tournament::settings::Settings;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::thread;

/// The two players: how to make each, once per game, and how each web AI's requests are labelled.
pub struct Sides<'a> {
    pub a: (&'a AiPlayer, ContentType),
    pub b: (&'a AiPlayer, ContentType),
    /// A program's or code entry's clock.
    pub clock: Clock,
}

impl Sides<'_> {
    /// Fresh players for game `k` (a web AI's own connection, a program's own folder and process).
    pub fn players(&self, k: u32) -> Result<Teams<Player>, String> {
        let (a, b) = (
            Player::on_clock(self.a.0, self.clock)?,
            Player::on_clock(self.b.0, self.clock)?,
        );
        Ok(match compare::a_seat(k) {
            Team::Red => Teams { red: a, blue: b },
            Team::Blue => Teams { red: b, blue: a },
        })
    }
}

/// How a comparison is played.
pub struct Plan<'a> {
    /// The rules, the turn limit, the error policy and the tick length (the answers' deadline).
    pub settings: &'a Settings,
    /// The run's seed, from which every game's comes ([`compare::game_seed`]).
    pub seed: u64,
    /// At most this many games.
    pub games: u32,
    /// Games played at once, at least 1.
    pub concurrency: u32,
    pub stop: StopRule,
    /// Whether a program's spent clock loses the game (else its later moves are no moves).
    pub out_of_time_loss: bool,
}

/// One counted game.
pub struct Game {
    /// Its number, from 0.
    pub k: u32,
    pub a_seat: Team,
    pub outcome: Outcome,
    pub played: Played,
}

/// How the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    pub tally: ScoreTally,
    /// Whether the stop rule ended it before its last game.
    pub early: bool,
}

/// Game `k` of `plan` set up: the schedule's fixture under the plan's settings.
pub fn game(plan: &Plan<'_>, sides: &Sides<'_>, k: u32) -> Result<Match, String> {
    let fixture = compare::fixture(plan.seed, k);
    let (a, b) = (seat(sides.a.0, sides.a.1), seat(sides.b.0, sides.b.1));
    let seats = match compare::a_seat(k) {
        Team::Red => Teams { red: a, blue: b },
        Team::Blue => Teams { red: b, blue: a },
    };
    game::start(&fixture, plan.settings, seats)
        .map(|g| g.with_out_of_time_loss(plan.out_of_time_loss))
        .map_err(|e| format!("cannot set up the {} preset: {e}", plan.settings.preset))
}

/// Checks before any game that the players can be made and can play this game (a course-format
/// program needs the classic preset): a usage error, not an error mid-run.
pub fn check(plan: &Plan<'_>, sides: &Sides<'_>) -> Result<(), String> {
    let game = game(plan, sides, 0)?;
    let players = sides.players(0)?;
    check_players(game.game(), &players)
}

/// Plays `plan`'s games, at most its concurrency at once, until the stop rule or the last game.
/// `on_game` runs on this thread for each counted game, in the order of their numbers, with the tally
/// that includes it; an error from it stops the run.
pub fn play(
    plan: &Plan<'_>,
    sides: &Sides<'_>,
    mut on_game: impl FnMut(&Game, &ScoreTally) -> std::io::Result<()>,
) -> Result<Ended, RunError> {
    let next = AtomicU32::new(0);
    let halt = AtomicBool::new(false);
    let workers = plan.concurrency.clamp(1, plan.games.max(1));
    let (sender, receiver) = mpsc::channel::<(u32, Result<Played, RunError>)>();
    thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, halt) = (&next, &halt);
            scope.spawn(move || loop {
                if halt.load(Ordering::Relaxed) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= plan.games {
                    break;
                }
                let result = game(plan, sides, k)
                    .and_then(|g| sides.players(k).map(|p| (g, p)))
                    .map_err(RunError::Internal)
                    .and_then(|(g, players)| {
                        play_game(g, &players, plan.settings.tick_ms, &mut ())
                    });
                // The receiver is gone once the run has stopped: this game is not counted.
                if sender.send((k, result)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut counter = Counter::new(plan.games, plan.stop);
        let mut failure = None;
        'run: for (k, result) in receiver {
            waiting.insert(k, result);
            while let Some(result) = waiting.remove(&counter.next()) {
                let played = match result {
                    Ok(played) => played,
                    Err(e) => {
                        failure = Some(e);
                        break 'run;
                    }
                };
                let k = counter.next();
                let Some((a_seat, outcome)) = counter.count(played.report.ending.score()) else {
                    break 'run;
                };
                let done = Game {
                    k,
                    a_seat,
                    outcome,
                    played,
                };
                if let Err(e) = on_game(&done, counter.tally()) {
                    failure = Some(RunError::Output(e));
                    break 'run;
                }
                if counter.is_over() {
                    break 'run;
                }
            }
        }
        // No game starts after this; those in flight finish, and their sends fail.
        halt.store(true, Ordering::Relaxed);
        match failure {
            Some(e) => Err(e),
            None => Ok(Ended {
                tally: *counter.tally(),
                early: counter.stopped_early(),
            }),
        }
    })
}
