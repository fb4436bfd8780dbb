//! The scenarios. The lists are kept out of rustfmt so that each tick stays one row: red's answer,
//! blue's answer, and what must come of them.

use super::{collide, enacted, refused, tick, Scenario, Want, BLUE, RED};
use crate::{game, mv, none, sim, three_dest};
use gridarena_engine::halma::{Answer, Game, GameResult, Preset, Team};
use serde_json::json;

pub fn scenarios() -> Vec<Scenario> {
    [
        arena_ticks(),
        collisions(),
        damage_over_time(),
        damaged_jumps(),
        finishing(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn arena() -> Game {
    Game::new(&Preset::Arena.rules(), 7).unwrap()
}

/// From the arena's start: moves enacted together, and errors of either or both teams.
#[rustfmt::skip]
fn arena_ticks() -> Vec<Scenario> {
    let both_missing = refused(&[(RED, "missing"), (BLUE, "missing")]);
    vec![
        Scenario {
            name: "both valid moves are enacted",
            start: arena(),
            ticks: vec![tick(mv((1, 15), &[(3, 15)]), mv((15, 14), &[(14, 13)]), enacted())],
        },
        Scenario {
            name: "both missing: both named",
            start: arena(),
            ticks: vec![tick(none(), none(), both_missing.clone())],
        },
        Scenario {
            name: "two invalid moves report both reasons",
            start: arena(),
            ticks: vec![
                tick(mv((5, 5), &[(5, 6)]), mv((15, 14), &[(16, 14)]), refused(&[(RED, "no_piece"), (BLUE, "occupied")])),
                tick(none(), mv((15, 14), &[(15, 19)]), refused(&[(RED, "missing"), (BLUE, "off_board")])),
            ],
        },
        Scenario {
            name: "the turn counter advances on every tick",
            start: arena(),
            ticks: vec![
                tick(mv((1, 15), &[(3, 15)]), mv((15, 14), &[(14, 13)]), enacted()),
                tick(none(), mv((14, 13), &[(15, 14)]), refused(&[(RED, "missing")])),
                tick(mv((3, 15), &[(9, 9)]), mv((14, 13), &[(15, 14)]), refused(&[(RED, "not_a_jump")])),
                tick(none(), none(), both_missing),
                tick(mv((3, 15), &[(4, 15)]), mv((14, 13), &[(13, 13)]), enacted()),
            ],
        },
    ]
}

/// Moves ending on one square collide; chains that only pass a square do not.
#[rustfmt::skip]
fn collisions() -> Vec<Scenario> {
    let untouched = Want { damage: vec![(RED, (0, 7), 0), (BLUE, (7, 7), 0)], ..collide(3, 3) };
    let again = Want { empty: vec![(3, 3)], ..collide(3, 2) };
    let crossing = Want { damage: vec![(RED, (5, 5), 0), (BLUE, (1, 5), 0)], empty: vec![(3, 3)], ..enacted() };
    let passing = Want { damage: vec![(RED, (3, 3), 0), (BLUE, (1, 5), 0)], ..enacted() };
    vec![
        Scenario {
            name: "a collision puts both pieces on the square with damage 5",
            start: game(sim(&[(2, 4, 0), (0, 7, 0)], &[(4, 4, 0), (7, 7, 0)])),
            ticks: vec![tick(mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]), untouched)],
        },
        Scenario {
            // Red jumps (1,3)->(3,3) over (2,3); blue steps (4,4)->(3,3).
            name: "a jump and a step ending together collide",
            start: game(sim(&[(1, 3, 0), (2, 3, 0)], &[(4, 4, 0)])),
            ticks: vec![tick(mv((1, 3), &[(3, 3)]), mv((4, 4), &[(3, 3)]), collide(3, 3))],
        },
        Scenario {
            // Already damaged pieces collide: 5, not their damage lowered or added to; then the
            // collided pair steps off together and collides again.
            name: "a repeat collision resets the damage to 5",
            start: game(sim(&[(2, 4, 3)], &[(4, 4, 1)])),
            ticks: vec![
                tick(mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]), collide(3, 3)),
                tick(mv((3, 3), &[(3, 2)]), mv((3, 3), &[(3, 2)]), again),
            ],
        },
        Scenario {
            // Both chains pass (3,3).
            name: "chains crossing an intermediate square do not collide",
            start: game(sim(&[(1, 1, 0), (2, 2, 0), (4, 4, 0)], &[(5, 1, 0), (4, 2, 0), (2, 4, 0)])),
            ticks: vec![tick(mv((1, 1), &[(3, 3), (5, 5)]), mv((5, 1), &[(3, 3), (1, 5)]), crossing)],
        },
        Scenario {
            name: "a chain passing the other team's final square does not collide",
            start: game(sim(&[(2, 3, 0)], &[(5, 1, 0), (4, 2, 0), (2, 4, 0)])),
            ticks: vec![tick(mv((2, 3), &[(3, 3)]), mv((5, 1), &[(3, 3), (1, 5)]), passing)],
        },
    ]
}

/// Two pieces that step back and forth, to make enacted ticks without touching anything else.
struct Shuttle {
    a: (i64, i64),
    b: (i64, i64),
    at_a: bool,
}

impl Shuttle {
    fn new(a: (i64, i64), b: (i64, i64)) -> Shuttle {
        Shuttle { a, b, at_a: true }
    }

    fn next(&mut self) -> Answer {
        let (from, to) = if self.at_a {
            (self.a, self.b)
        } else {
            (self.b, self.a)
        };
        self.at_a = !self.at_a;
        mv(from, &[to])
    }
}

/// Damage drops by one per enacted tick and not on other ticks.
#[rustfmt::skip]
fn damage_over_time() -> Vec<Scenario> {
    let mut red = Shuttle::new((0, 7), (1, 7));
    let mut blue = Shuttle::new((7, 7), (6, 7));
    // Red's (2,4), (4,4), (5,5) and blue's (2,6), (6,3) never move.
    let levels = |r: [u8; 3], b: [u8; 2], errors: &[(Team, &'static str)]| Want {
        damage: vec![(RED, (2, 4), r[0]), (RED, (4, 4), r[1]), (RED, (5, 5), r[2]), (BLUE, (2, 6), b[0]), (BLUE, (6, 3), b[1])],
        ..refused(errors)
    };
    let ticks = vec![
        tick(red.next(), blue.next(), levels([4, 0, 2], [1, 3], &[])),
        // Not enacted: a missing move, an invalid move.
        tick(none(), mv((7, 7), &[(7, 6)]), levels([4, 0, 2], [1, 3], &[(RED, "missing"), (BLUE, "no_piece")])),
        tick(mv((1, 7), &[(1, 5)]), mv((6, 7), &[(7, 7)]), levels([4, 0, 2], [1, 3], &[(RED, "jump_over_empty")])),
        tick(red.next(), blue.next(), levels([3, 0, 1], [0, 2], &[])),
        tick(red.next(), blue.next(), levels([2, 0, 0], [0, 1], &[])),
        tick(red.next(), blue.next(), levels([1, 0, 0], [0, 0], &[])),
        tick(red.next(), blue.next(), levels([0, 0, 0], [0, 0], &[])),
        // Nothing is damaged any more: the outcome lists no piece.
        tick(red.next(), blue.next(), levels([0, 0, 0], [0, 0], &[])),
    ];
    vec![Scenario {
        name: "damage drops by one per enacted tick",
        start: game(sim(&[(0, 7, 0), (2, 4, 5), (4, 4, 1), (5, 5, 3)], &[(7, 7, 0), (2, 6, 2), (6, 3, 4)])),
        ticks,
    }]
}

/// A collided piece steps but jumps only after five enacted ticks; a refused tick heals nothing.
fn damaged_jumps() -> Vec<Scenario> {
    // Red (2,4) and blue (4,4) collide on (3,3); red's (4,3) is then a piece to jump over from (3,3).
    let mut red = Shuttle::new((0, 7), (1, 7));
    let mut blue = Shuttle::new((7, 7), (6, 7));
    let jump = || mv((3, 3), &[(5, 3)]);
    let mut ticks = vec![tick(
        mv((2, 4), &[(3, 3)]),
        mv((4, 4), &[(3, 3)]),
        collide(3, 3),
    )];
    for left in (1..=5u8).rev() {
        // Blue's shuttle is on (7,7) every other tick; otherwise its step from there is refused too.
        let mut errors = vec![(RED, "damaged_jump")];
        if left % 2 == 0 {
            errors.push((BLUE, "no_piece"));
        }
        let both = |d| vec![(RED, (3, 3), d), (BLUE, (3, 3), d)];
        let still = Want {
            damage: both(left),
            ..refused(&errors)
        };
        ticks.push(tick(jump(), mv((7, 7), &[(7, 6)]), still));
        let healed = Want {
            damage: both(left - 1),
            ..enacted()
        };
        ticks.push(tick(red.next(), blue.next(), healed));
    }
    ticks.push(tick(jump(), blue.next(), enacted()));
    vec![Scenario {
        name: "a damaged piece jumps only after five enacted ticks",
        start: game(sim(
            &[(2, 4, 0), (4, 3, 0), (0, 7, 0)],
            &[(4, 4, 0), (7, 7, 0)],
        )),
        ticks,
    }]
}

/// Ends that need both teams' moves: a collision on a destination, both finishing, the turn limit.
#[rustfmt::skip]
fn finishing() -> Vec<Scenario> {
    let limit = |n: u32| {
        let mut v = sim(&[(2, 4, 0)], &[(4, 4, 0)]);
        v["turnLimit"] = json!(n);
        game(v)
    };
    let both_missing = [(RED, "missing"), (BLUE, "missing")];
    let ends = |result, errors: &[(Team, &'static str)]| Want { result: Some(result), ..refused(errors) };
    let red_wins = GameResult::Win { winner: RED };
    vec![
        Scenario {
            // A square holding both teams "holds one of its own pieces" for both.
            name: "a collision on the last destination square counts as filling it",
            start: game(three_dest(&[(5, 0, 0), (6, 0, 0), (7, 2, 0)], &[(6, 2, 0)])),
            ticks: vec![
                tick(mv((7, 2), &[(7, 1)]), mv((6, 2), &[(6, 1)]), enacted()),
                tick(mv((7, 1), &[(7, 0)]), mv((6, 1), &[(7, 0)]), Want { result: Some(red_wins), ..collide(7, 0) }),
            ],
        },
        Scenario {
            name: "both finishing on one tick is a draw",
            start: game(sim(&[(6, 1, 0), (4, 4, 0)], &[(1, 1, 0), (5, 5, 0)])),
            ticks: vec![tick(mv((6, 1), &[(7, 0)]), mv((1, 1), &[(0, 0)]), ends(GameResult::BothFinished, &[]))],
        },
        Scenario {
            // The limit is reached on a tick whose moves are not enacted, too.
            name: "the turn limit ends the game as a draw",
            start: limit(3),
            ticks: vec![
                tick(mv((2, 4), &[(2, 3)]), mv((4, 4), &[(4, 3)]), enacted()),
                tick(none(), none(), refused(&both_missing)),
                tick(none(), mv((4, 3), &[(4, 2)]), ends(GameResult::TurnLimit, &[(RED, "missing")])),
            ],
        },
        Scenario {
            name: "a finished game refuses ticks",
            start: limit(1),
            ticks: vec![tick(none(), none(), ends(GameResult::TurnLimit, &both_missing))],
        },
    ]
}
