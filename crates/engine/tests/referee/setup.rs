//! Building games: from rules, from a recorded state (every refusal named), and the state format.

use super::{damage, game, mv, none, sim};
use crate::common::sq;
use gridarena_engine::halma::{
    Answer, Game, GameResult, GameState, Preset, Rules, SetupError, Team, TickRefused,
};
use serde_json::{json, Value};

#[test]
fn game_state_round_trips_through_json() {
    for preset in Preset::ALL {
        let mut g = Game::new(&preset.rules(), 11).unwrap();
        // Play a few ticks with the first legal moves.
        for _ in 0..4 {
            let movers = g.movers();
            let answers: Vec<Answer> = Team::ALL
                .iter()
                .map(|&t| {
                    if movers.contains(&t) {
                        let m = g.position().moves(t)[0];
                        Answer::Move(g.position().path(t, m).unwrap())
                    } else {
                        none()
                    }
                })
                .collect();
            let [red, blue]: [Answer; 2] = answers.try_into().unwrap();
            g.tick(red, blue).unwrap();
        }
        let text = serde_json::to_string(&g.state()).unwrap();
        let back: GameState = serde_json::from_str(&text).unwrap();
        assert_eq!(back, g.state());
        assert_eq!(Game::from_state(&back).unwrap(), g, "{preset}");
        let v: Value = serde_json::from_str(&text).unwrap();
        for key in [
            "boardSize",
            "mode",
            "campRule",
            "turnLimit",
            "turn",
            "red",
            "blue",
        ] {
            assert!(v.get(key).is_some(), "{preset}: no {key} in {text}");
        }
        assert_eq!(v["preset"], json!(preset.name()));
    }
    // Collisions, damage and a result survive the trip.
    let mut g = game(sim(&[(6, 1, 0), (2, 4, 0)], &[(4, 4, 0), (1, 1, 0)]));
    g.tick(mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]))
        .unwrap();
    g.tick(mv((6, 1), &[(7, 0)]), mv((1, 1), &[(1, 2)]))
        .unwrap();
    assert!(g.result().is_some());
    let text = serde_json::to_string(&g.state()).unwrap();
    let back = Game::from_state(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(back, g);
    assert_eq!(damage(&back, Team::Red, (3, 3)), 4);
}

fn setup_err(v: Value) -> SetupError {
    let s: GameState = serde_json::from_value(v.clone()).expect("well-formed JSON for the type");
    Game::from_state(&s).expect_err(&format!("accepted {v}"))
}

/// The arena's start as JSON: red's pieces begin (0,14), (1,14); blue's (15,14); red's destinations
/// (15,0), (16,0); blue's (0,0).
fn arena() -> Value {
    serde_json::to_value(Game::new(&Preset::Arena.rules(), 0).unwrap().state()).unwrap()
}

/// A change to a valid state that makes it invalid.
type Edit = fn(&mut Value);

#[test]
fn from_state_names_every_refusal() {
    let off = |what: &str, x, y| SetupError::OffBoard {
        what: what.into(),
        x,
        y,
        size: 18,
    };
    let table: Vec<(Edit, SetupError, &str)> = vec![
        (
            |v| v["red"]["pieces"][0] = json!({"x": 20, "y": 15, "damage": 0}),
            off("red piece", 20, 15),
            "red piece at (20,15) is off the 18x18 board",
        ),
        (
            |v| v["blue"]["pieces"][3] = json!({"x": -1, "y": 0}),
            off("blue piece", -1, 0),
            "blue piece at (-1,0) is off the 18x18 board",
        ),
        (
            |v| v["blue"]["destinations"][0] = json!({"x": 0, "y": 18}),
            off("blue destination", 0, 18),
            "blue destination at (0,18) is off the 18x18 board",
        ),
        (
            |v| v["red"]["pieces"][1] = v["red"]["pieces"][0].clone(),
            SetupError::Stacked {
                team: Team::Red,
                square: sq(0, 14),
            },
            "two red pieces stand on (0,14)",
        ),
        (
            |v| v["red"]["pieces"][0]["damage"] = json!(9),
            SetupError::Damage {
                team: Team::Red,
                square: sq(0, 14),
                damage: 9,
            },
            "red piece at (0,14) has damage 9: it must be 0 to 5",
        ),
        (
            |v| v["blue"]["pieces"][0]["damage"] = json!(-1),
            SetupError::Damage {
                team: Team::Blue,
                square: sq(15, 14),
                damage: -1,
            },
            "blue piece at (15,14) has damage -1: it must be 0 to 5",
        ),
        (
            |v| v["blue"]["pieces"][0]["damage"] = json!(256 + 2),
            SetupError::Damage {
                team: Team::Blue,
                square: sq(15, 14),
                damage: 258,
            },
            "blue piece at (15,14) has damage 258: it must be 0 to 5",
        ),
        (
            |v| v["mode"] = json!("alternating"),
            SetupError::MissingToMove,
            "an alternating game needs \"toMove\"",
        ),
        (
            |v| v["toMove"] = json!("red"),
            SetupError::UnexpectedToMove,
            "a simultaneous game has no \"toMove\": both teams move every tick",
        ),
        (
            |v| v["turnLimit"] = json!(0),
            SetupError::ZeroTurnLimit,
            "the turn limit must be at least 1",
        ),
        (
            |v| {
                v["turnLimit"] = json!(10);
                v["turn"] = json!(10);
            },
            SetupError::TurnLimitPassed {
                turn: 10,
                turn_limit: 10,
            },
            "turn 10 has reached the turn limit 10 but the game has no result",
        ),
        (
            |v| v["version"] = json!(2),
            SetupError::UnsupportedVersion { found: 2 },
            "state version 2 is not supported (this build reads version 1)",
        ),
        (
            |v| v["blue"]["pieces"] = json!([]),
            SetupError::NoPieces(Team::Blue),
            "blue has no pieces",
        ),
        (
            |v| v["red"]["destinations"] = json!([]),
            SetupError::NoDestinations(Team::Red),
            "red has no destination squares",
        ),
        (
            |v| v["red"]["destinations"][1] = v["red"]["destinations"][0].clone(),
            SetupError::DuplicateDestination {
                team: Team::Red,
                square: sq(15, 0),
            },
            "red's destination (15,0) is listed twice",
        ),
    ];
    for (edit, error, text) in table {
        let mut v = arena();
        edit(&mut v);
        let e = setup_err(v);
        assert_eq!(e, error);
        assert_eq!(e.to_string(), text);
    }
    for size in [99, 3, 0, -5, 256 + 18, 33] {
        let mut v = arena();
        v["boardSize"] = json!(size);
        let e = setup_err(v);
        assert_eq!(e, SetupError::BoardSize(size), "size {size}");
        assert_eq!(
            e.to_string(),
            format!("board size {size} is not supported: it must be 4 to 32")
        );
    }

    // Shapes serde refuses before the referee sees them.
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = arena();
        f(&mut v);
        v
    };
    for bad in [
        with(&|v| {
            v.as_object_mut().unwrap().remove("boardSize");
        }),
        with(&|v| v["mode"] = json!("turnbased")),
        with(&|v| v["turn"] = json!(-1)),
        with(&|v| v["red"]["pieces"][0]["x"] = json!("0")),
        with(&|v| v["result"] = json!({"kind": "resigned"})),
    ] {
        assert!(
            serde_json::from_value::<GameState>(bad.clone()).is_err(),
            "{bad}"
        );
    }

    // The unmodified state is fine (so the rejections above are about the change).
    assert!(Game::from_state(&serde_json::from_value(arena()).unwrap()).is_ok());
}

#[test]
fn new_refuses_overlapping_starts_and_a_zero_turn_limit() {
    let e = Game::new(&Rules::arena(5), 0).unwrap_err();
    assert_eq!(e, SetupError::StartsOverlap { square: sq(2, 1) });
    assert_eq!(
        e.to_string(),
        "both teams start on (2,1): the board is too small for this setup"
    );
    let mut r = Preset::Arena.rules();
    r.turn_limit = 0;
    assert_eq!(Game::new(&r, 0), Err(SetupError::ZeroTurnLimit));
    // Other sizes of the arena are fine.
    for size in [8, 12, 32] {
        let g = Game::new(&Rules::arena(size), 0).unwrap();
        assert_eq!(g.position().size(), size);
        assert_eq!(g.position().pieces(Team::Red).len(), 12);
    }
}

#[test]
fn a_recorded_finished_game_refuses_ticks() {
    let mut v = sim(&[(7, 0, 0)], &[(4, 4, 0)]);
    v["result"] = json!({"kind": "win", "winner": "red"});
    v["turn"] = json!(12);
    let mut g = game(v);
    assert_eq!(
        g.tick(none(), none()),
        Err(TickRefused::GameOver(GameResult::Win { winner: Team::Red }))
    );
    assert_eq!(g.turn(), 12);
}

#[test]
fn results_name_the_winner_or_the_draw() {
    let won = GameResult::Win { winner: Team::Red };
    assert_eq!(won.winner(), Some(Team::Red));
    assert!(won.to_string().contains("HALMATE") && won.to_string().contains("red"));
    for draw in [GameResult::BothFinished, GameResult::TurnLimit] {
        assert_eq!(draw.winner(), None);
        assert!(draw.to_string().contains("draw"), "{draw}");
    }
}
