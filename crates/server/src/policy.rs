//! The server's own rules on top of Go's: when a game is cut off, and which games count in the records.

use gridarena_engine::go::BoardSize;

/// The most moves (stones and passes) a game may have: four times the points of its board (324 on
/// 9x9, 1,444 on 19x19). Real games end far sooner (a 19x19 game is 200 to 300 moves); a game that gets
/// here is two programs shuffling stones, and it is scored as it stands, so no game lives for ever.
pub fn max_moves(size: BoardSize) -> u32 {
    let side = u32::from(size.get());
    4 * side * side
}

/// The fewest moves a game needs to count in the records: a game both sides played at least five
/// moves of. Below it a resignation or a time-out is not a game but a way to hand out wins.
pub const MIN_RATED_MOVES: u32 = 10;

/// How many games between the same two players count in the records per day: enough for a rematch
/// or two, too few to farm a leaderboard with a second account.
pub const RATED_PER_PAIR_PER_DAY: u32 = 3;

/// One day, in milliseconds.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Whether a game of `moves` moves counts, given that the two players already have `rated_today`
/// counted games against each other in the last day.
pub fn is_rated(moves: u32, rated_today: u32) -> bool {
    moves >= MIN_RATED_MOVES && rated_today < RATED_PER_PAIR_PER_DAY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_grows_with_the_board() {
        assert_eq!(max_moves(BoardSize::NINE), 324);
        assert_eq!(max_moves(BoardSize::new(19).unwrap()), 1444);
    }

    #[test]
    fn short_games_and_a_fourth_game_a_day_do_not_count() {
        assert!(!is_rated(0, 0), "an instant resignation");
        assert!(!is_rated(MIN_RATED_MOVES - 1, 0));
        assert!(is_rated(MIN_RATED_MOVES, 0));
        assert!(is_rated(200, RATED_PER_PAIR_PER_DAY - 1));
        assert!(!is_rated(200, RATED_PER_PAIR_PER_DAY));
    }
}
