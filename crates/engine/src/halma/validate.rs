//! Checking a submitted move: the chain of landing squares an AI or a person sends.

use super::movegen::CourseStage;
use super::path::Path;
use super::point::Point;
use super::position::{EMPTY, OCCUPIED};
use super::{Move, Position, Square, Team};
use std::fmt;

/// Why a submitted move is not legal. Each names the squares involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// A square of the move is not on the board.
    OffBoard { point: Point, size: u8 },
    /// The mover has no piece on `from`.
    NoPiece { team: Team, at: Square },
    /// `to` lists no square.
    EmptyTo,
    /// A landing square was not empty at the start of the turn.
    Occupied { at: Square },
    /// A jump whose middle square was empty.
    OverEmpty {
        from: Square,
        to: Square,
        over: Square,
    },
    /// A hop that is neither a step nor a jump of exactly two squares in a straight or diagonal line.
    NotAJump { from: Square, to: Square },
    /// A step followed or preceded by other hops.
    StepMixedWithJumps { from: Square, to: Square },
    /// A damaged piece tried to jump.
    DamagedJump { at: Square, damage: u8 },
    /// The chain ends on the square it started from.
    ReturnsToStart { at: Square },
    /// The camp rule: a piece in its destination ended outside it.
    LeavesCamp { from: Square, to: Square },
    /// The course's rule 1: a move that starts outside `team`'s own camp ended inside it.
    EntersOwnCamp {
        team: Team,
        from: Square,
        to: Square,
    },
    /// The course's rule 2: a piece is still in `team`'s own camp and some move takes one out
    /// (`example`), so the move must be one of those.
    MustLeaveCamp {
        team: Team,
        from: Square,
        to: Square,
        example: Move,
    },
    /// The course's rule 2: no move takes a piece out of `team`'s own camp, but some move takes a camp
    /// piece further from the own corner (`example`), so the move must be one of those.
    MustMoveAwayFromCorner {
        team: Team,
        from: Square,
        to: Square,
        corner: Square,
        example: Move,
    },
}

impl MoveError {
    /// A stable identifier for programs (the message is for people).
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::OffBoard { .. } => "off_board",
            MoveError::NoPiece { .. } => "no_piece",
            MoveError::EmptyTo => "empty_to",
            MoveError::Occupied { .. } => "occupied",
            MoveError::OverEmpty { .. } => "jump_over_empty",
            MoveError::NotAJump { .. } => "not_a_jump",
            MoveError::StepMixedWithJumps { .. } => "step_mixed_with_jumps",
            MoveError::DamagedJump { .. } => "damaged_jump",
            MoveError::ReturnsToStart { .. } => "returns_to_start",
            MoveError::LeavesCamp { .. } => "leaves_camp",
            MoveError::EntersOwnCamp { .. } => "enters_own_camp",
            MoveError::MustLeaveCamp { .. } => "must_leave_camp",
            MoveError::MustMoveAwayFromCorner { .. } => "must_move_away_from_corner",
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard { point, size } => {
                write!(f, "square {point} is off the {size}x{size} board")
            }
            MoveError::NoPiece { team, at } => write!(f, "{team} has no piece at {at}"),
            MoveError::EmptyTo => f.write_str("\"to\" is empty: it must list at least one square"),
            MoveError::Occupied { at } => write!(f, "landing square {at} is occupied"),
            MoveError::OverEmpty { from, to, over } => {
                write!(f, "jump {from}->{to} is over the empty square {over}")
            }
            MoveError::NotAJump { from, to } => write!(
                f,
                "{from}->{to} is neither a step to a neighbouring square nor a jump of exactly two squares \
                 in a straight or diagonal line"
            ),
            MoveError::StepMixedWithJumps { from, to } => write!(
                f,
                "{from}->{to} is a step inside a chain: a move is one step or a chain of jumps, never both"
            ),
            MoveError::DamagedJump { at, damage } => write!(
                f,
                "the piece at {at} is damaged ({damage}) and may step but not jump"
            ),
            MoveError::ReturnsToStart { at } => {
                write!(f, "the move ends where it started, at {at}: that is not a move")
            }
            MoveError::LeavesCamp { from, to } => write!(
                f,
                "the piece at {from} has reached its destination camp and may not leave it (it would end at {to})"
            ),
            MoveError::EntersOwnCamp { team, from, to } => write!(
                f,
                "the course's camp rule: a move that starts outside {team}'s camp may not end inside it \
                 ({from}->{to})"
            ),
            MoveError::MustLeaveCamp {
                team,
                from,
                to,
                example,
            } => write!(
                f,
                "the course's camp rule: {team} still has a piece in its camp and can move one out \
                 (for example {example}), so it must; {from}->{to} does not"
            ),
            MoveError::MustMoveAwayFromCorner {
                team,
                from,
                to,
                corner,
                example,
            } => write!(
                f,
                "the course's camp rule: no {team} piece can leave its camp, but one can move further \
                 from the corner {corner} (for example {example}), so one must; {from}->{to} does not"
            ),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// The squares a move being built square by square (a person clicking) may land on next.
    ///
    /// With nothing landed yet: every final square of the piece's legal moves' first hop, that is every
    /// legal step and every legal first jump. After a jump: every further jump. A landing is offered when
    /// the longer chain is legal, or illegal only because of where it ends (back on the start square,
    /// outside the camp the piece may not leave, or under the course's camp rules inside the own camp, or
    /// for a piece in the own camp, not out of it or not further from the corner), since one more jump can
    /// still make it a move.
    pub fn next_landings(&self, team: Team, path: &Path) -> Vec<Square> {
        let size = self.size();
        let Some(end) = path
            .to
            .last()
            .or(Some(&path.from))
            .and_then(|p| p.square_on(size))
        else {
            return vec![];
        };
        let first = path.to.is_empty();
        let mut out = Vec::new();
        for d in super::square::DIRECTIONS {
            for reach in [1, 2] {
                if reach == 1 && !first {
                    continue;
                }
                let cell = end.cell().wrapping_add_signed(d * reach);
                if self.cells.get(cell) != Some(&EMPTY) {
                    continue;
                }
                let to = Square::from_cell(cell);
                let mut longer = path.clone();
                longer.to.push(to.into());
                match self.check(team, &longer) {
                    Ok(_) => out.push(to),
                    Err(MoveError::ReturnsToStart { .. } | MoveError::LeavesCamp { .. })
                        if reach == 2 =>
                    {
                        out.push(to)
                    }
                    Err(MoveError::EntersOwnCamp { .. }) if reach == 2 => out.push(to),
                    Err(
                        MoveError::MustLeaveCamp { from, .. }
                        | MoveError::MustMoveAwayFromCorner { from, .. },
                    ) if reach == 2 && self.in_own_camp(team, from) => out.push(to),
                    Err(_) => {}
                }
            }
        }
        out
    }

    /// Checks `path` as `team`'s move against this position and returns the move it makes.
    ///
    /// This is where anything a player sends is judged, so it takes unchecked coordinates and says
    /// exactly what is wrong with a refused move; the referee reports the [`MoveError`] to the team.
    ///
    /// ```
    /// use gridarena_engine::halma::{Game, MoveError, Path, Point, Preset, Square, Team};
    ///
    /// let sq = |x, y| Square::new(x, y).unwrap();
    /// let game = Game::new(&Preset::Arena.rules(), 0).unwrap();
    /// let board = game.position();
    ///
    /// // A jump over the piece on (2,15).
    /// let jump = Path::new(sq(1, 15), vec![sq(3, 15)]);
    /// assert_eq!(board.check(Team::Red, &jump).map(|mv| mv.to), Ok(sq(3, 15)));
    ///
    /// // A landing off the board is refused with the point as it was sent.
    /// let off = Path { from: Point { x: 0, y: 17 }, to: vec![Point { x: -1, y: 17 }] };
    /// let err = board.check(Team::Red, &off).unwrap_err();
    /// assert_eq!(err, MoveError::OffBoard { point: Point { x: -1, y: 17 }, size: 18 });
    /// assert_eq!(err.code(), "off_board");
    /// ```
    pub fn check(&self, team: Team, path: &Path) -> Result<Move, MoveError> {
        self.check_path(team, path).map(|(mv, _)| mv)
    }

    /// Like [`Position::check`], also returning the landing squares.
    pub(crate) fn check_path(
        &self,
        team: Team,
        path: &Path,
    ) -> Result<(Move, Vec<Square>), MoveError> {
        let on_board = |p: Point| -> Result<Square, MoveError> {
            p.square_on(self.size()).ok_or(MoveError::OffBoard {
                point: p,
                size: self.size(),
            })
        };
        let from = on_board(path.from)?;
        let landings = path
            .to
            .iter()
            .map(|&p| on_board(p))
            .collect::<Result<Vec<_>, _>>()?;
        let piece = self
            .piece_at(team, from)
            .ok_or(MoveError::NoPiece { team, at: from })?;
        let Some(&last) = landings.last() else {
            return Err(MoveError::EmptyTo);
        };

        let mut at = from;
        for (i, &to) in landings.iter().enumerate() {
            let (dx, dy) = (
                i16::from(to.x()) - i16::from(at.x()),
                i16::from(to.y()) - i16::from(at.y()),
            );
            let step = dx.abs().max(dy.abs()) == 1;
            let jump =
                (dx == 0 || dx.abs() == 2) && (dy == 0 || dy.abs() == 2) && (dx, dy) != (0, 0);
            if step && landings.len() > 1 {
                return Err(MoveError::StepMixedWithJumps { from: at, to });
            }
            if !step && !jump {
                return Err(MoveError::NotAJump { from: at, to });
            }
            if jump {
                if piece.damage > 0 {
                    return Err(MoveError::DamagedJump {
                        at: from,
                        damage: piece.damage,
                    });
                }
                let mid = |a: u8, b: u8| ((u16::from(a) + u16::from(b)) / 2) as u8;
                let over = Square::new(mid(at.x(), to.x()), mid(at.y(), to.y()))
                    .ok_or(MoveError::NotAJump { from: at, to })?;
                if self.cells[over.cell()] & OCCUPIED == 0 {
                    return Err(MoveError::OverEmpty { from: at, to, over });
                }
            }
            if to == from && i + 1 == landings.len() {
                return Err(MoveError::ReturnsToStart { at: from });
            }
            if self.cells[to.cell()] != EMPTY {
                return Err(MoveError::Occupied { at: to });
            }
            at = to;
        }
        if self.camp_rule() && self.is_destination(team, from) && !self.is_destination(team, last) {
            return Err(MoveError::LeavesCamp { from, to: last });
        }
        if let Some((corner, stage)) = self.course_stage(team) {
            let (in_camp, ends_in_camp) =
                (self.in_own_camp(team, from), self.in_own_camp(team, last));
            if !in_camp && ends_in_camp {
                return Err(MoveError::EntersOwnCamp {
                    team,
                    from,
                    to: last,
                });
            }
            let allowed = stage.allows(corner, (from, in_camp), (last, ends_in_camp));
            match stage {
                CourseStage::Leave(example) if !allowed => {
                    return Err(MoveError::MustLeaveCamp {
                        team,
                        from,
                        to: last,
                        example,
                    })
                }
                CourseStage::Away(example) if !allowed => {
                    return Err(MoveError::MustMoveAwayFromCorner {
                        team,
                        from,
                        to: last,
                        corner,
                        example,
                    })
                }
                _ => {}
            }
        }
        Ok((Move { from, to: last }, landings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::{Game, Preset};

    fn sq(x: u8, y: u8) -> Square {
        Square::new(x, y).unwrap()
    }

    #[test]
    fn next_landings_offer_steps_and_jumps_first_then_only_jumps() {
        let game = Game::new(&Preset::Arena.rules(), 0).unwrap();
        let pos = game.position();
        let mut first = pos.next_landings(Team::Red, &Path::new(sq(2, 15), vec![]));
        first.sort();
        // Jumps over (1,14) and (2,14); (4,13) would be over the empty (3,14).
        assert_eq!(
            first,
            vec![sq(0, 13), sq(2, 13), sq(3, 14), sq(3, 15), sq(3, 16)]
        );
        // From (2,13) every jump lands on a piece or goes over an empty square.
        assert!(pos
            .next_landings(Team::Red, &Path::new(sq(2, 15), vec![sq(2, 13)]))
            .is_empty());
        // Nothing follows a step, and a square that is not the team's piece offers nothing.
        assert!(pos
            .next_landings(Team::Red, &Path::new(sq(2, 15), vec![sq(3, 15)]))
            .is_empty());
        assert!(pos
            .next_landings(Team::Red, &Path::new(sq(9, 9), vec![]))
            .is_empty());
        // Every offered landing is a legal move on its own here.
        for s in first {
            assert!(pos.check(Team::Red, &Path::new(sq(2, 15), vec![s])).is_ok());
        }
    }
}
