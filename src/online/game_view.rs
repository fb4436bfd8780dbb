//! One online game as the page sees it: rebuilt from the server's snapshot by replaying its moves through
//! the engine, then kept up to date move by move. The server is the referee; the page replays only to draw
//! the board, count captures and the area, and check a click before sending it. A move that does not fit
//! (a gap in the numbering, or one the rules refuse) means the page is out of step, and it asks for a fresh
//! snapshot rather than guess.

use gridarena_engine::go::online::{GameId, Snapshot};
use gridarena_engine::go::{BoardSize, Color, Game, Komi, Move, Point, ReplayError, SetupError};
use std::fmt;

/// An online game on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineGame {
    pub id: GameId,
    pub black: String,
    pub white: String,
    /// The colour this page plays; `None` when watching.
    pub mine: Option<Color>,
    game: Game,
    /// The result as the server wrote it, once over.
    result: Option<String>,
    /// The time the player to move had when the server last said, and when (page milliseconds) that was.
    clock: Option<(u64, f64)>,
}

/// What a server message did to the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The move was played; the words for the status line.
    Played(String),
    /// Already known (a move that arrived again after a snapshot): nothing changed.
    Known,
    /// The page is out of step: it should ask for a snapshot.
    OutOfStep(String),
}

/// Why a snapshot cannot be drawn: the server and the page disagree about the rules or the sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    Size { game: GameId, error: SetupError },
    Moves { game: GameId, error: ReplayError },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (game, error): (_, &dyn fmt::Display) = match self {
            SnapshotError::Size { game, error } => (game, error),
            SnapshotError::Moves { game, error } => (game, error),
        };
        write!(f, "game {game}: {error}")
    }
}

fn color_of(name: &str) -> Option<Color> {
    name.parse().ok()
}

impl OnlineGame {
    /// Rebuilds a game from a snapshot; `me` is this page's player name, if signed in.
    pub fn from_snapshot(
        s: &Snapshot,
        me: Option<&str>,
        now: f64,
    ) -> Result<OnlineGame, SnapshotError> {
        let id = s.game;
        let size = BoardSize::new(u32::from(s.size))
            .map_err(|error| SnapshotError::Size { game: id, error })?;
        // The server plays with the default komi only; the snapshot's copy of it is for other clients.
        let game = Game::replay(size, Komi::DEFAULT, &s.moves)
            .map_err(|error| SnapshotError::Moves { game: id, error })?;
        let mine = match me {
            Some(me) if me == s.black => Some(Color::Black),
            Some(me) if me == s.white => Some(Color::White),
            _ => None,
        };
        Ok(OnlineGame {
            id: s.game,
            black: s.black.clone(),
            white: s.white.clone(),
            mine,
            game,
            result: s.result.clone(),
            clock: s.clock_ms.map(|ms| (ms, now)),
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The result as SGF writes it ("B+3.5"), once the game is over.
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    pub fn name(&self, c: Color) -> &str {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// Whether this page's player is to move.
    pub fn my_turn(&self) -> bool {
        !self.is_over() && self.mine == Some(self.game.to_move())
    }

    /// The time the player to move has left at `now`, counted down from the server's last word.
    pub fn clock_left(&self, now: f64) -> Option<u64> {
        if self.is_over() {
            return None;
        }
        let (ms, at) = self.clock?;
        let spent = (now - at).max(0.0) as u64;
        Some(ms.saturating_sub(spent))
    }

    /// Checks a move before it is sent, so an obviously illegal click is explained at once without a round
    /// trip; the server checks it again.
    pub fn check(&self, mv: Move) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        match self.mine {
            None => return Err("you are watching this game".to_string()),
            Some(c) if c != self.game.to_move() => {
                return Err(format!("it is {}'s turn", self.name(c.other())))
            }
            Some(_) => {}
        }
        self.game.check(mv).map_err(|e| e.to_string())
    }

    /// Applies the server's `move` message.
    pub fn apply(
        &mut self,
        move_number: u32,
        color: &str,
        text: &str,
        clock_ms: Option<u64>,
        now: f64,
    ) -> Applied {
        let played = self.game.moves().len() as u32;
        if move_number <= played {
            return Applied::Known;
        }
        if move_number != played + 1 {
            return Applied::OutOfStep(format!("move {move_number} arrived after move {played}"));
        }
        let Some(color) = color_of(color) else {
            return Applied::OutOfStep(format!("{color:?} is not a colour"));
        };
        let mv = match Move::from_gtp(text, self.game.size()) {
            Ok(mv) => mv,
            Err(e) => return Applied::OutOfStep(e.to_string()),
        };
        if let Err(e) = self.game.play_as(color, mv) {
            return Applied::OutOfStep(format!("the server's move {text} does not fit: {e}"));
        }
        self.clock = clock_ms.map(|ms| (ms, now));
        let who = self.name(color);
        Applied::Played(match mv {
            Move::Pass => format!("{who} passed"),
            _ => format!("{who} played {text}"),
        })
    }

    /// The server ended the game.
    pub fn end(&mut self, result: &str) {
        self.result = Some(result.to_string());
    }

    /// The words for a result: "Black (Ada) wins by 3.5 points (B+3.5)".
    pub fn result_words(&self, result: &str) -> String {
        let (winner, how) = match result.split_once('+') {
            Some(("B", how)) => (Color::Black, how),
            Some(("W", how)) => (Color::White, how),
            _ => return format!("The game is over: {result}"),
        };
        let how = match how {
            "R" => "by resignation".to_string(),
            "T" => "on time".to_string(),
            points => format!("by {points} points"),
        };
        let name = crate::go::session::title(winner);
        format!("{name} ({}) wins {how} ({result})", self.name(winner))
    }

    /// The heading: "Game 12 · 9x9", and " (watching)" when this page does not play.
    pub fn title(&self) -> String {
        let watching = if self.mine.is_none() {
            " (watching)"
        } else {
            ""
        };
        format!("Game {} · {}{watching}", self.id, self.game.size())
    }

    /// The status line: the result, or who is to move.
    pub fn status(&self) -> String {
        match self.result() {
            Some(r) => self.result_words(r),
            None if self.my_turn() => "Your move".to_string(),
            None => format!("{} to play", self.name(self.game.to_move())),
        }
    }

    /// A player's name on their panel, with " (you)" for this page's player.
    pub fn label(&self, c: Color) -> String {
        let you = if self.mine == Some(c) { " (you)" } else { "" };
        format!("{}{you}", self.name(c))
    }

    /// Whether `c` is to move in a game still in play (their panel is highlighted and their clock runs).
    pub fn is_to_move(&self, c: Color) -> bool {
        !self.is_over() && self.game.to_move() == c
    }

    /// The point of the last stone, for the goban's marker.
    pub fn last_point(&self) -> Option<Point> {
        self.game.moves().last().and_then(|(_, m)| m.point())
    }

    /// The stones on the board, for the goban.
    pub fn stones(&self) -> Vec<(Point, Color)> {
        let board = self.game.board();
        board
            .size()
            .points()
            .filter_map(|p| board.get(p).map(|c| (p, c)))
            .collect()
    }
}

/// A snapshot of a 9x9 game between Ada (Black) and Bob (White) with these moves, for tests.
#[cfg(test)]
pub(crate) fn test_snapshot(game: GameId, moves: &[&str]) -> Snapshot {
    Snapshot {
        game,
        size: 9,
        komi: 0.5,
        black: "Ada".into(),
        white: "Bob".into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        move_number: moves.len() as u32,
        to_move: String::new(),
        captures: Default::default(),
        clock_ms: Some(300_000),
        result: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(moves: &[&str]) -> Snapshot {
        test_snapshot(7, moves)
    }

    #[test]
    fn a_snapshot_replays_and_knows_whose_game_it_is() {
        let g =
            OnlineGame::from_snapshot(&snapshot(&["A2", "A1", "B1"]), Some("Bob"), 0.0).unwrap();
        assert_eq!(g.mine, Some(Color::White));
        assert_eq!(g.game().captures(Color::Black), 1);
        assert!(g.my_turn());
        assert_eq!(g.stones().len(), 2);
        let watcher = OnlineGame::from_snapshot(&snapshot(&[]), None, 0.0).unwrap();
        assert_eq!(watcher.mine, None);
        assert_eq!(
            watcher.check(Move::Pass).unwrap_err(),
            "you are watching this game"
        );
    }

    #[test]
    fn a_bad_snapshot_is_refused_with_the_move_that_does_not_fit() {
        let err = OnlineGame::from_snapshot(&snapshot(&["D4", "D4"]), None, 0.0).unwrap_err();
        assert!(
            err.to_string().starts_with("game 7: move 2 (D4): "),
            "{err}"
        );
        let mut s = snapshot(&[]);
        s.size = 40;
        assert!(matches!(
            OnlineGame::from_snapshot(&s, None, 0.0),
            Err(SnapshotError::Size { game: 7, .. })
        ));
        let err = OnlineGame::from_snapshot(&snapshot(&["Z9"]), None, 0.0).unwrap_err();
        assert!(err.to_string().contains("move 1"), "{err}");
    }

    #[test]
    fn moves_apply_in_order_and_gaps_or_misfits_ask_for_a_snapshot() {
        let mut g = OnlineGame::from_snapshot(&snapshot(&["D4"]), Some("Ada"), 0.0).unwrap();
        assert!(!g.my_turn());
        assert_eq!(g.check(Move::Pass).unwrap_err(), "it is Bob's turn");
        assert_eq!(g.apply(1, "black", "D4", None, 1.0), Applied::Known);
        assert!(matches!(
            g.apply(3, "black", "E5", None, 1.0),
            Applied::OutOfStep(_)
        ));
        assert!(matches!(
            g.apply(2, "white", "D4", None, 1.0),
            Applied::OutOfStep(_)
        ));
        assert!(matches!(
            g.apply(2, "purple", "E5", None, 1.0),
            Applied::OutOfStep(_)
        ));
        assert_eq!(
            g.apply(2, "white", "E5", Some(299_000), 1000.0),
            Applied::Played("Bob played E5".into())
        );
        assert!(g.my_turn());
        assert_eq!(g.clock_left(3000.0), Some(297_000));
        assert_eq!(
            g.check(Move::Play(Point::new(4, 4).unwrap())).unwrap_err(),
            "E5 is occupied by a white stone"
        );
        g.end("W+R");
        assert_eq!(g.result(), Some("W+R"));
        assert!(!g.my_turn());
        assert_eq!(g.clock_left(3000.0), None);
    }

    #[test]
    fn the_words_on_screen_say_who_plays_who_moves_and_who_won() {
        let mut g = OnlineGame::from_snapshot(&snapshot(&["D4"]), Some("Bob"), 0.0).unwrap();
        assert_eq!(g.title(), "Game 7 · 9x9");
        assert_eq!(g.status(), "Your move");
        assert_eq!(g.label(Color::White), "Bob (you)");
        assert_eq!(g.label(Color::Black), "Ada");
        assert!(g.is_to_move(Color::White) && !g.is_to_move(Color::Black));
        assert_eq!(g.last_point(), Point::new(3, 3));
        g.apply(2, "white", "pass", None, 0.0);
        assert_eq!(g.status(), "Ada to play");
        assert_eq!(g.last_point(), None, "a pass has no point");
        let watcher = OnlineGame::from_snapshot(&snapshot(&[]), None, 0.0).unwrap();
        assert_eq!(watcher.title(), "Game 7 · 9x9 (watching)");
        assert_eq!(
            g.result_words("B+3.5"),
            "Black (Ada) wins by 3.5 points (B+3.5)"
        );
        assert_eq!(
            g.result_words("W+R"),
            "White (Bob) wins by resignation (W+R)"
        );
        assert_eq!(g.result_words("B+T"), "Black (Ada) wins on time (B+T)");
        assert_eq!(g.result_words("0"), "The game is over: 0");
        g.end("W+T");
        assert_eq!(g.status(), "White (Bob) wins on time (W+T)");
        assert!(!g.is_to_move(Color::Black));
    }
}
