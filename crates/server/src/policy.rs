//! The server's own rules on top of Go's: when a game is cut off, which games count in the players'
//! records, and which of those the leaderboard ranks.

use gridarena_engine::go::BoardSize;

/// The most moves (stones and passes) a game may have: four times the points of its board (324 on
/// 9x9, 1,444 on 19x19). Real games end far sooner (a 19x19 game is 200 to 300 moves); a game that gets
/// here is two programs shuffling stones, and it is scored as it stands, so no game lives for ever.
pub fn max_moves(size: BoardSize) -> u32 {
    let side = u32::from(size.get());
    4 * side * side
}

/// The fewest moves (stones and passes) a decided game needs to count in the players' records: one
/// each, so that both players moved. A game that ends before (a resignation at once, a player who never
/// came) is an abort, as on lichess, and counts for nobody; any later end counts, however short the
/// game (seed 002: "when a victor is decided, that player's win or loss count shall be incremented").
pub const MIN_COUNTED_MOVES: u32 = 2;

/// The fewest moves a game needs to be *rated*, i.e. ranked on the leaderboard: a game both sides
/// played at least five moves of. Below it a resignation or a time-out is a way to hand out wins, so
/// the leaderboard leaves it out (the records still count it).
pub const MIN_RATED_MOVES: u32 = 10;

/// How many games between the same two players the leaderboard ranks per day: enough for a rematch
/// or two, too few to farm the leaderboard with a second account.
pub const RATED_PER_PAIR_PER_DAY: u32 = 3;

/// One day, in milliseconds.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Whether a decided game of `moves` moves counts in the players' records (both players moved).
pub fn is_counted(moves: u32) -> bool {
    moves >= MIN_COUNTED_MOVES
}

/// Whether a game of `moves` moves is rated (ranked on the leaderboard), given that the two players
/// already have `rated_today` rated games against each other in the last day. A rated game is counted.
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
    fn a_game_counts_once_both_players_moved() {
        assert!(!is_counted(0), "an instant resignation");
        assert!(!is_counted(1), "the second player never moved");
        assert!(is_counted(2));
        assert!(is_counted(6), "four stones and two passes");
    }

    #[test]
    fn short_games_and_a_fourth_game_a_day_are_not_rated() {
        assert!(!is_rated(0, 0), "an instant resignation");
        assert!(!is_rated(MIN_RATED_MOVES - 1, 0));
        assert!(is_rated(MIN_RATED_MOVES, 0));
        assert!(is_rated(200, RATED_PER_PAIR_PER_DAY - 1));
        assert!(!is_rated(200, RATED_PER_PAIR_PER_DAY));
    }
}
