//! The file format of seed 003's course (USC CSCI 561, homework 2): the referee writes `input.txt`,
//! the agent writes `output.txt`.
//!
//! `input.txt`: `GAME` (or `SINGLE` for a one-move check), `BLACK` or `WHITE`, the play time left in
//! seconds, then 16 rows of 16 characters (`B`, `W`, `.`), row 0 first. Black is the side whose camp is
//! the top-left corner: red in GridArena's classic preset; White is blue.
//!
//! `output.txt`: one line `E x1,y1 x2,y2` (a step), or one or more lines `J x1,y1 x2,y2`, one per jump,
//! each starting where the previous ended. x is the column and y the row, as in GridArena. Line ends
//! (LF or CRLF) and trailing spaces are accepted; anything else is named, quoting the line.

use super::{Game, Mode, Path, Point, Preset, Team, MAX_RESPONSE_BYTES};
use std::fmt;

/// The only board the format can describe.
pub const COURSE_BOARD_SIZE: u8 = 16;

/// The course's name for a team: Black (top-left camp) is red, White is blue.
pub fn color(team: Team) -> &'static str {
    match team {
        Team::Red => "BLACK",
        Team::Blue => "WHITE",
    }
}

/// Why a game cannot be written as `input.txt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub why: String,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the course format (input.txt/output.txt) describes only the classic 16x16 two-player game \
             with alternating turns: {}",
            self.why
        )
    }
}

impl std::error::Error for Unsupported {}

/// Checks that `game` is one the format can describe: 16x16, alternating, and each team's destination
/// the classic camp of the other (so BLACK and WHITE mean what the agents expect).
pub fn check_game(game: &Game) -> Result<(), Unsupported> {
    let unsupported = |why: String| Err(Unsupported { why });
    let position = game.position();
    if position.size() != COURSE_BOARD_SIZE {
        let n = position.size();
        return unsupported(format!("this board is {n}x{n}"));
    }
    if game.mode() != Mode::Alternating {
        return unsupported("this game is simultaneous (the arena)".to_string());
    }
    let classic = Preset::Classic.rules();
    for team in Team::ALL {
        let mut mine = position.destinations(team).to_vec();
        let mut theirs = classic.destinations[team].clone();
        mine.sort();
        theirs.sort();
        if mine != theirs {
            return unsupported(format!(
                "{team}'s destination is not the classic corner camp"
            ));
        }
    }
    Ok(())
}

/// Whether the next `input.txt` is the game's first for this agent (its time is then written as an
/// integer, as the course's referee did) or a one-move check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// The agent's first move of a game.
    FirstMove,
    /// Any later move.
    LaterMove,
    /// A single move asked outside a game (the roll call): `SINGLE`.
    Single,
}

/// The text of `input.txt` for `team` to move in `game`, with `seconds_left` on its clock.
pub fn input_txt(
    game: &Game,
    team: Team,
    seconds_left: f64,
    occasion: Occasion,
) -> Result<String, Unsupported> {
    check_game(game)?;
    let position = game.position();
    let size = usize::from(COURSE_BOARD_SIZE);
    let mut rows = vec![vec![b'.'; size]; size];
    for t in Team::ALL {
        let mark = match t {
            Team::Red => b'B',
            Team::Blue => b'W',
        };
        for p in position.pieces(t) {
            rows[usize::from(p.square.y())][usize::from(p.square.x())] = mark;
        }
    }
    // In whole hundredths, written with integers: the page asks course-format code players too, and
    // formatting a float would add kilobytes to its download. (A tie, x.xx5 exactly, rounds up.)
    let seconds = seconds_left.max(0.0);
    let hundredths = (seconds * 100.0).round() as u64;
    let time = match occasion {
        Occasion::FirstMove | Occasion::Single => format!("{}", seconds.floor() as u64),
        Occasion::LaterMove => format!("{}.{:02}", hundredths / 100, hundredths % 100),
    };
    let mut text = String::with_capacity(size * (size + 1) + 32);
    text.push_str(if occasion == Occasion::Single {
        "SINGLE\n"
    } else {
        "GAME\n"
    });
    text.push_str(color(team));
    text.push('\n');
    text.push_str(&time);
    text.push('\n');
    for row in rows {
        // Every byte is ASCII.
        text.push_str(&String::from_utf8_lossy(&row));
        text.push('\n');
    }
    Ok(text)
}

/// Why `output.txt` is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputError {
    /// The file holds nothing but white space.
    Empty,
    /// More than [`MAX_RESPONSE_BYTES`].
    TooLarge { bytes: usize },
    /// Not UTF-8 text.
    NotText,
    /// Line `line` (from 1), quoted, and what is wrong with it.
    Line {
        line: usize,
        text: String,
        why: String,
    },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Empty => f.write_str(
                "output.txt is empty: write one line \"E x1,y1 x2,y2\" or lines \"J x1,y1 x2,y2\"",
            ),
            OutputError::TooLarge { bytes } => write!(
                f,
                "output.txt is {bytes} bytes; at most {MAX_RESPONSE_BYTES} are read"
            ),
            OutputError::NotText => f.write_str("output.txt is not text (it is not valid UTF-8)"),
            OutputError::Line { line, text, why } => {
                write!(f, "output.txt line {line} {text:?}: {why}")
            }
        }
    }
}

impl std::error::Error for OutputError {}

/// The longest part of a line a message quotes.
const QUOTE_CHARS: usize = 60;

/// One line read: a step or a jump between two points.
struct Hop {
    jump: bool,
    from: Point,
    to: Point,
}

/// Reads `output.txt` as a move. Only the format is checked here; whether the move is legal is the
/// referee's ([`super::Position::check`]), so an off-board square is reported as a move error naming it.
pub fn parse_output(bytes: &[u8]) -> Result<Path, OutputError> {
    if bytes.len() > MAX_RESPONSE_BYTES {
        return Err(OutputError::TooLarge { bytes: bytes.len() });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| OutputError::NotText)?;
    // Trailing blank lines (a final newline, an editor's extra one) are not lines of the move.
    let lines: Vec<&str> = text.trim_end().lines().map(str::trim_end).collect();
    if lines.iter().all(|l| l.is_empty()) {
        return Err(OutputError::Empty);
    }
    let mut hops: Vec<Hop> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let bad = |why: String| OutputError::Line {
            line: i + 1,
            text: line.chars().take(QUOTE_CHARS).collect(),
            why,
        };
        let hop = parse_line(line).map_err(bad)?;
        if let Some(prev) = hops.last() {
            if !hop.jump || !prev.jump {
                return Err(bad(
                    "a step (E) is a whole move on one line; only jumps (J) may follow one another"
                        .to_string(),
                ));
            }
            if hop.from != prev.to {
                return Err(bad(format!(
                    "this jump starts at {},{} but the previous one ended at {},{}",
                    hop.from.x, hop.from.y, prev.to.x, prev.to.y
                )));
            }
        }
        hops.push(hop);
    }
    let from = hops[0].from;
    Ok(Path {
        from,
        to: hops.into_iter().map(|h| h.to).collect(),
    })
}

/// One line: `E x1,y1 x2,y2` or `J x1,y1 x2,y2`, single spaces, no leading space.
fn parse_line(line: &str) -> Result<Hop, String> {
    const FORM: &str = "expected \"E x1,y1 x2,y2\" (a step) or \"J x1,y1 x2,y2\" (a jump)";
    if line.is_empty() {
        return Err(format!("the line is empty; {FORM}"));
    }
    let parts: Vec<&str> = line.split(' ').collect();
    let [kind, from, to] = parts[..] else {
        return Err(format!("{FORM}, three parts separated by single spaces"));
    };
    let jump = match kind {
        "E" => false,
        "J" => true,
        other => return Err(format!("{other:?} is not a move kind: {FORM} (upper case)")),
    };
    let (from, to) = (point(from)?, point(to)?);
    let (dx, dy) = ((to.x - from.x).abs(), (to.y - from.y).abs());
    if !jump && dx.max(dy) != 1 {
        return Err(format!(
            "an E move steps to a neighbouring square, but {},{} to {},{} is not one step (write jumps as J lines)",
            from.x, from.y, to.x, to.y
        ));
    }
    if jump && dx.max(dy) == 1 {
        return Err(format!(
            "a J move jumps two squares, but {},{} to {},{} is one step (write a step as an E line)",
            from.x, from.y, to.x, to.y
        ));
    }
    Ok(Hop { jump, from, to })
}

/// `x,y` with non-negative decimal integers.
fn point(text: &str) -> Result<Point, String> {
    let coordinate = |part: &str| -> Result<i64, String> {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "{text:?} is not a square: expected x,y with whole numbers from 0, such as 3,4"
            ));
        }
        part.parse::<i64>()
            .map_err(|_| format!("{text:?}: the number is too large to be a square"))
    };
    let (x, y) = text.split_once(',').ok_or_else(|| {
        format!("{text:?} is not a square: expected x,y (column,row), such as 3,4")
    })?;
    Ok(Point {
        x: coordinate(x)?,
        y: coordinate(y)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::{Rules, Square};

    fn classic(first: u64) -> Game {
        Game::new(&Preset::Classic.rules(), first).expect("classic")
    }

    #[test]
    fn the_start_is_written_as_the_course_wrote_it() {
        let text = input_txt(&classic(1), Team::Red, 300.0, Occasion::FirstMove).expect("16x16");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(&lines[..3], ["GAME", "BLACK", "300"]);
        assert_eq!(lines.len(), 19);
        assert_eq!(lines[3], "BBBBB...........");
        assert_eq!(lines[7], "BB..............");
        assert_eq!(lines[18], "...........WWWWW");
        assert!(lines[3..].iter().all(|l| l.len() == 16));
        let later = input_txt(&classic(1), Team::Blue, 287.346, Occasion::LaterMove).unwrap();
        assert!(later.starts_with("GAME\nWHITE\n287.35\n"), "{later}");
        let single = input_txt(&classic(1), Team::Blue, 12.9, Occasion::Single).unwrap();
        let almost = input_txt(&classic(1), Team::Red, 299.999, Occasion::FirstMove).unwrap();
        assert!(almost.starts_with("GAME\nBLACK\n299\n"), "{almost}");
        let tiny = input_txt(&classic(1), Team::Red, 0.004, Occasion::LaterMove).unwrap();
        assert!(tiny.starts_with("GAME\nBLACK\n0.00\n"), "{tiny}");
        assert!(single.starts_with("SINGLE\nWHITE\n12\n"), "{single}");
    }

    #[test]
    fn only_the_classic_game_can_be_written() {
        for preset in [Preset::Arena, Preset::Mini] {
            let game = Game::new(&preset.rules(), 1).unwrap();
            let e = input_txt(&game, Team::Red, 300.0, Occasion::FirstMove).unwrap_err();
            assert!(e.to_string().contains("course format"), "{e}");
        }
        let mut rules: Rules = Preset::Classic.rules();
        rules.destinations.red.pop();
        let game = Game::new(&rules, 1).unwrap();
        assert!(check_game(&game).is_err());
    }

    fn path(from: (i64, i64), to: &[(i64, i64)]) -> Path {
        Path {
            from: Point {
                x: from.0,
                y: from.1,
            },
            to: to.iter().map(|&(x, y)| Point { x, y }).collect(),
        }
    }

    #[test]
    fn steps_and_jump_chains_are_read() {
        let cases: &[(&str, Path)] = &[
            ("E 4,1 5,2\n", path((4, 1), &[(5, 2)])),
            ("E 4,1 5,2", path((4, 1), &[(5, 2)])),
            ("E 4,1 5,2  \r\n\r\n", path((4, 1), &[(5, 2)])),
            (
                "J 0,0 2,2\r\nJ 2,2 4,2\nJ 4,2 4,4 \n",
                path((0, 0), &[(2, 2), (4, 2), (4, 4)]),
            ),
            ("J 15,15 13,13\n", path((15, 15), &[(13, 13)])),
        ];
        for (text, want) in cases {
            assert_eq!(parse_output(text.as_bytes()).as_ref(), Ok(want), "{text:?}");
        }
        // Off the board is the referee's to name, with the square.
        let far = parse_output(b"E 16,15 17,16").expect("well formed");
        let game = classic(1);
        assert!(game
            .position()
            .check(Team::Red, &far)
            .unwrap_err()
            .to_string()
            .contains("off the 16x16 board"));
        assert!(Square::new(15, 15).is_some());
    }

    #[test]
    fn every_malformation_is_named_with_its_line() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "empty"),
            (b" \n\n", "empty"),
            (&[0xff, 0xfe], "not text"),
            (b"e 4,1 5,2", "not a move kind"),
            (b"M 4,1 5,2", "not a move kind"),
            (b" E 4,1 5,2", "line 1"),
            (b"E 4,1  5,2", "single spaces"),
            (b"E 4,1 5,2 6,3", "three parts"),
            (b"E 4;1 5,2", "is not a square"),
            (b"E -1,0 0,0", "whole numbers"),
            (b"E 4,1 6,3", "not one step"),
            (b"J 4,1 5,2", "is one step"),
            (b"E 4,1 5,2\nE 5,2 6,3", "line 2"),
            (b"J 0,0 2,2\nE 2,2 3,3", "only jumps"),
            (b"J 0,0 2,2\nJ 3,3 5,5", "previous one ended at 2,2"),
            (b"J 0,0 2,2\n\nJ 2,2 4,4", "line 2 \"\""),
            (b"E 99999999999999999999,0 1,1", "too large"),
        ];
        for (text, says) in cases {
            let e = parse_output(text).expect_err(&String::from_utf8_lossy(text));
            assert!(
                e.to_string().contains(says),
                "{:?}: {e}",
                String::from_utf8_lossy(text)
            );
        }
        let huge = vec![b'E'; MAX_RESPONSE_BYTES + 1];
        assert!(matches!(
            parse_output(&huge),
            Err(OutputError::TooLarge { .. })
        ));
    }
}
