//! The HyperChess page's state, as plain Rust (tested natively): a game or a viewed currentstate file,
//! the selected piece and its targets, the last move, and what the message line says. Every operation the
//! page offers is a method here, so the components only pass clicks and files in and draw what comes out.

use super::view::{Cell, View};
use crate::ai_player::AiSession;
use gridarena_engine::hyperchess::{
    maps, parse_map, parse_state, Coord, Game, Outcome, Played, Side, StateLine,
};

/// What a chosen file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A Map file: a new game on it.
    Map,
    /// A saved game: it replaces the game.
    Save,
    /// A currentstate file: looked at, the game waiting behind it.
    State,
}

/// What the page offers to download.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// The whole game, to load again later.
    Save,
    /// The board as a currentstate file.
    State,
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A game being played.
    Play,
    /// A currentstate file being looked at (the seed's visualizer); the game waits behind it.
    Viewing { name: String, lines: Vec<StateLine> },
}

/// The built-in AI as an opponent: the side it plays, how many positions it searches a move, and the
/// seed that chooses between equal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    pub side: Side,
    pub nodes: u64,
    pub seed: u64,
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
    /// The AI, when a person plays against it.
    ai: Option<Opponent>,
    /// Counts the positions the game has been in, so an AI answer for an older one is dropped.
    version: u64,
    /// The position (its `version`) whose AI answer the rules refused: the AI is not thinking any more
    /// there, and asking it again would give the same answer.
    ai_refused: Option<u64>,
}

/// Words for an outcome.
pub fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::KingTaken { winner } => format!("{winner} took the King and wins!"),
        Outcome::NoMoves { side } => format!("{side} cannot move: the game is a draw"),
    }
}

impl HyperSession {
    /// A new game on a Map file's board. The engine refuses a board it cannot start a game on (a side
    /// without a King); such a board can still be looked at as a currentstate file.
    pub fn from_map(source: &str, text: &str) -> Result<HyperSession, String> {
        let board = parse_map(text).map_err(|e| format!("{source}: {e}"))?;
        let game = Game::new(board).map_err(|e| format!("{source}: {e}"))?;
        Ok(HyperSession::with_game(source, game))
    }

    /// A saved game.
    pub fn from_save(source: &str, text: &str) -> Result<HyperSession, String> {
        let game = Game::load(text).map_err(|e| format!("{source}: {e}"))?;
        Ok(HyperSession::with_game(source, game))
    }

    /// "New game": a new game on the shipped map at `index` (the first map for an index the select
    /// does not offer), against `ai` or a person. The text is for the message line.
    pub fn new_game(&mut self, index: usize, ai: Option<Opponent>) -> Result<String, String> {
        let (name, text) = maps::SHIPPED
            .get(index)
            .copied()
            .unwrap_or(maps::SHIPPED[0]);
        let version = self.version;
        *self = HyperSession::from_map(name, text)?;
        self.version = version + 1;
        self.ai = ai;
        let against = match ai {
            Some(o) => format!(" (the AI plays {})", o.side),
            None => String::new(),
        };
        Ok(format!(
            "New game on the {name} map{against}: White moves first"
        ))
    }

    /// A chosen file, used as `kind` says; a refused file changes nothing. The text is for the message
    /// line.
    pub fn open(&mut self, kind: FileKind, name: &str, bytes: Vec<u8>) -> Result<String, String> {
        let Ok(text) = String::from_utf8(bytes) else {
            return Err(format!("{name} is not a text file (UTF-8)"));
        };
        // A new game from a file keeps the opponent chosen.
        let (ai, version) = (self.ai, self.version + 1);
        match kind {
            FileKind::Map => {
                *self = HyperSession::from_map(name, &text)?;
                (self.ai, self.version) = (ai, version);
                Ok(format!("New game on {name}: White moves first"))
            }
            FileKind::Save => {
                *self = HyperSession::from_save(name, &text)?;
                (self.ai, self.version) = (ai, version);
                Ok(format!("Loaded the game in {name}: {}", self.status()))
            }
            FileKind::State => self.view_state(name, &text),
        }
    }

    /// A download's file name and text.
    pub fn export(&self, what: Export) -> (&'static str, String) {
        match what {
            Export::Save => ("hyperchess.save", self.game.save()),
            Export::State => ("currentstate", self.game.board().to_string()),
        }
    }

    fn with_game(source: &str, game: Game) -> HyperSession {
        HyperSession {
            game,
            source: source.to_string(),
            selected: None,
            targets: Vec::new(),
            last: None,
            mode: Mode::Play,
            ai: None,
            version: 0,
            ai_refused: None,
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
        if self.ai_stuck() {
            return Err(format!(
                "{} (the AI) could not make a move here: start a new game",
                self.game.to_move()
            ));
        }
        if self.ai_to_move() {
            return Err(format!(
                "{} (the AI) is thinking about its move",
                self.game.to_move()
            ));
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
                return Ok(self.moved(played));
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

    /// A move was played: it becomes the last move, and the message line says it.
    fn moved(&mut self, played: Played) -> String {
        self.last = Some(played);
        self.version += 1;
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
        text
    }

    /// Whether it is the AI's turn in a game being played.
    fn ai_to_move(&self) -> bool {
        self.mode == Mode::Play
            && self.game.outcome().is_none()
            && self.ai.is_some_and(|o| o.side == self.game.to_move())
    }

    /// Whether it is the AI's turn and its answer here was refused.
    fn ai_stuck(&self) -> bool {
        self.ai_to_move() && self.ai_refused == Some(self.version)
    }

    /// The AI's job when it is the AI's turn: the position's ticket and the worker's text. None once its
    /// answer here was refused: the search is deterministic, so asking again would give the same answer.
    pub fn ai_job(&self) -> Option<(u64, String)> {
        let o = self.ai.filter(|_| self.ai_to_move() && !self.ai_stuck())?;
        // The search mixes the position into the seed itself.
        Some((
            self.version,
            super::builtin::job(&self.game, o.nodes, o.seed),
        ))
    }

    /// Plays the AI's answer to the job with `ticket`. `Ok(None)`: the answer is for a position that is
    /// gone (a new game came first) and is dropped. An answer the rules refuse changes nothing and says
    /// why (the AI's moves come from the rules, so that is a bug).
    pub fn ai_answer(&mut self, ticket: u64, reply: &str) -> Result<Option<String>, String> {
        if ticket != self.version || !self.ai_to_move() {
            return Ok(None);
        }
        let played = super::builtin::read_reply(reply)
            .map_err(|why| format!("the AI has no move: {why}"))
            .and_then(|(from, to)| {
                self.game
                    .play(from, to)
                    .map_err(|e| format!("the AI's move was refused: {e}"))
            });
        let played = played.inspect_err(|_| self.ai_refused = Some(ticket))?;
        self.clear();
        Ok(Some(format!("The AI: {}", self.moved(played))))
    }

    fn clear(&mut self) {
        self.selected = None;
        self.targets.clear();
    }

    /// The pieces `side` has lost, as chess symbols, or "none".
    pub fn lost_text(&self, side: Side) -> String {
        super::view::lost_text(self.game.captured().iter().copied(), side)
    }

    /// Whether the line above the board announces the end of the game (and is styled as a result).
    pub fn shows_result(&self) -> bool {
        self.mode == Mode::Play && self.game.outcome().is_some()
    }

    /// Whether a currentstate file is being looked at instead of the game.
    pub fn viewing(&self) -> bool {
        matches!(self.mode, Mode::Viewing { .. })
    }

    /// The line above the board.
    pub fn status(&self) -> String {
        match (&self.mode, self.game.outcome()) {
            (Mode::Viewing { name, .. }, _) => format!("Viewing {name} (a currentstate file)"),
            (Mode::Play, Some(o)) => outcome_text(o),
            (Mode::Play, None) if self.ai_stuck() => {
                format!("{} (the AI) could not move", self.game.to_move())
            }
            (Mode::Play, None) if self.ai_to_move() => {
                format!("{} (the AI) is thinking…", self.game.to_move())
            }
            (Mode::Play, None) => format!("{} to move", self.game.to_move()),
        }
    }

    /// What the board shows now.
    pub fn view(&self) -> View {
        match &self.mode {
            Mode::Viewing { lines, .. } => View::of_lines(lines, None),
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
}

/// The page's AI player drives a session through this (`crate::ai_player`): the session, not the AI's
/// job format, knows whose turn it is.
impl AiSession for HyperSession {
    type Ticket = u64;
    const MODULE: &'static str = super::builtin::MODULE;

    fn ai_job(&self) -> Option<(u64, String)> {
        HyperSession::ai_job(self)
    }

    fn ai_answer(&mut self, ticket: u64, reply: &str) -> Result<Option<String>, String> {
        HyperSession::ai_answer(self, ticket, reply)
    }

    fn is_over(&self) -> bool {
        self.game().outcome().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::hyperchess::maps;

    fn c(x: i32, y: i32, z: i32) -> Coord {
        Coord::new(x, y, z)
    }

    /// A new game on the small map against a quick AI playing Black, and that AI.
    fn against_black_ai() -> (HyperSession, Opponent) {
        let mut s = HyperSession::from_map("small", maps::SMALL).unwrap();
        let ai = Opponent {
            side: Side::Black,
            nodes: 2_000,
            seed: 3,
        };
        s.new_game(2, Some(ai)).unwrap();
        (s, ai)
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
        assert_eq!(
            s.game()
                .captured()
                .iter()
                .filter(|p| p.side == Side::Black)
                .count(),
            1
        );
        assert!(s.click(c(2, 0, 0)).unwrap_err().contains("over"));
        let back = HyperSession::from_save("saved", &s.export(Export::Save).1).unwrap();
        assert_eq!(back.game(), s.game());
        assert_eq!(back.status(), "White took the King and wins!");
        assert!(back.shows_result());
        assert_eq!(s.lost_text(Side::Black), "♚");
        assert_eq!(s.lost_text(Side::White), "none");
    }

    #[test]
    fn new_games_files_and_downloads_go_through_the_session() {
        let mut s = HyperSession::from_map("small", maps::SMALL).unwrap();
        assert_eq!(
            s.new_game(1, None).unwrap(),
            "New game on the 5x5x5 with holes map: White moves first"
        );
        assert_eq!(s.game().board().len(), 116);
        // An index the select does not offer starts the first map.
        assert!(s.new_game(99, None).unwrap().contains("standard 5x5x5"));
        s.click(c(2, 3, 0)).unwrap();
        s.click(c(2, 2, 0)).unwrap();
        let (name, saved) = s.export(Export::Save);
        assert_eq!(name, "hyperchess.save");
        let (name, state) = s.export(Export::State);
        assert_eq!(name, "currentstate");

        let mut t = HyperSession::from_map("small", maps::SMALL).unwrap();
        let small = t.clone();
        // Refused files change nothing.
        for (kind, bytes) in [
            (FileKind::Map, b"\xff".to_vec()),
            (FileKind::Save, b"HyperChess save 1\nturn Green\n".to_vec()),
            (FileKind::State, b"1 2\n".to_vec()),
            (FileKind::Map, b"1\n0 -1 -1 -1 -1 -1 -1 WKing\n".to_vec()),
        ] {
            assert!(t.open(kind, "f", bytes).unwrap_err().starts_with("f"));
            assert_eq!(t, small);
        }
        assert_eq!(
            t.open(FileKind::Map, "x", vec![0xff]).unwrap_err(),
            "x is not a text file (UTF-8)"
        );
        assert_eq!(
            t.open(FileKind::Save, "g.save", saved.into_bytes()),
            Ok("Loaded the game in g.save: Black to move".to_string())
        );
        assert_eq!(t.game(), s.game());
        assert_eq!(
            t.open(FileKind::State, "cs", state.into_bytes()),
            Ok("Viewing cs: 125 nodes".to_string())
        );
        assert!(t.viewing() && !t.shows_result());
        assert_eq!(
            t.open(FileKind::Map, "s.map", maps::SMALL.as_bytes().to_vec()),
            Ok("New game on s.map: White moves first".to_string())
        );
        assert!(!t.viewing());
        assert_eq!(t.source(), "s.map");
    }

    #[test]
    fn viewing_a_currentstate_file_and_going_back() {
        let mut s = HyperSession::from_map("small", maps::SMALL).unwrap();
        let text = s.export(Export::State).1;
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

    #[test]
    fn a_refused_ai_answer_leaves_the_ai_stuck_until_the_position_changes() {
        let (mut s, ai) = against_black_ai();
        s.click(c(1, 1, 0)).unwrap();
        s.click(c(1, 1, 1)).unwrap();
        let (ticket, _) = s.ai_job().unwrap();
        // A move from an empty location.
        let err = s.ai_answer(ticket, "2 2 2 0 0 0").unwrap_err();
        assert!(err.contains("the AI's move was refused"), "{err}");
        assert_eq!(s.status(), "Black (the AI) could not move");
        assert_eq!(s.ai_job(), None, "the AI is not asked again here");
        let err = s.click(c(1, 1, 2)).unwrap_err();
        assert!(err.contains("start a new game"), "{err}");
        assert!(s.ai_answer(ticket, "nonsense").is_err());
        s.new_game(
            2,
            Some(Opponent {
                side: Side::White,
                ..ai
            }),
        )
        .unwrap();
        assert_eq!(s.status(), "White (the AI) is thinking…");
    }

    #[test]
    fn the_ai_answers_on_its_turn_and_a_late_answer_is_dropped() {
        let (mut s, ai) = against_black_ai();
        assert_eq!(s.ai_job(), None, "White, the person, moves first");
        s.click(c(1, 1, 0)).unwrap();
        s.click(c(1, 1, 1)).unwrap();
        assert_eq!(s.status(), "Black (the AI) is thinking…");
        let err = s.click(c(1, 1, 2)).unwrap_err();
        assert!(err.contains("thinking"), "{err}");
        let (ticket, job) = s.ai_job().unwrap();
        let reply = crate::hyperchess::builtin::hyperchess_builtin_answer(&job);
        // An answer for another position is dropped; the right one is played.
        assert_eq!(s.ai_answer(ticket + 1, &reply), Ok(None));
        let said = s.ai_answer(ticket, &reply).unwrap().unwrap();
        assert!(said.starts_with("The AI: Black"), "{said}");
        assert_eq!(s.status(), "White to move");
        assert!(s.last().is_some());
        assert_eq!(s.ai_job(), None);
        // An answer the rules refuse changes nothing.
        s.new_game(
            2,
            Some(Opponent {
                side: Side::White,
                ..ai
            }),
        )
        .unwrap();
        let (ticket, _) = s.ai_job().unwrap();
        assert!(s.ai_answer(ticket, "0 0 0 0 0 1").is_err());
        let fresh = HyperSession::from_map("small", maps::SMALL).unwrap();
        assert_eq!(s.game(), fresh.game());
    }
}
