//! The board: a graph of nodes, each with six optional links and perhaps a piece, and the origin (node 0) at
//! (0,0,0). Nodes live in one vector and link by index, Rust's form of the seed's linked Node objects; only
//! nodes reachable from the origin are kept, so the node count is the reachable count.

use super::coord::{Coord, Dir};
use super::piece::{Kind, Piece, Side};
use std::collections::HashMap;
use std::fmt;

/// A node: a cube of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub coord: Coord,
    /// Neighbours by [`Dir`] (left, right, up, down, in, out), as indices into the board's nodes.
    pub links: [Option<usize>; 6],
    pub piece: Option<Piece>,
}

impl Node {
    pub fn link(&self, dir: Dir) -> Option<usize> {
        self.links[dir.index()]
    }
}

/// The board. Node 0 is the origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    nodes: Vec<Node>,
    at: HashMap<Coord, usize>,
}

impl Board {
    /// A board from nodes whose links and coordinates are already checked (see `map::parse`).
    pub(super) fn from_nodes(nodes: Vec<Node>) -> Board {
        let at = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.coord, i))
            .collect();
        Board { nodes, at }
    }

    /// Every node, the origin first, in the order the Map file listed them.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node at (0,0,0): the seed's Board keeps only this node and the count, everything else is
    /// reached through links. Every board from the parser has one.
    pub fn origin(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// How many nodes the board has (all reachable from the origin).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, i: usize) -> Option<&Node> {
        self.nodes.get(i)
    }

    /// The node at a location, if the board has one there.
    pub fn index_of(&self, c: Coord) -> Option<usize> {
        self.at.get(&c).copied()
    }

    pub fn piece_at(&self, c: Coord) -> Option<Piece> {
        self.index_of(c).and_then(|i| self.nodes[i].piece)
    }

    pub(super) fn set_piece(&mut self, i: usize, piece: Option<Piece>) {
        if let Some(n) = self.nodes.get_mut(i) {
            n.piece = piece;
        }
    }

    /// Every piece on the board with its location, in node order.
    pub fn pieces(&self) -> impl Iterator<Item = (Coord, Piece)> + '_ {
        self.nodes
            .iter()
            .filter_map(|n| n.piece.map(|p| (n.coord, p)))
    }

    /// The first side (White, then Black) with no King on the board. A game is won by taking the King,
    /// so [`Game::new`](super::Game::new) refuses such a board (docs/hyperchess.md); a viewer need not.
    pub fn missing_king(&self) -> Option<Side> {
        [Side::White, Side::Black].into_iter().find(|&side| {
            !self
                .pieces()
                .any(|(_, p)| p == Piece::new(side, Kind::King))
        })
    }

    /// The node one link away.
    pub fn neighbour(&self, i: usize, dir: Dir) -> Option<usize> {
        self.nodes.get(i)?.link(dir)
    }

    /// The lowest and highest coordinates on each axis, for drawing.
    pub fn bounds(&self) -> (Coord, Coord) {
        let mut lo = Coord::ORIGIN;
        let mut hi = Coord::ORIGIN;
        for n in &self.nodes {
            let c = n.coord;
            lo = Coord::new(lo.x.min(c.x), lo.y.min(c.y), lo.z.min(c.z));
            hi = Coord::new(hi.x.max(c.x), hi.y.max(c.y), hi.z.max(c.z));
        }
        (lo, hi)
    }

    /// The board as a Map file: the same graph with the pieces as they stand now, so a saved game's board
    /// is read back by the same parser as a new one.
    pub fn to_map(&self) -> String {
        let mut out = format!("{}\n", self.nodes.len());
        for (i, n) in self.nodes.iter().enumerate() {
            out.push_str(&i.to_string());
            for l in n.links {
                out.push('\t');
                match l {
                    Some(j) => out.push_str(&j.to_string()),
                    None => out.push_str("-1"),
                }
            }
            out.push('\t');
            match n.piece {
                Some(p) => out.push_str(&p.to_string()),
                None => out.push_str("null"),
            }
            out.push('\n');
        }
        out
    }
}

/// The seed's "currentstate": one line per node, `X Y Z Piece`, "null" for an empty node.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in &self.nodes {
            let c = n.coord;
            match n.piece {
                Some(p) => writeln!(f, "{}\t{}\t{}\t{p}", c.x, c.y, c.z)?,
                None => writeln!(f, "{}\t{}\t{}\tnull", c.x, c.y, c.z)?,
            }
        }
        Ok(())
    }
}
