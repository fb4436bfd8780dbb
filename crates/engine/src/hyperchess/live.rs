//! The live view: what a viewer is told each time a game's `currentstate` file changes, and the
//! [`Follower`] that turns the file's successive contents into those messages. The seed's visualizer
//! "will always look for the file currentstate and use that to generate the view"; a currentstate holds
//! only the board, so the follower works out the rest:
//!
//! - **From a save beside it.** When the directory's `savedgame` holds the same board (the terminal game
//!   writes both after every move), its turn, captured pieces and result are exact.
//! - **From the change.** Otherwise, when the new board is the old one with one piece moved (and perhaps
//!   one of the other side's taken), that is the last move, and the other side is to move; the pieces
//!   taken are counted from the first board the follower saw. Any other change (a new game) starts the
//!   count again, with the turn unknown.
//!
//! A file that cannot be read or parsed does not replace the board: the update keeps the last good state
//! and says what is wrong with the file as it stands.
//!
//! The messages are JSON, written by the server (`gridarena hyperchess --view`, `gridarena hyperchess
//! view`) and read by the page, defined once here.

use super::coord::Coord;
use super::game::Game;
use super::outcome::Outcome;
use super::piece::{Kind, Piece, Side};
use super::save::{parse_state_bytes, StateLine};
use serde::{Deserialize, Serialize};

/// The seed's file names, in the game's directory: the board before each turn, and the saved game the
/// terminal game writes after every move (read beside the board for its turn and captures).
pub const STATE_FILE: &str = "currentstate";
pub const SAVE_FILE: &str = "savedgame";

/// Where the page listens for updates (Server-Sent Events, one `state` event per update).
pub const LIVE_PATH: &str = "/api/hyperchess/live";

/// One state of the live view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveUpdate {
    /// Counts the good states read, from 1; 0 until the first.
    pub seq: u64,
    /// The last good currentstate as read (what to draw); empty until the first.
    pub state: String,
    /// `"White"` or `"Black"`, when known.
    #[serde(default)]
    pub to_move: Option<String>,
    /// The move that led to this state, when it is known.
    #[serde(default)]
    pub last_move: Option<LiveMove>,
    /// The pieces taken so far, by name (`BPawn`), in the order taken when known.
    #[serde(default)]
    pub captured: Vec<String>,
    /// The result, once a King is gone or the save says the game is over.
    #[serde(default)]
    pub result: Option<String>,
    /// Why the currentstate as it stands now cannot be shown; the state above is the last good one.
    #[serde(default)]
    pub error: Option<String>,
}

/// A move between two states: the piece, from where to where, and what it took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveMove {
    pub from: [i32; 3],
    pub to: [i32; 3],
    pub piece: String,
    #[serde(default)]
    pub captured: Option<String>,
}

impl LiveUpdate {
    /// The JSON text of the update.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"seq":0,"state":""}"#.to_string())
    }

    /// Reads an update.
    pub fn parse(text: &str) -> Result<LiveUpdate, serde_json::Error> {
        serde_json::from_str(text)
    }
}

impl LiveMove {
    /// The move's two locations.
    pub fn coords(&self) -> (Coord, Coord) {
        let c = |[x, y, z]: [i32; 3]| Coord::new(x, y, z);
        (c(self.from), c(self.to))
    }
}

/// What the files held at one reading: the currentstate's bytes (or why they could not be read), and
/// the savedgame's bytes, if any.
type Reading = (Result<Vec<u8>, String>, Option<Vec<u8>>);

/// Follows one game's currentstate: feed it what the files hold each time they are read.
#[derive(Clone, Debug, Default)]
pub struct Follower {
    /// The bytes last fed (currentstate, then savedgame), to tell a change from a re-read.
    seen: Option<Reading>,
    /// The last good board.
    lines: Option<Vec<StateLine>>,
    /// Pieces taken since the follower's count began (used when no save says better).
    taken: Vec<Piece>,
    update: LiveUpdate,
}

impl Follower {
    pub fn new() -> Follower {
        Follower::default()
    }

    /// The update as it stands.
    pub fn update(&self) -> &LiveUpdate {
        &self.update
    }

    /// Takes in what the files hold now: the currentstate's bytes (or why it could not be read) and
    /// the savedgame's bytes, if there is one. Returns the new update when it differs from the last.
    pub fn see(
        &mut self,
        state: Result<&[u8], String>,
        save: Option<&[u8]>,
    ) -> Option<&LiveUpdate> {
        let now: Reading = (state.map(<[u8]>::to_vec), save.map(<[u8]>::to_vec));
        if self.seen.as_ref() == Some(&now) {
            return None;
        }
        let before = self.update.clone();
        match &now.0 {
            Err(why) => self.update.error = Some(why.clone()),
            Ok(bytes) => match parse_state_bytes(bytes) {
                Err(e) => self.update.error = Some(format!("currentstate {e}")),
                Ok(lines) => self.show(bytes, lines, now.1.as_deref()),
            },
        }
        self.seen = Some(now);
        (self.update != before).then_some(&self.update)
    }

    /// A good board: it becomes the state, with whatever the save or the change says about it.
    fn show(&mut self, bytes: &[u8], lines: Vec<StateLine>, save: Option<&[u8]>) {
        let same = self.lines.as_ref() == Some(&lines);
        let moved = self.lines.as_ref().and_then(|old| one_move(old, &lines));
        if !same {
            match &moved {
                Some(m) => self.taken.extend(m.captured),
                None => self.taken.clear(),
            }
            self.update.last_move = moved.map(|m| LiveMove {
                from: xyz(m.from),
                to: xyz(m.to),
                piece: m.piece.to_string(),
                captured: m.captured.map(|p| p.to_string()),
            });
            self.update.to_move = moved.map(|m| m.piece.side.other().to_string());
        }
        let game = save
            .and_then(|s| Game::load_bytes(s).ok())
            .filter(|g| g.board().state_lines() == lines);
        let taken = game.as_ref().map_or(&self.taken[..], |g| g.captured());
        self.update.captured = taken.iter().map(Piece::to_string).collect();
        self.update.result = result(game.as_ref(), &lines);
        if let Some(g) = &game {
            self.update.to_move = Some(g.to_move().to_string());
        }
        if !same {
            self.update.seq += 1;
            self.update.state = String::from_utf8_lossy(bytes).into_owned();
        }
        self.update.error = None;
        self.lines = Some(lines);
    }
}

/// A move found between two boards.
#[derive(Clone, Copy)]
struct Moved {
    from: Coord,
    to: Coord,
    piece: Piece,
    captured: Option<Piece>,
}

/// The move that turns `old` into `new`, if one piece moved (onto an empty node or one of the other
/// side's pieces) and nothing else changed.
fn one_move(old: &[StateLine], new: &[StateLine]) -> Option<Moved> {
    if old.len() != new.len() {
        return None;
    }
    let before: std::collections::HashMap<Coord, Option<Piece>> =
        old.iter().map(|l| (l.at, l.piece)).collect();
    let mut changed = Vec::new();
    for l in new {
        let was = *before.get(&l.at)?;
        if was != l.piece {
            changed.push((l.at, was, l.piece));
            if changed.len() > 2 {
                return None;
            }
        }
    }
    let [a, b] = changed[..] else {
        return None;
    };
    let (emptied, filled) = match (a.2, b.2) {
        (None, Some(_)) => (a, b),
        (Some(_), None) => (b, a),
        _ => return None,
    };
    let piece = emptied.1?;
    let taken = filled.1;
    (filled.2 == Some(piece) && taken.is_none_or(|t| t.side != piece.side)).then_some(Moved {
        from: emptied.0,
        to: filled.0,
        piece,
        captured: taken,
    })
}

fn xyz(c: Coord) -> [i32; 3] {
    [c.x, c.y, c.z]
}

/// The result as the save says, or as the board shows it: a side without a King has lost.
fn result(game: Option<&Game>, lines: &[StateLine]) -> Option<String> {
    if let Some(o) = game.and_then(Game::outcome) {
        return Some(match o {
            Outcome::KingTaken { winner } => format!("{winner} took the King and wins"),
            Outcome::NoMoves { side } => format!("{side} cannot move: a draw"),
        });
    }
    let has_king = |side: Side| {
        lines
            .iter()
            .any(|l| l.piece == Some(Piece::new(side, Kind::King)))
    };
    match (has_king(Side::White), has_king(Side::Black)) {
        (true, false) => Some("White took the King and wins".into()),
        (false, true) => Some("Black took the King and wins".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hyperchess::{maps, parse_map};

    fn small() -> Game {
        Game::new(parse_map(maps::SMALL).unwrap()).unwrap()
    }

    fn state(game: &Game) -> Vec<u8> {
        game.board().to_string().into_bytes()
    }

    /// The first legal move that takes something, else the first legal move.
    fn some_move(game: &Game) -> (Coord, Coord) {
        let moves = game.legal_moves();
        moves
            .iter()
            .copied()
            .find(|&(_, to)| game.board().piece_at(to).is_some())
            .unwrap_or(moves[0])
    }

    #[test]
    fn a_move_is_read_from_the_change_when_there_is_no_save() {
        let mut game = small();
        let mut f = Follower::new();
        let first = f.see(Ok(&state(&game)), None).unwrap().clone();
        assert_eq!((first.seq, first.to_move.clone()), (1, None));
        assert!(first.last_move.is_none() && first.error.is_none());
        assert!(f.see(Ok(&state(&game)), None).is_none(), "nothing changed");
        let (from, to) = some_move(&game);
        let played = game.play(from, to).unwrap();
        let u = f.see(Ok(&state(&game)), None).unwrap();
        assert_eq!(u.seq, 2);
        assert_eq!(u.to_move.as_deref(), Some("Black"));
        let m = u.last_move.as_ref().unwrap();
        assert_eq!(m.coords(), (from, to));
        assert_eq!(m.piece, played.piece.to_string());
        assert_eq!(m.captured, played.captured.map(|p| p.to_string()));
        assert_eq!(u.state, game.board().to_string());
    }

    #[test]
    fn a_save_beside_the_board_gives_the_turn_and_the_captures() {
        let mut game = small();
        let mut f = Follower::new();
        // Play until something is taken.
        while game.captured().is_empty() && game.outcome().is_none() {
            let (from, to) = some_move(&game);
            game.play(from, to).unwrap();
        }
        let u = f
            .see(Ok(&state(&game)), Some(game.save().as_bytes()))
            .unwrap();
        assert_eq!(u.to_move, Some(game.to_move().to_string()));
        let taken: Vec<String> = game.captured().iter().map(Piece::to_string).collect();
        assert_eq!(u.captured, taken);
        // A save of another board is ignored: the turn is not guessed from it.
        let mut g = Follower::new();
        let u = g
            .see(Ok(&state(&game)), Some(small().save().as_bytes()))
            .unwrap();
        assert_eq!((u.to_move.clone(), u.captured.len()), (None, 0));
    }

    #[test]
    fn a_broken_file_keeps_the_last_good_board_and_says_why() {
        let game = small();
        let mut f = Follower::new();
        f.see(Ok(&state(&game)), None);
        let u = f.see(Ok(b"0 0 0 WPawn\n0 0 0 null\n"), None).unwrap();
        assert_eq!(u.seq, 1);
        assert_eq!(u.state, game.board().to_string());
        let why = u.error.clone().unwrap();
        assert!(why.starts_with("currentstate line 2"), "{why}");
        let u = f
            .see(Err("no currentstate in /tmp/x".into()), None)
            .unwrap();
        assert_eq!(u.error.as_deref(), Some("no currentstate in /tmp/x"));
        // The good board again: the error goes, and nothing else changes.
        let u = f.see(Ok(&state(&game)), None).unwrap();
        assert_eq!((u.seq, u.error.clone()), (1, None));
    }

    #[test]
    fn a_board_that_is_not_one_move_on_starts_the_count_again() {
        let mut game = small();
        let mut f = Follower::new();
        f.see(Ok(&state(&game)), None);
        for _ in 0..2 {
            let (from, to) = some_move(&game);
            game.play(from, to).unwrap();
        }
        let u = f.see(Ok(&state(&game)), None).unwrap();
        assert_eq!(
            (u.seq, u.to_move.clone(), u.last_move.clone()),
            (2, None, None)
        );
    }

    #[test]
    fn a_lost_king_is_the_result() {
        let lines = "0 0 0 WKing\n1 0 0 BPawn\n";
        let mut f = Follower::new();
        let u = f.see(Ok(lines.as_bytes()), None).unwrap();
        assert_eq!(u.result.as_deref(), Some("White took the King and wins"));
        let json = u.to_json();
        assert_eq!(&LiveUpdate::parse(&json).unwrap(), u);
    }
}
