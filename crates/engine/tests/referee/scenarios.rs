//! Ticks of the simultaneous mode, where both teams' answers meet: collisions, damage over several
//! ticks, and both teams' errors at once. Each scenario is a board and a list of ticks, each with what it
//! must give; one runner checks them all.

use super::{damage, game, mv, none, sim};
use crate::common::sq;
use gridarena_engine::halma::{
    Answer, EnactedMove, Game, GameResult, Point, Team, TickRefused, COLLISION_DAMAGE,
};
use serde_json::{json, Value};

mod table;

const RED: Team = Team::Red;
const BLUE: Team = Team::Blue;

struct Scenario {
    name: &'static str,
    start: Game,
    ticks: Vec<Tick>,
}

/// One tick: both answers, and what must come of them.
struct Tick {
    red: Answer,
    blue: Answer,
    want: Want,
}

#[derive(Clone, Default)]
struct Want {
    /// Each team's error code, red first; empty when both moves are to be enacted.
    errors: Vec<(Team, &'static str)>,
    collisions: Vec<(u8, u8)>,
    /// A piece's damage after the tick.
    damage: Vec<(Team, (u8, u8), u8)>,
    /// Squares that hold no piece after the tick.
    empty: Vec<(u8, u8)>,
    result: Option<GameResult>,
}

fn tick(red: Answer, blue: Answer, want: Want) -> Tick {
    Tick { red, blue, want }
}

fn enacted() -> Want {
    Want::default()
}

fn refused(errors: &[(Team, &'static str)]) -> Want {
    Want {
        errors: errors.to_vec(),
        ..Want::default()
    }
}

fn collide(x: u8, y: u8) -> Want {
    Want {
        collisions: vec![(x, y)],
        damage: vec![
            (RED, (x, y), COLLISION_DAMAGE),
            (BLUE, (x, y), COLLISION_DAMAGE),
        ],
        ..Want::default()
    }
}

#[test]
fn every_scenario() {
    let scenarios = table::scenarios();
    assert_eq!(scenarios.len(), 15, "the table lost or gained scenarios");
    for s in &scenarios {
        run(s);
    }
}

fn run(s: &Scenario) {
    let mut g = s.start.clone();
    for (i, t) in s.ticks.iter().enumerate() {
        let at = format!("{}, tick {}", s.name, i + 1);
        let before = g.clone();
        let o = g
            .tick(t.red.clone(), t.blue.clone())
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!((o.turn, g.turn()), (i as u32 + 1, i as u32 + 1), "{at}");
        assert_eq!(o.movers, Team::ALL.to_vec(), "{at}");
        let errors: Vec<_> = o.errors.iter().map(|e| (e.team, e.code.as_str())).collect();
        assert_eq!(errors, t.want.errors, "{at}: {:?}", o.errors);
        for e in &o.errors {
            let answer = if e.team == RED { &t.red } else { &t.blue };
            if let Answer::Move(p) = answer {
                let refusal = before.position().check(e.team, p).unwrap_err();
                assert_eq!(e.message, refusal.to_string(), "{at}");
            }
        }
        if t.want.errors.is_empty() {
            let expected: Vec<EnactedMove> = [(RED, &t.red), (BLUE, &t.blue)]
                .into_iter()
                .map(|(team, answer)| enacted_move(team, answer, &at))
                .collect();
            assert_eq!(o.moves, expected, "{at}");
            for m in &o.moves {
                assert!(
                    g.position().piece_at(m.team, m.from).is_none(),
                    "{at}: {m:?}"
                );
                let last = *m.to.last().unwrap();
                assert!(g.position().piece_at(m.team, last).is_some(), "{at}: {m:?}");
            }
        } else {
            assert!(o.moves.is_empty(), "{at}");
            assert_eq!(g.position(), before.position(), "{at}: the board changed");
        }
        let collisions: Vec<_> = t.want.collisions.iter().map(|&(x, y)| sq(x, y)).collect();
        assert_eq!(o.collisions, collisions, "{at}");
        for &c in &collisions {
            assert!(g.position().is_shared(c), "{at}");
        }
        for &(team, at_sq, d) in &t.want.damage {
            assert_eq!(damage(&g, team, at_sq), d, "{at}: {team} at {at_sq:?}");
        }
        for &(x, y) in &t.want.empty {
            assert!(!g.position().is_occupied(sq(x, y)), "{at}: ({x},{y})");
        }
        let damaged: Vec<_> = g
            .position()
            .damaged()
            .map(|(t, p)| (t, p.square.x(), p.square.y(), p.damage))
            .collect();
        let reported: Vec<_> = o
            .damaged
            .iter()
            .map(|d| (d.team, d.x, d.y, d.damage))
            .collect();
        assert_eq!(reported, damaged, "{at}");
        for team in Team::ALL {
            let count = before.position().pieces(team).len();
            assert_eq!(g.position().pieces(team).len(), count, "{at}");
        }
        assert_eq!(
            (o.result, g.result()),
            (t.want.result, t.want.result),
            "{at}"
        );
        if let Some(r) = o.result {
            let after = g.clone();
            assert_eq!(
                g.tick(none(), none()),
                Err(TickRefused::GameOver(r)),
                "{at}"
            );
            assert_eq!(g, after, "{at}");
            assert!(g.movers().is_empty(), "{at}");
        }
    }
}

fn enacted_move(team: Team, answer: &Answer, at: &str) -> EnactedMove {
    let Answer::Move(p) = answer else {
        panic!("{at}: {team} has no move to enact")
    };
    let square = |p: Point| sq(p.x as u8, p.y as u8);
    EnactedMove {
        team,
        from: square(p.from),
        to: p.to.iter().map(|&p| square(p)).collect(),
    }
}

/// What the outcome says of a collision, in the JSON the page and records read.
#[test]
fn a_collision_is_reported_in_the_wire_format() {
    assert_eq!(COLLISION_DAMAGE, 5);
    let mut g = game(sim(&[(2, 4, 0), (0, 7, 0)], &[(4, 4, 0), (7, 7, 0)]));
    let o = g
        .tick(mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]))
        .unwrap();
    let v: Value = serde_json::to_value(&o).unwrap();
    assert_eq!(v["collisions"], json!([{"x": 3, "y": 3}]));
    assert_eq!(
        v["damaged"],
        json!([
            {"team": "red", "x": 3, "y": 3, "damage": 5},
            {"team": "blue", "x": 3, "y": 3, "damage": 5},
        ])
    );
}
