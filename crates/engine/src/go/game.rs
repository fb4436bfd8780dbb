//! A game: the board plus whose turn it is, the history positional superko needs, the captures, the
//! passes and the result.

use super::board::{Board, Packed};
use super::{
    BoardSize, Color, GameResult, Komi, Move, MoveError, Point, ReplayError, Score, UndoError,
};
use crate::SplitMix64;

/// A game of Go under the rules in docs/go.md: Black first, capture, no suicide, positional superko,
/// area scoring, two passes end it, and resignation or a lost move clock end it at once.
///
/// Every method takes any input without panicking; an illegal move is refused with a [`MoveError`] and
/// leaves the game as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position before the first move, and who was to play it: undo replays from there.
    initial: Board,
    first: Color,
    board: Board,
    to_move: Color,
    komi: Komi,
    /// Stones captured by each colour.
    captures: [u32; 2],
    /// Passes in a row just before now.
    passes: u8,
    result: Option<GameResult>,
    timed_out: bool,
    moves: Vec<(Color, Move)>,
    /// Every whole-board position so far, the current one last: a hash for the quick test and the stones
    /// for the exact one.
    hashes: Vec<u64>,
    positions: Vec<Packed>,
}

impl Game {
    /// A new game on an empty board with the default komi (0.5); Black moves first.
    pub fn new(size: BoardSize) -> Game {
        Game::with_komi(size, Komi::DEFAULT)
    }

    /// A new game on an empty board with the given komi.
    pub fn with_komi(size: BoardSize, komi: Komi) -> Game {
        Game::from_position(Board::new(size), Color::Black, komi)
    }

    /// A game that starts from a set-up position (handicap stones, a problem, a test), `to_move` first.
    /// The position counts as the first one of the game's history.
    pub fn from_position(board: Board, to_move: Color, komi: Komi) -> Game {
        Game {
            hashes: vec![board.hash()],
            positions: vec![board.packed()],
            initial: board.clone(),
            first: to_move,
            board,
            to_move,
            komi,
            captures: [0; 2],
            passes: 0,
            result: None,
            timed_out: false,
            moves: Vec::new(),
        }
    }

    /// The position before the first move and who was to play it: what a record (SGF) starts from.
    pub fn start(&self) -> (&Board, Color) {
        (&self.initial, self.first)
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    /// The colour to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// White's komi.
    pub fn komi(&self) -> Komi {
        self.komi
    }

    /// Changes the komi, as GTP's `komi` may at any time. A result already counted stays as it was.
    pub fn set_komi(&mut self, komi: Komi) {
        self.komi = komi;
    }

    /// The number of stones `c` has captured (prisoners; area scoring does not use them).
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    /// The number of passes in a row that led to now (2 ends the game).
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// How the game ended; `None` while it goes on.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Every move so far, with who played it.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// The Zobrist hash of every whole-board position so far, in order, the current one last. A pass
    /// repeats the position and adds nothing.
    pub fn position_hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The area count of the current position (see [`Board::score`]); after two passes it is the result.
    pub fn score(&self) -> Score {
        self.board.score(self.komi)
    }

    /// Whether the colour to move may play `mv` now, and if not, why.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        self.check_as(self.to_move, mv)
    }

    /// Whether `color` may play `mv` now, whoever's turn it is (GTP's `play` lets either colour move).
    pub fn check_as(&self, color: Color, mv: Move) -> Result<(), MoveError> {
        if let Some(result) = self.result {
            return Err(MoveError::GameOver { result });
        }
        match mv {
            Move::Pass | Move::Resign => Ok(()),
            Move::Play(p) => {
                self.board.check(p, color)?;
                self.check_superko(p, color)
            }
        }
    }

    /// Whether the colour to move may play `mv` now.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Every legal move of the colour to move: each legal stone from A1 row by row, then `Pass`. Empty once
    /// the game is over. Resigning is always possible too but is not listed.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.legal_moves_for(self.to_move)
    }

    /// [`Game::legal_moves`] for either colour.
    pub fn legal_moves_for(&self, color: Color) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let mut out: Vec<Move> = self
            .size()
            .points()
            .filter(|&p| self.board.is_empty(p) && self.check_as(color, Move::Play(p)).is_ok())
            .map(Move::Play)
            .collect();
        out.push(Move::Pass);
        out
    }

    /// Plays `mv` for the colour to move, or refuses it and changes nothing.
    ///
    /// ```
    /// use gridarena_engine::go::{BoardSize, Color, Game, Move, MoveError, Point};
    ///
    /// let mut game = Game::replay(BoardSize::NINE, Default::default(), &["B1", "A1"]).unwrap();
    /// // Black's A2 takes White's stone in the corner: the game says which stones went.
    /// game.play(Move::from_gtp("A2", game.size()).unwrap()).unwrap();
    /// assert_eq!(game.last_captures(), [Point::from_gtp("A1", game.size()).unwrap()]);
    /// assert_eq!(game.captures(Color::Black), 1);
    ///
    /// // A refused move says why and changes nothing.
    /// let a1 = Move::from_gtp("A1", game.size()).unwrap();
    /// game.play(Move::Pass).unwrap();
    /// game.play(Move::Pass).unwrap();
    /// assert!(matches!(game.play(a1), Err(MoveError::GameOver { .. })));
    /// assert_eq!(game.moves().len(), 5);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.play_as(self.to_move, mv)
    }

    /// The stones the last move took off the board, row by row from A1: none after a pass, a
    /// resignation, or before the first move. A server announces them with the move, so that a client
    /// need not compare boards.
    pub fn last_captures(&self) -> Vec<Point> {
        match self.moves.last() {
            Some((_, Move::Play(_))) => self.board.last_captures(),
            _ => Vec::new(),
        }
    }

    /// A new game of `size` and `komi` with `moves`, in GTP spelling ("D4", "pass"), played in turn from
    /// Black: how the online server rebuilds a stored game and a page rebuilds a snapshot.
    ///
    /// ```
    /// use gridarena_engine::go::{BoardSize, Color, Game, Komi, ReplayError};
    ///
    /// let game = Game::replay(BoardSize::NINE, Komi::DEFAULT, &["D4", "pass", "E5"]).unwrap();
    /// assert_eq!(game.to_move(), Color::White);
    ///
    /// let err = Game::replay(BoardSize::NINE, Komi::DEFAULT, &["D4", "D4"]).unwrap_err();
    /// assert!(matches!(err, ReplayError::Refused { number: 2, .. }));
    /// assert_eq!(err.to_string(), "move 2 (D4): D4 is occupied by a black stone");
    /// ```
    pub fn replay<S: AsRef<str>>(
        size: BoardSize,
        komi: Komi,
        moves: &[S],
    ) -> Result<Game, ReplayError> {
        let mut game = Game::with_komi(size, komi);
        game.play_gtp(moves)?;
        Ok(game)
    }

    /// Plays `moves`, in GTP spelling, each for the colour to move. Stops at the first one that is not a
    /// move or that the rules refuse, numbered from 1 in `moves`; the moves before it stay played, so a
    /// caller that must go on (a server resuming a stored game) can go on from there.
    pub fn play_gtp<S: AsRef<str>>(&mut self, moves: &[S]) -> Result<(), ReplayError> {
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let number = i + 1;
            let mv =
                Move::from_gtp(text, self.size()).map_err(|error| ReplayError::Unreadable {
                    number,
                    text: text.to_string(),
                    error,
                })?;
            self.play(mv).map_err(|error| ReplayError::Refused {
                number,
                text: text.to_string(),
                error,
            })?;
        }
        Ok(())
    }

    /// Plays `mv` for `color`, whoever's turn it is; then the other colour is to move.
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<(), MoveError> {
        self.check_as(color, mv)?;
        self.apply(color, mv);
        Ok(())
    }

    /// `color`'s move clock ran out: the opponent wins ("W+T"). The clock itself is the server's or the
    /// page's; this records its verdict. Refused once the game is over.
    pub fn time_out(&mut self, color: Color) -> Result<(), MoveError> {
        if let Some(result) = self.result {
            return Err(MoveError::GameOver { result });
        }
        self.result = Some(GameResult::Time {
            winner: color.other(),
        });
        self.timed_out = true;
        Ok(())
    }

    /// Takes back the last move (a stone, a pass or a resignation) and returns it: afterwards the game is
    /// exactly as it was before that move. A loss on time cannot be undone.
    pub fn undo(&mut self) -> Result<(Color, Move), UndoError> {
        if self.timed_out {
            return Err(UndoError::TimedOut);
        }
        let mut moves = std::mem::take(&mut self.moves);
        let Some(last) = moves.pop() else {
            return Err(UndoError::NothingToUndo);
        };
        // Replaying is exact (the same operations rebuild the same state) and cheap: a few hundred
        // moves take well under a millisecond, and a game keeps no per-move snapshots.
        let mut game = Game::from_position(self.initial.clone(), self.first, self.komi);
        for (c, mv) in moves {
            game.apply(c, mv);
        }
        *self = game;
        Ok(last)
    }

    /// A light random playout from the current position (see [`Board::playout`]) on a copy of the board;
    /// the game itself does not change.
    pub fn playout(&self, rng: &mut SplitMix64) -> Score {
        let mut board = self.board.clone();
        board.playout(self.to_move, self.komi, rng)
    }

    /// Refuses a stone that would recreate any earlier position. Hashes rule out almost every move at
    /// once; on a hash match the full boards are compared, so a hash collision can never refuse a move.
    fn check_superko(&self, p: Point, color: Color) -> Result<(), MoveError> {
        let hash = self.board.hash_after(p, color);
        if !self.hashes.contains(&hash) {
            return Ok(());
        }
        let mut after = self.board.clone();
        after.place(p.cell(), color);
        let packed = after.packed();
        let repeats = self
            .hashes
            .iter()
            .zip(&self.positions)
            .any(|(&h, position)| h == hash && *position == packed);
        if repeats {
            Err(MoveError::Superko { point: p })
        } else {
            Ok(())
        }
    }

    /// Plays a move already found legal.
    fn apply(&mut self, color: Color, mv: Move) {
        match mv {
            Move::Play(p) => {
                let taken = self.board.place(p.cell(), color);
                self.captures[color.index()] += taken as u32;
                self.hashes.push(self.board.hash());
                self.positions.push(self.board.packed());
                self.passes = 0;
                self.to_move = color.other();
            }
            Move::Pass => {
                self.board.pass();
                self.passes = self.passes.saturating_add(1);
                self.to_move = color.other();
                if self.passes >= 2 {
                    self.result = Some(self.score().result());
                }
            }
            Move::Resign => {
                self.result = Some(GameResult::Resignation {
                    winner: color.other(),
                });
            }
        }
        self.moves.push((color, mv));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str, g: &Game) -> Move {
        Move::from_gtp(s, g.size()).unwrap()
    }

    fn game(diagram: &str, to_move: Color) -> Game {
        Game::from_position(
            Board::from_diagram(diagram).unwrap(),
            to_move,
            Komi::DEFAULT,
        )
    }

    /// Plays GTP moves for alternating colours, panicking on a refusal.
    fn play_all(g: &mut Game, moves: &[&str]) {
        for m in moves {
            let mv = pt(m, g);
            if let Err(e) = g.play(mv) {
                panic!("{} {m}: {e}\n{:?}", g.to_move(), g.board());
            }
        }
    }

    #[test]
    fn black_moves_first_and_turns_alternate() {
        let mut g = Game::new(BoardSize::NINE);
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(g.legal_moves().len(), 82);
        play_all(&mut g, &["E5", "D4"]);
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(
            g.board().get(pt("E5", &g).point().unwrap()),
            Some(Color::Black)
        );
        assert_eq!(g.moves().len(), 2);
        assert_eq!(g.position_hashes().len(), 3);
    }

    #[test]
    fn simple_ko_is_refused_until_a_ko_threat_is_answered() {
        let mut g = game(
            ". . . . . . .
             . X O . . . .
             X O . O . . .
             . X O . . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
            Color::Black,
        );
        play_all(&mut g, &["C5"]); // black takes the ko
        assert_eq!(g.captures(Color::Black), 1);
        let b5 = pt("B5", &g);
        assert_eq!(
            g.check(b5),
            Err(MoveError::Ko {
                point: b5.point().unwrap()
            })
        );
        assert_eq!(
            g.play(b5),
            Err(MoveError::Ko {
                point: b5.point().unwrap()
            })
        );
        assert!(!g.legal_moves().contains(&b5));
        play_all(&mut g, &["F2", "G2", "B5"]); // a threat, its answer, then the retake is legal
        assert_eq!(g.captures(Color::White), 1);
        let c5 = pt("C5", &g);
        assert!(
            matches!(g.check(c5), Err(MoveError::Ko { .. })),
            "now black must wait"
        );
    }

    /// Three kos side by side: each player retakes a different ko each move, which simple ko allows, and
    /// the sixth move would bring back the starting position.
    #[test]
    fn a_triple_ko_cycle_is_refused_by_superko() {
        // Ko gadget rows 1-3, 5-7 and 9-11 (from the bottom). In the first and third, white's stone on B
        // can be taken by black on C; in the middle one black has just taken and white can retake on B.
        let mut g = game(
            ". X O . . . . . . . .
             X O . O . . . . . . .
             . X O . . . . . . . .
             . . . . . . . . . . .
             . X O . . . . . . . .
             X . X O . . . . . . .
             . X O . . . . . . . .
             . . . . . . . . . . .
             . X O . . . . . . . .
             X O . O . . . . . . .
             . X O . . . . . . . .",
            Color::Black,
        );
        let start = g.board().hash();
        // Black takes ko 1, white retakes ko 2, black takes ko 3, white retakes ko 1, black takes ko 2.
        play_all(&mut g, &["C2", "B6", "C10", "B2", "C6"]);
        let b10 = pt("B10", &g);
        assert_eq!(
            g.board().check(b10.point().unwrap(), Color::White),
            Ok(()),
            "simple ko allows it"
        );
        assert_eq!(
            g.board().hash_after(b10.point().unwrap(), Color::White),
            start
        );
        assert_eq!(
            g.play(b10),
            Err(MoveError::Superko {
                point: b10.point().unwrap()
            })
        );
        assert!(!g.legal_moves().contains(&b10));
        assert!(g.legal_moves().contains(&pt("G7", &g)));
        assert_eq!(g.moves().len(), 5);
    }

    #[test]
    fn a_double_ko_with_a_pass_is_refused_by_superko() {
        let mut g = game(
            ". X O . . . .
             X O . O . . .
             . X O . . . .
             . . . . . . .
             . X O . . . .
             X . X O . . .
             . X O . . . .",
            Color::Black,
        );
        // Black takes the top ko, white retakes the bottom one, black passes, white retakes the top ko:
        // black retaking the bottom ko now would recreate the first position.
        play_all(&mut g, &["C6", "B2"]);
        g.play(Move::Pass).unwrap();
        play_all(&mut g, &["B6"]);
        let c2 = pt("C2", &g);
        assert_eq!(
            g.play(c2),
            Err(MoveError::Superko {
                point: c2.point().unwrap()
            })
        );
    }

    #[test]
    fn two_passes_end_the_game_with_the_area_count() {
        let mut g = Game::new(BoardSize::new(5).unwrap());
        play_all(&mut g, &["C3"]);
        g.play(Move::Pass).unwrap();
        assert_eq!(g.consecutive_passes(), 1);
        assert!(!g.is_over());
        g.play(Move::Pass).unwrap();
        assert_eq!(g.result().unwrap().to_string(), "B+24.5");
        assert!(g.legal_moves().is_empty());
        assert!(matches!(
            g.play(Move::Pass),
            Err(MoveError::GameOver { .. })
        ));
        assert!(matches!(
            g.time_out(Color::Black),
            Err(MoveError::GameOver { .. })
        ));
        // A stone between passes resets the count.
        let mut g = Game::new(BoardSize::NINE);
        g.play(Move::Pass).unwrap();
        play_all(&mut g, &["E5"]);
        g.play(Move::Pass).unwrap();
        assert!(!g.is_over());
        g.play(Move::Pass).unwrap();
        assert_eq!(g.result().unwrap().to_string(), "W+81.5");
    }

    #[test]
    fn resignation_and_time_out() {
        let mut g = Game::new(BoardSize::NINE);
        g.play(Move::Resign).unwrap();
        assert_eq!(g.result().unwrap().to_string(), "W+R");
        assert_eq!(g.undo(), Ok((Color::Black, Move::Resign)));
        assert_eq!(g.result(), None);
        play_all(&mut g, &["E5"]);
        g.play_as(Color::Black, Move::Resign).unwrap();
        assert_eq!(g.result().unwrap().to_string(), "W+R");

        let mut g = Game::new(BoardSize::NINE);
        play_all(&mut g, &["E5"]);
        g.time_out(Color::White).unwrap();
        assert_eq!(g.result().unwrap().to_string(), "B+T");
        let e = g.play(Move::Pass).unwrap_err();
        assert_eq!(e.to_string(), "the game is over (B+T)");
        assert_eq!(g.undo(), Err(UndoError::TimedOut));
    }

    #[test]
    fn integer_komi_can_draw() {
        let mut g = Game::new(BoardSize::new(3).unwrap());
        assert_eq!(g.komi(), Komi::DEFAULT);
        g.set_komi(Komi::ZERO);
        g.play(Move::Pass).unwrap();
        g.play(Move::Pass).unwrap();
        assert_eq!(g.result(), Some(GameResult::Draw));
        assert_eq!(g.result().unwrap().to_string(), "0");
    }

    /// A ko on a 5x5 board: Black's C3 takes White's B3 stone.
    const TAKE_B3: &str = ". . . . .
                           . X O . .
                           X O . O .
                           . X O . .
                           . . . . .";

    #[test]
    fn undo_restores_the_previous_state() {
        let mut g = game(TAKE_B3, Color::Black);
        let before = g.clone();
        play_all(&mut g, &["C3"]);
        assert_eq!(g.captures(Color::Black), 1);
        assert_eq!(g.undo(), Ok((Color::Black, pt("C3", &g))));
        assert_eq!(g, before);
        assert_eq!(g.undo(), Err(UndoError::NothingToUndo));
        let e = UndoError::NothingToUndo.to_string();
        assert!(e.contains("no move"));
    }

    #[test]
    fn out_of_turn_moves_for_gtp() {
        let mut g = Game::new(BoardSize::NINE);
        g.play_as(Color::White, pt("E5", &g)).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        g.play_as(Color::White, pt("D5", &g)).unwrap();
        assert_eq!(g.board().stones(Color::White), 2);
        assert_eq!(g.legal_moves_for(Color::White).len(), 80);
    }

    #[test]
    fn error_messages_name_the_point() {
        let mut g = Game::new(BoardSize::NINE);
        play_all(&mut g, &["E5"]);
        let e = g.play(pt("E5", &g)).unwrap_err();
        assert_eq!(e.to_string(), "E5 is occupied by a black stone");
        assert_eq!(e.code(), "occupied");
        let off = Move::Play(Point::new(11, 0).unwrap());
        assert_eq!(
            g.play(off).unwrap_err().to_string(),
            "M1 is off the 9x9 board"
        );
    }

    #[test]
    fn the_last_move_says_which_stones_it_captured() {
        let mut g = game(TAKE_B3, Color::Black);
        assert!(g.last_captures().is_empty(), "no move yet");
        play_all(&mut g, &["C3"]);
        assert_eq!(g.last_captures(), [pt("B3", &g).point().unwrap()]);
        play_all(&mut g, &["E1"]);
        assert!(g.last_captures().is_empty(), "a quiet move");
        g.play(Move::Pass).unwrap();
        assert!(g.last_captures().is_empty(), "a pass");
        g.undo().unwrap();
        g.undo().unwrap();
        assert_eq!(
            g.last_captures(),
            [pt("B3", &g).point().unwrap()],
            "undo rebuilds them"
        );
        g.play(Move::Resign).unwrap();
        assert!(g.last_captures().is_empty(), "a resignation");
    }

    #[test]
    fn replay_names_the_first_move_it_cannot_play_and_keeps_those_before() {
        let size = BoardSize::NINE;
        let g = Game::replay(size, Komi::DEFAULT, &["D4", "pass", "e5", "PASS"]).unwrap();
        assert_eq!(g.moves().len(), 4);
        assert_eq!(g.to_move(), Color::Black);
        let none: [&str; 0] = [];
        assert_eq!(
            Game::replay(size, Komi::ZERO, &none).unwrap().komi(),
            Komi::ZERO
        );

        let err = Game::replay(size, Komi::DEFAULT, &["D4", "Z9"]).unwrap_err();
        assert!(
            matches!(err, ReplayError::Unreadable { number: 2, .. }),
            "{err:?}"
        );
        assert_eq!(err.number(), 2);
        assert!(err.to_string().starts_with("move 2 (Z9): "), "{err}");
        let moves = vec!["pass".to_string(), "pass".to_string(), "D4".to_string()];
        let err = Game::replay(size, Komi::DEFAULT, &moves).unwrap_err();
        assert_eq!(err.to_string(), "move 3 (D4): the game is over (W+0.5)");

        let mut g = Game::new(size);
        let err = g.play_gtp(&["D4", "E5", "D4", "F6"]).unwrap_err();
        assert!(
            matches!(err, ReplayError::Refused { number: 3, .. }),
            "{err:?}"
        );
        assert_eq!(g.moves().len(), 2, "the moves before the refused one stay");
    }
}
