//! Property tests of move generation, validation and the referee against the naive reference in
//! `common/mod.rs`, and a differential perft of the arena start position.

mod common;

use common::{engine_moves, random_chain, setups, sq, xy, xy_path, RefBoard, Setup, Xy, DIRS};
use gridarena_engine::halma::{
    Answer, Game, GameResult, GameState, Mode, Move, NoMove, PieceJson, Point, Position, Preset,
    Team, TeamState, MAX_BOARD_SIZE, MIN_BOARD_SIZE,
};
use proptest::prelude::*;
use proptest::sample::Index;
use std::collections::{HashMap, HashSet};

/// Board sizes for the properties: the whole supported range, small boards (dense, long chains) more often.
fn sizes() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => MIN_BOARD_SIZE..=10u8,
        1 => 11u8..=MAX_BOARD_SIZE,
    ]
}

fn any_setup() -> impl Strategy<Value = Setup> {
    sizes().prop_flat_map(|s| setups(s..=s, 60))
}

fn team() -> impl Strategy<Value = Team> {
    prop_oneof![Just(Team::Red), Just(Team::Blue)]
}

/// Every (team, square) -> damage of a position.
fn census(p: &Position) -> HashMap<(Team, Xy), u8> {
    let mut m = HashMap::new();
    for t in Team::ALL {
        for pc in p.pieces(t) {
            let clash = m.insert((t, xy(pc.square)), pc.damage);
            assert!(clash.is_none(), "two {t} pieces on {}", pc.square);
        }
    }
    m
}

/// The board-level invariants every position must keep.
fn assert_consistent(p: &Position) {
    let mut squares: HashMap<Xy, [bool; 2]> = HashMap::new();
    for (i, t) in Team::ALL.into_iter().enumerate() {
        for pc in p.pieces(t) {
            assert!(
                p.contains(pc.square),
                "{t} piece off the board at {}",
                pc.square
            );
            let e = squares.entry(xy(pc.square)).or_default();
            assert!(!e[i], "two {t} pieces on {}", pc.square);
            e[i] = true;
        }
    }
    for y in 0..p.size() {
        for x in 0..p.size() {
            let s = sq(x, y);
            let here = squares
                .get(&(x.into(), y.into()))
                .copied()
                .unwrap_or_default();
            assert_eq!(p.is_occupied(s), here[0] || here[1], "occupancy of {s}");
            assert_eq!(p.is_empty(s), !(here[0] || here[1]), "emptiness of {s}");
            assert_eq!(p.is_shared(s), here[0] && here[1], "sharing of {s}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// (a) The engine generates exactly the reference's moves, each once; the other move APIs agree.
    #[test]
    fn generated_moves_equal_the_reference(setup in any_setup()) {
        let pos = setup.position();
        let reference = RefBoard::from_position(&pos);
        for t in Team::ALL {
            let engine = engine_moves(&pos, t);
            let set: HashSet<(Xy, Xy)> = engine.iter().copied().collect();
            prop_assert_eq!(set.len(), engine.len(), "{} has duplicate moves: {:?}", t, engine);
            let expected = reference.moves(t);
            let missing: Vec<_> = expected.difference(&set).collect();
            let extra: Vec<_> = set.difference(&expected).collect();
            prop_assert!(
                missing.is_empty() && extra.is_empty(),
                "{} moves differ: engine misses {:?}, engine adds {:?}", t, missing, extra
            );
            prop_assert_eq!(pos.count_moves(t), engine.len());
            let mut appended = vec![Move { from: sq(0, 0), to: sq(0, 0) }];
            pos.legal_moves(t, &mut appended);
            prop_assert_eq!(appended.len(), engine.len() + 1, "legal_moves must append");
            let mut per_piece = Vec::new();
            for pc in pos.pieces(t) {
                per_piece.extend(pos.moves_from(t, pc.square).into_iter().map(|m| (xy(m.from), xy(m.to))));
            }
            prop_assert_eq!(&per_piece, &engine, "moves_from piece by piece differs from moves");
        }
    }

    /// (b) Every generated move has a path that validation accepts as that very move; non-moves have none.
    #[test]
    fn every_generated_move_has_a_path_that_checks(setup in any_setup(), probes in prop::collection::vec((any::<Index>(), 0..MAX_BOARD_SIZE, 0..MAX_BOARD_SIZE), 0..20)) {
        let pos = setup.position();
        let reference = RefBoard::from_position(&pos);
        for t in Team::ALL {
            let moves = pos.moves(t);
            for &mv in &moves {
                let path = pos.path(t, mv);
                prop_assert!(path.is_some(), "no path for {} {}", t, mv);
                let path = path.unwrap();
                prop_assert_eq!(pos.check(t, &path), Ok(mv), "{} path {} of {}", t, &path, mv);
                prop_assert_eq!(reference.check(t, &path), Some((xy(mv.from), xy(mv.to))), "reference rejects {} path {}", t, &path);
                if mv.is_step() {
                    prop_assert_eq!(path.to.len(), 1);
                }
            }
            // Pairs that are not moves have no path.
            let pieces = pos.pieces(t);
            for (i, x, y) in &probes {
                let from = i.get(pieces).square;
                let Some(to) = gridarena_engine::halma::Square::new(*x, *y) else { continue };
                let mv = Move { from, to };
                if !moves.contains(&mv) {
                    prop_assert_eq!(pos.path(t, mv), None, "a path for the non-move {}", mv);
                }
            }
        }
    }

    /// (c) Every submitted path that validation accepts is a generated move, and validation accepts
    /// exactly what the reference accepts: all steps from every square, and random jump chains.
    #[test]
    fn every_accepted_path_is_generated(
        setup in any_setup(),
        t in team(),
        chains in prop::collection::vec((any::<Index>(), prop::collection::vec(any::<u8>(), 1..8)), 0..24),
    ) {
        let pos = setup.position();
        let reference = RefBoard::from_position(&pos);
        let moves: HashSet<(Xy, Xy)> = engine_moves(&pos, t).into_iter().collect();
        let mut accepted = HashSet::new();
        let mut judge = |path: gridarena_engine::halma::Path| -> Result<(), TestCaseError> {
            let engine = pos.check(t, &path).ok().map(|m| (xy(m.from), xy(m.to)));
            prop_assert_eq!(engine, reference.check(t, &path), "{} path {}", t, &path);
            if let Some(mv) = engine {
                prop_assert!(moves.contains(&mv), "{} path {} is accepted but {:?} is not generated", t, &path, mv);
                accepted.insert(mv);
            }
            Ok(())
        };
        let n = i32::from(pos.size());
        for y in -1..=n {
            for x in -1..=n {
                for (dx, dy) in DIRS {
                    judge(xy_path((x, y), &[(x + dx, y + dy)]))?;
                }
                judge(xy_path((x, y), &[(x, y)]))?;
            }
        }
        for (start, choices) in &chains {
            let from = xy(start.get(pos.pieces(t)).square);
            let chain = random_chain(&reference, from, choices);
            for len in 0..=chain.len() {
                judge(xy_path(from, &chain[..len]))?;
            }
        }
        // Every step is among the accepted moves (the steps above were exhaustive).
        for &(from, to) in &moves {
            if (to.0 - from.0).abs().max((to.1 - from.1).abs()) == 1 {
                prop_assert!(accepted.contains(&(from, to)), "step {:?}->{:?} generated but never accepted", from, to);
            }
        }
    }

    /// (d) Playing any legal move moves exactly that piece: nothing created, destroyed or stacked.
    #[test]
    fn playing_a_move_keeps_the_pieces(setup in any_setup()) {
        let pos = setup.position();
        let before = census(&pos);
        for t in Team::ALL {
            for mv in pos.moves(t) {
                let mut after = pos.clone();
                after.play_unchecked(t, mv);
                for u in Team::ALL {
                    prop_assert_eq!(after.pieces(u).len(), pos.pieces(u).len(), "{} piece count after {} {}", u, t, mv);
                }
                assert_consistent(&after);
                let mut expected = before.clone();
                let d = expected.remove(&(t, xy(mv.from))).expect("the mover's piece");
                prop_assert!(expected.insert((t, xy(mv.to)), d).is_none(), "{} {} lands on its own piece", t, mv);
                prop_assert_eq!(census(&after), expected, "{} {}", t, mv);
                prop_assert_eq!(after.destinations(t), pos.destinations(t));
            }
        }
    }
}

/// A random tick's answer for one team.
#[derive(Clone, Debug)]
enum Pick {
    /// A legal move: the index into the engine's list.
    Legal(Index),
    /// A random chain from one of the team's pieces (usually illegal, sometimes legal).
    Chain(Index, Vec<u8>),
    /// No move.
    Missing,
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        7 => any::<Index>().prop_map(Pick::Legal),
        2 => (any::<Index>(), prop::collection::vec(any::<u8>(), 1..4)).prop_map(|(i, c)| Pick::Chain(i, c)),
        1 => Just(Pick::Missing),
    ]
}

fn answer(pos: &Position, t: Team, p: &Pick) -> Answer {
    match p {
        Pick::Legal(i) => {
            let moves = pos.moves(t);
            if moves.is_empty() {
                return Answer::NoMove(NoMove::Missing);
            }
            let mv = *i.get(&moves);
            Answer::Move(pos.path(t, mv).expect("legal moves have paths"))
        }
        Pick::Chain(i, choices) => {
            let b = RefBoard::from_position(pos);
            let from = xy(i.get(pos.pieces(t)).square);
            Answer::Move(xy_path(from, &random_chain(&b, from, choices)))
        }
        Pick::Missing => Answer::NoMove(NoMove::Missing),
    }
}

fn game_state(setup: &Setup, mode: Mode, first: Team, turn: u32, limit_extra: u32) -> GameState {
    let ts = |pieces: &[(u8, u8, u8)], dests: &[(u8, u8)]| TeamState {
        pieces: pieces
            .iter()
            .map(|&(x, y, d)| PieceJson {
                x: x.into(),
                y: y.into(),
                damage: d.into(),
            })
            .collect(),
        destinations: dests
            .iter()
            .map(|&(x, y)| Point {
                x: x.into(),
                y: y.into(),
            })
            .collect(),
    };
    GameState {
        version: 1,
        preset: None,
        board_size: setup.size.into(),
        mode,
        camp_rule: setup.camp_rule,
        camp_rules: setup.camp_rules(),
        turn_limit: turn + limit_extra,
        turn,
        to_move: (mode == Mode::Alternating).then_some(first),
        result: None,
        red: ts(&setup.red, &setup.red_dests),
        blue: ts(&setup.blue, &setup.blue_dests),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 250, ..ProptestConfig::default() })]

    /// (e) Random ticks through the referee keep the pieces, advance the turn by one, enact exactly the
    /// pairs of moves the reference finds legal, and count damage down as the rules say.
    #[test]
    fn referee_ticks_keep_the_invariants(
        setup in sizes().prop_flat_map(|s| setups(s..=s, 30)),
        alternating in any::<bool>(),
        first in team(),
        turn in 0u32..50,
        limit_extra in 1u32..40,
        picks in prop::collection::vec((pick(), pick()), 1..25),
    ) {
        let mode = if alternating { Mode::Alternating } else { Mode::Simultaneous };
        let state = game_state(&setup, mode, first, turn, limit_extra);
        let mut game = Game::from_state(&state).expect("a valid hand-built state");
        prop_assert_eq!(game.state(), state.clone(), "state round trip");
        for (rp, bp) in &picks {
            let before = game.clone();
            let pos = before.position();
            let reference = RefBoard::from_position(pos);
            let movers = game.movers();
            let mut answers = [answer(pos, Team::Red, rp), answer(pos, Team::Blue, bp)];
            for (i, t) in Team::ALL.into_iter().enumerate() {
                if !movers.contains(&t) {
                    answers[i] = Answer::NoMove(NoMove::Missing);
                }
            }
            let [red, blue] = answers.clone();
            let outcome = match game.tick(red, blue) {
                Ok(o) => o,
                Err(refused) => {
                    prop_assert!(before.result().is_some(), "refused {:?} while the game goes on", refused);
                    prop_assert_eq!(&game, &before, "a refused tick changed the game");
                    break;
                }
            };
            prop_assert!(before.result().is_none(), "a finished game played a tick");
            prop_assert_eq!(game.turn(), before.turn() + 1);
            prop_assert_eq!(outcome.turn, game.turn());
            prop_assert_eq!(&outcome.movers, &movers);
            if let Some(t) = before.to_move() {
                prop_assert_eq!(game.to_move(), Some(t.other()), "the turn passes");
            }
            let after = game.position();
            for t in Team::ALL {
                prop_assert_eq!(after.pieces(t).len(), pos.pieces(t).len());
            }
            assert_consistent(after);

            // Which movers submitted a move the reference finds legal.
            let mut legal = Vec::new();
            for (i, t) in Team::ALL.into_iter().enumerate() {
                if !movers.contains(&t) {
                    continue;
                }
                let verdict = match &answers[i] {
                    Answer::Move(p) => reference.check(t, p),
                    Answer::NoMove(_) => None,
                };
                let has_error = outcome.errors.iter().any(|e| e.team == t);
                prop_assert_eq!(verdict.is_none(), has_error, "{} error report vs reference", t);
                if let Some(v) = verdict {
                    legal.push((t, v));
                }
            }
            prop_assert_eq!(outcome.errors.len(), movers.len() - legal.len());
            let enacted = legal.len() == movers.len();
            prop_assert_eq!(outcome.result, game.result());
            let mut next = reference.clone();
            if enacted {
                for &(t, (from, to)) in &legal {
                    next.play(t, from, to);
                }
            }
            let expected_result = match (enacted && next.has_won(Team::Red), enacted && next.has_won(Team::Blue)) {
                (true, true) => Some(GameResult::BothFinished),
                (true, false) => Some(GameResult::Win { winner: Team::Red }),
                (false, true) => Some(GameResult::Win { winner: Team::Blue }),
                (false, false) if game.turn() >= game.turn_limit() => Some(GameResult::TurnLimit),
                (false, false) => None,
            };
            prop_assert_eq!(game.result(), expected_result);
            if !enacted {
                prop_assert!(outcome.moves.is_empty(), "a move was enacted despite an error");
                prop_assert_eq!(census(after), census(pos), "a non-enacted tick changed the board");
                continue;
            }
            prop_assert_eq!(outcome.moves.len(), movers.len());
            let mut expected = census(pos);
            for (m, &(t, (from, to))) in outcome.moves.iter().zip(&legal) {
                prop_assert_eq!(m.team, t);
                prop_assert_eq!(xy(m.from), from);
                prop_assert_eq!(m.to.last().map(|&s| xy(s)), Some(to));
                let d = expected.remove(&(t, from)).expect("mover's piece");
                expected.insert((t, to), d);
            }
            let collision = match legal.as_slice() {
                [(_, (_, a)), (_, (_, b))] if a == b => Some(*a),
                _ => None,
            };
            prop_assert_eq!(outcome.collisions.iter().map(|&s| xy(s)).collect::<Vec<_>>(), collision.into_iter().collect::<Vec<_>>());
            for ((_, s), d) in expected.iter_mut() {
                *d = if Some(*s) == collision { 5 } else { d.saturating_sub(1) };
            }
            prop_assert_eq!(census(after), expected, "pieces and damage after the tick");
            let damaged: usize = after.damaged().count();
            prop_assert_eq!(outcome.damaged.len(), damaged);
            if let Some(r) = outcome.result {
                prop_assert_eq!(game.result(), Some(r));
            }
        }
        // The state still round-trips, whatever happened.
        let again = Game::from_state(&game.state());
        prop_assert_eq!(again.as_ref(), Ok(&game));
    }
}

/// The arena's start position, from the preset.
fn arena_start() -> Position {
    Game::new(&Preset::Arena.rules(), 0)
        .expect("the preset is valid")
        .position()
        .clone()
}

/// The reference perft of the arena start position reproduces the published figures to depth 3, and
/// its depth-4 count, node by node, equals the engine's.
#[test]
fn reference_perft_matches_the_published_and_engine_figures() {
    let start = arena_start();
    let mut b = RefBoard::from_position(&start);
    assert_eq!(b.perft(Team::Red, 1), 33);
    assert_eq!(b.perft(Team::Red, 2), 1_089);
    let mut leaves = 0u64;
    let mut d4 = 0u64;
    b.walk(Team::Red, 3, &mut |node, to_move| {
        leaves += 1;
        let n = node.moves(to_move).len();
        let pos = node.to_position();
        assert_eq!(
            pos.count_moves(to_move),
            n,
            "{to_move} to move in\n{pos}{:?}",
            node.pieces
        );
        d4 += n as u64;
    });
    assert_eq!(leaves, 47_223, "reference perft depth 3");
    assert_eq!(d4, 2_047_761, "reference perft depth 4");
    assert_eq!(
        gridarena_engine::halma::perft(&mut start.clone(), Team::Red, 4),
        d4
    );
}

/// The reference agrees with the published figures of the other presets at depths its speed allows.
#[test]
fn reference_perft_of_classic_and_mini() {
    for (preset, expected) in [
        (Preset::Classic, &[40u64, 1_600, 85_440][..]),
        (Preset::Mini, &[24, 576, 20_050][..]),
    ] {
        let game = Game::new(&preset.rules(), 0).expect("the preset is valid");
        let p = game.position();
        // The published figures are without the camp rule.
        let pos = Position::new(
            p.size(),
            false,
            gridarena_engine::halma::Teams::from_fn(|t| p.pieces(t).to_vec()),
            gridarena_engine::halma::Teams::from_fn(|t| p.destinations(t).to_vec()),
        )
        .unwrap();
        let mut b = RefBoard::from_position(&pos);
        for (depth, &n) in expected.iter().enumerate() {
            let depth = depth as u32 + 1;
            assert_eq!(b.perft(Team::Red, depth), n, "{preset} depth {depth}");
        }
    }
}

/// Under the course's camp rules the reference and the engine count the same trees from the classic and
/// mini starts (perft.txt holds the engine's figures).
#[test]
fn reference_perft_with_the_course_rules() {
    for preset in [Preset::Classic, Preset::Mini] {
        let rules = gridarena_engine::halma::Rules {
            camp_rules: gridarena_engine::halma::CampRules::Course,
            ..preset.rules()
        };
        let start = Game::new(&rules, 0)
            .expect("the preset is valid")
            .position()
            .clone();
        let mut b = RefBoard::from_position(&start);
        assert!(b.course.is_some());
        for depth in 1..=3 {
            let engine = gridarena_engine::halma::perft(&mut start.clone(), Team::Red, depth);
            println!("{preset} course {depth} {engine}");
            assert_eq!(b.perft(Team::Red, depth), engine, "{preset} depth {depth}");
        }
    }
}
