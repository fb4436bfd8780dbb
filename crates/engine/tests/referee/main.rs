//! Tests of the referee through [`Game`], as tables with one runner each:
//!
//! - `cases`: one team's answer on a small board and what must come of it, run in both the simultaneous
//!   and the alternating mode, since checking a move, enacting it, healing and deciding the game are the
//!   same steps in both;
//! - `scenarios`: ticks of the simultaneous arena, where both teams' answers meet (collisions, damage
//!   over several ticks, both teams' errors at once);
//! - `alternating`: what only the alternating mode has (the side to move, the first mover);
//! - `setup`: building games, and the game-state format.

#[path = "../common/mod.rs"]
mod common;

mod alternating;
mod cases;
mod scenarios;
mod setup;

use common::path;
use gridarena_engine::halma::{Answer, Game, GameState, NoMove, Team, TeamError, TickOutcome};
use serde_json::{json, Value};

/// Pieces as (x, y, damage).
pub type Pcs<'a> = &'a [(i64, i64, i64)];

pub fn pieces_json(v: Pcs) -> Vec<Value> {
    v.iter()
        .map(|&(x, y, d)| json!({"x": x, "y": y, "damage": d}))
        .collect()
}

/// A simultaneous 8x8 game: red goes to the top-right corner (7,0), blue to the top-left (0,0).
pub fn sim(red: Pcs, blue: Pcs) -> Value {
    json!({
        "boardSize": 8,
        "mode": "simultaneous",
        "turnLimit": 1000,
        "turn": 0,
        "red": {"pieces": pieces_json(red), "destinations": [{"x": 7, "y": 0}]},
        "blue": {"pieces": pieces_json(blue), "destinations": [{"x": 0, "y": 0}]},
    })
}

/// Like [`sim`], with red to fill (5,0), (6,0) and (7,0).
pub fn three_dest(red: Pcs, blue: Pcs) -> Value {
    let mut v = sim(red, blue);
    v["red"]["destinations"] = json!([{"x": 5, "y": 0}, {"x": 6, "y": 0}, {"x": 7, "y": 0}]);
    v
}

pub fn game(v: Value) -> Game {
    let state: GameState = serde_json::from_value(v).expect("a well-formed game state");
    Game::from_state(&state).expect("a valid game state")
}

pub fn mv(from: (i64, i64), to: &[(i64, i64)]) -> Answer {
    Answer::Move(path(from, to))
}

pub fn none() -> Answer {
    Answer::NoMove(NoMove::Missing)
}

/// The answers of a tick as (red, blue), from `team`'s answer and the other team's.
pub fn pair(team: Team, mine: Answer, theirs: Answer) -> (Answer, Answer) {
    match team {
        Team::Red => (mine, theirs),
        Team::Blue => (theirs, mine),
    }
}

pub fn damage(g: &Game, team: Team, (x, y): (u8, u8)) -> u8 {
    g.position()
        .piece_at(team, common::sq(x, y))
        .unwrap_or_else(|| panic!("no {team} piece at ({x},{y})\n{}", g.position()))
        .damage
}

/// The error of `team` in an outcome, which must be the only error of that team.
pub fn error_of(o: &TickOutcome, team: Team) -> &TeamError {
    let errs: Vec<_> = o.errors.iter().filter(|e| e.team == team).collect();
    assert_eq!(errs.len(), 1, "errors of {team}: {:?}", o.errors);
    errs[0]
}

/// The error's kind as the JSON names it.
pub fn kind(e: &TeamError) -> String {
    serde_json::to_value(e).unwrap()["kind"]
        .as_str()
        .unwrap()
        .to_string()
}
