//! The built-in HyperChess AI against random movers: it wins every game on the small map, and over 200
//! games on every shipped map it never makes an illegal move. `--ignored` measures its speed.

use gridarena_engine::hyperchess::{ai, maps, parse_map, Coord, Game, Kind, Side};
use gridarena_engine::SplitMix64;
use std::time::{Duration, Instant};

/// A random mover: uniform among the legal moves.
fn random_move(game: &Game, rng: &mut SplitMix64) -> Option<(Coord, Coord)> {
    let moves = game.legal_moves();
    moves.get(rng.below(moves.len() as u64) as usize).copied()
}

/// A greedy mover: takes a King if it can, else the most valuable piece it can, else moves at random.
fn greedy_move(game: &Game, rng: &mut SplitMix64) -> Option<(Coord, Coord)> {
    let moves = game.legal_moves();
    let gain = |to: Coord| {
        game.board().piece_at(to).map_or(0, |p| match p.kind {
            Kind::King => 100_000,
            kind => ai::value(kind),
        })
    };
    let best = moves.iter().map(|&(_, to)| gain(to)).max()?;
    let top: Vec<_> = moves
        .into_iter()
        .filter(|&(_, to)| gain(to) == best)
        .collect();
    top.get(rng.below(top.len() as u64) as usize).copied()
}

/// How a game against a random mover went.
struct Result {
    winner: Option<Side>,
    plies: usize,
    ai_moves: usize,
}

/// One game: the AI (thinking `nodes` nodes a move with seed `seed`) plays `ai_side` against a random
/// mover, for at most `max_plies` plies (no winner by then counts as a draw). Every AI move is checked
/// with the rules before it is played.
fn play(map: &str, ai_side: Side, seed: u64, nodes: u64, max_plies: usize) -> Result {
    play_against(map, ai_side, seed, nodes, max_plies, random_move)
}

fn play_against(
    map: &str,
    ai_side: Side,
    seed: u64,
    nodes: u64,
    max_plies: usize,
    other: fn(&Game, &mut SplitMix64) -> Option<(Coord, Coord)>,
) -> Result {
    let mut game = Game::new(parse_map(map).unwrap()).unwrap();
    let mut rng = SplitMix64::new(seed ^ 0xDEAD_BEEF);
    let mut searcher = ai::Searcher::new(seed);
    let mut ai_moves = 0;
    let mut plies = 0;
    while game.outcome().is_none() && plies < max_plies {
        let (from, to) = if game.to_move() == ai_side {
            let choice = searcher
                .think(&game, |p| p.nodes < nodes)
                .expect("a move while the game goes on");
            if let Err(e) = game.check(choice.from, choice.to) {
                panic!(
                    "seed {seed}: the AI's move {choice:?} is illegal: {e}\n{}",
                    game.save()
                );
            }
            ai_moves += 1;
            (choice.from, choice.to)
        } else {
            other(&game, &mut rng).expect("a move while the game goes on")
        };
        game.play(from, to).unwrap();
        plies += 1;
    }
    Result {
        winner: game.winner(),
        plies,
        ai_moves,
    }
}

#[test]
fn the_ai_beats_a_random_mover_in_20_of_20_games_on_the_small_map() {
    let start = Instant::now();
    let mut wins = 0;
    let mut plies = Vec::new();
    for game in 0..20u64 {
        let side = if game % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let result = play(maps::SMALL, side, game, 5_000, 400);
        assert_eq!(
            result.winner,
            Some(side),
            "game {game}: the AI ({side}) did not win in {} plies",
            result.plies
        );
        wins += 1;
        plies.push(result.plies);
    }
    assert_eq!(wins, 20);
    eprintln!(
        "20 of 20 won on the small map, {:?} plies each, in {:.1?}",
        plies,
        start.elapsed()
    );
}

#[test]
fn the_ai_never_makes_an_illegal_move_in_200_games_on_every_shipped_map() {
    let start = Instant::now();
    let mut ai_moves = 0;
    let mut won = 0;
    for game in 0..200u64 {
        let (_, map) = maps::SHIPPED[game as usize % maps::SHIPPED.len()];
        let side = if game / 3 % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        // Budgets from 40 to 1,000 nodes: searches cut off at every stage of a depth.
        let result = play(map, side, game, 40 + game * 397 % 961, 60);
        ai_moves += result.ai_moves;
        won += usize::from(result.winner == Some(side));
    }
    eprintln!(
        "200 games, {ai_moves} AI moves, all legal; the AI won {won} within 60 plies, in {:.1?}",
        start.elapsed()
    );
}

#[test]
fn the_ai_beats_a_greedy_capturer_on_the_standard_map() {
    let start = Instant::now();
    let mut plies = Vec::new();
    for game in 0..4u64 {
        let side = if game % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let result = play_against(maps::STANDARD, side, game, 20_000, 400, greedy_move);
        assert_eq!(
            result.winner,
            Some(side),
            "game {game}: the AI ({side}) did not win in {} plies",
            result.plies
        );
        plies.push(result.plies);
    }
    eprintln!(
        "4 of 4 won against the greedy mover, {plies:?} plies each, in {:.1?}",
        start.elapsed()
    );
}

/// The search's speed on the standard map: nodes a second and the depth reached in one second, from the
/// opening and from a middle game (`cargo test --release -p gridarena-engine --test hyperchess_ai --
/// --ignored --nocapture`).
#[test]
#[ignore]
fn speed_on_the_standard_map() {
    let mut game = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
    let mut rng = SplitMix64::new(3);
    let mut positions = vec![("opening", game.clone())];
    for _ in 0..20 {
        let (from, to) = random_move(&game, &mut rng).unwrap();
        game.play(from, to).unwrap();
    }
    if game.outcome().is_none() {
        positions.push(("after 20 random moves", game));
    }
    for (name, game) in positions {
        let moves = game.legal_moves().len();
        for seconds in [1.0, 5.0] {
            let limit = Duration::from_secs_f64(seconds);
            let start = Instant::now();
            // When each depth was completed (the search asks before starting the next).
            let mut depths = Vec::new();
            let choice = ai::choose(&game, 1, |p| {
                if depths.len() < p.completed as usize {
                    depths.push(format!(
                        "{} at {:.2} s",
                        p.completed,
                        start.elapsed().as_secs_f64()
                    ));
                }
                start.elapsed() < limit
            })
            .unwrap();
            let took = start.elapsed().as_secs_f64();
            eprintln!(
                "{name} ({moves} legal moves), {seconds} s: {} nodes in {took:.2} s = {:.0} nodes/s; \
                 depths completed: {} ({choice})",
                choice.nodes,
                choice.nodes as f64 / took,
                depths.join(", ")
            );
        }
    }
}
