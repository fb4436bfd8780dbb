//! Playing a whole tournament headless: the engine's [`Tournament`] says which games to start, each
//! runs on a thread of its own through [`play_game`] (the loop `gridarena halma match` plays through),
//! and each report goes back to the tournament as it arrives.
//!
//! The caller sees every finished game ([`Finished`]) before the next games start, which is where
//! `gridarena halma tournament` writes its bundle, so an interruption loses only the games in flight.

use crate::program::Clock;
use crate::runner::{play_game, Player, RunError};
use gridarena_engine::halma::Teams;
use gridarena_engine::tournament::event::{Tournament, Withdrawal};
use gridarena_engine::tournament::game::{Fixture, GameReport};
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
    let tick_ms = tournament.settings().tick_ms;
    let (sender, receiver) = mpsc::channel::<Result<GameReport, RunError>>();
    thread::scope(|scope| {
        let mut in_flight = 0usize;
        let mut failure: Option<RunError> = None;
        loop {
            if failure.is_none() {
                for fixture in tournament.next_games() {
                    let players = players_of(tournament, &fixture, clock);
                    let game = tournament.start(&fixture);
                    let sender = sender.clone();
                    in_flight += 1;
                    scope.spawn(move || {
                        let result = match (game, players) {
                            (Ok(game), Ok(players)) => play_game(game, &players, tick_ms, &mut ())
                                .map(|played| GameReport {
                                    fixture,
                                    played: played.report,
                                }),
                            (Err(e), _) => Err(RunError::Internal(format!(
                                "game {} could not be set up: {e}",
                                fixture.number + 1
                            ))),
                            (_, Err(e)) => Err(RunError::Internal(e)),
                        };
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
