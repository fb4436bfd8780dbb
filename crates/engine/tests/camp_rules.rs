//! The USC CSCI 561 course's camp rules ([`CampRules::Course`]), clause by clause, on the classic board:
//! red's own camp is the top-left corner (its corner (0,0)), its destinations the bottom-right camp.
//!
//! Every case checks that move generation and validation agree: each generated move's path checks, each
//! refused path's move is not generated, and `moves_from`, `count_moves` and `path` match `moves`.

use gridarena_engine::halma::{
    CampRules, Game, Move, MoveError, Path, Piece, Position, Preset, Rules, SetupError, Square,
    Team, Teams,
};
use std::collections::BTreeSet;

fn sq(x: u8, y: u8) -> Square {
    Square::new(x, y).unwrap()
}

/// The classic board with these pieces (no damage), its destinations, the seed's camp rule on.
fn classic(red: &[(u8, u8)], blue: &[(u8, u8)], rules: CampRules) -> Position {
    let dests = Preset::Classic.rules().destinations;
    let pieces = |v: &[(u8, u8)]| -> Vec<Piece> {
        v.iter()
            .map(|&(x, y)| Piece {
                square: sq(x, y),
                damage: 0,
            })
            .collect()
    };
    Position::new(
        16,
        true,
        Teams {
            red: pieces(red),
            blue: pieces(blue),
        },
        dests,
    )
    .and_then(|p| p.with_camp_rules(rules))
    .unwrap()
}

fn path(from: (u8, u8), to: &[(u8, u8)]) -> Path {
    Path::new(
        sq(from.0, from.1),
        to.iter().map(|&(x, y)| sq(x, y)).collect(),
    )
}

fn mv(from: (u8, u8), to: (u8, u8)) -> Move {
    Move {
        from: sq(from.0, from.1),
        to: sq(to.0, to.1),
    }
}

/// Generation and validation agree on every move of `team`.
fn assert_agree(pos: &Position, team: Team) {
    let moves = pos.moves(team);
    assert_eq!(pos.count_moves(team), moves.len());
    let mut per_piece = Vec::new();
    for p in pos.pieces(team) {
        per_piece.extend(pos.moves_from(team, p.square));
    }
    assert_eq!(per_piece, moves, "moves_from piece by piece");
    for &m in &moves {
        let p = pos.path(team, m).expect("a generated move has a path");
        assert_eq!(pos.check(team, &p), Ok(m), "path {p}");
    }
}

/// One case: the position, the legal moves of red (all of them), and refused paths with their codes.
struct Case {
    name: &'static str,
    pos: Position,
    legal: Vec<Move>,
    accepted: Vec<Path>,
    refused: Vec<(Path, &'static str)>,
}

fn cases() -> Vec<Case> {
    let c = CampRules::Course;
    vec![
        Case {
            // Rule 1: (6,1) jumps over (5,1) to (4,1) and over (3,2) to (2,3), both in red's camp, then
            // over (2,4) to (2,5), outside it. Only the final square counts.
            name: "a jump chain through the own camp",
            pos: classic(&[(6, 1)], &[(5, 1), (3, 2), (2, 4)], c),
            legal: vec![
                mv((6, 1), (5, 0)),
                mv((6, 1), (7, 0)),
                mv((6, 1), (7, 1)),
                mv((6, 1), (5, 2)),
                mv((6, 1), (6, 2)),
                mv((6, 1), (7, 2)),
                mv((6, 1), (6, 0)),
                mv((6, 1), (2, 5)),
            ],
            accepted: vec![path((6, 1), &[(4, 1), (2, 3), (2, 5)])],
            refused: vec![
                (path((6, 1), &[(4, 1)]), "enters_own_camp"),
                (path((6, 1), &[(4, 1), (2, 3)]), "enters_own_camp"),
            ],
        },
        Case {
            // Rule 2, first kind: (4,0) can step out to (5,0) or (5,1), so only those are legal.
            name: "a camp piece that can leave",
            pos: classic(&[(4, 0), (8, 8)], &[(15, 15)], c),
            legal: vec![mv((4, 0), (5, 0)), mv((4, 0), (5, 1))],
            accepted: vec![path((4, 0), &[(5, 1)])],
            refused: vec![
                (path((4, 0), &[(3, 0)]), "must_leave_camp"),
                (path((4, 0), &[(4, 1)]), "must_leave_camp"),
                (path((8, 8), &[(8, 9)]), "must_leave_camp"),
            ],
        },
        Case {
            // A chain that goes out of the camp and back in does not leave it: (3,0) over (4,0) to
            // (5,0) leaves, over (4,1) back to (3,2) does not, though (3,2) is further from the corner.
            name: "a chain out of the camp and back in",
            pos: classic(&[(3, 0)], &[(4, 0), (4, 1)], c),
            legal: vec![mv((3, 0), (5, 0)), mv((3, 0), (5, 2))],
            accepted: vec![path((3, 0), &[(5, 0)]), path((3, 0), &[(5, 2)])],
            refused: vec![
                (path((3, 0), &[(5, 0), (3, 2)]), "must_leave_camp"),
                (path((3, 0), &[(2, 1)]), "must_leave_camp"),
            ],
        },
        Case {
            // Rule 2, second kind: (1,0) cannot leave in one move, but it can go further from (0,0).
            // (0,0) is closer; (0,1) is sideways (closer in x, further in y); the piece outside waits.
            name: "no camp piece can leave, one can go further from the corner",
            pos: classic(&[(1, 0), (8, 8)], &[(15, 15)], c),
            legal: vec![mv((1, 0), (2, 0)), mv((1, 0), (1, 1)), mv((1, 0), (2, 1))],
            accepted: vec![path((1, 0), &[(2, 1)])],
            refused: vec![
                (path((1, 0), &[(0, 0)]), "must_move_away_from_corner"),
                (path((1, 0), &[(0, 1)]), "must_move_away_from_corner"),
                (path((8, 8), &[(9, 9)]), "must_move_away_from_corner"),
            ],
        },
        Case {
            // Neither kind: (4,0) is walled in by blue but for (3,0) (closer) and (3,1) (closer in x),
            // so every move the other rules allow is legal, still under rule 1: (3,3) may not step into
            // the camp. (4,0) jumping over (4,1) would land on (4,2), which is blue's.
            name: "every camp move blocked: free",
            pos: classic(
                &[(4, 0), (3, 3)],
                &[(5, 0), (5, 1), (6, 0), (6, 2), (4, 1), (4, 2)],
                c,
            ),
            legal: vec![
                mv((4, 0), (3, 0)),
                mv((4, 0), (3, 1)),
                mv((3, 3), (4, 3)),
                mv((3, 3), (2, 4)),
                mv((3, 3), (3, 4)),
                mv((3, 3), (4, 4)),
                mv((3, 3), (5, 1)),
            ]
            .into_iter()
            .filter(|m| m.to != sq(5, 1))
            .collect(),
            accepted: vec![path((4, 0), &[(3, 0)]), path((3, 3), &[(4, 4)])],
            refused: vec![
                (path((3, 3), &[(2, 3)]), "enters_own_camp"),
                (path((3, 3), &[(2, 2)]), "enters_own_camp"),
                (path((3, 3), &[(3, 2)]), "enters_own_camp"),
            ],
        },
        Case {
            // The seed's camp rule stays: red's (12,13) stands in its destination and may not leave it.
            name: "the seed's camp rule under the course's",
            pos: classic(&[(12, 13)], &[(0, 15)], c),
            legal: vec![
                mv((12, 13), (13, 12)),
                mv((12, 13), (13, 13)),
                mv((12, 13), (12, 14)),
                mv((12, 13), (13, 14)),
                mv((12, 13), (11, 14)),
            ],
            accepted: vec![path((12, 13), &[(13, 13)])],
            refused: vec![(path((12, 13), &[(11, 13)]), "leaves_camp")],
        },
    ]
}

#[test]
fn each_clause_with_its_priority_and_edges() {
    for case in cases() {
        let pos = &case.pos;
        assert_eq!(pos.camp_rules(), CampRules::Course);
        assert_agree(pos, Team::Red);
        assert_agree(pos, Team::Blue);
        let got: BTreeSet<Move> = pos.moves(Team::Red).into_iter().collect();
        let want: BTreeSet<Move> = case.legal.iter().copied().collect();
        assert_eq!(got, want, "{}: red's legal moves", case.name);
        for p in &case.accepted {
            assert!(
                pos.check(Team::Red, p).is_ok(),
                "{}: {p} is legal",
                case.name
            );
        }
        for (p, code) in &case.refused {
            let err = pos.check(Team::Red, p).unwrap_err();
            assert_eq!(err.code(), *code, "{}: {p}: {err}", case.name);
            let (from, to) = (
                sq(p.from.x as u8, p.from.y as u8),
                sq(p.to.last().unwrap().x as u8, p.to.last().unwrap().y as u8),
            );
            assert!(
                !got.contains(&Move { from, to }),
                "{}: {p} is generated",
                case.name
            );
            // The example a rule-2 error names is a legal move.
            if let MoveError::MustLeaveCamp { example, .. }
            | MoveError::MustMoveAwayFromCorner { example, .. } = err
            {
                assert!(got.contains(&example), "{}: example {example}", case.name);
            }
            if *code != "leaves_camp" {
                assert!(err.to_string().contains("the course's camp rule"), "{err}");
            }
        }
    }
}

#[test]
fn the_seed_rules_are_unchanged_in_the_same_positions() {
    // Rule 1 off: the chain may end in the camp.
    let seed = classic(&[(6, 1)], &[(5, 1), (3, 2), (2, 4)], CampRules::Seed);
    assert_eq!(seed.camp_rules(), CampRules::Seed);
    assert_eq!(seed.own_corner(Team::Red), None);
    assert!(seed.check(Team::Red, &path((6, 1), &[(4, 1)])).is_ok());
    // Rule 2 off: the piece outside may move.
    let seed = classic(&[(4, 0), (8, 8)], &[(15, 15)], CampRules::Seed);
    assert!(seed.check(Team::Red, &path((8, 8), &[(8, 9)])).is_ok());
}

#[test]
fn a_piece_that_may_not_move_now_offers_no_landing() {
    let pos = classic(&[(4, 0), (8, 8)], &[(15, 15)], CampRules::Course);
    assert!(pos.next_landings(Team::Red, &path((8, 8), &[])).is_empty());
    let mut first = pos.next_landings(Team::Red, &path((4, 0), &[]));
    first.sort();
    assert_eq!(first, vec![sq(5, 0), sq(5, 1)]);
    // A jump into the own camp is offered when another jump can leave it again.
    let pos = classic(&[(6, 1)], &[(5, 1), (3, 2), (2, 4)], CampRules::Course);
    assert!(pos
        .next_landings(Team::Red, &path((6, 1), &[]))
        .contains(&sq(4, 1)));
    // From (2,3): on out to (2,5), or back over (3,2) to (4,1), since a chain may revisit a square.
    let mut next = pos.next_landings(Team::Red, &path((6, 1), &[(4, 1), (2, 3)]));
    next.sort();
    assert_eq!(next, vec![sq(4, 1), sq(2, 5)]);
}

#[test]
fn a_camp_without_a_corner_is_refused() {
    let pos = Position::new(
        16,
        true,
        Teams {
            red: vec![Piece {
                square: sq(5, 5),
                damage: 0,
            }],
            blue: vec![Piece {
                square: sq(9, 9),
                damage: 0,
            }],
        },
        Teams {
            red: vec![sq(15, 15)],
            blue: vec![sq(5, 5)],
        },
    )
    .unwrap();
    let err = pos.clone().with_camp_rules(CampRules::Course).unwrap_err();
    assert_eq!(err, SetupError::NoCampCorner { team: Team::Red });
    assert!(err.to_string().contains("corner"), "{err}");
    assert!(pos.with_camp_rules(CampRules::Seed).is_ok());
}

#[test]
fn a_game_carries_the_course_rules_and_the_first_mover() {
    let rules = Rules {
        camp_rules: CampRules::Course,
        first_mover: Some(Team::Blue),
        ..Preset::Classic.rules()
    };
    for seed in 0..8 {
        let game = Game::new(&rules, seed).unwrap();
        assert_eq!(game.to_move(), Some(Team::Blue));
        assert_eq!(game.position().own_corner(Team::Red), Some(sq(0, 0)));
        assert_eq!(game.position().own_corner(Team::Blue), Some(sq(15, 15)));
    }
    let game = Game::new(&rules, 0).unwrap();
    // At the start every camp piece that can step or jump out must: only leaving moves.
    let moves = game.position().moves(Team::Blue);
    assert!(!moves.is_empty());
    assert!(moves
        .iter()
        .all(|m| game.position().in_own_camp(Team::Blue, m.from)
            && !game.position().in_own_camp(Team::Blue, m.to)));
    // The state says so, and reads back.
    let state = game.state();
    let json = serde_json::to_value(&state).unwrap();
    assert_eq!(json["campRules"], "course");
    assert_eq!(Game::from_state(&state).as_ref(), Ok(&game));
    // A state without the field is under the seed's rules; a seed game writes no field.
    let seed_game = Game::new(&Preset::Classic.rules(), 0).unwrap();
    let seed_json = serde_json::to_value(seed_game.state()).unwrap();
    assert!(seed_json.get("campRules").is_none());
    // The request says "course", and the position it describes is under the course's rules.
    let request = game.request(Team::Blue);
    let text = serde_json::to_string(&request).unwrap();
    assert!(text.contains(r#""campRules":"course""#), "{text}");
    let (pos, team) = request.to_position(true).unwrap();
    assert_eq!((pos.camp_rules(), team), (CampRules::Course, Team::Blue));
    assert_eq!(pos.moves(Team::Blue), moves);
    let seed_request = serde_json::to_string(&seed_game.request(Team::Red)).unwrap();
    assert!(!seed_request.contains("campRules"), "{seed_request}");
}

#[test]
fn the_course_rules_on_the_arena_preset_find_its_corners() {
    // The engine only needs a corner in each own camp; the CLI and the page keep the course's rules to
    // the classic preset.
    let rules = Rules {
        camp_rules: CampRules::Course,
        ..Preset::Mini.rules()
    };
    assert!(Game::new(&rules, 0).is_ok());
}
