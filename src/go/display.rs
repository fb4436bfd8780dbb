//! What the Go page shows of a session, in words and points: the status line, the move and area lines,
//! the greeting of a new game, and the stones and owned points the board draws. Plain Rust over the
//! session's public reads, so every text the page shows is tested natively.

use super::session::{title, GoSession};
use crate::notice::{Line, Tone};
use gridarena_engine::go::{Color, Point};

impl GoSession {
    /// The message line when nothing else is said: the result, or whose turn it is.
    pub fn status_line(&self) -> Line {
        match self.result_text() {
            Some(result) => Line::new(Tone::Result, result),
            None => {
                let c = self.game().to_move();
                Line::new(
                    Tone::Info,
                    format!("{} ({}) to play", title(c), self.player_name(c)),
                )
            }
        }
    }

    /// What the message line says when a new game starts.
    pub fn greeting(&self) -> String {
        let mover = self.game().to_move();
        format!(
            "New {0} game: {1} ({2}) to play. Click a point to place a stone.",
            self.game().size(),
            title(mover),
            self.player_name(mover)
        )
    }

    /// The live area count under the board.
    pub fn area_text(&self) -> String {
        let score = self.area();
        format!(
            "Area now: Black {} · White {} + komi {} → {}",
            score.black,
            score.white,
            score.komi,
            score.result()
        )
    }

    /// The line under the board: the number of moves and the last one.
    pub fn moves_text(&self) -> String {
        let n = self.game().moves().len();
        match self.last_move() {
            Some((c, m)) => format!("Move {n}: {} {m}", title(c)),
            None => "No moves yet".to_string(),
        }
    }

    /// Every stone on the board.
    pub fn stones(&self) -> Vec<(Point, Color)> {
        let board = self.game().board();
        board
            .size()
            .points()
            .filter_map(|p| board.get(p).map(|c| (p, c)))
            .collect()
    }

    /// Every empty point and the colour whose area it is, for "Show area on the board".
    pub fn owned_points(&self) -> Vec<(Point, Color)> {
        let board = self.game().board();
        let owners = board.owners();
        board
            .size()
            .points()
            .filter(|&p| board.is_empty(p))
            .filter_map(|p| owners.get(p).map(|c| (p, c)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::session::{Action, Opponent, Setup};
    use super::*;
    use gridarena_engine::go::BoardSize;

    fn at(v: &str) -> Action {
        Action::Play(Point::from_gtp(v, BoardSize::NINE).unwrap())
    }

    fn two_people() -> GoSession {
        let setup = Setup {
            opponent: Opponent::Person,
            ..Setup::default()
        };
        GoSession::new(setup, 1)
    }

    #[test]
    fn the_lines_follow_the_game() {
        let mut s = two_people();
        assert_eq!(
            s.greeting(),
            "New 9x9 game: Black (Black) to play. Click a point to place a stone."
        );
        assert_eq!(
            s.status_line(),
            Line::new(Tone::Info, "Black (Black) to play")
        );
        assert_eq!(s.moves_text(), "No moves yet");
        assert_eq!(
            s.area_text(),
            "Area now: Black 0 · White 0 + komi 0.5 → W+0.5"
        );
        assert!(s.stones().is_empty() && s.owned_points().is_empty());
        s.act(at("A1"), 1.0).unwrap();
        s.act(at("B2"), 2.0).unwrap();
        assert_eq!(s.moves_text(), "Move 2: White B2");
        assert_eq!(s.stones().len(), 2);
        // The empty points touch both colours, so nobody owns them yet.
        assert!(s.owned_points().is_empty());
        s.act(Action::Resign, 3.0).unwrap();
        assert_eq!(
            s.status_line(),
            Line::new(Tone::Result, "White wins by resignation (W+R)")
        );
    }

    #[test]
    fn a_lone_stone_owns_the_empty_board() {
        let mut s = two_people();
        s.act(at("E5"), 1.0).unwrap();
        assert_eq!(s.owned_points().len(), 80);
        assert!(s.owned_points().iter().all(|&(_, c)| c == Color::Black));
        assert_eq!(
            s.area_text(),
            "Area now: Black 81 · White 0 + komi 0.5 → B+80.5"
        );
    }
}
