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

    /// Reads what [`Game::save`] wrote.
    pub fn load(text: &str) -> Result<Game, LoadError> {
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

/// Reads a currentstate file (the board's Display: `X Y Z Piece` per line) for viewing. The error names
/// the line. At most [`map::MAX_NODES`] lines.
pub fn parse_state(text: &str) -> Result<Vec<StateLine>, String> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        if out.len() == map::MAX_NODES {
            return Err(format!("more than {} nodes", map::MAX_NODES));
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (xyz, piece) = match fields.as_slice() {
            [x, y, z] => ([*x, *y, *z], None),
            [x, y, z, p] => ([*x, *y, *z], Some(*p)),
            _ => return Err(format!("line {n}: expected X Y Z Piece")),
        };
        let at = Coord::parse(&xyz.join(" ")).map_err(|e| format!("line {n}: {e}"))?;
        let piece = match piece {
            None => None,
            Some(p) if p.eq_ignore_ascii_case("null") => None,
            Some(p) => Some(p.parse::<Piece>().map_err(|e| format!("line {n}: {e}"))?),
        };
        if !seen.insert(at) {
            return Err(format!("line {n}: ({at}) is listed twice"));
        }
        out.push(StateLine { at, piece });
    }
    if out.is_empty() {
        return Err("the file has no nodes".to_string());
    }
    Ok(out)
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
