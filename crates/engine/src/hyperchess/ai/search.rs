//! The alpha-beta search itself: move ordering, the transposition table, negamax with its pruning, the
//! capture search at the horizon and the evaluation.

use super::position::*;
use super::*;

pub(super) const ORDER_TABLE: i32 = 1 << 30;
pub(super) const ORDER_CAPTURE: i32 = 1 << 24;
pub(super) const ORDER_KILLER: i32 = 1 << 22;

/// MVV-LVA: captures first, the most valuable victim first, then the least valuable attacker; 0 for a
/// quiet move.
pub(super) fn capture_order(pos: &Position, m: Mv) -> i32 {
    match pos.square(m.to as usize) {
        0 => 0,
        taken => mvv_lva(taken, kind_of(pos.square(m.from as usize))),
    }
}

/// The order of a capture of the piece coded `taken` by a piece of kind `attacker`: a King above
/// everything, then by the victim's value, then the cheaper attacker first.
fn mvv_lva(taken: u8, attacker: u8) -> i32 {
    let victim = if kind_of(taken) == KING {
        10_000
    } else {
        value_of(taken)
    };
    ORDER_CAPTURE + victim * 8 - i32::from(attacker)
}

/// Moves one's selection: swaps the highest-ordered move from `i` on into `i`.
pub(super) fn pick(moves: &mut [Mv], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].order > moves[best].order {
            best = j;
        }
    }
    moves.swap(i, best);
}

/// What a transposition-table score says.
pub(super) const EXACT: u8 = 1;
pub(super) const LOWER: u8 = 2;
pub(super) const UPPER: u8 = 3;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) from: u32,
    pub(super) to: u32,
    pub(super) score: i32,
    pub(super) depth: u8,
    /// 0: empty.
    pub(super) bound: u8,
}

/// A score to store: wins counted from this node rather than from the root.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > WIN_BOUND {
        score + ply
    } else if score < -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > WIN_BOUND {
        score - ply
    } else if score < -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// One search: the position, the tables and the budget.
pub(super) struct Search<'a> {
    pub(super) geometry: &'a Geometry,
    pub(super) pos: Position,
    pub(super) keep_going: &'a mut dyn FnMut(&Progress) -> bool,
    pub(super) table: Vec<Entry>,
    pub(super) killers: Vec<[Option<Mv>; 2]>,
    pub(super) history: Vec<i32>,
    pub(super) buffers: Vec<Vec<Mv>>,
    pub(super) nodes: u64,
    pub(super) depth: u32,
    pub(super) completed: u32,
    pub(super) stopped: bool,
    pub(super) scratch: Vec<Mv>,
}

impl<'a> Search<'a> {
    pub(super) fn new(
        owner: &mut Searcher,
        geometry: &'a Geometry,
        pos: Position,
        keep_going: &'a mut dyn FnMut(&Progress) -> bool,
    ) -> Search<'a> {
        let mut table = std::mem::take(&mut owner.table);
        table.clear();
        table.resize(TABLE_ENTRIES, Entry::default());
        let mut killers = std::mem::take(&mut owner.killers);
        killers.clear();
        killers.resize(MAX_PLY + 1, [None; 2]);
        let mut history = std::mem::take(&mut owner.history);
        history.clear();
        history.resize(geometry.len() * 13, 0);
        let mut buffers = std::mem::take(&mut owner.buffers);
        buffers.resize_with(MAX_PLY + 1, Vec::new);
        Search {
            geometry,
            pos,
            keep_going,
            table,
            killers,
            history,
            buffers,
            nodes: 0,
            depth: 0,
            completed: 0,
            stopped: false,
            scratch: Vec::new(),
        }
    }

    /// Gives the buffers back for the next search.
    pub(super) fn finish(self, owner: &mut Searcher) {
        owner.table = self.table;
        owner.killers = self.killers;
        owner.history = self.history;
        owner.buffers = self.buffers;
    }

    /// Counts a node and asks `keep_going` every [`CHECK_EVERY`] nodes.
    pub(super) fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 && !self.stopped {
            let progress = Progress {
                depth: self.depth,
                completed: self.completed,
                nodes: self.nodes,
            };
            if !(self.keep_going)(&progress) {
                self.stopped = true;
            }
        }
        !self.stopped
    }

    /// One depth at the root. Returns the best move found with its score, and whether every move was
    /// searched (if not, the move is one that beat the first move by a complete search, or the first
    /// move itself; `None` when even the first was not searched).
    pub(super) fn root(&mut self, root: &mut [Mv], depth: u32) -> (Option<(Mv, i32)>, bool) {
        let mut alpha = -INFINITY;
        let mut best: Option<(Mv, i32)> = None;
        for (i, &m) in root.iter().enumerate() {
            let taken = self.pos.make(m);
            let mut score = if i == 0 {
                -self.negamax(depth - 1, 1, -INFINITY, -alpha, true)
            } else {
                -self.negamax(depth - 1, 1, -alpha - 1, -alpha, true)
            };
            if i > 0 && score > alpha && !self.stopped {
                score = -self.negamax(depth - 1, 1, -INFINITY, -alpha, true);
            }
            self.pos.unmake(m, taken);
            if self.stopped {
                return (best, false);
            }
            if best.is_none() || score > alpha {
                alpha = score;
                best = Some((m, score));
            }
        }
        self.completed = depth;
        (best, true)
    }

    pub(super) fn negamax(
        &mut self,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        null: bool,
    ) -> i32 {
        if depth == 0 || ply >= MAX_PLY {
            return self.captures(ply, alpha, beta, 0);
        }
        if !self.visit() {
            return 0;
        }
        let slot = (self.pos.hash as usize) & (TABLE_ENTRIES - 1);
        let mut table_move = None;
        if let Some(e) = self.table.get(slot).copied() {
            if e.bound != 0 && e.key == self.pos.hash {
                table_move = Some((e.from, e.to));
                if u32::from(e.depth) >= depth {
                    let s = from_table(e.score, ply);
                    let cut = match e.bound {
                        EXACT => true,
                        LOWER => s >= beta,
                        _ => s <= alpha,
                    };
                    if cut {
                        return s;
                    }
                }
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let king = self.generate(&mut moves);
        if king {
            self.buffers[ply] = moves;
            return WIN - ply as i32;
        }
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return 0;
        }
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let n = self.geometry.len();
        for m in &mut moves {
            if table_move == Some((m.from, m.to)) {
                m.order = ORDER_TABLE;
            } else if m.order == 0 {
                if killers[0] == Some(*m) {
                    m.order = ORDER_KILLER;
                } else if killers[1] == Some(*m) {
                    m.order = ORDER_KILLER - 1;
                } else {
                    let piece = usize::from(self.pos.square(m.from as usize));
                    m.order = self
                        .history
                        .get(piece * n + m.to as usize)
                        .copied()
                        .unwrap_or(0)
                        .min(ORDER_KILLER - 2);
                }
            }
        }
        // Futility: one ply from the horizon, a position too far below alpha for a quiet move to help
        // is left to the capture search.
        if depth == 1 && alpha.abs() < WIN_BOUND && self.evaluate() + FUTILITY <= alpha {
            self.buffers[ply] = moves;
            return self.captures(ply, alpha, beta, 0);
        }
        // Null move: if passing still holds beta with a shallower search, a real move will too.
        let us = usize::from(self.pos.side);
        if null && depth >= 3 && beta.abs() < WIN_BOUND && self.pos.material[us] >= NULL_MATERIAL {
            self.pos.pass();
            let score = -self.negamax(depth - 1 - NULL_REDUCTION, ply + 1, -beta, -beta + 1, false);
            self.pos.pass();
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if score >= beta {
                self.buffers[ply] = moves;
                return beta;
            }
        }
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick(&mut moves, i);
            let m = moves[i];
            // Late quiet moves are searched one ply shallower first, and again in full if they beat alpha.
            let reduce = depth >= 3 && i >= LATE_MOVE && m.order < ORDER_KILLER - 1;
            let taken = self.pos.make(m);
            let mut score = if i == 0 {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha, true)
            } else if reduce {
                -self.negamax(depth - 2, ply + 1, -alpha - 1, -alpha, true)
            } else {
                -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha, true)
            };
            if reduce && score > alpha && !self.stopped {
                score = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha, true);
            }
            if i > 0 && score > alpha && score < beta && !self.stopped {
                score = -self.negamax(depth - 1, ply + 1, -beta, -alpha, true);
            }
            self.pos.unmake(m, taken);
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if taken == 0 {
                            self.remember(m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if let (Some(m), Some(e)) = (best_move, self.table.get_mut(slot)) {
            if e.key != self.pos.hash || u32::from(e.depth) <= depth {
                *e = Entry {
                    key: self.pos.hash,
                    from: m.from,
                    to: m.to,
                    score: to_table(best, ply),
                    depth: u8::try_from(depth).unwrap_or(u8::MAX),
                    bound: if best <= alpha_start {
                        UPPER
                    } else if best >= beta {
                        LOWER
                    } else {
                        EXACT
                    },
                };
            }
        }
        best
    }

    /// A quiet move that cut the search off: a killer at this ply, and history for its piece and node.
    pub(super) fn remember(&mut self, m: Mv, ply: usize, depth: u32) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
        let piece = usize::from(self.pos.square(m.from as usize));
        let n = self.geometry.len();
        if let Some(h) = self.history.get_mut(piece * n + m.to as usize) {
            *h = h.saturating_add((depth * depth) as i32);
        }
    }

    /// The evaluation of the position, for the side to move.
    pub(super) fn evaluate(&mut self) -> i32 {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let (king, mobility) = self.scan(&mut scratch);
        self.scratch = scratch;
        if king {
            return WIN;
        }
        let us = usize::from(self.pos.side);
        self.pos.material[us] - self.pos.material[1 - us] + MOBILITY * (mobility[0] - mobility[1])
    }

    /// The capture search past the horizon: the evaluation stands unless a capture improves on it.
    pub(super) fn captures(&mut self, ply: usize, mut alpha: i32, beta: i32, depth: u32) -> i32 {
        if !self.visit() {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply.min(MAX_PLY)]);
        moves.clear();
        let (king, mobility) = self.scan(&mut moves);
        let result = if king {
            WIN - ply as i32
        } else if mobility[0] == 0 {
            // No legal move: a draw.
            0
        } else {
            let us = usize::from(self.pos.side);
            let stand = self.pos.material[us] - self.pos.material[1 - us]
                + MOBILITY * (mobility[0] - mobility[1]);
            if stand >= beta || depth >= MAX_CAPTURE_DEPTH || ply >= MAX_PLY {
                stand
            } else {
                let mut best = stand;
                alpha = alpha.max(stand);
                for i in 0..moves.len() {
                    pick(&mut moves, i);
                    let m = moves[i];
                    let taken = self.pos.make(m);
                    let score = -self.captures(ply + 1, -beta, -alpha, depth + 1);
                    self.pos.unmake(m, taken);
                    if self.stopped {
                        best = 0;
                        break;
                    }
                    if score > best {
                        best = score;
                        if score > alpha {
                            alpha = score;
                            if alpha >= beta {
                                break;
                            }
                        }
                    }
                }
                best
            }
        };
        self.buffers[ply.min(MAX_PLY)] = moves;
        result
    }

    /// Every move of the side to move into `out` (captures ordered by MVV-LVA, quiet moves 0); returns
    /// whether one of them takes a King.
    pub(super) fn generate(&self, out: &mut Vec<Mv>) -> bool {
        let pos = &self.pos;
        let mut king = false;
        for (from, &c) in pos.squares.iter().enumerate() {
            if c == 0 || side_of(c) != pos.side {
                continue;
            }
            self.geometry.targets(&pos.squares, from, c, |to, there| {
                king |= there != 0 && kind_of(there) == KING;
                out.push(Mv {
                    from: from as u32,
                    to: to as u32,
                    order: if there == 0 {
                        0
                    } else {
                        mvv_lva(there, kind_of(c))
                    },
                });
            });
        }
        king
    }

    /// The captures of the side to move into `out`, whether one takes a King, and the number of legal
    /// moves of each side ([side to move, other side]).
    pub(super) fn scan(&self, out: &mut Vec<Mv>) -> (bool, [i32; 2]) {
        let pos = &self.pos;
        let mut king = false;
        let mut mobility = [0i32; 2];
        for (from, &c) in pos.squares.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let ours = side_of(c) == pos.side;
            let mut count = 0;
            self.geometry.targets(&pos.squares, from, c, |to, there| {
                count += 1;
                if ours && there != 0 {
                    king |= kind_of(there) == KING;
                    out.push(Mv {
                        from: from as u32,
                        to: to as u32,
                        order: mvv_lva(there, kind_of(c)),
                    });
                }
            });
            mobility[usize::from(!ours)] += count;
        }
        (king, mobility)
    }
}
