//! One team's answer on a board, and what the referee must make of it: the table runs every case in
//! both modes, because checking, enacting, healing and deciding are the same steps in both.
//!
//! In the simultaneous mode the other team answers a harmless step (the board's `quiet` move), so that
//! the case's answer alone decides whether anything is enacted. In the alternating mode the team under
//! test is to move, and the other team's "timed out" is never reported since it was not asked.

use super::{error_of, game, kind, pair};
use crate::common::sq;
use gridarena_engine::halma::{
    Answer, EnactedMove, ErrorKind, GameResult, Mode, MoveError, NoMove, Point, Team, TickRefused,
};
use serde_json::json;

mod boards;
mod table;

use boards::Board;

/// One referee case.
pub struct Case {
    pub name: &'static str,
    pub board: fn() -> Board,
    /// The team whose answer is tested.
    pub team: Team,
    pub answer: Answer,
    pub want: Want,
    /// How the game ends on this tick.
    pub result: Option<GameResult>,
}

/// What must come of the answer.
pub enum Want {
    /// The move is enacted and the piece ends on `to`.
    Moves { to: (u8, u8) },
    /// Nothing is enacted and the team gets the error `code`, whose message names every one of `words`;
    /// `error` is the exact [`MoveError`] where the case pins it.
    Refused {
        code: &'static str,
        words: &'static [&'static str],
        error: Option<MoveError>,
    },
}

#[test]
fn every_case_in_every_mode() {
    let cases = table::cases();
    assert_eq!(cases.len(), 56, "the table lost or gained cases");
    for case in &cases {
        for mode in [Mode::Simultaneous, Mode::Alternating] {
            run(case, mode);
        }
    }
}

/// Plays the case's tick and checks everything the referee promises about it.
fn run(case: &Case, mode: Mode) {
    let at = format!("{} ({mode:?}, {})", case.name, case.team);
    let Board { mut state, quiet } = (case.board)();
    if mode == Mode::Alternating {
        state["mode"] = json!("alternating");
        state["toMove"] = json!(case.team.name());
    }
    let limit = state["turnLimit"].clone();
    let mut g = game(state);
    assert_eq!(json!(g.turn_limit()), limit, "{at}");
    assert_eq!(
        g.result(),
        None,
        "{at}: a case starts from an unfinished game"
    );
    let before = g.clone();
    let other = case.team.other();
    let theirs = match mode {
        Mode::Simultaneous => quiet[other].clone(),
        Mode::Alternating => Answer::NoMove(NoMove::TimedOut { after_ms: 5 }),
    };
    let (red, blue) = pair(case.team, case.answer.clone(), theirs);
    let o = g.tick(red, blue).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!((o.turn, g.turn()), (1, 1), "{at}");
    assert_eq!(o.movers, before.movers(), "{at}");
    assert!(o.collisions.is_empty(), "{at}");
    let damaged: Vec<_> = g
        .position()
        .damaged()
        .map(|(t, p)| (t, p.square, p.damage))
        .collect();
    let reported: Vec<_> = o
        .damaged
        .iter()
        .map(|d| (d.team, sq(d.x, d.y), d.damage))
        .collect();
    assert_eq!(
        reported, damaged,
        "{at}: the outcome lists every damaged piece"
    );

    match &case.want {
        Want::Moves { to } => {
            assert!(o.errors.is_empty(), "{at}: {:?}", o.errors);
            assert_eq!(o.moves.len(), o.movers.len(), "{at}: {:?}", o.moves);
            let Answer::Move(path) = &case.answer else {
                panic!("{at}: a move is expected from a move")
            };
            let mine: Vec<&EnactedMove> = o.moves.iter().filter(|m| m.team == case.team).collect();
            assert_eq!(mine.len(), 1, "{at}: {:?}", o.moves);
            assert_eq!(Point::from(mine[0].from), path.from, "{at}");
            assert_eq!(mine[0].to.last(), Some(&sq(to.0, to.1)), "{at}");
            let checked = before.position().check(case.team, path).map(|m| m.to);
            assert_eq!(checked, Ok(sq(to.0, to.1)), "{at}");
            assert!(g.position().piece_at(case.team, sq(to.0, to.1)).is_some());
            assert!(g.position().piece_at(case.team, mine[0].from).is_none());
            // An enacted tick without a collision heals every piece by one.
            for t in Team::ALL {
                let was = before.position().pieces(t).iter().map(|p| p.damage);
                let now = g.position().pieces(t).iter().map(|p| p.damage);
                let healed: Vec<u8> = was.map(|d| d.saturating_sub(1)).collect();
                assert_eq!(now.collect::<Vec<_>>(), healed, "{at}: {t}'s damage");
            }
        }
        Want::Refused { code, words, error } => {
            assert!(o.moves.is_empty(), "{at}: {:?}", o.moves);
            assert_eq!(g.position(), before.position(), "{at}: the board changed");
            assert_eq!(o.errors.len(), 1, "{at}: {:?}", o.errors);
            let e = error_of(&o, case.team);
            assert_eq!(e.code, *code, "{at}");
            for w in *words {
                assert!(
                    e.message.contains(w),
                    "{at}: {:?} does not name {w}",
                    e.message
                );
            }
            let shown = e.to_string();
            assert!(
                shown.starts_with(&format!("{}: ", case.team)),
                "{at}: {shown}"
            );
            match &case.answer {
                Answer::Move(path) => {
                    let checked = before.position().check(case.team, path);
                    let refusal = checked.expect_err("the position refuses it too");
                    assert_eq!(e.code, refusal.code(), "{at}");
                    assert_eq!(e.message, refusal.to_string(), "{at}");
                    if let Some(error) = error {
                        assert_eq!(&refusal, error, "{at}");
                    }
                    assert_eq!(e.kind, ErrorKind::InvalidMove);
                    assert_eq!(kind(e), "invalidMove");
                    assert_eq!(e.submitted.as_ref(), Some(path), "{at}");
                    assert!(shown.contains(": invalid move: "), "{at}: {shown}");
                }
                Answer::NoMove(why) => {
                    assert_eq!(e.message, why.to_string(), "{at}");
                    assert_eq!(kind(e), "noMove");
                    assert!(e.submitted.is_none(), "{at}");
                }
            }
        }
    }

    assert_eq!((o.result, g.result()), (case.result, case.result), "{at}");
    match case.result {
        None if mode == Mode::Alternating => assert_eq!(g.to_move(), Some(other), "{at}"),
        None => assert_eq!(g.movers(), Team::ALL.to_vec(), "{at}"),
        Some(result) => {
            assert!(g.movers().is_empty(), "{at}");
            if let Some(winner) = result.winner() {
                assert!(g.position().has_won(winner), "{at}");
                assert!(!g.position().has_won(winner.other()), "{at}");
            }
            // A finished game takes no more ticks, and a refused tick changes nothing.
            let after = g.clone();
            let again = g.tick(quiet.red.clone(), quiet.blue.clone());
            assert_eq!(again, Err(TickRefused::GameOver(result)), "{at}");
            assert!(again.unwrap_err().to_string().contains("over"), "{at}");
            assert_eq!(g, after, "{at}: a refused tick changed the game");
        }
    }
}

/// Move generation agrees with what the cases check: it offers no move out of the camp, counts only
/// the final square of a chain, and never lands on a shared square.
#[test]
fn move_generation_agrees_with_the_case_boards() {
    let g = game(boards::camp().state);
    let p = g.position();
    assert!(!p
        .moves(Team::Red)
        .iter()
        .any(|m| m.from == sq(6, 6) && !p.is_destination(Team::Red, m.to)));

    let g = game(boards::camp_chain().state);
    let moves = g.position().moves_from(Team::Red, sq(7, 7));
    assert!(moves.iter().any(|m| m.to == sq(7, 3)), "{moves:?}");
    assert!(!moves.iter().any(|m| m.to == sq(7, 5)), "{moves:?}");

    let g = game(boards::shared().state);
    let p = g.position();
    assert!(p.is_shared(sq(3, 3)) && p.is_occupied(sq(3, 3)) && !p.is_empty(sq(3, 3)));
    assert!(!p.moves(Team::Red).iter().any(|m| m.to == sq(3, 3)));
}

/// A spoiled destination does not count as filled before red's own move fills the rest.
#[test]
fn the_spoiled_boards_start_unwon() {
    for board in [boards::spoiled, boards::all_spoiled] {
        let g = game(board().state);
        assert!(!g.position().has_won(Team::Red));
    }
}
