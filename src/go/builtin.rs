//! The built-in Go AI as a job: a game in, a move out, so it can think in a Web Worker (see
//! `crate::ai_worker`) while the page stays responsive, or on the page thread when workers are missing.
//!
//! The job is plain text, the search's settings on the first line and the game as SGF after it: the page
//! already carries the SGF reader and writer for downloads, so the worker's format costs no extra code.
//! The answer is a GTP move ("D4", "pass", "resign") or [`ERROR`] and why there is none, and it goes
//! through the same checks as a person's click.

use crate::ai_player::read_job;
use gridarena_engine::go::mcts::RESIGN_BELOW;
use gridarena_engine::go::sgf;
use gridarena_engine::go::{BoardSize, Game, Mcts, Move};

/// The AI module that answers the jobs (`src/bin/gridarena-ai-go.rs`).
pub const MODULE: &str = "gridarena-ai-go";

/// What a reply starts with when the AI has no move to give, followed by why.
const ERROR: &str = crate::ai_worker::NO_MOVE;

/// The worker's message asking for the move of the colour to play in `game`.
pub fn job(game: &Game, playouts: u32, seed: u64) -> String {
    format!(
        "{playouts} {seed}\n{}",
        sgf::to_sgf(game, &sgf::GameInfo::default())
    )
}

/// Runs one job. The Go page's module exports it for the worker (src/bin/gridarena-go.rs).
pub fn go_builtin_answer(job: &str) -> String {
    match think(job) {
        Ok(mv) => mv.to_gtp(),
        Err(why) => format!("{ERROR}{why}"),
    }
}

fn think(job: &str) -> Result<Move, String> {
    let ([playouts, seed], record) = read_job(job, ["playout count", "seed"])?;
    let playouts = u32::try_from(playouts).unwrap_or(u32::MAX);
    let (game, _) = sgf::from_sgf(record).map_err(|e| format!("unreadable game: {e}"))?;
    Ok(Mcts::new(playouts)
        .with_resign_below(Some(RESIGN_BELOW))
        .choose(&game, seed))
}

/// Reads what [`go_builtin_answer`] returned: the move, or why there is none.
pub fn read_reply(reply: &str, size: BoardSize) -> Result<Move, String> {
    if let Some(why) = reply.strip_prefix(ERROR) {
        return Err(why.to_string());
    }
    Move::from_gtp(reply, size).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::go::{Board, Color, Komi, Point};

    #[test]
    fn a_job_answers_as_the_search_chooses() {
        let mut game = Game::new(BoardSize::NINE);
        game.play(Move::Play(Point::new(4, 4).unwrap())).unwrap();
        game.play(Move::Pass).unwrap();
        let reply = go_builtin_answer(&job(&game, 200, 9));
        let direct = Mcts::new(200)
            .with_resign_below(Some(RESIGN_BELOW))
            .choose(&game, 9);
        assert_eq!(read_reply(&reply, game.size()), Ok(direct));
    }

    #[test]
    fn a_lost_game_is_resigned() {
        // White owns nearly everything; Black's lone stone has no future.
        let board = Board::from_diagram(
            ". . . . .
             . O O O .
             . O X O .
             . O . O .
             . . O . .",
        )
        .unwrap();
        let game = Game::from_position(board, Color::Black, Komi::DEFAULT);
        let reply = go_builtin_answer(&job(&game, 300, 5));
        assert_eq!(read_reply(&reply, game.size()), Ok(Move::Resign));
    }

    #[test]
    fn a_bad_job_is_an_error_answer_not_a_panic() {
        for bad in [
            "",
            "100 5",
            "x 5\n(;SZ[9])",
            "100 y\n(;SZ[9])",
            "100 5\n(;SZ[9];B[zz])",
        ] {
            let reply = go_builtin_answer(bad);
            assert!(reply.starts_with(ERROR), "{bad:?}: {reply}");
            assert!(read_reply(&reply, BoardSize::NINE).is_err());
        }
    }
}
