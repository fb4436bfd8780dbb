//! The two players' colours.

use std::fmt;
use std::str::FromStr;

/// A player, named by the colour of their stones. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The opponent.
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The letter SGF and result strings use: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The lower-case name GTP uses: `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// 0 for Black, 1 for White: the index of per-colour arrays.
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A colour name that is none of GTP's spellings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorError(pub String);

impl fmt::Display for ColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a colour: expected black, white, b or w",
            self.0
        )
    }
}

impl std::error::Error for ColorError {}

impl FromStr for Color {
    type Err = ColorError;

    /// GTP's spellings, in any case: `black`, `b`, `white`, `w`.
    fn from_str(s: &str) -> Result<Color, ColorError> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ColorError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for c in Color::ALL {
            assert_eq!(c.name().parse::<Color>(), Ok(c));
            assert_eq!(c.letter().to_string().parse::<Color>(), Ok(c));
            assert_eq!(!!c, c);
            assert_ne!(!c, c);
        }
        assert_eq!("WHITE".parse::<Color>(), Ok(Color::White));
        assert!("red".parse::<Color>().is_err());
    }
}
