//! Shared test helpers: a naive reference implementation of the Halma move rules, and random positions.
//!
//! The reference is written from the rules text in issue 2 and shares no code with the engine: plain
//! `(x, y)` integer coordinates, hash sets and maps, a recursive jump search. It is deliberately slow and
//! obvious, so that a disagreement with the engine points at the engine (or at the rules text).
//!
//! The rules it implements:
//! - A move is one piece of the mover's team, and either one step to an adjacent empty square (8
//!   directions) or a chain of one or more jumps, each over an adjacent occupied square (either team) to
//!   the empty square directly beyond it.
//! - A piece with damage above 0 may step but not jump.
//! - Everything is judged on the board at the start of the turn; the moving piece's own start square
//!   counts as occupied.
//! - A move that ends where it started is not a move.
//! - With the camp rule on, a piece standing on one of its destination squares may not end outside them.
//! - Moves are distinct (from, final square) pairs.
//! - With the course's camp rules (USC CSCI 561) on, a team's own camp is the other team's destinations
//!   and its own corner the board corner there: (1) a move that starts outside the own camp may not end
//!   inside it; (2) among the moves left, if some move takes a piece from the own camp to outside it,
//!   only those are legal; else if some move takes a camp piece further from the corner (no closer on
//!   either axis, further on one), only those; else all of them.

#![allow(dead_code)]

use gridarena_engine::halma::{CampRules, Path, Piece, Point, Position, Square, Team, Teams};
use proptest::prelude::*;
use proptest::sample::Index;
use std::collections::{HashMap, HashSet};

/// A square as plain integers: (column, row).
pub type Xy = (i32, i32);

/// The eight directions.
pub const DIRS: [Xy; 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The index of a team in the reference's arrays.
pub fn ti(team: Team) -> usize {
    match team {
        Team::Red => 0,
        Team::Blue => 1,
    }
}

/// The engine's square at (x, y); panics in the test if it does not exist.
pub fn sq(x: u8, y: u8) -> Square {
    Square::new(x, y).expect("square on the largest board")
}

/// A reference square from an engine square.
pub fn xy(s: Square) -> Xy {
    (i32::from(s.x()), i32::from(s.y()))
}

/// An engine square from a reference square.
pub fn square(p: Xy) -> Square {
    Square::new(
        u8::try_from(p.0).expect("x fits"),
        u8::try_from(p.1).expect("y fits"),
    )
    .expect("square on the largest board")
}

/// A protocol path from integer pairs.
pub fn path(from: (i64, i64), to: &[(i64, i64)]) -> Path {
    Path {
        from: Point {
            x: from.0,
            y: from.1,
        },
        to: to.iter().map(|&(x, y)| Point { x, y }).collect(),
    }
}

/// The board, naively.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub size: i32,
    pub camp_rule: bool,
    /// With the course's camp rules, each team's own corner (red, blue).
    pub course: Option<[Xy; 2]>,
    /// Per team: square -> damage.
    pub pieces: [HashMap<Xy, u8>; 2],
    /// Per team: destination squares.
    pub dests: [HashSet<Xy>; 2],
}

impl RefBoard {
    /// The reference copy of an engine position, read through its public getters only.
    pub fn from_position(p: &Position) -> RefBoard {
        let pieces = |t: Team| -> HashMap<Xy, u8> {
            p.pieces(t)
                .iter()
                .map(|pc| (xy(pc.square), pc.damage))
                .collect()
        };
        let dests = |t: Team| -> HashSet<Xy> { p.destinations(t).iter().map(|&s| xy(s)).collect() };
        let b = RefBoard {
            size: i32::from(p.size()),
            camp_rule: p.camp_rule(),
            course: p
                .own_corner(Team::Red)
                .zip(p.own_corner(Team::Blue))
                .map(|(r, b)| [xy(r), xy(b)]),
            pieces: [pieces(Team::Red), pieces(Team::Blue)],
            dests: [dests(Team::Red), dests(Team::Blue)],
        };
        assert_eq!(
            b.pieces[0].len() + b.pieces[1].len(),
            p.pieces(Team::Red).len() + p.pieces(Team::Blue).len(),
            "the engine's position has two pieces of one team on a square"
        );
        b
    }

    /// An engine position with the same pieces (sorted), destinations and camp rule.
    pub fn to_position(&self) -> Position {
        let pieces = |t: usize| -> Vec<Piece> {
            let mut v: Vec<Piece> = self.pieces[t]
                .iter()
                .map(|(&s, &damage)| Piece {
                    square: square(s),
                    damage,
                })
                .collect();
            v.sort_by_key(|p| (p.square.y(), p.square.x()));
            v
        };
        let dests = |t: usize| -> Vec<Square> {
            let mut v: Vec<Square> = self.dests[t].iter().map(|&s| square(s)).collect();
            v.sort();
            v
        };
        Position::new(
            u8::try_from(self.size).expect("size fits"),
            self.camp_rule,
            Teams {
                red: pieces(0),
                blue: pieces(1),
            },
            Teams {
                red: dests(0),
                blue: dests(1),
            },
        )
        .and_then(|p| {
            p.with_camp_rules(if self.course.is_some() {
                CampRules::Course
            } else {
                CampRules::Seed
            })
        })
        .expect("the reference board is a valid position")
    }

    pub fn on_board(&self, s: Xy) -> bool {
        s.0 >= 0 && s.1 >= 0 && s.0 < self.size && s.1 < self.size
    }

    pub fn occupied(&self, s: Xy) -> bool {
        self.pieces[0].contains_key(&s) || self.pieces[1].contains_key(&s)
    }

    pub fn is_empty(&self, s: Xy) -> bool {
        self.on_board(s) && !self.occupied(s)
    }

    /// Every square the piece on `from` can reach by a chain of one or more jumps (start excluded).
    fn jump_targets(&self, from: Xy) -> HashSet<Xy> {
        fn search(b: &RefBoard, at: Xy, seen: &mut HashSet<Xy>) {
            for (dx, dy) in DIRS {
                let over = (at.0 + dx, at.1 + dy);
                let land = (at.0 + 2 * dx, at.1 + 2 * dy);
                if b.occupied(over) && b.is_empty(land) && seen.insert(land) {
                    search(b, land, seen);
                }
            }
        }
        let mut seen = HashSet::new();
        seen.insert(from);
        search(self, from, &mut seen);
        seen.remove(&from);
        seen
    }

    /// Whether `s` is in `team`'s own camp under the course's rules (the other team's destinations).
    pub fn in_own_camp(&self, team: Team, s: Xy) -> bool {
        self.dests[ti(team.other())].contains(&s)
    }

    /// Every legal (from, final square) pair of `team`.
    pub fn moves(&self, team: Team) -> HashSet<(Xy, Xy)> {
        let base = self.moves_but_rule_2(team);
        let Some(corners) = self.course else {
            return base;
        };
        let corner = corners[ti(team)];
        let dist = |s: Xy| ((s.0 - corner.0).abs(), (s.1 - corner.1).abs());
        let leaving: HashSet<(Xy, Xy)> = base
            .iter()
            .copied()
            .filter(|&(f, to)| self.in_own_camp(team, f) && !self.in_own_camp(team, to))
            .collect();
        if !leaving.is_empty() {
            return leaving;
        }
        let away: HashSet<(Xy, Xy)> = base
            .iter()
            .copied()
            .filter(|&(f, to)| {
                let ((fx, fy), (tx, ty)) = (dist(f), dist(to));
                self.in_own_camp(team, f) && tx >= fx && ty >= fy && (tx > fx || ty > fy)
            })
            .collect();
        if !away.is_empty() {
            return away;
        }
        base
    }

    /// The legal moves before the course's rule 2 (with the course's rule 1 if the course's rules are on).
    fn moves_but_rule_2(&self, team: Team) -> HashSet<(Xy, Xy)> {
        let t = ti(team);
        let mut out = HashSet::new();
        for (&from, &damage) in &self.pieces[t] {
            let locked = self.camp_rule && self.dests[t].contains(&from);
            let shut = self.course.is_some() && !self.in_own_camp(team, from);
            let ends_ok = |to: &Xy| {
                (!locked || self.dests[t].contains(to)) && !(shut && self.in_own_camp(team, *to))
            };
            for (dx, dy) in DIRS {
                let to = (from.0 + dx, from.1 + dy);
                if self.is_empty(to) && ends_ok(&to) {
                    out.insert((from, to));
                }
            }
            if damage == 0 {
                for to in self.jump_targets(from) {
                    if ends_ok(&to) {
                        out.insert((from, to));
                    }
                }
            }
        }
        out
    }

    /// Whether the submitted chain is a legal move of `team`, and which.
    pub fn check(&self, team: Team, p: &Path) -> Option<(Xy, Xy)> {
        let t = ti(team);
        let conv = |pt: Point| -> Option<Xy> {
            let s = (i32::try_from(pt.x).ok()?, i32::try_from(pt.y).ok()?);
            self.on_board(s).then_some(s)
        };
        let from = conv(p.from)?;
        let damage = *self.pieces[t].get(&from)?;
        let landings: Vec<Xy> = p.to.iter().map(|&pt| conv(pt)).collect::<Option<_>>()?;
        let &last = landings.last()?;
        if last == from {
            return None;
        }
        let is_step =
            landings.len() == 1 && (last.0 - from.0).abs().max((last.1 - from.1).abs()) == 1;
        if is_step {
            if !self.is_empty(last) {
                return None;
            }
        } else {
            if damage > 0 {
                return None;
            }
            let mut at = from;
            for &next in &landings {
                let (dx, dy) = (next.0 - at.0, next.1 - at.1);
                let two = |d: i32| d == 0 || d.abs() == 2;
                if !two(dx) || !two(dy) || (dx, dy) == (0, 0) {
                    return None;
                }
                let over = (at.0 + dx / 2, at.1 + dy / 2);
                if !self.occupied(over) || !self.is_empty(next) {
                    return None;
                }
                at = next;
            }
        }
        if self.camp_rule && self.dests[t].contains(&from) && !self.dests[t].contains(&last) {
            return None;
        }
        if self.course.is_some() && !self.moves(team).contains(&(from, last)) {
            return None;
        }
        Some((from, last))
    }

    /// The anti-spoiling goal: every destination square not held by an enemy piece holds one of the
    /// team's pieces, and at least one of its pieces stands in its destinations.
    pub fn has_won(&self, team: Team) -> bool {
        let (own, enemy) = (&self.pieces[ti(team)], &self.pieces[ti(team.other())]);
        let all_filled = self.dests[ti(team)]
            .iter()
            .all(|s| enemy.contains_key(s) || own.contains_key(s));
        let any_own = self.dests[ti(team)].iter().any(|s| own.contains_key(s));
        all_filled && any_own
    }

    /// Moves `team`'s piece from `from` to `to`, keeping its damage.
    pub fn play(&mut self, team: Team, from: Xy, to: Xy) {
        let t = ti(team);
        let d = self.pieces[t].remove(&from).expect("a piece to move");
        let clash = self.pieces[t].insert(to, d);
        assert!(clash.is_none(), "two {team} pieces on {to:?}");
    }

    /// The number of move sequences of length `depth`, sides alternating, `team` first.
    pub fn perft(&mut self, team: Team, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(team);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for (from, to) in moves {
            self.play(team, from, to);
            total += self.perft(team.other(), depth - 1);
            self.play(team, to, from);
        }
        total
    }

    /// Calls `leaf` on every position `depth` plies from this one (sides alternating, `team` first) with
    /// the team to move there.
    pub fn walk(&mut self, team: Team, depth: u32, leaf: &mut dyn FnMut(&RefBoard, Team)) {
        if depth == 0 {
            leaf(self, team);
            return;
        }
        for (from, to) in self.moves(team) {
            self.play(team, from, to);
            self.walk(team.other(), depth - 1, leaf);
            self.play(team, to, from);
        }
    }
}

/// A random position, as plain data so a failing case prints everything (the engine's `Debug` of a
/// position is a picture without damage or destinations).
#[derive(Clone, Debug)]
pub struct Setup {
    pub size: u8,
    pub camp_rule: bool,
    /// The course's camp rules; then the destinations hold the corners (0,0) (blue's, so red's own
    /// corner) and (size-1,size-1) (red's, so blue's own corner).
    pub course: bool,
    /// (x, y, damage), one per square per team.
    pub red: Vec<(u8, u8, u8)>,
    pub blue: Vec<(u8, u8, u8)>,
    pub red_dests: Vec<(u8, u8)>,
    pub blue_dests: Vec<(u8, u8)>,
}

impl Setup {
    pub fn position(&self) -> Position {
        let pieces = |v: &[(u8, u8, u8)]| -> Vec<Piece> {
            v.iter()
                .map(|&(x, y, damage)| Piece {
                    square: sq(x, y),
                    damage,
                })
                .collect()
        };
        let dests = |v: &[(u8, u8)]| -> Vec<Square> { v.iter().map(|&(x, y)| sq(x, y)).collect() };
        Position::new(
            self.size,
            self.camp_rule,
            Teams {
                red: pieces(&self.red),
                blue: pieces(&self.blue),
            },
            Teams {
                red: dests(&self.red_dests),
                blue: dests(&self.blue_dests),
            },
        )
        .and_then(|p| p.with_camp_rules(self.camp_rules()))
        .expect("generated setups are valid")
    }

    /// The camp rules the setup is played under.
    pub fn camp_rules(&self) -> CampRules {
        if self.course {
            CampRules::Course
        } else {
            CampRules::Seed
        }
    }

    /// The pieces of `team`.
    pub fn pieces(&self, team: Team) -> &[(u8, u8, u8)] {
        match team {
            Team::Red => &self.red,
            Team::Blue => &self.blue,
        }
    }
}

/// Damage: mostly 0 so that jumps happen, sometimes 1 to 5.
pub fn damage() -> impl Strategy<Value = u8> + Clone {
    prop_oneof![4 => Just(0u8), 1 => 1..=5u8]
}

fn dedup_pieces(v: Vec<(u8, u8, u8)>) -> Vec<(u8, u8, u8)> {
    let mut seen = HashSet::new();
    v.into_iter().filter(|p| seen.insert((p.0, p.1))).collect()
}

fn dedup_squares(v: Vec<(u8, u8)>) -> Vec<(u8, u8)> {
    let mut seen = HashSet::new();
    v.into_iter().filter(|s| seen.insert(*s)).collect()
}

/// Random valid setups: board sides drawn from `sizes`, up to `max_pieces` a team (and at most a third of
/// the board each), some red and blue pieces sharing a square, random damage, random destinations that
/// often include squares the team's pieces stand on (so the camp rule bites), camp rule on or off, and
/// one setup in four under the course's camp rules (with a corner in each team's own camp).
pub fn setups(
    sizes: std::ops::RangeInclusive<u8>,
    max_pieces: usize,
) -> impl Strategy<Value = Setup> {
    sizes
        .prop_flat_map(move |size| {
            let n = usize::from(size) * usize::from(size);
            let cap = (n / 3).clamp(1, max_pieces);
            let piece = (0..size, 0..size, damage());
            let square = (0..size, 0..size);
            (
                (
                    Just(size),
                    any::<bool>(),
                    prop_oneof![3 => Just(false), 1 => Just(true)],
                ),
                prop::collection::vec(piece.clone(), 1..=cap),
                prop::collection::vec(piece, 1..=cap),
                prop::collection::vec(any::<Index>(), 0..4),
                prop::collection::vec(square.clone(), 1..=cap.min(10)),
                prop::collection::vec(square, 1..=cap.min(10)),
                prop::collection::vec(any::<Index>(), 0..5),
                prop::collection::vec(any::<Index>(), 0..5),
            )
        })
        .prop_map(
            |((size, camp_rule, course), red, blue, shared, rd, bd, red_home, blue_home)| {
                let red = dedup_pieces(red);
                let mut blue = dedup_pieces(blue);
                // Collided pairs: a blue piece on a red piece's square.
                for i in shared {
                    let (x, y, d) = *i.get(&red);
                    if !blue.iter().any(|p| (p.0, p.1) == (x, y)) {
                        blue.push((x, y, d));
                    }
                }
                let mut red_dests = rd;
                for i in red_home {
                    let p = i.get(&red);
                    red_dests.push((p.0, p.1));
                }
                let mut blue_dests = bd;
                for i in blue_home {
                    let p = i.get(&blue);
                    blue_dests.push((p.0, p.1));
                }
                if course {
                    // Each team's own corner, and a piece of each in its own camp so rule 2 bites.
                    red_dests.push((size - 1, size - 1));
                    blue_dests.push((0, 0));
                    red_dests.push((blue[0].0, blue[0].1));
                    blue_dests.push((red[0].0, red[0].1));
                }
                Setup {
                    size,
                    camp_rule,
                    course,
                    red,
                    blue,
                    red_dests: dedup_squares(red_dests),
                    blue_dests: dedup_squares(blue_dests),
                }
            },
        )
}

/// A random chain of landings from `from`, driven by `choices`: mostly jumps over a piece to an empty
/// square (judged on `board`), sometimes any two-square hop, sometimes a step or an odd offset. Every
/// prefix of the result is a candidate move worth checking.
pub fn random_chain(board: &RefBoard, from: Xy, choices: &[u8]) -> Vec<Xy> {
    let mut at = from;
    let mut out = Vec::new();
    for &c in choices {
        let next = if c < 200 {
            let plausible: Vec<Xy> = DIRS
                .iter()
                .map(|&(dx, dy)| ((at.0 + dx, at.1 + dy), (at.0 + 2 * dx, at.1 + 2 * dy)))
                .filter(|&(over, land)| board.occupied(over) && board.is_empty(land))
                .map(|(_, land)| land)
                .collect();
            if plausible.is_empty() {
                let (dx, dy) = DIRS[usize::from(c) % 8];
                (at.0 + 2 * dx, at.1 + 2 * dy)
            } else {
                plausible[usize::from(c) % plausible.len()]
            }
        } else if c < 230 {
            let (dx, dy) = DIRS[usize::from(c) % 8];
            (at.0 + 2 * dx, at.1 + 2 * dy)
        } else if c < 245 {
            let (dx, dy) = DIRS[usize::from(c) % 8];
            (at.0 + dx, at.1 + dy)
        } else {
            let odd = [(3, 1), (0, 0), (-4, 0), (2, 1), (1, -2), (0, 3)];
            let (dx, dy) = odd[usize::from(c) % odd.len()];
            (at.0 + dx, at.1 + dy)
        };
        out.push(next);
        at = next;
    }
    out
}

/// A protocol path from reference squares.
pub fn xy_path(from: Xy, to: &[Xy]) -> Path {
    let pt = |s: Xy| Point {
        x: i64::from(s.0),
        y: i64::from(s.1),
    };
    Path {
        from: pt(from),
        to: to.iter().map(|&s| pt(s)).collect(),
    }
}

/// The engine's moves of `team` as reference pairs.
pub fn engine_moves(p: &Position, team: Team) -> Vec<(Xy, Xy)> {
    p.moves(team)
        .into_iter()
        .map(|m| (xy(m.from), xy(m.to)))
        .collect()
}
