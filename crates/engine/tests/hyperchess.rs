//! HyperChess: move counts per piece in open space, at edges and at holes of the shipped maps (by hand, and
//! against an independent reference that works on coordinates instead of links), Map parser errors, save
//! and load, and random games.

use gridarena_engine::hyperchess::{
    maps, parse_map, parse_map_bytes, parse_state, parse_state_bytes, Board, Coord, Game, Kind,
    LoadError, MapErrorKind, MoveError, Outcome, Piece, SetupError, Side, StateErrorKind,
};
use proptest::prelude::*;
use std::collections::HashSet;

/// `map` with its pieces replaced by `pieces`.
fn board_with(map: &str, pieces: &[(Coord, &str)]) -> Board {
    let board = parse_map(map).unwrap();
    let text = board.to_map();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for (line, node) in lines.zip(board.nodes()) {
        let fields: Vec<&str> = line.split('\t').take(7).collect();
        let piece = pieces
            .iter()
            .find(|(c, _)| *c == node.coord)
            .map_or("null", |(_, p)| *p);
        out.push_str(&format!("{}\t{piece}\n", fields.join("\t")));
    }
    parse_map(&out).unwrap()
}

fn c(x: i32, y: i32, z: i32) -> Coord {
    Coord::new(x, y, z)
}

fn count(map: &str, at: Coord, piece: &str, others: &[(Coord, &str)]) -> usize {
    let mut all = vec![(at, piece)];
    all.extend_from_slice(others);
    let side = if piece.starts_with('W') {
        Side::White
    } else {
        Side::Black
    };
    let game = Game::resume(board_with(map, &all), side, Vec::new());
    game.targets(at).unwrap().len()
}

const PIECES: [&str; 6] = ["WPawn", "WRook", "WKnight", "WBishop", "WQueen", "WKing"];

#[test]
fn open_space_counts_in_the_middle_of_the_5x5x5_board() {
    let centre = c(2, 2, 2);
    let got: Vec<usize> = PIECES
        .iter()
        .map(|p| count(maps::STANDARD, centre, p, &[]))
        .collect();
    // Pawn and King: the 26 neighbours. Rook: 6 directions x 2. Knight: 24 L-jumps. Bishop: 20
    // diagonals x 2. Queen: 26 directions x 2.
    assert_eq!(got, [26, 12, 24, 40, 52, 26]);
}

#[test]
fn counts_in_a_corner_and_on_an_edge() {
    let corner = c(0, 0, 0);
    let got: Vec<usize> = PIECES
        .iter()
        .map(|p| count(maps::STANDARD, corner, p, &[]))
        .collect();
    // Rook 3 x 4; Knight 3 long axes x 2 short; Bishop 3 planes x 4 + 4 through the corner.
    assert_eq!(got, [7, 12, 6, 16, 28, 7]);
    let edge = c(2, 0, 0);
    let got: Vec<usize> = PIECES
        .iter()
        .map(|p| count(maps::STANDARD, edge, p, &[]))
        .collect();
    // Knight: 4 jumps along x, 3 along y, 3 along z.
    assert_eq!(got, [11, 12, 10, 16, 28, 11]);
}

#[test]
fn holes_stop_slides_and_diagonal_steps_cannot_cut_a_hole_corner() {
    // Beside the missing centre column: the rook's slide along +y stops at the hole.
    // Left 2, right 2, down only 1 (then the hole at (2,2,0)), out 4.
    assert_eq!(count(maps::HOLES, c(2, 0, 0), "WRook", &[]), 9);
    // (1,2,2) to (2,1,2): both ways round, through (2,2,2) and (1,1,2), are holes on the middle level.
    let game = Game::resume(
        board_with(maps::HOLES, &[(c(1, 2, 2), "WKing")]),
        Side::White,
        vec![],
    );
    let targets = game.targets(c(1, 2, 2)).unwrap();
    assert!(!targets.contains(&c(2, 1, 2)));
    assert!(targets.contains(&c(0, 1, 2)), "{targets:?}");
    // Through the board's third dimension the king still gets past: (1,2,2) to (2,1,1) via (1,2,1).
    assert!(targets.contains(&c(2, 1, 1)));
}

#[test]
fn pieces_block_slides_and_captures_end_them_but_knights_jump() {
    let blockers = [(c(2, 1, 2), "WPawn"), (c(2, 3, 2), "BPawn")];
    // The rook stops before its own pawn and takes the enemy's: 12 - 2 (up) - 1 (down beyond the pawn).
    assert_eq!(count(maps::STANDARD, c(2, 2, 2), "WRook", &blockers), 9);
    // A knight surrounded on every side still jumps.
    let wall: Vec<(Coord, &str)> = [
        c(1, 2, 2),
        c(3, 2, 2),
        c(2, 1, 2),
        c(2, 3, 2),
        c(2, 2, 1),
        c(2, 2, 3),
    ]
    .into_iter()
    .map(|p| (p, "WPawn"))
    .collect();
    assert_eq!(count(maps::STANDARD, c(2, 2, 2), "WKnight", &wall), 24);
}

#[test]
fn the_standard_start_has_moves_for_both_and_a_king_capture_wins() {
    let game = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
    assert_eq!(game.board().len(), 125);
    assert_eq!(game.to_move(), Side::White);
    assert!(!game.legal_moves().is_empty());
    let mut g = Game::resume(
        board_with(
            maps::SMALL,
            &[
                (c(0, 0, 0), "WRook"),
                (c(0, 0, 2), "BKing"),
                (c(2, 2, 2), "WKing"),
            ],
        ),
        Side::White,
        vec![],
    );
    let played = g.play(c(0, 0, 0), c(0, 0, 2)).unwrap();
    assert_eq!(played.captured, Some(Piece::new(Side::Black, Kind::King)));
    assert_eq!(
        g.outcome(),
        Some(Outcome::KingTaken {
            winner: Side::White
        })
    );
    let over = g.play(c(2, 2, 2), c(2, 2, 1)).unwrap_err();
    assert_eq!(
        over,
        MoveError::GameOver(Outcome::KingTaken {
            winner: Side::White
        })
    );
    assert_eq!(
        over.to_string(),
        "the game is over: White took a King and wins"
    );
    assert_eq!(g.targets(c(2, 2, 2)), Err(over));
    assert_eq!(g.captured(), [Piece::new(Side::Black, Kind::King)]);
}

#[test]
fn moves_are_refused_with_what_was_wrong() {
    let mut g = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
    let e = |r: Result<_, gridarena_engine::hyperchess::MoveError>| r.unwrap_err().to_string();
    assert_eq!(
        e(g.play(c(9, 9, 9), c(0, 0, 0))),
        "there is no node at (9 9 9)"
    );
    assert_eq!(
        e(g.play(c(2, 2, 2), c(2, 1, 2))),
        "there is no piece at (2 2 2)"
    );
    assert_eq!(
        e(g.play(c(2, 1, 4), c(2, 2, 4))),
        "the BPawn at (2 1 4) belongs to Black"
    );
    assert_eq!(
        e(g.play(c(0, 4, 0), c(0, 2, 0))),
        "the WRook at (0 4 0) cannot move to (0 2 0)"
    );
    let before = g.clone();
    assert!(
        g.play(c(0, 4, 0), c(1, 4, 0)).is_err(),
        "onto its own knight"
    );
    assert_eq!(g, before);
}

#[test]
fn a_player_without_moves_draws() {
    // White has no piece left to move.
    let g = Game::resume(
        board_with(maps::SMALL, &[(c(1, 1, 1), "BKing")]),
        Side::White,
        vec![],
    );
    assert_eq!(g.outcome(), Some(Outcome::NoMoves { side: Side::White }));
    assert!(g.legal_moves().is_empty());
}

fn kind_of(e: gridarena_engine::hyperchess::MapError) -> (usize, MapErrorKind) {
    (e.line, e.kind)
}

#[test]
fn map_errors_name_the_line_and_the_reason() {
    use MapErrorKind::*;
    type Case = (&'static str, usize, fn(&MapErrorKind) -> bool);
    let cases: Vec<Case> = vec![
        ("", 0, |k| matches!(k, Empty)),
        ("two\n", 1, |k| matches!(k, BadCount(_))),
        ("0\n", 1, |k| matches!(k, BadCount(_))),
        ("100001\n", 1, |k| matches!(k, TooManyNodes(100_001))),
        ("1\n0 -1 -1 -1 -1 -1\n", 2, |k| matches!(k, Fields(6))),
        ("1\n0 -1 -1 -1 -1 -1 -1 WPawn extra\n", 2, |k| matches!(k, Fields(9))),
        ("1\n0 -1 x -1 -1 -1 -1\n", 2, |k| matches!(k, BadNumber { field: "Right", .. })),
        ("1\n0 -1 5 -1 -1 -1 -1\n", 2, |k| matches!(k, IdOutOfRange { field: "Right", id: 5, .. })),
        ("1\n3 -1 -1 -1 -1 -1 -1\n", 2, |k| matches!(k, IdOutOfRange { field: "NodeID", .. })),
        ("2\n0 -1 1 -1 -1 -1 -1\n0 -1 -1 -1 -1 -1 -1\n", 3, |k| matches!(k, DuplicateId(0))),
        ("2\n0 -1 -1 -1 -1 -1 -1\n", 0, |k| matches!(k, MissingNodes { expected: 2, found: 1 })),
        ("1\n0 -1 -1 -1 -1 -1 -1\n0 -1 -1 -1 -1 -1 -1\n", 3, |k| matches!(k, ExtraLine)),
        ("1\n0 -1 -1 -1 -1 -1 -1 WUnicorn\n", 2, |k| matches!(k, BadPiece(_))),
        ("1\n0 0 -1 -1 -1 -1 -1\n", 2, |k| matches!(k, SelfLink { .. })),
        ("2\n0 -1 1 -1 -1 -1 -1\n1 -1 -1 -1 -1 -1 -1\n", 2, |k| matches!(k, OneWay { back: None, .. })),
        // Node 2 is right of right of 0, and also below 0: two places for one node.
        (
            "3\n0 -1 1 -1 2 -1 -1\n1 0 2 -1 -1 -1 -1\n2 1 -1 0 -1 -1 -1\n",
            4,
            |k| matches!(k, Misplaced { id: 2, .. }),
        ),
        // Right, down, left, up from 0 comes back to (0,0,0), but at node 4, not 0.
        (
            "5\n0 -1 1 -1 -1 -1 -1\n1 0 -1 -1 2 -1 -1\n2 3 -1 1 -1 -1 -1\n3 -1 2 4 -1 -1 -1\n4 -1 -1 -1 3 -1 -1\n",
            6,
            |k| matches!(k, SamePlace { id: 4, other: 0, .. }),
        ),
    ];
    for (text, line, ok) in cases {
        let (got_line, kind) = kind_of(parse_map(text).unwrap_err());
        assert!(ok(&kind), "{text:?}: {kind:?}");
        assert_eq!(got_line, line, "{text:?}: {kind:?}");
    }
    let e = parse_map("1\n0 -1 7 -1 -1 -1 -1\n")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "line 2: Right 7 is not a node: ids go from 0 to 0 (or -1 for no link)"
    );
}

#[test]
fn unreachable_nodes_are_left_out_and_pieces_may_be_omitted() {
    let map = "3\n0 -1 1 -1 -1 -1 -1 WKing\n1 0 -1 -1 -1 -1 -1\n2\t-1\t-1\t-1\t-1\t-1\t-1\tBKing\n";
    let board = parse_map(map).unwrap();
    assert_eq!(board.len(), 2);
    assert_eq!(board.to_string(), "0\t0\t0\tWKing\n1\t0\t0\tnull\n");
}

#[test]
fn currentstate_is_the_display_and_reads_back() {
    let board = parse_map(maps::HOLES).unwrap();
    let text = board.to_string();
    assert_eq!(text.lines().count(), 116);
    assert_eq!(parse_state(&text).unwrap(), board.state_lines());
    assert!(text.starts_with("0\t0\t0\tnull\n"));
    for bad in [
        "",
        "1 2\n",
        "1 2 3 WPawn x\n",
        "a 2 3 null\n",
        "1 2 3 WFoo\n",
        "0 0 0 null\n0 0 0 null\n",
    ] {
        assert!(parse_state(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn save_and_load_round_trip_the_whole_game() {
    let mut g = Game::new(parse_map(maps::HOLES).unwrap()).unwrap();
    g.play(c(2, 3, 0), c(1, 2, 0)).unwrap();
    let text = g.save();
    assert!(
        text.starts_with("HyperChess save 1\nturn Black\ncaptured\n"),
        "{text}"
    );
    assert_eq!(Game::load(&text).unwrap(), g);
    assert_eq!(Game::load("nonsense"), Err(LoadError::NotASave));
    assert!(matches!(
        Game::load("HyperChess save 1\nturn Red\ncaptured\n1\n"),
        Err(LoadError::BadTurn(_))
    ));
    assert!(matches!(
        Game::load("HyperChess save 1\nturn White\ncaptured WFoo\n1\n"),
        Err(LoadError::BadCaptured(_))
    ));
    let e =
        Game::load("HyperChess save 1\nturn White\ncaptured\n1\n0 1 -1 -1 -1 -1 -1\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "the board: line 5: Left 1 is not a node: ids go from 0 to 0 (or -1 for no link)"
    );
}

/// The rules again, on coordinates: a location exists when the board has a node there; a diagonal step
/// exists when some order of its axis steps passes through existing locations.
fn reference_targets(board: &Board, at: Coord, piece: Piece) -> HashSet<Coord> {
    let exists: HashSet<Coord> = board.nodes().iter().map(|n| n.coord).collect();
    let occupant = |c: Coord| board.piece_at(c);
    let add = |a: Coord, d: [i32; 3]| Coord::new(a.x + d[0], a.y + d[1], a.z + d[2]);
    let step = |from: Coord, d: [i32; 3]| -> Option<Coord> {
        let axes: Vec<usize> = (0..3).filter(|&i| d[i] != 0).collect();
        let mut orders = vec![axes.clone()];
        if axes.len() == 2 {
            orders.push(vec![axes[1], axes[0]]);
        }
        if axes.len() == 3 {
            orders = vec![
                vec![0, 1, 2],
                vec![0, 2, 1],
                vec![1, 0, 2],
                vec![1, 2, 0],
                vec![2, 0, 1],
                vec![2, 1, 0],
            ];
        }
        orders.iter().find_map(|o| {
            let mut at = from;
            for &axis in o {
                let mut u = [0; 3];
                u[axis] = d[axis];
                at = add(at, u);
                if !exists.contains(&at) {
                    return None;
                }
            }
            Some(at)
        })
    };
    let dirs: Vec<[i32; 3]> = (0..27)
        .map(|i| [i % 3 - 1, i / 3 % 3 - 1, i / 9 - 1])
        .filter(|d| *d != [0, 0, 0])
        .collect();
    let nz = |d: &[i32; 3]| d.iter().filter(|v| **v != 0).count();
    let ok = |c: Coord| occupant(c).is_none_or(|p| p.side != piece.side);
    let mut out = HashSet::new();
    let slide = |ds: Vec<[i32; 3]>, out: &mut HashSet<Coord>| {
        for d in ds {
            let mut a = at;
            while let Some(n) = step(a, d) {
                match occupant(n) {
                    None => {
                        out.insert(n);
                    }
                    Some(p) => {
                        if p.side != piece.side {
                            out.insert(n);
                        }
                        break;
                    }
                }
                a = n;
            }
        }
    };
    match piece.kind {
        Kind::King | Kind::Pawn => {
            out.extend(dirs.iter().filter_map(|&d| step(at, d)).filter(|&c| ok(c)))
        }
        Kind::Rook => slide(
            dirs.iter().copied().filter(|d| nz(d) == 1).collect(),
            &mut out,
        ),
        Kind::Bishop => slide(
            dirs.iter().copied().filter(|d| nz(d) >= 2).collect(),
            &mut out,
        ),
        Kind::Queen => slide(dirs.clone(), &mut out),
        Kind::Knight => {
            for long in 0..3 {
                for short in 0..3 {
                    if long == short {
                        continue;
                    }
                    for sl in [-1, 1] {
                        for ss in [-1, 1] {
                            let mut u = [0; 3];
                            u[long] = sl;
                            let mut v = [0; 3];
                            v[short] = ss;
                            let a = [add(at, u), add(add(at, u), u), add(add(add(at, u), u), v)];
                            let b = [add(at, v), add(add(at, v), u), add(add(add(at, v), u), u)];
                            for path in [a, b] {
                                if path.iter().all(|c| exists.contains(c)) && ok(path[2]) {
                                    out.insert(path[2]);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_piece_on_every_node_of_the_shipped_maps_agrees_with_the_reference() {
    for (name, map) in maps::SHIPPED {
        let board = parse_map(map).unwrap();
        let spots: Vec<Coord> = board.nodes().iter().map(|n| n.coord).collect();
        for &at in &spots {
            for p in PIECES {
                let lone = board_with(map, &[(at, p)]);
                let piece: Piece = p.parse().unwrap();
                let game = Game::resume(lone.clone(), Side::White, vec![]);
                // A lone piece that cannot move ends the game at once (no legal move): no targets.
                let got: HashSet<Coord> =
                    game.targets(at).unwrap_or_default().into_iter().collect();
                assert_eq!(
                    got,
                    reference_targets(&lone, at, piece),
                    "{name} {p} at {at}"
                );
            }
        }
        // And with the real starting pieces in the way.
        let game = Game::new(board.clone()).unwrap();
        for n in board.nodes() {
            if let Some(p) = n.piece.filter(|p| p.side == Side::White) {
                let got: HashSet<Coord> = game.targets(n.coord).unwrap().into_iter().collect();
                assert_eq!(
                    got,
                    reference_targets(&board, n.coord, p),
                    "{name} {p} at {}",
                    n.coord
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_never_panic_and_always_round_trip(seed in any::<u64>(), map in 0usize..3) {
        let mut rng = gridarena_engine::SplitMix64::new(seed);
        let mut g = Game::new(parse_map(maps::SHIPPED[map].1).unwrap()).unwrap();
        for _ in 0..200 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                prop_assert!(g.outcome().is_some());
                break;
            }
            let (from, to) = moves[(rng.next_u64() % moves.len() as u64) as usize];
            let before = g.board().len();
            g.play(from, to).unwrap();
            prop_assert_eq!(g.board().len(), before);
            prop_assert_eq!(Game::load(&g.save()).unwrap(), g.clone());
        }
    }

    #[test]
    fn hostile_map_text_is_refused_or_read_never_a_panic(text in "\\PC{0,300}") {
        let _ = parse_map(&text);
        let _ = parse_state(&text);
        let _ = Game::load(&text);
    }

    #[test]
    fn mutated_shipped_maps_never_panic(pos in 0usize..3000, byte in any::<u8>()) {
        let mut bytes = maps::SMALL.as_bytes().to_vec();
        let i = pos % bytes.len();
        bytes[i] = byte;
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(board) = parse_map(&text) {
            // A mutation may take a King away: the game is refused, and the position still plays.
            let _ = Game::new(board.clone());
            let g = Game::resume(board, Side::White, Vec::new());
            let _ = g.legal_moves();
        }
    }
}

#[test]
fn counts_per_piece_type_beside_the_holes() {
    // (2,1,2): on the middle level with holes left (1,1,2), right (3,1,2) and below (2,2,2). Rook: up 1,
    // in 2, out 2.
    let got: Vec<usize> = PIECES
        .iter()
        .map(|p| count(maps::HOLES, c(2, 1, 2), p, &[]))
        .collect();
    assert_eq!(got, [19, 5, 12, 24, 29, 19]);
    // (1,2,0): the hole (2,2,0) to its right. Rook: left 1, up 2, down 2, out 4 (the middle level's holes
    // are not on its column).
    let got: Vec<usize> = PIECES
        .iter()
        .map(|p| count(maps::HOLES, c(1, 2, 0), p, &[]))
        .collect();
    assert_eq!(got, [15, 9, 9, 17, 26, 15]);
    // The same node on the board without holes has more of everything.
    let open: Vec<usize> = PIECES
        .iter()
        .map(|p| count(maps::STANDARD, c(1, 2, 0), p, &[]))
        .collect();
    assert!(open.iter().zip(&got).all(|(o, h)| o > h), "{open:?}");
}

#[test]
fn hostile_maps_are_refused_with_the_line() {
    use MapErrorKind::*;
    let long = format!("1\n0 -1 -1 -1 -1 -1 -1 {}\n", "W".repeat(2000));
    let cases: Vec<(String, usize, MapErrorKind)> = vec![
        (
            "99999999999999999999999\n".into(),
            1,
            BadCount("99999999999999999999999".into()),
        ),
        ("-3\n".into(), 1, BadCount("-3".into())),
        ("4000000000\n".into(), 1, TooManyNodes(4_000_000_000)),
        (long, 2, LineTooLong),
        (
            "1\n0 -2 -1 -1 -1 -1 -1\n".into(),
            2,
            IdOutOfRange {
                field: "Left",
                id: -2,
                count: 1,
            },
        ),
        (
            "1\n0 -1 -1 -1 -1 -1 99999999999999999999\n".into(),
            2,
            BadNumber {
                field: "Out",
                text: "99999999999999999999".into(),
            },
        ),
    ];
    for (text, line, kind) in cases {
        let e = parse_map(&text).unwrap_err();
        assert_eq!((e.line, &e.kind), (line, &kind), "{:.60}", text);
    }
    // A contradiction: node 0's right is 1, but node 1's left is 2.
    let e =
        parse_map("3\n0 -1 1 -1 -1 -1 -1\n1 2 -1 -1 -1 -1 -1\n2 -1 1 -1 -1 -1 -1\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: node 0 has node 1 to its right, but node 1 has node 2 to its left, not 0"
    );
    // Bytes that are not UTF-8 are refused on their line; a byte-order mark is accepted.
    let e = parse_map_bytes(b"2\n0 -1 1 -1 -1 -1 -1\n1 0 -1 -1 -1 -1 -1 W\xffKing\n").unwrap_err();
    assert_eq!((e.line, e.kind), (3, NotUtf8));
    assert_eq!(
        parse_map_bytes("\u{feff}1\n0 -1 -1 -1 -1 -1 -1 WKing\n".as_bytes())
            .unwrap()
            .len(),
        1
    );
    // Empty nodes may say null in any capitalisation or leave the piece out; tabs and spaces mix.
    let board = parse_map("2\n0\t-1 1 -1 -1 -1 -1 NULL\n1 0\t-1 -1 -1 -1 -1\n").unwrap();
    assert_eq!(board.pieces().count(), 0);
}

#[test]
fn the_board_knows_its_origin_its_size_and_its_kings() {
    for (name, map) in maps::SHIPPED {
        let board = parse_map(map).unwrap();
        let origin = board.origin().unwrap();
        assert_eq!(origin.coord, Coord::ORIGIN, "{name}");
        assert_eq!(board.missing_king(), None, "{name}");
        // Every link is returned: the graph the seed describes.
        for (i, n) in board.nodes().iter().enumerate() {
            for d in gridarena_engine::hyperchess::Dir::ALL {
                if let Some(j) = n.link(d) {
                    assert_eq!(board.neighbour(j, d.opposite()), Some(i), "{name}");
                }
            }
        }
    }
    let lens: Vec<usize> = maps::SHIPPED
        .iter()
        .map(|(_, m)| parse_map(m).unwrap().len())
        .collect();
    assert_eq!(lens, [125, 116, 27]);
    let one_king = board_with(maps::SMALL, &[(c(0, 0, 0), "WKing")]);
    assert_eq!(one_king.missing_king(), Some(Side::Black));
    assert_eq!(
        board_with(maps::SMALL, &[]).missing_king(),
        Some(Side::White)
    );
}

#[test]
fn a_new_game_needs_a_king_a_side_but_a_saved_position_loads_as_it_is() {
    let one_king = board_with(maps::SMALL, &[(c(0, 0, 0), "WKing")]);
    let refused = Game::new(one_king.clone()).unwrap_err();
    assert_eq!(refused, SetupError::NoKing(Side::Black));
    assert_eq!(
        refused.to_string(),
        "Black has no King, and a game is won by taking the King"
    );
    // With no King at all, White is named first.
    assert_eq!(
        Game::new(board_with(maps::SMALL, &[(c(0, 0, 0), "BKing")])),
        Err(SetupError::NoKing(Side::White))
    );
    assert_eq!(
        Game::new(board_with(maps::SMALL, &[])),
        Err(SetupError::NoKing(Side::White))
    );
    // Several Kings a side are allowed (taking any one wins).
    let two = board_with(
        maps::SMALL,
        &[
            (c(0, 0, 0), "WKing"),
            (c(1, 0, 0), "WKing"),
            (c(2, 2, 2), "BKing"),
        ],
    );
    assert!(Game::new(two).is_ok());
    // A save made before new games were refused (or after a King was taken) still loads.
    let old_save = "HyperChess save 1\nturn White\ncaptured\n2\n\
                    0\t-1\t1\t-1\t-1\t-1\t-1\tWKing\n1\t0\t-1\t-1\t-1\t-1\t-1\tBQueen\n";
    let loaded = Game::load(old_save).unwrap();
    assert_eq!(loaded.board().missing_king(), Some(Side::Black));
    assert_eq!(loaded.save(), old_save);
    let same = Game::resume(one_king.clone(), Side::White, Vec::new());
    assert_eq!(Game::load(&same.save()).unwrap(), same);
}

#[test]
fn the_winner_is_who_took_a_king() {
    let mut g = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
    assert_eq!(g.winner(), None);
    g.play(c(1, 2, 0), c(1, 1, 1)).unwrap();
    g.play(c(1, 0, 2), c(1, 1, 1)).unwrap();
    assert_eq!(g.winner(), Some(Side::Black));
    assert_eq!(g.captured(), [Piece::new(Side::White, Kind::King)]);
    // A save of a finished game loads finished.
    let loaded = Game::load(&g.save()).unwrap();
    assert_eq!(loaded.winner(), Some(Side::Black));
    assert!(loaded.legal_moves().is_empty());
}

#[test]
fn currentstate_errors_name_the_line() {
    let cases: [(&str, usize, StateErrorKind); 5] = [
        ("0 0 0 null\n1 2\n", 2, StateErrorKind::Fields(2)),
        (
            "\n\n0 0 0 WFoo\n",
            3,
            StateErrorKind::BadPiece(String::new()),
        ),
        (
            "0 0 0\nx 0 0 null\n",
            2,
            StateErrorKind::BadCoord(String::new()),
        ),
        (
            "0 0 0\n0\t0\t0\tnull\n",
            2,
            StateErrorKind::Duplicate(c(0, 0, 0)),
        ),
        ("\n  \n", 0, StateErrorKind::Empty),
    ];
    for (text, line, kind) in cases {
        let e = parse_state(text).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert_eq!(
            std::mem::discriminant(&e.kind),
            std::mem::discriminant(&kind),
            "{text:?}: {e}"
        );
    }
    assert_eq!(
        parse_state("1 2 3 WPawn x\n").unwrap_err().to_string(),
        "line 1: 5 fields: a currentstate line is X Y Z Piece"
    );
    let e = parse_state_bytes(b"0 0 0 null\n1 0 0 \xc3\n").unwrap_err();
    assert_eq!((e.line, e.kind), (2, StateErrorKind::NotUtf8));
    let long = format!("0 0 0 {}\n", "x".repeat(2000));
    assert_eq!(
        parse_state(&long).unwrap_err().kind,
        StateErrorKind::LineTooLong
    );
    // Any board's currentstate, with holes and far-off coordinates, reads back.
    let board = parse_map(maps::HOLES).unwrap();
    let lines = parse_state_bytes(board.to_string().as_bytes()).unwrap();
    assert_eq!(lines, board.state_lines());
}

#[test]
fn saves_that_are_not_text_are_refused_with_the_line() {
    let g = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
    let mut bytes = g.save().into_bytes();
    assert_eq!(Game::load_bytes(&bytes).unwrap(), g);
    let at = bytes.len() - 3;
    bytes[at] = 0xff;
    assert_eq!(
        Game::load_bytes(&bytes),
        Err(LoadError::NotUtf8 { line: 31 })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_bytes_are_refused_or_read_never_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_map_bytes(&bytes);
        let _ = parse_state_bytes(&bytes);
        let _ = Game::load_bytes(&bytes);
        let mut with_head = b"HyperChess save 1\nturn White\ncaptured\n".to_vec();
        with_head.extend_from_slice(&bytes);
        let _ = Game::load_bytes(&with_head);
    }

    #[test]
    fn random_moves_typed_by_anyone_are_refused_or_played(
        seed in any::<u64>(),
        tries in proptest::collection::vec((-2i32..7, -2i32..7, -2i32..7, -2i32..7, -2i32..7, -2i32..7), 1..60),
    ) {
        // Legal or not, every (from, to) is answered; a refusal changes nothing, a move round-trips.
        let mut g = Game::new(parse_map(maps::SHIPPED[(seed % 3) as usize].1).unwrap()).unwrap();
        for (a, b, cc, d, e, f) in tries {
            let before = g.clone();
            match g.play(c(a, b, cc), c(d, e, f)) {
                Ok(_) => prop_assert_eq!(Game::load(&g.save()).unwrap(), g.clone()),
                Err(_) => prop_assert_eq!(&g, &before),
            }
        }
    }
}
