//! The board: stones, chains and their liberties, captures, the simple-ko point and the Zobrist hash.
//!
//! Fast enough for Monte-Carlo playouts: every chain is a circular linked list of its stones with one head,
//! and the head keeps *pseudo-liberties*: one count per (stone, empty neighbour) pair, with the sum and the
//! sum of squares of those neighbours' cell numbers. A chain has no liberty when the count is 0, and exactly
//! one liberty when every counted neighbour is the same cell, which holds exactly when
//! `sum² = count · sum_of_squares` (Cauchy-Schwarz is an equality only for equal terms). So legality,
//! capture and atari are O(1) per neighbour, and placing a stone touches only its chain and the chains it
//! captures. Empty points are kept in a list too, for drawing random moves.

use super::point::{BoardSize, Point, CELLS, MAX_POINTS, STRIDE};
use super::zobrist::KEYS;
use super::{Color, MoveError, SetupError};
use std::fmt;

/// Cell contents.
pub(crate) const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
/// A wall cell, or a grid cell beyond this board's size.
pub(crate) const OFF: u8 = 3;

/// The cell value of a colour's stone.
#[inline]
pub(crate) fn stone(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn color_of(v: u8) -> Option<Color> {
    match v {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// The four orthogonal neighbours of an intersection's cell (never out of the grid: see `point`).
#[inline]
pub(crate) fn neighbours(cell: usize) -> [usize; 4] {
    [cell - STRIDE, cell - 1, cell + 1, cell + STRIDE]
}

/// The four diagonal neighbours of an intersection's cell.
#[inline]
fn diagonals(cell: usize) -> [usize; 4] {
    [
        cell - STRIDE - 1,
        cell - STRIDE + 1,
        cell + STRIDE - 1,
        cell + STRIDE + 1,
    ]
}

/// A Go board of one size: where the stones are, and the simple-ko point left by the last move.
///
/// [`Board::play`] enforces occupancy, suicide and simple ko: what a board alone can know. Positional
/// superko needs the game's history and is [`crate::go::Game`]'s job. Two boards are equal when their size,
/// stones and ko point are; the chain bookkeeping inside does not count.
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    /// EMPTY, BLACK, WHITE or OFF per grid cell.
    cell: [u8; CELLS],
    /// Per stone: the head cell of its chain.
    head: [u16; CELLS],
    /// Per stone: the next stone of its chain (a circular list).
    next: [u16; CELLS],
    /// Per chain head: the number of stones.
    len: [u16; CELLS],
    /// Per chain head: pseudo-liberty count, sum of cells, and sum of squared cells.
    libs: [u16; CELLS],
    lib_sum: [u32; CELLS],
    lib_sq: [u32; CELLS],
    /// The empty intersections, in no particular order, and each empty cell's index in that list.
    empty: [u16; MAX_POINTS],
    empty_at: [u16; CELLS],
    empties: u16,
    /// Stones on the board per colour.
    stones: [u16; 2],
    hash: u64,
    /// The point the given colour may not play at once: the last move took a ko there.
    ko: Option<(Point, Color)>,
    /// The head cells of the chains the last stone captured (a stone touches at most four chains).
    /// Recording heads, not stones, keeps playouts at four stores per capture at most: a taken chain's
    /// ring of `next` links stays intact until stones land there again, so its stones can be read back.
    taken: [u16; 4],
    taken_chains: u8,
}

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize) -> Board {
        let mut b = Board {
            size,
            cell: [OFF; CELLS],
            head: [0; CELLS],
            next: [0; CELLS],
            len: [0; CELLS],
            libs: [0; CELLS],
            lib_sum: [0; CELLS],
            lib_sq: [0; CELLS],
            empty: [0; MAX_POINTS],
            empty_at: [0; CELLS],
            empties: 0,
            stones: [0; 2],
            hash: 0,
            ko: None,
            taken: [0; 4],
            taken_chains: 0,
        };
        for p in size.points() {
            b.cell[p.cell()] = EMPTY;
            b.add_empty(p.cell());
        }
        b
    }

    /// A board with the given stones and no ko point. Refused: a point off the board or listed twice, and
    /// a chain without a liberty (it could not be on a board).
    pub fn from_stones(size: BoardSize, stones: &[(Point, Color)]) -> Result<Board, SetupError> {
        let mut b = Board::new(size);
        for &(p, c) in stones {
            if !size.contains(p) {
                return Err(SetupError::OffBoard { point: p, size });
            }
            let cell = p.cell();
            if b.cell[cell] != EMPTY {
                return Err(SetupError::Twice { point: p });
            }
            b.cell[cell] = stone(c);
            b.hash ^= KEYS[c.index()][cell];
            b.stones[c.index()] += 1;
            b.remove_empty(cell);
        }
        // Points come in increasing cell order, so the left and lower neighbours already have chains.
        for p in size.points() {
            let cell = p.cell();
            let v = b.cell[cell];
            if v == EMPTY {
                continue;
            }
            b.new_chain(cell);
            for q in [cell - STRIDE, cell - 1] {
                if b.cell[q] == v && b.head[q] != b.head[cell] {
                    b.merge(b.head[cell] as usize, b.head[q] as usize);
                }
            }
        }
        for p in size.points() {
            let cell = p.cell();
            if b.cell[cell] == EMPTY {
                continue;
            }
            for q in neighbours(cell) {
                if b.cell[q] == EMPTY {
                    b.add_lib(b.head[cell] as usize, q);
                }
            }
        }
        for p in size.points() {
            let cell = p.cell();
            if b.cell[cell] != EMPTY && b.libs[b.head[cell] as usize] == 0 {
                return Err(SetupError::NoLiberties { point: p });
            }
        }
        Ok(b)
    }

    /// A board drawn as text, top row first: `X` (or `B`, `#`, `@`) black, `O` (or `W`) white, `.` or `+`
    /// empty, any case; spaces are ignored and so are blank lines. The number of rows is the size, and each
    /// row must have that many points. This is the format [`Board`]'s `Display` writes.
    pub fn from_diagram(text: &str) -> Result<Board, SetupError> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| {
                l.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        let size = BoardSize::new(rows.len() as u32)?;
        let n = size.get();
        let mut stones = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            if row.len() != n as usize {
                return Err(SetupError::RowLength {
                    row: i + 1,
                    len: row.len(),
                    size,
                });
            }
            let y = n - 1 - i as u8;
            for (x, &ch) in row.iter().enumerate() {
                let colour = match ch.to_ascii_uppercase() {
                    '.' | '+' => None,
                    'X' | 'B' | '#' | '@' => Some(Color::Black),
                    'O' | 'W' => Some(Color::White),
                    _ => return Err(SetupError::Character { row: i + 1, ch }),
                };
                if let (Some(c), Some(p)) = (colour, Point::new(x as u8, y)) {
                    stones.push((p, c));
                }
            }
        }
        Board::from_stones(size, &stones)
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Whether `p` is on this board.
    pub fn contains(&self, p: Point) -> bool {
        self.size.contains(p)
    }

    /// The stone on `p`; `None` for an empty point or one off the board.
    pub fn get(&self, p: Point) -> Option<Color> {
        color_of(self.cell[p.cell()])
    }

    /// Whether `p` is on the board and empty.
    pub fn is_empty(&self, p: Point) -> bool {
        self.cell[p.cell()] == EMPTY
    }

    /// The number of `c`'s stones on the board.
    pub fn stones(&self, c: Color) -> u16 {
        self.stones[c.index()]
    }

    /// The Zobrist hash of the stones (the ko point is not part of it): equal positions have equal hashes.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The simple-ko point: the point the colour may not play on now, because the last move took a ko
    /// there and retaking at once would repeat the position.
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
    }

    /// The empty points, in no particular order.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.empty[..self.empties as usize]
            .iter()
            .map(|&c| Point::from_cell(c as usize))
    }

    /// The exact number of liberties of the chain on `p` (0 for an empty point or one off the board).
    pub fn liberties(&self, p: Point) -> usize {
        if color_of(self.cell[p.cell()]).is_none() {
            return 0;
        }
        let mut seen = [0u64; CELLS.div_ceil(64)];
        let mut count = 0;
        self.for_each_stone(p.cell(), |s| {
            for q in neighbours(s) {
                if self.cell[q] == EMPTY && seen[q / 64] & (1 << (q % 64)) == 0 {
                    seen[q / 64] |= 1 << (q % 64);
                    count += 1;
                }
            }
        });
        count
    }

    /// The stones of the chain on `p` (empty for an empty point), in no particular order.
    pub fn chain(&self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if color_of(self.cell[p.cell()]).is_some() {
            self.for_each_stone(p.cell(), |s| out.push(Point::from_cell(s)));
        }
        out
    }

    /// Whether `c` may place a stone on `p` as far as the board knows: on the board, empty, not the
    /// simple-ko point, and not suicide (the stone's chain keeps a liberty, or it captures).
    pub fn check(&self, p: Point, c: Color) -> Result<(), MoveError> {
        if !self.contains(p) {
            return Err(MoveError::OffBoard {
                point: p,
                size: self.size,
            });
        }
        let cell = p.cell();
        if let Some(by) = color_of(self.cell[cell]) {
            return Err(MoveError::Occupied { point: p, by });
        }
        if self.ko == Some((p, c)) {
            return Err(MoveError::Ko { point: p });
        }
        if !self.keeps_a_liberty(cell, c) {
            return Err(MoveError::Suicide { point: p });
        }
        Ok(())
    }

    /// Places `c`'s stone on `p` if [`Board::check`] allows it, removes the captured chains and returns
    /// how many stones they had.
    pub fn play(&mut self, p: Point, c: Color) -> Result<u16, MoveError> {
        self.check(p, c)?;
        Ok(self.place(p.cell(), c))
    }

    /// A pass: the board stays, and the ko point is lifted (the ko is no longer "at once").
    pub fn pass(&mut self) {
        self.ko = None;
        self.taken_chains = 0;
    }

    /// The stones the last stone placed took off the board, row by row from A1; none after a pass.
    /// Asked for by a server announcing a move, never by a playout, so only asking allocates.
    pub fn last_captures(&self) -> Vec<Point> {
        let mut out = Vec::new();
        for &h in self.taken.iter().take(self.taken_chains as usize) {
            let h = h as usize;
            let mut s = h;
            // A ring has at most a board's worth of stones; the bound only guards the loop's end.
            for _ in 0..MAX_POINTS {
                out.push(Point::from_cell(s));
                s = self.next[s] as usize;
                if s == h {
                    break;
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Whether `p` is an empty point `c` should never fill: every orthogonal neighbour is `c`'s stone (or
    /// the edge), and the diagonals hold at most one opponent stone (none at the edge or in the corner).
    /// Such a point is a real eye or close to one; the diagonal rule lets playouts fill false eyes.
    pub fn is_eye(&self, p: Point, c: Color) -> bool {
        self.contains(p) && self.is_eye_cell(p.cell(), c)
    }

    // ----- crate-internal fast paths -----

    /// Whether a stone of `c` on the empty intersection `cell` would keep a liberty: an empty neighbour,
    /// an own neighbour chain with a liberty besides `cell`, or an opponent chain whose last liberty it is.
    #[inline]
    pub(crate) fn keeps_a_liberty(&self, cell: usize, c: Color) -> bool {
        let me = stone(c);
        for q in neighbours(cell) {
            let v = self.cell[q];
            if v == EMPTY {
                return true;
            }
            if v == OFF {
                continue;
            }
            let in_atari = self.in_atari(self.head[q] as usize);
            if (v == me) != in_atari {
                return true;
            }
        }
        false
    }

    /// [`Board::is_eye`] for an intersection's cell.
    #[inline]
    pub(crate) fn is_eye_cell(&self, cell: usize, c: Color) -> bool {
        if self.cell[cell] != EMPTY {
            return false;
        }
        let me = stone(c);
        let mut edge = false;
        for q in neighbours(cell) {
            let v = self.cell[q];
            if v == OFF {
                edge = true;
            } else if v != me {
                return false;
            }
        }
        let opp = stone(c.other());
        let enemies = diagonals(cell)
            .iter()
            .filter(|&&d| self.cell[d] == opp)
            .count();
        if edge {
            enemies == 0
        } else {
            enemies < 2
        }
    }

    /// Whether the simple-ko point forbids `c` from playing on `cell`.
    #[inline]
    pub(crate) fn is_ko_for(&self, cell: usize, c: Color) -> bool {
        matches!(self.ko, Some((p, k)) if p.cell() == cell && k == c)
    }

    /// The hash after `c` plays the legal move `p` (captures included), without playing it.
    pub(crate) fn hash_after(&self, p: Point, c: Color) -> u64 {
        let cell = p.cell();
        let mut hash = self.hash ^ KEYS[c.index()][cell];
        let opp = stone(c.other());
        let mut seen = [usize::MAX; 4];
        for (i, q) in neighbours(cell).into_iter().enumerate() {
            if self.cell[q] != opp {
                continue;
            }
            let h = self.head[q] as usize;
            if seen[..i].contains(&h) || !self.in_atari(h) {
                continue;
            }
            seen[i] = h;
            let key = &KEYS[c.other().index()];
            self.for_each_stone(h, |s| hash ^= key[s]);
        }
        hash
    }

    /// The stones as two bitsets, for an exact comparison of positions whose hashes match.
    pub(crate) fn packed(&self) -> Packed {
        let mut bits = [[0u64; PACKED_WORDS]; 2];
        for p in self.size.points() {
            let cell = p.cell();
            if let Some(c) = color_of(self.cell[cell]) {
                bits[c.index()][cell / 64] |= 1 << (cell % 64);
            }
        }
        Packed(bits)
    }

    /// Places `c`'s stone on the empty intersection `cell`, which the caller has found legal, and returns
    /// the number of stones captured.
    pub(crate) fn place(&mut self, cell: usize, c: Color) -> u16 {
        let me = stone(c);
        let opp = stone(c.other());
        self.cell[cell] = me;
        self.hash ^= KEYS[c.index()][cell];
        self.stones[c.index()] += 1;
        self.remove_empty(cell);
        self.new_chain(cell);
        for q in neighbours(cell) {
            match self.cell[q] {
                EMPTY => self.add_lib(cell, q),
                OFF => {}
                _ => self.remove_lib(self.head[q] as usize, cell),
            }
        }
        for q in neighbours(cell) {
            if self.cell[q] == me {
                let (a, b) = (self.head[cell] as usize, self.head[q] as usize);
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        let mut captured = 0;
        let mut last = 0;
        self.taken_chains = 0;
        for q in neighbours(cell) {
            if self.cell[q] == opp && self.libs[self.head[q] as usize] == 0 {
                let h = self.head[q];
                captured += self.remove_chain(h as usize);
                last = q;
                if let Some(slot) = self.taken.get_mut(self.taken_chains as usize) {
                    *slot = h;
                    self.taken_chains += 1;
                }
            }
        }
        let h = self.head[cell] as usize;
        self.ko = if captured == 1 && self.len[h] == 1 && self.libs[h] == 1 {
            Some((Point::from_cell(last), c.other()))
        } else {
            None
        };
        captured
    }

    /// The number of empty intersections.
    pub(crate) fn empty_count(&self) -> usize {
        self.empties as usize
    }

    /// The `i`th cell of the empty list.
    #[inline]
    pub(crate) fn empty_cell(&self, i: usize) -> usize {
        self.empty[i] as usize
    }

    /// Swaps two entries of the empty list (its order means nothing; playouts use it to draw without
    /// replacement).
    #[inline]
    pub(crate) fn swap_empty(&mut self, i: usize, j: usize) {
        self.empty.swap(i, j);
        self.empty_at[self.empty[i] as usize] = i as u16;
        self.empty_at[self.empty[j] as usize] = j as u16;
    }

    /// The cell value of an intersection.
    #[inline]
    pub(crate) fn cell_value(&self, cell: usize) -> u8 {
        self.cell[cell]
    }

    // ----- chain bookkeeping -----

    #[inline]
    fn in_atari(&self, h: usize) -> bool {
        let n = self.libs[h] as u64;
        let sum = self.lib_sum[h] as u64;
        n > 0 && sum * sum == n * self.lib_sq[h] as u64
    }

    fn new_chain(&mut self, cell: usize) {
        self.head[cell] = cell as u16;
        self.next[cell] = cell as u16;
        self.len[cell] = 1;
        self.libs[cell] = 0;
        self.lib_sum[cell] = 0;
        self.lib_sq[cell] = 0;
    }

    #[inline]
    fn add_lib(&mut self, h: usize, lib: usize) {
        self.libs[h] += 1;
        self.lib_sum[h] += lib as u32;
        self.lib_sq[h] += (lib * lib) as u32;
    }

    #[inline]
    fn remove_lib(&mut self, h: usize, lib: usize) {
        self.libs[h] -= 1;
        self.lib_sum[h] -= lib as u32;
        self.lib_sq[h] -= (lib * lib) as u32;
    }

    /// Joins the chains with heads `a` and `b`; the longer one's head stays head.
    fn merge(&mut self, a: usize, b: usize) {
        let (a, b) = if self.len[a] >= self.len[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = b;
        loop {
            self.head[s] = a as u16;
            s = self.next[s] as usize;
            if s == b {
                break;
            }
        }
        self.next.swap(a, b);
        self.len[a] += self.len[b];
        self.libs[a] += self.libs[b];
        self.lib_sum[a] += self.lib_sum[b];
        self.lib_sq[a] += self.lib_sq[b];
    }

    /// Takes the chain with head `h` off the board and returns its size.
    fn remove_chain(&mut self, h: usize) -> u16 {
        let Some(c) = color_of(self.cell[h]) else {
            return 0;
        };
        let key = &KEYS[c.index()];
        let mut s = h;
        loop {
            self.cell[s] = EMPTY;
            self.hash ^= key[s];
            self.add_empty(s);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        // Every stone next to the chain is the capturer's: each gains the freed points as liberties.
        loop {
            for q in neighbours(s) {
                let v = self.cell[q];
                if v != EMPTY && v != OFF {
                    self.add_lib(self.head[q] as usize, s);
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        let n = self.len[h];
        self.stones[c.index()] -= n;
        n
    }

    fn for_each_stone(&self, cell: usize, mut f: impl FnMut(usize)) {
        let h = self.head[cell] as usize;
        let mut s = h;
        loop {
            f(s);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
    }

    fn add_empty(&mut self, cell: usize) {
        self.empty[self.empties as usize] = cell as u16;
        self.empty_at[cell] = self.empties;
        self.empties += 1;
    }

    fn remove_empty(&mut self, cell: usize) {
        let i = self.empty_at[cell] as usize;
        let last = self.empties as usize - 1;
        self.swap_empty(i, last);
        self.empties -= 1;
    }

    /// Recomputes everything the board keeps incrementally and panics on a difference (tests only).
    #[cfg(test)]
    pub(crate) fn assert_consistent(&self) {
        let stones: Vec<(Point, Color)> = self
            .size
            .points()
            .filter_map(|p| self.get(p).map(|c| (p, c)))
            .collect();
        let fresh = Board::from_stones(self.size, &stones).expect("every chain has a liberty");
        assert_eq!(self.hash, fresh.hash, "hash");
        assert_eq!(self.stones, fresh.stones, "stone counts");
        assert_eq!(self.empties, fresh.empties, "empty count");
        for i in 0..self.empties as usize {
            let e = self.empty[i] as usize;
            assert_eq!(self.cell[e], EMPTY);
            assert_eq!(self.empty_at[e] as usize, i);
        }
        for p in self.size.points() {
            let cell = p.cell();
            if self.cell[cell] == EMPTY {
                continue;
            }
            let mut mine = self.chain(p);
            let mut theirs = fresh.chain(p);
            mine.sort();
            theirs.sort();
            assert_eq!(mine, theirs, "chain of {p}");
            let (h, g) = (self.head[cell] as usize, fresh.head[cell] as usize);
            assert_eq!(self.len[h] as usize, mine.len(), "length of {p}");
            assert_eq!(
                (self.libs[h], self.lib_sum[h], self.lib_sq[h]),
                (fresh.libs[g], fresh.lib_sum[g], fresh.lib_sq[g]),
                "pseudo-liberties of {p}"
            );
            assert_eq!(self.in_atari(h), self.liberties(p) == 1, "atari of {p}");
        }
    }

    // ----- chain reads for the playout policy (policy.rs) -----
    // Meant for a cell holding a stone: on an empty cell they read stale bookkeeping (harmless, never a
    // panic), and a cell outside the grid reads as a chain of its own with no liberty.

    /// The head cell of the chain of the stone on `cell`.
    #[inline]
    pub(crate) fn chain_head(&self, cell: usize) -> usize {
        self.head.get(cell).map_or(cell, |&h| h as usize)
    }

    /// Whether `f` holds for some orthogonal neighbour of some stone of the chain on `cell`, asked in
    /// turn until it does: the walk around a chain that playout knowledge makes (liberties, touching
    /// chains), with no allocation.
    #[inline]
    pub(crate) fn any_chain_neighbour(
        &self,
        cell: usize,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        let h = self.chain_head(cell);
        let mut s = h;
        // A ring has at most a board's worth of stones; the bound only guards the loop's end.
        for _ in 0..MAX_POINTS {
            if neighbours(s).into_iter().any(&mut f) {
                return true;
            }
            s = self.next.get(s).map_or(h, |&n| n as usize);
            if s == h {
                break;
            }
        }
        false
    }

    /// The number of stones of the chain on `cell`.
    #[inline]
    pub(crate) fn chain_len(&self, cell: usize) -> usize {
        self.head
            .get(cell)
            .map_or(0, |&h| self.len[h as usize] as usize)
    }

    /// The only liberty of the chain on `cell` when it is in atari, in O(1): every pseudo-liberty of a
    /// chain in atari is that one cell, so it is their sum divided by their count.
    #[inline]
    pub(crate) fn atari_liberty(&self, cell: usize) -> Option<usize> {
        let h = *self.head.get(cell)? as usize;
        if self.in_atari(h) {
            Some((self.lib_sum[h] / u32::from(self.libs[h])) as usize)
        } else {
            None
        }
    }
}

/// Words per colour in [`Packed`].
const PACKED_WORDS: usize = CELLS.div_ceil(64);

/// A position's stones as two bitsets over grid cells: what superko compares when two hashes match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Packed([[u64; PACKED_WORDS]; 2]);

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.cell == other.cell && self.ko == other.ko
    }
}

impl Eq for Board {}

impl fmt::Display for Board {
    /// Rows from the top, `X` black, `O` white, `.` empty, points separated by a space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size.get();
        for y in (0..n).rev() {
            for x in 0..n {
                let ch = match Point::new(x, y).and_then(|p| self.get(p)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                if x > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {} (ko {:?})", self.size, self.ko)?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str, b: &Board) -> Point {
        Point::from_gtp(s, b.size()).unwrap()
    }

    fn board(diagram: &str) -> Board {
        let b = Board::from_diagram(diagram).unwrap();
        b.assert_consistent();
        b
    }

    #[test]
    fn diagram_round_trip() {
        let text = "X . O\n. X .\nO . .\n";
        let b = board(text);
        assert_eq!(b.to_string(), text);
        assert_eq!(b.get(pt("A1", &b)), Some(Color::White));
        assert_eq!(b.get(pt("A3", &b)), Some(Color::Black));
        assert_eq!(b.stones(Color::Black), 2);
        assert_eq!(b, Board::from_diagram(&b.to_string()).unwrap());
    }

    #[test]
    fn setup_errors() {
        assert_eq!(Board::from_diagram("X"), Err(SetupError::Size { size: 1 }));
        assert!(matches!(
            Board::from_diagram(". .\n."),
            Err(SetupError::RowLength { row: 2, .. })
        ));
        assert!(matches!(
            Board::from_diagram(". .\n. Z"),
            Err(SetupError::Character { ch: 'Z', .. })
        ));
        assert!(matches!(
            Board::from_diagram("X O\nO ."),
            Err(SetupError::NoLiberties { .. })
        ));
        let p = Point::new(0, 0).unwrap();
        let two = BoardSize::new(2).unwrap();
        assert_eq!(
            Board::from_stones(two, &[(p, Color::Black), (p, Color::White)]),
            Err(SetupError::Twice { point: p })
        );
        let far = Point::new(5, 5).unwrap();
        assert!(matches!(
            Board::from_stones(two, &[(far, Color::Black)]),
            Err(SetupError::OffBoard { .. })
        ));
        assert!(SetupError::NoLiberties { point: p }
            .to_string()
            .contains("A1"));
    }

    #[test]
    fn single_capture_in_the_middle() {
        let mut b = board(
            ". . . . .
             . . X . .
             . X O . .
             . . X . .
             . . . . .",
        );
        assert_eq!(b.liberties(pt("C3", &b)), 1);
        assert_eq!(b.play(pt("D3", &b), Color::Black), Ok(1));
        assert_eq!(b.get(pt("C3", &b)), None);
        assert_eq!(b.stones(Color::White), 0);
        assert_eq!(b.liberties(pt("D3", &b)), 4);
        assert_eq!(b.ko(), None);
        b.assert_consistent();
    }

    #[test]
    fn captures_on_the_edge_and_in_the_corner() {
        let mut b = board(
            ". . . . .
             X . . . .
             O X . . .
             . . . . .
             . . . . .",
        );
        assert_eq!(b.play(pt("A2", &b), Color::Black), Ok(1));
        assert_eq!(b.get(pt("A3", &b)), None);
        b.assert_consistent();
        let mut b = board(
            ". . . . .
             . . . . .
             . . . . .
             X . . . .
             O . . . .",
        );
        assert_eq!(b.play(pt("B1", &b), Color::Black), Ok(1));
        assert_eq!(b.get(pt("A1", &b)), None);
        assert_eq!(b.liberties(pt("B1", &b)), 3);
        b.assert_consistent();
    }

    #[test]
    fn group_capture() {
        let mut b = board(
            ". X X X .
             X O O O X
             . X X . .
             . . . . .
             . . . . .",
        );
        assert_eq!(b.liberties(pt("B4", &b)), 1);
        assert_eq!(b.play(pt("D3", &b), Color::Black), Ok(3));
        assert_eq!(b.stones(Color::White), 0);
        assert_eq!(
            b.liberties(pt("D3", &b)),
            8,
            "B3-C3-D3 regains the captured points"
        );
        b.assert_consistent();
    }

    #[test]
    fn two_chains_captured_at_once() {
        let mut b = board(
            ". . . . .
             . X . X .
             X O . O X
             . X . X .
             . . . . .",
        );
        assert_eq!(b.play(pt("C3", &b), Color::Black), Ok(2));
        assert_eq!(b.last_captures(), [pt("B3", &b), pt("D3", &b)]);
        assert_eq!(b.stones(Color::White), 0);
        assert_eq!(b.ko(), None, "two stones taken: no ko");
        b.assert_consistent();
        // Two multi-stone chains sharing their last liberty.
        let mut b = board(
            "O O . O O
             X X . X X
             . . . . .
             . . . . .
             . . . . .",
        );
        assert_eq!(b.play(pt("C5", &b), Color::Black), Ok(4));
        assert_eq!(b.stones(Color::White), 0);
        b.assert_consistent();
    }

    #[test]
    fn suicide_is_refused() {
        let b = board(
            ". X . . .
             X . . . .
             . . . . .
             . . . . .
             . . . . .",
        );
        let a5 = pt("A5", &b);
        assert_eq!(
            b.check(a5, Color::White),
            Err(MoveError::Suicide { point: a5 })
        );
        assert_eq!(b.check(a5, Color::Black), Ok(()));
        // A group suicide: white's C5 would fill the last liberty of its own A5-B5 chain.
        let mut b = board(
            "O O . X .
             X X X . .
             . . . . .
             . . . . .
             . . . . .",
        );
        let c5 = pt("C5", &b);
        assert_eq!(
            b.play(c5, Color::White),
            Err(MoveError::Suicide { point: c5 })
        );
        b.assert_consistent();
        assert_eq!(b.play(c5, Color::Black), Ok(2));
        b.assert_consistent();
    }

    #[test]
    fn a_capture_that_looks_like_suicide_is_legal() {
        // A5 has no empty neighbour, but it is the last liberty of both white stones next to it.
        let mut b = board(
            ". O X . .
             O X . . .
             X . . . .
             . . . . .
             . . . . .",
        );
        let a5 = pt("A5", &b);
        assert_eq!(b.liberties(pt("B5", &b)), 1);
        assert_eq!(b.liberties(pt("A4", &b)), 1);
        assert_eq!(
            b.check(a5, Color::White),
            Err(MoveError::Suicide { point: a5 }),
            "white fills its own last liberty"
        );
        assert_eq!(b.play(a5, Color::Black), Ok(2));
        assert_eq!(b.stones(Color::White), 0);
        b.assert_consistent();
    }

    #[test]
    fn ko_point_is_set_and_lifted() {
        let mut b = board(
            ". . . . .
             . X O . .
             X O . O .
             . X O . .
             . . . . .",
        );
        let c3 = pt("C3", &b);
        let b3 = pt("B3", &b);
        assert_eq!(b.play(c3, Color::Black), Ok(1));
        assert_eq!(b.ko(), Some((b3, Color::White)));
        assert_eq!(b.check(b3, Color::White), Err(MoveError::Ko { point: b3 }));
        assert_eq!(b.check(b3, Color::Black), Ok(()));
        b.pass();
        assert_eq!(b.ko(), None);
        assert_eq!(b.play(b3, Color::White), Ok(1));
        b.assert_consistent();
    }

    #[test]
    fn occupied_and_off_board() {
        let mut b = Board::new(BoardSize::NINE);
        let e5 = pt("E5", &b);
        b.play(e5, Color::Black).unwrap();
        assert_eq!(
            b.play(e5, Color::White),
            Err(MoveError::Occupied {
                point: e5,
                by: Color::Black
            })
        );
        let off = Point::new(9, 0).unwrap();
        assert!(matches!(
            b.play(off, Color::White),
            Err(MoveError::OffBoard { .. })
        ));
        assert_eq!(b.get(off), None);
        assert!(!b.is_empty(off));
    }

    #[test]
    fn hash_after_matches_the_hash_after_playing() {
        let b = board(
            ". X O . .
             X O . O .
             . X O . .
             . . . . .
             . . . . .",
        );
        for p in b.size().points() {
            for c in Color::ALL {
                if b.check(p, c).is_ok() {
                    let mut after = b.clone();
                    after.play(p, c).unwrap();
                    assert_eq!(b.hash_after(p, c), after.hash(), "{c} {p}");
                    after.assert_consistent();
                }
            }
        }
    }

    #[test]
    fn eyes() {
        let b = board(
            ". X . X O
             X . X O .
             . X . X O
             X X X . .
             . . . . .",
        );
        assert!(b.is_eye(pt("A5", &b), Color::Black), "corner");
        assert!(!b.is_eye(pt("A5", &b), Color::White));
        assert!(b.is_eye(pt("B4", &b), Color::Black));
        assert!(b.is_eye(pt("A3", &b), Color::Black), "edge");
        assert!(
            b.is_eye(pt("C3", &b), Color::Black),
            "one enemy diagonal in the middle"
        );
        assert!(
            !b.is_eye(pt("E4", &b), Color::White),
            "enemy diagonals at the edge: false eye"
        );
        assert!(!b.is_eye(pt("D2", &b), Color::Black), "not surrounded");
        assert!(!b.is_eye(pt("B5", &b), Color::Black), "occupied");
        let b = board(
            ". X . X O
             X . X O .
             . X . X O
             X X X O .
             . . . . .",
        );
        assert!(
            !b.is_eye(pt("C3", &b), Color::Black),
            "two enemy diagonals: false eye"
        );
    }

    #[test]
    fn random_games_keep_the_bookkeeping_exact() {
        let mut rng = crate::SplitMix64::new(3);
        for game in 0..80u32 {
            let size = BoardSize::new(2 + game % 8).unwrap();
            let mut b = Board::new(size);
            let mut c = Color::Black;
            for _ in 0..3 * size.area() {
                let legal: Vec<Point> = size.points().filter(|&p| b.check(p, c).is_ok()).collect();
                if legal.is_empty() || rng.below(20) == 0 {
                    b.pass();
                    assert!(b.last_captures().is_empty());
                } else {
                    let p = legal[rng.below(legal.len() as u64) as usize];
                    let before = b.clone();
                    let taken = b.play(p, c).unwrap();
                    assert_eq!(b.stones(c.other()), before.stones(c.other()) - taken);
                    let gone: Vec<Point> = size
                        .points()
                        .filter(|&q| before.get(q) == Some(c.other()) && b.get(q).is_none())
                        .collect();
                    assert_eq!(b.last_captures(), gone, "the captures of {p}");
                    assert!(b.liberties(p) > 0);
                }
                b.assert_consistent();
                c = c.other();
            }
        }
    }
}
