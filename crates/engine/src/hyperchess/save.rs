//! Saving and loading a whole game, and reading "currentstate" files for the viewer.
//!
//! A save is three header lines and the board as a Map file, so the board is checked by the Map parser
//! on loading and a save file can be read (and edited) by a person:
//!
//! ```text
//! HyperChess save 1
//! turn White
//! captured BPawn WKnight
//! <the Map file of the board as it stands>
//! ```

use super::board::Board;
use super::coord::Coord;
use super::game::Game;
use super::map::{self, MapError};
use super::piece::{Piece, Side};
use std::fmt;

const MAGIC: &str = "HyperChess save 1";

/// Why a save was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Not a save of this version (the first line is not the header).
    NotASave,
    /// Line 2 is not `turn White` or `turn Black`.
    BadTurn(String),
    /// Line 3 is not `captured` and piece names.
    BadCaptured(String),
    /// The board part is not a valid Map (its line numbers count from the top of the save).
    Map(MapError),
    /// The bytes are not UTF-8 text; the first bad byte is on this 1-based line.
    NotUtf8 { line: usize },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotASave => {
                write!(f, "not a HyperChess save: the first line must be {MAGIC:?}")
            }
            LoadError::BadTurn(t) => write!(
                f,
                "line 2: {t:?} should be \"turn White\" or \"turn Black\""
            ),
            LoadError::BadCaptured(why) => write!(f, "line 3: {why}"),
            LoadError::Map(e) => write!(f, "the board: {e}"),
            LoadError::NotUtf8 { line } => write!(f, "line {line}: the text is not UTF-8"),
        }
    }
}

impl std::error::Error for LoadError {}

impl Game {
    /// The whole game as text: the board, whose turn it is, and the pieces taken.
    pub fn save(&self) -> String {
        let captured: Vec<String> = self.captured.iter().map(Piece::to_string).collect();
        let mut head = format!("{MAGIC}\nturn {}\ncaptured", self.to_move);
        for c in captured {
            head.push(' ');
            head.push_str(&c);
        }
        format!("{head}\n{}", self.board.to_map())
    }

    /// Reads a save from raw bytes, as a file arrives: bytes that are not UTF-8 are refused with their
    /// line, then [`Game::load`] reads the text.
    pub fn load_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        Game::load(map::utf8(bytes).map_err(|line| LoadError::NotUtf8 { line })?)
    }

    /// Reads what [`Game::save`] wrote. The board part is checked by the Map parser, so a hand-edited
    /// save is held to the same rules as a Map file.
    pub fn load(text: &str) -> Result<Game, LoadError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text.splitn(4, '\n');
        if lines.next().map(str::trim) != Some(MAGIC) {
            return Err(LoadError::NotASave);
        }
        let turn = lines.next().unwrap_or_default().trim();
        let side = turn
            .strip_prefix("turn ")
            .and_then(|s| s.trim().parse::<Side>().ok())
            .ok_or_else(|| LoadError::BadTurn(turn.to_string()))?;
        let captured_line = lines.next().unwrap_or_default().trim();
        let names = captured_line.strip_prefix("captured").ok_or_else(|| {
            LoadError::BadCaptured(format!("{captured_line:?} should start with \"captured\""))
        })?;
        let captured = names
            .split_whitespace()
            .map(|n| n.parse::<Piece>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(LoadError::BadCaptured)?;
        let board = map::parse(lines.next().unwrap_or_default()).map_err(|mut e| {
            if e.line > 0 {
                e.line += 3;
            }
            LoadError::Map(e)
        })?;
        Ok(Game::resume(board, side, captured))
    }
}

/// One line of a currentstate file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateLine {
    pub at: Coord,
    pub piece: Option<Piece>,
}

/// Why a currentstate file could not be read, and where (1-based line; 0 for the file as a whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError {
    pub line: usize,
    pub kind: StateErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateErrorKind {
    /// No line holds a node.
    Empty,
    /// More than [`map::MAX_NODES`] nodes.
    TooManyNodes,
    /// The line is longer than [`map::MAX_LINE`] bytes.
    LineTooLong,
    /// Not `X Y Z` and an optional piece: the number of fields found.
    Fields(usize),
    /// A coordinate is not a whole number (the reason).
    BadCoord(String),
    /// The piece name is not one (the reason).
    BadPiece(String),
    /// The location was already listed.
    Duplicate(Coord),
    /// The bytes are not UTF-8 text.
    NotUtf8,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match &self.kind {
            StateErrorKind::Empty => {
                f.write_str("the file lists no nodes: expected X Y Z Piece lines")
            }
            StateErrorKind::TooManyNodes => {
                write!(f, "more than {} nodes", map::MAX_NODES)
            }
            StateErrorKind::LineTooLong => {
                write!(f, "the line is longer than {} bytes", map::MAX_LINE)
            }
            StateErrorKind::Fields(n) => {
                write!(f, "{n} fields: a currentstate line is X Y Z Piece")
            }
            StateErrorKind::BadCoord(why) | StateErrorKind::BadPiece(why) => f.write_str(why),
            StateErrorKind::Duplicate(at) => write!(f, "({at}) is listed twice"),
            StateErrorKind::NotUtf8 => f.write_str("the text is not UTF-8"),
        }
    }
}

impl std::error::Error for StateError {}

/// Reads a currentstate file (the board's Display: `X Y Z Piece` per line, tabs or spaces, "null" or no
/// piece for an empty node) for viewing, in the file's order. The error names the line. At most
/// [`map::MAX_NODES`] nodes of at most [`map::MAX_LINE`] bytes each; blank lines are skipped.
pub fn parse_state(text: &str) -> Result<Vec<StateLine>, StateError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let fail = |kind| StateError { line: n, kind };
        if line.trim().is_empty() {
            continue;
        }
        if line.len() > map::MAX_LINE {
            return Err(fail(StateErrorKind::LineTooLong));
        }
        if out.len() == map::MAX_NODES {
            return Err(fail(StateErrorKind::TooManyNodes));
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (xyz, piece) = match fields.as_slice() {
            [x, y, z] => ([*x, *y, *z], None),
            [x, y, z, p] => ([*x, *y, *z], Some(*p)),
            _ => return Err(fail(StateErrorKind::Fields(fields.len()))),
        };
        let at = Coord::parse(&xyz.join(" ")).map_err(|e| fail(StateErrorKind::BadCoord(e)))?;
        let piece = match piece {
            None => None,
            Some(p) if p.eq_ignore_ascii_case("null") => None,
            Some(p) => Some(
                p.parse::<Piece>()
                    .map_err(|e| fail(StateErrorKind::BadPiece(e)))?,
            ),
        };
        if !seen.insert(at) {
            return Err(fail(StateErrorKind::Duplicate(at)));
        }
        out.push(StateLine { at, piece });
    }
    if out.is_empty() {
        return Err(StateError {
            line: 0,
            kind: StateErrorKind::Empty,
        });
    }
    Ok(out)
}

/// [`parse_state`] on raw bytes, as a file arrives: bytes that are not UTF-8 are refused with their line.
pub fn parse_state_bytes(bytes: &[u8]) -> Result<Vec<StateLine>, StateError> {
    parse_state(map::utf8(bytes).map_err(|line| StateError {
        line,
        kind: StateErrorKind::NotUtf8,
    })?)
}

impl Board {
    /// This board's currentstate as lines, as [`parse_state`] reads them.
    pub fn state_lines(&self) -> Vec<StateLine> {
        self.nodes()
            .iter()
            .map(|n| StateLine {
                at: n.coord,
                piece: n.piece,
            })
            .collect()
    }
}
