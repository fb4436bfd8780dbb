//! The built-in HyperChess AI as a job: a game in, a move out, so it thinks in a Web Worker (see
//! `crate::ai_player`) while the page stays responsive.
//!
//! The job is the search's settings on the first line (`NODES SEED`) and the game as a save after it
//! (`Game::save`, which the page already carries for downloads). The answer is the move as the terminal
//! game's two locations, `x y z x y z`, or [`ERROR`] and why there is none; it is played through the
//! same rules as a person's click.

use crate::ai_player::read_job;
use gridarena_engine::hyperchess::{ai, Coord, Game};

/// The AI module that answers the jobs (`src/bin/gridarena-ai-hyperchess.rs`).
pub const MODULE: &str = "gridarena-ai-hyperchess";

/// What a reply starts with when the AI has no move to give, followed by why.
const ERROR: &str = crate::ai_worker::NO_MOVE;

/// The worker's message asking for the move of the side to play in `game`.
pub fn job(game: &Game, nodes: u64, seed: u64) -> String {
    format!("{nodes} {seed}\n{}", game.save())
}

/// Runs one job. The HyperChess AI's module exports it for the worker
/// (src/bin/gridarena-ai-hyperchess.rs).
pub fn hyperchess_builtin_answer(job: &str) -> String {
    match think(job) {
        Ok((from, to)) => format!("{from} {to}"),
        Err(why) => format!("{ERROR}{why}"),
    }
}

fn think(job: &str) -> Result<(Coord, Coord), String> {
    let ([nodes, seed], save) = read_job(job, ["node count", "seed"])?;
    let game = Game::load(save).map_err(|e| format!("unreadable game: {e}"))?;
    let choice = ai::choose(&game, seed, |p| p.nodes < nodes).ok_or("no move to make")?;
    Ok((choice.from, choice.to))
}

/// Reads what [`hyperchess_builtin_answer`] returned: the move, or why there is none.
pub fn read_reply(reply: &str) -> Result<(Coord, Coord), String> {
    if let Some(why) = reply.strip_prefix(ERROR) {
        return Err(why.to_string());
    }
    let numbers: Vec<i32> = reply
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{reply:?} is not a move"))?;
    match numbers[..] {
        [x1, y1, z1, x2, y2, z2] => Ok((Coord::new(x1, y1, z1), Coord::new(x2, y2, z2))),
        _ => Err(format!("{reply:?} is not a move")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::hyperchess::{maps, parse_map};

    #[test]
    fn a_job_answers_as_the_engine_chooses() {
        let game = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
        let reply = hyperchess_builtin_answer(&job(&game, 2_000, 7));
        let direct = ai::choose(&game, 7, |p| p.nodes < 2_000).unwrap();
        assert_eq!(read_reply(&reply), Ok((direct.from, direct.to)));
    }

    #[test]
    fn a_bad_job_or_reply_is_an_error_not_a_panic() {
        for bad in ["", "100 5", "x 5\nHyperChess save 1", "100 5\nnot a save"] {
            let reply = hyperchess_builtin_answer(bad);
            assert!(reply.starts_with(ERROR), "{bad:?}: {reply}");
            assert!(read_reply(&reply).is_err());
        }
        for bad in ["", "1 2 3", "1 2 3 4 5 x", "1 2 3 4 5 6 7"] {
            assert!(read_reply(bad).is_err(), "{bad:?}");
        }
    }
}
