//! Legal move generation.
//!
//! Per piece: the up to eight steps, then a flood fill of the squares its jump chains reach. A square is
//! entered once however many chains reach it, because a move is its (origin, final square) pair.
//!
//! The course's camp rules (see [`CampRules`](super::CampRules)) take a second generator: its first pass
//! finds which kind of move rule 2 allows now, its second emits only those. The seed's rules keep the
//! plain one, so they pay nothing for the course's.

use super::position::{EMPTY, OCCUPIED};
use super::square::{CELLS, DIRECTIONS};
use super::validate::Path;
use super::{Move, Piece, Position, Square, Team, MAX_BOARD_SIZE};

const WORDS: usize = CELLS.div_ceil(64);

/// Jumps keep both coordinates' parity, so one piece reaches at most a quarter of the largest board.
const MAX_JUMP_TARGETS: usize = (MAX_BOARD_SIZE as usize).div_ceil(2).pow(2);

/// Working memory for the jump flood fill, set up once per generation call rather than once per piece.
struct Scratch {
    seen: [u64; WORDS],
    queue: [u16; MAX_JUMP_TARGETS],
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            seen: [0; WORDS],
            queue: [0; MAX_JUMP_TARGETS],
        }
    }
}

/// Under the course's camp rules, the moves rule 2 allows a team now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CourseStage {
    /// A piece is in the own camp and some move takes a camp piece out of it (the first found): only
    /// such moves.
    Leave(Move),
    /// No move takes a camp piece out, but some move takes one further from the own corner (the first
    /// found): only such moves.
    Away(Move),
    /// Neither (no piece in the camp, or every camp piece stuck): every move the other rules allow.
    Free,
}

impl CourseStage {
    /// Whether rule 2 lets a move from `from` to `to` be made now; `*_in_camp` say whether each is in
    /// the team's own camp. Move generation and the check of a submitted move both ask this.
    pub(crate) fn allows(
        self,
        corner: Square,
        (from, from_in_camp): (Square, bool),
        (to, to_in_camp): (Square, bool),
    ) -> bool {
        match self {
            CourseStage::Leave(_) => from_in_camp && !to_in_camp,
            CourseStage::Away(_) => from_in_camp && further_from(corner, from, to),
            CourseStage::Free => true,
        }
    }
}

/// Whether `to` is further from `corner` than `from`: no closer on either axis, further on one at least.
fn further_from(corner: Square, from: Square, to: Square) -> bool {
    let d = |s: Square| (s.x().abs_diff(corner.x()), s.y().abs_diff(corner.y()));
    let ((fx, fy), (tx, ty)) = (d(from), d(to));
    tx >= fx && ty >= fy && (tx > fx || ty > fy)
}

impl Position {
    /// Appends every legal move of `team` to `out` (which is not cleared), piece by piece in the order of
    /// [`Position::pieces`]; per piece, steps first, then jumps in the order the flood fill reaches them.
    pub fn legal_moves(&self, team: Team, out: &mut Vec<Move>) {
        if self.own_corner(team).is_some() {
            return self.course_moves(team, None, |from, to| out.push(Move { from, to }));
        }
        let mut scratch = Scratch::new();
        for p in &self.pieces[team] {
            let from = p.square;
            self.targets::<false>(team, p, &mut scratch, |to| {
                out.push(Move {
                    from,
                    to: Square::from_cell(to),
                })
            });
        }
    }

    /// Every legal move of `team`, in a new vector.
    pub fn moves(&self, team: Team) -> Vec<Move> {
        let mut v = Vec::new();
        self.legal_moves(team, &mut v);
        v
    }

    /// The number of legal moves of `team`, without storing them.
    pub fn count_moves(&self, team: Team) -> usize {
        let mut n = 0;
        if self.own_corner(team).is_some() {
            self.course_moves(team, None, |_, _| n += 1);
            return n;
        }
        let mut scratch = Scratch::new();
        for p in &self.pieces[team] {
            self.targets::<false>(team, p, &mut scratch, |_| n += 1);
        }
        n
    }

    /// The legal moves of the piece of `team` on `from` (none if there is no such piece).
    ///
    /// Under the course's camp rules a piece that rule 2 does not let move now has none.
    pub fn moves_from(&self, team: Team, from: Square) -> Vec<Move> {
        let mut v = Vec::new();
        if self.own_corner(team).is_some() {
            self.course_moves(team, Some(from), |from, to| v.push(Move { from, to }));
            return v;
        }
        if let Some(p) = self.piece_at(team, from) {
            self.targets::<false>(team, &p, &mut Scratch::new(), |to| {
                v.push(Move {
                    from,
                    to: Square::from_cell(to),
                })
            });
        }
        v
    }

    /// Under the course's camp rules (the caller has checked they are on), calls `emit` with every legal
    /// move of `team`, or of its piece on `only`.
    fn course_moves(&self, team: Team, only: Option<Square>, mut emit: impl FnMut(Square, Square)) {
        let Some(corner) = self.own_corner(team) else {
            return;
        };
        let mut scratch = Scratch::new();
        let stage = self.course_stage_with(team, corner, &mut scratch);
        for p in &self.pieces[team] {
            let from = p.square;
            if only.is_some_and(|s| s != from)
                || (stage != CourseStage::Free && !self.in_own_camp(team, from))
            {
                continue;
            }
            let from_in_camp = self.in_own_camp(team, from);
            self.targets::<true>(team, p, &mut scratch, |to| {
                let to = Square::from_cell(to);
                if stage.allows(
                    corner,
                    (from, from_in_camp),
                    (to, self.in_own_camp(team, to)),
                ) {
                    emit(from, to);
                }
            });
        }
    }

    /// Under the course's camp rules, `team`'s own corner and the moves rule 2 allows it now; `None`
    /// under the seed's.
    pub(crate) fn course_stage(&self, team: Team) -> Option<(Square, CourseStage)> {
        let corner = self.own_corner(team)?;
        Some((
            corner,
            self.course_stage_with(team, corner, &mut Scratch::new()),
        ))
    }

    fn course_stage_with(&self, team: Team, corner: Square, scratch: &mut Scratch) -> CourseStage {
        let mut away = None;
        for p in &self.pieces[team] {
            let from = p.square;
            if !self.in_own_camp(team, from) {
                continue;
            }
            let mut leave = None;
            self.targets::<true>(team, p, scratch, |to| {
                let to = Square::from_cell(to);
                if !self.in_own_camp(team, to) {
                    leave = leave.or(Some(Move { from, to }));
                } else if away.is_none() && further_from(corner, from, to) {
                    away = Some(Move { from, to });
                }
            });
            if let Some(mv) = leave {
                return CourseStage::Leave(mv);
            }
        }
        away.map_or(CourseStage::Free, CourseStage::Away)
    }

    /// Calls `emit` with the cell of every final square the piece can reach under the seed's camp rule,
    /// and with `COURSE`, also under the course's rule 1 (a move that starts outside the own camp may
    /// not end inside it). Rule 2 is the caller's.
    #[inline(always)]
    fn targets<const COURSE: bool>(
        &self,
        team: Team,
        piece: &Piece,
        scratch: &mut Scratch,
        mut emit: impl FnMut(usize),
    ) {
        let bit = team.bit();
        let from = piece.square.cell();
        // The camp rule: a piece standing in its destination may only end a move inside it.
        let locked = self.camp_rule() && self.dest[from] & bit != 0;
        // The course's rule 1: the own camp is the other team's destinations.
        let camp = team.other().bit();
        let shut = COURSE && self.dest[from] & camp == 0;
        let ends_ok =
            |c: usize| (!locked || self.dest[c] & bit != 0) && (!shut || self.dest[c] & camp == 0);

        for d in DIRECTIONS {
            let n = from.wrapping_add_signed(d);
            if self.cells[n] == EMPTY && ends_ok(n) {
                emit(n);
            }
        }
        if piece.damage > 0 {
            return;
        }

        // Breadth-first over landing squares. The queue keeps every square it was given, so the seen
        // bits can be cleared square by square afterwards instead of wiping the whole set per piece.
        let Scratch { seen, queue } = scratch;
        seen[from / 64] |= 1 << (from % 64);
        queue[0] = from as u16;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let at = queue[head] as usize;
            head += 1;
            for d in DIRECTIONS {
                let over = at.wrapping_add_signed(d);
                let land = over.wrapping_add_signed(d);
                if self.cells[over] & OCCUPIED != 0
                    && self.cells[land] == EMPTY
                    && seen[land / 64] & (1 << (land % 64)) == 0
                {
                    seen[land / 64] |= 1 << (land % 64);
                    if tail < MAX_JUMP_TARGETS {
                        queue[tail] = land as u16;
                        tail += 1;
                    }
                    if ends_ok(land) {
                        emit(land);
                    }
                }
            }
        }
        for &c in &queue[..tail] {
            seen[c as usize / 64] = 0;
        }
    }

    /// The shortest chain of landing squares that makes `mv`, or `None` if `mv` is not legal here.
    ///
    /// Search works with (origin, final square) pairs; the protocol wants every landing square.
    pub fn path(&self, team: Team, mv: Move) -> Option<Path> {
        if !self.moves_from(team, mv.from).contains(&mv) {
            return None;
        }
        if mv.is_step() {
            return Some(Path::new(mv.from, vec![mv.to]));
        }
        // Breadth-first search over jump landings, remembering where each square was reached from.
        let mut parent = vec![u16::MAX; CELLS];
        let from = mv.from.cell();
        let mut queue = std::collections::VecDeque::from([from]);
        parent[from] = from as u16;
        while let Some(at) = queue.pop_front() {
            if at == mv.to.cell() {
                break;
            }
            for d in DIRECTIONS {
                let over = at.wrapping_add_signed(d);
                let land = over.wrapping_add_signed(d);
                if self.cells[over] & OCCUPIED != 0
                    && self.cells[land] == EMPTY
                    && parent[land] == u16::MAX
                {
                    parent[land] = at as u16;
                    queue.push_back(land);
                }
            }
        }
        let mut landings = Vec::new();
        let mut at = mv.to.cell();
        while at != from && landings.len() < CELLS {
            landings.push(Square::from_cell(at));
            at = parent[at] as usize;
        }
        landings.reverse();
        Some(Path::new(mv.from, landings))
    }
}
