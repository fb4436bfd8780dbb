//! The cases, grouped by what they are about. The lists are kept out of rustfmt so that each case
//! stays one row: name, board, team, the move, and what must come of it.

use super::boards::{self, Board};
use super::{Case, Want};
use crate::common::sq;
use crate::mv;
use gridarena_engine::halma::{
    protocol::parse_response, Answer, GameResult, MoveError, NoMove, Point, Team,
};

const RED: Team = Team::Red;
const BLUE: Team = Team::Blue;
const RED_WINS: GameResult = GameResult::Win { winner: Team::Red };
const TURN_LIMIT: GameResult = GameResult::TurnLimit;

type Xy = (i64, i64);

impl Case {
    fn new(
        name: &'static str,
        board: fn() -> Board,
        team: Team,
        answer: Answer,
        want: Want,
    ) -> Case {
        Case {
            name,
            board,
            team,
            answer,
            want,
            result: None,
        }
    }

    /// The exact error the position gives.
    fn pinned(mut self, e: MoveError) -> Case {
        if let Want::Refused { error, .. } = &mut self.want {
            *error = Some(e);
        }
        self
    }

    fn ends(mut self, result: GameResult) -> Case {
        self.result = Some(result);
        self
    }
}

/// A case whose answer is `team`'s move from `from` along `path`.
fn play(
    name: &'static str,
    board: fn() -> Board,
    team: Team,
    from: Xy,
    path: &[Xy],
    want: Want,
) -> Case {
    Case::new(name, board, team, mv(from, path), want)
}

fn to(x: u8, y: u8) -> Want {
    Want::Moves { to: (x, y) }
}

fn refused(code: &'static str, words: &'static [&'static str]) -> Want {
    Want::Refused {
        code,
        words,
        error: None,
    }
}

pub fn cases() -> Vec<Case> {
    [
        move_errors(),
        no_moves(),
        arena(),
        damage(),
        winning(),
        camp(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Every move error, on [`boards::errors`]: red at (3,3), (4,3), (1,1) damaged 3, (2,1); blue at
/// (3,5), (5,5), (5,3).
#[rustfmt::skip]
fn move_errors() -> Vec<Case> {
    use MoveError::*;
    let red = |name, from, path: &[Xy], want| play(name, boards::errors, RED, from, path, want);
    let off = |x, y| OffBoard { point: Point { x, y }, size: 8 };
    vec![
        red("no piece at from", (0, 0), &[(0, 1)], refused("no_piece", &["red", "(0,0)"]))
            .pinned(NoPiece { team: RED, at: sq(0, 0) }),
        red("a blue piece is not red's", (3, 5), &[(3, 6)], refused("no_piece", &["red", "(3,5)"])),
        red("a landing off the board", (3, 3), &[(3, 2), (3, 8)], refused("off_board", &["(3,8)", "8x8"]))
            .pinned(off(3, 8)),
        red("a start off the board", (8, 3), &[(7, 3)], refused("off_board", &["(8,3)"])),
        red("a negative landing", (3, 3), &[(-1, 2)], refused("off_board", &["(-1,2)"])),
        red("the largest coordinates", (3, 3), &[(i64::MAX, i64::MIN)],
            refused("off_board", &["9223372036854775807", "-9223372036854775808"]))
            .pinned(off(i64::MAX, i64::MIN)),
        red("a step onto a piece", (3, 3), &[(4, 3)], refused("occupied", &["(4,3)"]))
            .pinned(Occupied { at: sq(4, 3) }),
        red("a jump onto a piece", (3, 3), &[(5, 3)], refused("occupied", &["(5,3)"]))
            .pinned(Occupied { at: sq(5, 3) }),
        // The moving piece's own start square counts as occupied in the middle of a chain.
        red("a chain through its own start", (4, 3), &[(2, 3), (4, 3), (6, 3)], refused("occupied", &["(4,3)"]))
            .pinned(Occupied { at: sq(4, 3) }),
        red("a jump over an empty square", (3, 3), &[(3, 1)], refused("jump_over_empty", &["(3,3)", "(3,1)", "(3,2)"]))
            .pinned(OverEmpty { from: sq(3, 3), to: sq(3, 1), over: sq(3, 2) }),
        red("three squares along a row", (3, 3), &[(6, 3)], refused("not_a_jump", &["(3,3)", "(6,3)"]))
            .pinned(NotAJump { from: sq(3, 3), to: sq(6, 3) }),
        red("a knight's move", (3, 3), &[(5, 4)], refused("not_a_jump", &["(3,3)", "(5,4)"]))
            .pinned(NotAJump { from: sq(3, 3), to: sq(5, 4) }),
        red("three squares along a column", (3, 3), &[(3, 6)], refused("not_a_jump", &["(3,3)", "(3,6)"]))
            .pinned(NotAJump { from: sq(3, 3), to: sq(3, 6) }),
        red("a hop of length zero", (3, 3), &[(3, 3)], refused("not_a_jump", &["(3,3)"])),
        red("a step, then a jump", (3, 3), &[(3, 2), (3, 0)], refused("step_mixed_with_jumps", &["(3,3)", "(3,2)"]))
            .pinned(StepMixedWithJumps { from: sq(3, 3), to: sq(3, 2) }),
        // (4,3) over (3,3) to (2,3), then a step to (2,2).
        red("a jump, then a step", (4, 3), &[(2, 3), (2, 2)], refused("step_mixed_with_jumps", &["(2,3)", "(2,2)"])),
        // (1,1) has damage 3; (2,1) is next to it and (3,1) is empty.
        red("a damaged piece jumping", (1, 1), &[(3, 1)], refused("damaged_jump", &["(1,1)", "3"]))
            .pinned(DamagedJump { at: sq(1, 1), damage: 3 }),
        red("no landing", (3, 3), &[], refused("empty_to", &["\"to\""])).pinned(EmptyTo),
        // (4,3) jumps over (3,3) to (2,3) and back.
        red("a chain back to its start", (4, 3), &[(2, 3), (4, 3)], refused("returns_to_start", &["(4,3)"]))
            .pinned(ReturnsToStart { at: sq(4, 3) }),
    ]
}

/// Every reason for having no move, for either team: the team is named with the reason.
#[rustfmt::skip]
fn no_moves() -> Vec<Case> {
    let causes: [(NoMove, &'static str, &'static [&'static str]); 4] = [
        (NoMove::Missing, "missing", &["no move was submitted"]),
        (NoMove::TimedOut { after_ms: 1000 }, "timed_out", &["1000 ms"]),
        (NoMove::Unreadable(parse_response(b"[]").unwrap_err()), "list_of_moves", &["array"]),
        (NoMove::Failed("connection refused".into()), "request_failed", &["connection refused"]),
    ];
    let mut cases = Vec::new();
    for (cause, code, words) in causes {
        for team in Team::ALL {
            let answer = Answer::NoMove(cause.clone());
            cases.push(Case::new(code, boards::arena, team, answer, refused(code, words)));
        }
    }
    cases
}

/// Legal and illegal moves from the arena's start.
#[rustfmt::skip]
fn arena() -> Vec<Case> {
    let arena = boards::arena;
    vec![
        play("red jumps", arena, RED, (1, 15), &[(3, 15)], to(3, 15)),
        play("blue steps", arena, BLUE, (15, 14), &[(14, 13)], to(14, 13)),
        play("blue jumps over the empty (14,13)", arena, BLUE, (15, 14), &[(13, 12)], refused("jump_over_empty", &["(14,13)"])),
        play("red steps, then jumps", arena, RED, (0, 14), &[(0, 13), (0, 12)], refused("step_mixed_with_jumps", &[])),
    ]
}

/// Damaged pieces, and a square two pieces share after a collision.
#[rustfmt::skip]
fn damage() -> Vec<Case> {
    let (damaged, shared) = (boards::damaged, boards::shared);
    let occupied = MoveError::Occupied { at: sq(3, 3) };
    vec![
        play("a damaged piece may step", damaged, RED, (3, 3), &[(2, 2)], to(2, 2)),
        play("a damaged blue piece may step", damaged, BLUE, (6, 6), &[(6, 5)], to(6, 5)),
        play("a jump over a shared square", shared, RED, (2, 3), &[(4, 3)], to(4, 3)),
        play("a step onto a shared square", shared, RED, (4, 4), &[(3, 3)], refused("occupied", &["(3,3)"]))
            .pinned(occupied.clone()),
        play("a jump onto a shared square", shared, RED, (3, 1), &[(3, 3)], refused("occupied", &["(3,3)"]))
            .pinned(occupied),
    ]
}

/// Filling the destinations, spoiling them, and the turn limit.
#[rustfmt::skip]
fn winning() -> Vec<Case> {
    let last = boards::last_tick;
    vec![
        play("not yet filled", boards::two_steps_to_win, RED, (7, 2), &[(7, 1)], to(7, 1)),
        play("filling the destinations wins", boards::one_step_to_win, RED, (7, 1), &[(7, 0)], to(7, 0)).ends(RED_WINS),
        // Enemy-held destinations are exempt, but one own piece is needed.
        play("the rest filled around a spoiler", boards::spoiled, RED, (6, 1), &[(6, 0)], to(6, 0)).ends(RED_WINS),
        play("every destination spoiled", boards::all_spoiled, RED, (2, 6), &[(2, 5)], to(2, 5)),
        play("a win on the last tick", last, RED, (6, 1), &[(7, 0)], to(7, 0)).ends(RED_WINS),
        play("the limit after an enacted tick", last, RED, (6, 1), &[(6, 2)], to(6, 2)).ends(TURN_LIMIT),
        Case::new("the limit after a refused tick", last, RED, crate::none(), refused("missing", &[])).ends(TURN_LIMIT),
    ]
}

/// The camp rule: a piece in its destination may not end outside it.
#[rustfmt::skip]
fn camp() -> Vec<Case> {
    let leaves = |from: (u8, u8), to: (u8, u8)| MoveError::LeavesCamp { from: sq(from.0, from.1), to: sq(to.0, to.1) };
    let (camp, chain) = (boards::camp, boards::camp_chain);
    let mut cases = vec![
        play("a step out of the camp", camp, RED, (6, 6), &[(6, 5)], refused("leaves_camp", &["(6,6)", "(6,5)"]))
            .pinned(leaves((6, 6), (6, 5))),
        play("a jump out of the camp", camp, RED, (6, 6), &[(4, 6)], refused("leaves_camp", &["(6,6)", "(4,6)"]))
            .pinned(leaves((6, 6), (4, 6))),
        play("a diagonal step out", camp, RED, (6, 6), &[(5, 5)], refused("leaves_camp", &["(6,6)", "(5,5)"])),
        // A step inside a chain is reported before the camp rule.
        play("a chain with a step out", camp, RED, (7, 7), &[(6, 7), (5, 7)], refused("step_mixed_with_jumps", &[])),
        play("moving inside the camp", camp, RED, (6, 6), &[(7, 6)], to(7, 6)),
        play("entering the camp", camp, RED, (5, 6), &[(6, 7)], to(6, 7)),
        play("moving outside the camp", camp, RED, (5, 6), &[(4, 5)], to(4, 5)),
        play("leaving without the camp rule", boards::no_camp, RED, (6, 6), &[(6, 5)], to(6, 5)),
        // Only the final square counts.
        play("a chain out and back in", chain, RED, (7, 7), &[(7, 5), (7, 3)], to(7, 3)),
        play("a chain ending out of the camp", chain, RED, (7, 7), &[(7, 5)], refused("leaves_camp", &["(7,7)", "(7,5)"]))
            .pinned(leaves((7, 7), (7, 5))),
    ];
    for out in [(7, 3), (6, 4), (6, 3)] {
        let path = [(i64::from(out.0), i64::from(out.1))];
        let case = play("the mini preset's camp", boards::mini_in_camp, RED, (7, 4), &path, refused("leaves_camp", &["(7,4)"]));
        cases.push(case.pinned(leaves((7, 4), out)));
    }
    cases
}
