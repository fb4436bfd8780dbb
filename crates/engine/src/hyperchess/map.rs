//! Reading a Map file: the node count, then one line per node, `NodeID Left Right Up Down In Out Piece`
//! (tabs or spaces; -1 for no link; the piece "null" or left out for an empty node).
//!
//! Everything is checked before a board exists, and a refusal names the line: ids out of range or repeated,
//! a link that is not returned (A's right is B but B's left is not A), two nodes that the links put at the
//! same place, or one node that two paths put at different places. Nodes that cannot be reached from the
//! origin are left out of the board (the seed's Board counts reachable nodes only).

use super::board::{Board, Node};
use super::coord::{Coord, Dir};
use super::piece::Piece;
use std::collections::VecDeque;
use std::fmt;

/// The most nodes a map may have: far more than any board a person plays, few enough that a hostile file
/// cannot make the page or the terminal game allocate without bound.
pub const MAX_NODES: usize = 100_000;

/// The longest line read, in bytes.
pub const MAX_LINE: usize = 1_000;

/// Why a Map file was refused, and where (1-based line; 0 for the file as a whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    pub line: usize,
    pub kind: MapErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapErrorKind {
    Empty,
    BadCount(String),
    TooManyNodes(usize),
    LineTooLong,
    Fields(usize),
    BadNumber {
        field: &'static str,
        text: String,
    },
    IdOutOfRange {
        field: &'static str,
        id: i64,
        count: usize,
    },
    DuplicateId(usize),
    MissingNodes {
        expected: usize,
        found: usize,
    },
    ExtraLine,
    BadPiece(String),
    SelfLink {
        id: usize,
        dir: Dir,
    },
    OneWay {
        id: usize,
        dir: Dir,
        other: usize,
        back: Option<usize>,
    },
    Misplaced {
        id: usize,
        at: Coord,
        also: Coord,
    },
    SamePlace {
        id: usize,
        other: usize,
        at: Coord,
    },
    NoOrigin,
    /// The bytes are not UTF-8 text (the error's line is where the first bad byte is).
    NotUtf8,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        use MapErrorKind::*;
        match &self.kind {
            Empty => f.write_str("the map is empty: the first line must be the number of nodes"),
            BadCount(t) => write!(f, "{t:?} is not a node count: the first line must be a whole number from 1 to {MAX_NODES}"),
            TooManyNodes(n) => write!(f, "{n} nodes: a map may have at most {MAX_NODES}"),
            LineTooLong => write!(f, "the line is longer than {MAX_LINE} bytes"),
            Fields(n) => write!(f, "{n} fields: a node line is NodeID Left Right Up Down In Out and an optional Piece"),
            BadNumber { field, text } => write!(f, "{field} {text:?} is not a whole number"),
            IdOutOfRange { field, id, count } => write!(f, "{field} {id} is not a node: ids go from 0 to {} (or -1 for no link)", count.saturating_sub(1)),
            DuplicateId(id) => write!(f, "node {id} is listed twice"),
            MissingNodes { expected, found } => write!(f, "the first line promises {expected} nodes but {found} are listed"),
            ExtraLine => f.write_str("more node lines than the first line promises"),
            BadPiece(why) => f.write_str(why),
            SelfLink { id, dir } => write!(f, "node {id} links {} to itself", dir.name()),
            OneWay { id, dir, other, back } => {
                let (d, o) = (dir.name(), dir.opposite().name());
                match back {
                    Some(b) => write!(f, "node {id} has node {other} to its {d}, but node {other} has node {b} to its {o}, not {id}"),
                    None => write!(f, "node {id} has node {other} to its {d}, but node {other} has nothing to its {o}"),
                }
            }
            Misplaced { id, at, also } => write!(f, "the links put node {id} at ({at}) and also at ({also})"),
            SamePlace { id, other, at } => write!(f, "the links put nodes {other} and {id} both at ({at})"),
            NoOrigin => f.write_str("there is no node 0, the origin"),
            NotUtf8 => f.write_str("the text is not UTF-8 (a Map file is plain text)"),
        }
    }
}

impl std::error::Error for MapError {}

fn err(line: usize, kind: MapErrorKind) -> MapError {
    MapError { line, kind }
}

/// One node line as read: links by map id.
struct Raw {
    line: usize,
    links: [Option<usize>; 6],
    piece: Option<Piece>,
}

const LINK_FIELDS: [&str; 6] = ["Left", "Right", "Up", "Down", "In", "Out"];

/// Reads a Map file from raw bytes, as a file arrives: text that is not UTF-8 is refused with the line of
/// the first bad byte, then [`parse`] reads it.
pub fn parse_bytes(bytes: &[u8]) -> Result<Board, MapError> {
    parse(utf8(bytes).map_err(|line| err(line, MapErrorKind::NotUtf8))?)
}

/// `bytes` as text, or the 1-based line of the first byte that is not UTF-8.
pub(super) fn utf8(bytes: &[u8]) -> Result<&str, usize> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = bytes.get(..e.valid_up_to()).unwrap_or_default();
        1 + good.iter().filter(|&&b| b == b'\n').count()
    })
}

/// Reads a Map file into a board.
pub fn parse(text: &str) -> Result<Board, MapError> {
    // A byte-order mark, as some editors write, is not part of the count.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty());
    let (count_line, count_text) = lines.next().ok_or(err(0, MapErrorKind::Empty))?;
    if count_text.len() > MAX_LINE {
        return Err(err(count_line, MapErrorKind::LineTooLong));
    }
    let count: usize = count_text.trim().parse().map_err(|_| {
        err(
            count_line,
            MapErrorKind::BadCount(count_text.trim().to_string()),
        )
    })?;
    if count == 0 {
        return Err(err(
            count_line,
            MapErrorKind::BadCount(count_text.trim().to_string()),
        ));
    }
    if count > MAX_NODES {
        return Err(err(count_line, MapErrorKind::TooManyNodes(count)));
    }
    let mut raw: Vec<Option<Raw>> = (0..count).map(|_| None).collect();
    let mut found = 0;
    for (line, text) in lines {
        if text.len() > MAX_LINE {
            return Err(err(line, MapErrorKind::LineTooLong));
        }
        if found == count {
            return Err(err(line, MapErrorKind::ExtraLine));
        }
        let (id, node) = parse_line(line, text, count)?;
        let slot = &mut raw[id];
        if slot.is_some() {
            return Err(err(line, MapErrorKind::DuplicateId(id)));
        }
        *slot = Some(node);
        found += 1;
    }
    if found < count {
        return Err(err(
            0,
            MapErrorKind::MissingNodes {
                expected: count,
                found,
            },
        ));
    }
    let raw: Vec<Raw> = raw.into_iter().flatten().collect();
    check_links(&raw)?;
    place(&raw)
}

fn parse_line(line: usize, text: &str, count: usize) -> Result<(usize, Raw), MapError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(7..=8).contains(&fields.len()) {
        return Err(err(line, MapErrorKind::Fields(fields.len())));
    }
    let number = |field: &'static str, text: &str| -> Result<i64, MapError> {
        text.parse::<i64>().map_err(|_| {
            err(
                line,
                MapErrorKind::BadNumber {
                    field,
                    text: text.to_string(),
                },
            )
        })
    };
    let in_range = |field: &'static str, id: i64| -> Result<usize, MapError> {
        usize::try_from(id)
            .ok()
            .filter(|&i| i < count)
            .ok_or(err(line, MapErrorKind::IdOutOfRange { field, id, count }))
    };
    let id = in_range("NodeID", number("NodeID", fields[0])?)?;
    let mut links = [None; 6];
    for (k, field) in LINK_FIELDS.iter().enumerate() {
        let v = number(field, fields[k + 1])?;
        if v != -1 {
            let to = in_range(field, v)?;
            if to == id {
                return Err(err(
                    line,
                    MapErrorKind::SelfLink {
                        id,
                        dir: Dir::ALL[k],
                    },
                ));
            }
            links[k] = Some(to);
        }
    }
    let piece = match fields.get(7) {
        None => None,
        Some(p) if p.eq_ignore_ascii_case("null") => None,
        Some(p) => Some(
            p.parse::<Piece>()
                .map_err(|why| err(line, MapErrorKind::BadPiece(why)))?,
        ),
    };
    Ok((id, Raw { line, links, piece }))
}

/// Every link must be returned by the node it points to.
fn check_links(raw: &[Raw]) -> Result<(), MapError> {
    for (id, node) in raw.iter().enumerate() {
        for dir in Dir::ALL {
            let Some(other) = node.links[dir.index()] else {
                continue;
            };
            let back = raw.get(other).and_then(|o| o.links[dir.opposite().index()]);
            if back != Some(id) {
                return Err(err(
                    node.line,
                    MapErrorKind::OneWay {
                        id,
                        dir,
                        other,
                        back,
                    },
                ));
            }
        }
    }
    Ok(())
}

/// Walks the links from node 0, giving every reachable node its coordinates.
fn place(raw: &[Raw]) -> Result<Board, MapError> {
    if raw.is_empty() {
        return Err(err(0, MapErrorKind::NoOrigin));
    }
    let mut coord: Vec<Option<Coord>> = vec![None; raw.len()];
    let mut owner = std::collections::HashMap::new();
    coord[0] = Some(Coord::ORIGIN);
    owner.insert(Coord::ORIGIN, 0usize);
    let mut queue = VecDeque::from([0usize]);
    while let Some(id) = queue.pop_front() {
        let Some(here) = coord[id] else { continue };
        for dir in Dir::ALL {
            let Some(next) = raw[id].links[dir.index()] else {
                continue;
            };
            // Too far out for i32 only on a path longer than any map may be.
            let Some(there) = here.step(dir) else {
                continue;
            };
            match coord[next] {
                Some(c) if c != there => {
                    return Err(err(
                        raw[next].line,
                        MapErrorKind::Misplaced {
                            id: next,
                            at: c,
                            also: there,
                        },
                    ))
                }
                Some(_) => {}
                None => {
                    if let Some(&other) = owner.get(&there) {
                        return Err(err(
                            raw[next].line,
                            MapErrorKind::SamePlace {
                                id: next,
                                other,
                                at: there,
                            },
                        ));
                    }
                    coord[next] = Some(there);
                    owner.insert(there, next);
                    queue.push_back(next);
                }
            }
        }
    }
    // Board indices follow the file's order among the reachable nodes, the origin first.
    let order: Vec<usize> = (0..raw.len()).filter(|&id| coord[id].is_some()).collect();
    let mut index = vec![None; raw.len()];
    for (i, &id) in order.iter().enumerate() {
        index[id] = Some(i);
    }
    let nodes = order
        .iter()
        .map(|&id| {
            let r = &raw[id];
            Node {
                coord: coord[id].unwrap_or(Coord::ORIGIN),
                links: r
                    .links
                    .map(|l| l.and_then(|to| index.get(to).copied().flatten())),
                piece: r.piece,
            }
        })
        .collect();
    Ok(Board::from_nodes(nodes))
}
