//! Legal move generation.
//!
//! Per piece: the up to eight steps, then a flood fill of the squares its jump chains reach. A square is
//! entered once however many chains reach it, because a move is its (origin, final square) pair.
//!
//! The course's camp rules (see [`CampRules`](super::CampRules)) take a second generator: its first pass
//! finds which kind of move rule 2 allows now, its second emits only those. The seed's rules keep the
//! plain one, so they pay nothing for the course's.

use super::path::Path;
use super::position::{EMPTY, OCCUPIED};
use super::square::{CELLS, DIRECTIONS, STRIDE};
use super::{Move, Piece, Position, Square, Team, MAX_BOARD_SIZE};

/// The seen set's words, rounded up to a power of two so that a word index is masked into range, not
/// bounds-checked: the flood fill's hottest loop is then free of branches that never go the other way.
const WORDS: usize = CELLS.div_ceil(64).next_power_of_two();

/// Jumps keep both coordinates' parity, so one piece reaches at most a quarter of the largest board.
const MAX_JUMP_TARGETS: usize = (MAX_BOARD_SIZE as usize).div_ceil(2).pow(2);

/// How far a step reaches in cells, one square diagonally.
const STEP_REACH: usize = STRIDE + 1;
/// How far a jump reaches in cells, two squares diagonally.
const JUMP_REACH: usize = 2 * STEP_REACH;

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

/// Where the camp rules let a piece's move end: on a square with all of `need`'s destination bits and
/// none of `shun`'s.
#[derive(Clone, Copy)]
struct EndRule<'a> {
    dest: &'a [u8; CELLS],
    need: u8,
    shun: u8,
}

impl EndRule<'_> {
    /// Whether every square is allowed, as it is for most pieces.
    fn is_open(self) -> bool {
        self.need | self.shun == 0
    }

    fn allows(self, cell: u16) -> bool {
        let d = self.dest.get(cell as usize).copied().unwrap_or(0);
        d & self.need == self.need && d & self.shun == 0
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
            let ends = self.end_rule::<false>(team, from.cell());
            let mv = |&to: &u16| Move {
                from,
                to: Square::from_cell(to as usize),
            };
            // Extending from a slice reserves once and writes without a capacity check per move, which
            // matters most in WebAssembly, where the vector's length lives in linear memory.
            let (steps, n) = self.steps(from.cell());
            if ends.is_open() {
                out.extend(steps[..n].iter().map(mv));
            } else {
                out.extend(steps[..n].iter().filter(|&&c| ends.allows(c)).map(mv));
            }
            if p.damage > 0 {
                continue;
            }
            let jumps = self.jumps(from.cell(), &mut scratch);
            if ends.is_open() {
                out.extend(jumps.iter().map(mv));
            } else {
                out.extend(jumps.iter().filter(|&&c| ends.allows(c)).map(mv));
            }
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
            let from = p.square.cell();
            let ends = self.end_rule::<false>(team, from);
            let count = |cells: &[u16]| {
                if ends.is_open() {
                    cells.len()
                } else {
                    cells.iter().filter(|&&c| ends.allows(c)).count()
                }
            };
            let (steps, k) = self.steps(from);
            n += count(&steps[..k]);
            if p.damage == 0 {
                n += count(self.jumps(from, &mut scratch));
            }
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
    /// and with `COURSE`, also under the course's rule 1. Rule 2 is the caller's.
    fn targets<const COURSE: bool>(
        &self,
        team: Team,
        piece: &Piece,
        scratch: &mut Scratch,
        mut emit: impl FnMut(usize),
    ) {
        let from = piece.square.cell();
        let ends = self.end_rule::<COURSE>(team, from);
        let (steps, n) = self.steps(from);
        let jumps: &[u16] = if piece.damage > 0 {
            &[]
        } else {
            self.jumps(from, scratch)
        };
        for &c in steps[..n].iter().chain(jumps) {
            if ends.allows(c) {
                emit(c as usize);
            }
        }
    }

    /// Which final squares the camp rules leave a piece on `from` of `team`: under the seed's rule, a
    /// piece standing in its destination may only end a move inside it; with `COURSE`, also the
    /// course's rule 1 (a move that starts outside the own camp, the other team's destinations, may not
    /// end inside it).
    fn end_rule<const COURSE: bool>(&self, team: Team, from: usize) -> EndRule<'_> {
        let bit = team.bit();
        let camp = team.other().bit();
        let here = self.dest.get(from).copied().unwrap_or(0);
        EndRule {
            dest: &self.dest,
            need: if self.camp_rule() && here & bit != 0 {
                bit
            } else {
                0
            },
            shun: if COURSE && here & camp == 0 { camp } else { 0 },
        }
    }

    /// The empty neighbours of `from`, in the order of [`DIRECTIONS`], and how many there are.
    #[inline(always)]
    fn steps(&self, from: usize) -> ([u16; 8], usize) {
        let mut steps = [0; 8];
        let mut n = 0;
        // One bounds check for the whole neighbourhood instead of one per neighbour.
        let Some(around) = self
            .cells
            .get(from.wrapping_sub(STEP_REACH)..)
            .and_then(|c| c.first_chunk::<{ 2 * STEP_REACH + 1 }>())
        else {
            return (steps, 0);
        };
        for d in DIRECTIONS {
            if around[STEP_REACH.wrapping_add_signed(d)] == EMPTY {
                steps[n & 7] = from.wrapping_add_signed(d) as u16;
                n += 1;
            }
        }
        (steps, n)
    }

    /// The final squares of the jump chains from `from`, in the order a breadth-first flood fill reaches
    /// them: a square is listed once however many chains reach it, as a move is its (origin, final
    /// square) pair.
    #[inline(always)]
    fn jumps<'s>(&self, from: usize, scratch: &'s mut Scratch) -> &'s [u16] {
        // The queue keeps every square it was given, so the seen bits can be cleared square by square
        // afterwards instead of wiping the whole set per piece.
        let Scratch { seen, queue } = scratch;
        seen[(from / 64) % WORDS] |= 1 << (from % 64);
        queue[0] = from as u16;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let at = queue[head] as usize;
            head += 1;
            // Both squares of every jump from `at` in one bounds check.
            let Some(around) = self
                .cells
                .get(at.wrapping_sub(JUMP_REACH)..)
                .and_then(|c| c.first_chunk::<{ 2 * JUMP_REACH + 1 }>())
            else {
                continue;
            };
            for d in DIRECTIONS {
                let land = at.wrapping_add_signed(2 * d);
                if around[JUMP_REACH.wrapping_add_signed(d)] & OCCUPIED != 0
                    && around[JUMP_REACH.wrapping_add_signed(2 * d)] == EMPTY
                    && seen[(land / 64) % WORDS] & (1 << (land % 64)) == 0
                {
                    seen[(land / 64) % WORDS] |= 1 << (land % 64);
                    if tail < MAX_JUMP_TARGETS {
                        queue[tail] = land as u16;
                        tail += 1;
                    }
                }
            }
        }
        for &c in &queue[..tail] {
            seen[(c as usize / 64) % WORDS] = 0;
        }
        &queue[1..tail]
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
