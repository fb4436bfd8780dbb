//! Unit tests of the referee through [`Game`]: the arena's simultaneous ticks (collisions, damage, wins,
//! draws), the alternating presets, every move error, and the game-state format.

mod common;

use common::{path, sq};
use gridarena_engine::halma::{
    protocol::parse_response, Answer, EnactedMove, Game, GameResult, GameState, Mode, MoveError,
    NoMove, Piece, Point, Preset, Rules, SetupError, Square, Team, TeamError, TickOutcome,
    TickRefused, COLLISION_DAMAGE,
};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------------
// Helpers

type Pcs<'a> = &'a [(i64, i64, i64)];

fn pieces_json(v: Pcs) -> Vec<Value> {
    v.iter()
        .map(|&(x, y, d)| json!({"x": x, "y": y, "damage": d}))
        .collect()
}

/// A simultaneous 8x8 game: red goes to the top-right corner (7,0), blue to the top-left (0,0).
fn sim(red: Pcs, blue: Pcs) -> Value {
    json!({
        "boardSize": 8,
        "mode": "simultaneous",
        "turnLimit": 1000,
        "turn": 0,
        "red": {"pieces": pieces_json(red), "destinations": [{"x": 7, "y": 0}]},
        "blue": {"pieces": pieces_json(blue), "destinations": [{"x": 0, "y": 0}]},
    })
}

fn state(v: Value) -> GameState {
    serde_json::from_value(v).expect("a well-formed game state")
}

fn game(v: Value) -> Game {
    Game::from_state(&state(v)).expect("a valid game state")
}

fn mv(from: (i64, i64), to: &[(i64, i64)]) -> Answer {
    Answer::Move(path(from, to))
}

fn none() -> Answer {
    Answer::NoMove(NoMove::Missing)
}

fn piece(g: &Game, team: Team, x: u8, y: u8) -> Option<Piece> {
    g.position().piece_at(team, sq(x, y))
}

fn damage(g: &Game, team: Team, x: u8, y: u8) -> u8 {
    piece(g, team, x, y)
        .unwrap_or_else(|| panic!("no {team} piece at ({x},{y})\n{}", g.position()))
        .damage
}

fn tick(g: &mut Game, red: Answer, blue: Answer) -> TickOutcome {
    g.tick(red, blue).expect("the tick is played")
}

/// The error of `team` in an outcome, which must be the only error of that team.
fn error_of(o: &TickOutcome, team: Team) -> &TeamError {
    let errs: Vec<_> = o.errors.iter().filter(|e| e.team == team).collect();
    assert_eq!(errs.len(), 1, "errors of {team}: {:?}", o.errors);
    errs[0]
}

fn kind(e: &TeamError) -> String {
    serde_json::to_value(e).unwrap()["kind"]
        .as_str()
        .unwrap()
        .to_string()
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

// ---------------------------------------------------------------------------------------------------
// The arena tick

#[test]
fn both_valid_moves_are_enacted() {
    let mut g = Game::new(&Preset::Arena.rules(), 7).unwrap();
    assert_eq!(g.movers(), vec![Team::Red, Team::Blue]);
    let o = tick(&mut g, mv((1, 15), &[(3, 15)]), mv((15, 14), &[(14, 13)]));
    assert_eq!(
        o.moves,
        vec![
            EnactedMove {
                team: Team::Red,
                from: sq(1, 15),
                to: vec![sq(3, 15)]
            },
            EnactedMove {
                team: Team::Blue,
                from: sq(15, 14),
                to: vec![sq(14, 13)]
            },
        ]
    );
    assert!(o.errors.is_empty() && o.collisions.is_empty() && o.damaged.is_empty());
    assert_eq!((o.turn, g.turn(), o.result), (1, 1, None));
    assert!(piece(&g, Team::Red, 1, 15).is_none());
    assert!(piece(&g, Team::Red, 3, 15).is_some());
    assert!(piece(&g, Team::Blue, 15, 14).is_none());
    assert!(piece(&g, Team::Blue, 14, 13).is_some());
}

#[test]
fn a_missing_move_enacts_neither_and_names_the_team_and_cause() {
    let start = Game::new(&Preset::Arena.rules(), 7).unwrap();
    let causes = [
        (NoMove::Missing, "missing", "no move was submitted"),
        (NoMove::TimedOut { after_ms: 1000 }, "timed_out", "1000 ms"),
        (
            NoMove::Unreadable(parse_response(b"[]").unwrap_err()),
            "list_of_moves",
            "array",
        ),
        (
            NoMove::Failed("connection refused".into()),
            "request_failed",
            "connection refused",
        ),
    ];
    for (cause, code, words) in causes {
        for missing in Team::ALL {
            let mut g = start.clone();
            let (red, blue) = match missing {
                Team::Red => (Answer::NoMove(cause.clone()), mv((15, 14), &[(14, 13)])),
                Team::Blue => (mv((1, 15), &[(3, 15)]), Answer::NoMove(cause.clone())),
            };
            let o = tick(&mut g, red, blue);
            assert!(o.moves.is_empty(), "{code}: {o:?}");
            assert_eq!(g.position(), start.position(), "{code}: the board changed");
            assert_eq!(o.errors.len(), 1, "{code}: {:?}", o.errors);
            let e = error_of(&o, missing);
            assert_eq!(e.code, code);
            assert_eq!(kind(e), "noMove");
            assert!(e.message.contains(words), "{code}: {}", e.message);
            assert!(e.submitted.is_none());
            let shown = e.to_string();
            assert!(
                shown.contains(missing.name()) && shown.contains(words),
                "{shown}"
            );
            assert_eq!(g.turn(), 1);
        }
    }
    // Both missing: both named.
    let mut g = start.clone();
    let o = tick(&mut g, none(), none());
    assert_eq!(o.errors.len(), 2);
    error_of(&o, Team::Red);
    error_of(&o, Team::Blue);
}

#[test]
fn one_invalid_move_enacts_neither_and_reports_that_team_only() {
    let start = Game::new(&Preset::Arena.rules(), 7).unwrap();
    let mut g = start.clone();
    // Blue jumps over the empty (13,13).
    let bad = path((15, 14), &[(13, 12)]);
    let o = tick(&mut g, mv((1, 15), &[(3, 15)]), Answer::Move(bad.clone()));
    assert!(o.moves.is_empty());
    assert_eq!(g.position(), start.position());
    assert_eq!(o.errors.len(), 1);
    let e = error_of(&o, Team::Blue);
    assert_eq!(e.code, "jump_over_empty");
    assert_eq!(kind(e), "invalidMove");
    assert_eq!(e.submitted.as_ref(), Some(&bad));
    assert!(e.message.contains("(14,13)"), "{}", e.message);
    assert!(e.to_string().starts_with("blue: invalid move"), "{e}");

    // Red invalid instead.
    let mut g = start.clone();
    let o = tick(
        &mut g,
        mv((0, 14), &[(0, 13), (0, 12)]),
        mv((15, 14), &[(14, 13)]),
    );
    assert!(o.moves.is_empty());
    assert_eq!(o.errors.len(), 1);
    assert_eq!(error_of(&o, Team::Red).code, "step_mixed_with_jumps");
}

#[test]
fn two_invalid_moves_report_both_reasons() {
    let mut g = Game::new(&Preset::Arena.rules(), 7).unwrap();
    let o = tick(&mut g, mv((5, 5), &[(5, 6)]), mv((15, 14), &[(16, 14)]));
    assert!(o.moves.is_empty());
    assert_eq!(o.errors.len(), 2);
    assert_eq!(error_of(&o, Team::Red).code, "no_piece");
    assert_eq!(error_of(&o, Team::Blue).code, "occupied");
    // A missing move and an invalid one: both reported too.
    let o = tick(&mut g, none(), mv((15, 14), &[(15, 19)]));
    assert_eq!(o.errors.len(), 2);
    assert_eq!(error_of(&o, Team::Red).code, "missing");
    assert_eq!(error_of(&o, Team::Blue).code, "off_board");
}

#[test]
fn the_turn_counter_advances_on_every_tick() {
    let mut g = Game::new(&Preset::Arena.rules(), 7).unwrap();
    let ticks = [
        (mv((1, 15), &[(3, 15)]), mv((15, 14), &[(14, 13)])),
        (none(), mv((14, 13), &[(15, 14)])),
        (mv((3, 15), &[(9, 9)]), mv((14, 13), &[(15, 14)])),
        (none(), none()),
        (mv((3, 15), &[(4, 15)]), mv((14, 13), &[(13, 13)])),
    ];
    for (i, (red, blue)) in ticks.into_iter().enumerate() {
        let o = tick(&mut g, red, blue);
        assert_eq!(o.turn, i as u32 + 1);
        assert_eq!(g.turn(), i as u32 + 1);
    }
    assert_eq!(g.state().turn, 5);
}

#[test]
fn a_collision_puts_both_pieces_on_the_square_with_damage_5() {
    let mut g = game(sim(&[(2, 4, 0), (0, 7, 0)], &[(4, 4, 0), (7, 7, 0)]));
    let o = tick(&mut g, mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]));
    assert_eq!(o.moves.len(), 2);
    assert_eq!(o.collisions, vec![sq(3, 3)]);
    assert!(g.position().is_shared(sq(3, 3)));
    assert_eq!(damage(&g, Team::Red, 3, 3), COLLISION_DAMAGE);
    assert_eq!(damage(&g, Team::Blue, 3, 3), COLLISION_DAMAGE);
    assert_eq!(COLLISION_DAMAGE, 5);
    let damaged = serde_json::to_value(&o.damaged).unwrap();
    assert_eq!(
        damaged,
        json!([
            {"team": "red", "x": 3, "y": 3, "damage": 5},
            {"team": "blue", "x": 3, "y": 3, "damage": 5},
        ])
    );
    // The other pieces are untouched.
    assert_eq!(damage(&g, Team::Red, 0, 7), 0);
    assert_eq!(damage(&g, Team::Blue, 7, 7), 0);
    for t in Team::ALL {
        assert_eq!(g.position().pieces(t).len(), 2);
    }
}

#[test]
fn a_jump_and_a_step_ending_together_collide() {
    // Red jumps (1,3)->(3,3) over (2,3); blue steps (4,4)->(3,3).
    let mut g = game(sim(&[(1, 3, 0), (2, 3, 0)], &[(4, 4, 0)]));
    let o = tick(&mut g, mv((1, 3), &[(3, 3)]), mv((4, 4), &[(3, 3)]));
    assert_eq!(o.collisions, vec![sq(3, 3)]);
    assert_eq!(damage(&g, Team::Red, 3, 3), 5);
    assert_eq!(damage(&g, Team::Blue, 3, 3), 5);
}

#[test]
fn a_repeat_collision_resets_the_damage_to_5() {
    // Already damaged pieces collide: 5, not their damage lowered or added to.
    let mut g = game(sim(&[(2, 4, 3)], &[(4, 4, 1)]));
    let o = tick(&mut g, mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]));
    assert_eq!(o.collisions, vec![sq(3, 3)]);
    assert_eq!(damage(&g, Team::Red, 3, 3), 5);
    assert_eq!(damage(&g, Team::Blue, 3, 3), 5);
    // The collided pair steps off together and collides again: still 5.
    let o = tick(&mut g, mv((3, 3), &[(3, 2)]), mv((3, 3), &[(3, 2)]));
    assert_eq!(o.collisions, vec![sq(3, 2)]);
    assert_eq!(damage(&g, Team::Red, 3, 2), 5);
    assert_eq!(damage(&g, Team::Blue, 3, 2), 5);
    assert!(!g.position().is_occupied(sq(3, 3)));
}

#[test]
fn damage_drops_by_one_per_enacted_tick_and_not_on_other_ticks() {
    let mut g = game(sim(
        &[(0, 7, 0), (2, 4, 5), (4, 4, 1), (5, 5, 3)],
        &[(7, 7, 0), (2, 6, 2), (6, 3, 4)],
    ));
    let mut red = Shuttle::new((0, 7), (1, 7));
    let mut blue = Shuttle::new((7, 7), (6, 7));
    let expect = |g: &Game, r: [u8; 3], b: [u8; 2]| {
        assert_eq!(
            [
                damage(g, Team::Red, 2, 4),
                damage(g, Team::Red, 4, 4),
                damage(g, Team::Red, 5, 5)
            ],
            r,
            "red at turn {}",
            g.turn()
        );
        assert_eq!(
            [damage(g, Team::Blue, 2, 6), damage(g, Team::Blue, 6, 3)],
            b,
            "blue at turn {}",
            g.turn()
        );
    };
    expect(&g, [5, 1, 3], [2, 4]);
    tick(&mut g, red.next(), blue.next());
    expect(&g, [4, 0, 2], [1, 3]);
    // Not enacted: a missing move, an invalid move.
    let o = tick(&mut g, none(), mv((7, 7), &[(7, 6)]));
    assert!(o.moves.is_empty());
    expect(&g, [4, 0, 2], [1, 3]);
    let o = tick(&mut g, mv((1, 7), &[(1, 5)]), mv((6, 7), &[(7, 7)]));
    assert!(o.moves.is_empty());
    expect(&g, [4, 0, 2], [1, 3]);
    let o = tick(&mut g, red.next(), blue.next());
    assert_eq!(o.moves.len(), 2);
    expect(&g, [3, 0, 1], [0, 2]);
    // The outcome lists every damaged piece after the tick.
    assert_eq!(o.damaged.len(), 3);
    for _ in 0..3 {
        tick(&mut g, red.next(), blue.next());
    }
    expect(&g, [0, 0, 0], [0, 0]);
    let o = tick(&mut g, red.next(), blue.next());
    assert!(o.damaged.is_empty());
    expect(&g, [0, 0, 0], [0, 0]);
}

#[test]
fn a_damaged_piece_steps_but_jumps_only_after_five_enacted_ticks() {
    // Red (2,4) and blue (4,4) collide on (3,3); red's (4,3) is then a piece to jump over from (3,3).
    let mut g = game(sim(
        &[(2, 4, 0), (4, 3, 0), (0, 7, 0)],
        &[(4, 4, 0), (7, 7, 0)],
    ));
    tick(&mut g, mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]));
    assert_eq!(damage(&g, Team::Red, 3, 3), 5);
    let jump = path((3, 3), &[(5, 3)]);
    let mut red = Shuttle::new((0, 7), (1, 7));
    let mut blue = Shuttle::new((7, 7), (6, 7));
    for left in (1..=5u8).rev() {
        assert_eq!(damage(&g, Team::Red, 3, 3), left);
        assert_eq!(
            g.position().check(Team::Red, &jump),
            Err(MoveError::DamagedJump {
                at: sq(3, 3),
                damage: left
            })
        );
        // The jump is refused (and the refused tick heals nothing) ...
        let o = tick(&mut g, Answer::Move(jump.clone()), mv((7, 7), &[(7, 6)]));
        assert!(o.moves.is_empty());
        let e = error_of(&o, Team::Red);
        assert_eq!(e.code, "damaged_jump");
        assert!(e.message.contains("(3,3)") && e.message.contains(&format!("({left})")));
        assert_eq!(damage(&g, Team::Red, 3, 3), left);
        // ... while an enacted tick does.
        let o = tick(&mut g, red.next(), blue.next());
        assert_eq!(o.moves.len(), 2, "{:?}", o.errors);
    }
    assert_eq!(damage(&g, Team::Red, 3, 3), 0);
    assert_eq!(damage(&g, Team::Blue, 3, 3), 0);
    let o = tick(&mut g, Answer::Move(jump), blue.next());
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert!(piece(&g, Team::Red, 5, 3).is_some());
}

#[test]
fn a_damaged_piece_may_step() {
    let mut g = game(sim(&[(3, 3, 5), (4, 3, 0)], &[(6, 6, 2)]));
    let o = tick(&mut g, mv((3, 3), &[(2, 2)]), mv((6, 6), &[(6, 5)]));
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert_eq!(damage(&g, Team::Red, 2, 2), 4);
    assert_eq!(damage(&g, Team::Blue, 6, 5), 1);
}

#[test]
fn a_collided_square_is_occupied_for_jumping_over_and_for_landing() {
    // Red and blue share (3,3) after a collision.
    let v = sim(
        &[(3, 3, 5), (2, 3, 0), (4, 4, 0), (3, 1, 0)],
        &[(3, 3, 5), (3, 2, 0), (7, 7, 0)],
    );
    let g = game(v.clone());
    let p = g.position();
    assert!(p.is_shared(sq(3, 3)) && p.is_occupied(sq(3, 3)) && !p.is_empty(sq(3, 3)));
    // Jump over it.
    assert_eq!(
        p.check(Team::Red, &path((2, 3), &[(4, 3)])).map(|m| m.to),
        Ok(sq(4, 3))
    );
    // Land on it by a step or a jump.
    for (from, to) in [((4, 4), &[(3, 3)][..]), ((3, 1), &[(3, 3)][..])] {
        assert_eq!(
            p.check(Team::Red, &path(from, to)),
            Err(MoveError::Occupied { at: sq(3, 3) })
        );
    }
    assert!(!p.moves(Team::Red).iter().any(|m| m.to == sq(3, 3)));
    // Through the referee.
    let mut g = game(v);
    let o = tick(&mut g, mv((2, 3), &[(4, 3)]), mv((7, 7), &[(7, 6)]));
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    let o = tick(&mut g, mv((4, 4), &[(3, 3)]), mv((7, 6), &[(7, 7)]));
    assert_eq!(error_of(&o, Team::Red).code, "occupied");
}

#[test]
fn chains_crossing_an_intermediate_square_do_not_collide() {
    // Both chains pass (3,3): red (1,1)->(3,3)->(5,5), blue (5,1)->(3,3)->(1,5).
    let mut g = game(sim(
        &[(1, 1, 0), (2, 2, 0), (4, 4, 0)],
        &[(5, 1, 0), (4, 2, 0), (2, 4, 0)],
    ));
    let o = tick(
        &mut g,
        mv((1, 1), &[(3, 3), (5, 5)]),
        mv((5, 1), &[(3, 3), (1, 5)]),
    );
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert!(o.collisions.is_empty());
    assert!(o.damaged.is_empty());
    assert_eq!(damage(&g, Team::Red, 5, 5), 0);
    assert_eq!(damage(&g, Team::Blue, 1, 5), 0);
    assert!(!g.position().is_occupied(sq(3, 3)));
}

#[test]
fn a_chain_passing_the_other_teams_final_square_does_not_collide() {
    // Red steps to (3,3); blue's chain passes through (3,3) to (1,5).
    let mut g = game(sim(&[(2, 3, 0)], &[(5, 1, 0), (4, 2, 0), (2, 4, 0)]));
    let o = tick(&mut g, mv((2, 3), &[(3, 3)]), mv((5, 1), &[(3, 3), (1, 5)]));
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert!(o.collisions.is_empty());
    assert_eq!(damage(&g, Team::Red, 3, 3), 0);
    assert_eq!(damage(&g, Team::Blue, 1, 5), 0);
}

// ---------------------------------------------------------------------------------------------------
// Winning and drawing

/// Red must fill (5,0), (6,0), (7,0); blue (0,0).
fn three_dest_game(red: Pcs, blue: Pcs) -> Value {
    let mut v = sim(red, blue);
    v["red"]["destinations"] = json!([{"x": 5, "y": 0}, {"x": 6, "y": 0}, {"x": 7, "y": 0}]);
    v
}

#[test]
fn filling_the_destinations_wins() {
    let mut g = game(three_dest_game(
        &[(5, 0, 0), (6, 0, 0), (7, 2, 0)],
        &[(3, 7, 0)],
    ));
    // Not yet: (7,0) is empty.
    let o = tick(&mut g, mv((7, 2), &[(7, 1)]), mv((3, 7), &[(3, 6)]));
    assert_eq!(o.result, None);
    let o = tick(&mut g, mv((7, 1), &[(7, 0)]), mv((3, 6), &[(3, 5)]));
    let won = GameResult::Win { winner: Team::Red };
    assert_eq!(o.result, Some(won));
    assert_eq!(g.result(), Some(won));
    assert_eq!(won.winner(), Some(Team::Red));
    assert!(won.to_string().contains("HALMATE") && won.to_string().contains("red"));
    assert!(g.movers().is_empty());
    assert!(g.position().has_won(Team::Red));
    assert!(!g.position().has_won(Team::Blue));
}

#[test]
fn enemy_held_destinations_are_exempt_but_one_own_piece_is_needed() {
    // Blue spoils (7,0); red fills the other two and wins.
    let mut g = game(three_dest_game(
        &[(5, 0, 0), (6, 1, 0), (2, 6, 0)],
        &[(7, 0, 0), (3, 7, 0)],
    ));
    assert!(!g.position().has_won(Team::Red));
    let o = tick(&mut g, mv((6, 1), &[(6, 0)]), mv((3, 7), &[(3, 6)]));
    assert_eq!(o.result, Some(GameResult::Win { winner: Team::Red }));

    // Blue holds all three: red has no piece there, so no win however long it waits.
    let mut g = game(three_dest_game(
        &[(2, 6, 0)],
        &[(5, 0, 0), (6, 0, 0), (7, 0, 0), (3, 7, 0)],
    ));
    assert!(!g.position().has_won(Team::Red));
    let o = tick(&mut g, mv((2, 6), &[(2, 5)]), mv((3, 7), &[(3, 6)]));
    assert_eq!(o.result, None);
    assert_eq!(g.result(), None);
}

#[test]
fn a_collision_on_the_last_destination_square_counts_as_filling_it() {
    // The engine's reading: a square holding both teams "holds one of its own pieces" for both.
    let mut g = game(three_dest_game(
        &[(5, 0, 0), (6, 0, 0), (7, 2, 0)],
        &[(6, 2, 0)],
    ));
    tick(&mut g, mv((7, 2), &[(7, 1)]), mv((6, 2), &[(6, 1)]));
    let o = tick(&mut g, mv((7, 1), &[(7, 0)]), mv((6, 1), &[(7, 0)]));
    assert_eq!(o.collisions, vec![sq(7, 0)]);
    assert_eq!(o.result, Some(GameResult::Win { winner: Team::Red }));
}

#[test]
fn both_finishing_on_one_tick_is_a_draw() {
    let mut g = game(sim(&[(6, 1, 0), (4, 4, 0)], &[(1, 1, 0), (5, 5, 0)]));
    let o = tick(&mut g, mv((6, 1), &[(7, 0)]), mv((1, 1), &[(0, 0)]));
    assert_eq!(o.result, Some(GameResult::BothFinished));
    assert_eq!(GameResult::BothFinished.winner(), None);
    assert!(GameResult::BothFinished.to_string().contains("draw"));
    assert_eq!(
        g.tick(none(), none()),
        Err(TickRefused::GameOver(GameResult::BothFinished))
    );
}

#[test]
fn the_turn_limit_ends_the_game_as_a_draw() {
    let mut v = sim(&[(2, 4, 0)], &[(4, 4, 0)]);
    v["turnLimit"] = json!(3);
    let mut g = game(v.clone());
    assert_eq!(g.turn_limit(), 3);
    assert_eq!(
        tick(&mut g, mv((2, 4), &[(2, 3)]), mv((4, 4), &[(4, 3)])).result,
        None
    );
    assert_eq!(tick(&mut g, none(), none()).result, None);
    // The limit is reached on a tick whose moves are not enacted, too.
    let o = tick(&mut g, none(), mv((4, 3), &[(4, 2)]));
    assert_eq!(o.result, Some(GameResult::TurnLimit));
    assert_eq!(g.result(), Some(GameResult::TurnLimit));
    assert!(GameResult::TurnLimit.to_string().contains("draw"));
    assert_eq!(g.turn(), 3);

    // A win on the last tick is a win, not a draw.
    let mut v = sim(&[(6, 1, 0)], &[(4, 4, 0)]);
    v["turnLimit"] = json!(1);
    let mut g = game(v);
    let o = tick(&mut g, mv((6, 1), &[(7, 0)]), mv((4, 4), &[(4, 3)]));
    assert_eq!(o.result, Some(GameResult::Win { winner: Team::Red }));
}

#[test]
fn a_finished_game_refuses_ticks() {
    let mut v = sim(&[(2, 4, 0)], &[(4, 4, 0)]);
    v["turnLimit"] = json!(1);
    let mut g = game(v);
    tick(&mut g, none(), none());
    let before = g.clone();
    let refused = g.tick(mv((2, 4), &[(2, 3)]), mv((4, 4), &[(4, 3)]));
    assert_eq!(refused, Err(TickRefused::GameOver(GameResult::TurnLimit)));
    assert!(refused.unwrap_err().to_string().contains("over"));
    assert_eq!(g, before, "a refused tick changed the game");
    assert_eq!(g.turn(), 1);

    // A recorded finished game refuses too.
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

// ---------------------------------------------------------------------------------------------------
// Alternating presets

/// A seed whose classic/mini game starts with `team`.
fn seed_for(team: Team) -> u64 {
    (0..).find(|&s| Rules::first_mover(s) == team).unwrap()
}

#[test]
fn alternating_only_the_side_to_move_may_move() {
    for preset in [Preset::Classic, Preset::Mini] {
        let mut g = Game::new(&preset.rules(), seed_for(Team::Red)).unwrap();
        assert_eq!(g.mode(), Mode::Alternating);
        assert_eq!(g.to_move(), Some(Team::Red));
        assert_eq!(g.movers(), vec![Team::Red]);
        let before = g.clone();
        let (red_move, blue_move) = match preset {
            Preset::Classic => (mv((2, 3), &[(3, 3)]), mv((11, 14), &[(10, 13)])),
            _ => (mv((1, 2), &[(2, 2)]), mv((4, 7), &[(3, 7)])),
        };
        assert_eq!(
            g.tick(none(), blue_move.clone()),
            Err(TickRefused::NotYourTurn(Team::Blue))
        );
        assert_eq!(
            g.tick(red_move.clone(), blue_move.clone()),
            Err(TickRefused::NotYourTurn(Team::Blue))
        );
        assert!(TickRefused::NotYourTurn(Team::Blue)
            .to_string()
            .contains("blue"));
        assert_eq!(g, before, "a refused tick changed the game");
        let o = g.play(Team::Red, red_move).unwrap();
        assert!(o.errors.is_empty(), "{preset}: {:?}", o.errors);
        assert_eq!(o.movers, vec![Team::Red]);
        assert_eq!(o.moves.len(), 1);
        assert_eq!(g.to_move(), Some(Team::Blue));
        assert_eq!(
            g.play(Team::Red, mv((2, 2), &[(3, 3)])),
            Err(TickRefused::NotYourTurn(Team::Red))
        );
        let o = g.play(Team::Blue, blue_move).unwrap();
        assert!(o.errors.is_empty(), "{preset}: {:?}", o.errors);
        assert_eq!(g.to_move(), Some(Team::Red));
        assert_eq!(g.turn(), 2);
    }
}

#[test]
fn the_first_mover_is_drawn_from_the_seed() {
    for preset in [Preset::Classic, Preset::Mini] {
        let firsts: Vec<Team> = (0..32)
            .map(|s| Game::new(&preset.rules(), s).unwrap().to_move().unwrap())
            .collect();
        assert!(
            firsts.contains(&Team::Red) && firsts.contains(&Team::Blue),
            "{preset}: {firsts:?}"
        );
        for (s, &t) in firsts.iter().enumerate() {
            let again = Game::new(&preset.rules(), s as u64).unwrap();
            assert_eq!(again.to_move(), Some(t), "seed {s} is not reproducible");
            assert_eq!(Rules::first_mover(s as u64), t);
        }
    }
    // The arena has no side to move.
    assert_eq!(
        Game::new(&Preset::Arena.rules(), 1).unwrap().to_move(),
        None
    );
}

#[test]
fn the_turn_passes_when_the_movers_move_is_missing_or_invalid() {
    let mut g = Game::new(&Preset::Mini.rules(), seed_for(Team::Blue)).unwrap();
    let start = g.position().clone();
    let o = g.play(Team::Blue, none()).unwrap();
    assert_eq!(o.errors.len(), 1);
    assert_eq!(error_of(&o, Team::Blue).code, "missing");
    assert_eq!(g.to_move(), Some(Team::Red));
    // Red's answer is invalid: it loses its turn.
    let o = g.play(Team::Red, mv((0, 0), &[(1, 1)])).unwrap();
    assert_eq!(error_of(&o, Team::Red).code, "occupied");
    assert!(o.moves.is_empty());
    assert_eq!(g.to_move(), Some(Team::Blue));
    assert_eq!(g.turn(), 2);
    assert_eq!(g.position(), &start);
    // The team not asked is never reported, whatever it "answered".
    let o = g
        .tick(Answer::NoMove(NoMove::TimedOut { after_ms: 5 }), none())
        .unwrap();
    assert_eq!(o.errors.len(), 1);
    assert_eq!(o.errors[0].team, Team::Blue);
}

/// An alternating 8x8 game with the camp rule; red's destination is the bottom-right 2x2 corner.
fn camp_game(camp_rule: bool) -> Game {
    game(json!({
        "boardSize": 8,
        "mode": "alternating",
        "campRule": camp_rule,
        "turnLimit": 1000,
        "turn": 0,
        "toMove": "red",
        "red": {
            "pieces": pieces_json(&[(6, 6, 0), (7, 7, 0), (5, 6, 0), (2, 2, 0)]),
            "destinations": [{"x": 6, "y": 6}, {"x": 7, "y": 6}, {"x": 6, "y": 7}, {"x": 7, "y": 7}],
        },
        "blue": {
            "pieces": pieces_json(&[(0, 0, 0), (4, 4, 0)]),
            "destinations": [{"x": 0, "y": 1}],
        },
    }))
}

#[test]
fn the_camp_rule_refuses_leaving_the_opposing_camp() {
    let g = camp_game(true);
    let p = g.position();
    let out = path((6, 6), &[(6, 5)]);
    let err = p.check(Team::Red, &out).unwrap_err();
    assert_eq!(
        err,
        MoveError::LeavesCamp {
            from: sq(6, 6),
            to: sq(6, 5)
        }
    );
    assert_eq!(err.code(), "leaves_camp");
    assert!(err.to_string().contains("(6,6)") && err.to_string().contains("(6,5)"));
    // A jump out of the camp, over a piece outside it.
    assert!(matches!(
        p.check(Team::Red, &path((6, 6), &[(4, 6)])),
        Err(MoveError::LeavesCamp { .. })
    ));
    let mut q = g.clone();
    let o = q.play(Team::Red, mv((6, 6), &[(7, 6)])).unwrap();
    assert!(
        o.errors.is_empty(),
        "moving inside the camp: {:?}",
        o.errors
    );
    // A piece outside the camp may enter it, and move anywhere.
    assert!(p.check(Team::Red, &path((5, 6), &[(6, 7)])).is_ok());
    assert!(p.check(Team::Red, &path((5, 6), &[(4, 5)])).is_ok());
    assert!(!p
        .moves(Team::Red)
        .iter()
        .any(|m| m.from == sq(6, 6) && !p.is_destination(Team::Red, m.to)));
    // Through the referee.
    let mut q = g.clone();
    let o = q.play(Team::Red, Answer::Move(out.clone())).unwrap();
    assert_eq!(error_of(&o, Team::Red).code, "leaves_camp");
    // Without the camp rule (the arena's setting) the piece may leave.
    let free = camp_game(false);
    assert_eq!(
        free.position().check(Team::Red, &out).map(|m| m.to),
        Ok(sq(6, 5))
    );
}

#[test]
fn the_mini_presets_camp_rule_applies() {
    // Blue's camp (red's destination) on the mini board is x + y > 10; put a red piece on (7,4) in it.
    let mut v = serde_json::to_value(
        Game::new(&Preset::Mini.rules(), seed_for(Team::Red))
            .unwrap()
            .state(),
    )
    .unwrap();
    assert_eq!(v["campRule"], json!(true));
    let blue = v["blue"]["pieces"].as_array_mut().unwrap();
    blue.retain(|p| p != &json!({"x": 7, "y": 4, "damage": 0}));
    assert_eq!(blue.len(), 9);
    v["red"]["pieces"][0] = json!({"x": 7, "y": 4, "damage": 0});
    let mut g = game(v);
    for out in [(7, 3), (6, 4), (6, 3)] {
        assert_eq!(
            g.position().check(Team::Red, &path((7, 4), &[out])),
            Err(MoveError::LeavesCamp {
                from: sq(7, 4),
                to: sq(out.0 as u8, out.1 as u8)
            })
        );
    }
    let o = g.play(Team::Red, mv((7, 4), &[(7, 3)])).unwrap();
    assert_eq!(error_of(&o, Team::Red).code, "leaves_camp");
    assert!(o.moves.is_empty());
    assert_eq!(g.to_move(), Some(Team::Blue));
}

#[test]
fn only_the_final_square_counts_for_the_camp_rule() {
    // Red's camp holds (7,7) and (7,3); the chain (7,7) -> (7,5) -> (7,3) passes outside it.
    let g = game(json!({
        "boardSize": 8, "mode": "alternating", "campRule": true, "turnLimit": 1000, "turn": 0,
        "toMove": "red",
        "red": {
            "pieces": pieces_json(&[(7, 7, 0), (7, 6, 0), (7, 4, 0)]),
            "destinations": [{"x": 7, "y": 7}, {"x": 7, "y": 3}, {"x": 6, "y": 7}],
        },
        "blue": {"pieces": pieces_json(&[(0, 0, 0)]), "destinations": [{"x": 0, "y": 1}]},
    }));
    let p = g.position();
    assert_eq!(
        p.check(Team::Red, &path((7, 7), &[(7, 5), (7, 3)]))
            .map(|m| m.to),
        Ok(sq(7, 3))
    );
    assert_eq!(
        p.check(Team::Red, &path((7, 7), &[(7, 5)])),
        Err(MoveError::LeavesCamp {
            from: sq(7, 7),
            to: sq(7, 5)
        })
    );
    let moves = p.moves_from(Team::Red, sq(7, 7));
    assert!(moves.iter().any(|m| m.to == sq(7, 3)), "{moves:?}");
    assert!(!moves.iter().any(|m| m.to == sq(7, 5)), "{moves:?}");
}

// ---------------------------------------------------------------------------------------------------
// One test per move error

/// 8x8: red at (3,3), (4,3), (1,1) damaged 3, (2,1); blue at (3,5), (5,5), (5,3).
fn errors_game() -> Game {
    game(sim(
        &[(3, 3, 0), (4, 3, 0), (1, 1, 3), (2, 1, 0)],
        &[(3, 5, 0), (5, 5, 0), (5, 3, 0)],
    ))
}

fn check(p: (i64, i64), to: &[(i64, i64)]) -> MoveError {
    let g = errors_game();
    let e = g
        .position()
        .check(Team::Red, &path(p, to))
        .expect_err("an illegal move");
    // The same error, code and message through the referee.
    let mut g2 = g.clone();
    let o = tick(&mut g2, mv(p, to), mv((5, 5), &[(6, 6)]));
    let te = error_of(&o, Team::Red);
    assert_eq!(te.code, e.code());
    assert_eq!(te.message, e.to_string());
    assert!(o.moves.is_empty());
    e
}

fn assert_names(e: &MoveError, code: &str, words: &[&str]) {
    assert_eq!(e.code(), code, "{e:?}");
    let msg = e.to_string();
    for w in words {
        assert!(msg.contains(w), "{code}: {msg:?} does not name {w}");
    }
}

#[test]
fn error_no_piece_at_from() {
    let e = check((0, 0), &[(0, 1)]);
    assert_eq!(
        e,
        MoveError::NoPiece {
            team: Team::Red,
            at: sq(0, 0)
        }
    );
    assert_names(&e, "no_piece", &["red", "(0,0)"]);
    // A blue piece is not red's.
    let e = check((3, 5), &[(3, 6)]);
    assert_names(&e, "no_piece", &["red", "(3,5)"]);
}

#[test]
fn error_off_board() {
    let e = check((3, 3), &[(3, 2), (3, 8)]);
    assert_eq!(
        e,
        MoveError::OffBoard {
            point: Point { x: 3, y: 8 },
            size: 8
        }
    );
    assert_names(&e, "off_board", &["(3,8)", "8x8"]);
    assert_names(&check((8, 3), &[(7, 3)]), "off_board", &["(8,3)"]);
    assert_names(&check((3, 3), &[(-1, 2)]), "off_board", &["(-1,2)"]);
    assert_names(
        &check((3, 3), &[(i64::MAX, i64::MIN)]),
        "off_board",
        &[&i64::MAX.to_string(), &i64::MIN.to_string()],
    );
}

#[test]
fn error_landing_occupied() {
    // A step onto a piece.
    let e = check((3, 3), &[(4, 3)]);
    assert_eq!(e, MoveError::Occupied { at: sq(4, 3) });
    assert_names(&e, "occupied", &["(4,3)"]);
    // A jump onto a piece: (3,3) over (4,3) onto blue's (5,3).
    let e = check((3, 3), &[(5, 3)]);
    assert_eq!(e, MoveError::Occupied { at: sq(5, 3) });
    assert_names(&e, "occupied", &["(5,3)"]);
    // The moving piece's own start square counts as occupied in the middle of a chain.
    let e = check((4, 3), &[(2, 3), (4, 3), (6, 3)]);
    assert_eq!(e, MoveError::Occupied { at: sq(4, 3) });
}

#[test]
fn error_jump_over_empty() {
    let e = check((3, 3), &[(3, 1)]);
    assert_eq!(
        e,
        MoveError::OverEmpty {
            from: sq(3, 3),
            to: sq(3, 1),
            over: sq(3, 2)
        }
    );
    assert_names(&e, "jump_over_empty", &["(3,3)", "(3,1)", "(3,2)"]);
}

#[test]
fn error_not_exactly_two_squares() {
    for (to, at) in [((6, 3), "(6,3)"), ((5, 4), "(5,4)"), ((3, 6), "(3,6)")] {
        let e = check((3, 3), &[to]);
        assert_eq!(
            e,
            MoveError::NotAJump {
                from: sq(3, 3),
                to: Square::new(to.0 as u8, to.1 as u8).unwrap()
            }
        );
        assert_names(&e, "not_a_jump", &["(3,3)", at]);
    }
    // Zero length hop.
    assert_names(&check((3, 3), &[(3, 3)]), "not_a_jump", &["(3,3)"]);
}

#[test]
fn error_step_mixed_with_jumps() {
    // A step, then a jump.
    let e = check((3, 3), &[(3, 2), (3, 0)]);
    assert_eq!(
        e,
        MoveError::StepMixedWithJumps {
            from: sq(3, 3),
            to: sq(3, 2)
        }
    );
    assert_names(&e, "step_mixed_with_jumps", &["(3,3)", "(3,2)"]);
    // A jump, then a step: (4,3) over (3,3) to (2,3), then step to (2,2).
    let e = check((4, 3), &[(2, 3), (2, 2)]);
    assert_names(&e, "step_mixed_with_jumps", &["(2,3)", "(2,2)"]);
}

#[test]
fn error_damaged_jumping() {
    // (1,1) has damage 3; (2,1) is next to it and (3,1) is empty.
    let e = check((1, 1), &[(3, 1)]);
    assert_eq!(
        e,
        MoveError::DamagedJump {
            at: sq(1, 1),
            damage: 3
        }
    );
    assert_names(&e, "damaged_jump", &["(1,1)", "3"]);
}

#[test]
fn error_empty_to() {
    let e = check((3, 3), &[]);
    assert_eq!(e, MoveError::EmptyTo);
    assert_names(&e, "empty_to", &["\"to\""]);
}

#[test]
fn error_returns_to_start() {
    // (4,3) jumps over (3,3) to (2,3) and back.
    let e = check((4, 3), &[(2, 3), (4, 3)]);
    assert_eq!(e, MoveError::ReturnsToStart { at: sq(4, 3) });
    assert_names(&e, "returns_to_start", &["(4,3)"]);
}

#[test]
fn error_leaves_camp() {
    let g = camp_game(true);
    let e = g
        .position()
        .check(Team::Red, &path((7, 7), &[(6, 7), (5, 7)]))
        .unwrap_err();
    // A step inside a chain is reported before the camp rule; a plain step out is the camp error.
    assert_eq!(e.code(), "step_mixed_with_jumps");
    let e = g
        .position()
        .check(Team::Red, &path((6, 6), &[(5, 5)]))
        .unwrap_err();
    assert_names(&e, "leaves_camp", &["(6,6)", "(5,5)"]);
}

// ---------------------------------------------------------------------------------------------------
// The game-state format

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
            tick(&mut g, red, blue);
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
    tick(&mut g, mv((2, 4), &[(3, 3)]), mv((4, 4), &[(3, 3)]));
    tick(&mut g, mv((6, 1), &[(7, 0)]), mv((1, 1), &[(1, 2)]));
    assert!(g.result().is_some());
    let text = serde_json::to_string(&g.state()).unwrap();
    let back = Game::from_state(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(back, g);
    assert_eq!(damage(&back, Team::Red, 3, 3), 4);
}

fn setup_err(v: Value) -> SetupError {
    let s: GameState = serde_json::from_value(v.clone()).expect("well-formed JSON for the type");
    Game::from_state(&s).expect_err(&format!("accepted {v}"))
}

#[test]
fn from_state_rejects_malformed_states() {
    let arena =
        serde_json::to_value(Game::new(&Preset::Arena.rules(), 0).unwrap().state()).unwrap();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = arena.clone();
        f(&mut v);
        v
    };

    let e = setup_err(with(&|v| {
        v["red"]["pieces"][0] = json!({"x": 20, "y": 15, "damage": 0})
    }));
    assert!(
        matches!(&e, SetupError::OffBoard { what, x: 20, y: 15, size: 18 } if what == "red piece"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "red piece at (20,15) is off the 18x18 board");

    let e = setup_err(with(&|v| v["blue"]["pieces"][3] = json!({"x": -1, "y": 0})));
    assert!(matches!(e, SetupError::OffBoard { x: -1, .. }), "{e:?}");

    let e = setup_err(with(&|v| {
        v["blue"]["destinations"][0] = json!({"x": 0, "y": 18})
    }));
    assert!(
        e.to_string().contains("blue destination") && e.to_string().contains("(0,18)"),
        "{e}"
    );

    let e = setup_err(with(&|v| {
        v["red"]["pieces"][1] = v["red"]["pieces"][0].clone()
    }));
    assert!(
        matches!(
            e,
            SetupError::Stacked {
                team: Team::Red,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("two red pieces"), "{e}");

    let e = setup_err(with(&|v| v["red"]["pieces"][0]["damage"] = json!(9)));
    assert!(
        matches!(
            e,
            SetupError::Damage {
                team: Team::Red,
                damage: 9,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().contains('9') && e.to_string().contains("0 to 5"),
        "{e}"
    );
    let e = setup_err(with(&|v| v["blue"]["pieces"][0]["damage"] = json!(-1)));
    assert!(matches!(e, SetupError::Damage { damage: -1, .. }), "{e:?}");
    let e = setup_err(with(&|v| v["blue"]["pieces"][0]["damage"] = json!(256 + 2)));
    assert!(matches!(e, SetupError::Damage { damage: 258, .. }), "{e:?}");

    for size in [99, 3, 0, -5, 256 + 18, 33] {
        let e = setup_err(with(&|v| v["boardSize"] = json!(size)));
        assert_eq!(e, SetupError::BoardSize(size), "size {size}");
        assert!(e.to_string().contains(&size.to_string()));
    }

    let e = setup_err(with(&|v| v["mode"] = json!("alternating")));
    assert_eq!(e, SetupError::MissingToMove);
    assert!(e.to_string().contains("toMove"), "{e}");
    let e = setup_err(with(&|v| v["toMove"] = json!("red")));
    assert_eq!(e, SetupError::UnexpectedToMove);
    assert!(e.to_string().contains("toMove"), "{e}");

    let e = setup_err(with(&|v| v["turnLimit"] = json!(0)));
    assert!(e.to_string().contains("turn limit"), "{e}");
    let e = setup_err(with(&|v| {
        v["turnLimit"] = json!(10);
        v["turn"] = json!(10);
    }));
    assert!(e.to_string().contains("turn limit"), "{e}");
    let e = setup_err(with(&|v| v["version"] = json!(2)));
    assert!(e.to_string().contains("version 2"), "{e}");

    let e = setup_err(with(&|v| v["blue"]["pieces"] = json!([])));
    assert_eq!(e, SetupError::NoPieces(Team::Blue));
    let e = setup_err(with(&|v| v["red"]["destinations"] = json!([])));
    assert_eq!(e, SetupError::NoDestinations(Team::Red));
    let e = setup_err(with(&|v| {
        v["red"]["destinations"][1] = v["red"]["destinations"][0].clone()
    }));
    assert!(
        matches!(
            e,
            SetupError::DuplicateDestination {
                team: Team::Red,
                ..
            }
        ),
        "{e:?}"
    );

    // Shapes serde refuses before the referee sees them.
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
    assert!(Game::from_state(&serde_json::from_value(arena).unwrap()).is_ok());
}

#[test]
fn new_refuses_overlapping_starts_and_a_zero_turn_limit() {
    let e = Game::new(&Rules::arena(5), 0).unwrap_err();
    assert_eq!(e, SetupError::StartsOverlap { square: sq(2, 1) });
    assert!(e.to_string().contains("both teams start on (2,1)"), "{e}");
    let mut r = Preset::Arena.rules();
    r.turn_limit = 0;
    assert!(Game::new(&r, 0).is_err());
    // Other sizes of the arena are fine.
    for size in [8, 12, 32] {
        let g = Game::new(&Rules::arena(size), 0).unwrap();
        assert_eq!(g.position().size(), size);
        assert_eq!(g.position().pieces(Team::Red).len(), 12);
    }
}
