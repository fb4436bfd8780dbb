//! Where the pieces stand: the board every rule is checked against.

use super::square::{CELLS, PAD, STRIDE};
use super::{CampRules, Move, Square, Team, Teams, MAX_BOARD_SIZE, MIN_BOARD_SIZE};
use std::fmt;

/// Cell flags. A cell may hold one red and one blue piece at once: a collision square.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const OCCUPIED: u8 = 0b011;
pub(crate) const WALL: u8 = 0b100;

/// One piece: its square and its damage (above 0 it may step but not jump).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub square: Square,
    pub damage: u8,
}

/// Why a set of pieces and destinations is not a position the engine can play on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The board side is outside `MIN_BOARD_SIZE..=MAX_BOARD_SIZE`.
    BoardSize(i64),
    /// A piece or destination lies outside the board.
    OffBoard {
        what: String,
        x: i64,
        y: i64,
        size: u8,
    },
    /// Two pieces of one team on one square.
    Stacked { team: Team, square: Square },
    /// A team has no pieces.
    NoPieces(Team),
    /// A team has no destination squares.
    NoDestinations(Team),
    /// A destination square is listed twice for one team.
    DuplicateDestination { team: Team, square: Square },
    /// A damage value outside `0..=COLLISION_DAMAGE`.
    Damage {
        team: Team,
        square: Square,
        damage: i64,
    },
    /// Both teams start on `square`: a board too small for the setup makes the teams' starts overlap.
    StartsOverlap { square: Square },
    /// A turn limit of 0 would end the game before it began.
    ZeroTurnLimit,
    /// A state written in a format version this build does not read.
    UnsupportedVersion { found: u32 },
    /// An unfinished game at or past its turn limit: the limit should already have ended it.
    TurnLimitPassed { turn: u32, turn_limit: u32 },
    /// An alternating game that does not say whose move it is.
    MissingToMove,
    /// A simultaneous game that names a team to move, which would contradict both teams moving.
    UnexpectedToMove,
    /// The course's camp rules are on but `team`'s own camp (the other team's destinations) holds no
    /// board corner, so "further from its own corner" means nothing.
    NoCampCorner { team: Team },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::BoardSize(n) => write!(
                f,
                "board size {n} is not supported: it must be {MIN_BOARD_SIZE} to {MAX_BOARD_SIZE}"
            ),
            SetupError::OffBoard { what, x, y, size } => {
                write!(f, "{what} at ({x},{y}) is off the {size}x{size} board")
            }
            SetupError::Stacked { team, square } => {
                write!(f, "two {team} pieces stand on {square}")
            }
            SetupError::NoPieces(team) => write!(f, "{team} has no pieces"),
            SetupError::NoDestinations(team) => write!(f, "{team} has no destination squares"),
            SetupError::DuplicateDestination { team, square } => {
                write!(f, "{team}'s destination {square} is listed twice")
            }
            SetupError::Damage {
                team,
                square,
                damage,
            } => write!(
                f,
                "{team} piece at {square} has damage {damage}: it must be 0 to {}",
                super::COLLISION_DAMAGE
            ),
            SetupError::StartsOverlap { square } => write!(
                f,
                "both teams start on {square}: the board is too small for this setup"
            ),
            SetupError::ZeroTurnLimit => f.write_str("the turn limit must be at least 1"),
            SetupError::UnsupportedVersion { found } => write!(
                f,
                "state version {found} is not supported (this build reads version {})",
                super::STATE_VERSION
            ),
            SetupError::TurnLimitPassed { turn, turn_limit } => write!(
                f,
                "turn {turn} has reached the turn limit {turn_limit} but the game has no result"
            ),
            SetupError::MissingToMove => f.write_str("an alternating game needs \"toMove\""),
            SetupError::UnexpectedToMove => {
                f.write_str("a simultaneous game has no \"toMove\": both teams move every tick")
            }
            SetupError::NoCampCorner { team } => write!(
                f,
                "the course's camp rules need {team}'s own camp ({}'s destinations) to hold a corner of \
                 the board, and it holds none",
                team.other()
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// A Halma position: the board, each team's pieces and destinations, and whether the camp rule applies.
///
/// A `Position` can only be built through [`Position::new`], which checks the setup, so every method may
/// assume the board is consistent.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    size: u8,
    camp_rule: bool,
    /// With the course's camp rules, each team's own corner: the board corner in its own camp (the other
    /// team's destinations). `None` under the seed's rules.
    course: Option<Teams<Square>>,
    /// Occupancy per cell: team bits, or `WALL` outside the board.
    pub(crate) cells: [u8; CELLS],
    /// Destination flags per cell, one team bit each.
    pub(crate) dest: [u8; CELLS],
    pub(crate) pieces: Teams<Vec<Piece>>,
    destinations: Teams<Vec<Square>>,
}

impl Position {
    /// Checks and builds a position.
    pub fn new(
        size: u8,
        camp_rule: bool,
        pieces: Teams<Vec<Piece>>,
        destinations: Teams<Vec<Square>>,
    ) -> Result<Position, SetupError> {
        if !(MIN_BOARD_SIZE..=MAX_BOARD_SIZE).contains(&size) {
            return Err(SetupError::BoardSize(size.into()));
        }
        let mut cells = [WALL; CELLS];
        for y in 0..size as usize {
            let row = (y + PAD) * STRIDE + PAD;
            cells[row..row + size as usize].fill(EMPTY);
        }
        let off = |what: String, s: Square| SetupError::OffBoard {
            what,
            x: s.x().into(),
            y: s.y().into(),
            size,
        };
        let mut dest = [0u8; CELLS];
        for team in Team::ALL {
            if pieces[team].is_empty() {
                return Err(SetupError::NoPieces(team));
            }
            if destinations[team].is_empty() {
                return Err(SetupError::NoDestinations(team));
            }
            for p in &pieces[team] {
                let c = p.square.cell();
                if cells[c] == WALL {
                    return Err(off(format!("{team} piece"), p.square));
                }
                if cells[c] & team.bit() != 0 {
                    return Err(SetupError::Stacked {
                        team,
                        square: p.square,
                    });
                }
                if p.damage > super::COLLISION_DAMAGE {
                    return Err(SetupError::Damage {
                        team,
                        square: p.square,
                        damage: p.damage.into(),
                    });
                }
                cells[c] |= team.bit();
            }
            for &s in &destinations[team] {
                if cells[s.cell()] == WALL {
                    return Err(off(format!("{team} destination"), s));
                }
                if dest[s.cell()] & team.bit() != 0 {
                    return Err(SetupError::DuplicateDestination { team, square: s });
                }
                dest[s.cell()] |= team.bit();
            }
        }
        Ok(Position {
            size,
            camp_rule,
            course: None,
            cells,
            dest,
            pieces,
            destinations,
        })
    }

    /// The position under `rules`: with [`CampRules::Course`], each team's own camp (the other team's
    /// destinations) must hold a board corner, its own corner; where it holds several, the first of
    /// (0,0), (size-1,0), (0,size-1), (size-1,size-1) counts.
    pub fn with_camp_rules(mut self, rules: CampRules) -> Result<Position, SetupError> {
        self.course = match rules {
            CampRules::Seed => None,
            CampRules::Course => {
                let last = self.size - 1;
                let corner = |team: Team| {
                    [(0, 0), (last, 0), (0, last), (last, last)]
                        .into_iter()
                        .filter_map(|(x, y)| Square::new(x, y))
                        .find(|&s| self.in_own_camp(team, s))
                        .ok_or(SetupError::NoCampCorner { team })
                };
                Some(Teams {
                    red: corner(Team::Red)?,
                    blue: corner(Team::Blue)?,
                })
            }
        };
        Ok(self)
    }

    /// The seed's camp rules, or the course's on top of them.
    pub fn camp_rules(&self) -> CampRules {
        if self.course.is_some() {
            CampRules::Course
        } else {
            CampRules::Seed
        }
    }

    /// With the course's camp rules, `team`'s own corner (see [`Position::with_camp_rules`]).
    pub fn own_corner(&self, team: Team) -> Option<Square> {
        self.course.as_ref().map(|c| c[team])
    }

    /// Whether `square` is in `team`'s own camp, the other team's destinations (where the team starts,
    /// in the corner presets).
    pub fn in_own_camp(&self, team: Team, square: Square) -> bool {
        self.dest[square.cell()] & team.other().bit() != 0
    }

    /// Squares per side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Whether a piece standing in its destination may not end a move outside it.
    pub fn camp_rule(&self) -> bool {
        self.camp_rule
    }

    /// Whether `square` is on this board.
    pub fn contains(&self, square: Square) -> bool {
        square.x() < self.size && square.y() < self.size
    }

    /// A team's pieces, in a stable order (the order they were set up in).
    pub fn pieces(&self, team: Team) -> &[Piece] {
        &self.pieces[team]
    }

    /// A team's destination squares.
    pub fn destinations(&self, team: Team) -> &[Square] {
        &self.destinations[team]
    }

    /// Whether `square` is one of `team`'s destinations.
    pub fn is_destination(&self, team: Team, square: Square) -> bool {
        self.dest[square.cell()] & team.bit() != 0
    }

    /// The team's piece on `square`, if any.
    pub fn piece_at(&self, team: Team, square: Square) -> Option<Piece> {
        self.pieces[team]
            .iter()
            .copied()
            .find(|p| p.square == square)
    }

    /// Whether any piece stands on `square`.
    pub fn is_occupied(&self, square: Square) -> bool {
        self.cells[square.cell()] & OCCUPIED != 0
    }

    /// Whether `square` is on the board and holds no piece.
    pub fn is_empty(&self, square: Square) -> bool {
        self.cells[square.cell()] == EMPTY
    }

    /// Whether `square` holds a red and a blue piece together (they collided there).
    pub fn is_shared(&self, square: Square) -> bool {
        self.cells[square.cell()] & OCCUPIED == OCCUPIED
    }

    /// Moves a piece without checking the move; the damage is left as it is.
    ///
    /// For search and perft, on moves from [`Position::legal_moves`]. A move whose `from` holds no piece of
    /// `team` changes nothing.
    pub fn play_unchecked(&mut self, team: Team, mv: Move) {
        if let Some(p) = self.pieces[team].iter_mut().find(|p| p.square == mv.from) {
            p.square = mv.to;
            self.cells[mv.from.cell()] &= !team.bit();
            self.cells[mv.to.cell()] |= team.bit();
        }
    }

    /// Sets the damage of `team`'s piece on `square` (no-op if there is none).
    pub(crate) fn set_damage(&mut self, team: Team, square: Square, damage: u8) {
        if let Some(p) = self.pieces[team].iter_mut().find(|p| p.square == square) {
            p.damage = damage;
        }
    }

    /// Lowers every damaged piece's damage by one, except the pieces on `spare` (just collided).
    pub(crate) fn heal(&mut self, spare: &[Square]) {
        for team in Team::ALL {
            for p in self.pieces[team].iter_mut() {
                if !spare.contains(&p.square) {
                    p.damage = p.damage.saturating_sub(1);
                }
            }
        }
    }

    /// Seed 003's anti-spoiling goal: every destination square not held by the enemy holds one of the
    /// team's pieces, and at least one of its pieces is in its destinations.
    pub fn has_won(&self, team: Team) -> bool {
        let own = team.bit();
        let enemy = team.other().bit();
        let mut any_own = false;
        for s in &self.destinations[team] {
            let c = self.cells[s.cell()];
            any_own |= c & own != 0;
            if c & enemy == 0 && c & own == 0 {
                return false;
            }
        }
        any_own
    }

    /// The pieces of both teams whose damage is above 0, red first.
    pub fn damaged(&self) -> impl Iterator<Item = (Team, Piece)> + '_ {
        Team::ALL.into_iter().flat_map(move |t| {
            self.pieces[t]
                .iter()
                .filter(|p| p.damage > 0)
                .map(move |p| (t, *p))
        })
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A text picture: `r` red, `b` blue, `*` both, `.` empty; destinations in upper case when empty (`R`, `B`).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.size {
            for x in 0..self.size {
                let Some(s) = Square::new(x, y) else { continue };
                let c = match self.cells[s.cell()] & OCCUPIED {
                    1 => 'r',
                    2 => 'b',
                    3 => '*',
                    _ if self.is_destination(Team::Red, s) => 'R',
                    _ if self.is_destination(Team::Blue, s) => 'B',
                    _ => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
