//! Playing a whole tournament headless: the engine's [`Tournament`] says which games to start, each
//! runs on a thread of its own through [`play_game`] (the loop `gridarena halma match` plays through),
//! and each report goes back to the tournament as it arrives.
//!
//! The caller sees every finished game ([`Finished`]) before the next games start, which is where
//! `gridarena halma tournament` writes its bundle, so an interruption loses only the games in flight.

use crate::program::{Clock, OutOfTime};
use crate::runner::{play_game, Player, RunError};
use gridarena_engine::halma::{Match, Teams};
use gridarena_engine::tournament::event::{Tournament, Withdrawal};
use gridarena_engine::tournament::game::{Fixture, GameReport};
use gridarena_engine::tournament::settings::Settings;
use std::sync::mpsc;
use std::thread;

/// What the caller is told after each finished game.
pub struct Finished<'a> {
    pub tournament: &'a Tournament,
    pub report: &'a GameReport,
    /// Entries withdrawn because of this game.
    pub withdrawals: &'a [Withdrawal],
}

/// Plays every game left in `tournament`, at most its settings' concurrency at once. `on_game` runs on
/// this thread after each game; an error from it stops the tournament (games in flight are finished and
/// dropped; they are played again when the tournament resumes).
pub fn play(
    tournament: &mut Tournament,
    clock: Clock,
    mut on_game: impl FnMut(Finished<'_>) -> std::io::Result<()>,
) -> Result<(), RunError> {
    let (sender, receiver) = mpsc::channel::<Result<GameReport, RunError>>();
    thread::scope(|scope| {
        let mut in_flight = 0usize;
        let mut failure: Option<RunError> = None;
        loop {
            if failure.is_none() {
                for fixture in tournament.next_games() {
                    let one = play_one(tournament, fixture, clock);
                    let sender = sender.clone();
                    in_flight += 1;
                    scope.spawn(move || {
                        let result = one.play();
                        // The receiver outlives every game thread, so this send cannot fail.
                        let _ = sender.send(result);
                    });
                }
            }
            if in_flight == 0 {
                break;
            }
            let Ok(result) = receiver.recv() else { break };
            in_flight -= 1;
            if failure.is_some() {
                continue;
            }
            match result {
                Ok(report) => {
                    let shown = report.clone();
                    match tournament.finish(report) {
                        Ok(withdrawals) => {
                            if let Err(e) = on_game(Finished {
                                tournament,
                                report: &shown,
                                withdrawals: &withdrawals,
                            }) {
                                failure = Some(RunError::Output(e));
                            }
                        }
                        Err(e) => failure = Some(RunError::Internal(e.to_string())),
                    }
                }
                Err(e) => failure = Some(e),
            }
        }
        failure.map_or(Ok(()), Err)
    })
}

/// One game of a tournament, set up and ready to play on any thread: its match from
/// [`Tournament::start`] and its players made by [`players_of`]. The in-process tournament
/// ([`play`]) and a queue's worker (`gridarena halma worker`) both play a game through this, so a
/// game is the same wherever it is played.
pub struct OneGame {
    fixture: Fixture,
    tick_ms: u64,
    set_up: Result<(Match, Teams<Player>), RunError>,
}

/// Sets up `fixture` of `tournament` (which need not have scheduled it: a queue's worker holds the
/// tournament's roster and settings only) with `clock` for its programs and code.
pub fn play_one(tournament: &Tournament, fixture: Fixture, clock: Clock) -> OneGame {
    let players = players_of(tournament, &fixture, clock).map_err(RunError::Internal);
    let game = tournament.start(&fixture).map_err(|e| {
        RunError::Internal(format!(
            "game {} could not be set up: {e}",
            fixture.number + 1
        ))
    });
    OneGame {
        fixture,
        tick_ms: tournament.settings().tick_ms,
        set_up: game.and_then(|g| Ok((g, players?))),
    }
}

impl OneGame {
    /// Plays the game to its end through [`play_game`]: its report.
    pub fn play(self) -> Result<GameReport, RunError> {
        let (game, players) = self.set_up?;
        play_game(game, &players, self.tick_ms, &mut ()).map(|played| GameReport {
            fixture: self.fixture,
            played: played.report,
        })
    }
}

/// The clock of every program and code entry of a tournament under `settings`: its course clock, and
/// what a spent clock does under its error policy.
pub fn clock_of(settings: &Settings) -> Clock {
    Clock::of(
        settings.clock,
        if settings.policy.out_of_time_loses() {
            OutOfTime::Lose
        } else {
            OutOfTime::NoMove
        },
    )
}

/// The two players of `fixture`, each with a connection of its own for a web AI, and a folder and
/// process of its own for a program.
fn players_of(
    tournament: &Tournament,
    fixture: &Fixture,
    clock: Clock,
) -> Result<Teams<Player>, String> {
    let player = |entry| {
        let Some(spec) = tournament.player(entry) else {
            return Err(format!("entry {entry} is not in the roster"));
        };
        Player::on_clock(spec, clock)
    };
    Ok(Teams {
        red: player(fixture.red)?,
        blue: player(fixture.blue)?,
    })
}
