//! A move as it travels, unchecked. Move generation writes one for a legal move and the referee checks
//! one that arrived, so it is a module of its own that both use rather than either's.

use super::point::Point;
use super::Square;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A move as the protocol writes it: the piece's square and every square it lands on, in order.
///
/// One landing one square away is a step; otherwise every landing is a jump of exactly two squares. The
/// coordinates are unchecked integers: a `Path` is what arrived, [`Position::check`](super::Position::check)
/// says whether it is legal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Path {
    pub from: Point,
    pub to: Vec<Point>,
}

impl Path {
    /// A path between squares of a known board.
    pub fn new(from: Square, to: Vec<Square>) -> Path {
        Path {
            from: from.into(),
            to: to.into_iter().map(Point::from).collect(),
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        for p in &self.to {
            write!(f, "->{p}")?;
        }
        Ok(())
    }
}
