//! Where a node is: coordinates from walking the links from the origin, and the six link directions.

use std::fmt;

/// A location: x grows to the right, y downwards, z outwards (the seed's axes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub x: i32,
    pub y: i32,
    pub z: i32,
}

impl Coord {
    pub const ORIGIN: Coord = Coord { x: 0, y: 0, z: 0 };

    pub fn new(x: i32, y: i32, z: i32) -> Coord {
        Coord { x, y, z }
    }

    /// One step along `dir`; `None` only for coordinates too large for any real map.
    pub fn step(self, dir: Dir) -> Option<Coord> {
        let (dx, dy, dz) = dir.delta();
        Some(Coord {
            x: self.x.checked_add(dx)?,
            y: self.y.checked_add(dy)?,
            z: self.z.checked_add(dz)?,
        })
    }

    /// Reads `x y z` or `x,y,z` (spaces allowed around commas), as a player types them.
    pub fn parse(text: &str) -> Result<Coord, String> {
        let parts: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        let [x, y, z] = parts.as_slice() else {
            return Err(format!(
                "{:?} is not a location: type three whole numbers, x y z (or x,y,z)",
                text.trim()
            ));
        };
        let num = |s: &str| {
            s.parse::<i32>()
                .map_err(|_| format!("{s:?} in {:?} is not a whole number", text.trim()))
        };
        Ok(Coord::new(num(x)?, num(y)?, num(z)?))
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.x, self.y, self.z)
    }
}

/// A link direction, in the Map file's column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Left,
    Right,
    Up,
    Down,
    In,
    Out,
}

impl Dir {
    /// In the Map file's order: left, right, up, down, in, out.
    pub const ALL: [Dir; 6] = [Dir::Left, Dir::Right, Dir::Up, Dir::Down, Dir::In, Dir::Out];

    /// The change in coordinates of one step.
    pub fn delta(self) -> (i32, i32, i32) {
        match self {
            Dir::Left => (-1, 0, 0),
            Dir::Right => (1, 0, 0),
            Dir::Up => (0, -1, 0),
            Dir::Down => (0, 1, 0),
            Dir::In => (0, 0, -1),
            Dir::Out => (0, 0, 1),
        }
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::In => Dir::Out,
            Dir::Out => Dir::In,
        }
    }

    /// The index of this direction in a node's links.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The axis this direction moves along: 0 x, 1 y, 2 z.
    pub fn delta_axis(self) -> usize {
        self.index() / 2
    }

    /// The direction along `axis` (0 x, 1 y, 2 z) with the sign of `sign`.
    pub fn along(axis: usize, sign: i32) -> Option<Dir> {
        match (axis, sign.signum()) {
            (0, -1) => Some(Dir::Left),
            (0, 1) => Some(Dir::Right),
            (1, -1) => Some(Dir::Up),
            (1, 1) => Some(Dir::Down),
            (2, -1) => Some(Dir::In),
            (2, 1) => Some(Dir::Out),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::Left => "left",
            Dir::Right => "right",
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::In => "in",
            Dir::Out => "out",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse_with_spaces_or_commas() {
        assert_eq!(Coord::parse("1 2 3"), Ok(Coord::new(1, 2, 3)));
        assert_eq!(Coord::parse(" 1, 2 ,3 "), Ok(Coord::new(1, 2, 3)));
        assert_eq!(Coord::parse("-1\t0\t4"), Ok(Coord::new(-1, 0, 4)));
        for bad in ["", "1 2", "1 2 3 4", "a b c", "1 2 99999999999"] {
            assert!(Coord::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn opposite_directions_undo_each_other() {
        for d in Dir::ALL {
            let c = Coord::ORIGIN.step(d).unwrap().step(d.opposite()).unwrap();
            assert_eq!(c, Coord::ORIGIN);
            let (dx, dy, dz) = d.delta();
            let axis = [dx, dy, dz].iter().position(|&v| v != 0).unwrap();
            assert_eq!(Dir::along(axis, dx + dy + dz), Some(d));
        }
    }
}
