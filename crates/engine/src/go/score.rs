//! Area scoring (Chinese / Tromp-Taylor), komi and results in SGF form.
//!
//! A colour's area is its stones on the board plus every empty region that touches only its stones. An
//! empty region touching both colours (dame, seki liberties) counts for nobody. No stone is ever judged
//! dead: players capture what they want removed before passing (see docs/go.md).

use super::board::{neighbours, stone, Board, EMPTY, OFF};
use super::point::{BoardSize, Point, CELLS, MAX_POINTS};
use super::Color;
use std::fmt;
use std::str::FromStr;

/// Compensation points for White, in half points so that 0.5 and 6.5 are exact and results compare
/// with `==`. The seed's "handicap of 0.5 points" is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Komi(i16);

impl Komi {
    /// 0.5: the seed's komi, which makes draws impossible.
    pub const DEFAULT: Komi = Komi(1);
    /// No komi.
    pub const ZERO: Komi = Komi(0);
    /// The largest komi either way, in points.
    pub const MAX_POINTS: i16 = 1000;

    /// A komi of `half_points / 2` points, clamped to ±[`Komi::MAX_POINTS`].
    pub fn from_half_points(half_points: i16) -> Komi {
        Komi(half_points.clamp(-2 * Komi::MAX_POINTS, 2 * Komi::MAX_POINTS))
    }

    /// The komi in half points.
    pub fn half_points(self) -> i16 {
        self.0
    }

    /// The komi in points, e.g. for GTP's `get_komi`.
    pub fn points(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl Default for Komi {
    fn default() -> Komi {
        Komi::DEFAULT
    }
}

/// Writes `half / 2` as "3", "3.5", "-0.5".
fn write_half_points(f: &mut fmt::Formatter<'_>, half: i32) -> fmt::Result {
    let sign = if half < 0 { "-" } else { "" };
    let h = half.unsigned_abs();
    if h % 2 == 0 {
        write!(f, "{sign}{}", h / 2)
    } else {
        write!(f, "{sign}{}.5", h / 2)
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_half_points(f, self.0 as i32)
    }
}

/// A komi that is not a multiple of 0.5 points within ±1000.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KomiError(pub String);

impl fmt::Display for KomiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a komi: expected a multiple of 0.5 between -{m} and {m}, such as 0.5 or 6.5",
            self.0,
            m = Komi::MAX_POINTS
        )
    }
}

impl std::error::Error for KomiError {}

impl FromStr for Komi {
    type Err = KomiError;

    /// A decimal number of points, as GTP's `komi` sends it: "0.5", "6.5", "7", "-3.0".
    fn from_str(s: &str) -> Result<Komi, KomiError> {
        let err = || KomiError(s.to_string());
        let t = s.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || b"+-.".contains(&b)) {
            return Err(err());
        }
        let points: f64 = t.parse().map_err(|_| err())?;
        let half = points * 2.0;
        if !half.is_finite() || half.fract() != 0.0 || half.abs() > 2.0 * Komi::MAX_POINTS as f64 {
            return Err(err());
        }
        Ok(Komi(half as i16))
    }
}

/// How a game ended, written as SGF's `RE` property: `B+3.5`, `W+R` (resignation), `B+T` (time), `0`
/// (a draw, possible only with an integer komi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Counted after two passes: the winner and the margin in half points.
    Points { winner: Color, half_points: u32 },
    /// Counted, and equal.
    Draw,
    /// The loser resigned.
    Resignation { winner: Color },
    /// The loser's move clock ran out.
    Time { winner: Color },
}

impl GameResult {
    /// The winner; `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::Points { winner, .. }
            | GameResult::Resignation { winner }
            | GameResult::Time { winner } => Some(winner),
            GameResult::Draw => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::Points {
                winner,
                half_points,
            } => {
                write!(f, "{}+", winner.letter())?;
                write_half_points(f, half_points.min(i32::MAX as u32) as i32)
            }
            GameResult::Draw => f.write_str("0"),
            GameResult::Resignation { winner } => write!(f, "{}+R", winner.letter()),
            GameResult::Time { winner } => write!(f, "{}+T", winner.letter()),
        }
    }
}

/// An area count: each colour's stones plus the empty points that reach only that colour, and the komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// Black's area.
    pub black: u16,
    /// White's area, komi not included.
    pub white: u16,
    /// White's komi.
    pub komi: Komi,
}

impl Score {
    /// Black's lead in half points: twice (black − white) minus the komi. Positive: Black wins.
    pub fn lead_half_points(&self) -> i32 {
        2 * (self.black as i32 - self.white as i32) - self.komi.half_points() as i32
    }

    /// The winner on points; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        self.result().winner()
    }

    /// The result this count gives.
    pub fn result(&self) -> GameResult {
        let lead = self.lead_half_points();
        match lead.signum() {
            1 => GameResult::Points {
                winner: Color::Black,
                half_points: lead.unsigned_abs(),
            },
            -1 => GameResult::Points {
                winner: Color::White,
                half_points: lead.unsigned_abs(),
            },
            _ => GameResult::Draw,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "black {}, white {} + komi {}: {}",
            self.black,
            self.white,
            self.komi,
            self.result()
        )
    }
}

/// Who each point belongs to under area scoring: the colour of its stone, or of the only colour its empty
/// region reaches; `None` for a stone-less region that reaches both or neither (neutral).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owners {
    size: BoardSize,
    owner: [u8; CELLS],
}

impl Owners {
    /// The owner of `p`; `None` for a neutral point or one off the board.
    pub fn get(&self, p: Point) -> Option<Color> {
        match self.owner[p.cell()] {
            v if v == stone(Color::Black) => Some(Color::Black),
            v if v == stone(Color::White) => Some(Color::White),
            _ => None,
        }
    }

    /// The number of points `c` owns: its area.
    pub fn count(&self, c: Color) -> u16 {
        let v = stone(c);
        self.size
            .points()
            .filter(|p| self.owner[p.cell()] == v)
            .count() as u16
    }
}

/// Marks of a point in the flood fill: not yet reached, or queued.
const UNSEEN: u8 = 4;
const QUEUED: u8 = 5;

impl Board {
    /// Every point's owner under area scoring.
    pub fn owners(&self) -> Owners {
        let mut owner = [OFF; CELLS];
        for p in self.size().points() {
            let v = self.cell_value(p.cell());
            owner[p.cell()] = if v == EMPTY { UNSEEN } else { v };
        }
        let mut region = [0u16; MAX_POINTS];
        for p in self.size().points() {
            if owner[p.cell()] != UNSEEN {
                continue;
            }
            // Breadth-first over the empty region; `region` is both the queue and the member list.
            owner[p.cell()] = QUEUED;
            region[0] = p.cell() as u16;
            let (mut read, mut write) = (0, 1);
            let mut touches = 0u8;
            while read < write {
                let cell = region[read] as usize;
                read += 1;
                for q in neighbours(cell) {
                    match self.cell_value(q) {
                        EMPTY if owner[q] == UNSEEN => {
                            owner[q] = QUEUED;
                            region[write] = q as u16;
                            write += 1;
                        }
                        EMPTY | OFF => {}
                        v => touches |= v,
                    }
                }
            }
            let mark = if touches == stone(Color::Black) || touches == stone(Color::White) {
                touches
            } else {
                EMPTY
            };
            for &cell in &region[..write] {
                owner[cell as usize] = mark;
            }
        }
        Owners {
            size: self.size(),
            owner,
        }
    }

    /// The area count of this position with `komi`.
    pub fn score(&self, komi: Komi) -> Score {
        let owners = self.owners();
        Score {
            black: owners.count(Color::Black),
            white: owners.count(Color::White),
            komi,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(diagram: &str, komi: Komi) -> Score {
        Board::from_diagram(diagram).unwrap().score(komi)
    }

    #[test]
    fn komi_text() {
        for (text, half, shown) in [
            ("0.5", 1, "0.5"),
            ("6.5", 13, "6.5"),
            ("7", 14, "7"),
            ("7.0", 14, "7"),
            ("-0.5", -1, "-0.5"),
            ("+3", 6, "3"),
            (" 0 ", 0, "0"),
        ] {
            let k: Komi = text.parse().unwrap();
            assert_eq!(k.half_points(), half, "{text}");
            assert_eq!(k.to_string(), shown);
        }
        for bad in ["", "6.25", "abc", "1e3", "nan", "inf", "1000.5", "0x10"] {
            assert!(bad.parse::<Komi>().is_err(), "{bad}");
        }
        assert_eq!(Komi::default(), Komi::DEFAULT);
        assert_eq!(Komi::DEFAULT.points(), 0.5);
        assert_eq!(Komi::from_half_points(i16::MAX).half_points(), 2000);
    }

    #[test]
    fn result_strings() {
        let points = |winner, half_points| GameResult::Points {
            winner,
            half_points,
        };
        assert_eq!(points(Color::Black, 7).to_string(), "B+3.5");
        assert_eq!(points(Color::White, 1).to_string(), "W+0.5");
        assert_eq!(points(Color::White, 24).to_string(), "W+12");
        assert_eq!(GameResult::Draw.to_string(), "0");
        assert_eq!(
            GameResult::Resignation {
                winner: Color::White
            }
            .to_string(),
            "W+R"
        );
        assert_eq!(
            GameResult::Time {
                winner: Color::Black
            }
            .to_string(),
            "B+T"
        );
        assert_eq!(GameResult::Draw.winner(), None);
    }

    #[test]
    fn empty_board_is_a_komi_win_for_white() {
        let s = Board::new(BoardSize::NINE).score(Komi::DEFAULT);
        assert_eq!((s.black, s.white), (0, 0));
        assert_eq!(s.result().to_string(), "W+0.5");
        assert_eq!(
            Board::new(BoardSize::NINE).score(Komi::ZERO).result(),
            GameResult::Draw
        );
    }

    #[test]
    fn territory_and_neutral_points() {
        // Black owns the left two columns, white the right two, the middle column is dame.
        let s = score(
            ". X . O .
             . X . O .
             . X . O .
             . X . O .
             . X . O .",
            Komi::DEFAULT,
        );
        assert_eq!((s.black, s.white), (10, 10));
        assert_eq!(s.result().to_string(), "W+0.5");
        let s = score(
            ". X . O .
             . X . O .
             . X . O .
             . X . O .
             . X . O .",
            "-2".parse().unwrap(),
        );
        assert_eq!(s.result().to_string(), "B+2");
        assert_eq!(s.to_string(), "black 10, white 10 + komi -2: B+2");
    }

    #[test]
    fn shared_liberties_and_open_areas_count_for_nobody() {
        // White's corner chain (liberties A5, C5) and black's top chain (liberties C5, E5) share C5, as in
        // seki: C5 touches both colours and is neutral. The open bottom rows touch both colours too.
        let b = Board::from_diagram(
            ". O . X .
             O O X X X
             X X O O O
             . . . . .
             . . . . .",
        )
        .unwrap();
        let owners = b.owners();
        let at = |s: &str| owners.get(Point::from_gtp(s, b.size()).unwrap());
        assert_eq!(at("A5"), Some(Color::White));
        assert_eq!(at("C5"), None);
        assert_eq!(at("E5"), Some(Color::Black));
        assert_eq!(at("A1"), None);
        assert_eq!(at("B4"), Some(Color::White));
        let s = b.score(Komi::DEFAULT);
        assert_eq!((s.black, s.white), (7, 7));
        assert_eq!(s.result().to_string(), "W+0.5");
        assert_eq!(s.winner(), Some(Color::White));
    }

    #[test]
    fn a_lone_stone_owns_the_whole_board() {
        let b = Board::from_diagram(". . .\n. X .\n. . .").unwrap();
        let s = b.score(Komi::DEFAULT);
        assert_eq!((s.black, s.white), (9, 0));
        assert_eq!(s.result().to_string(), "B+8.5");
        assert_eq!(s.lead_half_points(), 17);
    }
}
