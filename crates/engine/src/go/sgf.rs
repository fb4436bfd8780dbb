//! SGF FF\[4\] records of Go games: [`to_sgf`] writes a [`Game`], [`from_sgf`] reads one back by replaying
//! every move through the rules, so a file with an illegal move is refused with its number and reason.
//!
//! **Why a hand-written parser.** The issue asked for a maintained crate if one fits. `sgf-parse` 4.2.8
//! (the newest, no dependencies, builds for wasm32) was evaluated and does not fit: it builds each node as
//! the child of the one before, so the main line is a tree as deep as the game is long, and dropping it
//! recurses once per node. A 100 KB file `(;;;;…)` aborts the whole process with a stack overflow, which
//! no cap on the input size below that prevents and `catch_unwind` cannot catch. Its errors also carry no
//! position. What GridArena needs, the main line of one game tree, is a flat loop with no recursion at all.
//!
//! **What is read.** The main line of the first game tree: at each `(` the first variation is followed
//! and the reading stops at the first `)`, so every other variation and game tree is ignored (they are not
//! even lexed). Root properties `GM` (must be 1), `SZ` (square, 2 to 19), then `KM`, setup `AB`/`AW`/`AE`
//! and `PL` in any node before the first move, moves `B`/`W` (`[]` and `[tt]` are passes), and the game
//! information `PB`, `PW`, `DT`, `RE`, `AP`. Every other property is skipped. Old FF\[3\] identifiers
//! with lower-case letters (`AddBlack`) are read by their capitals, as FF\[4\] says.
//!
//! **Hostile input.** Input over [`MAX_SGF_BYTES`] or with more than [`MAX_NODES`] nodes on the main line
//! is refused before any work grows with it; nesting costs one counter, not stack; nothing panics.

use super::{Board, BoardSize, Color, Game, Komi, Move, MoveError, Point, SetupError};
use std::fmt;

/// The largest SGF text read: 1 MiB. A 19x19 game of 400 moves with comments is a few kilobytes.
pub const MAX_SGF_BYTES: usize = 1 << 20;

/// The most nodes read on the main line: far more than any real game (a long 19x19 game has ~400).
pub const MAX_NODES: usize = 10_000;

/// The rules written as `RU`. **Decision:** "Chinese" is the name every SGF reader knows for area
/// scoring; GridArena's exact rules (positional superko, no suicide, no dead-stone removal) are in
/// docs/go.md. A custom string (KataGo's `koPOSITIONALscoreAREAsui0`) would be exact but unknown to most
/// programs. `RU` is ignored on reading: a game is always replayed under GridArena's rules.
pub const RULES: &str = "Chinese";

/// What a record says about a game besides its moves. On writing, `None` leaves a property out, except
/// `application`, which defaults to `GridArena:<version>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// `PB`: Black's name.
    pub black: Option<String>,
    /// `PW`: White's name.
    pub white: Option<String>,
    /// `DT`: the date, e.g. "2026-11-22".
    pub date: Option<String>,
    /// `RE`: on writing, replaces the game's own result (e.g. "B+R" for a player who left); on reading,
    /// the file's text as it was.
    pub result: Option<String>,
    /// `AP`: the program that wrote the file, as "name:version".
    pub application: Option<String>,
}

/// Where in the text something is: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    /// The line and column of byte `offset` of `text`.
    fn of(text: &str, offset: usize) -> Pos {
        let before = text.get(..offset).unwrap_or(text);
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why an SGF text cannot be read as a Go game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// The input is over [`MAX_SGF_BYTES`].
    TooLarge { bytes: usize },
    /// The main line has more than [`MAX_NODES`] nodes; `pos` is the first one too many.
    TooManyNodes { pos: Pos },
    /// There is no `(` anywhere.
    NoGameTree,
    /// A character that cannot start anything here.
    Unexpected { pos: Pos, found: char },
    /// A `(` not followed by a node `;`.
    EmptyTree { pos: Pos },
    /// A property before the first `;` of the tree.
    PropertyOutsideNode { pos: Pos, ident: String },
    /// A property identifier with no capital letter, e.g. `b[aa]`.
    BadIdentifier { pos: Pos, ident: String },
    /// A property with no `[value]`.
    NoValue { pos: Pos, ident: String },
    /// A `[` whose `]` never comes.
    UnclosedValue { pos: Pos },
    /// The text ends before the game tree's `)`.
    Unterminated,
    /// `GM` is not 1 (Go).
    NotGo { pos: Pos, game: String },
    /// `SZ` is not a square board from 2 to 19.
    Size { pos: Pos, value: String },
    /// `KM` is not a multiple of 0.5 within ±1000.
    Komi { pos: Pos, value: String },
    /// `PL` is not B or W.
    Player { pos: Pos, value: String },
    /// A move or setup value that is not a point of the board.
    Point {
        pos: Pos,
        ident: String,
        value: String,
        size: BoardSize,
    },
    /// One node has both a black and a white move.
    BothColors { pos: Pos },
    /// Setup (`AB`, `AW`, `AE`, `PL`) after the first move: a [`Game`] cannot hold it.
    SetupAfterMove { pos: Pos, ident: String },
    /// The setup stones are not a position (e.g. a chain without liberties).
    Setup { pos: Pos, reason: SetupError },
    /// Move `number` (from 1) is illegal under the rules in docs/go.md.
    IllegalMove {
        number: usize,
        pos: Pos,
        color: Color,
        mv: Move,
        reason: MoveError,
    },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::TooLarge { bytes } => write!(
                f,
                "the SGF text is {bytes} bytes: at most {MAX_SGF_BYTES} are read"
            ),
            SgfError::TooManyNodes { pos } => write!(
                f,
                "{pos}: the main line has more than {MAX_NODES} nodes, more than any game"
            ),
            SgfError::NoGameTree => f.write_str("no SGF game tree: the text has no '('"),
            SgfError::Unexpected { pos, found } => write!(
                f,
                "{pos}: unexpected {found:?}: expected '(', ')', ';' or a property such as B[dd]"
            ),
            SgfError::EmptyTree { pos } => {
                write!(f, "{pos}: a game tree must start with a node ';'")
            }
            SgfError::PropertyOutsideNode { pos, ident } => {
                write!(f, "{pos}: property {ident} comes before the first node ';'")
            }
            SgfError::BadIdentifier { pos, ident } => write!(
                f,
                "{pos}: {ident:?} is not a property identifier: it needs capital letters"
            ),
            SgfError::NoValue { pos, ident } => {
                write!(f, "{pos}: property {ident} has no [value]")
            }
            SgfError::UnclosedValue { pos } => {
                write!(f, "{pos}: the value opened here has no closing ']'")
            }
            SgfError::Unterminated => {
                f.write_str("the SGF text ends inside the game tree: a ')' is missing")
            }
            SgfError::NotGo { pos, game } => {
                write!(f, "{pos}: GM[{game}] is not a Go record (GM[1])")
            }
            SgfError::Size { pos, value } => write!(
                f,
                "{pos}: SZ[{value}] is not supported: boards are square, 2x2 to 19x19"
            ),
            SgfError::Komi { pos, value } => write!(
                f,
                "{pos}: KM[{value}] is not a komi: expected a multiple of 0.5 between -1000 and 1000"
            ),
            SgfError::Player { pos, value } => {
                write!(f, "{pos}: PL[{value}] is not a player: expected B or W")
            }
            SgfError::Point {
                pos,
                ident,
                value,
                size,
            } => write!(
                f,
                "{pos}: {ident}[{value}] is not a point of the {size} board"
            ),
            SgfError::BothColors { pos } => {
                write!(f, "{pos}: one node has both a B and a W move")
            }
            SgfError::SetupAfterMove { pos, ident } => write!(
                f,
                "{pos}: setup property {ident} after the first move is not supported"
            ),
            SgfError::Setup { pos, reason } => {
                write!(f, "{pos}: the setup stones are not a position: {reason}")
            }
            SgfError::IllegalMove {
                number,
                pos,
                color,
                mv,
                reason,
            } => write!(
                f,
                "{pos}: move {number} ({} {mv}) is illegal: {reason}",
                color.letter()
            ),
        }
    }
}

impl std::error::Error for SgfError {}

/// Writes `game` as an SGF FF\[4\] record: the root with `info`, the size, komi and rules, the start
/// position when it is not empty, then one node per move (a pass is `[]`). A resignation or a loss on
/// time is not a move in SGF: it is only in `RE`, which [`from_sgf`] turns back into one.
pub fn to_sgf(game: &Game, info: &GameInfo) -> String {
    let size = game.size();
    let mut out = String::from("(;FF[4]GM[1]CA[UTF-8]");
    let version = concat!("GridArena:", env!("CARGO_PKG_VERSION"));
    property(
        &mut out,
        "AP",
        info.application.as_deref().unwrap_or(version),
    );
    out.push_str(&format!("SZ[{}]KM[{}]RU[{RULES}]", size.get(), game.komi()));
    for (ident, value) in [("PB", &info.black), ("PW", &info.white), ("DT", &info.date)] {
        if let Some(v) = value {
            property(&mut out, ident, v);
        }
    }
    let result = info
        .result
        .clone()
        .or_else(|| game.result().map(|r| r.to_string()));
    if let Some(r) = &result {
        property(&mut out, "RE", r);
    }
    let (start, first) = game.start();
    let moves = game.moves();
    for c in Color::ALL {
        let stones: Vec<Point> = size.points().filter(|&p| start.get(p) == Some(c)).collect();
        if !stones.is_empty() {
            out.push_str(if c == Color::Black { "AB" } else { "AW" });
            for p in stones {
                out.push('[');
                out.push_str(&point_to_sgf(p, size));
                out.push(']');
            }
        }
    }
    // PL only when the first move does not already say who starts (an out-of-turn first move, or White
    // to play a position with no moves).
    if first != first_mover(moves).unwrap_or(Color::Black) {
        out.push_str(&format!("PL[{}]", first.letter()));
    }
    out.push('\n');
    let mut written = 0;
    for &(c, mv) in moves {
        let coords = match mv {
            Move::Play(p) => point_to_sgf(p, size),
            Move::Pass => String::new(),
            Move::Resign => continue,
        };
        out.push_str(&format!(";{}[{coords}]", c.letter()));
        written += 1;
        if written % 16 == 0 {
            out.push('\n');
        }
    }
    out.push_str(")\n");
    out
}

/// Appends `ident[value]` with `]` and `\` escaped, as SGF's Text and SimpleText require.
fn property(out: &mut String, ident: &str, value: &str) {
    out.push_str(ident);
    out.push('[');
    for ch in value.chars() {
        if ch == ']' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push(']');
}

/// SGF's two letters: column from the left, then row from the **top**, `a` first.
fn point_to_sgf(p: Point, size: BoardSize) -> String {
    let row_from_top = size.get().saturating_sub(1).saturating_sub(p.y());
    [char::from(b'a' + p.x()), char::from(b'a' + row_from_top)]
        .iter()
        .collect()
}

/// The colour of the first stone or pass (a resignation is not written as a move).
fn first_mover(moves: &[(Color, Move)]) -> Option<Color> {
    moves
        .iter()
        .find(|&&(_, mv)| mv != Move::Resign)
        .map(|&(c, _)| c)
}

/// One property as read: where its identifier starts, the identifier (capitals only) and its values
/// with escapes removed.
struct Prop {
    at: usize,
    ident: String,
    values: Vec<String>,
}

/// One node of the main line: where its `;` is, and its properties.
struct Node {
    at: usize,
    props: Vec<Prop>,
}

/// Reads the first game of an SGF record: see the module documentation for what is read and how.
pub fn from_sgf(text: &str) -> Result<(Game, GameInfo), SgfError> {
    if text.len() > MAX_SGF_BYTES {
        return Err(SgfError::TooLarge { bytes: text.len() });
    }
    let nodes = main_line(text)?;
    build(text, &nodes)
}

/// [`from_sgf`] for bytes of any encoding. UTF-8 is read as it is; anything else is decoded as ISO-8859-1
/// when `CA` says so, and otherwise with U+FFFD for each invalid sequence. The structure of SGF is ASCII,
/// so only names and comments can suffer (a legacy double-byte encoding whose second byte is `]` or `\`
/// may still misplace a value's end; the file is then refused, never misread silently as a different game).
pub fn from_sgf_bytes(bytes: &[u8]) -> Result<(Game, GameInfo), SgfError> {
    if bytes.len() > MAX_SGF_BYTES {
        return Err(SgfError::TooLarge { bytes: bytes.len() });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => from_sgf(text),
        Err(_) if declares_latin1(bytes) => {
            from_sgf(&bytes.iter().map(|&b| char::from(b)).collect::<String>())
        }
        Err(_) => from_sgf(&String::from_utf8_lossy(bytes)),
    }
}

/// Whether the bytes hold `CA[ISO-8859-1]` or `CA[Latin1]` (any case).
fn declares_latin1(bytes: &[u8]) -> bool {
    let lower = bytes.to_ascii_lowercase();
    [
        &b"ca[iso-8859-1]"[..],
        b"ca[latin1]",
        b"ca[latin-1]",
        b"ca[iso8859-1]",
    ]
    .iter()
    .any(|needle| lower.windows(needle.len()).any(|w| w == *needle))
}

/// Lexes the main line of the first game tree into nodes, without recursion: a `(` inside the tree
/// enters its first variation, and the first `)` ends the main line.
fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let b = text.as_bytes();
    let err_pos = |i: usize| Pos::of(text, i);
    let Some(start) = b.iter().position(|&c| c == b'(') else {
        return Err(SgfError::NoGameTree);
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut i = start;
    // Whether the last token was '(' (a node must follow).
    let mut after_open = false;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let Some(&c) = b.get(i) else {
            return Err(SgfError::Unterminated);
        };
        match c {
            b'(' => {
                if after_open && i != start {
                    return Err(SgfError::EmptyTree { pos: err_pos(i) });
                }
                after_open = true;
                i += 1;
            }
            b')' => {
                if after_open {
                    return Err(SgfError::EmptyTree { pos: err_pos(i) });
                }
                return Ok(nodes);
            }
            b';' => {
                if nodes.len() >= MAX_NODES {
                    return Err(SgfError::TooManyNodes { pos: err_pos(i) });
                }
                nodes.push(Node {
                    at: i,
                    props: Vec::new(),
                });
                after_open = false;
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let at = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let raw = text.get(at..i).unwrap_or_default();
                let ident: String = raw.chars().filter(char::is_ascii_uppercase).collect();
                if ident.is_empty() {
                    return Err(SgfError::BadIdentifier {
                        pos: err_pos(at),
                        ident: raw.to_string(),
                    });
                }
                let mut values = Vec::new();
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if b.get(i) != Some(&b'[') {
                        break;
                    }
                    let open = i;
                    i += 1;
                    while i < b.len() && b[i] != b']' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    if i >= b.len() {
                        return Err(SgfError::UnclosedValue { pos: err_pos(open) });
                    }
                    values.push(unescape(text.get(open + 1..i).unwrap_or_default()));
                    i += 1;
                }
                if values.is_empty() {
                    return Err(SgfError::NoValue {
                        pos: err_pos(at),
                        ident,
                    });
                }
                let Some(node) = nodes.last_mut().filter(|_| !after_open) else {
                    return Err(SgfError::PropertyOutsideNode {
                        pos: err_pos(at),
                        ident,
                    });
                };
                node.props.push(Prop { at, ident, values });
            }
            _ => {
                let found = text.get(i..).and_then(|s| s.chars().next()).unwrap_or('?');
                return Err(SgfError::Unexpected {
                    pos: err_pos(i),
                    found,
                });
            }
        }
    }
}

/// Removes SGF escapes: `\` + a line break is a soft break (nothing), `\` + any other character is
/// that character.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') => {
                chars.next_if_eq(&'\r');
            }
            Some('\r') => {
                chars.next_if_eq(&'\n');
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// SimpleText: line breaks and tabs become spaces.
fn simple_text(value: &str) -> String {
    value.replace("\r\n", " ").replace(['\n', '\r', '\t'], " ")
}

/// Builds the game from the main line's nodes: root information, setup, then every move replayed.
fn build(text: &str, nodes: &[Node]) -> Result<(Game, GameInfo), SgfError> {
    let pos = |i: usize| Pos::of(text, i);
    let first = |p: &Prop| p.values.first().cloned().unwrap_or_default();
    let mut size = BoardSize::NINETEEN;
    if let Some(root) = nodes.first() {
        for p in &root.props {
            let v = first(p);
            match p.ident.as_str() {
                "GM" if v.trim() != "1" => {
                    return Err(SgfError::NotGo {
                        pos: pos(p.at),
                        game: v,
                    });
                }
                "SZ" => {
                    size = v
                        .trim()
                        .parse::<u32>()
                        .ok()
                        .and_then(|n| BoardSize::new(n).ok())
                        .ok_or(SgfError::Size {
                            pos: pos(p.at),
                            value: v,
                        })?;
                }
                _ => {}
            }
        }
    }
    // Game information, the first of each anywhere on the main line.
    let mut info = GameInfo::default();
    let mut komi = Komi::ZERO;
    let mut komi_seen = false;
    for p in nodes.iter().flat_map(|n| &n.props) {
        let v = first(p);
        let slot = match p.ident.as_str() {
            "PB" => &mut info.black,
            "PW" => &mut info.white,
            "DT" => &mut info.date,
            "RE" => &mut info.result,
            "AP" => &mut info.application,
            "KM" if !komi_seen => {
                komi_seen = true;
                if !v.trim().is_empty() {
                    komi = v.parse().map_err(|_| SgfError::Komi {
                        pos: pos(p.at),
                        value: v,
                    })?;
                }
                continue;
            }
            _ => continue,
        };
        if slot.is_none() {
            *slot = Some(simple_text(&v));
        }
    }

    let n = usize::from(size.get());
    let mut setup: Vec<Option<Color>> = vec![None; n * n];
    let mut to_play: Option<Color> = None;
    let mut game: Option<Game> = None;
    let mut number = 0;
    for node in nodes {
        let mut mv: Option<(Color, &Prop)> = None;
        for p in &node.props {
            let ident = p.ident.as_str();
            match ident {
                "AB" | "AW" | "AE" | "PL" if game.is_some() => {
                    return Err(SgfError::SetupAfterMove {
                        pos: pos(p.at),
                        ident: p.ident.clone(),
                    });
                }
                "AB" | "AW" | "AE" => {
                    let colour = match ident {
                        "AB" => Some(Color::Black),
                        "AW" => Some(Color::White),
                        _ => None,
                    };
                    for v in &p.values {
                        for pt in point_list(v, size).ok_or_else(|| SgfError::Point {
                            pos: pos(p.at),
                            ident: p.ident.clone(),
                            value: v.clone(),
                            size,
                        })? {
                            let index = usize::from(pt.y()) * n + usize::from(pt.x());
                            if let Some(cell) = setup.get_mut(index) {
                                *cell = colour;
                            }
                        }
                    }
                }
                "PL" => {
                    let v = first(p);
                    to_play = Some(match v.trim().to_ascii_uppercase().as_str() {
                        "B" | "1" => Color::Black,
                        "W" | "2" => Color::White,
                        _ => {
                            return Err(SgfError::Player {
                                pos: pos(p.at),
                                value: v,
                            })
                        }
                    });
                }
                "B" | "W" => {
                    if mv.is_some() {
                        return Err(SgfError::BothColors { pos: pos(node.at) });
                    }
                    let c = if ident == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    mv = Some((c, p));
                }
                _ => {}
            }
        }
        let Some((color, p)) = mv else { continue };
        let v = first(p);
        let m = move_from_sgf(&v, size).ok_or_else(|| SgfError::Point {
            pos: pos(p.at),
            ident: p.ident.clone(),
            value: v.clone(),
            size,
        })?;
        let g = match &mut game {
            Some(g) => g,
            None => game.insert(start_game(
                size,
                &setup,
                to_play.unwrap_or(color),
                komi,
                pos(node.at),
            )?),
        };
        number += 1;
        g.play_as(color, m)
            .map_err(|reason| SgfError::IllegalMove {
                number,
                pos: pos(p.at),
                color,
                mv: m,
                reason,
            })?;
    }
    let mut game = match game {
        Some(g) => g,
        None => {
            let at = nodes.first().map_or(0, |n| n.at);
            start_game(size, &setup, to_play.unwrap_or(Color::Black), komi, pos(at))?
        }
    };
    apply_result(&mut game, info.result.as_deref());
    Ok((game, info))
}

/// The game before the first move: the setup stones, `first` to play.
fn start_game(
    size: BoardSize,
    setup: &[Option<Color>],
    first: Color,
    komi: Komi,
    at: Pos,
) -> Result<Game, SgfError> {
    let stones: Vec<(Point, Color)> = size
        .points()
        .filter_map(|p| {
            let index = usize::from(p.y()) * usize::from(size.get()) + usize::from(p.x());
            setup.get(index).copied().flatten().map(|c| (p, c))
        })
        .collect();
    let board =
        Board::from_stones(size, &stones).map_err(|reason| SgfError::Setup { pos: at, reason })?;
    Ok(Game::from_position(board, first, komi))
}

/// A resignation or a loss on time in `RE` ends a game the moves left running, as [`to_sgf`] writes
/// them; a counted result is the engine's own and is not taken from the file.
fn apply_result(game: &mut Game, re: Option<&str>) {
    if game.is_over() {
        return;
    }
    let Some(re) = re else { return };
    let re = re.trim().to_ascii_uppercase();
    let (winner, how) = match re.split_once('+') {
        Some(("B", how)) => (Color::Black, how),
        Some(("W", how)) => (Color::White, how),
        _ => return,
    };
    let _ = match how {
        "R" | "RESIGN" => game.play_as(winner.other(), Move::Resign),
        "T" | "TIME" => game.time_out(winner.other()),
        _ => Ok(()),
    };
}

/// A move value: `[]` or `[tt]` is a pass (boards up to 19x19), else a point of the board.
fn move_from_sgf(value: &str, size: BoardSize) -> Option<Move> {
    let v = value.trim();
    if v.is_empty() || v == "tt" {
        return Some(Move::Pass);
    }
    point_from_sgf(v, size).map(Move::Play)
}

/// Two lower-case letters, column then row from the top, on this board.
fn point_from_sgf(value: &str, size: BoardSize) -> Option<Point> {
    let &[col, row] = value.trim().as_bytes() else {
        return None;
    };
    let n = size.get();
    let x = col.checked_sub(b'a').filter(|&x| x < n)?;
    let row = row.checked_sub(b'a').filter(|&r| r < n)?;
    Point::new(x, n - 1 - row)
}

/// A point or a compressed rectangle `aa:cc` (FF\[4\] point lists), every point on the board.
fn point_list(value: &str, size: BoardSize) -> Option<Vec<Point>> {
    match value.split_once(':') {
        None => point_from_sgf(value, size).map(|p| vec![p]),
        Some((a, b)) => {
            let (a, b) = (point_from_sgf(a, size)?, point_from_sgf(b, size)?);
            let (x0, x1) = (a.x().min(b.x()), a.x().max(b.x()));
            let (y0, y1) = (a.y().min(b.y()), a.y().max(b.y()));
            Some(
                (y0..=y1)
                    .flat_map(|y| (x0..=x1).filter_map(move |x| Point::new(x, y)))
                    .collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_column_then_row_from_the_top() {
        let nine = BoardSize::NINE;
        let a9 = Point::from_gtp("A9", nine).unwrap();
        assert_eq!(point_to_sgf(a9, nine), "aa");
        assert_eq!(point_from_sgf("aa", nine), Some(a9));
        let j1 = Point::from_gtp("J1", nine).unwrap();
        assert_eq!(point_to_sgf(j1, nine), "ii");
        assert_eq!(point_from_sgf("ii", nine), Some(j1));
        assert_eq!(point_from_sgf("ij", nine), None);
        assert_eq!(point_from_sgf("AA", nine), None);
        assert_eq!(move_from_sgf("tt", nine), Some(Move::Pass));
        assert_eq!(point_list("aa:bb", nine).map(|v| v.len()), Some(4));
    }

    #[test]
    fn escapes_round_trip() {
        let mut out = String::new();
        property(&mut out, "PB", r"a]b\c");
        assert_eq!(out, r"PB[a\]b\\c]");
        assert_eq!(unescape(r"a\]b\\c"), r"a]b\c");
        assert_eq!(unescape("a\\\nb"), "ab");
        assert_eq!(Pos::of("ab\ncd", 4), Pos { line: 2, column: 2 });
    }
}
