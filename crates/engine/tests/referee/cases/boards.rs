//! The boards of the case table, each a simultaneous game state (the runner turns it into an
//! alternating one) with one harmless step per team for the simultaneous runs.

use crate::{mv, pieces_json, sim, three_dest};
use gridarena_engine::halma::{Answer, Game, Preset, Teams};
use serde_json::{json, Value};

pub struct Board {
    pub state: Value,
    /// A legal step for each team that touches nothing the cases look at.
    pub quiet: Teams<Answer>,
}

fn board(state: Value, red: Answer, blue: Answer) -> Board {
    Board {
        state,
        quiet: Teams { red, blue },
    }
}

/// The arena's start.
pub fn arena() -> Board {
    let state = Game::new(&Preset::Arena.rules(), 7).unwrap().state();
    board(
        serde_json::to_value(state).unwrap(),
        mv((1, 15), &[(3, 15)]),
        mv((15, 14), &[(14, 13)]),
    )
}

/// 8x8: red at (3,3), (4,3), (1,1) damaged 3, (2,1); blue at (3,5), (5,5), (5,3). Every move error
/// has a case here.
pub fn errors() -> Board {
    board(
        sim(
            &[(3, 3, 0), (4, 3, 0), (1, 1, 3), (2, 1, 0)],
            &[(3, 5, 0), (5, 5, 0), (5, 3, 0)],
        ),
        mv((2, 1), &[(2, 0)]),
        mv((5, 5), &[(6, 6)]),
    )
}

/// Damaged pieces that may step: red (3,3) with 5 next to (4,3), blue (6,6) with 2.
pub fn damaged() -> Board {
    board(
        sim(&[(3, 3, 5), (4, 3, 0)], &[(6, 6, 2)]),
        mv((4, 3), &[(5, 3)]),
        mv((6, 6), &[(6, 5)]),
    )
}

/// Red and blue share (3,3) after a collision; red's (2,3) may jump over it, (4,4) and (3,1) may not
/// land on it.
pub fn shared() -> Board {
    board(
        sim(
            &[(3, 3, 5), (2, 3, 0), (4, 4, 0), (3, 1, 0)],
            &[(3, 3, 5), (3, 2, 0), (7, 7, 0)],
        ),
        mv((3, 1), &[(2, 1)]),
        mv((7, 7), &[(7, 6)]),
    )
}

/// Red must fill (5,0), (6,0), (7,0) and holds two of them; its third piece is two steps away.
pub fn two_steps_to_win() -> Board {
    board(
        three_dest(&[(5, 0, 0), (6, 0, 0), (7, 2, 0)], &[(3, 7, 0)]),
        mv((5, 0), &[(4, 0)]),
        mv((3, 7), &[(3, 6)]),
    )
}

/// As [`two_steps_to_win`], one step away.
pub fn one_step_to_win() -> Board {
    board(
        three_dest(&[(5, 0, 0), (6, 0, 0), (7, 1, 0)], &[(3, 7, 0)]),
        mv((5, 0), &[(4, 0)]),
        mv((3, 7), &[(3, 6)]),
    )
}

/// Blue spoils red's (7,0); red holds (5,0) and is one step from (6,0).
pub fn spoiled() -> Board {
    board(
        three_dest(&[(5, 0, 0), (6, 1, 0), (2, 6, 0)], &[(7, 0, 0), (3, 7, 0)]),
        mv((2, 6), &[(2, 5)]),
        mv((3, 7), &[(3, 6)]),
    )
}

/// Blue holds all three of red's destinations: red cannot win, however long it waits.
pub fn all_spoiled() -> Board {
    board(
        three_dest(&[(2, 6, 0)], &[(5, 0, 0), (6, 0, 0), (7, 0, 0), (3, 7, 0)]),
        mv((2, 6), &[(2, 7)]),
        mv((3, 7), &[(3, 6)]),
    )
}

/// One tick to go: red (6,1) is a step from its destination (7,0).
pub fn last_tick() -> Board {
    let mut state = sim(&[(6, 1, 0)], &[(4, 4, 0)]);
    state["turnLimit"] = json!(1);
    board(state, mv((6, 1), &[(5, 1)]), mv((4, 4), &[(4, 3)]))
}

/// With the camp rule: red's destination is the bottom-right 2x2 corner, where (6,6) and (7,7)
/// stand; (5,6) is outside it.
pub fn camp() -> Board {
    board(
        camp_state(true),
        mv((2, 2), &[(2, 3)]),
        mv((0, 0), &[(1, 0)]),
    )
}

/// [`camp`] without the camp rule (the arena's setting).
pub fn no_camp() -> Board {
    board(
        camp_state(false),
        mv((2, 2), &[(2, 3)]),
        mv((0, 0), &[(1, 0)]),
    )
}

fn camp_state(camp_rule: bool) -> Value {
    json!({
        "boardSize": 8,
        "mode": "simultaneous",
        "campRule": camp_rule,
        "turnLimit": 1000,
        "turn": 0,
        "red": {
            "pieces": pieces_json(&[(6, 6, 0), (7, 7, 0), (5, 6, 0), (2, 2, 0)]),
            "destinations": [{"x": 6, "y": 6}, {"x": 7, "y": 6}, {"x": 6, "y": 7}, {"x": 7, "y": 7}],
        },
        "blue": {
            "pieces": pieces_json(&[(0, 0, 0), (4, 4, 0)]),
            "destinations": [{"x": 0, "y": 1}],
        },
    })
}

/// Red's camp holds (7,7) and (7,3); the chain (7,7) -> (7,5) -> (7,3) passes outside it.
pub fn camp_chain() -> Board {
    let state = json!({
        "boardSize": 8, "mode": "simultaneous", "campRule": true, "turnLimit": 1000, "turn": 0,
        "red": {
            "pieces": pieces_json(&[(7, 7, 0), (7, 6, 0), (7, 4, 0)]),
            "destinations": [{"x": 7, "y": 7}, {"x": 7, "y": 3}, {"x": 6, "y": 7}],
        },
        "blue": {"pieces": pieces_json(&[(0, 0, 0)]), "destinations": [{"x": 0, "y": 1}]},
    });
    board(state, mv((7, 4), &[(6, 4)]), mv((0, 0), &[(1, 0)]))
}

/// The mini preset (camp rule on), with a red piece on (7,4) in blue's camp, which is red's
/// destination; the blue piece that stood there is gone.
pub fn mini_in_camp() -> Board {
    let game = Game::new(&Preset::Mini.rules(), 0).unwrap();
    let mut v = serde_json::to_value(game.state()).unwrap();
    assert_eq!(v["campRule"], json!(true));
    v["mode"] = json!("simultaneous");
    v["toMove"] = Value::Null;
    let blue = v["blue"]["pieces"].as_array_mut().unwrap();
    blue.retain(|p| p != &json!({"x": 7, "y": 4, "damage": 0}));
    assert_eq!(blue.len(), 9);
    v["red"]["pieces"][0] = json!({"x": 7, "y": 4, "damage": 0});
    board(v, mv((1, 2), &[(2, 2)]), mv((4, 7), &[(3, 7)]))
}

/// The boards' quiet moves are legal, so a simultaneous run's outcome is the case's answer alone.
#[test]
fn every_boards_quiet_moves_are_legal() {
    let boards: [fn() -> Board; 13] = [
        arena,
        errors,
        damaged,
        shared,
        two_steps_to_win,
        one_step_to_win,
        spoiled,
        all_spoiled,
        last_tick,
        camp,
        no_camp,
        camp_chain,
        mini_in_camp,
    ];
    for board in boards {
        let Board { state, quiet } = board();
        let mut g = crate::game(state);
        assert_eq!(g.mode(), gridarena_engine::halma::Mode::Simultaneous);
        let o = g.tick(quiet.red, quiet.blue).unwrap();
        assert!(o.errors.is_empty(), "{:?}", o.errors);
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.result.and_then(|r| r.winner()), None);
    }
}
