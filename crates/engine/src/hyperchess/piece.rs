//! Pieces: a side and a kind, written as the seed's toString does ("WPawn", "BKnight").

use std::fmt;
use std::str::FromStr;

/// A player. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Side {
    type Err = String;

    /// "white" or "black" in any capitalisation, as the seed's Piece constructor takes them.
    fn from_str(s: &str) -> Result<Side, String> {
        match s.to_ascii_lowercase().as_str() {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            _ => Err(format!("{s:?} is not a side: white or black")),
        }
    }
}

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn,
    Rook,
    Knight,
    Bishop,
    Queen,
    King,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Rook,
        Kind::Knight,
        Kind::Bishop,
        Kind::Queen,
        Kind::King,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "Pawn",
            Kind::Rook => "Rook",
            Kind::Knight => "Knight",
            Kind::Bishop => "Bishop",
            Kind::Queen => "Queen",
            Kind::King => "King",
        }
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    pub fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// The chess symbol, for boards drawn as text.
    pub fn symbol(self) -> char {
        match (self.side, self.kind) {
            (Side::White, Kind::King) => '♔',
            (Side::White, Kind::Queen) => '♕',
            (Side::White, Kind::Rook) => '♖',
            (Side::White, Kind::Bishop) => '♗',
            (Side::White, Kind::Knight) => '♘',
            (Side::White, Kind::Pawn) => '♙',
            (Side::Black, Kind::King) => '♚',
            (Side::Black, Kind::Queen) => '♛',
            (Side::Black, Kind::Rook) => '♜',
            (Side::Black, Kind::Bishop) => '♝',
            (Side::Black, Kind::Knight) => '♞',
            (Side::Black, Kind::Pawn) => '♟',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.side.letter(), self.kind.name())
    }
}

impl FromStr for Piece {
    type Err = String;

    /// "WPawn", "BKnight": W or B, then the kind, in any capitalisation.
    fn from_str(s: &str) -> Result<Piece, String> {
        let bad = || {
            format!(
                "{s:?} is not a piece: expected W or B then Pawn, Rook, Knight, Bishop, Queen or King \
                 (such as WPawn or BKnight), or null"
            )
        };
        let mut chars = s.chars();
        let side = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('W') => Side::White,
            Some('B') => Side::Black,
            _ => return Err(bad()),
        };
        let rest = chars.as_str();
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(rest))
            .ok_or_else(bad)?;
        Ok(Piece::new(side, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_nonsense_is_refused() {
        for side in [Side::White, Side::Black] {
            for kind in Kind::ALL {
                let p = Piece::new(side, kind);
                assert_eq!(p.to_string().parse::<Piece>(), Ok(p));
            }
        }
        assert_eq!(
            "bknight".parse::<Piece>(),
            Ok(Piece::new(Side::Black, Kind::Knight))
        );
        for bad in ["", "W", "Pawn", "XPawn", "WPawns", "null", "WUnicorn", "é"] {
            assert!(bad.parse::<Piece>().is_err(), "{bad}");
        }
        assert_eq!("WHITE".parse::<Side>(), Ok(Side::White));
    }
}
