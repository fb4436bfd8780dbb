//! The HyperChess page's state, as plain Rust (tested natively): a game or a viewed currentstate file,
//! the selected piece and its targets, the last move, and what the message line says.

use gridarena_engine::hyperchess::{
    parse_map, parse_state, Coord, Game, Outcome, Piece, Played, Side, StateLine,
};

/// A location as the board draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub at: Coord,
    pub piece: Option<Piece>,
    pub selected: bool,
    pub target: bool,
    /// Part of the last move (its start or its end).
    pub last: bool,
}

/// The board as drawn: every location, and the box they fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub lo: Coord,
    pub hi: Coord,
    pub cells: Vec<Cell>,
}

impl View {
    fn new(cells: Vec<Cell>) -> View {
        let mut lo = cells.first().map_or(Coord::ORIGIN, |c| c.at);
        let mut hi = lo;
        for c in &cells {
            lo = Coord::new(lo.x.min(c.at.x), lo.y.min(c.at.y), lo.z.min(c.at.z));
            hi = Coord::new(hi.x.max(c.at.x), hi.y.max(c.at.y), hi.z.max(c.at.z));
        }
        View { lo, hi, cells }
    }

    /// The cell at a location; `None` for a hole.
    pub fn cell(&self, at: Coord) -> Option<&Cell> {
        self.cells.iter().find(|c| c.at == at)
    }
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A game being played.
    Play,
    /// A currentstate file being looked at (the seed's visualizer); the game waits behind it.
    Viewing { name: String, lines: Vec<StateLine> },
}

/// The page's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HyperSession {
    game: Game,
    /// Where the game came from, for file names and the status line.
    source: String,
    selected: Option<Coord>,
    targets: Vec<Coord>,
    last: Option<Played>,
    mode: Mode,
}

/// Words for an outcome.
pub fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::KingTaken { winner } => format!("{winner} took the King and wins!"),
        Outcome::NoMoves { side } => format!("{side} cannot move: the game is a draw"),
    }
}

impl HyperSession {
    /// A new game on a Map file's board.
    /// A map without a King for each side is refused: taking the King is how a game is won (the
    /// terminal game refuses it too). Such a board can still be looked at as a currentstate file.
    pub fn from_map(source: &str, text: &str) -> Result<HyperSession, String> {
        let board = parse_map(text).map_err(|e| format!("{source}: {e}"))?;
        if let Some(side) = board.missing_king() {
            return Err(format!(
                "{source}: {side} has no King, and a game is won by taking the King"
            ));
        }
        Ok(HyperSession::with_game(source, Game::new(board)))
    }

    /// A saved game.
    pub fn from_save(source: &str, text: &str) -> Result<HyperSession, String> {
        let game = Game::load(text).map_err(|e| format!("{source}: {e}"))?;
        Ok(HyperSession::with_game(source, game))
    }

    fn with_game(source: &str, game: Game) -> HyperSession {
        HyperSession {
            game,
            source: source.to_string(),
            selected: None,
            targets: Vec::new(),
            last: None,
            mode: Mode::Play,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    pub fn last(&self) -> Option<Played> {
        self.last
    }

    /// Shows a currentstate file instead of the game; the error names the line.
    pub fn view_state(&mut self, name: &str, text: &str) -> Result<String, String> {
        let lines = parse_state(text).map_err(|e| format!("{name}: {e}"))?;
        let n = lines.len();
        self.mode = Mode::Viewing {
            name: name.to_string(),
            lines,
        };
        Ok(format!("Viewing {name}: {n} nodes"))
    }

    /// Back from viewing to the game.
    pub fn back_to_game(&mut self) {
        self.mode = Mode::Play;
    }

    /// A click on a location: select one of your pieces (showing where it can go), move the selected piece
    /// to a target, or explain why not. The text is for the message line.
    pub fn click(&mut self, at: Coord) -> Result<String, String> {
        if self.mode != Mode::Play {
            return Err(
                "this is a currentstate file being viewed: go back to the game to play".into(),
            );
        }
        if let Some(o) = self.game.outcome() {
            return Err(format!("the game is over: {}", outcome_text(o)));
        }
        if let Some(from) = self.selected {
            if from == at {
                self.clear();
                return Ok("selection cleared".to_string());
            }
            let own = self
                .game
                .board()
                .piece_at(at)
                .is_some_and(|p| p.side == self.game.to_move());
            if !own {
                let played = self.game.play(from, at);
                self.clear();
                let played = played.map_err(|e| e.to_string())?;
                self.last = Some(played);
                let mut text = format!(
                    "{} {} ({}) to ({})",
                    played.piece.side,
                    played.piece.kind.name(),
                    played.from,
                    played.to
                );
                if let Some(c) = played.captured {
                    text.push_str(&format!(", taking {c}"));
                }
                if let Some(o) = self.game.outcome() {
                    text.push_str(&format!(". {}", outcome_text(o)));
                }
                return Ok(text);
            }
        }
        let targets = self.game.targets(at).map_err(|e| e.to_string())?;
        let piece = self.game.board().piece_at(at);
        self.selected = Some(at);
        let name = piece.map_or_else(String::new, |p| p.to_string());
        let text = match targets.len() {
            0 => format!("the {name} at ({at}) has no move"),
            1 => format!("the {name} at ({at}) can go to 1 place"),
            n => format!("the {name} at ({at}) can go to {n} places"),
        };
        self.targets = targets;
        Ok(text)
    }

    fn clear(&mut self) {
        self.selected = None;
        self.targets.clear();
    }

    /// Pieces taken from each side: White's lost pieces, then Black's.
    pub fn captured(&self, side: Side) -> Vec<Piece> {
        self.game
            .captured()
            .iter()
            .copied()
            .filter(|p| p.side == side)
            .collect()
    }

    /// The line above the board.
    pub fn status(&self) -> String {
        match (&self.mode, self.game.outcome()) {
            (Mode::Viewing { name, .. }, _) => format!("Viewing {name} (a currentstate file)"),
            (Mode::Play, Some(o)) => outcome_text(o),
            (Mode::Play, None) => format!("{} to move", self.game.to_move()),
        }
    }

    /// What the board shows now.
    pub fn view(&self) -> View {
        match &self.mode {
            Mode::Viewing { lines, .. } => View::new(
                lines
                    .iter()
                    .map(|l| Cell {
                        at: l.at,
                        piece: l.piece,
                        selected: false,
                        target: false,
                        last: false,
                    })
                    .collect(),
            ),
            Mode::Play => {
                let last = self.last.map(|p| [p.from, p.to]);
                View::new(
                    self.game
                        .board()
                        .nodes()
                        .iter()
                        .map(|n| Cell {
                            at: n.coord,
                            piece: n.piece,
                            selected: self.selected == Some(n.coord),
                            target: self.targets.contains(&n.coord),
                            last: last.is_some_and(|l| l.contains(&n.coord)),
                        })
                        .collect(),
                )
            }
        }
    }

    /// The game as a save file.
    pub fn save_text(&self) -> String {
        self.game.save()
    }

    /// The board as a currentstate file.
    pub fn currentstate(&self) -> String {
        self.game.board().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::hyperchess::maps;

    fn c(x: i32, y: i32, z: i32) -> Coord {
        Coord::new(x, y, z)
    }

    #[test]
    fn click_a_piece_then_a_target_to_move() {
        let mut s = HyperSession::from_map("standard", maps::STANDARD).unwrap();
        assert_eq!(s.status(), "White to move");
        let said = s.click(c(2, 3, 0)).unwrap();
        assert!(said.starts_with("the WPawn at (2 3 0) can go to"), "{said}");
        let view = s.view();
        assert!(view.cell(c(2, 3, 0)).unwrap().selected);
        assert!(view.cell(c(2, 2, 0)).unwrap().target);
        assert_eq!(
            s.click(c(2, 2, 0)).unwrap(),
            "White Pawn (2 3 0) to (2 2 0)"
        );
        assert_eq!(s.status(), "Black to move");
        assert!(s.view().cell(c(2, 2, 0)).unwrap().last);
        // White's pieces are not Black's to move; an empty node has nothing to move.
        assert!(s
            .click(c(2, 2, 0))
            .unwrap_err()
            .contains("belongs to White"));
        assert!(s.click(c(2, 2, 2)).unwrap_err().contains("no piece"));
    }

    #[test]
    fn a_bad_destination_is_explained_and_clicking_another_own_piece_reselects() {
        let mut s = HyperSession::from_map("standard", maps::STANDARD).unwrap();
        s.click(c(0, 4, 0)).unwrap();
        // Another White piece: select it instead.
        assert!(s.click(c(1, 3, 0)).unwrap().contains("WPawn at (1 3 0)"));
        let err = s.click(c(1, 0, 0)).unwrap_err();
        assert_eq!(err, "the WPawn at (1 3 0) cannot move to (1 0 0)");
        assert_eq!(s.game().to_move(), Side::White);
        assert!(!s.view().cells.iter().any(|c| c.selected || c.target));
    }

    #[test]
    fn a_king_capture_ends_the_game_and_saves_round_trip() {
        let small = "4\n0 -1 1 -1 -1 -1 -1 WRook\n1 0 2 -1 -1 -1 -1\n2 1 -1 -1 3 -1 -1 BKing\n3 -1 -1 2 -1 -1 -1 WKing\n";
        let mut s = HyperSession::from_map("tiny", small).unwrap();
        s.click(c(0, 0, 0)).unwrap();
        let said = s.click(c(2, 0, 0)).unwrap();
        assert_eq!(
            said,
            "White Rook (0 0 0) to (2 0 0), taking BKing. White took the King and wins!"
        );
        assert_eq!(s.captured(Side::Black).len(), 1);
        assert!(s.click(c(2, 0, 0)).unwrap_err().contains("over"));
        let back = HyperSession::from_save("saved", &s.save_text()).unwrap();
        assert_eq!(back.game(), s.game());
        assert_eq!(back.status(), "White took the King and wins!");
    }

    #[test]
    fn viewing_a_currentstate_file_and_going_back() {
        let mut s = HyperSession::from_map("small", maps::SMALL).unwrap();
        let text = s.currentstate();
        assert_eq!(
            s.view_state("currentstate", &text).unwrap(),
            "Viewing currentstate: 27 nodes"
        );
        assert_eq!(s.view().cells.len(), 27);
        assert!(s.click(c(1, 2, 0)).is_err());
        assert!(s
            .view_state("bad", "1 2\n")
            .unwrap_err()
            .starts_with("bad: line 1"));
        s.back_to_game();
        assert!(s.click(c(1, 2, 0)).is_ok());
    }

    #[test]
    fn bad_files_are_refused_with_their_name_and_line() {
        let err = HyperSession::from_map("m.map", "2\n0 -1 1 -1 -1 -1 -1\n").unwrap_err();
        assert!(err.starts_with("m.map: "), "{err}");
        assert!(HyperSession::from_save("x.save", "not a save").is_err());
        let kingless = "1\n0 -1 -1 -1 -1 -1 -1 WKing\n";
        assert_eq!(
            HyperSession::from_map("k.map", kingless).unwrap_err(),
            "k.map: Black has no King, and a game is won by taking the King"
        );
    }
}
