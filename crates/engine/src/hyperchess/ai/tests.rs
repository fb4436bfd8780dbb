use super::super::{maps, parse_map, Piece};
use super::*;
use std::collections::BTreeSet;

fn c(x: i32, y: i32, z: i32) -> Coord {
    Coord::new(x, y, z)
}

/// An empty `w` x `h` x `d` box as a Map file, with `pieces` placed.
fn map(w: i32, h: i32, d: i32, pieces: &[(Coord, &str)]) -> String {
    let id = |x: i32, y: i32, z: i32| {
        if (0..w).contains(&x) && (0..h).contains(&y) && (0..d).contains(&z) {
            x + w * (y + h * z)
        } else {
            -1
        }
    };
    let mut out = format!("{}\n", w * h * d);
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                let piece = pieces
                    .iter()
                    .find(|(at, _)| *at == c(x, y, z))
                    .map_or("null", |(_, p)| *p);
                out.push_str(&format!(
                    "{} {} {} {} {} {} {} {piece}\n",
                    id(x, y, z),
                    id(x - 1, y, z),
                    id(x + 1, y, z),
                    id(x, y - 1, z),
                    id(x, y + 1, z),
                    id(x, y, z - 1),
                    id(x, y, z + 1),
                ));
            }
        }
    }
    out
}

fn game(text: &str, to_move: Side) -> Game {
    Game::resume(parse_map(text).unwrap(), to_move, Vec::new())
}

fn budget(nodes: u64) -> impl FnMut(&Progress) -> bool {
    move |p| p.nodes < nodes
}

#[test]
fn takes_a_king_when_it_can() {
    // White's Rook can take the Black King along the row; a Queen is also hanging, worth more
    // material, but the King ends the game.
    let g = game(
        &map(
            4,
            4,
            1,
            &[
                (c(0, 0, 0), "WRook"),
                (c(3, 0, 0), "BKing"),
                (c(0, 3, 0), "BQueen"),
                (c(3, 3, 0), "WKing"),
            ],
        ),
        Side::White,
    );
    for seed in 0..20 {
        let choice = choose(&g, seed, budget(10_000)).unwrap();
        assert_eq!((choice.from, choice.to), (c(0, 0, 0), c(3, 0, 0)));
        assert_eq!(choice.king_in(), Some(1));
        assert_eq!(choice.depth, 0);
    }
    // A budget of nothing still takes it.
    let choice = choose(&g, 1, |_| false).unwrap();
    assert_eq!(choice.to, c(3, 0, 0));
}

#[test]
fn sees_a_lost_king_and_stops_searching() {
    // Black's King in a corner; White's Rooks cover every node it can step to.
    let g = game(
        &map(
            3,
            3,
            1,
            &[
                (c(0, 0, 0), "BKing"),
                (c(2, 2, 0), "WKing"),
                (c(2, 1, 0), "WRook"),
                (c(1, 2, 0), "WRook"),
            ],
        ),
        Side::Black,
    );
    // Black to move: every move loses the King to the next move; depth 1 proves it, and the search
    // stops there even with no limit.
    let choice = choose(&g, 3, |_| true).unwrap();
    assert_eq!(choice.king_in(), Some(-2), "{choice:?}");
    assert_eq!(choice.depth, 1);
    assert!(g.check(choice.from, choice.to).is_ok());
}

#[test]
fn prefers_winning_material() {
    // White's Knight in the middle can take a Black Queen or a Black Pawn, neither guarded nor
    // attacking anything. The Queen is worth more.
    let g = game(
        &map(
            5,
            5,
            1,
            &[
                (c(2, 2, 0), "WKnight"),
                (c(4, 3, 0), "BQueen"),
                (c(0, 1, 0), "BPawn"),
                (c(0, 4, 0), "WKing"),
                (c(4, 0, 0), "BKing"),
            ],
        ),
        Side::White,
    );
    for seed in 0..5 {
        let choice = choose(&g, seed, budget(20_000)).unwrap();
        assert_eq!((choice.from, choice.to), (c(2, 2, 0), c(4, 3, 0)));
        assert!(choice.score > 100, "{choice:?}");
    }
}

#[test]
fn does_not_give_its_queen_away() {
    // White's Queen may take a Pawn guarded by a Black Rook; a depth-2 search sees the recapture.
    let g = game(
        &map(
            5,
            5,
            1,
            &[
                (c(0, 0, 0), "WQueen"),
                (c(0, 3, 0), "BPawn"),
                (c(4, 3, 0), "BRook"),
                (c(3, 4, 0), "BKing"),
                (c(2, 0, 0), "WKing"),
            ],
        ),
        Side::White,
    );
    let choice = choose(&g, 1, budget(50_000)).unwrap();
    assert_ne!(choice.to, c(0, 3, 0), "{choice:?}");
    assert!(choice.depth >= 2, "{choice:?}");
}

#[test]
fn the_same_seed_and_budget_give_the_same_move_and_seeds_vary_play() {
    let g = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
    let a = choose(&g, 5, budget(3_000)).unwrap();
    let b = choose(&g, 5, budget(3_000)).unwrap();
    assert_eq!(a, b);
    // A reused searcher chooses as a fresh one.
    let mut s = Searcher::new(5);
    let _ = s.think(
        &Game::new(parse_map(maps::SMALL).unwrap()).unwrap(),
        budget(500),
    );
    assert_eq!(s.think(&g, budget(3_000)), Some(a));
    assert_eq!(s.think(&g, budget(3_000)), Some(a));
    // From the opening, equal first moves are chosen between by the seed.
    let firsts: BTreeSet<(Coord, Coord)> = (0..16)
        .map(|seed| {
            let ch = choose(&g, seed, budget(200)).unwrap();
            (ch.from, ch.to)
        })
        .collect();
    assert!(firsts.len() > 1, "{firsts:?}");
}

#[test]
fn a_node_budget_is_kept_and_keep_going_sees_progress() {
    let g = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
    let mut asked = Vec::new();
    let choice = choose(&g, 1, |p| {
        asked.push(*p);
        p.nodes < 5_000
    })
    .unwrap();
    assert!(choice.nodes >= 5_000 && choice.nodes < 5_000 + CHECK_EVERY);
    assert_eq!(asked.first().map(|p| (p.depth, p.nodes)), Some((1, 0)));
    assert!(asked.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    assert!(choice.depth >= 1, "{choice:?}");
    // Nothing at all: the first move of the ordering, still legal.
    let choice = choose(&g, 1, |_| false).unwrap();
    assert_eq!((choice.depth, choice.nodes), (0, 0));
    assert!(g.check(choice.from, choice.to).is_ok());
}

#[test]
fn a_finished_search_stops_by_itself() {
    // A 3x1x1 strip: White's King has one move (and loses). One legal move needs no deeper search.
    let g = game(
        &map(3, 1, 1, &[(c(0, 0, 0), "WKing"), (c(2, 0, 0), "BKing")]),
        Side::White,
    );
    let choice = choose(&g, 1, |_| true).unwrap();
    assert!(choice.depth <= MAX_DEPTH);
    // It stopped because the position was settled at once, not at the depth limit.
    assert_eq!(choice.depth, 1, "{choice:?}");
    assert!(g.check(choice.from, choice.to).is_ok());
}

#[test]
fn nothing_is_chosen_when_the_game_is_over_or_nobody_can_move() {
    let mut g = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
    g.play(c(1, 2, 0), c(1, 1, 1)).unwrap();
    // Black's King or Pawn takes White's King.
    let choice = choose(&g, 1, budget(1_000)).unwrap();
    assert_eq!((choice.to, choice.depth), (c(1, 1, 1), 0));
    g.play(choice.from, choice.to).unwrap();
    assert!(g.outcome().is_some());
    assert_eq!(choose(&g, 1, |_| true), None);
    // A lone King on a single node cannot move: a draw, no move.
    let lone = Game::resume(
        parse_map("1\n0 -1 -1 -1 -1 -1 -1 WKing\n").unwrap(),
        Side::White,
        Vec::new(),
    );
    assert_eq!(choose(&lone, 1, |_| true), None);
    // A side with no King at all (a resumed position) still gets moves.
    let kingless = Game::resume(
        parse_map("2\n0 -1 1 -1 -1 -1 -1 WPawn\n1 0 -1 -1 -1 -1 -1 BPawn\n").unwrap(),
        Side::White,
        vec![Piece::new(Side::Black, Kind::Queen)],
    );
    let choice = choose(&kingless, 1, budget(1_000)).unwrap();
    assert_eq!(choice.to, c(1, 0, 0));
}

/// The search's move generator against the rules' on every node of random games of every shipped
/// map.
#[test]
fn the_search_generates_exactly_the_legal_moves() {
    for (name, text) in maps::SHIPPED {
        let mut rng = SplitMix64::new(11);
        let board = parse_map(text).unwrap();
        let geometry = Geometry::new(&board);
        for _ in 0..4 {
            let mut g = Game::new(board.clone()).unwrap();
            for _ in 0..60 {
                let legal: BTreeSet<(Coord, Coord)> = g.legal_moves().into_iter().collect();
                if legal.is_empty() {
                    break;
                }
                let pos = Position::new(g.board(), g.to_move());
                let mut keep = |_: &Progress| true;
                let mut owner = Searcher::new(0);
                let search = Search::new(&mut owner, &geometry, pos.clone(), &mut keep);
                let mut moves = Vec::new();
                search.generate(&mut moves);
                let coord = |i: u32| g.board().node(i as usize).unwrap().coord;
                let ours: BTreeSet<(Coord, Coord)> =
                    moves.iter().map(|m| (coord(m.from), coord(m.to))).collect();
                assert_eq!(ours, legal, "{name}");
                assert_eq!(ours.len(), moves.len(), "{name}: duplicates");
                let mut caps = Vec::new();
                let (_, mobility) = search.scan(&mut caps);
                assert_eq!(mobility[0] as usize, legal.len(), "{name}");
                let other = Game::resume(g.board().clone(), g.to_move().other(), Vec::new());
                assert_eq!(mobility[1] as usize, other.legal_moves().len(), "{name}");
                let list: Vec<(Coord, Coord)> = legal.into_iter().collect();
                let (from, to) = list[rng.below(list.len() as u64) as usize];
                // Make and unmake leave the position as it was.
                let mut p = pos.clone();
                let m = Mv {
                    from: g.board().index_of(from).unwrap() as u32,
                    to: g.board().index_of(to).unwrap() as u32,
                    order: 0,
                };
                let taken = p.make(m);
                g.play(from, to).unwrap();
                assert_eq!(p.hash, Position::new(g.board(), g.to_move()).hash);
                p.unmake(m, taken);
                assert_eq!(
                    (p.squares, p.hash, p.material),
                    (pos.squares, pos.hash, pos.material)
                );
            }
        }
    }
}

#[test]
fn values_and_codes_agree() {
    for kind in Kind::ALL {
        for side in [Side::White, Side::Black] {
            let c = code(side, kind);
            assert_eq!(value_of(c), value(kind));
            assert_eq!(side_of(c), u8::from(side == Side::Black));
        }
    }
    assert_eq!(
        Choice {
            from: c(0, 0, 0),
            to: c(1, 0, 0),
            depth: 3,
            nodes: 99,
            score: -125
        }
        .to_string(),
        "depth 3, 99 nodes, score -1.25"
    );
}
