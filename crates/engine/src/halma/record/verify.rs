//! Checking a record's game: each tick line is played again with the rules on the state before it and
//! must give the recorded outcome and state; a result line must say what the last state says; a tick's
//! recorded exchanges must be ones the referee could have read.
//!
//! Apart from reading because this is where a record's game, not its file, is judged: it is what makes a
//! record that loads a game that could really have happened.

use super::{clip_chars, RecordError, QUOTE_CHARS};
use crate::halma::exchange::Wire;
use crate::halma::protocol::MAX_RESPONSE_BYTES;
use crate::halma::{
    Answer, EnactedMove, ErrorKind, Game, GameResult, GameState, NoMove, Path, Point, Team, Teams,
    TickOutcome, TickRefused,
};
use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct TickIn {
    pub(super) outcome: TickOutcome,
    pub(super) state: GameState,
    /// Absent in records made before the inspector, and for ticks without a web AI.
    #[serde(default)]
    pub(super) wires: Option<Teams<Option<Wire>>>,
}

#[derive(Deserialize)]
pub(super) struct ResultIn {
    result: GameResult,
    turn: u32,
}

/// Checks a tick's exchanges: a body no longer than the referee ever reads, and a time limit that a
/// request could carry. Their text is shown as text, so nothing else in them can do harm.
pub(super) fn check_wires(line: usize, tick: &TickIn) -> Result<(), RecordError> {
    let Some(wires) = &tick.wires else {
        return Ok(());
    };
    for team in Team::ALL {
        let Some(wire) = &wires[team] else { continue };
        let bytes = wire.body.as_ref().map_or(0, String::len);
        if bytes > MAX_RESPONSE_BYTES {
            return Err(RecordError::Malformed {
                line,
                what: "tick",
                detail: format!(
                    "{team}'s answer is {bytes} bytes: the referee never reads more than {MAX_RESPONSE_BYTES}"
                ),
            });
        }
        if !tick.outcome.movers.contains(&team) {
            return Err(RecordError::Malformed {
                line,
                what: "tick",
                detail: format!("an exchange for {team}, who was not asked this tick"),
            });
        }
    }
    Ok(())
}

/// Checks a tick line against the game before it, by playing the recorded moves again; returns the game
/// after it.
pub(super) fn read_tick(line: usize, before: &Game, tick: &TickIn) -> Result<Game, RecordError> {
    let illegal = |detail: String| RecordError::Illegal { line, detail };
    let after =
        Game::from_state(&tick.state).map_err(|error| RecordError::InvalidState { line, error })?;
    if let Some(result) = before.result() {
        return Err(illegal(format!(
            "the game had already ended at turn {} ({result}); no tick may follow",
            before.turn()
        )));
    }
    // A game at u32::MAX has reached any turn limit, so it has a result and was refused above.
    let expected = before.turn().saturating_add(1);
    for (field, found) in [
        ("outcome.turn", tick.outcome.turn),
        ("state.turn", tick.state.turn),
    ] {
        if found != expected {
            return Err(RecordError::TurnOutOfSequence {
                line,
                field,
                expected,
                found,
            });
        }
    }

    // The outcome lists only the moves that were enacted, so those are the answers to play again: a tick
    // that enacted nothing is replayed with no answers at all, which changes the same things (the turn,
    // and who moves next) and nothing else.
    let mut answers = Teams::from_fn(|_| Answer::NoMove(NoMove::Missing));
    for m in &tick.outcome.moves {
        if matches!(answers[m.team], Answer::Move(_)) {
            return Err(illegal(format!(
                "the outcome enacts two moves for {}",
                m.team
            )));
        }
        answers[m.team] = Answer::Move(Path::new(m.from, m.to.clone()));
    }
    let mut replay = before.clone();
    let expected_outcome = replay
        .tick(answers.red, answers.blue)
        .map_err(|e: TickRefused| illegal(e.to_string()))?;
    check_outcome(before, &tick.outcome, &expected_outcome).map_err(illegal)?;

    let (want, got) = (canonical(&replay.state()), canonical(&after.state()));
    if want != got {
        return Err(illegal(format!(
            "the state is not what the tick makes of the previous one: {}",
            state_difference(&want, &got)
        )));
    }
    Ok(after)
}

/// Compares a recorded outcome with the one the rules give. The errors cannot be compared directly: the
/// replay only knows that a team had no enacted move, not whether it timed out or sent an illegal move,
/// so they are checked for what the rules do say about them.
fn check_outcome(
    before: &Game,
    recorded: &TickOutcome,
    replayed: &TickOutcome,
) -> Result<(), String> {
    if sorted(recorded.movers.clone()) != sorted(replayed.movers.clone()) {
        return Err(format!(
            "the outcome says {} moved but the rules ask {}",
            teams_list(&recorded.movers),
            teams_list(&replayed.movers)
        ));
    }
    let by_team = |moves: &[EnactedMove]| {
        let mut moves = moves.to_vec();
        crate::sort::sort_by_key(&mut moves, |m| m.team);
        moves
    };
    if by_team(&recorded.moves) != by_team(&replayed.moves) {
        if replayed.moves.is_empty() {
            let why: Vec<String> = replayed.errors.iter().map(|e| e.to_string()).collect();
            return Err(format!(
                "the enacted moves cannot be played: {}",
                clip_chars(&why.join("; "), QUOTE_CHARS * 4)
            ));
        }
        return Err("the enacted moves are not the ones the rules carry out".into());
    }
    if sorted(recorded.collisions.clone()) != sorted(replayed.collisions.clone()) {
        return Err(format!(
            "the outcome lists collisions at {}; the rules give {}",
            squares_list(&recorded.collisions),
            squares_list(&replayed.collisions)
        ));
    }
    let damaged = |o: &TickOutcome| {
        let mut d: Vec<_> = o
            .damaged
            .iter()
            .map(|p| (p.team, p.y, p.x, p.damage))
            .collect();
        crate::sort::sort(&mut d);
        d
    };
    if damaged(recorded) != damaged(replayed) {
        return Err("the outcome's damaged pieces are not the ones the rules give".into());
    }
    if recorded.result != replayed.result {
        return Err(format!(
            "the outcome's result is {}; the rules give {}",
            result_text(recorded.result),
            result_text(replayed.result)
        ));
    }

    match (recorded.moves.is_empty(), recorded.errors.first()) {
        (false, Some(e)) => {
            return Err(format!(
                "moves were enacted although {} has an error",
                e.team
            ))
        }
        (true, None) => {
            return Err("nothing was enacted, yet no team has an error to explain why".into())
        }
        _ => {}
    }
    let mut seen = Vec::new();
    for e in &recorded.errors {
        if !recorded.movers.contains(&e.team) {
            return Err(format!(
                "{} has an error but was not asked for a move",
                e.team
            ));
        }
        if seen.contains(&e.team) {
            return Err(format!("{} has two errors", e.team));
        }
        seen.push(e.team);
        match (e.kind, &e.submitted) {
            (ErrorKind::InvalidMove, Some(path)) => {
                if before.position().check(e.team, path).is_ok() {
                    return Err(format!(
                        "{}'s move {} is called invalid, but it is legal",
                        e.team,
                        clip_chars(&path.to_string(), QUOTE_CHARS)
                    ));
                }
            }
            (ErrorKind::InvalidMove, None) => {
                return Err(format!(
                    "{}'s move is called invalid, but the outcome does not say which move",
                    e.team
                ))
            }
            (ErrorKind::NoMove, Some(_)) => {
                return Err(format!(
                    "{} is said to have no move, yet a move is listed",
                    e.team
                ))
            }
            (ErrorKind::NoMove, None) => {}
        }
    }
    Ok(())
}

pub(super) fn check_result(line: usize, game: &Game, result: &ResultIn) -> Result<(), RecordError> {
    let mismatch = |detail: String| RecordError::ResultMismatch { line, detail };
    if game.result() != Some(result.result) {
        return Err(mismatch(format!(
            "it says {}, but the last state's result is {}",
            result_text(Some(result.result)),
            result_text(game.result())
        )));
    }
    if game.turn() != result.turn {
        return Err(mismatch(format!(
            "it is at turn {}, but the last state is at turn {}",
            result.turn,
            game.turn()
        )));
    }
    Ok(())
}

/// A state with its lists in one order: the order of pieces and destinations carries no meaning, and a
/// record edited by hand or written by another program may list them differently.
fn canonical(state: &GameState) -> GameState {
    let mut state = state.clone();
    for team in [&mut state.red, &mut state.blue] {
        crate::sort::sort_by_key(&mut team.pieces, |p| (p.y, p.x, p.damage));
        crate::sort::sort_by_key(&mut team.destinations, |p| (p.y, p.x));
    }
    state
}

/// The first difference between the state the rules give (`want`) and the recorded one (`got`), in
/// words, so that whoever edited or generated the record can find it.
fn state_difference(want: &GameState, got: &GameState) -> String {
    if want.turn != got.turn {
        return format!("the turn is {}; the rules give {}", got.turn, want.turn);
    }
    if want.to_move != got.to_move {
        let name = |t: Option<Team>| t.map_or("null", Team::name);
        return format!(
            "\"toMove\" is {}; the rules give {}",
            name(got.to_move),
            name(want.to_move)
        );
    }
    if want.result != got.result {
        return format!(
            "the result is {}; the rules give {}",
            result_text(got.result),
            result_text(want.result)
        );
    }
    for team in Team::ALL {
        let (w, g) = match team {
            Team::Red => (&want.red, &got.red),
            Team::Blue => (&want.blue, &got.blue),
        };
        if w.pieces != g.pieces {
            let only = |a: &[crate::halma::PieceJson], b: &[crate::halma::PieceJson]| {
                let list: Vec<String> = a
                    .iter()
                    .filter(|p| !b.contains(p))
                    .take(4)
                    .map(|p| match p.damage {
                        0 => format!("({},{})", p.x, p.y),
                        d => format!("({},{}) damage {d}", p.x, p.y),
                    })
                    .collect();
                if list.is_empty() {
                    "nothing".to_owned()
                } else {
                    list.join(", ")
                }
            };
            return format!(
                "{team}'s pieces: the record has {} where the rules give {}",
                only(&g.pieces, &w.pieces),
                only(&w.pieces, &g.pieces)
            );
        }
        if w.destinations != g.destinations {
            return format!("{team}'s destinations changed");
        }
    }
    "the game's settings changed (board size, mode, camp rule, turn limit or preset)".into()
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    crate::sort::sort(&mut v);
    v
}

fn teams_list(teams: &[Team]) -> String {
    match teams {
        [] => "no team".into(),
        _ => teams
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(" and "),
    }
}

fn squares_list(squares: &[crate::halma::Square]) -> String {
    match squares {
        [] => "no square".into(),
        _ => squares
            .iter()
            .map(|&s| Point::from(s).to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn result_text(result: Option<GameResult>) -> String {
    match result {
        None => "none (the game goes on)".into(),
        Some(r) => format!("\"{r}\""),
    }
}
