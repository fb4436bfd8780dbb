//! The positions the doctor asks an AI to move in: each one catches a mistake students make.

use crate::halma::ai::BuiltIn;
use crate::halma::{Game, GameState, PieceJson, Point, Preset, Team};

/// A position to ask for a move in; red is always the team asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// A stable identifier: the check's id is `legal-` followed by it.
    pub id: &'static str,
    /// What the position tests, in a few words.
    pub title: &'static str,
    pub game: Game,
}

/// The team every scenario asks.
pub const ASKED: Team = Team::Red;

/// The battery's positions, in the order they are asked.
pub fn scenarios() -> Vec<Scenario> {
    let start = Game::new(&Preset::Arena.rules(), 1)
        .unwrap_or_else(|e| unreachable!("the arena preset sets up: {e}"));
    let mut list = vec![Scenario {
        id: "start",
        title: "the starting position",
        game: start.clone(),
    }];
    for (id, title, state) in [
        ("midgame", "a mid-game with damaged pieces", midgame(&start)),
        (
            "jump-chain",
            "a position where only a chain of two jumps wins",
            jump_chain(&start),
        ),
        (
            "endgame",
            "a nearly finished game (turn 990 of 1000)",
            endgame(&start),
        ),
    ] {
        // Fixed, hand-checked setups; the tests below build every one.
        if let Ok(game) = Game::from_state(&state) {
            list.push(Scenario { id, title, game });
        }
    }
    list
}

fn piece(x: i64, y: i64, damage: i64) -> PieceJson {
    PieceJson { x, y, damage }
}

/// Thirty ticks of two greedy AIs, then three pieces damaged (two red, one blue): a damaged piece may
/// step but not jump, which is the rule AIs most often forget.
fn midgame(start: &Game) -> GameState {
    let mut game = start.clone();
    for turn in 0..30u64 {
        let red = BuiltIn::Greedy.answer(&game, Team::Red, turn);
        let blue = BuiltIn::Greedy.answer(&game, Team::Blue, turn ^ 1);
        if game.tick(red, blue).is_err() {
            break;
        }
    }
    let mut state = game.state();
    for p in state.red.pieces.iter_mut().take(2) {
        p.damage = 3;
    }
    if let Some(p) = state.blue.pieces.last_mut() {
        p.damage = 2;
    }
    state
}

/// Red has eight of its nine destinations filled; the ninth, (15,2), is reached only by the piece on
/// (15,6) jumping over (15,5) to (15,4) and over (15,3) to (15,2).
fn jump_chain(start: &Game) -> GameState {
    let mut state = start.state();
    state.preset = None;
    state.turn = 200;
    state.red.pieces = home_but(&state.red.destinations, (15, 2));
    state.red.pieces.extend([
        piece(15, 6, 0),
        piece(2, 9, 0),
        piece(3, 9, 0),
        piece(4, 9, 0),
    ]);
    state.blue.pieces = [(15, 5), (15, 3), (8, 8), (9, 8), (10, 8), (11, 8)]
        .into_iter()
        .chain([(0, 4), (1, 4), (2, 4), (0, 5), (1, 5), (2, 5)])
        .map(|(x, y)| piece(x, y, 0))
        .collect();
    state
}

/// Both teams nearly home, ten turns before the limit: a crowded board where most moves are blocked.
fn endgame(start: &Game) -> GameState {
    let mut state = start.state();
    state.preset = None;
    state.turn = 990;
    state.red.pieces = home_but(&state.red.destinations, (17, 2));
    state.red.pieces.extend([
        piece(17, 4, 0),
        piece(14, 3, 1),
        piece(13, 5, 0),
        piece(12, 6, 0),
    ]);
    state.blue.pieces = home_but(&state.blue.destinations, (0, 2));
    state.blue.pieces.extend([
        piece(0, 4, 0),
        piece(3, 3, 0),
        piece(4, 5, 0),
        piece(5, 6, 0),
    ]);
    state
}

/// A piece on every destination but `(x, y)`.
fn home_but(destinations: &[Point], (x, y): (i64, i64)) -> Vec<PieceJson> {
    destinations
        .iter()
        .filter(|p| (p.x, p.y) != (x, y))
        .map(|p| piece(p.x, p.y, 0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_is_a_game_in_progress_with_moves_for_red() {
        let list = scenarios();
        let ids: Vec<_> = list.iter().map(|s| s.id).collect();
        assert_eq!(ids, ["start", "midgame", "jump-chain", "endgame"]);
        for s in &list {
            assert_eq!(s.game.result(), None, "{}", s.id);
            assert!(!s.game.position().moves(ASKED).is_empty(), "{}", s.id);
        }
    }

    #[test]
    fn the_mid_game_has_damaged_pieces_of_both_teams() {
        let s = &scenarios()[1];
        let damaged: Vec<_> = s.game.position().damaged().map(|(t, _)| t).collect();
        assert!(damaged.contains(&Team::Red) && damaged.contains(&Team::Blue));
        assert!(s.game.turn() > 0);
    }

    #[test]
    fn in_the_jump_chain_position_only_the_chain_wins() {
        let s = &scenarios()[2];
        let pos = s.game.position();
        let winners: Vec<_> = pos
            .moves(ASKED)
            .into_iter()
            .filter(|&m| {
                let mut p = pos.clone();
                p.play_unchecked(ASKED, m);
                p.has_won(ASKED)
            })
            .collect();
        assert_eq!(winners.len(), 1, "{winners:?}");
        let path = pos.path(ASKED, winners[0]).unwrap();
        assert_eq!(path.to_string(), "(15,6)->(15,4)->(15,2)");
    }

    #[test]
    fn the_endgame_is_near_the_turn_limit() {
        let s = &scenarios()[3];
        assert_eq!((s.game.turn(), s.game.turn_limit()), (990, 1000));
    }
}
